//! Maze mode: the drawing of the maze and the player. The walls are one texture with a texel per
//! wall-grid square (a 1000 x 1000 maze is one 2001 x 2001 texture, not a million sprites); the
//! trail is a transparent texture of the same size, painted only where it changes; both are
//! layers of the maze's one drawn quad ([`super::layers`]). The camera follows the player and
//! zooms. The hint overlay paints its own layers ([`super::hint`]).

use super::controls::MazeAction;
use super::generation::CurrentMaze;
use super::layers::{Layer, MazeLayers, PaintLayers};
use super::walk::{PlayerCaught, PlayerStepped};
use crate::game::camera::end_mode_view;
use crate::game::controls::Actions;
use crate::game::screens::AppSystems;
use crate::game::theme::GOLD;
use crate::logic::maze::Maze;
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;

/// World units per wall-grid square (a cell or a wall between cells).
pub const TEXEL: f32 = 12.0;
/// Largest zoom (world units per screen pixel) the camera starts at: texels of about 10 px.
const MAX_START_SCALE: f32 = 1.25;
/// Closest zoom.
const MIN_SCALE: f32 = 0.3;
/// Zoom factor of one wheel notch or key press.
const ZOOM_STEP: f32 = 1.15;
/// How quickly the camera catches up with the player (per second, exponential).
const CAMERA_FOLLOW_RATE: f32 = 10.0;
/// How long the player's sprite takes to glide one cell.
const TWEEN_SECONDS: f32 = 0.08;
/// The share of the free window a fitted maze fills, leaving a border around it.
const FIT_MARGIN: f32 = 0.94;
/// Room kept free for the HUD at the top, as a fraction of the window height.
const HUD_SHARE: f32 = 0.15;

// Colours of the maze textures (sRGB with alpha): dark stone walls, sand floor, a green way in,
// the palette's gold way out, and a see-through trail so the floor shows under it.
const WALL: [u8; 4] = [54, 42, 33, 255];
const FLOOR: [u8; 4] = [196, 172, 124, 255];
const ENTRANCE: [u8; 4] = [96, 170, 96, 255];
const EXIT: [u8; 4] = GOLD.texel(255);
const TRAIL: [u8; 4] = [214, 86, 64, 170];
/// The way a guardian dragged the player back: a darker, bruised purple.
const DRAGGED: [u8; 4] = [120, 40, 110, 200];
/// Nothing painted.
pub(super) const CLEAR: [u8; 4] = [0, 0, 0, 0];

/// Over the maze's layers and everything on them.
const PLAYER_Z: f32 = 5.0;
/// The player's radius in wall-grid squares.
const PLAYER_RADIUS: f32 = 0.7;
/// The width of the dark rim around the player, in wall-grid squares.
const PLAYER_RIM: f32 = 0.15;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    app.add_systems(
        OnEnter(super::SCREEN),
        (paint_walls_and_trail.in_set(PaintLayers), spawn_maze_view).chain(),
    )
    .add_systems(OnExit(super::SCREEN), end_mode_view::<MazeView>)
    .add_systems(
        Update,
        (
            paint_trail.run_if(on_message::<PlayerStepped>),
            paint_way_back.run_if(on_message::<PlayerCaught>),
            glide_player,
            zoom_camera,
            follow_player,
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(in_state(super::SCREEN).and_then(resource_exists::<MazeView>)),
    );
}

/// The maze's drawing: the trail texture and the maze's size in the world.
#[derive(Resource)]
pub(super) struct MazeView {
    trail: Handle<Image>,
    /// Width and height of the maze in world units.
    pub(super) world_size: Vec2,
}

/// The player's figure, gliding from cell to cell.
#[derive(Component)]
pub(super) struct MazePlayer {
    from: Vec2,
    to: Vec2,
    progress: f32,
}

/// The wall-grid square of a cell.
pub(super) fn cell_texel(maze: &Maze, cell: usize) -> (usize, usize) {
    let (x, y) = maze.coords(cell);
    (2 * x + 1, 2 * y + 1)
}

/// The wall-grid square between two neighbouring cells.
pub(super) fn passage_texel(maze: &Maze, a: usize, b: usize) -> (usize, usize) {
    let ((ax, ay), (bx, by)) = (maze.coords(a), maze.coords(b));
    (ax + bx + 1, ay + by + 1)
}

/// The texels of a walk: its cells and the passages between them.
pub(super) fn walk_texels(maze: &Maze, cells: &[usize]) -> Vec<(usize, usize)> {
    cells
        .windows(2)
        .map(|pair| passage_texel(maze, pair[0], pair[1]))
        .chain(cells.iter().map(|&cell| cell_texel(maze, cell)))
        .collect()
}

