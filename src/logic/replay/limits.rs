//! What a replay file can hold, checked before a single step is played: a file is refused when
//! it cannot be a run of this game, so that checking one costs what the run it claims to be
//! costs, and no more. The README's replay section lists these bounds.

use super::{CHECK_INTERVAL_TICKS, REPLAY_FORMAT, REPLAY_VERSION, Replay, ReplayError, ReplayRun};
use super::{MazeOptions, Timed};
use crate::logic::difficulty::Difficulty;
use crate::logic::maze::challenge::{MAX_LEVEL, TICKS_PER_SECOND};
use crate::logic::maze::run::MazeInput;
use crate::logic::maze::{MAX_SIDE, MIN_SIDE, MazeSpec};
use crate::logic::seed::parse_seed;

/// The longest run a replay holds: six hours of play, in fixed steps. A run that goes on longer
/// is played to its end but not kept as a replay.
pub const MAX_RUN_TICKS: u64 = 6 * 3600 * TICKS_PER_SECOND;
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

/// Refuses what no run of this game can have recorded: a text that is too long or holds
/// control characters, a seed text that does not give the seed, maze options or a level out of
/// range, a run longer than [`MAX_RUN_TICKS`], inputs out of order, after the end or too many,
/// and fingerprints not taken exactly where the recording rule takes them (at the start, after
/// every step with an input, every [`CHECK_INTERVAL_TICKS`] steps and at the end). Every number
/// is compared before it is used in arithmetic.
pub fn check_shape(replay: &Replay) -> Result<(), ReplayError> {
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
    let ticks = replay.result.ticks();
    if ticks > MAX_RUN_TICKS {
        return Err(invalid(format!(
            "it claims {ticks} fixed steps; a replay holds at most {MAX_RUN_TICKS} (six hours)"
        )));
    }
    if replay.run.mode_name() != replay.result.mode_name() {
        return Err(invalid(format!(
            "it is a {} run with a {} result",
            replay.run.mode_name(),
            replay.result.mode_name()
        )));
    }
    let input_ticks: Vec<u64> = match &replay.run {
        ReplayRun::Runner { inputs } => check_inputs(inputs, ticks, |_| Ok(()))?,
        ReplayRun::Maze { maze, inputs } => {
            let spec = check_maze_options(maze, replay.seed, replay.difficulty)?;
            let cells = spec.width * spec.height;
            check_inputs(inputs, ticks, |input| match input {
                MazeInput::WalkTo(cell) if *cell >= cells => {
                    Err(format!("walks to cell {cell} of a maze of {cells} cells"))
                }
                _ => Ok(()),
            })?
        }
    };
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

/// Refuses maze options outside their ranges, and gives the maze of the replay's level.
pub fn check_maze_options(
    maze: &MazeOptions,
    seed: u64,
    difficulty: Difficulty,
) -> Result<MazeSpec, ReplayError> {
    let side_ok = |side: usize| (MIN_SIDE..=MAX_SIDE).contains(&side);
    if !side_ok(maze.width) || !side_ok(maze.height) {
        return Err(invalid(format!(
            "its maze is {}x{}: each side is {MIN_SIDE} to {MAX_SIDE} cells",
            maze.width, maze.height
        )));
    }
    if !(0.0..=1.0).contains(&maze.braid) {
        return Err(invalid(format!(
            "its braid {} is not 0.0 to 1.0",
            maze.braid
        )));
    }
    if !(1..=MAX_LEVEL).contains(&maze.level) {
        return Err(invalid(format!(
            "its level {} is not 1 to {MAX_LEVEL}",
            maze.level
        )));
    }
    Ok(maze.setup(seed, difficulty).spec())
}

/// Checks that inputs come in order, before the end, at most [`MAX_INPUTS_PER_TICK`] to a step
/// and at most [`max_inputs`] in all, and that `valid` accepts each. Returns their distinct
/// ticks in order.
fn check_inputs<I>(
    inputs: &[Timed<I>],
    ticks: u64,
    valid: impl Fn(&I) -> Result<(), String>,
) -> Result<Vec<u64>, ReplayError> {
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
        valid(&timed.input).map_err(|why| invalid(format!("input {index} {why}")))?;
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
    use crate::logic::maze::Algorithm;
    use crate::logic::replay::{Check, ReplayResult, Timed, to_bytes};
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
            run: ReplayRun::Maze {
                maze: MazeOptions {
                    width: MAX_SIDE,
                    height: MAX_SIDE,
                    algorithm: Algorithm::Backtracker,
                    braid: 0.123_456_789_012_345_67,
                    level: MAX_LEVEL,
                },
                inputs,
            },
            checks: check_ticks
                .into_iter()
                .map(|tick| Check {
                    tick,
                    fingerprint: u64::MAX,
                })
                .collect(),
            result: ReplayResult::Maze {
                ticks,
                moves: u32::MAX,
                hints_used: u32::MAX,
                finished: false,
                assisted: false,
            },
        }
    }

    #[test]
    fn the_largest_file_a_run_can_write_fits_the_limit() {
        let replay = largest_replay();
        assert_eq!(check_shape(&replay), Ok(()));
        let bytes = to_bytes(&replay).len() as u64;
        println!("the largest replay: {bytes} bytes of {MAX_REPLAY_BYTES}");
        assert!(bytes <= MAX_REPLAY_BYTES, "{bytes}");
        // The limit is not much more than that: a file far larger cannot be a run of the game.
        assert!(bytes * 5 / 4 > MAX_REPLAY_BYTES, "{bytes}");
    }
}
