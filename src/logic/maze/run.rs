//! The rules of walking a maze: the player's cell, the trail, the moves and hints counted, the
//! clock, who is walking, and the result at the exit. The game and the tests drive the same rules.

use super::{Direction, Maze, MazeError, MazeSpec};
use crate::logic::grid_search::GridSearch;
use std::time::Duration;

/// One maze being played.
#[derive(Debug, Clone, PartialEq)]
pub struct MazeRun {
    /// What was generated.
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
    /// Play time; the game stops adding to it while paused, and it stops at the exit.
    pub elapsed: Duration,
    /// The system is walking the player to the exit.
    pub system_walk: bool,
    /// The system walked at some point: such a run sets no record.
    pub assisted: bool,
    /// The player reached the exit.
    pub finished: bool,
}

impl MazeRun {
    /// A new run of `spec` with the player at the start; the system walks from the start when
    /// `system_walk` is set.
    pub fn new(spec: MazeSpec, system_walk: bool) -> Result<MazeRun, MazeError> {
        let maze = spec.generate()?;
        let optimal_moves = GridSearch::new()
            .astar(&maze, maze.start(), maze.goal())
            .steps()
            .ok_or(MazeError::NoWayOut)?;
        let start = maze.start();
        Ok(MazeRun {
            spec,
            maze,
            player: start,
            trail: vec![start],
            moves: 0,
            hints_used: 0,
            optimal_moves,
            elapsed: Duration::ZERO,
            system_walk,
            assisted: system_walk,
            finished: false,
        })
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

    /// Adds play time, unless the run is over.
    pub fn tick(&mut self, delta: Duration) {
        if !self.finished {
            self.elapsed += delta;
        }
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
        MazeRun::new(spec, false).unwrap()
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
        run.tick(Duration::from_secs(3));
        assert_eq!(run.elapsed, Duration::ZERO);
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
        let spec = run.spec;
        assert!(MazeRun::new(spec, true).unwrap().assisted);
    }

    #[test]
    fn step_to_refuses_cells_that_are_not_open_neighbours() {
        let mut run = small_run();
        let far = run.maze.goal();
        assert_eq!(run.step_to(far), None);
        assert_eq!(run.moves, 0);
    }
}