/// The world position of a wall-grid square's centre (the maze is centred on the origin).
pub(super) fn texel_position(maze: &Maze, (column, row): (usize, usize)) -> Vec2 {
    cell_point_position(
        maze,
        [(column as f32 - 1.0) / 2.0, (row as f32 - 1.0) / 2.0],
    )
}

/// The world position of a point in cell coordinates: cell (x, y)'s centre is at [x, y].
pub fn cell_point_position(maze: &Maze, [x, y]: [f32; 2]) -> Vec2 {
    let columns = (2 * maze.width() + 1) as f32;
    let rows = (2 * maze.height() + 1) as f32;
    Vec2::new(
        (2.0 * x + 1.5 - columns / 2.0) * TEXEL,
        (rows / 2.0 - 2.0 * y - 1.5) * TEXEL,
    )
}

/// The cell under a world position, if it is inside the maze (a wall counts as the cell to its
/// west or north).
pub(super) fn cell_at(maze: &Maze, world: Vec2) -> Option<usize> {
    let columns = (2 * maze.width() + 1) as f32;
    let rows = (2 * maze.height() + 1) as f32;
    let column = (world.x / TEXEL + columns / 2.0).floor();
    let row = (rows / 2.0 - world.y / TEXEL).floor();
    let inside = |square: f32, squares: f32| square >= 1.0 && square < squares - 1.0;
    if !inside(column, columns) || !inside(row, rows) {
        return None;
    }
    let (x, y) = (
        ((column - 1.0) / 2.0) as usize,
        ((row - 1.0) / 2.0) as usize,
    );
    Some(maze.id(x, y))
}

/// A texture with a texel per wall-grid square, all `fill`.
pub(super) fn blank_image(maze: &Maze, fill: [u8; 4]) -> Image {
    let (columns, rows) = (2 * maze.width() + 1, 2 * maze.height() + 1);
    let mut image = Image::new_fill(
        Extent3d {
            width: columns as u32,
            height: rows as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &fill,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    );
    image.sampler = ImageSampler::nearest();
    image
}

/// Paints one texel.
pub(super) fn put(image: &mut Image, (column, row): (usize, usize), colour: [u8; 4]) {
    let width = image.width() as usize;
    if let Some(data) = image.data.as_mut() {
        let at = (row * width + column) * 4;
        data[at..at + 4].copy_from_slice(&colour);
    }
}

/// The size of `maze` in the world.
pub(super) fn world_size(maze: &Maze) -> Vec2 {
    Vec2::new(
        (2 * maze.width() + 1) as f32 * TEXEL,
        (2 * maze.height() + 1) as f32 * TEXEL,
    )
}

fn paint_walls(maze: &Maze) -> Image {
    let mut image = blank_image(maze, WALL);
    for (row_index, row) in maze.ascii_rows(None).iter().enumerate() {
        for (column, byte) in row.bytes().enumerate() {
            if byte == b' ' {
                put(&mut image, (column, row_index), FLOOR);
            }
        }
    }
    let exit_row = 2 * maze.height() - 1;
    put(&mut image, (0, 1), ENTRANCE);
    put(&mut image, (2 * maze.width(), exit_row), EXIT);
    put(&mut image, cell_texel(maze, maze.goal()), EXIT);
    image
}

/// The walls' and the trail's layers of a new maze, and the view that paints the trail on.
fn paint_walls_and_trail(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    mut images: ResMut<Assets<Image>>,
    mut layers: ResMut<MazeLayers>,
) {
    let Some(run) = run else {
        return;
    };
    let maze = &run.maze;
    let mut trail = blank_image(maze, CLEAR);
    for texel in walk_texels(maze, run.trail()) {
        put(&mut trail, texel, TRAIL);
    }
    let view = MazeView {
        trail: images.add(trail),
        world_size: world_size(maze),
    };
    layers.set(Layer::Walls, images.add(paint_walls(maze)));
    layers.set(Layer::Trail, view.trail.clone());
    commands.insert_resource(view);
}

/// The player's disc, and the camera's zoom and place for a new maze.
fn spawn_maze_view(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&mut Transform, &mut Projection), With<Camera2d>>>,
) {
    let Some(run) = run else {
        return;
    };
    let maze = &run.maze;
    let world_size = world_size(maze);
    let player_at = texel_position(maze, cell_texel(maze, run.player));
    // A bright disc with a dark rim, a little wider than a corridor so it stays easy to find
    // when zoomed out on a large maze.
    commands.spawn((
        Name::new("Maze player"),
        Mesh2d(meshes.add(Circle::new(TEXEL * PLAYER_RADIUS))),
        MeshMaterial2d(materials.add(Color::srgb(0.12, 0.05, 0.03))),
        Transform::from_translation(player_at.extend(PLAYER_Z)),
        MazePlayer {
            from: player_at,
            to: player_at,
            progress: 1.0,
        },
        DespawnOnExit(super::SCREEN),
        children![(
            Mesh2d(meshes.add(Circle::new(TEXEL * (PLAYER_RADIUS - PLAYER_RIM)))),
            MeshMaterial2d(materials.add(Color::srgb(0.95, 0.25, 0.18))),
            Transform::from_xyz(0.0, 0.0, 0.1),
        )],
    ));
    // Fit small mazes in the window; start larger ones at a readable zoom around the player.
    if let (Some(window), Some(mut camera)) = (window, camera) {
        let (ref mut transform, ref mut projection) = *camera;
        let scale = fit_scale(world_size, window.size()).min(MAX_START_SCALE);
        if let Projection::Orthographic(ortho) = &mut **projection {
            ortho.scale = scale;
        }
        let focus = camera_focus(world_size, window.size() * scale, player_at);
        transform.translation = focus.extend(transform.translation.z);
    }
}

