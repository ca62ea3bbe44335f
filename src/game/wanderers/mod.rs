//! Wanderers mode: the rules. The sandbox steps in `FixedUpdate`, settings edits respawn or
//! retune it, T toggles targets, the selected NPC's paths and the live statistics are kept up to
//! date. Drawing and the side panel live in [`view`], so everything here runs headless.

pub mod options;
pub mod view;

use crate::game::AutoplayOnStart;
use crate::game::menu::MenuInput;
use crate::game::screens::{AppSystems, PausableSystems, Screen};
use crate::game::settings::{GameSeed, Settings, SettingsEdited};
use crate::logic::sandbox::{Sandbox, SandboxStats};
use crate::logic::smoothing::turns;
use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use options::WanderersOptions;

/// Plans the sandbox may make per fixed step (64 per second), so a crowd that all needs routes
/// at once spreads the work over several frames.
pub const PLAN_BUDGET_PER_STEP: usize = 40;
/// Seconds over which the live statistics are measured.
const STATS_WINDOW_S: f64 = 1.0;

pub(super) fn plugin(app: &mut App) {
    let running = in_state(Screen::Wanderers).and_then(resource_exists::<WanderersRun>);
    app.init_resource::<SelectedNpc>()
        .add_systems(OnEnter(Screen::Wanderers), start_sandbox)
        .add_systems(OnExit(Screen::Wanderers), end_sandbox)
        .add_systems(
            Update,
            toggle_targets
                .run_if(input_just_pressed(KeyCode::KeyT))
                .in_set(AppSystems::RecordInput)
                .in_set(PausableSystems)
                .run_if(running.clone()),
        )
        .add_systems(
            FixedUpdate,
            step_sandbox.in_set(PausableSystems).run_if(running.clone()),
        )
        .add_systems(
            Update,
            (
                apply_settings.run_if(on_message::<SettingsEdited>),
                follow_a_planner
                    .run_if(|autoplay: Option<Res<AutoplayOnStart>>| autoplay.is_some_and(|a| a.0)),
                track_selected_route,
                measure_statistics,
            )
                .chain()
                .in_set(AppSystems::Update)
                .run_if(running),
        );
}

/// The sandbox being watched.
#[derive(Resource, Debug)]
pub struct WanderersRun {
    /// The NPCs on their field.
    pub sandbox: Sandbox,
    /// The settings the NPCs and field were made with.
    pub built_with: WanderersOptions,
    /// Counts rebuilds, so the drawing knows when to respawn its sprites.
    pub generation: u32,
}

/// The NPC the player clicked, if any.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SelectedNpc(pub Option<usize>);

/// The selected NPC's latest route: the A* path and its smoothing, with the paper's counts.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct SelectedRoute {
    /// The NPC.
    pub npc: usize,
    /// The A* node path (cell ids).
    pub raw: Vec<usize>,
    /// The smoothed waypoints (cell ids).
    pub smoothed: Vec<usize>,
    /// Turns along the raw path.
    pub raw_turns: usize,
    /// Turns along the smoothed path.
    pub smoothed_turns: usize,
}

/// Live statistics, measured over the last second.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct WanderersStats {
    /// NPCs in the sandbox.
    pub npcs: usize,
    /// Routes planned per second.
    pub replans_per_second: f64,
    /// Mean A* nodes of the routes planned.
    pub mean_raw_waypoints: f64,
    /// Mean waypoints after smoothing.
    pub mean_smoothed_waypoints: f64,
    /// Turns per NPC per second (the paper's measure).
    pub turns_per_npc_per_second: f64,
    /// NPCs waiting for a plan.
    pub waiting: usize,
}

/// The totals at the start of the current measuring window.
#[derive(Resource, Debug, Clone, Copy, Default)]
struct StatsWindow(SandboxStats);

fn start_sandbox(mut commands: Commands, settings: Res<Settings>, seed: Res<GameSeed>) {
    let options = settings.wanderers;
    commands.insert_resource(WanderersRun {
        sandbox: Sandbox::new(options.config(seed.0)),
        built_with: options,
        generation: 0,
    });
    commands.insert_resource(SelectedNpc(None));
    commands.insert_resource(StatsWindow::default());
    commands.insert_resource(WanderersStats::default());
    commands.remove_resource::<SelectedRoute>();
}

fn end_sandbox(mut commands: Commands) {
    commands.remove_resource::<WanderersRun>();
    commands.remove_resource::<SelectedRoute>();
    commands.remove_resource::<WanderersStats>();
    commands.remove_resource::<StatsWindow>();
}

