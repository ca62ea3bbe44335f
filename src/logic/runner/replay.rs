//! The runner's kind of run in a replay ([`RunnerKind`]): nothing decides a run besides the
//! seed and the difficulty, its inputs are the player's commands and the autopilot's switch, and
//! its result is the distance, coins, score and stumbles, ranked by score.

use super::body::Crash;
use super::run::{RunnerInput, RunnerSim};
use crate::logic::difficulty::Difficulty;
use crate::logic::replay::{RunKind, Simulation, Timed};
use serde::{Deserialize, Serialize};

/// The runner's kind of run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunnerKind;

/// A runner run's setup: nothing besides the seed and the difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoSetup {}

/// How a runner run ended, besides its length and whether the autopilot ran.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunnerOutcome {
    /// Metres run.
    pub distance_m: f64,
    /// Coin lines taken.
    pub coins: u32,
    /// The score.
    pub score: u64,
    /// Stumbles.
    pub stumbles: u32,
    /// Why it ended, if it did (a recording of the autopilot may stop at a distance).
    pub crash: Option<Crash>,
}

impl Simulation for RunnerSim {
    type Input = RunnerInput;

    fn tick(&self) -> u64 {
        self.tick
    }

    fn is_over(&self) -> bool {
        RunnerSim::is_over(self)
    }

    fn step_with(&mut self, inputs: &[RunnerInput]) {
        self.step(inputs.iter().copied());
    }

    fn fingerprint(&self) -> u64 {
        RunnerSim::fingerprint(self)
    }

    fn assisted(&self) -> bool {
        self.assisted
    }
}

impl RunKind for RunnerKind {
    const MODE: &'static str = "runner";
    type Setup = NoSetup;
    type Input = RunnerInput;
    type Outcome = RunnerOutcome;
    type Sim = RunnerSim;

    fn setup_of(_: &RunnerSim) -> NoSetup {
        NoSetup {}
    }

    fn outcome_of(sim: &RunnerSim) -> RunnerOutcome {
        RunnerOutcome {
            distance_m: sim.body.distance_m,
            coins: sim.body.coins,
            score: sim.body.score(),
            stumbles: sim.body.stumbles,
            crash: sim.body.crash,
        }
    }

    /// Every runner input is one a player can give.
    fn check(_: &NoSetup, _: &[Timed<RunnerInput>], _: u64, _: Difficulty) -> Result<(), String> {
        Ok(())
    }

    fn start(_: &NoSetup, seed: u64, difficulty: Difficulty) -> Result<RunnerSim, String> {
        Ok(RunnerSim::new(seed, difficulty))
    }

    /// The difficulty (`normal`).
    fn board_detail(_: &NoSetup, _: u64, difficulty: Difficulty) -> String {
        difficulty.name().to_owned()
    }

    /// The higher score first.
    fn standing(outcome: &RunnerOutcome, _: u64, _: Difficulty) -> i128 {
        -i128::from(outcome.score)
    }

    fn describe(outcome: &RunnerOutcome, _: u64) -> String {
        let RunnerOutcome {
            distance_m,
            coins,
            score,
            stumbles,
            crash,
        } = outcome;
        format!(
            "distance: {distance_m:.1} m\ncoins: {coins}\nscore: {score}\nstumbles: {stumbles}\n\
             ended: {}\n",
            crash.map_or("no (the recording stopped)", |crash| crash.describe())
        )
    }

    fn summary(outcome: &RunnerOutcome, _: u64, _: Difficulty) -> String {
        format!("{} points", outcome.score)
    }
}