/// The zoom at which the whole maze fits the window below the HUD.
fn fit_scale(world_size: Vec2, window: Vec2) -> f32 {
    let usable = Vec2::new(window.x, window.y * (1.0 - HUD_SHARE)) * FIT_MARGIN;
    (world_size.x / usable.x).max(world_size.y / usable.y)
}

/// Where the camera should look: the maze centre along an axis the view covers, else the
/// player, kept so the view does not run far past the maze's edge.
fn camera_focus(world_size: Vec2, view_size: Vec2, player: Vec2) -> Vec2 {
    let axis = |world: f32, view: f32, player: f32| {
        if view >= world {
            0.0
        } else {
            let limit = (world - view) / 2.0 + TEXEL;
            player.clamp(-limit, limit)
        }
    };
    // Shift up a little so the HUD does not cover the player or the maze's top row.
    let hud_offset = view_size.y * HUD_SHARE / 2.0;
    Vec2::new(
        axis(world_size.x, view_size.x, player.x),
        axis(world_size.y, view_size.y * (1.0 - HUD_SHARE), player.y) + hud_offset,
    )
}

fn paint_trail(
    run: Res<CurrentMaze>,
    view: Res<MazeView>,
    mut steps: MessageReader<PlayerStepped>,
    mut images: ResMut<Assets<Image>>,
    mut player: Query<&mut MazePlayer>,
) {
    let Some(mut trail) = images.get_mut(&view.trail) else {
        return;
    };
    for step in steps.read() {
        for texel in walk_texels(&run.maze, &[step.from, step.to]) {
            put(&mut trail, texel, TRAIL);
        }
        for mut sprite in &mut player {
            let target = texel_position(&run.maze, cell_texel(&run.maze, step.to));
            // Start from wherever the glide has got to, so fast repeats stay smooth.
            sprite.from = sprite.from.lerp(sprite.to, sprite.progress.min(1.0));
            sprite.to = target;
            sprite.progress = 0.0;
        }
    }
}

/// A guardian caught the player: the way back is painted bruised and the player stands at the
/// shrine at once.
fn paint_way_back(
    run: Res<CurrentMaze>,
    view: Res<MazeView>,
    mut caught: MessageReader<PlayerCaught>,
    mut images: ResMut<Assets<Image>>,
    mut player: Query<&mut MazePlayer>,
) {
    let Some(mut trail) = images.get_mut(&view.trail) else {
        return;
    };
    for catch in caught.read() {
        let way_back = run.trail().get(catch.trail_from..).unwrap_or_default();
        for texel in walk_texels(&run.maze, way_back) {
            put(&mut trail, texel, DRAGGED);
        }
        let shrine = texel_position(&run.maze, cell_texel(&run.maze, catch.shrine));
        for mut sprite in &mut player {
            (sprite.from, sprite.to, sprite.progress) = (shrine, shrine, 1.0);
        }
    }
}

fn glide_player(time: Res<Time>, mut player: Query<(&mut Transform, &mut MazePlayer)>) {
    for (mut transform, mut sprite) in &mut player {
        sprite.progress = (sprite.progress + time.delta_secs() / TWEEN_SECONDS).min(1.0);
        let at = sprite.from.lerp(sprite.to, sprite.progress);
        transform.translation.x = at.x;
        transform.translation.y = at.y;
    }
}

