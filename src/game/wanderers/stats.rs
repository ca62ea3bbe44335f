//! The sandbox's live statistics, measured over each second of sandbox time: NPCs, routes planned
//! and repaired per second, the speed of play beside real time, mean waypoints before and after smoothing, turns per NPC per second (the paper's
//! measure), how many NPCs wait for a plan and the longest any waited.

use super::steering::{WanderersRun, rebuild_for_new_settings, start_sandbox};
use crate::game::screens::AppSystems;
use crate::logic::wanderers::sandbox::SandboxStats;
use bevy::prelude::*;

/// Seconds over which the live statistics are measured.
const STATS_WINDOW_S: f64 = 1.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(super::SCREEN), start_measuring.after(start_sandbox))
        .add_systems(OnExit(super::SCREEN), stop_measuring)
        .add_systems(
            Update,
            measure_statistics
                .after(rebuild_for_new_settings)
                .in_set(AppSystems::Update)
                .run_if(in_state(super::SCREEN).and_then(resource_exists::<WanderersRun>)),
        );
}

/// Live statistics, measured over the last second.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct WanderersStats {
    /// NPCs in the sandbox.
    pub npcs: usize,
    /// Routes planned from scratch per second.
    pub replans_per_second: f64,
    /// Routes repaired per second.
    pub repairs_per_second: f64,
    /// Mean A* nodes of the routes planned and repaired.
    pub mean_raw_waypoints: f64,
    /// Mean waypoints after smoothing.
    pub mean_smoothed_waypoints: f64,
    /// Turns per NPC per second (the paper's measure).
    pub turns_per_npc_per_second: f64,
    /// NPCs waiting for a plan.
    pub waiting: usize,
    /// The longest an NPC waited for a plan over the last second, in seconds.
    pub longest_plan_wait_s: f64,
    /// Sandbox seconds per real second over the last window: 1 is real speed, less is slow
    /// motion (frames that asked for more steps than they may run).
    pub speed: f64,
}

/// The totals at the start of the current measuring window, and the longest plan wait in it.
#[derive(Resource, Debug, Clone, Copy, Default)]
struct StatsWindow {
    start: SandboxStats,
    /// Real seconds since the app started, at the start of the window.
    real_start_s: f64,
    longest_plan_wait_s: f64,
}

fn start_measuring(mut commands: Commands, real: Res<Time<Real>>) {
    commands.insert_resource(StatsWindow {
        real_start_s: real.elapsed_secs_f64(),
        ..StatsWindow::default()
    });
    commands.insert_resource(WanderersStats::default());
}

fn stop_measuring(mut commands: Commands) {
    commands.remove_resource::<WanderersStats>();
    commands.remove_resource::<StatsWindow>();
}

fn measure_statistics(
    real: Res<Time<Real>>,
    mut run: ResMut<WanderersRun>,
    mut window: ResMut<StatsWindow>,
    mut stats: ResMut<WanderersStats>,
) {
    let now = run.sandbox.stats;
    if now.seconds < window.start.seconds {
        // A new sandbox: measure it from its start.
        *window = StatsWindow {
            start: now,
            real_start_s: real.elapsed_secs_f64(),
            longest_plan_wait_s: 0.0,
        };
    }
    window.longest_plan_wait_s = window
        .longest_plan_wait_s
        .max(run.sandbox.take_longest_plan_wait());
    let then = window.start;
    stats.npcs = run.sandbox.crowd.len();
    stats.waiting = run.sandbox.waiting();
    let elapsed = now.seconds - then.seconds;
    if elapsed < STATS_WINDOW_S {
        return;
    }
    stats.longest_plan_wait_s = window.longest_plan_wait_s;
    let planned = (now.routes - then.routes) as f64;
    let repaired = (now.repairs - then.repairs) as f64;
    stats.replans_per_second = planned / elapsed;
    stats.repairs_per_second = repaired / elapsed;
    let routes = planned + repaired;
    if routes > 0.0 {
        stats.mean_raw_waypoints = (now.raw_waypoints - then.raw_waypoints) as f64 / routes;
        stats.mean_smoothed_waypoints =
            (now.smoothed_waypoints - then.smoothed_waypoints) as f64 / routes;
    }
    stats.turns_per_npc_per_second =
        (now.turns - then.turns) as f64 / elapsed / stats.npcs.max(1) as f64;
    let real_elapsed = real.elapsed_secs_f64() - window.real_start_s;
    if real_elapsed > 0.0 {
        stats.speed = elapsed / real_elapsed;
    }
    *window = StatsWindow {
        start: now,
        real_start_s: real.elapsed_secs_f64(),
        longest_plan_wait_s: 0.0,
    };
}
