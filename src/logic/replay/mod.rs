//! Replays: a run kept as its seed, its settings, every input with the fixed step it took effect
//! on, fingerprints of the run along the way, and its result. A run records itself as it is
//! played ([`Recorder`]); playing the inputs again from the seed ([`verify`]) must give the same
//! fingerprints and the same result, or it names the first step where it went another way.
//!
//! A replay file is hostile until checked: [`parse_bytes`] reads no more than
//! [`limits::MAX_REPLAY_BYTES`], [`limits::check_shape`] refuses what no run of this game can
//! have recorded before a step is played, and [`verify`] compares each fingerprint as the run
//! reaches it, stopping at the first difference, so the work a file causes is bounded by the run
//! it claims to be.

pub mod boards;
pub mod limits;

use crate::logic::difficulty::Difficulty;
use crate::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use crate::logic::maze::{Algorithm, MazeError, MazeSpec};
use crate::logic::runner::body::Crash;
use crate::logic::runner::run::{RunnerInput, RunnerSim};
use limits::{MAX_INPUTS_PER_TICK, MAX_REPLAY_BYTES, check_shape};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What every replay file says it is.
pub const REPLAY_FORMAT: &str = "temple-trails-replay";
/// The version of the replay format this game writes and reads. Version 2 fingerprints the
/// maze's trail, seen cells and guardians' routes and the runner's autopilot plan, and walks the
/// system walk along a route planned once: version 1 runs cannot be checked again.
pub const REPLAY_VERSION: u32 = 2;
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

