//! What a replay file can hold, checked before a single step is played: a file is refused when
//! it cannot be a run of this game, so that checking one costs what the run it claims to be
//! costs, and no more. The README's replay section lists these bounds.

use super::{CHECK_INTERVAL_TICKS, REPLAY_FORMAT, REPLAY_VERSION, Replay, ReplayError};
use super::{ReplayKind, Timed};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::seed::parse_seed;

/// The longest run a replay holds: six hours of play, in fixed steps. A run that goes on longer
/// is played to its end but not kept as a replay.
pub const MAX_RUN_TICKS: u64 = 6 * 3600 * STEPS_PER_S;
/// The game's fixed steps per second, in every mode.
const STEPS_PER_S: u64 = (1.0 / SIMULATION_STEP_S) as u64;
/// The most inputs that take effect on one fixed step. A frame gives each key one press, and
/// frames faster than the fixed steps can put a few frames' presses on one step; the game holds
/// any more back to the next step, so it never records more.
pub const MAX_INPUTS_PER_TICK: usize = 8;
/// Inputs a run may hold beyond [`INPUT_TICKS_PER_INPUT`]'s share of its length: a short run's
/// burst of presses.
pub const BASE_INPUTS: u64 = 1024;
/// Fixed steps per input on average over a run: one every 4 steps is 16 inputs a second for the
/// whole run, above a maze walker who holds a key down all the way (a step every 85 ms).
pub const INPUT_TICKS_PER_INPUT: u64 = 4;
/// The longest game version text a replay carries.
pub const MAX_GAME_VERSION_CHARS: usize = 32;
/// The largest replay file read, in bytes. The game writes replays as compact JSON; the longest
/// run with the most inputs a replay holds takes 33.2 MB so (a test writes one), and a file
/// over this cannot be a run of this game.
pub const MAX_REPLAY_BYTES: u64 = 36 * 1024 * 1024;

/// The most inputs a run of `ticks` fixed steps holds.
pub fn max_inputs(ticks: u64) -> u64 {
    BASE_INPUTS.saturating_add(ticks / INPUT_TICKS_PER_INPUT)
}

fn invalid(why: String) -> ReplayError {
    ReplayError::Invalid(why)
}

/// Refuses what no run of `kind` can have recorded: a text that is too long or holds control
/// characters, a seed text that does not give the seed, a run of another mode or longer than
/// [`MAX_RUN_TICKS`], inputs out of order, after the end or too many, a setup or an input the
/// mode refuses (a maze's size out of range), and fingerprints not taken exactly where the
/// recording rule takes them (at the start, after every step with an input, every
/// [`CHECK_INTERVAL_TICKS`] steps and at the end). Every number is compared before it is used
/// in arithmetic.
pub fn check_shape(replay: &Replay, kind: &dyn ReplayKind) -> Result<(), ReplayError> {
    if replay.format != REPLAY_FORMAT || replay.version != REPLAY_VERSION {
        return Err(invalid(format!(
            "it is not a replay of version {REPLAY_VERSION} of this game"
        )));
    }
    check_text("game version", &replay.game_version, MAX_GAME_VERSION_CHARS)?;
    match parse_seed(&replay.seed_text) {
        Ok(seed) if seed == replay.seed => {}
        Ok(seed) => {
            return Err(invalid(format!(
                "its seed text {:?} gives the seed {seed}, not the {} it claims",
                replay.seed_text, replay.seed
            )));
        }
        Err(err) => return Err(invalid(format!("its seed text: {err}"))),
    }
    let ticks = replay.result.ticks;
    if ticks > MAX_RUN_TICKS {
        return Err(invalid(format!(
            "it claims {ticks} fixed steps; a replay holds at most {MAX_RUN_TICKS} (six hours)"
        )));
    }
    let (run_mode, result_mode) = (replay.run.mode(), replay.result.mode());
    if run_mode != kind.mode() || result_mode != kind.mode() {
        return Err(invalid(format!(
            "it is a {} run with a {} result, not a {} run",
            super::printable(run_mode, 40),
            super::printable(result_mode, 40),
            kind.mode()
        )));
    }
    let input_ticks = kind.check_run(replay)?;
    check_check_ticks(replay, &input_ticks, ticks)
}

/// A short text: at most `max` characters and no control characters.
fn check_text(what: &str, text: &str, max: usize) -> Result<(), ReplayError> {
    if text.chars().nth(max).is_some() {
        return Err(invalid(format!(
            "its {what} is longer than {max} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(invalid(format!(
            "its {what} {text:?} holds control characters"
        )));
    }
    Ok(())
}

