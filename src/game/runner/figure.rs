//! The runner as drawn: a body with a head and a shadow, placed by its distance and lane, turned
//! with the track, lifted by a jump (the shadow left behind) and squashed by a slide, ringed in
//! each power-up's colour while it is held. After a junction it catches up with its new place smoothly
//! instead of jumping.

use super::layout::{TrackLayout, lane_offset};
use super::palette::Palette;
use super::rules::{RunnerRun, start_run};
use super::track::SHADOW;
use crate::game::screens::{AppSystems, Screen};
use crate::logic::runner::body::Posture;
use crate::logic::runner::powerups::PowerUp;
use crate::logic::runner::timing::JUMP_S;
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

pub(super) fn plugin(app: &mut App) {
    if !crate::game::draws(app) {
        return;
    }
    app.add_systems(OnEnter(Screen::Runner), spawn_runner.after(start_run))
        .add_systems(
            Update,
            pose_runner.in_set(AppSystems::Present).run_if(
                in_state(Screen::Runner)
                    .and_then(resource_exists::<RunnerRun>)
                    .and_then(resource_exists::<TrackLayout>),
            ),
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

fn spawn_runner(mut commands: Commands, mut palette: Palette) {
    let runner = commands.spawn((
        Name::new("Runner"),
        RunnerFigure::default(),
        Transform::from_xyz(0.0, 0.0, RUNNER_Z),
        Visibility::default(),
        DespawnOnExit(Screen::Runner),
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
        let colour = super::track::powerup_colour(kind).with_alpha(0.6);
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
    layout: Res<TrackLayout>,
    mut figure: Single<(&mut Transform, &mut RunnerFigure)>,
    mut parts: Query<(&mut Transform, &mut Visibility, &RunnerPart), Without<RunnerFigure>>,
) {
    let across = lane_offset(run.sim.body.lateral_lanes() as f32);
    let Some((target, quarter)) = layout.track_point(run.sim.body.distance_m, across) else {
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
