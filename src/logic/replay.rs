//! Replays: a run kept as its seed, its settings, every input with the fixed step it took effect
//! on, fingerprints of the run along the way, and its result. A run records itself as it is
//! played ([`Recorder`]); playing the inputs again from the seed ([`verify`]) must give the same
//! fingerprints and the same result, or it names the first step where it went another way.

use crate::logic::difficulty::Difficulty;
use crate::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use crate::logic::maze::{Algorithm, MazeError, MazeSpec};
use crate::logic::runner::body::Crash;
use crate::logic::runner::run::{RunnerInput, RunnerSim};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What every replay file says it is.
pub const REPLAY_FORMAT: &str = "temple-trails-replay";
/// The version of the replay format this game writes and reads.
pub const REPLAY_VERSION: u32 = 1;
/// A fingerprint is kept at least this often, in fixed steps (16 s of play), so a run without
/// inputs (the autopilot's) is checked along the way too.
pub const CHECK_INTERVAL_TICKS: u64 = 1024;

/// A recorded run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// Always [`REPLAY_FORMAT`].
    pub format: String,
    /// The format's version, [`REPLAY_VERSION`].
    pub version: u32,
    /// The version of the game that recorded it.
    pub game_version: String,
    /// The seed.
    pub seed: u64,
    /// The text the seed came from, as the player typed it.
    pub seed_text: String,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// When it was recorded, in seconds since 1970 (UTC).
    pub recorded_unix_s: u64,
    /// The mode and its inputs.
    #[serde(flatten)]
    pub run: ReplayRun,
    /// Fingerprints of the run: at the start, after every step with an input, every
    /// [`CHECK_INTERVAL_TICKS`] steps and at the end.
    pub checks: Vec<Check>,
    /// How the run ended.
    pub result: ReplayResult,
}

/// The mode of a replay and the inputs of its run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum ReplayRun {
    /// A runner run.
    Runner {
        /// Every input, in order.
        inputs: Vec<Timed<RunnerInput>>,
    },
    /// A maze run.
    Maze {
        /// The maze's settings (its seed is the replay's).
        maze: MazeOptions,
        /// Every input, in order.
        inputs: Vec<Timed<MazeInput>>,
    },
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
}

/// An input and the fixed step (counted from 0 at the start of the run) it took effect on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timed<I> {
    /// The step.
    pub tick: u64,
    /// The input.
    pub input: I,
}

/// A fingerprint of the run after `tick` steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// Steps run.
    pub tick: u64,
    /// The fingerprint, as 16 hexadecimal digits (JSON numbers lose precision beyond 2^53).
    #[serde(with = "hex_u64")]
    pub fingerprint: u64,
}

/// How a recorded run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum ReplayResult {
    /// A runner run's end.
    Runner {
        /// Fixed steps run.
        ticks: u64,
        /// Metres run.
        distance_m: f64,
        /// Coin lines taken.
        coins: u32,
        /// The score.
        score: u64,
        /// Stumbles.
        stumbles: u32,
        /// Why it ended, if it did (a recording of the autopilot may stop at a distance).
        crash: Option<Crash>,
        /// The autopilot ran.
        assisted: bool,
    },
    /// A maze run's end.
    Maze {
        /// Fixed steps run: the time is this over 64 seconds.
        ticks: u64,
        /// Steps taken.
        moves: u32,
        /// Times the hint was switched on.
        hints_used: u32,
        /// The exit was reached.
        finished: bool,
        /// The system walked.
        assisted: bool,
    },
}

impl ReplayResult {
    /// Fixed steps the run took.
    pub fn ticks(&self) -> u64 {
        match self {
            ReplayResult::Runner { ticks, .. } | ReplayResult::Maze { ticks, .. } => *ticks,
        }
    }
}

