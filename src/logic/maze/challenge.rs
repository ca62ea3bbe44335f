//! What difficulty and level make of a maze: the torch, the price of a hint, the guardians, the
//! shrines, and the larger maze of each next level. The README's table lists these numbers.

use super::{MAX_SIDE, Maze, MazeSpec};
use crate::logic::difficulty::Difficulty;
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::seed::{Stream, stream_rng};
use rand::Rng;

/// Cells added to each side of the maze per level after the first.
pub const LEVEL_GROWTH: usize = 6;
/// The highest level: by then every side has long reached [`MAX_SIDE`].
pub const MAX_LEVEL: u32 = 1000;
/// Cells per guardian on Hard, at level 1.
pub const CELLS_PER_GUARDIAN: usize = 100;
/// The most guardians in one maze.
pub const MAX_GUARDIANS: usize = 100;
/// How far a guardian may walk from home, in steps along the corridors.
pub const GUARDIAN_TETHER: u32 = 5;
/// Steps kept free between a guardian's reach and the shortest way from the start to the exit
/// (which holds the start and the shrines): guardians lurk off the way, never on it, so a player
/// who knows the way is never caught and one exploring in the dark can be.
pub const ROUTE_MARGIN: u32 = 1;
/// Fixed steps per second of play.
pub const TICKS_PER_SECOND: u64 = (1.0 / SIMULATION_STEP_S) as u64;
/// Shrines along the way besides the start: at these fractions of the shortest route.
const SHRINE_FRACTIONS: [f64; 2] = [1.0 / 3.0, 2.0 / 3.0];

/// The rules of a maze at one difficulty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MazeRules {
    /// The difficulty they come from.
    pub difficulty: Difficulty,
    /// The torch's reach in cells, or `None` when the whole maze is lit.
    pub torch_radius: Option<u32>,
    /// Seconds added to the time for each hint.
    pub hint_cost_s: u32,
    /// Whether guardians walk the maze (and shrines keep the player's progress).
    pub guardians: bool,
}

impl MazeRules {
    /// The rules of a difficulty.
    pub const fn of(difficulty: Difficulty) -> MazeRules {
        match difficulty {
            Difficulty::Easy => MazeRules {
                difficulty,
                torch_radius: None,
                hint_cost_s: 0,
                guardians: false,
            },
            Difficulty::Normal => MazeRules {
                difficulty,
                torch_radius: Some(5),
                hint_cost_s: 10,
                guardians: false,
            },
            Difficulty::Hard => MazeRules {
                difficulty,
                torch_radius: Some(3),
                hint_cost_s: 30,
                guardians: true,
            },
        }
    }

    /// The time that counts for a run of `ticks` fixed steps with `hints` hints: the play time
    /// plus [`MazeRules::hint_cost_s`] for each hint, in fixed steps.
    pub fn counted_ticks(&self, ticks: u64, hints: u32) -> u64 {
        ticks + u64::from(hints) * u64::from(self.hint_cost_s) * TICKS_PER_SECOND
    }

    /// How many guardians a maze of `cells` cells holds at `level` (counted from 1): one per
    /// [`CELLS_PER_GUARDIAN`] cells, at least one, plus one per level after the first, at most
    /// [`MAX_GUARDIANS`]; none unless the rules have guardians.
    pub fn guardian_count(&self, cells: usize, level: u32) -> usize {
        if !self.guardians {
            return 0;
        }
        let extra = level.saturating_sub(1) as usize;
        ((cells / CELLS_PER_GUARDIAN).max(1) + extra).min(MAX_GUARDIANS)
    }
}

/// The maze of `level` (counted from 1) of a game that starts with `first`: level 1 is `first`
/// itself; each later level is [`LEVEL_GROWTH`] cells wider and taller (up to [`MAX_SIDE`]) and
/// carved from its own seed, drawn from the game seed's level stream.
pub fn level_spec(first: &MazeSpec, level: u32) -> MazeSpec {
    let levels_after_first = usize::try_from(level.saturating_sub(1)).unwrap_or(usize::MAX);
    let grown = |side: usize| {
        side.saturating_add(LEVEL_GROWTH.saturating_mul(levels_after_first))
            .min(MAX_SIDE)
    };
    MazeSpec {
        width: grown(first.width),
        height: grown(first.height),
        seed: level_seed(first.seed, level),
        ..*first
    }
}

