//! `temple-trails maze`: generate a maze, optionally solve it with A*, and print it as ASCII or
//! JSON.

use super::args::{
    SeedArg, algorithm_parser, cells_in, difficulty_parser, seed_arg, unit_fraction,
};
use super::{CliError, json_line, write_replay};
use crate::game::scores::unix_now_s;
use crate::logic::difficulty::Difficulty;
use crate::logic::grid_search::GridSearch;
use crate::logic::maze::challenge::MAX_LEVEL;
use crate::logic::maze::replay::MazeKind;
use crate::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use crate::logic::maze::{Algorithm, MAX_SIDE, MIN_SIDE, MazeSpec};
use crate::logic::replay::{Replay, ReplayHeader, record_computer_play, replay_of};
use clap::ValueEnum;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

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
    #[arg(long, default_value = "0", value_parser = seed_arg)]
    pub seed: SeedArg,
    /// The carving algorithm.
    #[arg(long, default_value = "backtracker", value_parser = algorithm_parser())]
    pub algorithm: Algorithm,
    /// Fraction of dead ends given an extra opening, making loops (0 to 1).
    #[arg(long, default_value_t = 0.0, value_parser = unit_fraction, allow_negative_numbers = true)]
    pub braid: f64,
    /// The difficulty: the torch's reach, the price of a hint, and the guardians (on hard).
    #[arg(long, default_value = "normal", value_parser = difficulty_parser())]
    pub difficulty: Difficulty,
    /// The level (1 to 1000): each after the first is a larger maze of its own, as the game's
    /// Next level plays it; --width and --height are level 1's.
    #[arg(long, default_value_t = 1, value_parser = maze_level)]
    pub level: u32,
    /// Also find the shortest path from start to exit with A* and show it.
    #[arg(long)]
    pub solve: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = MazeFormat::Ascii)]
    pub format: MazeFormat,
    /// With --solve: write the system walking the maze, as the game walks it, as a replay to
    /// FILE (check it with `temple-trails replay`).
    #[arg(long, value_name = "FILE", requires = "solve")]
    pub record: Option<PathBuf>,
}

/// A maze side within the allowed range.
fn maze_side(text: &str) -> Result<usize, String> {
    cells_in(text, MIN_SIDE..=MAX_SIDE, "a maze side")
}

/// A level from 1 to [`MAX_LEVEL`].
fn maze_level(text: &str) -> Result<u32, String> {
    let level: u32 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a level (1 to {MAX_LEVEL})"))?;
    if (1..=MAX_LEVEL).contains(&level) {
        Ok(level)
    } else {
        Err(format!("level {level} is out of range: 1 to {MAX_LEVEL}"))
    }
}

/// How `temple-trails maze` prints the maze.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MazeFormat {
    /// The wall grid as rows of `#` and spaces, the path as `.`.
    Ascii,
    /// One JSON object with the grid, the path and timings.
    Json,
}

/// What `maze --format json` prints.
#[derive(Debug, Serialize)]
struct MazeReport {
    width: usize,
    height: usize,
    seed: u64,
    level: u32,
    algorithm: &'static str,
    braid: f64,
    difficulty: &'static str,
    /// The torch's reach in cells; `null` when the whole maze is lit.
    torch_radius: Option<u32>,
    /// Seconds a hint adds to the time.
    hint_cost_s: u32,
    start: [usize; 2],
    goal: [usize; 2],
    /// The checkpoints a guardian's touch sends the player back to (the start first).
    shrines: Vec<[usize; 2]>,
    /// The guardians, as the game places them for this seed.
    guardians: Vec<GuardianReport>,
    /// The wall grid's rows, as in the ASCII form without the path.
    grid: Vec<String>,
    /// The cells from start to exit; only with `--solve`.
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Vec<[usize; 2]>>,
    stats: MazeStats,
}

/// A guardian: its home cell and how many steps from home it may walk.
#[derive(Debug, Serialize)]
struct GuardianReport {
    home: [usize; 2],
    tether: u32,
}

