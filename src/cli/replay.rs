//! `temple-trails replay FILE`: plays a replay again from its seed without a window and says
//! whether it reproduces the recorded result (exit 0), where it diverged (exit 1), or why the
//! file is not a replay (exit 2).

use super::args::Format;
use super::{CliError, render};
use crate::logic::replay::limits::{MAX_GAME_VERSION_CHARS, MAX_REPLAY_BYTES};
use crate::logic::replay::printable;
use crate::logic::replay::{self, Replay, ReplayError, ReplayResult, ReplayRun};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::seed::MAX_SEED_TEXT_CHARS;
use serde::Serialize;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Arguments of `temple-trails replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The replay file (JSON, as the game and `--record` write it).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// What `replay` prints for a replay that plays back as recorded.
#[derive(Debug, Serialize)]
struct ReplayReport<'a> {
    mode: &'static str,
    seed: u64,
    seed_text: &'a str,
    difficulty: &'static str,
    game_version: &'a str,
    inputs: usize,
    verified: bool,
    result: &'a ReplayResult,
}

/// Reads, replays and checks the file. Reading stops past the largest replay a run can write,
/// and what cannot be a run of this game is refused before a step is played.
pub fn run(args: &ReplayArgs) -> Result<String, CliError> {
    let bytes = read_bounded(&args.file, MAX_REPLAY_BYTES)
        .map_err(|err| CliError::usage(format!("cannot read {}: {err}", args.file.display())))?;
    let replay = replay::parse_bytes(&bytes)
        .map_err(|err| CliError::usage(format!("{} is {err}", args.file.display())))?;
    let result = replay::verify(&replay).map_err(|err| match err {
        ReplayError::Invalid(_) => CliError::usage(format!("{} is {err}", args.file.display())),
        ReplayError::Diverged { .. } | ReplayError::OutOfTime { .. } => {
            CliError::failure(err.to_string())
        }
    })?;
    let report = report(&replay, &result);
    render(args.format, &report, |report| {
        let mut out = format!(
            "mode: {}\nseed: {} (\"{}\")\ndifficulty: {}\ngame version: {}\ninputs: {}\n",
            report.mode,
            report.seed,
            printable(report.seed_text, MAX_SEED_TEXT_CHARS),
            report.difficulty,
            printable(report.game_version, MAX_GAME_VERSION_CHARS),
            report.inputs
        );
        match report.result {
            ReplayResult::Runner {
                ticks,
                distance_m,
                coins,
                score,
                stumbles,
                crash,
                assisted,
            } => {
                out.push_str(&format!(
                    "steps: {ticks}\ndistance: {distance_m:.1} m\ncoins: {coins}\nscore: {score}\n\
                     stumbles: {stumbles}\nended: {}\nassisted: {assisted}\n",
                    crash.map_or("no (the recording stopped)", |crash| crash.describe())
                ));
            }
            ReplayResult::Maze {
                ticks,
                moves,
                hints_used,
                finished,
                assisted,
            } => {
                out.push_str(&format!(
                    "steps: {ticks}\ntime: {:.3} s\nmoves: {moves}\nhints: {hints_used}\n\
                     reached the exit: {finished}\nassisted: {assisted}\n",
                    *ticks as f64 * SIMULATION_STEP_S
                ));
            }
        }
        out.push_str("verified: the recorded result is reproduced\n");
        out
    })
}

/// Reads at most `limit` bytes of `path`, and refuses a longer file. Any file the player names
/// is read (a pipe from another command too), but never more than a replay can hold.
fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "it is larger than the {limit} bytes a replay can take"
        )));
    }
    Ok(bytes)
}

fn report<'a>(replay: &'a Replay, result: &'a ReplayResult) -> ReplayReport<'a> {
    let (mode, inputs) = match &replay.run {
        ReplayRun::Runner { inputs } => ("runner", inputs.len()),
        ReplayRun::Maze { inputs, .. } => ("maze", inputs.len()),
    };
    ReplayReport {
        mode,
        seed: replay.seed,
        seed_text: &replay.seed_text,
        difficulty: replay.difficulty.name(),
        game_version: &replay.game_version,
        inputs,
        verified: true,
        result,
    }
}
