//! The rules of walking a maze: the player's cell, the trail, the moves and hints counted, the
//! clock in fixed steps, who is walking, the torch and the cells seen, the guardians and the
//! shrines, and the result at the exit. The game, replays and the tests drive the same rules,
//! one fixed step at a time ([`MazeRun::step_tick`]).

use super::challenge::{MazeRules, level_spec, shrine_cells};
use super::guardians::Guardians;
use super::torch::lit_cells;
use super::{Direction, Maze, MazeError, MazeSpec, Region};
use crate::logic::difficulty::Difficulty;
use crate::logic::grid_search::GridSearch;
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::seed::fnv1a_64;
use serde::{Deserialize, Serialize};

/// Fixed steps between two steps of the system walk (and of a walk to a clicked cell): 7 of
/// 1/64 s, about 110 ms, brisk yet easy to follow.
pub const SYSTEM_WALK_TICKS: u64 = 7;

/// What decides a maze run: the first level's maze (with the game seed), the difficulty and
/// the level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MazeSetup {
    /// The maze of level 1; later levels grow from it ([`level_spec`]).
    pub first: MazeSpec,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// The level, counted from 1.
    pub level: u32,
}

impl MazeSetup {
    /// Level 1 of `first` at `difficulty`.
    pub fn first_level(first: MazeSpec, difficulty: Difficulty) -> MazeSetup {
        MazeSetup {
            first,
            difficulty,
            level: 1,
        }
    }

    /// The maze of this level.
    pub fn spec(&self) -> MazeSpec {
        level_spec(&self.first, self.level)
    }
}

/// What happened to the player in a fixed step, for the drawing and the sounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MazeEvent {
    /// The player moved from one cell to a neighbour.
    Stepped {
        /// The cell left.
        from: usize,
        /// The cell entered.
        to: usize,
    },
    /// A guardian caught the player, who was taken back to the last shrine along the way the
    /// trail now shows from `trail_from` on.
    Caught {
        /// The cell where it happened.
        at: usize,
        /// The shrine the player is back at.
        shrine: usize,
        /// Where the way back starts in the trail.
        trail_from: usize,
    },
}

/// Something a player does in a maze, taking effect at the start of a fixed step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MazeInput {
    /// A step toward a neighbour (a wall stops it). It also takes control back from the
    /// system walk.
    Step(Direction),
    /// The hint was switched on: counted.
    Hint,
    /// The system walk switched on or off.
    SystemWalk(bool),
    /// Walk to this cell by the shortest way through the cells seen (a cell not yet seen is
    /// ignored). Any step or the system walk takes over from it.
    WalkTo(usize),
}

/// One maze being played.
#[derive(Debug, Clone)]
pub struct MazeRun {
    /// The game, difficulty and level this maze belongs to.
    pub setup: MazeSetup,
    /// What the difficulty makes of it.
    pub rules: MazeRules,
    /// This level's maze as generated.
    pub spec: MazeSpec,
    /// The maze.
    pub maze: Maze,
    /// The player's cell.
    pub player: usize,
    /// Every cell walked, in order (the trail), starting with the start cell.
    pub trail: Vec<usize>,
    /// Successful steps taken.
    pub moves: u32,
    /// Times the hint was switched on.
    pub hints_used: u32,
    /// Steps of the shortest path from start to exit.
    pub optimal_moves: usize,
    /// Fixed steps played: the clock, which stops at the exit (and does not run while paused,
    /// when no steps run).
    pub ticks: u64,
    /// Fixed steps since the system walk's last step.
    pub since_system_step: u64,
    /// The system is walking the player to the exit.
    pub system_walk: bool,
    /// The system walked at some point: such a run sets no record.
    pub assisted: bool,
    /// The player reached the exit.
    pub finished: bool,
    /// The cell the player is walking to after a click, through cells seen.
    pub walk_target: Option<usize>,
    /// The guardians (none below Hard).
    pub guardians: Guardians,
    /// The shrines: the start and two cells along the way (none below Hard but the start).
    pub shrines: Vec<usize>,
    /// The shrine the player passed last: where a guardian's touch sends them.
    pub last_shrine: usize,
    /// Times a guardian caught the player.
    pub catches: u32,
    /// Per cell: the torch has lit it at some point (all true when the maze is lit).
    seen: Vec<bool>,
    /// The cells the torch lights now, in increasing id order (empty when the maze is lit).
    lit: Vec<usize>,
    /// A fingerprint of the maze's spec and walls, made once.
    maze_fingerprint: u64,
}

