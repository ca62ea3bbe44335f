//! The maze's kind of run in a replay ([`MazeKind`]): the maze's size, algorithm, braid and
//! level decide a run besides the seed and the difficulty, its inputs are steps, hints, the
//! system walk and walks to a cell, and its result is ranked by time with what hints cost.

use super::challenge::{MAX_LEVEL, MazeRules};
use super::run::{MazeInput, MazeRun, MazeSetup};
use super::time::MazeTime;
use super::{Algorithm, MAX_SIDE, MIN_SIDE, MazeSpec};
use crate::logic::difficulty::Difficulty;
use crate::logic::replay::{RunKind, Simulation, Timed};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use serde::{Deserialize, Serialize};

/// The maze's kind of run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MazeKind;

/// A maze run's setup, as a replay keeps it (under `maze`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MazeReplaySetup {
    /// The maze's settings (its seed is the replay's).
    pub maze: MazeOptions,
}

/// What decides a maze besides the seed and the difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MazeOptions {
    /// Cells along x at level 1.
    pub width: usize,
    /// Cells along y at level 1.
    pub height: usize,
    /// The carving algorithm.
    pub algorithm: Algorithm,
    /// The fraction of dead ends opened.
    pub braid: f64,
    /// The level played, counted from 1 (files without it are of level 1).
    #[serde(default = "first_level")]
    pub level: u32,
}

fn first_level() -> u32 {
    1
}

impl MazeOptions {
    /// The options of a maze run's setup.
    pub fn of(setup: &MazeSetup) -> MazeOptions {
        let first = &setup.first;
        MazeOptions {
            width: first.width,
            height: first.height,
            algorithm: first.algorithm,
            braid: first.braid,
            level: setup.level,
        }
    }

    /// The setup of these options for a seed and a difficulty.
    pub fn setup(&self, seed: u64, difficulty: Difficulty) -> MazeSetup {
        MazeSetup {
            first: MazeSpec {
                width: self.width,
                height: self.height,
                algorithm: self.algorithm,
                braid: self.braid,
                seed,
            },
            difficulty,
            level: self.level,
        }
    }

    /// Refuses options outside their ranges, and gives the maze of the options' level.
    pub fn checked_spec(&self, seed: u64, difficulty: Difficulty) -> Result<MazeSpec, String> {
        let side_ok = |side: usize| (MIN_SIDE..=MAX_SIDE).contains(&side);
        if !side_ok(self.width) || !side_ok(self.height) {
            return Err(format!(
                "its maze is {}x{}: each side is {MIN_SIDE} to {MAX_SIDE} cells",
                self.width, self.height
            ));
        }
        if !(0.0..=1.0).contains(&self.braid) {
            return Err(format!("its braid {} is not 0.0 to 1.0", self.braid));
        }
        if !(1..=MAX_LEVEL).contains(&self.level) {
            return Err(format!("its level {} is not 1 to {MAX_LEVEL}", self.level));
        }
        Ok(self.setup(seed, difficulty).spec())
    }
}

/// How a maze run ended, besides its length and whether the system walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MazeOutcome {
    /// Steps taken.
    pub moves: u32,
    /// Times the hint was switched on.
    pub hints_used: u32,
    /// The exit was reached.
    pub finished: bool,
}

/// The detail of a maze's best-time board: the first level's size and algorithm, the braid when
/// used, the difficulty, and the level after the first (`15x15/backtracker/hard/level2`).
pub fn board_detail(setup: &MazeSetup) -> String {
    let first = &setup.first;
    let (width, height, algorithm) = (first.width, first.height, first.algorithm);
    let mut board = format!("{width}x{height}/{algorithm}");
    let braid_percent = (first.braid * 100.0).round();
    if braid_percent != 0.0 {
        board += &format!("/braid{braid_percent}");
    }
    board += &format!("/{}", setup.difficulty.name());
    if setup.level > 1 {
        board += &format!("/level{}", setup.level);
    }
    board
}

impl Simulation for MazeRun {
    type Input = MazeInput;