impl ReplayRun {
    /// The mode's name, as the file writes it (`runner`, `maze`).
    pub fn mode_name(&self) -> &'static str {
        match self {
            ReplayRun::Runner { .. } => boards::RUNNER_MODE,
            ReplayRun::Maze { .. } => boards::MAZE_MODE,
        }
    }
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

    /// Whether the computer played (the autopilot or the system walk).
    pub fn assisted(&self) -> bool {
        match self {
            ReplayResult::Runner { assisted, .. } | ReplayResult::Maze { assisted, .. } => {
                *assisted
            }
        }
    }

    /// The mode's name, as the file writes it.
    pub fn mode_name(&self) -> &'static str {
        match self {
            ReplayResult::Runner { .. } => boards::RUNNER_MODE,
            ReplayResult::Maze { .. } => boards::MAZE_MODE,
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
    /// The file is not a replay this game can read, or not one any run of it can have written.
    Invalid(String),
    /// Playing it again went another way from this step on.
    Diverged {
        /// The first step (counted from 0, as inputs are) after which the replayed run differs
        /// from the recorded one; 0 also when they differ from the start (another seed).
        tick: u64,
        /// What differed.
        what: String,
    },
    /// Checking it took longer than it was given; it had reached this step.
    OutOfTime {
        /// Steps played when time ran out.
        tick: u64,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Invalid(why) => write!(f, "not a replay: {why}"),
            ReplayError::Diverged { tick, what } => {
                write!(f, "the run diverged at tick {tick}: {what}")
            }
            ReplayError::OutOfTime { tick } => write!(
                f,
                "checking it took longer than it may (it had played {tick} steps)"
            ),
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

/// The inputs for the coming step, taken from the front of `pending`: at most
/// [`MAX_INPUTS_PER_TICK`], and any more wait for the next step, so a run never records more
/// inputs on a step than a replay may hold.
pub fn take_step_inputs<I>(pending: &mut Vec<I>) -> Vec<I> {
    let now = pending.len().min(MAX_INPUTS_PER_TICK);
    pending.drain(..now).collect()
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

/// The most characters of a parser's message kept in an error: it may quote the file.
const MAX_MESSAGE_CHARS: usize = 200;

/// `text` as it may be shown: control characters escaped (`\n`, `\u{1b}`), so that no text
/// from a file can break a line or send a terminal a command, and cut to `max_chars`.
pub fn printable(text: &str, max_chars: usize) -> String {
    let mut shown = String::new();
    let mut count = 0;
    for c in text.chars() {
        let piece = if c.is_control() {
            c.escape_debug().to_string()
        } else {
            c.to_string()
        };
        count += piece.chars().count();
        if count > max_chars {
            shown.push('…');
            break;
        }
        shown.push_str(&piece);
    }
    shown
}

/// A parser's complaint about a file, safe to show.
fn unreadable(err: &serde_json::Error) -> ReplayError {
    ReplayError::Invalid(printable(&err.to_string(), MAX_MESSAGE_CHARS))
}

/// What a file must say before the rest of it is read: its format and version.
#[derive(Deserialize)]
struct Head {
    format: Option<String>,
    version: Option<u64>,
}

/// Reads a replay from JSON text, refusing other formats and versions.
pub fn parse(text: &str) -> Result<Replay, ReplayError> {
    parse_bytes(text.as_bytes())
}

/// Reads a replay from the bytes of a file, refusing more than [`MAX_REPLAY_BYTES`], other
/// formats and versions. The fields are read straight into their types, never into a tree of
/// JSON values first, so a file costs little more memory than the run it holds.
pub fn parse_bytes(bytes: &[u8]) -> Result<Replay, ReplayError> {
    if bytes.len() as u64 > MAX_REPLAY_BYTES {
        return Err(ReplayError::Invalid(format!(
            "it is {} bytes; a replay is at most {MAX_REPLAY_BYTES}",
            bytes.len()
        )));
    }
    let head: Head = serde_json::from_slice(bytes).map_err(|err| unreadable(&err))?;
    if head.format.as_deref() != Some(REPLAY_FORMAT) {
        return Err(ReplayError::Invalid(format!(
            "it does not say \"format\": \"{REPLAY_FORMAT}\""
        )));
    }
    if head.version != Some(u64::from(REPLAY_VERSION)) {
        return Err(ReplayError::Invalid(format!(
            "version {} is not the version this game reads ({REPLAY_VERSION})",
            head.version
                .map_or_else(|| "missing".to_owned(), |v| v.to_string())
        )));
    }
    serde_json::from_slice(bytes).map_err(|err| unreadable(&err))
}

/// A replay as the game writes it: compact JSON on one line.
pub fn to_bytes(replay: &Replay) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(replay).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Plays a replay again from its seed and checks that it goes exactly as recorded. Returns the
/// replayed result, which equals the recorded one.
pub fn verify(replay: &Replay) -> Result<ReplayResult, ReplayError> {
    verify_while(replay, &mut || true)
}

/// Steps played between two questions whether to go on.
const ASK_EVERY_TICKS: u64 = 4096;

/// [`verify`], asking `go_on` every few thousand steps whether to go on, and giving up with
/// [`ReplayError::OutOfTime`] when it says no (a deadline passed, the game closing). The shape
/// of the file is checked first ([`check_shape`]); then each fingerprint is compared as the
/// replayed run reaches it, and the first difference ends the check.
pub fn verify_while(
    replay: &Replay,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<ReplayResult, ReplayError> {
    check_shape(replay)?;
    let ticks = replay.result.ticks();
    let result = match &replay.run {
        ReplayRun::Runner { inputs } => {
            let mut sim = RunnerSim::new(replay.seed, replay.difficulty);
            play_checked(&mut sim, inputs, &replay.checks, ticks, go_on)?;
            runner_result(&sim)
        }
        ReplayRun::Maze { maze, inputs } => {
            let setup = maze.setup(replay.seed, replay.difficulty);
            let mut run = MazeRun::new(setup, false).map_err(|err: MazeError| {
                ReplayError::Invalid(format!("its maze cannot be made: {err}"))
            })?;
            play_checked(&mut run, inputs, &replay.checks, ticks, go_on)?;
            maze_result(&run)
        }
    };
    if result != replay.result {
        return Err(diverged(
            ticks,
            &format!(
                "the result differs: recorded {:?}, replayed {result:?}",
                replay.result
            ),
        ));
    }
    Ok(result)
}

/// Steps `sim` for `ticks` steps with the recorded inputs, comparing each recorded fingerprint
/// as the run reaches its step. [`check_shape`] has made sure that the inputs are in order and
/// the fingerprints are exactly where the recording takes them.
fn play_checked<S: Simulation>(
    sim: &mut S,
    inputs: &[Timed<S::Input>],
    checks: &[Check],
    ticks: u64,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<(), ReplayError> {
    let mut checks = checks.iter().peekable();
    let mut next = 0;
    if let Some(first) = checks.next_if(|check| check.tick == 0)
        && first.fingerprint != sim.fingerprint()
    {
        return Err(diverged(
            0,
            "the run is not in the state recorded at its start",
        ));
    }
    while sim.tick() < ticks {
        let tick = sim.tick();
        if sim.is_over() {
            return Err(diverged(
                tick,
                "the run ended here, before the recording did",
            ));
        }
        if tick.is_multiple_of(ASK_EVERY_TICKS) && !go_on() {
            return Err(ReplayError::OutOfTime { tick });
        }
        let now = inputs_due(inputs, &mut next, tick);
        sim.step_with(&now);
        if let Some(check) = checks.next_if(|check| check.tick == tick + 1)
            && check.fingerprint != sim.fingerprint()
        {
            // A fingerprint is taken after a step: this step went another way.
            return Err(diverged(tick, "the run is not in the state recorded there"));
        }
    }
    Ok(())
}

fn diverged(tick: u64, what: &str) -> ReplayError {
    ReplayError::Diverged {
        tick,
        what: what.to_owned(),
    }
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
    use crate::logic::maze::Algorithm;
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
        // Its fingerprint is no longer where the recording takes one: no recording did this.
        assert!(
            matches!(verify(&jump_later), Err(ReplayError::Invalid(why)) if why.contains("where the recording takes one"))
        );
        // Moved with it, the fingerprint is out of step: the recorded run jumped a step earlier
        // than the replayed one, which the next fingerprint shows.
        let moved = jump_later
            .checks
            .iter_mut()
            .find(|check| check.tick == first.tick + 1)
            .unwrap();
        moved.tick += 1;
        assert!(
            matches!(verify(&jump_later), Err(ReplayError::Diverged { tick, .. }) if tick == first.tick + 1)
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
        other_seed.seed_text = other_seed.seed.to_string();
        assert!(matches!(
            verify(&other_seed),
            Err(ReplayError::Diverged { tick: 0, .. })
        ));
        // A seed text that does not give the seed is no run of this game.
        let mut other_text = replay.clone();
        other_text.seed += 1;
        assert!(
            matches!(verify(&other_text), Err(ReplayError::Invalid(why)) if why.contains("seed text"))
        );

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
        let newer = text.replace("\"version\":2", "\"version\":99");
        assert!(matches!(parse(&newer), Err(ReplayError::Invalid(why)) if why.contains("99")));
        assert!(matches!(
            parse(&text[..text.len() / 2]),
            Err(ReplayError::Invalid(_))
        ));
    }

    /// The reason `verify` refuses `replay` without playing it, if it does.
    fn refusal(replay: &Replay) -> String {
        match verify(replay) {
            Err(ReplayError::Invalid(why)) => why,
            other => panic!("refused as invalid: {other:?}"),
        }
    }

    fn runner_inputs(replay: &mut Replay) -> &mut Vec<Timed<RunnerInput>> {
        match &mut replay.run {
            ReplayRun::Runner { inputs } => inputs,
            ReplayRun::Maze { .. } => panic!("a runner replay"),
        }
    }

    #[test]
    fn what_no_run_can_record_is_refused_before_it_is_played() {
        let replay = recorded_run(3);
        assert!(runner_inputs(&mut replay.clone()).len() >= 3);

        let mut swapped = replay.clone();
        runner_inputs(&mut swapped).swap(0, 1);
        assert!(refusal(&swapped).contains("before the input ahead of it"));

        let mut crowded = replay.clone();
        let first = runner_inputs(&mut crowded)[0];
        runner_inputs(&mut crowded).splice(0..1, [first; MAX_INPUTS_PER_TICK + 1]);
        assert!(refusal(&crowded).contains("more than 8 inputs"));

        let mut late = replay.clone();
        let end = late.result.ticks();
        runner_inputs(&mut late).last_mut().unwrap().tick = end;
        assert!(refusal(&late).contains("at or after the end"));

        let mut endless = replay.clone();
        if let ReplayResult::Runner { ticks, .. } = &mut endless.result {
            *ticks = u64::MAX;
        }
        assert!(refusal(&endless).contains("at most 1382400"));

        // Fewer fingerprints than the recording takes: one dropped, or a long run with none.
        let mut thinned = replay.clone();
        thinned.checks.remove(1);
        assert!(refusal(&thinned).contains("where the recording takes one"));
        let mut unchecked = replay.clone();
        unchecked.checks.truncate(1);
        if let ReplayResult::Runner { ticks, .. } = &mut unchecked.result {
            *ticks = limits::MAX_RUN_TICKS;
        }
        runner_inputs(&mut unchecked).clear();
        assert!(refusal(&unchecked).contains("fingerprints where the recording takes"));

        let mut too_many = replay.clone();
        let input = runner_inputs(&mut too_many)[0].input;
        *runner_inputs(&mut too_many) = (0..limits::max_inputs(replay.result.ticks()) + 1)
            .map(|tick| Timed {
                tick: tick / 8,
                input,
            })
            .collect();
        assert!(refusal(&too_many).contains("holds at most"));

        let mut shouting = replay.clone();
        shouting.game_version = "0.1\u{1b}[31m".to_owned();
        assert!(refusal(&shouting).contains("control characters"));

        let mut mixed = replay.clone();
        mixed.result = ReplayResult::Maze {
            ticks: replay.result.ticks(),
            moves: 0,
            hints_used: 0,
            finished: false,
            assisted: false,
        };
        assert!(refusal(&mixed).contains("runner run with a maze result"));
    }

    /// A level-2 Hard maze of 9x7 cells at level 1 (15x13 at level 2).
    const SMALL_MAZE: MazeOptions = MazeOptions {
        width: 9,
        height: 7,
        algorithm: Algorithm::Kruskal,
        braid: 0.0,
        level: 2,
    };

    fn maze_replay_of(options: MazeOptions) -> Replay {
        let setup = options.setup(5, Difficulty::Hard);
        let mut run = MazeRun::new(setup, false).unwrap();
        let recorder = record_computer_play(&mut run, |run| run.ticks >= 300, MazeInput::Hint);
        let header = ReplayHeader {
            difficulty: Difficulty::Hard,
            ..header(5)
        };
        maze_replay(header, &run, &recorder)
    }

    #[test]
    fn maze_options_out_of_range_are_refused_before_any_arithmetic() {
        let replay = maze_replay_of(SMALL_MAZE);
        assert_eq!(verify(&replay).map(|r| r.ticks()), Ok(300));
        let with = |change: &dyn Fn(&mut MazeOptions)| {
            let mut changed = replay.clone();
            if let ReplayRun::Maze { maze, .. } = &mut changed.run {
                change(maze);
            }
            refusal(&changed)
        };
        assert!(with(&|maze| maze.width = usize::MAX).contains("each side is 2 to 1000"));
        assert!(with(&|maze| maze.height = 1).contains("each side is 2 to 1000"));
        assert!(with(&|maze| maze.level = 0).contains("level 0 is not 1 to 1000"));
        assert!(with(&|maze| maze.level = u32::MAX).contains("is not 1 to 1000"));
        assert!(with(&|maze| maze.braid = 1.5).contains("braid"));
        let mut far = replay.clone();
        if let ReplayRun::Maze { inputs, .. } = &mut far.run {
            inputs[0].input = MazeInput::WalkTo(usize::MAX);
        }
        assert!(refusal(&far).contains("of a maze of 195 cells"));
    }

    #[test]
    fn a_record_fits_only_the_board_of_its_own_run() {
        let runner = recorded_run(3);
        assert_eq!(boards::board_of(&runner, None), "runner/normal");
        assert_eq!(boards::check_board(&runner, "runner/normal"), Ok(()));
        for other in [
            "runner/hard",
            "maze/normal",
            "runner/daily-2026-11-30/normal",
        ] {
            assert!(boards::check_board(&runner, other).is_err(), "{other}");
        }
        let maze = maze_replay_of(SMALL_MAZE);
        assert_eq!(
            boards::board_of(&maze, None),
            "maze/9x7/kruskal/hard/level2"
        );
        assert!(boards::check_board(&maze, "maze/9x7/kruskal/hard/level2").is_ok());
        assert!(boards::check_board(&maze, "maze/9x7/kruskal/hard").is_err());
        // A day's board takes only runs of that day's seed.
        let mut daily = recorded_run(3);
        daily.seed_text = boards::daily_seed_text("2026-11-30");
        daily.seed = crate::logic::seed::parse_seed(&daily.seed_text).unwrap();
        assert!(boards::check_board(&daily, "runner/daily-2026-11-30/normal").is_ok());
        assert!(boards::check_board(&daily, "runner/daily-2026-12-01/normal").is_err());
        assert!(boards::check_board(&runner, "runner/daily-2026-11-30/normal").is_err());
    }

    #[test]
    fn inputs_beyond_a_step_share_wait_for_the_next() {
        let mut pending: Vec<u32> = (0..11).collect();
        assert_eq!(take_step_inputs(&mut pending), (0..8).collect::<Vec<_>>());
        assert_eq!(take_step_inputs(&mut pending), vec![8, 9, 10]);
        assert!(take_step_inputs(&mut pending).is_empty());
    }

    #[test]
    fn texts_from_files_are_shown_escaped_and_cut() {
        assert_eq!(printable("temple 寺", 20), "temple 寺");
        assert_eq!(
            printable("a\nscore: 999\u{1b}[2J", 40),
            "a\\nscore: 999\\u{1b}[2J"
        );
        assert_eq!(printable("abcdef", 3), "abc…");
        // A parser's message that quotes a hostile string stays one short line.
        let text = serde_json::to_string(&recorded_run(1)).unwrap();
        let mode = format!(r#""mode":"x\n{}""#, "y".repeat(10_000));
        let hostile = text.replace(r#""mode":"runner""#, &mode);
        assert_ne!(hostile, text);
        let Err(ReplayError::Invalid(why)) = parse(&hostile) else {
            panic!("refused");
        };
        assert!(!why.contains('\n') && why.chars().count() <= 201, "{why}");
    }
}