/// Checks that inputs come in order, before the end, at most [`MAX_INPUTS_PER_TICK`] to a step
/// and at most [`max_inputs`] in all. Returns their distinct ticks in order.
pub(super) fn check_inputs<I>(inputs: &[Timed<I>], ticks: u64) -> Result<Vec<u64>, ReplayError> {
    let most = max_inputs(ticks);
    if inputs.len() as u64 > most {
        return Err(invalid(format!(
            "it holds {} inputs; a run of {ticks} fixed steps holds at most {most}",
            inputs.len()
        )));
    }
    let mut distinct: Vec<u64> = Vec::new();
    let mut on_this_tick = 0;
    for (index, timed) in inputs.iter().enumerate() {
        if timed.tick >= ticks {
            return Err(invalid(format!(
                "input {index} is at tick {}, at or after the end of the run ({ticks})",
                timed.tick
            )));
        }
        match distinct.last() {
            Some(&last) if timed.tick < last => {
                return Err(invalid(format!(
                    "input {index} is at tick {}, before the input ahead of it (tick {last})",
                    timed.tick
                )));
            }
            Some(&last) if timed.tick == last => on_this_tick += 1,
            _ => {
                distinct.push(timed.tick);
                on_this_tick = 1;
            }
        }
        if on_this_tick > MAX_INPUTS_PER_TICK {
            return Err(invalid(format!(
                "tick {} has more than {MAX_INPUTS_PER_TICK} inputs",
                timed.tick
            )));
        }
    }
    Ok(distinct)
}

/// Checks that the fingerprints are taken at exactly the ticks where the recording takes them.
fn check_check_ticks(replay: &Replay, input_ticks: &[u64], ticks: u64) -> Result<(), ReplayError> {
    let mut expected: Vec<u64> = Vec::with_capacity(input_ticks.len() + 2);
    expected.push(0);
    // Below MAX_RUN_TICKS, so none of these overflows.
    expected.extend(input_ticks.iter().map(|tick| tick + 1));
    expected.extend((1..=ticks / CHECK_INTERVAL_TICKS).map(|k| k * CHECK_INTERVAL_TICKS));
    expected.push(ticks);
    expected.sort_unstable();
    expected.dedup();
    let recorded = replay.checks.iter().map(|check| check.tick);
    for (index, (got, want)) in recorded.zip(&expected).enumerate() {
        if got != *want {
            return Err(invalid(format!(
                "fingerprint {index} is at tick {got}, where the recording takes one at tick \
                 {want}"
            )));
        }
    }
    if replay.checks.len() != expected.len() {
        return Err(invalid(format!(
            "it has {} fingerprints where the recording takes {}",
            replay.checks.len(),
            expected.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::difficulty::Difficulty;
    use crate::logic::maze::challenge::MAX_LEVEL;
    use crate::logic::maze::replay::{MazeKind, MazeOptions, MazeOutcome, MazeReplaySetup};
    use crate::logic::maze::run::MazeInput;
    use crate::logic::maze::{Algorithm, MAX_SIDE};
    use crate::logic::replay::{Check, ModeRun, RunResult, Timed, to_bytes};
    use crate::logic::seed::parse_seed;

    /// The largest file a run can write: the longest run, the most inputs it may hold (of the
    /// longest kind, spread so their ticks have the most digits), the longest seed text of
    /// four-byte characters and the longest game version.
    fn largest_replay() -> Replay {
        let ticks = MAX_RUN_TICKS;
        let count = max_inputs(ticks);
        let inputs: Vec<Timed<MazeInput>> = (0..count)
            .map(|i| Timed {
                tick: ticks - 1 - (count - 1 - i) * 3,
                input: MazeInput::SystemWalk(false),
            })
            .collect();
        let mut check_ticks: Vec<u64> = inputs.iter().map(|t| t.tick + 1).collect();
        check_ticks.push(0);
        check_ticks.extend((1..=ticks / CHECK_INTERVAL_TICKS).map(|k| k * CHECK_INTERVAL_TICKS));
        check_ticks.sort_unstable();
        check_ticks.dedup();
        let seed_text = "\u{1D11E}".repeat(crate::logic::seed::MAX_SEED_TEXT_CHARS);
        Replay {
            format: REPLAY_FORMAT.to_owned(),
            version: REPLAY_VERSION,
            game_version: "9".repeat(MAX_GAME_VERSION_CHARS),
            seed: parse_seed(&seed_text).unwrap(),
            seed_text,
            difficulty: Difficulty::Normal,
            recorded_unix_s: u64::MAX,
            run: ModeRun::of::<MazeKind>(
                &MazeReplaySetup {
                    maze: MazeOptions {
                        width: MAX_SIDE,
                        height: MAX_SIDE,
                        algorithm: Algorithm::Backtracker,
                        braid: 0.123_456_789_012_345_67,
                        level: MAX_LEVEL,
                    },
                },
                &inputs,
            ),
            checks: check_ticks
                .into_iter()
                .map(|tick| Check {
                    tick,
                    fingerprint: u64::MAX,
                })
                .collect(),
            result: RunResult::of::<MazeKind>(
                ticks,
                false,
                &MazeOutcome {
                    moves: u32::MAX,
                    hints_used: u32::MAX,
                    finished: false,
                },
            ),
        }
    }

    #[test]
    fn the_largest_file_a_run_can_write_fits_the_limit() {
        let replay = largest_replay();
        assert_eq!(check_shape(&replay, &MazeKind), Ok(()));
        let bytes = to_bytes(&replay).len() as u64;
        println!("the largest replay: {bytes} bytes of {MAX_REPLAY_BYTES}");
        assert!(bytes <= MAX_REPLAY_BYTES, "{bytes}");
        // The limit is not much more than that: a file far larger cannot be a run of the game.
        assert!(bytes * 5 / 4 > MAX_REPLAY_BYTES, "{bytes}");
    }
}