/// A run that moves in fixed steps with timed inputs: what recording and verification need.
pub trait Simulation {
    /// What a player does to it.
    type Input: Copy;
    /// Fixed steps run so far.
    fn tick(&self) -> u64;
    /// Whether the run is over (then steps change nothing).
    fn is_over(&self) -> bool;
    /// One fixed step with these inputs applied at its start.
    fn step_with(&mut self, inputs: &[Self::Input]);
    /// A fingerprint of the state the rest of the run depends on.
    fn fingerprint(&self) -> u64;
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
}

/// Why a replay could not be verified.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayError {
    /// The file is not a replay this game can read.
    Invalid(String),
    /// Playing it again went another way from this step on.
    Diverged {
        /// The first step (counted from 0, as inputs are) after which the replayed run differs
        /// from the recorded one; 0 also when they differ from the start (another seed).
        tick: u64,
        /// What differed.
        what: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Invalid(why) => write!(f, "not a replay: {why}"),
            ReplayError::Diverged { tick, what } => {
                write!(f, "the run diverged at tick {tick}: {what}")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Records a run's inputs and fingerprints as it is played.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorder<I> {
    inputs: Vec<Timed<I>>,
    checks: Vec<Check>,
}

impl<I: Copy> Recorder<I> {
    /// A recording that starts with the run's fingerprint before its first step.
    pub fn start(fingerprint: u64) -> Recorder<I> {
        Recorder {
            inputs: Vec::new(),
            checks: vec![Check {
                tick: 0,
                fingerprint,
            }],
        }
    }

    /// Notes a step: the inputs applied at its start (`tick` is the step's number, counted from
    /// 0) and, when one is due, the fingerprint after it.
    pub fn step(&mut self, tick: u64, inputs: &[I], fingerprint: impl FnOnce() -> u64) {
        self.inputs
            .extend(inputs.iter().map(|&input| Timed { tick, input }));
        let after = tick + 1;
        if !inputs.is_empty() || after.is_multiple_of(CHECK_INTERVAL_TICKS) {
            self.checks.push(Check {
                tick: after,
                fingerprint: fingerprint(),
            });
        }
    }

    /// The inputs and fingerprints of a recording that ends after `ticks` steps, with the
    /// run's last fingerprint.
    pub fn finish(&self, ticks: u64, fingerprint: u64) -> (Vec<Timed<I>>, Vec<Check>) {
        let mut checks = self.checks.clone();
        if checks.last().is_none_or(|check| check.tick != ticks) {
            checks.push(Check {
                tick: ticks,
                fingerprint,
            });
        }
        (self.inputs.clone(), checks)
    }
}

/// What identifies a run besides its inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayHeader {
    /// The seed.
    pub seed: u64,
    /// The text the seed came from.
    pub seed_text: String,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// The game's version.
    pub game_version: String,
    /// When it was recorded, in seconds since 1970 (UTC).
    pub recorded_unix_s: u64,
}

impl ReplayHeader {
    /// The header of a run recorded now by this version of the game.
    pub fn new(seed: u64, seed_text: String, difficulty: Difficulty, recorded_unix_s: u64) -> Self {
        ReplayHeader {
            seed,
            seed_text,
            difficulty,
            game_version: env!("CARGO_PKG_VERSION").to_owned(),
            recorded_unix_s,
        }
    }
}

/// Records the computer playing a run on its own: `first` at step 0 (the autopilot or the system
/// walk switched on), then no input until `done` says so or the run ends.
pub fn record_computer_play<S: Simulation>(
    sim: &mut S,
    done: impl FnMut(&S) -> bool,
    first: S::Input,
) -> Recorder<S::Input> {
    record(
        sim,
        done,
        |tick, _| if tick == 0 { vec![first] } else { Vec::new() },
    )
}

