//! The command line: start the game (optionally in a mode, with a seed, or to take a
//! screenshot), or run a headless subcommand that needs no window.

use crate::game::screens::Mode;
use crate::game::screenshot::ScreenshotPlan;
use crate::game::storage::write_json_atomic;
use crate::game::{LaunchOptions, run};
use crate::logic::difficulty::Difficulty;
use crate::logic::field::{Footprint, FootprintGraph, ObstacleField};
use crate::logic::grid_search::GridSearch;
use crate::logic::maze::{Algorithm, MAX_SIDE, MIN_SIDE, MazeSpec};
use crate::logic::runner::autopilot::simulate_autopilot;
use crate::logic::runner::timing::{Timing, contact_distance_m};
use crate::logic::runner::track::{LaneContent, certified_segments};
use crate::logic::seed::{Stream, parse_seed, stream_rng};
use crate::logic::smoothing::{FarthestSearch, smooth, visible};
use crate::logic::wander::{WanderParams, Wanderers};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use rand::{Rng, RngExt};
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
    /// Run tethered wandering on an open plane and report how far NPCs strayed.
    Wander(WanderArgs),
    /// Plan paths for an agent on a noise field and smooth them both ways; report the savings.
    Smooth(SmoothArgs),
}

/// Most NPCs `temple-trails wander` runs.
const MAX_WANDER_COUNT: u64 = 100_000;
/// Most steps `temple-trails wander` runs.
const MAX_WANDER_STEPS: u64 = 1_000_000;
/// The time step of `temple-trails wander`, in seconds.
const WANDER_STEP_S: f32 = 1.0 / 60.0;
/// Area per NPC of the plane `temple-trails wander` scatters homes on, in square cells.
const WANDER_AREA_PER_NPC: f32 = 400.0;

/// Arguments of `temple-trails wander`.
#[derive(Debug, clap::Args)]
pub struct WanderArgs {
    /// The seed: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, default_value = "0", value_parser = seed_text)]
    pub seed: String,
    /// NPCs (1 to 100000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_WANDER_COUNT))]
    pub count: u64,
    /// Steps of 1/60 s (1 to 1000000).
    #[arg(long, default_value_t = 6000, value_parser = clap::value_parser!(u64).range(1..=MAX_WANDER_STEPS))]
    pub steps: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Largest side of a `temple-trails smooth` field, in cells.
const MAX_FIELD_SIDE: usize = 2000;
/// Most pairs `temple-trails smooth` plans.
const MAX_SMOOTH_PAIRS: u64 = 100_000;
/// Random start/goal draws allowed per pair asked for before giving up.
const DRAWS_PER_PAIR: usize = 200;

/// Arguments of `temple-trails smooth`.
#[derive(Debug, clap::Args)]
pub struct SmoothArgs {
    /// The seed: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, default_value = "0", value_parser = seed_text)]
    pub seed: String,
    /// Cells along x (2 to 2000).
    #[arg(long, default_value_t = 120, value_parser = field_side)]
    pub width: usize,
    /// Cells along y (2 to 2000).
    #[arg(long, default_value_t = 80, value_parser = field_side)]
    pub height: usize,
    /// Share of cells made stone before cut-off pockets are filled (0 to 1).
    #[arg(long, default_value_t = 0.25, value_parser = unit_fraction, allow_negative_numbers = true)]
    pub density: f64,
    /// The agent's footprint, LxW cells, each 1 to 4 (e.g. 2x3).
    #[arg(long, default_value = "2x2", value_parser = footprint_text)]
    pub agent: Footprint,
    /// Start/goal pairs to plan and smooth (1 to 100000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_SMOOTH_PAIRS))]
    pub pairs: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the field and every path (raw and both smoothings) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub dump: Option<PathBuf>,
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
    #[arg(long, default_value_t = 0.0, value_parser = unit_fraction, allow_negative_numbers = true)]
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

/// A fraction from 0 to 1 (braid, density).
fn unit_fraction(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number from 0 to 1"))?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is out of range: it must be from 0 to 1"))
    }
}

/// A field side within the allowed range.
fn field_side(text: &str) -> Result<usize, String> {
    let side: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of cells (2 to {MAX_FIELD_SIDE})"))?;
    if (2..=MAX_FIELD_SIDE).contains(&side) {
        Ok(side)
    } else {
        Err(format!(
            "{side} is out of range: a field side is 2 to {MAX_FIELD_SIDE} cells"
        ))
    }
}

