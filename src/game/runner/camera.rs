//! The runner's camera: seen from above at a fixed scale, riding the track's centre line a little
//! ahead of the runner (so the track stays put while the runner changes lane), and turning the
//! short way round with the path at a junction.

use super::chase::ChaseScene;
use super::layout::TrackLayout;
use super::options::{RunnerOptions, RunnerView};
use super::rules::{RunnerRun, start_run};
use crate::game::screens::{AppSystems, Screen};
use bevy::prelude::*;
use std::f32::consts::{FRAC_PI_2, PI, TAU};

/// Screen pixels per metre.
const PIXELS_PER_METRE: f32 = 19.0;
/// How far ahead of the runner the camera looks, in metres: the runner sits near the bottom.
const LOOK_AHEAD_M: f32 = 13.0;
/// How fast the camera turns toward the runner's heading, per second (exponential approach).
const CAMERA_TURN_RATE: f32 = 9.0;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::draws(app) {
        return;
    }
    app.add_systems(OnEnter(Screen::Runner), set_up_camera.after(start_run))
        .add_systems(OnExit(Screen::Runner), |mut commands: Commands| {
            commands.remove_resource::<CameraHeading>();
        })
        .add_systems(
            Update,
            follow_runner.in_set(AppSystems::Present).run_if(
                in_state(Screen::Runner)
                    .and_then(not(resource_exists::<ChaseScene>))
                    .and_then(resource_exists::<RunnerRun>)
                    .and_then(resource_exists::<TrackLayout>)
                    .and_then(resource_exists::<CameraHeading>),
            ),
        );
}

/// The camera's heading as drawn, in radians.
#[derive(Resource, Debug, Default)]
struct CameraHeading(f32);

fn set_up_camera(
    mut commands: Commands,
    options: Res<RunnerOptions>,
    camera: Option<Single<&mut Projection, With<Camera2d>>>,
) {
    commands.insert_resource(CameraHeading::default());
    // The chase view sets the camera up its own way.
    if options.view == RunnerView::Chase {
        return;
    }
    if let Some(mut projection) = camera
        && let Projection::Orthographic(ortho) = &mut **projection
    {
        ortho.scale = 1.0 / PIXELS_PER_METRE;
    }
}

/// The angle `current` moves to, turning the short way round toward `target` at the camera's
/// rate for `dt` seconds, and landing exactly on it once close.
pub(super) fn turn_toward(current: f32, target: f32, dt: f32) -> f32 {
    let gap = (target - current + PI).rem_euclid(TAU) - PI;
    if gap.abs() < 1e-3 {
        return target;
    }
    current + gap * (1.0 - (-CAMERA_TURN_RATE * dt).exp())
}

fn follow_runner(
    time: Res<Time>,
    run: Res<RunnerRun>,
    layout: Res<TrackLayout>,
    mut heading: ResMut<CameraHeading>,
    mut camera: Single<&mut Transform, With<Camera2d>>,
) {
    let Some((centre, quarter)) = layout.track_point(run.sim.body.distance_m, 0.0) else {
        return;
    };
    heading.0 = turn_toward(heading.0, quarter as f32 * FRAC_PI_2, time.delta_secs());
    let ahead = Mat2::from_angle(heading.0) * Vec2::new(0.0, LOOK_AHEAD_M);
    camera.translation = (centre + ahead).extend(camera.translation.z);
    camera.rotation = Quat::from_rotation_z(heading.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_camera_turns_the_short_way_and_settles() {
        // From just left of straight up to a right turn: clockwise, not all the way round.
        let turned = turn_toward(0.0, -FRAC_PI_2, 0.05);
        assert!(turned < 0.0 && turned > -FRAC_PI_2, "{turned}");
        // From three quarter turns to a full turn (the same heading as zero): the short way.
        let wrapped = turn_toward(3.0 * FRAC_PI_2, 0.0, 0.05);
        assert!(wrapped > 3.0 * FRAC_PI_2, "{wrapped}");
        assert_eq!(turn_toward(1.0, 1.0005, 0.01), 1.0005);
    }
}