/// The inputs of step `tick`, taken from `inputs` from `next` on (which moves past them): what
/// a replay feeds its run at each step, when it is verified, watched or raced as a ghost.
/// Inputs left behind an earlier step are taken too, so none is lost.
pub fn inputs_due<I: Copy>(inputs: &[Timed<I>], next: &mut usize, tick: u64) -> Vec<I> {
    let start = *next;
    while inputs.get(*next).is_some_and(|timed| timed.tick <= tick) {
        *next += 1;
    }
    inputs[start..*next]
        .iter()
        .map(|timed| timed.input)
        .collect()
}

/// Steps `sim` with its recorded inputs (from `next` on) until it has run `tick` steps or its run
/// ends: a ghost keeping step with the player.
pub fn play_until<S: Simulation>(
    sim: &mut S,
    inputs: &[Timed<S::Input>],
    next: &mut usize,
    tick: u64,
) {
    while sim.tick() < tick && !sim.is_over() {
        let now = inputs_due(inputs, next, sim.tick());
        sim.step_with(&now);
    }
}

/// Plays inputs on `sim` until `done` says so or the run ends, and records them: the one loop
/// behind a recording made without a window, the verification of a replay and the tests.
/// `inputs_at(tick, sim)` gives the inputs of a step.
pub fn record<S: Simulation>(
    sim: &mut S,
    mut done: impl FnMut(&S) -> bool,
    mut inputs_at: impl FnMut(u64, &S) -> Vec<S::Input>,
) -> Recorder<S::Input> {
    let mut recorder = Recorder::start(sim.fingerprint());
    while !done(sim) && !sim.is_over() {
        let tick = sim.tick();
        let inputs = inputs_at(tick, sim);
        sim.step_with(&inputs);
        recorder.step(tick, &inputs, || sim.fingerprint());
    }
    recorder
}

/// A runner replay of a finished (or stopped) run.
pub fn runner_replay(
    header: ReplayHeader,
    sim: &RunnerSim,
    recorder: &Recorder<RunnerInput>,
) -> Replay {
    let (inputs, checks) = recorder.finish(sim.tick, sim.fingerprint());
    assemble(
        header,
        ReplayRun::Runner { inputs },
        checks,
        runner_result(sim),
    )
}

/// A maze replay of a finished (or stopped) run.
pub fn maze_replay(header: ReplayHeader, run: &MazeRun, recorder: &Recorder<MazeInput>) -> Replay {
    let (inputs, checks) = recorder.finish(run.ticks, run.fingerprint());
    let maze = MazeOptions::of(&run.setup);
    assemble(
        header,
        ReplayRun::Maze { maze, inputs },
        checks,
        maze_result(run),
    )
}

fn assemble(
    header: ReplayHeader,
    run: ReplayRun,
    checks: Vec<Check>,
    result: ReplayResult,
) -> Replay {
    Replay {
        format: REPLAY_FORMAT.to_owned(),
        version: REPLAY_VERSION,
        game_version: header.game_version,
        seed: header.seed,
        seed_text: header.seed_text,
        difficulty: header.difficulty,
        recorded_unix_s: header.recorded_unix_s,
        run,
        checks,
        result,
    }
}

/// The result of a maze run as a replay keeps it.
pub fn maze_result(run: &MazeRun) -> ReplayResult {
    ReplayResult::Maze {
        ticks: run.ticks,
        moves: run.moves,
        hints_used: run.hints_used,
        finished: run.finished,
        assisted: run.assisted,
    }
}

/// The result of a runner run as a replay keeps it.
pub fn runner_result(sim: &RunnerSim) -> ReplayResult {
    ReplayResult::Runner {
        ticks: sim.tick,
        distance_m: sim.body.distance_m,
        coins: sim.body.coins,
        score: sim.body.score(),
        stumbles: sim.body.stumbles,
        crash: sim.body.crash,
        assisted: sim.assisted,
    }
}

