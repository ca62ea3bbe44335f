//! The command line: start the game (optionally in a mode, with a seed, or to take a
//! screenshot), or run a headless subcommand that needs no window.

use crate::game::screens::Mode;
use crate::game::screenshot::ScreenshotPlan;
use crate::game::storage::write_json_atomic;
use crate::game::{LaunchOptions, run};
use crate::logic::difficulty::Difficulty;
use crate::logic::grid_search::GridSearch;
use crate::logic::maze::{Algorithm, MAX_SIDE, MIN_SIDE, MazeSpec};
use crate::logic::runner::autopilot::simulate_autopilot;
use crate::logic::runner::timing::{Timing, contact_distance_m};
use crate::logic::runner::track::{LaneContent, certified_segments};
use crate::logic::seed::{Stream, parse_seed, stream_rng};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use rand::Rng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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

    /// Start with the computer playing (the runner's autopilot, the maze's system walk); with --mode.
    #[arg(long, requires = "mode")]
    pub autoplay: bool,

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
    /// Generate a maze, optionally solve it with A*, and print it as ASCII or JSON.
    Maze(MazeArgs),
    /// Run the runner's autopilot over a generated track without a window and report the run.
    Runner(RunnerArgs),
}

/// Most segments `temple-trails runner` simulates (about 40 s of computing).
const MAX_RUNNER_SEGMENTS: u64 = 10_000_000;
/// Most segments `--preview` prints.
const MAX_PREVIEW_SEGMENTS: u64 = 100_000;

/// Arguments of `temple-trails runner`.
#[derive(Debug, clap::Args)]
pub struct RunnerArgs {
    /// The seed: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, default_value = "0", value_parser = seed_text)]
    pub seed: String,
    /// Speed, ramp and obstacle density.
    #[arg(long, default_value = "normal", value_parser = difficulty_parser())]
    pub difficulty: Difficulty,
    /// Segments (10 m each) to run (1 to 10000000).
    #[arg(
        long,
        default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(1..=MAX_RUNNER_SEGMENTS)
    )]
    pub segments: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also show the first K segments, one line each (1 to 100000).
    #[arg(
        long,
        value_name = "K",
        value_parser = clap::value_parser!(u64).range(1..=MAX_PREVIEW_SEGMENTS)
    )]
    pub preview: Option<u64>,
    /// Write the run's segments as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub dump_track: Option<PathBuf>,
}

/// Arguments of `temple-trails maze`.
#[derive(Debug, clap::Args)]
pub struct MazeArgs {
    /// Cells along x (2 to 1000).
    #[arg(long, default_value_t = 15, value_parser = maze_side)]
    pub width: usize,
    /// Cells along y (2 to 1000).
    #[arg(long, default_value_t = 15, value_parser = maze_side)]
    pub height: usize,
    /// The seed: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, default_value = "0", value_parser = seed_text)]
    pub seed: String,
    /// The carving algorithm.
    #[arg(long, default_value = "backtracker", value_parser = algorithm_parser())]
    pub algorithm: Algorithm,
    /// Fraction of dead ends given an extra opening, making loops (0 to 1).
    #[arg(long, default_value_t = 0.0, value_parser = braid_fraction, allow_negative_numbers = true)]
    pub braid: f64,
    /// Also find the shortest path from start to exit with A* and show it.
    #[arg(long)]
    pub solve: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = MazeFormat::Ascii)]
    pub format: MazeFormat,
}

/// How `temple-trails maze` prints the maze.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MazeFormat {
    /// The wall grid as rows of `#` and spaces, the path as `.`.
    Ascii,
    /// One JSON object with the grid, the path and timings.
    Json,
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

/// A maze side within the allowed range.
fn maze_side(text: &str) -> Result<usize, String> {
    let side: usize = text.trim().parse().map_err(|_| {
        format!("'{text}' is not a whole number of cells ({MIN_SIDE} to {MAX_SIDE})")
    })?;
    if (MIN_SIDE..=MAX_SIDE).contains(&side) {
        Ok(side)
    } else {
        Err(format!(
            "{side} is out of range: a maze side is {MIN_SIDE} to {MAX_SIDE} cells"
        ))
    }
}

/// A braid fraction from 0 to 1.
fn braid_fraction(text: &str) -> Result<f64, String> {
    let braid: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number (braid is 0 to 1)"))?;
    if (0.0..=1.0).contains(&braid) {
        Ok(braid)
    } else {
        Err(format!("{braid} is out of range: braid is 0 to 1"))
    }
}

/// Algorithm names, listed in `--help` and in the error for a wrong one.
fn algorithm_parser() -> impl TypedValueParser<Value = Algorithm> {
    PossibleValuesParser::new(Algorithm::ALL.map(Algorithm::name)).map(|name| {
        name.parse::<Algorithm>()
            .expect("only the names of algorithms are possible values")
    })
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
            autoplay: cli.autoplay,
        }),
    }
}

