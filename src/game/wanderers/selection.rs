//! Choosing an NPC to watch: a click selects the nearest NPC (with `--autoplay`, the sandbox
//! picks one that plans long routes), and the selected NPC's latest route is kept with the
//! paper's counts: its A* path and its smoothing, with their turns.

use super::steering::{WanderersRun, rebuild_for_new_settings, start_sandbox};
use crate::game::screens::AppSystems;
use crate::game::session::AutoplayOnStart;
use crate::logic::wanderers::smoothing::turns;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

/// Shortest route worth showing off when `--autoplay` picks an NPC to follow, in A* nodes.
const FOLLOW_MIN_NODES: usize = 12;
/// How close a click must be to an NPC to select it, in cells.
const CLICK_REACH: f32 = 2.5;

pub(super) fn plugin(app: &mut App) {
    let running = in_state(super::SCREEN).and_then(resource_exists::<WanderersRun>);
    app.init_resource::<SelectedNpc>()
        .add_systems(OnEnter(super::SCREEN), clear_selection.after(start_sandbox))
        .add_systems(OnExit(super::SCREEN), clear_selection)
        .add_systems(
            Update,
            (
                clear_selection.run_if(a_new_sandbox),
                follow_a_planner
                    .run_if(|autoplay: Option<Res<AutoplayOnStart>>| autoplay.is_some_and(|a| a.0)),
                track_selected_route,
            )
                .chain()
                .after(rebuild_for_new_settings)
                .in_set(AppSystems::Update)
                .run_if(running.clone()),
        );
    if crate::game::screens::draws(app) {
        app.add_systems(
            Update,
            select_with_click
                .in_set(AppSystems::RecordInput)
                .run_if(running),
        );
    }
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

fn clear_selection(mut selected: ResMut<SelectedNpc>, mut commands: Commands) {
    selected.0 = None;
    commands.remove_resource::<SelectedRoute>();
}

/// Whether the sandbox was rebuilt since the last look: its NPCs are others now. (A run
/// condition is asked even on other screens, where there is no sandbox.)
fn a_new_sandbox(run: Option<Res<WanderersRun>>, mut seen: Local<Option<u32>>) -> bool {
    let Some(run) = run else {
        return false;
    };
    let rebuilt = seen.is_some_and(|generation| generation != run.generation);
    *seen = Some(run.generation);
    rebuilt
}

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

/// Clicking selects the nearest NPC within reach (or clears the selection).
fn select_with_click(
    buttons: Res<ButtonInput<MouseButton>>,
    wants: Option<Res<EguiWantsInput>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    run: Res<WanderersRun>,
    mut selected: ResMut<SelectedNpc>,
) {
    if !buttons.just_pressed(MouseButton::Left) || wants.is_some_and(|w| w.wants_pointer_input()) {
        return;
    }
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    let (camera, transform) = *camera;
    let Ok(world) = camera.viewport_to_world_2d(transform, cursor) else {
        return;
    };
    let [x, y] = super::view::to_grid(&run.sandbox.field, world);
    let nearest = run
        .sandbox
        .crowd
        .position
        .iter()
        .enumerate()
        .map(|(i, p)| (i, (p[0] - x).hypot(p[1] - y)))
        .filter(|&(_, d)| d <= CLICK_REACH)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    selected.0 = nearest.map(|(i, _)| i);
}