/// The mouse wheel and the zoom actions (+ and -, a gamepad's shoulder buttons) zoom between
/// close up and the whole maze.
fn zoom_camera(
    actions: Actions<MazeAction>,
    mut wheel: MessageReader<MouseWheel>,
    view: Res<MazeView>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut projection: Single<&mut Projection, With<Camera2d>>,
) {
    let mut notches: f32 = wheel.read().map(|w| w.y.signum()).sum();
    if actions.just_pressed(&MazeAction::ZoomIn) {
        notches += 1.0;
    }
    if actions.just_pressed(&MazeAction::ZoomOut) {
        notches -= 1.0;
    }
    if notches == 0.0 {
        return;
    }
    let widest = fit_scale(view.world_size, window.size()).max(MAX_START_SCALE);
    if let Projection::Orthographic(ortho) = &mut **projection {
        ortho.scale = (ortho.scale / ZOOM_STEP.powf(notches)).clamp(MIN_SCALE, widest);
    }
}

fn follow_player(
    time: Res<Time<Real>>,
    view: Res<MazeView>,
    window: Single<&Window, With<PrimaryWindow>>,
    player: Single<&Transform, (With<MazePlayer>, Without<Camera2d>)>,
    mut camera: Single<(&mut Transform, &Projection), With<Camera2d>>,
) {
    let scale = match &camera.1 {
        Projection::Orthographic(ortho) => ortho.scale,
        _ => 1.0,
    };
    let focus = camera_focus(
        view.world_size,
        window.size() * scale,
        player.translation.truncate(),
    );
    let blend = 1.0 - (-CAMERA_FOLLOW_RATE * time.delta_secs()).exp();
    let at = camera.0.translation.truncate().lerp(focus, blend);
    camera.0.translation.x = at.x;
    camera.0.translation.y = at.y;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_mazes_are_centred_and_large_ones_follow_the_player() {
        let window = Vec2::new(1280.0, 720.0);
        let small = Vec2::splat(31.0 * TEXEL);
        assert_eq!(camera_focus(small, window, Vec2::new(100.0, 0.0)).x, 0.0);
        let large = Vec2::splat(403.0 * TEXEL);
        let focus = camera_focus(large, window, Vec2::new(500.0, 0.0));
        assert_eq!(focus.x, 500.0);
        // Near the edge the camera stops so the view does not leave the maze.
        let edge = camera_focus(large, window, Vec2::new(10_000.0, 0.0));
        assert!(edge.x < 10_000.0 && edge.x > 0.0);
    }

    #[test]
    fn texels_map_cells_and_passages() {
        let maze = Maze::closed(3, 2).unwrap();
        assert_eq!(cell_texel(&maze, 0), (1, 1));
        assert_eq!(cell_texel(&maze, 5), (5, 3));
        assert_eq!(passage_texel(&maze, 0, 1), (2, 1));
        assert_eq!(passage_texel(&maze, 1, 4), (3, 2));
        // The maze is centred: the middle square of a 7 x 5 grid is at the origin.
        assert_eq!(texel_position(&maze, (3, 2)), Vec2::ZERO);
        assert_eq!(
            walk_texels(&maze, &[0, 1, 4]),
            vec![(2, 1), (3, 2), (1, 1), (3, 1), (3, 3)]
        );
    }

    #[test]
    fn a_point_maps_back_to_its_cell() {
        let maze = Maze::closed(5, 4).unwrap();
        for cell in 0..maze.cell_count() {
            let centre = texel_position(&maze, cell_texel(&maze, cell));
            assert_eq!(cell_at(&maze, centre), Some(cell));
            // Anywhere on the cell's square, up to its edges.
            let corner = centre + Vec2::new(-0.49, 0.49) * TEXEL;
            assert_eq!(cell_at(&maze, corner), Some(cell));
        }
        let (x, y) = (1.5, 2.0);
        let between = cell_point_position(&maze, [x, y]);
        let (a, b) = (maze.id(1, 2), maze.id(2, 2));
        let halfway = (texel_position(&maze, cell_texel(&maze, a))
            + texel_position(&maze, cell_texel(&maze, b)))
            / 2.0;
        assert!(between.distance(halfway) < 1e-4);
        // The outer wall and beyond are no cell.
        let outside = texel_position(&maze, (0, 1));
        assert_eq!(cell_at(&maze, outside), None);
        assert_eq!(cell_at(&maze, Vec2::splat(1e6)), None);
    }
}