/// How long generating and solving took, and how much A* searched.
#[derive(Debug, Serialize)]
struct MazeStats {
    generate_ms: f64,
    /// `null` without `--solve`.
    solve_ms: Option<f64>,
    /// Cells A* expanded; `null` without `--solve`.
    expanded: Option<usize>,
}

/// Milliseconds since `start`, to three decimals.
fn millis_since(start: Instant) -> f64 {
    (start.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

/// The maze, and its shortest path when asked, in the chosen format.
pub fn run(args: &MazeArgs) -> Result<String, CliError> {
    let spec = MazeSpec {
        width: args.width,
        height: args.height,
        algorithm: args.algorithm,
        braid: args.braid,
        seed: args.seed.value,
    };
    let setup = MazeSetup {
        level: args.level,
        ..MazeSetup::first_level(spec, args.difficulty)
    };
    let started = Instant::now();
    let run = MazeRun::new(setup, false).map_err(|err| CliError::usage(err.to_string()))?;
    let generate_ms = millis_since(started);
    let maze = &run.maze;
    if let Some(path) = &args.record {
        write_replay(path, &record_system_walk(args, &run)?)?;
    }
    let solved = if args.solve {
        let started = Instant::now();
        let outcome = GridSearch::new().astar(maze, maze.start(), maze.goal());
        let solve_ms = millis_since(started);
        let path = outcome
            .path
            .ok_or_else(|| CliError::failure("the maze has no way from the start to the exit"))?;
        Some((path, solve_ms, outcome.expanded))
    } else {
        None
    };
    match args.format {
        MazeFormat::Ascii => Ok(maze.to_ascii(solved.as_ref().map(|(path, ..)| &path[..]))),
        MazeFormat::Json => {
            let xy = |cell: usize| -> [usize; 2] {
                let (x, y) = maze.coords(cell);
                [x, y]
            };
            json_line(&MazeReport {
                width: maze.width(),
                height: maze.height(),
                seed: spec.seed,
                level: args.level,
                algorithm: args.algorithm.name(),
                braid: args.braid,
                difficulty: args.difficulty.name(),
                torch_radius: run.rules.torch_radius,
                hint_cost_s: run.rules.hint_cost_s,
                start: xy(maze.start()),
                goal: xy(maze.goal()),
                shrines: if run.rules.guardians {
                    run.shrines.iter().map(|&cell| xy(cell)).collect()
                } else {
                    Vec::new()
                },
                guardians: run
                    .guardians
                    .guardians
                    .iter()
                    .map(|guardian| GuardianReport {
                        home: xy(guardian.home),
                        tether: guardian.tether,
                    })
                    .collect(),
                grid: maze.ascii_rows(None),
                path: solved
                    .as_ref()
                    .map(|(path, ..)| path.iter().map(|&cell| xy(cell)).collect()),
                stats: MazeStats {
                    generate_ms,
                    solve_ms: solved.as_ref().map(|&(_, ms, _)| ms),
                    expanded: solved.as_ref().map(|&(.., expanded)| expanded),
                },
            })
        }
    }
}

/// The system walking the maze from the start to the exit, recorded as a replay. Guardians may
/// send it back again and again, so it stops after an hour of play if it has not got out.
fn record_system_walk(args: &MazeArgs, as_made: &MazeRun) -> Result<Replay, CliError> {
    let mut run = as_made.clone();
    let recorder = record_computer_play(
        &mut run,
        |run| run.ticks >= MAX_RECORDED_TICKS,
        MazeInput::SystemWalk(true),
    );
    let header = ReplayHeader::new(
        as_made.setup.first.seed,
        args.seed.text.clone(),
        args.difficulty,
        unix_now_s(),
    );
    Ok(replay_of::<MazeKind>(header, &run, &recorder))
}

/// The longest system walk recorded: an hour of fixed steps.
const MAX_RECORDED_TICKS: u64 = 64 * 3600;