/// The seed of a level's maze: the game seed for level 1, then the level stream's words.
pub fn level_seed(seed: u64, level: u32) -> u64 {
    let mut levels = stream_rng(seed, Stream::MazeLevels);
    (1..level).fold(seed, |_, _| levels.next_u64())
}

/// The shrines of a maze: the start, then the cells of `route` (the shortest way from start to
/// exit) at a third and at two thirds of the way.
pub fn shrine_cells(maze: &Maze, route: &[usize]) -> Vec<usize> {
    let mut shrines = vec![maze.start()];
    for fraction in SHRINE_FRACTIONS {
        let at = (route.len().saturating_sub(1) as f64 * fraction).round() as usize;
        if let Some(&cell) = route.get(at)
            && !shrines.contains(&cell)
            && cell != maze.goal()
        {
            shrines.push(cell);
        }
    }
    shrines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::grid_search::GridSearch;
    use crate::logic::maze::Algorithm;

    fn spec(side: usize) -> MazeSpec {
        MazeSpec {
            width: side,
            height: side,
            algorithm: Algorithm::Backtracker,
            braid: 0.0,
            seed: 7,
        }
    }

    #[test]
    fn harder_means_less_light_dearer_hints_and_guardians() {
        let [easy, normal, hard] = Difficulty::ALL.map(MazeRules::of);
        assert_eq!(easy.torch_radius, None);
        assert!(normal.torch_radius.unwrap() > hard.torch_radius.unwrap());
        assert!(easy.hint_cost_s == 0 && normal.hint_cost_s < hard.hint_cost_s);
        assert_eq!(
            (easy.guardian_count(900, 3), normal.guardian_count(900, 3)),
            (0, 0)
        );
        assert_eq!(hard.guardian_count(225, 1), 2);
        assert_eq!(hard.guardian_count(225, 3), 4, "one more per level");
        assert_eq!(hard.guardian_count(4, 1), 1);
        assert_eq!(hard.guardian_count(1_000_000, 9), MAX_GUARDIANS);
    }

    #[test]
    fn each_level_is_larger_and_its_own_maze() {
        let first = spec(15);
        assert_eq!(level_spec(&first, 1), first);
        let second = level_spec(&first, 2);
        let third = level_spec(&first, 3);
        assert_eq!((second.width, third.height), (21, 27));
        assert_ne!(second.seed, first.seed);
        assert_ne!(second.seed, third.seed);
        assert_eq!(
            level_spec(&first, 3),
            third,
            "the same seed, the same levels"
        );
        assert_eq!(level_spec(&spec(999), 5).width, MAX_SIDE);
        // Sizes from anywhere never overflow: they stop at the largest side.
        let huge = MazeSpec {
            width: usize::MAX,
            ..spec(15)
        };
        assert_eq!(level_spec(&huge, 2).width, MAX_SIDE);
        assert_eq!(level_spec(&spec(15), MAX_LEVEL).height, MAX_SIDE);
    }

    #[test]
    fn shrines_lie_on_the_way_to_the_exit() {
        let maze = spec(15).generate().unwrap();
        let route = GridSearch::new()
            .astar(&maze, maze.start(), maze.goal())
            .path
            .unwrap();
        let shrines = shrine_cells(&maze, &route);
        assert_eq!(shrines.len(), 3);
        assert_eq!(shrines[0], maze.start());
        let places: Vec<usize> = shrines
            .iter()
            .map(|s| route.iter().position(|c| c == s).unwrap())
            .collect();
        assert!(places.windows(2).all(|p| p[0] < p[1]), "{places:?}");
    }
}