/// T shows or hides every target and its tether (a setting, so it is remembered).
fn toggle_targets(settings: Res<Settings>, mut inputs: MessageWriter<MenuInput>) {
    let mut options = settings.wanderers;
    options.show_targets = !options.show_targets;
    inputs.write(MenuInput::WanderersOptionsSet(options));
}

fn step_sandbox(time: Res<Time>, settings: Res<Settings>, mut run: ResMut<WanderersRun>) {
    let options = &settings.wanderers;
    run.sandbox.step(
        &options.params(),
        time.delta_secs(),
        PLAN_BUDGET_PER_STEP,
        options.search,
    );
}

/// A new count, body mix or stone density makes a new sandbox; other edits apply as it runs.
fn apply_settings(
    settings: Res<Settings>,
    seed: Res<GameSeed>,
    mut run: ResMut<WanderersRun>,
    mut selected: ResMut<SelectedNpc>,
    mut commands: Commands,
) {
    let options = settings.wanderers;
    if run.built_with.needs_respawn(&options) {
        run.sandbox = Sandbox::new(options.config(seed.0));
        run.built_with = options;
        run.generation += 1;
        selected.0 = None;
        commands.remove_resource::<SelectedRoute>();
    }
}

/// Shortest route worth showing off when `--autoplay` picks an NPC to follow, in A* nodes.
const FOLLOW_MIN_NODES: usize = 12;

/// With `--autoplay` the sandbox picks an NPC to follow: one that has just planned a long
/// route, so raw and smoothed paths show without a click. When the followed NPC's latest route
/// is short, it moves on to another.
fn follow_a_planner(
    run: Res<WanderersRun>,
    shown: Option<Res<SelectedRoute>>,
    mut selected: ResMut<SelectedNpc>,
) {
    let long = |length: usize| length >= FOLLOW_MIN_NODES;
    let showing_long = shown
        .as_ref()
        .is_some_and(|r| selected.0 == Some(r.npc) && long(r.raw.len()));
    let latest_short = selected
        .0
        .and_then(|i| run.sandbox.routes.get(i)?.as_ref())
        .is_some_and(|route| !long(route.raw.len()));
    if showing_long && !latest_short {
        return;
    }
    if let Some(npc) = run
        .sandbox
        .routes
        .iter()
        .position(|route| route.as_ref().is_some_and(|r| long(r.raw.len())))
    {
        selected.0 = Some(npc);
    }
}

/// Keeps the selected NPC's latest route (the last one stays shown after it is walked).
fn track_selected_route(
    run: Res<WanderersRun>,
    selected: Res<SelectedNpc>,
    current: Option<Res<SelectedRoute>>,
    mut commands: Commands,
) {
    let Some(npc) = selected.0.filter(|&i| i < run.sandbox.crowd.len()) else {
        if current.is_some() {
            commands.remove_resource::<SelectedRoute>();
        }
        return;
    };
    let Some(route) = &run.sandbox.routes[npc] else {
        if current.as_ref().is_some_and(|c| c.npc != npc) {
            commands.remove_resource::<SelectedRoute>();
        }
        return;
    };
    let unchanged = current
        .as_ref()
        .is_some_and(|c| c.npc == npc && c.raw == route.raw);
    if !unchanged {
        let field = &run.sandbox.field;
        commands.insert_resource(SelectedRoute {
            npc,
            raw_turns: turns(field, &route.raw),
            smoothed_turns: turns(field, &route.waypoints),
            raw: route.raw.clone(),
            smoothed: route.waypoints.clone(),
        });
    }
}

fn measure_statistics(
    run: Res<WanderersRun>,
    mut window: ResMut<StatsWindow>,
    mut stats: ResMut<WanderersStats>,
) {
    let now = run.sandbox.stats;
    let then = window.0;
    stats.npcs = run.sandbox.crowd.len();
    stats.waiting = run.sandbox.waiting();
    let elapsed = now.seconds - then.seconds;
    if elapsed < STATS_WINDOW_S {
        return;
    }
    let routes = (now.routes - then.routes) as f64;
    stats.replans_per_second = routes / elapsed;
    if routes > 0.0 {
        stats.mean_raw_waypoints = (now.raw_waypoints - then.raw_waypoints) as f64 / routes;
        stats.mean_smoothed_waypoints =
            (now.smoothed_waypoints - then.smoothed_waypoints) as f64 / routes;
    }
    stats.turns_per_npc_per_second =
        (now.turns - then.turns) as f64 / elapsed / stats.npcs.max(1) as f64;
    window.0 = now;
}