/// An agent footprint written `LxW`.
fn footprint_text(text: &str) -> Result<Footprint, String> {
    let (length, width) = text
        .trim()
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("'{text}' is not LxW (for example 2x3)"))?;
    let side = |part: &str| {
        part.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{text}' is not LxW (for example 2x3)"))
    };
    Footprint::new(side(length)?, side(width)?).map_err(|err| err.to_string())
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
        Command::Wander(args) => {
            print!("{}", run_wander(&args));
            ExitCode::SUCCESS
        }
        Command::Smooth(args) => match run_smooth(&args) {
            Ok(out) => {
                print!("{out}");
                ExitCode::SUCCESS
            }
            Err((code, err)) => {
                eprintln!("temple-trails: {err}");
                ExitCode::from(code)
            }
        },
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

/// The `wander` subcommand's output: the crowd on an open plane, one home per 400 square cells.
fn run_wander(args: &WanderArgs) -> String {
    let seed = parse_seed(&args.seed).expect("the argument parser accepts only valid seeds");
    let params = WanderParams::default();
    let side = (args.count as f32 * WANDER_AREA_PER_NPC).sqrt();
    let mut crowd = Wanderers::scattered(seed, args.count as usize, side, side);
    let count = crowd.len();
    let mut farthest = 0.0f32;
    let mut speed_sum = 0.0f64;
    // Each NPC is compared with the next: the mean distance between their offsets from home.
    let mut pair_difference = vec![0.0f64; count.saturating_sub(1)];
    let offset = |crowd: &Wanderers, i: usize| {
        let ([px, py], [hx, hy]) = (crowd.position[i], crowd.home[i]);
        [px - hx, py - hy]
    };
    let mut offsets: Vec<[f32; 2]> = Vec::with_capacity(count);
    for _ in 0..args.steps {
        crowd.step(&params, WANDER_STEP_S);
        offsets.clear();
        offsets.extend((0..count).map(|i| offset(&crowd, i)));
        for (i, &[dx, dy]) in offsets.iter().enumerate() {
            farthest = farthest.max((dx * dx + dy * dy).sqrt());
            speed_sum += f64::from(crowd.speed[i]);
        }
        for (sum, pair) in pair_difference.iter_mut().zip(offsets.windows(2)) {
            let ([dx, dy], [ex, ey]) = (pair[0], pair[1]);
            *sum += f64::from(((dx - ex).powi(2) + (dy - ey).powi(2)).sqrt());
        }
    }
    let steps = args.steps as f64;
    let mean_speed = speed_sum / (steps * count as f64);
    let min_difference = pair_difference
        .iter()
        .map(|sum| sum / steps)
        .min_by(f64::total_cmp);
    match args.format {
        Format::Text => format!(
            "seed: {seed}\ncount: {count}\nsteps: {}\nwander max distance: {}\n\
             max distance from home: {farthest:.3}\nmean speed: {mean_speed:.3}\n\
             min pairwise path difference: {}\n",
            args.steps,
            params.wander_max_distance,
            min_difference.map_or_else(|| "none (one NPC)".to_owned(), |d| format!("{d:.3}")),
        ),
        Format::Json => {
            let value = serde_json::json!({
                "seed": seed,
                "count": count,
                "steps": args.steps,
                "wander_max_distance": params.wander_max_distance,
                "max_distance_from_home": farthest,
                "mean_speed": mean_speed,
                "min_pairwise_path_difference": min_difference,
            });
            format!("{value}\n")
        }
    }
}

/// Totals of one farthest-node method over every pair.
#[derive(Debug, Default)]
struct SmoothTotals {
    raw_nodes: usize,
    smoothed_nodes: usize,
    raw_turns: usize,
    smoothed_turns: usize,
    seconds: f64,
}