/// Reads a replay from JSON text, refusing other formats and versions.
pub fn parse(text: &str) -> Result<Replay, ReplayError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|err| ReplayError::Invalid(format!("{err}")))?;
    if value.get("format").and_then(serde_json::Value::as_str) != Some(REPLAY_FORMAT) {
        return Err(ReplayError::Invalid(format!(
            "it does not say \"format\": \"{REPLAY_FORMAT}\""
        )));
    }
    let version = value.get("version").and_then(serde_json::Value::as_u64);
    if version != Some(u64::from(REPLAY_VERSION)) {
        return Err(ReplayError::Invalid(format!(
            "version {} is not the version this game reads ({REPLAY_VERSION})",
            version.map_or_else(|| "missing".to_owned(), |v| v.to_string())
        )));
    }
    serde_json::from_value(value).map_err(|err| ReplayError::Invalid(format!("{err}")))
}

/// Plays a replay again from its seed and checks that it goes exactly as recorded. Returns the
/// replayed result, which equals the recorded one.
pub fn verify(replay: &Replay) -> Result<ReplayResult, ReplayError> {
    let ticks = replay.result.ticks();
    let (checks, result) = match &replay.run {
        ReplayRun::Runner { inputs } => {
            let mut sim = RunnerSim::new(replay.seed, replay.difficulty);
            let played = replay_inputs(&mut sim, inputs, ticks)?;
            (played, runner_result(&sim))
        }
        ReplayRun::Maze { maze, inputs } => {
            let setup = maze.setup(replay.seed, replay.difficulty);
            let mut run = MazeRun::new(setup, false).map_err(|err: MazeError| {
                ReplayError::Invalid(format!("its maze cannot be made: {err}"))
            })?;
            let played = replay_inputs(&mut run, inputs, ticks)?;
            (played, maze_result(&run))
        }
    };
    let (checks, unplayed) = checks;
    compare_checks(&replay.checks, &checks)?;
    if let Some(tick) = unplayed {
        return Err(diverged(tick, "the run ended before this input"));
    }
    if result != replay.result {
        return Err(diverged(
            result.ticks().min(ticks),
            &format!(
                "the result differs: recorded {:?}, replayed {result:?}",
                replay.result
            ),
        ));
    }
    Ok(result)
}

/// Steps `sim` for `ticks` steps with the recorded inputs and returns the fingerprints taken on
/// the way, as the recording took them, and the tick of the first input left unplayed because
/// the run ended first.
fn replay_inputs<S: Simulation>(
    sim: &mut S,
    inputs: &[Timed<S::Input>],
    ticks: u64,
) -> Result<(Vec<Check>, Option<u64>), ReplayError> {
    let mut next = 0;
    let mut out_of_order = None;
    let recorder = record(
        sim,
        |sim| sim.tick() >= ticks,
        |tick, _| {
            if let Some(early) = inputs.get(next).filter(|timed| timed.tick < tick) {
                out_of_order.get_or_insert(early.tick);
            }
            inputs_due(inputs, &mut next, tick)
        },
    );
    if let Some(tick) = out_of_order {
        return Err(diverged(tick, "an input is out of order"));
    }
    let (_, checks) = recorder.finish(sim.tick(), sim.fingerprint());
    Ok((checks, inputs.get(next).map(|late| late.tick)))
}

fn diverged(tick: u64, what: &str) -> ReplayError {
    ReplayError::Diverged {
        tick,
        what: what.to_owned(),
    }
}

/// The first fingerprint where two recordings of a run differ.
fn compare_checks(recorded: &[Check], replayed: &[Check]) -> Result<(), ReplayError> {
    for (index, expected) in recorded.iter().enumerate() {
        match replayed.get(index) {
            Some(got) if got == expected => {}
            Some(got) => {
                // A fingerprint is taken after a step: the step before it went another way.
                let after = got.tick.min(expected.tick);
                return Err(diverged(
                    after.saturating_sub(1),
                    "the run is not in the state recorded there",
                ));
            }
            None => {
                let end = replayed.last().map_or(0, |check| check.tick);
                return Err(diverged(
                    end.min(expected.tick),
                    "the replayed run is shorter than the recorded one",
                ));
            }
        }
    }
    if let Some(extra) = replayed.get(recorded.len()) {
        return Err(diverged(
            extra.tick,
            "the replayed run goes on past the recorded one",
        ));
    }
    Ok(())
}