fn run_command(command: Command) -> ExitCode {
    match command {
        Command::Seed { text, format } => {
            print!("{}", describe_seed(&text, format));
            ExitCode::SUCCESS
        }
        Command::Maze(args) => {
            print!("{}", run_maze(&args));
            ExitCode::SUCCESS
        }
        Command::Runner(args) => match run_runner(&args) {
            Ok(out) => {
                print!("{out}");
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("temple-trails: {err}");
                ExitCode::FAILURE
            }
        },
    }
}

/// The `runner` subcommand's output; an error if the track dump cannot be written.
fn run_runner(args: &RunnerArgs) -> Result<String, String> {
    let seed = parse_seed(&args.seed).expect("the argument parser accepts only valid seeds");
    let run = simulate_autopilot(seed, args.difficulty, args.segments);
    if let Some(path) = &args.dump_track {
        let timing = Timing::for_difficulty(args.difficulty);
        let (segments, _) = certified_segments(seed, args.difficulty, args.segments as usize);
        let segments: Vec<serde_json::Value> = segments
            .iter()
            .map(|segment| {
                serde_json::json!({
                    "index": segment.index,
                    "kind": segment.kind.name(),
                    "lanes": segment.lanes.map(LaneContent::name),
                    "speed_mps": timing.speed_at(contact_distance_m(segment.index)),
                })
            })
            .collect();
        let dump = serde_json::json!({
            "seed": seed,
            "difficulty": args.difficulty.name(),
            "segments": segments,
        });
        write_json_atomic(path, &dump)
            .map_err(|err| format!("cannot write the track to {}: {err}", path.display()))?;
    }
    let preview: Vec<String> = args.preview.map_or_else(Vec::new, |count| {
        let (segments, _) = certified_segments(seed, args.difficulty, count as usize);
        segments
            .iter()
            .map(|segment| format!("{:>5}  {}", segment.index, segment.preview_line()))
            .collect()
    });
    let distance_m = (run.distance_m * 10.0).round() / 10.0;
    Ok(match args.format {
        Format::Text => {
            let mut out = format!(
                "seed: {seed}\ndifficulty: {}\nsegments: {}\ndistance: {distance_m} m\n\
                 coins: {}\nscore: {}\ncrashes: {}\nrepairs: {}\nmax speed: {} m/s\n\
                 max buffered segments: {}\n",
                run.difficulty,
                run.segments,
                run.coins,
                run.score,
                run.crashes,
                run.repairs,
                run.max_speed_mps,
                run.max_buffered_segments,
            );
            if !preview.is_empty() {
                out.push_str(
                    "preview (lanes left to right: . empty, $ coins, ^ jump, _ slide, # wall):\n",
                );
                for line in &preview {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            out
        }
        Format::Json => {
            let mut value = serde_json::json!({
                "seed": seed,
                "difficulty": run.difficulty.name(),
                "segments": run.segments,
                "distance_m": distance_m,
                "coins": run.coins,
                "score": run.score,
                "crashes": run.crashes,
                "repairs": run.repairs,
                "max_speed_mps": run.max_speed_mps,
                "max_buffered_segments": run.max_buffered_segments,
            });
            if args.preview.is_some() {
                value["preview"] = preview.into();
            }
            format!("{value}\n")
        }
    })
}

/// Milliseconds since `start`, to three decimals.
fn millis_since(start: Instant) -> f64 {
    (start.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

/// The `maze` subcommand's output.
fn run_maze(args: &MazeArgs) -> String {
    let seed = parse_seed(&args.seed).expect("the argument parser accepts only valid seeds");
    let spec = MazeSpec {
        width: args.width,
        height: args.height,
        algorithm: args.algorithm,
        braid: args.braid,
        seed,
    };
    let started = Instant::now();
    let maze = spec
        .generate()
        .expect("the argument parser accepts only valid sizes and braids");
    let generate_ms = millis_since(started);
    let solved = args.solve.then(|| {
        let started = Instant::now();
        let outcome = GridSearch::new().astar(&maze, maze.start(), maze.goal());
        (outcome, millis_since(started))
    });
    let path = solved
        .as_ref()
        .map(|(outcome, _)| outcome.path.clone().expect("a generated maze is connected"));
    match args.format {
        MazeFormat::Ascii => maze.to_ascii(path.as_deref()),
        MazeFormat::Json => {
            let xy = |cell: usize| {
                let (x, y) = maze.coords(cell);
                serde_json::json!([x, y])
            };
            let mut value = serde_json::json!({
                "width": maze.width(),
                "height": maze.height(),
                "seed": seed,
                "algorithm": args.algorithm.name(),
                "braid": args.braid,
                "start": xy(maze.start()),
                "goal": xy(maze.goal()),
                "grid": maze.ascii_rows(None),
                "stats": {
                    "generate_ms": generate_ms,
                    "solve_ms": solved.as_ref().map(|(_, ms)| *ms),
                    "expanded": solved.as_ref().map(|(outcome, _)| outcome.expanded),
                },
            });
            if let Some(path) = &path {
                value["path"] = path.iter().map(|&cell| xy(cell)).collect();
            }
            format!("{value}\n")
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