/// The `smooth` subcommand's output, or an exit code and a one-line error.
fn run_smooth(args: &SmoothArgs) -> Result<String, (u8, String)> {
    let seed = parse_seed(&args.seed).expect("the argument parser accepts only valid seeds");
    let agent = args.agent;
    if agent.length() > args.width || agent.width() > args.height {
        return Err((
            2,
            format!(
                "an agent of {}x{} cells does not fit in a {}x{} field",
                agent.length(),
                agent.width(),
                args.width,
                args.height
            ),
        ));
    }
    let field = ObstacleField::from_noise(seed, args.width, args.height, args.density);
    let graph = FootprintGraph {
        field: &field,
        footprint: agent,
    };
    let fitting: Vec<usize> = (0..args.width * args.height)
        .filter(|&cell| field.fits(agent, cell))
        .collect();
    let mut rng = stream_rng(seed, Stream::SmoothingPairs);
    let mut search = GridSearch::new();
    let wanted = args.pairs as usize;
    let mut paths = Vec::with_capacity(wanted);
    let mut draws = 0;
    while paths.len() < wanted && !fitting.is_empty() && draws < wanted * DRAWS_PER_PAIR {
        draws += 1;
        let start = fitting[rng.random_range(0..fitting.len())];
        let goal = fitting[rng.random_range(0..fitting.len())];
        if start == goal {
            continue;
        }
        if let Some(path) = search.astar(&graph, start, goal).path {
            paths.push(path);
        }
    }
    if paths.len() < wanted {
        return Err((
            1,
            format!(
                "found only {} of {wanted} start/goal pairs the {}x{} agent can travel between; \
                 lower --density or the agent size",
                paths.len(),
                agent.length(),
                agent.width()
            ),
        ));
    }
    let mut totals: [SmoothTotals; 2] = Default::default();
    let mut dumped = Vec::new();
    for path in &paths {
        let (start, goal) = (path[0], path[path.len() - 1]);
        let mut smoothed = Vec::with_capacity(2);
        for (method, total) in FarthestSearch::ALL.into_iter().zip(&mut totals) {
            let started = Instant::now();
            let result = smooth(&field, agent, path, start, goal, method)
                .expect("A* paths are valid node paths");
            total.seconds += started.elapsed().as_secs_f64();
            // Verify: ends kept, no node added, every hop clear for the agent.
            assert!(
                result.waypoints.first() == Some(&start) && result.waypoints.last() == Some(&goal)
            );
            assert!(result.waypoints.len() <= path.len());
            assert!(
                result
                    .waypoints
                    .windows(2)
                    .all(|hop| visible(&field, agent, hop[0], hop[1]))
            );
            total.raw_nodes += result.raw_nodes;
            total.smoothed_nodes += result.waypoints.len();
            total.raw_turns += result.raw_turns;
            total.smoothed_turns += result.smoothed_turns;
            smoothed.push(result.waypoints);
        }
        if args.dump.is_some() {
            let xy = |cells: &[usize]| -> Vec<[usize; 2]> {
                cells
                    .iter()
                    .map(|&c| {
                        let (x, y) = field.coords(c);
                        [x, y]
                    })
                    .collect()
            };
            let (sx, sy) = field.coords(start);
            let (gx, gy) = field.coords(goal);
            dumped.push(serde_json::json!({
                "start": [sx, sy],
                "goal": [gx, gy],
                "raw": xy(path),
                "binary": xy(&smoothed[0]),
                "exact": xy(&smoothed[1]),
            }));
        }
    }
    if let Some(file) = &args.dump {
        let [left, top, right, bottom] = agent.extents();
        let dump = serde_json::json!({
            "width": args.width,
            "height": args.height,
            "agent": [agent.length(), agent.width()],
            "centre_offsets": { "left": left, "top": top, "right": right, "bottom": bottom },
            "grid": field.to_rows(),
            "paths": dumped,
        });
        write_json_atomic(file, &dump).map_err(|err| {
            (
                1,
                format!("cannot write the dump to {}: {err}", file.display()),
            )
        })?;
    }
    let pairs = paths.len() as f64;
    let mean_us = |total: &SmoothTotals| (total.seconds / pairs * 1e7).round() / 10.0;
    Ok(match args.format {
        Format::Text => {
            let mut out = format!(
                "seed: {seed}\nfield: {}x{}, {:.1} % stone\nagent: {}x{}\npairs: {}\n",
                args.width,
                args.height,
                field.blocked_share() * 100.0,
                agent.length(),
                agent.width(),
                paths.len()
            );
            for (method, total) in FarthestSearch::ALL.into_iter().zip(&totals) {
                out.push_str(&format!(
                    "{}: nodes {} -> {}, turns {} -> {}, {} us per path\n",
                    method.name(),
                    total.raw_nodes,
                    total.smoothed_nodes,
                    total.raw_turns,
                    total.smoothed_turns,
                    mean_us(total)
                ));
            }
            out
        }
        Format::Json => {
            let mut value = serde_json::json!({
                "seed": seed,
                "width": args.width,
                "height": args.height,
                "density": args.density,
                "blocked_share": field.blocked_share(),
                "agent": [agent.length(), agent.width()],
                "pairs": paths.len(),
            });
            for (method, total) in FarthestSearch::ALL.into_iter().zip(&totals) {
                value[method.name()] = serde_json::json!({
                    "raw_nodes": total.raw_nodes,
                    "smoothed_nodes": total.smoothed_nodes,
                    "raw_turns": total.raw_turns,
                    "smoothed_turns": total.smoothed_turns,
                    "mean_us": mean_us(total),
                });
            }
            format!("{value}\n")
        }
    })
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