/// A u64 written as 16 hexadecimal digits.
mod hex_u64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format!("{value:016x}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let text = String::deserialize(deserializer)?;
        u64::from_str_radix(&text, 16).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::runner::body::Command;

    fn header(seed: u64) -> ReplayHeader {
        ReplayHeader {
            seed,
            seed_text: seed.to_string(),
            difficulty: Difficulty::Normal,
            game_version: "test".to_owned(),
            recorded_unix_s: 0,
        }
    }

    /// A player who jumps now and then and changes lane: a short run that ends in a crash.
    fn recorded_run(seed: u64) -> Replay {
        let mut sim = RunnerSim::new(seed, Difficulty::Normal);
        let recorder = record(
            &mut sim,
            |_| false,
            |tick, _| match tick % 97 {
                10 => vec![RunnerInput::Command(Command::Jump)],
                50 => vec![RunnerInput::Command(Command::Left)],
                80 => vec![RunnerInput::Command(Command::Right)],
                _ => Vec::new(),
            },
        );
        runner_replay(header(seed), &sim, &recorder)
    }

    #[test]
    fn a_recorded_run_verifies_and_survives_json() {
        let replay = recorded_run(3);
        assert!(replay.result.ticks() > 100);
        let text = serde_json::to_string(&replay).unwrap();
        let read = parse(&text).unwrap();
        assert_eq!(read, replay);
        assert_eq!(verify(&read), Ok(replay.result.clone()));
    }

    #[test]
    fn changes_are_refused_at_the_step_they_take_effect() {
        let replay = recorded_run(3);
        let ReplayRun::Runner { inputs } = &replay.run else {
            panic!("a runner replay");
        };
        let first = inputs[0];

        let mut jump_later = replay.clone();
        let ReplayRun::Runner { inputs } = &mut jump_later.run else {
            unreachable!()
        };
        inputs[0].tick += 1;
        // The recorded run jumped at that step and the replayed one did not.
        assert!(
            matches!(verify(&jump_later), Err(ReplayError::Diverged { tick, .. }) if tick == first.tick)
        );

        let mut slide_instead = replay.clone();
        let ReplayRun::Runner { inputs } = &mut slide_instead.run else {
            unreachable!()
        };
        inputs[0].input = RunnerInput::Command(Command::Slide);
        assert!(
            matches!(verify(&slide_instead), Err(ReplayError::Diverged { tick, .. }) if tick == first.tick)
        );

        let mut other_seed = replay.clone();
        other_seed.seed += 1;
        assert!(matches!(
            verify(&other_seed),
            Err(ReplayError::Diverged { tick: 0, .. })
        ));

        let mut better_score = replay.clone();
        if let ReplayResult::Runner { score, .. } = &mut better_score.result {
            *score += 1;
        }
        assert!(
            matches!(verify(&better_score), Err(ReplayError::Diverged { tick, .. }) if tick == replay.result.ticks())
        );
    }

    #[test]
    fn other_files_are_not_replays() {
        assert!(matches!(parse("{"), Err(ReplayError::Invalid(_))));
        assert!(matches!(
            parse("{\"format\":\"x\"}"),
            Err(ReplayError::Invalid(_))
        ));
        let text = serde_json::to_string(&recorded_run(1)).unwrap();
        let newer = text.replace("\"version\":1", "\"version\":99");
        assert!(matches!(parse(&newer), Err(ReplayError::Invalid(why)) if why.contains("99")));
        assert!(matches!(
            parse(&text[..text.len() / 2]),
            Err(ReplayError::Invalid(_))
        ));
    }
}
