//! `temple-trails replay FILE`: plays a replay again from its seed without a window and says
//! whether it reproduces the recorded result (exit 0), where it diverged (exit 1), or why the
//! file is not a replay (exit 2).

use super::args::Format;
use super::{CliError, render};
use crate::logic::REPLAY_KINDS;
use crate::logic::replay::limits::{MAX_GAME_VERSION_CHARS, MAX_REPLAY_BYTES};
use crate::logic::replay::printable;
use crate::logic::replay::{self, Replay, ReplayError, ReplayKind, RunResult, kind_of};
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
    mode: &'a str,
    seed: u64,
    seed_text: &'a str,
    difficulty: &'static str,
    game_version: &'a str,
    inputs: usize,
    verified: bool,
    result: &'a RunResult,
    #[serde(skip)]
    figures: String,
}

/// Reads, replays and checks the file. Reading stops past the largest replay a run can write,
/// and what cannot be a run of this game is refused before a step is played.
pub fn run(args: &ReplayArgs) -> Result<String, CliError> {
    let bytes = read_bounded(&args.file, MAX_REPLAY_BYTES)
        .map_err(|err| CliError::usage(format!("cannot read {}: {err}", args.file.display())))?;
    let replay = replay::parse_bytes(&bytes)
        .map_err(|err| CliError::usage(format!("{} is {err}", args.file.display())))?;
    let invalid = |err: ReplayError| CliError::usage(format!("{} is {err}", args.file.display()));
    let kind = kind_of(&replay, REPLAY_KINDS).map_err(invalid)?;
    let result = replay::verify(&replay, kind).map_err(|err| match err {
        ReplayError::Invalid(_) => invalid(err),
        ReplayError::Diverged { .. } | ReplayError::OutOfTime { .. } => {
            CliError::failure(err.to_string())
        }
    })?;
    let report = report(&replay, kind, &result).map_err(invalid)?;
    render(args.format, &report, |report| {
        format!(
            "mode: {}\nseed: {} (\"{}\")\ndifficulty: {}\ngame version: {}\ninputs: {}\n\
             steps: {}\n{}assisted: {}\nverified: the recorded result is reproduced\n",
            report.mode,
            report.seed,
            printable(report.seed_text, MAX_SEED_TEXT_CHARS),
            report.difficulty,
            printable(report.game_version, MAX_GAME_VERSION_CHARS),
            report.inputs,
            report.result.ticks,
            report.figures,
            report.result.assisted,
        )
    })
}

/// Reads at most `limit` bytes of `path`, and refuses a longer file. Any file the player names
/// is read (a pipe from another command too), but never more than a replay can hold.
pub(super) fn read_bounded(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
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

fn report<'a>(
    replay: &'a Replay,
    kind: &dyn ReplayKind,
    result: &'a RunResult,
) -> Result<ReplayReport<'a>, ReplayError> {
    Ok(ReplayReport {
        mode: replay.run.mode(),
        seed: replay.seed,
        seed_text: &replay.seed_text,
        difficulty: replay.difficulty.name(),
        game_version: &replay.game_version,
        inputs: kind.input_count(replay)?,
        verified: true,
        result,
        figures: kind.describe(result)?,
    })
}
