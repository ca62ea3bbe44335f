//! The one 2D camera every screen shares, its anti-aliasing as the settings ask, and putting it
//! back when a mode that moved, turned or zoomed it ends.

use crate::game::screens::AppSystems;
use crate::game::settings::Settings;
use crate::game::theme::BACKDROP;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    if crate::game::screens::draws(app) {
        app.insert_resource(ClearColor(BACKDROP))
            .add_systems(Startup, spawn_camera)
            .add_systems(Update, apply_antialiasing.in_set(AppSystems::Present));
    }
}

/// While this resource exists the camera draws without multisampling, whatever the setting: a
/// view whose edges all lie on whole pixels gains nothing from it.
#[derive(Resource, Debug)]
pub struct NoMultisampling;

/// Spawns the camera, multisampled as the settings ask.
pub(super) fn spawn_camera(mut commands: Commands, settings: Res<Settings>) {
    commands.spawn((
        Name::new("Camera"),
        Camera2d,
        multisampling(&settings, false),
    ));
}

/// The multisampling the settings ask for: 4 samples a pixel with anti-aliasing on, else none.
fn multisampling(settings: &Settings, forbidden: bool) -> Msaa {
    if settings.antialiasing && !forbidden {
        Msaa::Sample4
    } else {
        Msaa::Off
    }
}

/// Keeps the camera's multisampling as the setting and the current view want it.
fn apply_antialiasing(
    mut commands: Commands,
    settings: Res<Settings>,
    forbidden: Option<Res<NoMultisampling>>,
    camera: Option<Single<(Entity, &Msaa), With<Camera2d>>>,
) {
    let Some(camera) = camera else {
        return;
    };
    let (entity, current) = *camera;
    let wanted = multisampling(&settings, forbidden.is_some());
    if *current != wanted {
        commands.entity(entity).insert(wanted);
    }
}

/// The shared camera's parts a mode's view may change.
pub(in crate::game) type ViewedCamera<'w, 's> = Option<
    Single<
        'w,
        's,
        (
            &'static mut Transform,
            &'static mut Projection,
            &'static mut Camera,
        ),
        With<Camera2d>,
    >,
>;

/// Ends a mode's drawing: drops its view state `V` and puts the camera back.
pub(in crate::game) fn end_mode_view<V: Resource>(mut commands: Commands, camera: ViewedCamera) {
    commands.remove_resource::<V>();
    reset_camera(camera);
}

/// Puts the camera back as the title screen expects it: at the origin, upright, unzoomed, and
/// clearing to the backdrop.
pub(in crate::game) fn reset_camera(camera: ViewedCamera) {
    if let Some(mut camera) = camera {
        let (ref mut transform, ref mut projection, ref mut camera) = *camera;
        transform.translation = Vec3::new(0.0, 0.0, transform.translation.z);
        transform.rotation = Quat::IDENTITY;
        if let Projection::Orthographic(ortho) = &mut **projection {
            ortho.scale = 1.0;
        }
        camera.clear_color = ClearColorConfig::Default;
    }
}
