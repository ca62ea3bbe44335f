//! The rules of walking a maze: the player's cell, the trail, the moves and hints counted, the
//! clock in fixed steps, who is walking, and the result at the exit. The game, replays and the
//! tests drive the same rules, one fixed step at a time ([`MazeRun::step_tick`]).

use super::{Direction, Maze, MazeError, MazeSpec};
use crate::logic::grid_search::GridSearch;
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::seed::fnv1a_64;
use serde::{Deserialize, Serialize};

/// Fixed steps between two steps of the system walk: 7 of 1/64 s, about 110 ms, brisk yet easy
/// to follow.
pub const SYSTEM_WALK_TICKS: u64 = 7;

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
}

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
    /// A fingerprint of the maze's spec and walls, made once.
    maze_fingerprint: u64,
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
        // The spec (with its seed) and the walls it made.
        let maze_fingerprint = fnv1a_64(format!("{spec:?}|{maze:?}").as_bytes());
        Ok(MazeRun {
            maze_fingerprint,
            spec,
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

    /// Play time in seconds: the fixed steps played.
    pub fn seconds(&self) -> f64 {
        self.ticks as f64 * SIMULATION_STEP_S
    }

    /// Applies an input now. Returns the cell left when the player stepped.
    pub fn apply(&mut self, input: MazeInput) -> Option<usize> {
        match input {
            MazeInput::Step(direction) => {
                self.system_walk = false;
                self.step(direction)
            }
            MazeInput::Hint => {
                self.count_hint();
                None
            }
            MazeInput::SystemWalk(on) => {
                self.set_system_walk(on);
                self.since_system_step = 0;
                None
            }
        }
    }

    /// One fixed step: the inputs, the system walk's step when one is due, the clock, and the
    /// exit. Each step taken is added to `stepped` as (cell left, cell entered). Returns true on
    /// the step that reached the exit. Nothing happens once the run is over.
    pub fn step_tick(
        &mut self,
        inputs: impl IntoIterator<Item = MazeInput>,
        stepped: &mut Vec<(usize, usize)>,
    ) -> bool {
        if self.finished {
            return false;
        }
        for input in inputs {
            if let Some(from) = self.apply(input) {
                stepped.push((from, self.player));
            }
        }
        if self.system_walk {
            self.since_system_step += 1;
            if self.since_system_step >= SYSTEM_WALK_TICKS {
                self.since_system_step = 0;
                if let Some(from) = self.next_cell_to_exit().and_then(|next| self.step_to(next)) {
                    stepped.push((from, self.player));
                }
            }
        }
        self.ticks += 1;
        self.finish_at_exit()
    }

    /// The next cell of the shortest path from the player to the exit.
    pub fn next_cell_to_exit(&self) -> Option<usize> {
        let path = GridSearch::new()
            .astar(&self.maze, self.player, self.maze.goal())
            .path?;
        path.get(1).copied()
    }

    /// A fingerprint of what the rest of the run depends on: the maze, where the player is,
    /// what was counted and who walks.
    pub fn fingerprint(&self) -> u64 {
        let state = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
            self.maze_fingerprint,
            self.player,
            self.trail.len(),
            self.moves,
            self.hints_used,
            self.ticks,
            self.since_system_step,
            self.system_walk,
            self.assisted,
            self.finished
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
        assert_eq!(stepped.last().map(|s| s.1), Some(run.maze.goal()));
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
