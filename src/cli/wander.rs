//! `temple-trails wander`: tethered wandering on an open plane, reporting how far NPCs strayed
//! from home and how differently they moved.

use super::args::{Format, SeedArg, seed_arg};
use super::{CliError, render};
use crate::logic::wanderers::wander::{WanderParams, Wanderers};
use serde::Serialize;

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
    #[arg(long, default_value = "0", value_parser = seed_arg)]
    pub seed: SeedArg,
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

/// What `wander` prints.
#[derive(Debug, Serialize)]
struct WanderReport {
    seed: u64,
    count: usize,
    steps: u64,
    wander_max_distance: f32,
    max_distance_from_home: f32,
    mean_speed: f64,
    /// `null` for one NPC.
    min_pairwise_path_difference: Option<f64>,
}

/// The crowd on an open plane, one home per 400 square cells, summed up after its steps.
pub fn run(args: &WanderArgs) -> Result<String, CliError> {
    let seed = args.seed.value;
    let params = WanderParams::default();
    let count = usize::try_from(args.count).unwrap_or(usize::MAX);
    let side = (count as f32 * WANDER_AREA_PER_NPC).sqrt();
    let mut crowd = Wanderers::scattered(seed, count, side, side);
    let summary = crowd.run_and_summarize(&params, WANDER_STEP_S, args.steps);
    let report = WanderReport {
        seed,
        count: crowd.len(),
        steps: args.steps,
        wander_max_distance: params.wander_max_distance,
        max_distance_from_home: summary.max_distance_from_home,
        mean_speed: summary.mean_speed,
        min_pairwise_path_difference: summary.min_pairwise_path_difference,
    };
    render(args.format, &report, |report| {
        format!(
            "seed: {}\ncount: {}\nsteps: {}\nwander max distance: {}\n\
             max distance from home: {:.3}\nmean speed: {:.3}\n\
             min pairwise path difference: {}\n",
            report.seed,
            report.count,
            report.steps,
            report.wander_max_distance,
            report.max_distance_from_home,
            report.mean_speed,
            report
                .min_pairwise_path_difference
                .map_or_else(|| "none (one NPC)".to_owned(), |d| format!("{d:.3}")),
        )
    })
}
