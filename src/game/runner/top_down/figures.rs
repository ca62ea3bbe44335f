//! The bodies seen from above. The runner: a body with a head and a shadow, placed by its
//! distance and lane, turned with the track, lifted by a jump (the shadow left behind) and
//! squashed by a slide, ringed in each power-up's colour while it is held; after a junction it
//! catches up with its new place smoothly instead of jumping. The ghost of the best run, pale.
//! The temple guardians, close behind after a stumble.

use super::palette::Palette;
use super::{TopDown, drawing, view_lifetime};
use crate::game::runner::ghost::RunnerGhost;
use crate::game::runner::rules::RunnerRun;
use crate::game::runner::world::TrackInSight;
use crate::game::screens::AppSystems;
use crate::logic::runner::body::Posture;
use crate::logic::runner::powerups::PowerUp;
use crate::logic::runner::timing::JUMP_S;
use crate::logic::runner::view::layout::lane_offset;
use crate::logic::runner::view::palette::{
    GUARDIAN_BODY, GUARDIAN_EYES, GUARDIAN_GLOW, GUARDIAN_MASK, SHADOW, powerup_colour,
};
use crate::logic::runner::view::{GUARDIAN_LANES, GUARDIAN_SWAY_RATE, guardians_behind_m};
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

/// How fast the drawn runner catches up when its place jumps (across a junction), per second.
const CATCH_UP_RATE: f32 = 14.0;
/// Jumps of the drawn runner shorter than this are taken at once, in metres.
const SNAP_DISTANCE_M: f32 = 0.3;
const RUNNER_BODY: Color = Color::srgb(0.85, 0.30, 0.18);
const RUNNER_HEAD: Color = Color::srgb(0.93, 0.78, 0.58);
/// Above the track and its obstacles.
const RUNNER_Z: f32 = 5.0;
/// In its last seconds a power-up's ring blinks, so the player sees it is about to go.
const AURA_BLINK_S: f64 = 2.0;
/// Blinks per second of an ending power-up's ring.
const AURA_BLINK_RATE: f32 = 6.0;
/// The radius of each power-up's ring, in the order of [`PowerUp::ALL`]: nested, so all three
/// show at once (the body's radius is 0.78 m).
const AURA_RADII: [f32; 3] = [1.3, 1.52, 1.08];
/// The ghost's colour: pale and see-through, so it never hides the track or the player.
const GHOST_COLOUR: Color = Color::srgba(0.75, 0.90, 1.0, 0.4);
/// Under the player's runner, above the track.
const GHOST_Z: f32 = 4.8;
/// Under the runner and the ghost, above the track and its obstacles.
const GUARDIAN_Z: f32 = 4.5;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            (spawn_runner, spawn_ghost, spawn_guardians).run_if(resource_added::<TopDown>),
            (pose_runner, place_ghost, chase),
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(drawing),
    );
}

/// The drawn runner; its children are the body and the shadow.
#[derive(Component, Debug, Default)]
struct RunnerFigure {
    /// Where it is drawn, which catches up smoothly after a junction.
    drawn_at: Option<Vec2>,
}

/// A part of the drawn runner that shows its posture.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
enum RunnerPart {
    /// The shadow, which slides away from the body during a jump.
    Shadow,
    /// The body, which grows in a jump and squashes in a slide.
    Body,
    /// The ring shown while a power-up is held.
    Aura(PowerUp),
}

/// The drawn ghost.
#[derive(Component, Debug)]
struct GhostFigure;

/// One drawn guardian, with its place across the track in lanes from the runner.
#[derive(Component, Debug)]
struct Guardian {
    across_lanes: f32,
}

fn spawn_runner(mut commands: Commands, mut palette: Palette) {
    let runner = commands.spawn((
        Name::new("Runner"),
        RunnerFigure::default(),
        Transform::from_xyz(0.0, 0.0, RUNNER_Z),
        Visibility::default(),
        view_lifetime(),
        children![
            (
                Name::new("Runner shadow"),
                RunnerPart::Shadow,
                palette.circle(0.8, SHADOW),
                Transform::from_xyz(0.0, 0.0, -0.2),
            ),
            (
                Name::new("Runner body"),
                RunnerPart::Body,
                palette.circle(0.78, RUNNER_BODY),
                Transform::default(),
                children![(
                    Name::new("Runner head"),
                    palette.circle(0.42, RUNNER_HEAD),
                    Transform::from_xyz(0.0, 0.22, 0.1),
                )],
            ),
        ],
    ));
    let runner = runner.id();
    for kind in PowerUp::ALL {
        // Between the shadow and the body, the widest lowest: rings of light round the runner.
        let radius = AURA_RADII[kind.slot()];
        let colour = powerup_colour(kind).with_alpha(0.6);
        commands.spawn((
            Name::new(format!("Runner aura {kind:?}")),
            RunnerPart::Aura(kind),
            palette.circle(radius, colour),
            Transform::from_xyz(0.0, 0.0, -0.1 - 0.01 * radius),
            Visibility::Hidden,
            ChildOf(runner),
        ));
    }
}

