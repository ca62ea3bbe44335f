//! The command line: start the game (optionally in a mode, with a seed, or to take a
//! screenshot), or run a headless subcommand that needs no window.

use crate::game::screens::Mode;
use crate::game::screenshot::ScreenshotPlan;
use crate::game::{LaunchOptions, run};
use crate::logic::difficulty::Difficulty;
use crate::logic::seed::{Stream, parse_seed, stream_rng};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use rand::Rng;
use std::path::PathBuf;
use std::process::ExitCode;

/// Most frames `--frames` accepts: about half an hour of game time at 60 frames per second.
const MAX_SCREENSHOT_FRAMES: u32 = 100_000;

/// Temple Trails: an endless temple run, generated mazes and wandering NPCs, all from one seed.
///
/// Without a subcommand the game opens on the title screen.
#[derive(Debug, Parser)]
#[command(name = "temple-trails", version, about, long_about = None)]
pub struct Cli {
    /// Start this mode directly instead of the title screen.
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,

    /// The seed for this session: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, value_name = "VALUE", value_parser = seed_text)]
    pub seed: Option<String>,

    /// The difficulty for this session.
    #[arg(long, value_parser = difficulty_parser())]
    pub difficulty: Option<Difficulty>,

    /// Render a number of frames with a fixed time step, save the window as a PNG to FILE, exit.
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<PathBuf>,

    /// How many frames to render before the screenshot (1 to 100000).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 60,
        requires = "screenshot",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SCREENSHOT_FRAMES))
    )]
    pub frames: u32,

    /// A headless subcommand; without one the game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Headless subcommands: they run the game's logic and print results, without a window.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the number a seed text stands for and the start of each feature's random stream.
    Seed {
        /// A whole number, or any word.
        #[arg(value_parser = seed_text)]
        text: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// How a subcommand prints its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON object for programs.
    Json,
}

/// Accepts any seed text that [`parse_seed`] accepts.
fn seed_text(text: &str) -> Result<String, String> {
    parse_seed(text)
        .map(|_| text.trim().to_owned())
        .map_err(|err| err.to_string())
}

/// Difficulty names, listed in `--help` and in the error for a wrong one.
fn difficulty_parser() -> impl TypedValueParser<Value = Difficulty> {
    PossibleValuesParser::new(Difficulty::ALL.map(Difficulty::name)).map(|name| {
        name.parse::<Difficulty>()
            .expect("only the names of difficulties are possible values")
    })
}

/// Parses the process's arguments and does what they ask. Usage errors exit with code 2.
pub fn main() -> ExitCode {
    execute(Cli::parse())
}

/// Does what parsed arguments ask.
pub fn execute(cli: Cli) -> ExitCode {
    match cli.command {
        Some(command) => run_command(command),
        None => run(LaunchOptions {
            mode: cli.mode,
            seed_text: cli.seed,
            difficulty: cli.difficulty,
            screenshot: cli.screenshot.map(|path| ScreenshotPlan {
                path,
                frames: cli.frames,
            }),
        }),
    }
}

fn run_command(command: Command) -> ExitCode {
    match command {
        Command::Seed { text, format } => {
            print!("{}", describe_seed(&text, format));
            ExitCode::SUCCESS
        }
    }
}

/// The `seed` subcommand's output: the seed and the first word of every feature's stream.
fn describe_seed(text: &str, format: Format) -> String {
    let seed = parse_seed(text).expect("the argument parser accepts only valid seeds");
    let streams: Vec<(String, u64)> = Stream::ALL
        .iter()
        .map(|&stream| (format!("{stream:?}"), stream_rng(seed, stream).next_u64()))
        .collect();
    match format {
        Format::Text => {
            let mut out = format!("text: {text}\nseed: {seed}\n");
            for (name, first) in &streams {
                out.push_str(&format!("stream {name}: first word {first}\n"));
            }
            out
        }
        Format::Json => {
            let streams: serde_json::Map<String, serde_json::Value> = streams
                .into_iter()
                .map(|(name, first)| (name, first.into()))
                .collect();
            let value = serde_json::json!({ "text": text, "seed": seed, "streams": streams });
            format!("{value}\n")
        }
    }
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
    fn seed_description_lists_every_stream() {
        let text = describe_seed("42", Format::Text);
        assert!(text.starts_with("text: 42\nseed: 42\n"), "{text}");
        assert_eq!(text.lines().count(), 2 + Stream::ALL.len());
        let json: serde_json::Value =
            serde_json::from_str(&describe_seed("temple", Format::Json)).unwrap();
        assert_eq!(json["seed"], parse_seed("temple").unwrap());
        assert_eq!(
            json["streams"].as_object().unwrap().len(),
            Stream::ALL.len()
        );
    }
}
