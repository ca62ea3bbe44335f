//! `temple-trails smooth`: A* paths for an agent on a noise field, smoothed with both
//! farthest-node searches, every smoothing checked, and the savings and times reported.

use super::args::{Format, SeedArg, cells_in, footprint_arg, seed_arg, unit_fraction};
use super::{CliError, render, write_dump};
use crate::logic::wanderers::comparison::{SmoothingTotals, check_smoothing, travel_paths};
use crate::logic::wanderers::field::{Footprint, ObstacleField};
use crate::logic::wanderers::smoothing::{FarthestSearch, smooth};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

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
    #[arg(long, default_value = "0", value_parser = seed_arg)]
    pub seed: SeedArg,
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
    #[arg(long, default_value = "2x2", value_parser = footprint_arg)]
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

/// A field side within the allowed range.
fn field_side(text: &str) -> Result<usize, String> {
    cells_in(text, 2..=MAX_FIELD_SIDE, "a field side")
}

/// What `smooth` prints.
#[derive(Debug, Serialize)]
struct SmoothReport {
    seed: u64,
    width: usize,
    height: usize,
    density: f64,
    blocked_share: f64,
    agent: [usize; 2],
    pairs: usize,
    binary: MethodReport,
    exact: MethodReport,
}

/// The totals of one farthest-node search over every path.
#[derive(Debug, Serialize)]
struct MethodReport {
    raw_nodes: usize,
    smoothed_nodes: usize,
    raw_turns: usize,
    smoothed_turns: usize,
    /// Mean time to smooth one path, in microseconds to one decimal.
    mean_us: f64,
}

impl MethodReport {
    fn new(totals: &SmoothingTotals, seconds: f64) -> MethodReport {
        let paths = totals.paths.max(1) as f64;
        MethodReport {
            raw_nodes: totals.raw_nodes,
            smoothed_nodes: totals.smoothed_nodes,
            raw_turns: totals.raw_turns,
            smoothed_turns: totals.smoothed_turns,
            mean_us: (seconds / paths * 1e7).round() / 10.0,
        }
    }
}

/// The file `--dump` writes.
#[derive(Debug, Serialize)]
struct SmoothDump {
    width: usize,
    height: usize,
    agent: [usize; 2],
    centre_offsets: CentreOffsets,
    /// Rows of `#` (stone) and `.` (open).
    grid: Vec<String>,
    paths: Vec<DumpedPath>,
}

/// How far the agent reaches from its centre cell.
#[derive(Debug, Serialize)]
struct CentreOffsets {
    left: u8,
    top: u8,
    right: u8,
    bottom: u8,
}

/// One path of the dump, as `[x, y]` cells.
#[derive(Debug, Serialize)]
struct DumpedPath {
    start: [usize; 2],
    goal: [usize; 2],
    raw: Vec<[usize; 2]>,
    binary: Vec<[usize; 2]>,
    exact: Vec<[usize; 2]>,
}

/// Plans, smooths and checks the paths, then reports them.
pub fn run(args: &SmoothArgs) -> Result<String, CliError> {
    let seed = args.seed.value;
    let agent = args.agent;
    let size = [agent.length(), agent.width()];
    if agent.length() > args.width || agent.width() > args.height {
        return Err(CliError::usage(format!(
            "an agent of {}x{} cells does not fit in a {}x{} field",
            size[0], size[1], args.width, args.height
        )));
    }
    let field = ObstacleField::from_noise(seed, args.width, args.height, args.density);
    let wanted = usize::try_from(args.pairs).unwrap_or(usize::MAX);
    let paths = travel_paths(&field, agent, seed, wanted, wanted * DRAWS_PER_PAIR);
    if paths.len() < wanted {
        return Err(CliError::failure(format!(
            "found only {} of {wanted} start/goal pairs the {}x{} agent can travel between; \
             lower --density or the agent size",
            paths.len(),
            size[0],
            size[1]
        )));
    }
    let mut totals = [SmoothingTotals::default(); 2];
    let mut seconds = [0.0f64; 2];
    let mut dumped = Vec::new();
    let xy = |cells: &[usize]| -> Vec<[usize; 2]> {
        cells
            .iter()
            .map(|&cell| {
                let (x, y) = field.coords(cell);
                [x, y]
            })
            .collect()
    };
    for raw in &paths {
        let (start, goal) = (raw[0], raw[raw.len() - 1]);
        let mut smoothed = Vec::with_capacity(FarthestSearch::ALL.len());
        for (i, method) in FarthestSearch::ALL.into_iter().enumerate() {
            let started = Instant::now();
            let result = smooth(&field, agent, raw, start, goal, method)
                .map_err(|err| CliError::failure(format!("an A* path was refused: {err}")))?;
            seconds[i] += started.elapsed().as_secs_f64();
            check_smoothing(&field, agent, raw, &result.waypoints).map_err(|defect| {
                CliError::failure(format!(
                    "the {} search failed its check: {defect}",
                    method.name()
                ))
            })?;
            totals[i].add(&result);
            smoothed.push(result.waypoints);
        }
        if args.dump.is_some() {
            dumped.push(DumpedPath {
                start: xy(&[start])[0],
                goal: xy(&[goal])[0],
                raw: xy(raw),
                binary: xy(&smoothed[0]),
                exact: xy(&smoothed[1]),
            });
        }
    }
    if let Some(path) = &args.dump {
        let [left, top, right, bottom] = agent.extents();
        let dump = SmoothDump {
            width: args.width,
            height: args.height,
            agent: size,
            centre_offsets: CentreOffsets {
                left,
                top,
                right,
                bottom,
            },
            grid: field.to_rows(),
            paths: dumped,
        };
        write_dump(path, "dump", &dump)?;
    }
    let report = SmoothReport {
        seed,
        width: args.width,
        height: args.height,
        density: args.density,
        blocked_share: field.blocked_share(),
        agent: size,
        pairs: paths.len(),
        binary: MethodReport::new(&totals[0], seconds[0]),
        exact: MethodReport::new(&totals[1], seconds[1]),
    };
    render(args.format, &report, |report| {
        let mut out = format!(
            "seed: {}\nfield: {}x{}, {:.1} % stone\nagent: {}x{}\npairs: {}\n",
            report.seed,
            report.width,
            report.height,
            report.blocked_share * 100.0,
            report.agent[0],
            report.agent[1],
            report.pairs
        );
        for (method, totals) in FarthestSearch::ALL
            .into_iter()
            .zip([&report.binary, &report.exact])
        {
            out.push_str(&format!(
                "{}: nodes {} -> {}, turns {} -> {}, {} us per path\n",
                method.name(),
                totals.raw_nodes,
                totals.smoothed_nodes,
                totals.raw_turns,
                totals.smoothed_turns,
                totals.mean_us
            ));
        }
        out
    })
}
