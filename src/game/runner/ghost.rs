//! The ghost: the best run of this seed and difficulty, played from its replay step for step
//! beside the player as a translucent runner, with the gap in metres in the HUD. The Ghosts
//! setting turns it off.

use super::layout::{TrackLayout, lane_offset};
use super::palette::Palette;
use super::rules::{RunnerRun, runner_board, start_run, step_runner};
use crate::game::daily::DailyChallenge;
use crate::game::records::Watching;
use crate::game::replays::Records;
use crate::game::screens::{AppSystems, PausableSystems, Screen};
use crate::game::settings::Settings;
use crate::logic::replay::{ReplayRun, Timed, play_until};
use crate::logic::runner::run::{RunnerInput, RunnerSim};
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

/// The ghost's colour: pale and see-through, so it never hides the track or the player.
const GHOST_COLOUR: Color = Color::srgba(0.75, 0.90, 1.0, 0.4);
/// Under the player's runner (at 5), above the track.
const GHOST_Z: f32 = 4.8;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Runner), summon_ghost.after(start_run))
        .add_systems(OnExit(Screen::Runner), |mut commands: Commands| {
            commands.remove_resource::<RunnerGhost>();
        })
        .add_systems(
            FixedUpdate,
            step_ghost
                .after(step_runner)
                .in_set(PausableSystems)
                .run_if(resource_exists::<RunnerGhost>.and_then(resource_exists::<RunnerRun>)),
        );
    if crate::game::draws(app) {
        app.add_systems(
            OnEnter(Screen::Runner),
            spawn_ghost_figure.after(summon_ghost),
        )
        .add_systems(
            Update,
            place_ghost_figure.in_set(AppSystems::Present).run_if(
                resource_exists::<RunnerGhost>
                    .and_then(resource_exists::<RunnerRun>)
                    .and_then(resource_exists::<TrackLayout>),
            ),
        );
    }
}

/// The best run of this seed, being played again beside the player.
#[derive(Resource, Debug)]
pub struct RunnerGhost {
    /// The ghost's run.
    pub sim: RunnerSim,
    inputs: Vec<Timed<RunnerInput>>,
    next: usize,
}

impl RunnerGhost {
    /// Metres the player is ahead of the ghost (negative: behind).
    pub fn gap_m(&self, run: &RunnerRun) -> f64 {
        run.sim.body.distance_m - self.sim.body.distance_m
    }
}

/// The ghost of this run's seed and difficulty, when there is one and ghosts are on.
fn summon_ghost(
    mut commands: Commands,
    run: Option<Res<RunnerRun>>,
    records: Res<Records>,
    settings: Res<Settings>,
    (watching, daily): (Option<Res<Watching>>, Option<Res<DailyChallenge>>),
) {
    let Some(run) = run else {
        return;
    };
    if watching.is_some() {
        return;
    }
    let board = runner_board(run.sim.difficulty, daily.as_deref());
    let ghost = settings
        .ghosts
        .then(|| records.ghost(&board, run.sim.seed))
        .flatten();
    let Some(replay) = ghost else {
        return;
    };
    let ReplayRun::Runner { inputs } = &replay.run else {
        return;
    };
    commands.insert_resource(RunnerGhost {
        sim: RunnerSim::new(replay.seed, replay.difficulty),
        inputs: inputs.clone(),
        next: 0,
    });
}

/// The ghost takes the steps the player's run took, with its own recorded inputs.
fn step_ghost(run: Res<RunnerRun>, mut ghost: ResMut<RunnerGhost>) {
    let ghost = &mut *ghost;
    play_until(&mut ghost.sim, &ghost.inputs, &mut ghost.next, run.sim.tick);
}

/// The drawn ghost.
#[derive(Component, Debug)]
struct GhostFigure;

fn spawn_ghost_figure(
    mut commands: Commands,
    mut palette: Palette,
    ghost: Option<Res<RunnerGhost>>,
) {
    if ghost.is_none() {
        return;
    }
    commands.spawn((
        Name::new("Ghost"),
        GhostFigure,
        Transform::from_xyz(0.0, 0.0, GHOST_Z),
        Visibility::Hidden,
        DespawnOnExit(Screen::Runner),
        children![
            (palette.circle(0.78, GHOST_COLOUR), Transform::default()),
            (
                palette.circle(0.42, GHOST_COLOUR),
                Transform::from_xyz(0.0, 0.22, 0.01),
            ),
        ],
    ));
}

fn place_ghost_figure(
    ghost: Res<RunnerGhost>,
    layout: Res<TrackLayout>,
    mut figure: Single<(&mut Transform, &mut Visibility), With<GhostFigure>>,
) {
    let body = &ghost.sim.body;
    let across = lane_offset(body.lateral_lanes() as f32);
    let (ref mut transform, ref mut visibility) = *figure;
    match layout.track_point(body.distance_m, across) {
        Some((point, quarter)) => {
            transform.translation = point.extend(GHOST_Z);
            transform.rotation = Quat::from_rotation_z(quarter as f32 * FRAC_PI_2);
            **visibility = Visibility::Inherited;
        }
        // Beyond the segments drawn (far ahead or behind): out of sight.
        None => **visibility = Visibility::Hidden,
    }
}
