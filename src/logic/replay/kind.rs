//! What a mode brings to replays: its kind of run ([`RunKind`]), with the types of its setup,
//! inputs and result, how its run is started and checked, which board it goes on and how it
//! ranks there. Shared code holds a mode's kind as a [`ReplayKind`] and never names a mode; a
//! new mode with replays implements [`RunKind`] in its own folder.

use super::limits::check_inputs;
use super::recording::Simulation;
use super::{ModeRun, Replay, ReplayError, RunResult, Timed, verify_run};
use crate::logic::difficulty::Difficulty;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// A mode's kind of run, as its replays keep it.
pub trait RunKind: Send + Sync + 'static {
    /// The mode's name, as replay files and board names write it (`runner`).
    const MODE: &'static str;
    /// What decides a run besides the seed and the difficulty (the maze's size), written as
    /// fields of the replay beside its inputs; an empty struct when nothing does.
    type Setup: Serialize + DeserializeOwned + Debug;
    /// What a player does to a run.
    type Input: Copy + Serialize + DeserializeOwned + Debug + Send + Sync + 'static;
    /// The mode's own figures of a run's end (the runner's score, the maze's moves), written
    /// as fields of the replay's result beside its length and whether the computer played.
    type Outcome: Serialize + DeserializeOwned + PartialEq + Debug;
    /// The run a replay drives.
    type Sim: Simulation<Input = Self::Input>;

    /// The setup of a run.
    fn setup_of(sim: &Self::Sim) -> Self::Setup;
    /// The figures of a run as it stands.
    fn outcome_of(sim: &Self::Sim) -> Self::Outcome;
    /// Refuses a setup or an input no run of the mode can have (out of range), before any
    /// arithmetic with its numbers.
    fn check(
        setup: &Self::Setup,
        inputs: &[Timed<Self::Input>],
        seed: u64,
        difficulty: Difficulty,
    ) -> Result<(), String>;
    /// The run of a setup, seed and difficulty, at its start (its setup already checked).
    fn start(setup: &Self::Setup, seed: u64, difficulty: Difficulty) -> Result<Self::Sim, String>;
    /// The part of a board's name after the mode (`normal`, `15x15/prim/hard`).
    fn board_detail(setup: &Self::Setup, seed: u64, difficulty: Difficulty) -> String;
    /// A run's place on its board among unassisted (or among assisted) runs: smaller ranks
    /// higher (the runner ranks by score, highest first; the maze by time).
    fn standing(outcome: &Self::Outcome, ticks: u64, difficulty: Difficulty) -> i128;
    /// The mode's own figures of a run's end, one `name: value` line each, as the command line
    /// shows them between the run's length and whether the computer played.
    fn describe(outcome: &Self::Outcome, ticks: u64) -> String;
    /// What a board shows of a run: the score or the time that ranks it ("1234 points",
    /// "00:42.5  ·  no hints").
    fn summary(outcome: &Self::Outcome, ticks: u64, difficulty: Difficulty) -> String;
}

/// A mode's kind of run, as shared code holds it: every [`RunKind`] is one.
pub trait ReplayKind: Send + Sync {
    /// The mode's name, as replay files and board names write it.
    fn mode(&self) -> &'static str;
    /// Refuses a run whose setup or inputs no run of the mode can have, or whose inputs are out
    /// of order, after its end or too many; gives the steps that have inputs, in order.
    fn check_run(&self, replay: &Replay) -> Result<Vec<u64>, ReplayError>;
    /// Plays the replay again, checking each fingerprint as the run reaches it, and gives the
    /// result it ends with. The replay's shape must have been checked.
    fn play_back(
        &self,
        replay: &Replay,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Result<RunResult, ReplayError>;
    /// The part of the board's name after the mode.
    fn board_detail(&self, replay: &Replay) -> Result<String, ReplayError>;
    /// The run's place among runs of its board that the computer played as much (or as little).
    fn standing(&self, replay: &Replay) -> Result<i128, ReplayError>;
    /// The figures of a result, one `name: value` line each.
    fn describe(&self, result: &RunResult) -> Result<String, ReplayError>;
    /// What a board shows of the replay's result: its score or time.
    fn summary(&self, replay: &Replay) -> Result<String, ReplayError>;
    /// How many inputs the run holds.
    fn input_count(&self, replay: &Replay) -> Result<usize, ReplayError>;
    /// The replay with its mode's own fields (its setup, inputs and result) as this game writes
    /// them, whatever spacing or number forms the file used: two files of the same run give
    /// the same value.
    fn canonical(&self, replay: &Replay) -> Result<Replay, ReplayError>;
}

impl<K: RunKind> ReplayKind for K {
    fn mode(&self) -> &'static str {
        K::MODE
    }

    fn check_run(&self, replay: &Replay) -> Result<Vec<u64>, ReplayError> {
        let setup = replay.run.setup::<K>()?;
        let inputs = replay.run.inputs::<K>()?;
        let ticks = check_inputs(&inputs, replay.result.ticks)?;
        K::check(&setup, &inputs, replay.seed, replay.difficulty).map_err(ReplayError::Invalid)?;
        Ok(ticks)
    }

    fn play_back(
        &self,
        replay: &Replay,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Result<RunResult, ReplayError> {
        verify_run::<K>(replay, go_on)
    }

    fn board_detail(&self, replay: &Replay) -> Result<String, ReplayError> {
        let setup = replay.run.setup::<K>()?;
        Ok(K::board_detail(&setup, replay.seed, replay.difficulty))
    }

    fn standing(&self, replay: &Replay) -> Result<i128, ReplayError> {
        let outcome = replay.result.outcome::<K>()?;
        Ok(K::standing(
            &outcome,
            replay.result.ticks,
            replay.difficulty,
        ))
    }

    fn describe(&self, result: &RunResult) -> Result<String, ReplayError> {
        Ok(K::describe(&result.outcome::<K>()?, result.ticks))
    }

    fn summary(&self, replay: &Replay) -> Result<String, ReplayError> {
        let outcome = replay.result.outcome::<K>()?;
        Ok(K::summary(&outcome, replay.result.ticks, replay.difficulty))
    }

    fn input_count(&self, replay: &Replay) -> Result<usize, ReplayError> {
        Ok(replay.run.inputs::<K>()?.len())
    }

    fn canonical(&self, replay: &Replay) -> Result<Replay, ReplayError> {
        let setup = replay.run.setup::<K>()?;
        let inputs = replay.run.inputs::<K>()?;
        let outcome = replay.result.outcome::<K>()?;
        Ok(Replay {
            run: ModeRun::of::<K>(&setup, &inputs),
            result: RunResult::of::<K>(replay.result.ticks, replay.result.assisted, &outcome),
            ..replay.clone()
        })
    }
}

/// The kind of a replay's mode among `kinds`, or why there is none.
pub fn kind_of<'k>(
    replay: &Replay,
    kinds: &[&'k dyn ReplayKind],
) -> Result<&'k dyn ReplayKind, ReplayError> {
    let mode = replay.run.mode();
    kinds
        .iter()
        .find(|kind| kind.mode() == mode)
        .copied()
        .ok_or_else(|| {
            ReplayError::Invalid(format!(
                "it is a run of the mode {:?}, which this game does not have",
                super::printable(mode, 40)
            ))
        })
}
