//! The top-down view's camera: from above at a fixed scale, riding the track's centre line a
//! little ahead of the runner (so the track stays put while the runner changes lane), and
//! turning the short way round with the path at a junction.

use super::{TopDown, drawing};
use crate::game::runner::rules::RunnerRun;
use crate::game::runner::world::TrackInSight;
use crate::game::screens::AppSystems;
use crate::logic::runner::view::layout::turn_toward;
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

/// Screen pixels per metre.
const PIXELS_PER_METRE: f32 = 19.0;
/// How far ahead of the runner the camera looks, in metres: the runner sits near the bottom.
const LOOK_AHEAD_M: f32 = 13.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            set_up_camera.run_if(resource_added::<TopDown>),
            follow_runner,
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(drawing),
    );
}

/// The camera's heading as drawn, in radians.
#[derive(Resource, Debug, Default)]
struct CameraHeading(f32);

fn set_up_camera(
    mut commands: Commands,
    camera: Option<Single<&mut Projection, With<Camera2d>>>,
    (run, world): (Res<RunnerRun>, Res<TrackInSight>),
) {
    // Looking where the runner runs, without swinging round, however far the run has turned.
    commands.insert_resource(CameraHeading(world.heading_of(&run)));
    if let Some(mut projection) = camera
        && let Projection::Orthographic(ortho) = &mut **projection
    {
        ortho.scale = 1.0 / PIXELS_PER_METRE;
    }
}

fn follow_runner(
    time: Res<Time>,
    run: Res<RunnerRun>,
    world: Res<TrackInSight>,
    heading: Option<ResMut<CameraHeading>>,
    mut camera: Single<&mut Transform, With<Camera2d>>,
) {
    let Some(mut heading) = heading else {
        return;
    };
    let Some((centre, quarter)) = world.layout().track_point(run.sim.body.distance_m, 0.0) else {
        return;
    };
    heading.0 = turn_toward(heading.0, quarter as f32 * FRAC_PI_2, time.delta_secs());
    let ahead = Mat2::from_angle(heading.0) * Vec2::new(0.0, LOOK_AHEAD_M);
    camera.translation = (centre + ahead).extend(camera.translation.z);
    camera.rotation = Quat::from_rotation_z(heading.0);
}