impl MazeRun {
    /// A new run of `setup` with the player at the start; the system walks from the start when
    /// `system_walk` is set.
    pub fn new(setup: MazeSetup, system_walk: bool) -> Result<MazeRun, MazeError> {
        let spec = setup.spec();
        let rules = MazeRules::of(setup.difficulty);
        let maze = spec.generate()?;
        let route = GridSearch::new()
            .astar(&maze, maze.start(), maze.goal())
            .path
            .ok_or(MazeError::NoWayOut)?;
        let optimal_moves = route.len() - 1;
        let start = maze.start();
        // The setup (with its seed) and the walls it made.
        let maze_fingerprint = fnv1a_64(format!("{setup:?}|{maze:?}").as_bytes());
        let (shrines, guardians) = if rules.guardians {
            let shrines = shrine_cells(&maze, &route);
            let count = rules.guardian_count(maze.cell_count(), setup.level);
            let guardians = Guardians::place(&maze, spec.seed, count, &route);
            (shrines, guardians)
        } else {
            (vec![start], Guardians::none())
        };
        let mut run = MazeRun {
            maze_fingerprint,
            setup,
            rules,
            spec,
            seen: vec![rules.torch_radius.is_none(); maze.cell_count()],
            lit: Vec::new(),
            walk_target: None,
            guardians,
            shrines,
            last_shrine: start,
            catches: 0,
            maze,
            player: start,
            trail: vec![start],
            moves: 0,
            hints_used: 0,
            optimal_moves,
            ticks: 0,
            since_system_step: 0,
            system_walk,
            assisted: system_walk,
            finished: false,
        };
        run.light_torch();
        Ok(run)
    }

    /// Lights the cells around the player and marks them seen.
    fn light_torch(&mut self) {
        if let Some(radius) = self.rules.torch_radius {
            self.lit = lit_cells(&self.maze, self.player, radius);
            for &cell in &self.lit {
                self.seen[cell] = true;
            }
        }
    }

    /// Whether the torch lights `cell` now (every cell when the maze is lit).
    pub fn is_lit(&self, cell: usize) -> bool {
        self.rules.torch_radius.is_none() || self.lit.binary_search(&cell).is_ok()
    }

    /// Whether `cell` has been seen (every cell when the maze is lit).
    pub fn is_seen(&self, cell: usize) -> bool {
        self.seen.get(cell).copied().unwrap_or(false)
    }

    /// The cells the torch lights now, in increasing id order (empty when the maze is lit).
    pub fn lit(&self) -> &[usize] {
        &self.lit
    }

    /// The time that counts, in seconds: the play time plus what the hints cost.
    pub fn total_seconds(&self) -> f64 {
        self.rules.counted_ticks(self.ticks, self.hints_used) as f64 * SIMULATION_STEP_S
    }

    /// Moves the player one cell if the passage is open and the run is not over. Returns the
    /// cell left.
    pub fn step(&mut self, direction: Direction) -> Option<usize> {
        if self.finished || !self.maze.is_open(self.player, direction) {
            return None;
        }
        let from = self.player;
        self.player = self.maze.neighbour(from, direction)?;
        self.trail.push(self.player);
        self.moves += 1;
        if self.shrines.contains(&self.player) {
            self.last_shrine = self.player;
        }
        self.light_torch();
        Some(from)
    }