fn pose_runner(
    time: Res<Time>,
    run: Res<RunnerRun>,
    world: Res<TrackInSight>,
    figure: Option<Single<(&mut Transform, &mut RunnerFigure)>>,
    mut parts: Query<(&mut Transform, &mut Visibility, &RunnerPart), Without<RunnerFigure>>,
) {
    let Some(mut figure) = figure else {
        return;
    };
    let across = lane_offset(run.sim.body.lateral_lanes() as f32);
    let Some((target, quarter)) = world.layout().track_point(run.sim.body.distance_m, across)
    else {
        return;
    };
    let (ref mut transform, ref mut state) = *figure;
    let drawn = match state.drawn_at {
        Some(drawn) if drawn.distance(target) > SNAP_DISTANCE_M => {
            drawn.lerp(target, 1.0 - (-CATCH_UP_RATE * time.delta_secs()).exp())
        }
        _ => target,
    };
    state.drawn_at = Some(drawn);
    transform.translation = drawn.extend(RUNNER_Z);
    transform.rotation = Quat::from_rotation_z(quarter as f32 * FRAC_PI_2);
    // A jump lifts the runner (bigger, shadow left behind); a slide squashes it.
    let (scale, shadow_offset) = match run.sim.body.posture {
        Posture::Jumping { left_s } => {
            let t = (left_s / JUMP_S) as f32;
            let height = 4.0 * t * (1.0 - t);
            (
                Vec3::splat(1.0 + 0.45 * height),
                Vec2::new(0.25, -0.9) * height,
            )
        }
        Posture::Sliding { .. } => (Vec3::new(1.25, 0.55, 1.0), Vec2::ZERO),
        Posture::Running => (Vec3::ONE, Vec2::ZERO),
    };
    let blink_off = (time.elapsed_secs() * AURA_BLINK_RATE).fract() < 0.5;
    for (mut transform, mut visibility, part) in &mut parts {
        match part {
            RunnerPart::Body => transform.scale = scale,
            RunnerPart::Shadow => transform.translation = shadow_offset.extend(-0.2),
            RunnerPart::Aura(kind) => {
                let left = run.sim.body.powerups.left_s(*kind);
                let shown = left > 0.0 && !(left < AURA_BLINK_S && blink_off);
                *visibility = if shown {
                    Visibility::Inherited
                } else {
                    Visibility::Hidden
                };
            }
        }
    }
}

fn spawn_ghost(mut commands: Commands, mut palette: Palette, ghost: Option<Res<RunnerGhost>>) {
    if ghost.is_none() {
        return;
    }
    commands.spawn((
        Name::new("Ghost"),
        GhostFigure,
        Transform::from_xyz(0.0, 0.0, GHOST_Z),
        Visibility::Hidden,
        view_lifetime(),
        children![
            (palette.circle(0.78, GHOST_COLOUR), Transform::default()),
            (
                palette.circle(0.42, GHOST_COLOUR),
                Transform::from_xyz(0.0, 0.22, 0.01),
            ),
        ],
    ));
}

fn place_ghost(
    ghost: Option<Res<RunnerGhost>>,
    world: Res<TrackInSight>,
    figure: Option<Single<(&mut Transform, &mut Visibility), With<GhostFigure>>>,
) {
    let (Some(ghost), Some(mut figure)) = (ghost, figure) else {
        return;
    };
    let body = &ghost.sim.body;
    let across = lane_offset(body.lateral_lanes() as f32);
    let (ref mut transform, ref mut visibility) = *figure;
    match world.layout().track_point(body.distance_m, across) {
        Some((point, quarter)) => {
            transform.translation = point.extend(GHOST_Z);
            transform.rotation = Quat::from_rotation_z(quarter as f32 * FRAC_PI_2);
            **visibility = Visibility::Inherited;
        }
        // Beyond the segments laid (far ahead or behind): out of sight.
        None => **visibility = Visibility::Hidden,
    }
}

fn spawn_guardians(mut commands: Commands, mut palette: Palette) {
    for across_lanes in GUARDIAN_LANES {
        commands.spawn((
            Name::new("Guardian"),
            Guardian { across_lanes },
            Transform::from_xyz(0.0, 0.0, GUARDIAN_Z),
            Visibility::Hidden,
            view_lifetime(),
            children![
                (
                    palette.circle(1.5, GUARDIAN_GLOW),
                    Transform::from_xyz(0.0, 0.0, -0.1),
                ),
                (palette.circle(1.0, GUARDIAN_BODY), Transform::default()),
                (
                    palette.circle(0.55, GUARDIAN_MASK),
                    Transform::from_xyz(0.0, 0.3, 0.1),
                ),
                (
                    palette.circle(0.16, GUARDIAN_EYES),
                    Transform::from_xyz(-0.22, 0.45, 0.2),
                ),
                (
                    palette.circle(0.16, GUARDIAN_EYES),
                    Transform::from_xyz(0.22, 0.45, 0.2),
                ),
            ],
        ));
    }
}

/// The guardians run close behind after a stumble, and out of sight otherwise.
fn chase(
    time: Res<Time>,
    run: Res<RunnerRun>,
    world: Res<TrackInSight>,
    mut guardians: Query<(&mut Transform, &mut Visibility, &Guardian)>,
) {
    let body = &run.sim.body;
    let gap = guardians_behind_m(body);
    let sway = (time.elapsed_secs() * GUARDIAN_SWAY_RATE).sin() * 0.12;
    for (mut transform, mut visibility, guardian) in &mut guardians {
        let lanes = body.lateral_lanes() as f32 + guardian.across_lanes;
        let place = gap.and_then(|gap| {
            let distance = (body.distance_m - gap).max(0.0);
            world.layout().track_point(distance, lane_offset(lanes))
        });
        let Some((point, quarter)) = place else {
            *visibility = Visibility::Hidden;
            continue;
        };
        *visibility = Visibility::Inherited;
        transform.translation = point.extend(GUARDIAN_Z);
        let heading = quarter as f32 * FRAC_PI_2;
        transform.rotation = Quat::from_rotation_z(heading + sway * guardian.across_lanes.signum());
    }
}
