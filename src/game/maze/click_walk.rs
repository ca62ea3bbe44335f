//! Click to walk: a left click on a cell the player has seen walks the player there by the
//! shortest way through seen cells, one step at the system walk's pace. Any movement key takes
//! control back. The click becomes an input of the run, so replays keep it.

use super::generation::CurrentMaze;
use super::view::cell_at;
use super::walk::MazeTape;
use crate::game::records::Watching;
use crate::game::screens::{AppSystems, Menu, PausableSystems};
use crate::logic::maze::run::MazeInput;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        walk_to_clicked_cell
            .in_set(AppSystems::RecordInput)
            .in_set(PausableSystems)
            .run_if(
                in_state(super::SCREEN)
                    .and_then(in_state(Menu::None))
                    .and_then(resource_exists::<CurrentMaze>)
                    .and_then(resource_exists::<MazeTape>)
                    .and_then(resource_exists::<ButtonInput<MouseButton>>)
                    .and_then(not(resource_exists::<Watching>)),
            ),
    );
}

/// Where a point of the window is in the world, for a 2D camera at `camera` (its position)
/// with zoom `scale` (world units per window pixel). Window points run right and down from the
/// top left; the world's y runs up.
pub fn window_to_world(point: Vec2, window_size: Vec2, camera: Vec2, scale: f32) -> Vec2 {
    let from_centre = point - window_size / 2.0;
    camera + Vec2::new(from_centre.x, -from_centre.y) * scale
}

/// A left click on a seen cell becomes a walk there at the next fixed step.
fn walk_to_clicked_cell(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&Transform, &Projection), With<Camera2d>>>,
    run: Res<CurrentMaze>,
    mut tape: ResMut<MazeTape>,
) {
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(window) = window else {
        return;
    };
    let Some(point) = window.cursor_position() else {
        return;
    };
    // Without a camera (a windowless test) the view is the default one: centred, unzoomed.
    let (at, scale) = camera.map_or((Vec2::ZERO, 1.0), |camera| {
        let (transform, projection) = *camera;
        let scale = match projection {
            Projection::Orthographic(ortho) => ortho.scale,
            _ => 1.0,
        };
        (transform.translation.truncate(), scale)
    });
    let world = window_to_world(point, window.size(), at, scale);
    if let Some(cell) = cell_at(&run.maze, world)
        && run.is_seen(cell)
    {
        tape.pending.push(MazeInput::WalkTo(cell));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_points_map_to_the_world_through_the_camera() {
        let window = Vec2::new(1280.0, 720.0);
        assert_eq!(
            window_to_world(window / 2.0, window, Vec2::ZERO, 1.0),
            Vec2::ZERO
        );
        // Top left, with the camera moved and zoomed out 2x.
        let corner = window_to_world(Vec2::ZERO, window, Vec2::new(100.0, 50.0), 2.0);
        assert_eq!(corner, Vec2::new(100.0 - 1280.0, 50.0 + 720.0));
    }
}