    /// Moves the player to `cell` if it is a neighbour through an open passage. Returns the cell
    /// left.
    pub fn step_to(&mut self, cell: usize) -> Option<usize> {
        let direction = Direction::ALL
            .into_iter()
            .find(|&d| self.maze.neighbour(self.player, d) == Some(cell))?;
        self.step(direction)
    }

    /// Play time in seconds: the fixed steps played.
    pub fn seconds(&self) -> f64 {
        self.ticks as f64 * SIMULATION_STEP_S
    }

    /// Applies an input now. Returns the cell left when the player stepped.
    pub fn apply(&mut self, input: MazeInput) -> Option<usize> {
        match input {
            MazeInput::Step(direction) => {
                self.system_walk = false;
                self.walk_target = None;
                self.step(direction)
            }
            MazeInput::Hint => {
                self.count_hint();
                None
            }
            MazeInput::SystemWalk(on) => {
                self.set_system_walk(on);
                self.walk_target = None;
                self.since_system_step = 0;
                None
            }
            MazeInput::WalkTo(cell) => {
                if self.is_seen(cell) && cell != self.player {
                    self.walk_target = Some(cell);
                    self.system_walk = false;
                    self.since_system_step = 0;
                }
                None
            }
        }
    }

    /// One fixed step: the inputs, the walk's step when one is due (the system's or to a
    /// clicked cell), the guardians, the clock, and the exit. What happened to the player is
    /// added to `events`. Returns true on the step that reached the exit. Nothing happens once
    /// the run is over.
    pub fn step_tick(
        &mut self,
        inputs: impl IntoIterator<Item = MazeInput>,
        events: &mut Vec<MazeEvent>,
    ) -> bool {
        if self.finished {
            return false;
        }
        for input in inputs {
            if let Some(from) = self.apply(input) {
                events.push(MazeEvent::Stepped {
                    from,
                    to: self.player,
                });
                self.catch_if_touched(events);
            }
        }
        if self.system_walk || self.walk_target.is_some() {
            self.since_system_step += 1;
            if self.since_system_step >= SYSTEM_WALK_TICKS {
                self.since_system_step = 0;
                let next = if self.system_walk {
                    self.next_cell_to_exit()
                } else {
                    self.next_cell_to_target()
                };
                if let Some(from) = next.and_then(|next| self.step_to(next)) {
                    events.push(MazeEvent::Stepped {
                        from,
                        to: self.player,
                    });
                }
                if self.walk_target == Some(self.player) || next.is_none() {
                    self.walk_target = None;
                }
                self.catch_if_touched(events);
            }
        }
        self.guardians.step(&self.maze, SIMULATION_STEP_S as f32);
        self.catch_if_touched(events);
        self.ticks += 1;
        self.finish_at_exit()
    }

    /// Sends the player back to the last shrine if a guardian stands in their cell (the exit is
    /// safe). The trail follows the way back.
    fn catch_if_touched(&mut self, events: &mut Vec<MazeEvent>) {
        let at = self.player;
        if at == self.maze.goal() || !self.guardians.guardians.iter().any(|g| g.cell() == at) {
            return;
        }
        let way_back = GridSearch::new()
            .astar(&self.maze, at, self.last_shrine)
            .path
            .unwrap_or_default();
        let trail_from = self.trail.len() - 1;
        self.trail.extend(way_back.iter().skip(1));
        self.player = self.last_shrine;
        self.catches += 1;
        self.walk_target = None;
        self.light_torch();
        events.push(MazeEvent::Caught {
            at,
            shrine: self.player,
            trail_from,
        });
    }

    /// The next cell of the shortest path from the player to the exit.
    pub fn next_cell_to_exit(&self) -> Option<usize> {
        let path = GridSearch::new()
            .astar(&self.maze, self.player, self.maze.goal())
            .path?;
        path.get(1).copied()
    }

