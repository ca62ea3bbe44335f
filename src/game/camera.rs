//! The one 2D camera every screen shares, and putting it back when a mode that moved, turned or
//! zoomed it ends.

use crate::game::theme::BACKDROP;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    if crate::game::draws(app) {
        app.insert_resource(ClearColor(BACKDROP))
            .add_systems(Startup, spawn_camera);
    }
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d));
}

/// Ends a mode's drawing: drops its view state `V` and puts the camera back.
pub(in crate::game) fn end_mode_view<V: Resource>(
    mut commands: Commands,
    camera: Option<Single<(&mut Transform, &mut Projection), With<Camera2d>>>,
) {
    commands.remove_resource::<V>();
    reset_camera(camera);
}

/// Puts the camera back as the title screen expects it: at the origin, upright, unzoomed.
fn reset_camera(camera: Option<Single<(&mut Transform, &mut Projection), With<Camera2d>>>) {
    if let Some(mut camera) = camera {
        let (ref mut transform, ref mut projection) = *camera;
        transform.translation = Vec3::new(0.0, 0.0, transform.translation.z);
        transform.rotation = Quat::IDENTITY;
        if let Projection::Orthographic(ortho) = &mut **projection {
            ortho.scale = 1.0;
        }
    }
}
