//! The command line: start the game (optionally in a mode, with a seed, or to take a
//! screenshot), or run a headless subcommand that needs no window.
//!
//! Every subcommand returns its whole output or a [`CliError`]; this module prints either. Output
//! into a pipe whose reader has gone (`| head`) ends quietly with exit code 0; a failure is one
//! line on standard error with exit code 1, a refused argument exit code 2.

mod args;
mod boards;
mod error;
mod maze;
mod replay;
mod runner;
mod seed;
mod smooth;
mod wander;

pub use args::{Format, SeedArg};
pub use error::{CliError, EXIT_FAILURE, EXIT_SUCCESS, EXIT_USAGE};

use crate::game::frame_timing::FrameTimingPlan;
use crate::game::screenshot::ScreenshotPlan;
use crate::game::{LaunchOptions, MODES, run};
use crate::logic::difficulty::Difficulty;
use args::{difficulty_parser, seed_arg};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Most frames `--frames` accepts: about half an hour of game time at 60 frames per second.
const MAX_SCREENSHOT_FRAMES: u32 = 100_000;

/// Temple Trails: an endless temple run, generated mazes and wandering NPCs, all from one seed.
///
/// Without a subcommand the game opens on the title screen.
#[derive(Debug, Parser)]
#[command(name = "temple-trails", version, about, long_about = None)]
#[command(group(clap::ArgGroup::new("frame_output").args(["screenshot", "measure_frames"])))]
pub struct Cli {
    /// Start this mode directly instead of the title screen.
    #[arg(long, value_parser = mode_parser())]
    pub mode: Option<&'static str>,

    /// The seed for this session: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, value_name = "VALUE", value_parser = seed_arg)]
    pub seed: Option<SeedArg>,

    /// The difficulty for this session.
    #[arg(long, value_parser = difficulty_parser())]
    pub difficulty: Option<Difficulty>,

    /// Render a number of frames with a fixed time step, save the window as a PNG to FILE, exit.
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<PathBuf>,

    /// How many frames to render before the screenshot or the timing (1 to 100000).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 60,
        requires = "frame_output",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SCREENSHOT_FRAMES))
    )]
    pub frames: u32,

    /// After the --frames warm-up, time N more frames (fixed time step), print `frame_ms <mean>`
    /// and exit: what the frame-time benchmark runs (1 to 100000).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SCREENSHOT_FRAMES))
    )]
    pub measure_frames: Option<u32>,

    /// Open only a window with a 2D camera and egui, none of the game: the frame-time
    /// benchmark's baseline.
    #[arg(long, conflicts_with_all = ["mode", "screenshot"])]
    pub bare: bool,

    /// Start with the computer playing (the runner's autopilot, the maze's system walk); with --mode.
    #[arg(long, requires = "mode")]
    pub autoplay: bool,

    /// A headless subcommand; without one the game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The names of the modes, listed in `--help` and in the error for a wrong one.
fn mode_parser() -> impl TypedValueParser<Value = &'static str> {
    PossibleValuesParser::new(MODES.iter().map(|mode| mode.name)).try_map(|name| {
        MODES
            .iter()
            .map(|mode| mode.name)
            .find(|&known| known == name)
            .ok_or_else(|| format!("unknown mode '{name}'"))
    })
}

/// Headless subcommands: they run the game's logic and print results, without a window.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the number a seed text stands for and the start of each feature's random stream.
    Seed(seed::SeedArgs),
    /// Generate a maze, optionally solve it with A*, and print it as ASCII or JSON.
    Maze(maze::MazeArgs),
    /// Run the runner's autopilot over a generated track without a window and report the run.
    Runner(runner::RunnerArgs),
    /// Play a replay again from its seed and check that it reproduces its recorded result.
    Replay(replay::ReplayArgs),
    /// Run a crowd of wanderers on a field and report how far they strayed and how they kept apart.
    Wander(wander::WanderArgs),
    /// Plan paths for an agent on a noise field and smooth them both ways; report the savings.
    Smooth(smooth::SmoothArgs),
    /// Send a replay to a board server, which plays it again and ranks it.
    Submit(boards::SubmitArgs),
    /// List a board server's boards, or show a page of one.
    Boards(boards::BoardsArgs),
}