    fn tick(&self) -> u64 {
        self.ticks
    }

    fn is_over(&self) -> bool {
        self.finished
    }

    fn step_with(&mut self, inputs: &[MazeInput]) {
        self.step_tick(inputs.iter().copied(), &mut Vec::new());
    }

    fn fingerprint(&self) -> u64 {
        MazeRun::fingerprint(self)
    }

    fn assisted(&self) -> bool {
        self.assisted
    }
}

impl RunKind for MazeKind {
    const MODE: &'static str = "maze";
    type Setup = MazeReplaySetup;
    type Input = MazeInput;
    type Outcome = MazeOutcome;
    type Sim = MazeRun;

    fn setup_of(run: &MazeRun) -> MazeReplaySetup {
        MazeReplaySetup {
            maze: MazeOptions::of(&run.setup),
        }
    }

    fn outcome_of(run: &MazeRun) -> MazeOutcome {
        MazeOutcome {
            moves: run.moves,
            hints_used: run.hints_used,
            finished: run.finished,
        }
    }

    /// The options in range, and every walk to a cell of the maze.
    fn check(
        setup: &MazeReplaySetup,
        inputs: &[Timed<MazeInput>],
        seed: u64,
        difficulty: Difficulty,
    ) -> Result<(), String> {
        let spec = setup.maze.checked_spec(seed, difficulty)?;
        let cells = spec.width * spec.height;
        for (index, timed) in inputs.iter().enumerate() {
            if let MazeInput::WalkTo(cell) = timed.input
                && cell >= cells
            {
                return Err(format!(
                    "input {index} walks to cell {cell} of a maze of {cells} cells"
                ));
            }
        }
        Ok(())
    }

    fn start(
        setup: &MazeReplaySetup,
        seed: u64,
        difficulty: Difficulty,
    ) -> Result<MazeRun, String> {
        MazeRun::new(setup.maze.setup(seed, difficulty), false)
            .map_err(|err| format!("its maze cannot be made: {err}"))
    }

    fn board_detail(setup: &MazeReplaySetup, seed: u64, difficulty: Difficulty) -> String {
        board_detail(&setup.maze.setup(seed, difficulty))
    }

    /// Finished runs by the time that counts, with what the hints cost; unfinished ones last.
    fn standing(outcome: &MazeOutcome, ticks: u64, difficulty: Difficulty) -> i128 {
        if outcome.finished {
            i128::from(MazeRules::of(difficulty).counted_ticks(ticks, outcome.hints_used))
        } else {
            i128::MAX
        }
    }

    fn describe(outcome: &MazeOutcome, ticks: u64) -> String {
        let MazeOutcome {
            moves,
            hints_used,
            finished,
        } = outcome;
        format!(
            "time: {:.3} s\nmoves: {moves}\nhints: {hints_used}\nreached the exit: {finished}\n",
            ticks as f64 * SIMULATION_STEP_S
        )
    }

    /// The time that counts and the hints with their cost; an unfinished run says so.
    fn summary(outcome: &MazeOutcome, ticks: u64, difficulty: Difficulty) -> String {
        let time = MazeTime::new(ticks, outcome.hints_used, difficulty);
        let end = if outcome.finished {
            ""
        } else {
            "  ·  not finished"
        };
        format!("{}  ·  {}{end}", time.counted(), time.hints())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(braid: f64, difficulty: Difficulty, level: u32) -> MazeSetup {
        MazeSetup {
            first: MazeSpec {
                width: 15,
                height: 9,
                algorithm: Algorithm::Prim,
                braid,
                seed: 3,
            },
            difficulty,
            level,
        }
    }

    #[test]
    fn maze_boards_name_what_decides_the_maze() {
        assert_eq!(
            board_detail(&setup(0.0, Difficulty::Normal, 1)),
            "15x9/prim/normal"
        );
        assert_eq!(
            board_detail(&setup(0.25, Difficulty::Hard, 3)),
            "15x9/prim/braid25/hard/level3"
        );
    }
}
