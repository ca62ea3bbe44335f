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
pub mod kind;
pub mod limits;
mod parts;
mod recording;

pub use kind::{ReplayKind, RunKind, kind_of};
pub use parts::{Fields, ModeRun, RunResult};
pub use recording::{
    Recorder, Simulation, inputs_due, play_until, record, record_computer_play, take_step_inputs,
};

use crate::logic::difficulty::Difficulty;
use limits::{MAX_REPLAY_BYTES, check_shape};
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

/// A recorded run, of any mode: what every mode's replay has, and the mode's own parts.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Fields")]
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
    /// The mode, its setup and its inputs.
    pub run: ModeRun,
    /// Fingerprints of the run: at the start, after every step with an input, every
    /// [`CHECK_INTERVAL_TICKS`] steps and at the end.
    pub checks: Vec<Check>,
    /// How the run ended.
    pub result: RunResult,
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

/// The replay of a finished (or stopped) run of mode `K`.
pub fn replay_of<K: RunKind>(
    header: ReplayHeader,
    sim: &K::Sim,
    recorder: &Recorder<K::Input>,
) -> Replay {
    let (inputs, checks) = recorder.finish(sim.tick(), sim.fingerprint());
    Replay {
        format: REPLAY_FORMAT.to_owned(),
        version: REPLAY_VERSION,
        game_version: header.game_version,
        seed: header.seed,
        seed_text: header.seed_text,
        difficulty: header.difficulty,
        recorded_unix_s: header.recorded_unix_s,
        run: ModeRun::of::<K>(&K::setup_of(sim), &inputs),
        checks,
        result: result_of::<K>(sim),
    }
}

/// The result of a run of mode `K` as a replay keeps it.
pub fn result_of<K: RunKind>(sim: &K::Sim) -> RunResult {
    RunResult::of::<K>(sim.tick(), sim.assisted(), &K::outcome_of(sim))
}

/// The most characters of a parser's message kept in an error: it may quote the file.
pub(crate) const MAX_MESSAGE_CHARS: usize = 200;

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
/// formats and versions. The shared fields are read straight into their types and the mode's
/// own are kept as their JSON text until the mode reads them, never as a tree of JSON values,
/// so a file costs little more memory than the run it holds.
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

/// Plays a replay again from its seed as a run of `kind` and checks that it goes exactly as
/// recorded. Returns the replayed result, which equals the recorded one.
pub fn verify(replay: &Replay, kind: &dyn ReplayKind) -> Result<RunResult, ReplayError> {
    verify_while(replay, kind, &mut || true)
}

/// Steps played between two questions whether to go on.
const ASK_EVERY_TICKS: u64 = 4096;

/// [`verify`], asking `go_on` every few thousand steps whether to go on, and giving up with
/// [`ReplayError::OutOfTime`] when it says no (a deadline passed, the game closing). The shape
/// of the file is checked first ([`check_shape`]); then each fingerprint is compared as the
/// replayed run reaches it, and the first difference ends the check.
pub fn verify_while(
    replay: &Replay,
    kind: &dyn ReplayKind,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<RunResult, ReplayError> {
    check_shape(replay, kind)?;
    kind.play_back(replay, go_on)
}

/// Plays a replay of mode `K`, whose shape has been checked, again; see [`verify_while`].
fn verify_run<K: RunKind>(
    replay: &Replay,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<RunResult, ReplayError> {
    let setup = replay.run.setup::<K>()?;
    let inputs = replay.run.inputs::<K>()?;
    let recorded = replay.result.outcome::<K>()?;
    let mut sim = K::start(&setup, replay.seed, replay.difficulty).map_err(ReplayError::Invalid)?;
    let ticks = replay.result.ticks;
    play_checked(&mut sim, &inputs, &replay.checks, ticks, go_on)?;
    let replayed = K::outcome_of(&sim);
    if replayed != recorded || sim.assisted() != replay.result.assisted {
        return Err(diverged(
            ticks,
            &format!(
                "the result differs: recorded {recorded:?} (assisted: {}), replayed {replayed:?} \
                 (assisted: {})",
                replay.result.assisted,
                sim.assisted()
            ),
        ));
    }
    Ok(result_of::<K>(&sim))
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
mod tests;