/// Parses the process's arguments and does what they ask. Help and version exit with 0, usage
/// errors with 2.
pub fn main() -> ExitCode {
    match Cli::try_parse() {
        Ok(cli) => execute(cli),
        Err(err) => {
            // clap writes help to standard output and errors to standard error; a closed pipe
            // there is no reason to fail.
            let _ = err.print();
            ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(EXIT_USAGE))
        }
    }
}

/// Does what parsed arguments ask.
pub fn execute(cli: Cli) -> ExitCode {
    let Some(command) = cli.command else {
        return run(LaunchOptions {
            mode: cli
                .mode
                .and_then(|name| MODES.iter().find(|mode| mode.name == name))
                .map(|mode| mode.screen()),
            seed_text: cli.seed.map(|seed| seed.text),
            difficulty: cli.difficulty,
            screenshot: cli.screenshot.map(|path| ScreenshotPlan {
                path,
                frames: cli.frames,
            }),
            autoplay: cli.autoplay,
            frame_timing: cli.measure_frames.map(|frames| FrameTimingPlan {
                warmup: cli.frames,
                frames,
            }),
            bare: cli.bare,
        });
    };
    let output = match command {
        Command::Seed(args) => seed::run(&args),
        Command::Maze(args) => maze::run(&args),
        Command::Runner(args) => runner::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Wander(args) => wander::run(&args),
        Command::Smooth(args) => smooth::run(&args),
        Command::Submit(args) => boards::submit(&args),
        Command::Boards(args) => boards::boards(&args),
    };
    match output {
        Ok(text) => print_output(&text),
        Err(err) => report(&err),
    }
}

/// Writes a subcommand's output. A reader that has gone away (`| head -c 10`) is not an error:
/// the output was wanted only in part.
fn print_output(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => report(&CliError::failure(format!(
            "cannot write the output: {err}"
        ))),
    }
}

/// Says why a command failed, in one line, and gives its exit code.
fn report(err: &CliError) -> ExitCode {
    // Nothing more can be done if standard error is closed too.
    let _ = writeln!(std::io::stderr(), "temple-trails: {err}");
    err.exit_code()
}

/// A subcommand's report as `format` asks: the lines `text` writes, or the report as one JSON
/// object on one line.
fn render<R: Serialize>(
    format: Format,
    report: &R,
    text: impl FnOnce(&R) -> String,
) -> Result<String, CliError> {
    match format {
        Format::Text => Ok(text(report)),
        Format::Json => json_line(report),
    }
}

/// One JSON object on one line.
fn json_line<R: Serialize>(report: &R) -> Result<String, CliError> {
    serde_json::to_string(report)
        .map(|json| json + "\n")
        .map_err(|err| CliError::failure(format!("cannot write the report as JSON: {err}")))
}

/// Writes a replay to `path` atomically, as the game writes one (compact JSON), or says why it
/// could not.
fn write_replay(
    path: &std::path::Path,
    replay: &crate::logic::replay::Replay,
) -> Result<(), CliError> {
    crate::files::write_atomic(path, &crate::logic::replay::to_bytes(replay)).map_err(|err| {
        CliError::failure(format!(
            "cannot write the replay to {}: {err}",
            path.display()
        ))
    })
}

/// Writes `value` as JSON to `path` atomically, or says why it could not.
fn write_dump<T: Serialize>(path: &std::path::Path, what: &str, value: &T) -> Result<(), CliError> {
    crate::files::write_json_atomic(path, value).map_err(|err| {
        CliError::failure(format!(
            "cannot write the {what} to {}: {err}",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_mode_can_be_named_on_the_command_line() {
        for mode in MODES {
            let cli = Cli::try_parse_from(["temple-trails", "--mode", mode.name]).unwrap();
            assert_eq!(cli.mode, Some(mode.name));
        }
        assert!(Cli::try_parse_from(["temple-trails", "--mode", "golf"]).is_err());
    }
}
