//! `temple-trails wander`: tethered wanderers on a field as in the sandbox (an open plane by
//! default, or noise stone), bodies kept apart or not, reporting how far NPCs strayed from home,
//! how differently they moved, how much their bodies overlapped and how long plans kept them
//! waiting.

use super::args::{Format, SeedArg, density_arg, footprint_mix_arg, route_upkeep_arg, seed_arg};
use super::{CliError, render};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::wanderers::sandbox::{
    FootprintMix, RouteUpkeep, SETTLING_S, Sandbox, SandboxConfig, StepRules, TETHER_MARGIN,
    field_size_for,
};
use crate::logic::wanderers::wander::WanderParams;
use serde::Serialize;

/// Most NPCs `temple-trails wander` runs.
const MAX_WANDER_COUNT: u64 = 100_000;
/// Most steps `temple-trails wander` runs.
const MAX_WANDER_STEPS: u64 = 1_000_000;
/// The time step of `temple-trails wander`, in seconds: the game's fixed step, so a run of the
/// command is the sandbox's crowd step for step.
const WANDER_STEP_S: f32 = SIMULATION_STEP_S as f32;

/// Arguments of `temple-trails wander`.
#[derive(Debug, clap::Args)]
pub struct WanderArgs {
    /// The seed: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, default_value = "0", value_parser = seed_arg)]
    pub seed: SeedArg,
    /// NPCs (1 to 100000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_WANDER_COUNT))]
    pub count: u64,
    /// Steps of 1/64 s, the game's fixed step (1 to 1000000).
    #[arg(long, default_value_t = 6000, value_parser = clap::value_parser!(u64).range(1..=MAX_WANDER_STEPS))]
    pub steps: u64,
    /// Share of the field made stone by noise, as in the sandbox (0 = an open plane, to 0.45).
    #[arg(long, default_value_t = 0.0, value_parser = density_arg)]
    pub density: f64,
    /// Body sizes: points (1x1), small (up to 2x2) or mixed (up to 3x3).
    #[arg(long, default_value = "small", value_parser = footprint_mix_arg)]
    pub bodies: FootprintMix,
    /// Push apart NPCs whose bodies touch (the default).
    #[arg(long, overrides_with = "no_avoid")]
    pub avoid: bool,
    /// Let bodies walk through each other.
    #[arg(long)]
    pub no_avoid: bool,
    /// When a target moves away from its route's end: replan the route from scratch (the
    /// default), or repair its end with a small search from the route's own cells.
    #[arg(long, default_value = "replan", value_parser = route_upkeep_arg)]
    pub routes: RouteUpkeep,
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
    density: f64,
    bodies: FootprintMix,
    avoid: bool,
    routes: RouteUpkeep,
    field_width: usize,
    field_height: usize,
    wander_max_distance: f32,
    /// How far past the wander distance pushes may carry an NPC.
    tether_margin: f32,
    max_distance_from_home: f32,
    mean_speed: f64,
    /// `null` for one NPC.
    min_pairwise_path_difference: Option<f64>,
    /// From the first simulated second on: the largest share of a body covered by others.
    max_overlap_fraction: f32,
    /// From the first simulated second on: the most pairs overlapping at once.
    overlapping_pairs: usize,
    /// The longest any NPC waited for a plan, in seconds.
    max_plan_wait_s: f64,
    /// Routes planned from scratch.
    routes_planned: u64,
    /// Routes repaired as their targets moved, rather than planned again.
    routes_repaired: u64,
}

/// The crowd on a field sized as the sandbox sizes it, summed up after its steps.
pub fn run(args: &WanderArgs) -> Result<String, CliError> {
    let seed = args.seed.value;
    let params = WanderParams::default();
    let count = usize::try_from(args.count).unwrap_or(usize::MAX);
    let (width, height) = field_size_for(count, args.bodies, args.density);
    let mut sandbox = Sandbox::new(SandboxConfig {
        seed,
        count,
        width,
        height,
        density: args.density,
        footprints: args.bodies,
    });
    let rules = StepRules {
        avoid: !args.no_avoid,
        routes: args.routes,
        ..StepRules::default()
    };
    let summary = sandbox.run_and_summarize(&params, WANDER_STEP_S, args.steps, &rules);
    let report = WanderReport {
        seed,
        count: sandbox.crowd.len(),
        steps: args.steps,
        density: args.density,
        bodies: args.bodies,
        avoid: rules.avoid,
        routes: rules.routes,
        field_width: width,
        field_height: height,
        wander_max_distance: params.wander_max_distance,
        tether_margin: TETHER_MARGIN,
        max_distance_from_home: summary.wander.max_distance_from_home,
        mean_speed: summary.wander.mean_speed,
        min_pairwise_path_difference: summary.wander.min_pairwise_path_difference,
        max_overlap_fraction: summary.overlaps.max_covered_fraction,
        overlapping_pairs: summary.overlaps.pairs,
        max_plan_wait_s: summary.stats.longest_plan_wait_s,
        routes_planned: summary.stats.routes,
        routes_repaired: summary.stats.repairs,
    };
    render(args.format, &report, |report| {
        format!(
            "seed: {}\ncount: {}\nsteps: {}\nfield: {} x {} cells, {:.0}% stone\n\
             bodies: {}\nkeep apart: {}\nroutes: {}\nwander max distance: {} (+{} margin)\n\
             max distance from home: {:.3}\nmean speed: {:.3}\n\
             min pairwise path difference: {}\n\
             after the first {SETTLING_S} s: at most {} overlapping pairs, \
             at most {:.1}% of a body covered\n\
             routes planned: {}\nroutes repaired: {}\nlongest wait for a plan: {:.3} s\n",
            report.seed,
            report.count,
            report.steps,
            report.field_width,
            report.field_height,
            report.density * 100.0,
            report.bodies.label(),
            if report.avoid { "yes" } else { "no" },
            report.routes.name(),
            report.wander_max_distance,
            report.tether_margin,
            report.max_distance_from_home,
            report.mean_speed,
            report
                .min_pairwise_path_difference
                .map_or_else(|| "none (one NPC)".to_owned(), |d| format!("{d:.3}")),
            report.overlapping_pairs,
            report.max_overlap_fraction * 100.0,
            report.routes_planned,
            report.routes_repaired,
            report.max_plan_wait_s,
        )
    })
}