    /// The next cell of the shortest way through seen cells to the clicked cell.
    fn next_cell_to_target(&self) -> Option<usize> {
        let target = self.walk_target?;
        let seen = Region {
            maze: &self.maze,
            allowed: |cell| self.is_seen(cell),
        };
        GridSearch::new()
            .astar(&seen, self.player, target)
            .path?
            .get(1)
            .copied()
    }

    /// A fingerprint of what the rest of the run depends on: the maze, where the player is,
    /// what was counted and who walks.
    pub fn fingerprint(&self) -> u64 {
        let state = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{:?}|{}|{}|{}",
            self.maze_fingerprint,
            self.player,
            self.trail.len(),
            self.moves,
            self.hints_used,
            self.ticks,
            self.since_system_step,
            self.system_walk,
            self.assisted,
            self.finished,
            self.walk_target,
            self.last_shrine,
            self.catches,
            self.guardians.describe(),
        );
        fnv1a_64(state.as_bytes())
    }

    /// Starts or stops the system walk; a run it ever walked is assisted.
    pub fn set_system_walk(&mut self, on: bool) {
        self.system_walk = on;
        self.assisted |= on;
    }

    /// Counts one more use of the hint.
    pub fn count_hint(&mut self) {
        self.hints_used += 1;
    }

    /// Ends the run if the player stands at the exit: true once, on the step that got there.
    pub fn finish_at_exit(&mut self) -> bool {
        if self.finished || self.player != self.maze.goal() {
            return false;
        }
        self.finished = true;
        self.system_walk = false;
        self.walk_target = None;
        true
    }

    /// Optimal moves per move made, as a percentage (100 % = the shortest route).
    pub fn efficiency_percent(&self) -> f64 {
        if self.moves == 0 {
            return 100.0;
        }
        100.0 * self.optimal_moves as f64 / f64::from(self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::maze::Algorithm;

    fn small_run() -> MazeRun {
        let spec = MazeSpec {
            width: 6,
            height: 4,
            algorithm: Algorithm::Prim,
            braid: 0.0,
            seed: 11,
        };
        MazeRun::new(MazeSetup::first_level(spec, Difficulty::Easy), false).unwrap()
    }

    /// Every cell from the start to the exit along the shortest path.
    fn shortest_path(run: &MazeRun) -> Vec<usize> {
        GridSearch::new()
            .astar(&run.maze, run.maze.start(), run.maze.goal())
            .path
            .unwrap()
    }

    #[test]
    fn walls_stop_the_player_and_open_passages_grow_the_trail() {
        let mut run = small_run();
        for direction in Direction::ALL {
            let open = run.maze.is_open(run.player, direction);
            let left = run.step(direction);
            assert_eq!(left.is_some(), open, "{direction:?}");
            if open {
                break;
            }
        }
        assert_eq!(run.moves, 1);
        assert_eq!(run.trail.len(), 2);
        assert_ne!(run.player, run.maze.start());
        // The north and west of the start are the outer wall.
        let mut at_start = small_run();
        assert_eq!(at_start.step(Direction::North), None);
        assert_eq!(at_start.step(Direction::West), None);
        assert_eq!(at_start.moves, 0);
    }

    #[test]
    fn walking_the_shortest_path_finishes_once_at_full_efficiency() {
        let mut run = small_run();
        let path = shortest_path(&run);
        assert_eq!(path.len() - 1, run.optimal_moves);
        for &cell in &path[1..] {
            assert!(!run.finish_at_exit(), "not at the exit yet");
            let left = run.player;
            assert_eq!(run.step_to(cell), Some(left));
        }
        assert!(run.finish_at_exit());
        assert!(!run.finish_at_exit(), "a run finishes once");
        assert!((run.efficiency_percent() - 100.0).abs() < 1e-9);
        // After the exit nothing moves and the clock stands still.
        let back = path[path.len() - 2];
        assert_eq!(run.step_to(back), None);
        assert!(!run.step_tick([MazeInput::Step(Direction::North)], &mut Vec::new()));
        assert_eq!(run.ticks, 0);
    }

    #[test]
    fn the_system_walk_steps_every_few_ticks_to_the_exit_and_the_clock_counts_ticks() {
        let mut run = small_run();
        let mut stepped = Vec::new();
        let mut won_at = None;
        let mut tick = 0;
        while won_at.is_none() && tick < 10_000 {
            let inputs = if tick == 0 {
                vec![MazeInput::SystemWalk(true)]
            } else {
                Vec::new()
            };
            if run.step_tick(inputs, &mut stepped) {
                won_at = Some(run.ticks);
            }
            tick += 1;
        }
        assert_eq!(won_at, Some(SYSTEM_WALK_TICKS * run.optimal_moves as u64));
        assert_eq!(stepped.len(), run.optimal_moves);
        assert_eq!(
            stepped.last(),
            Some(&MazeEvent::Stepped {
                from: shortest_path(&run)[run.optimal_moves - 1],
                to: run.maze.goal()
            })
        );
        assert!(run.assisted && run.finished);
        assert_eq!(run.seconds(), run.ticks as f64 / 64.0);
    }

    #[test]
    fn a_step_input_takes_control_back_and_hints_are_counted() {
        let mut run = small_run();
        let open = Direction::ALL
            .into_iter()
            .find(|&d| run.maze.is_open(run.player, d))
            .unwrap();
        let mut stepped = Vec::new();
        run.step_tick([MazeInput::SystemWalk(true), MazeInput::Hint], &mut stepped);
        run.step_tick([MazeInput::Step(open)], &mut stepped);
        assert!(!run.system_walk && run.assisted);
        assert_eq!((run.hints_used, run.moves, stepped.len()), (1, 1, 1));
    }

    #[test]
    fn detours_lower_the_efficiency() {
        let mut run = small_run();
        let first = shortest_path(&run)[1];
        run.step_to(first).unwrap();
        run.step_to(run.maze.start()).unwrap();
        // Two moves wasted on top of the optimal route.
        let expected = 100.0 * run.optimal_moves as f64 / (run.optimal_moves + 2) as f64;
        run.moves += run.optimal_moves as u32;
        assert!((run.efficiency_percent() - expected).abs() < 1e-9);
    }

    #[test]
    fn a_system_walk_makes_the_run_assisted_for_good() {
        let mut run = small_run();
        assert!(!run.assisted);
        run.set_system_walk(true);
        run.set_system_walk(false);
        assert!(run.assisted && !run.system_walk);
        assert!(MazeRun::new(run.setup, true).unwrap().assisted);
    }

    #[test]
    fn step_to_refuses_cells_that_are_not_open_neighbours() {
        let mut run = small_run();
        let far = run.maze.goal();
        assert_eq!(run.step_to(far), None);
        assert_eq!(run.moves, 0);
    }

    fn run_at(difficulty: Difficulty, side: usize, seed: u64) -> MazeRun {
        let spec = MazeSpec {
            width: side,
            height: side,
            algorithm: Algorithm::Backtracker,
            braid: 0.0,
            seed,
        };
        MazeRun::new(MazeSetup::first_level(spec, difficulty), false).unwrap()
    }

    #[test]
    fn the_torch_lights_around_the_player_and_the_seen_cells_stay_seen() {
        let easy = run_at(Difficulty::Easy, 15, 3);
        assert!((0..easy.maze.cell_count()).all(|c| easy.is_lit(c) && easy.is_seen(c)));
        let mut run = run_at(Difficulty::Normal, 15, 3);
        assert!(run.is_lit(run.player) && run.is_seen(run.player));
        assert!(
            !run.is_seen(run.maze.goal()),
            "the exit is far out of the torch's reach"
        );
        let lit_at_start = run.lit().to_vec();
        for &cell in &shortest_path(&run)[1..8] {
            run.step_to(cell).unwrap();
        }
        assert!(lit_at_start.iter().all(|&c| run.is_seen(c)));
        assert!(
            lit_at_start.iter().any(|&c| !run.is_lit(c)),
            "the torch moved on"
        );
    }

    #[test]
    fn hints_cost_time_by_difficulty() {
        for (difficulty, cost) in [
            (Difficulty::Easy, 0.0),
            (Difficulty::Normal, 10.0),
            (Difficulty::Hard, 30.0),
        ] {
            let mut run = run_at(difficulty, 8, 1);
            for _ in 0..64 {
                run.step_tick([MazeInput::Hint], &mut Vec::new());
            }
            assert_eq!(run.hints_used, 64);
            assert_eq!(run.total_seconds(), 1.0 + 64.0 * cost, "{difficulty:?}");
        }
    }

    #[test]
    fn a_click_walks_through_seen_cells_and_unseen_cells_are_ignored() {
        let mut run = run_at(Difficulty::Normal, 15, 3);
        let goal = run.maze.goal();
        run.step_tick([MazeInput::WalkTo(goal)], &mut Vec::new());
        assert_eq!(run.walk_target, None, "the exit has not been seen");
        let target = *run
            .lit()
            .iter()
            .max_by_key(|&&c| run.maze.coords(c))
            .unwrap();
        let mut events = Vec::new();
        run.step_tick([MazeInput::WalkTo(target)], &mut events);
        for _ in 0..64 * 20 {
            run.step_tick([], &mut events);
        }
        assert_eq!((run.player, run.walk_target), (target, None));
        assert!(run.trail.iter().all(|&c| run.is_seen(c)));
        assert!(
            !run.assisted,
            "walking to a clicked cell is the player's own walk"
        );
        // A key takes control back at once.
        let mut run = run_at(Difficulty::Normal, 15, 3);
        run.step_tick([MazeInput::WalkTo(target)], &mut Vec::new());
        run.step_tick([MazeInput::Hint], &mut Vec::new());
        let back = Direction::ALL
            .into_iter()
            .find(|&d| run.maze.is_open(run.player, d))
            .unwrap();
        run.step_tick([MazeInput::Step(back)], &mut Vec::new());
        assert_eq!(run.walk_target, None);
    }

    #[test]
    fn a_guardians_touch_sends_the_player_back_to_the_last_shrine() {
        let mut run = run_at(Difficulty::Hard, 21, 4);
        assert!(!run.guardians.is_empty() && run.shrines.len() == 3);
        let path = shortest_path(&run);
        let second_shrine = path.iter().position(|&c| c == run.shrines[1]).unwrap();
        for &cell in &path[1..=second_shrine + 2] {
            run.step_to(cell).unwrap();
        }
        assert_eq!(run.last_shrine, run.shrines[1]);
        // A guardian steps into the player's way.
        let ahead = path[second_shrine + 3];
        let guardian = &mut run.guardians.guardians[0];
        (guardian.at, guardian.next, guardian.progress) = (ahead, None, 0.0);
        let direction = Direction::ALL
            .into_iter()
            .find(|&d| run.maze.neighbour(run.player, d) == Some(ahead))
            .unwrap();
        let trail_before = run.trail.len();
        let mut events = Vec::new();
        run.step_tick([MazeInput::Step(direction)], &mut events);
        assert_eq!(run.player, run.shrines[1]);
        assert_eq!(run.catches, 1);
        assert!(events.contains(&MazeEvent::Caught {
            at: ahead,
            shrine: run.shrines[1],
            trail_from: trail_before,
        }));
        // The trail shows where it happened and the way back, three steps along the route.
        assert_eq!(
            &run.trail[trail_before..],
            &path[second_shrine..=second_shrine + 3]
                .iter()
                .rev()
                .copied()
                .collect::<Vec<_>>()[..]
        );
    }
}
