//! Maze mode: drawing. The walls are one texture with a texel per wall-grid square (a 1000 x 1000
//! maze is one 2001 x 2001 sprite, not a million sprites); the trail, the hint and the expanded
//! cells are transparent overlay textures of the same size, painted only where they change. The
//! camera follows the player and zooms; egui draws the HUD and the win dialog.

use super::{MazeRun, MazeWin, PlayerStepped, start_maze};
use crate::game::menu::ui::{
    AMBER, DIM, GOLD, MenuPlace, dialog_buttons, hud_bar, hud_figure, item_label, modal_panel,
    results_table,
};
use crate::game::menu::{MenuCursor, MenuInput, MenuItem};
use crate::game::screens::{AppSystems, Menu, Screen};
use crate::game::settings::Settings;
use crate::logic::maze::Maze;
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// World units per wall-grid square (a cell or a wall between cells).
const TEXEL: f32 = 12.0;
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
// a gold way out, and see-through overlays so the floor shows under the trail and the search.
const WALL: [u8; 4] = [54, 42, 33, 255];
const FLOOR: [u8; 4] = [196, 172, 124, 255];
const ENTRANCE: [u8; 4] = [96, 170, 96, 255];
const EXIT: [u8; 4] = [232, 186, 84, 255];
const TRAIL: [u8; 4] = [214, 86, 64, 170];
const HINT: [u8; 4] = [255, 214, 64, 235];
const EXPANDED: [u8; 4] = [70, 140, 255, 105];
const CLEAR: [u8; 4] = [0, 0, 0, 0];

// Drawing order, back to front.
const WALL_Z: f32 = 0.0;
const EXPANDED_Z: f32 = 1.0;
const TRAIL_Z: f32 = 2.0;
const HINT_Z: f32 = 3.0;
const PLAYER_Z: f32 = 5.0;
/// The player's radius in wall-grid squares.
const PLAYER_RADIUS: f32 = 0.7;
/// The width of the dark rim around the player, in wall-grid squares.
const PLAYER_RIM: f32 = 0.15;

pub(in crate::game) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Maze), spawn_maze_view.after(start_maze))
        .add_systems(OnExit(Screen::Maze), crate::game::end_mode_view::<MazeView>)
        .add_systems(
            Update,
            (
                paint_trail.run_if(on_message::<PlayerStepped>),
                paint_hint_and_search,
                glide_player,
                zoom_camera,
                follow_player,
            )
                .chain()
                .in_set(AppSystems::Present)
                .run_if(in_state(Screen::Maze).and_then(resource_exists::<MazeView>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                draw_hud.run_if(in_state(Screen::Maze).and_then(resource_exists::<MazeRun>)),
                draw_win_dialog.run_if(in_state(Menu::Win).and_then(resource_exists::<MazeWin>)),
            ),
        );
}

/// The overlay textures and what is painted on them.
#[derive(Resource)]
struct MazeView {
    trail: Handle<Image>,
    hint: Handle<Image>,
    expanded: Handle<Image>,
    /// The texels the hint covers now, to clear them when it changes.
    hint_texels: Vec<(usize, usize)>,
    /// The hint version and visibility last painted.
    painted: Option<(u32, bool, bool)>,
    /// Width and height of the maze in world units.
    world_size: Vec2,
}

#[derive(Component)]
struct MazePlayer {
    from: Vec2,
    to: Vec2,
    progress: f32,
}

/// The wall-grid square of a cell.
fn cell_texel(maze: &Maze, cell: usize) -> (usize, usize) {
    let (x, y) = maze.coords(cell);
    (2 * x + 1, 2 * y + 1)
}

/// The wall-grid square between two neighbouring cells.
fn passage_texel(maze: &Maze, a: usize, b: usize) -> (usize, usize) {
    let ((ax, ay), (bx, by)) = (maze.coords(a), maze.coords(b));
    (ax + bx + 1, ay + by + 1)
}

/// The world position of a wall-grid square's centre (the maze is centred on the origin).
fn texel_position(maze: &Maze, (column, row): (usize, usize)) -> Vec2 {
    let columns = (2 * maze.width() + 1) as f32;
    let rows = (2 * maze.height() + 1) as f32;
    Vec2::new(
        (column as f32 + 0.5 - columns / 2.0) * TEXEL,
        (rows / 2.0 - row as f32 - 0.5) * TEXEL,
    )
}

fn blank_image(maze: &Maze, fill: [u8; 4]) -> Image {
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

fn put(image: &mut Image, (column, row): (usize, usize), colour: [u8; 4]) {
    let width = image.width() as usize;
    if let Some(data) = image.data.as_mut() {
        let at = (row * width + column) * 4;
        data[at..at + 4].copy_from_slice(&colour);
    }
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

fn spawn_maze_view(
    mut commands: Commands,
    run: Option<Res<MazeRun>>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    camera: Option<Single<(&mut Transform, &mut Projection), With<Camera2d>>>,
) {
    let Some(run) = run else {
        return;
    };
    let maze = &run.maze;
    let world_size = Vec2::new(
        (2 * maze.width() + 1) as f32 * TEXEL,
        (2 * maze.height() + 1) as f32 * TEXEL,
    );
    let mut trail = blank_image(maze, CLEAR);
    for pair in run.trail.windows(2) {
        put(&mut trail, passage_texel(maze, pair[0], pair[1]), TRAIL);
    }
    for &cell in &run.trail {
        put(&mut trail, cell_texel(maze, cell), TRAIL);
    }
    let view = MazeView {
        trail: images.add(trail),
        hint: images.add(blank_image(maze, CLEAR)),
        expanded: images.add(blank_image(maze, CLEAR)),
        hint_texels: Vec::new(),
        painted: None,
        world_size,
    };
    let layers = [
        ("Maze walls", images.add(paint_walls(maze)), WALL_Z),
        ("Maze searched cells", view.expanded.clone(), EXPANDED_Z),
        ("Maze trail", view.trail.clone(), TRAIL_Z),
        ("Maze hint", view.hint.clone(), HINT_Z),
    ];
    for (name, image, z) in layers {
        commands.spawn((
            Name::new(name),
            Sprite {
                image,
                custom_size: Some(world_size),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, z),
            DespawnOnExit(Screen::Maze),
        ));
    }
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
        DespawnOnExit(Screen::Maze),
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
    commands.insert_resource(view);
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
    run: Res<MazeRun>,
    view: Res<MazeView>,
    mut steps: MessageReader<PlayerStepped>,
    mut images: ResMut<Assets<Image>>,
    mut player: Query<&mut MazePlayer>,
) {
    let Some(mut trail) = images.get_mut(&view.trail) else {
        return;
    };
    for step in steps.read() {
        put(
            &mut trail,
            passage_texel(&run.maze, step.from, step.to),
            TRAIL,
        );
        put(&mut trail, cell_texel(&run.maze, step.to), TRAIL);
        for mut sprite in &mut player {
            let target = texel_position(&run.maze, cell_texel(&run.maze, step.to));
            // Start from wherever the glide has got to, so fast repeats stay smooth.
            sprite.from = sprite.from.lerp(sprite.to, sprite.progress.min(1.0));
            sprite.to = target;
            sprite.progress = 0.0;
        }
    }
}

/// Repaints the hint path and the searched cells when the hint or its visibility changed.
fn paint_hint_and_search(
    run: Res<MazeRun>,
    mut view: ResMut<MazeView>,
    mut images: ResMut<Assets<Image>>,
) {
    let state = (run.hint_version, run.hint_shown, run.expanded_shown);
    if view.painted == Some(state) {
        return;
    }
    let previously_expanded = view.painted.is_some_and(|(_, _, shown)| shown);
    view.painted = Some(state);
    if let Some(mut hint) = images.get_mut(&view.hint) {
        for texel in view.hint_texels.drain(..) {
            put(&mut hint, texel, CLEAR);
        }
        if run.hint_shown
            && let Some(path) = run.hint.as_ref().and_then(|h| h.path.as_ref())
        {
            for pair in path.windows(2) {
                view.hint_texels
                    .push(passage_texel(&run.maze, pair[0], pair[1]));
            }
            view.hint_texels
                .extend(path.iter().map(|&cell| cell_texel(&run.maze, cell)));
            for &texel in &view.hint_texels {
                put(&mut hint, texel, HINT);
            }
        }
    }
    if (run.expanded_shown || previously_expanded)
        && let Some(mut expanded) = images.get_mut(&view.expanded)
    {
        if let Some(data) = expanded.data.as_mut() {
            data.fill(0);
        }
        if run.expanded_shown {
            for cell in 0..run.maze.cell_count() {
                if run.search.was_expanded(cell) {
                    put(&mut expanded, cell_texel(&run.maze, cell), EXPANDED);
                }
            }
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

/// Mouse wheel and +/- zoom between close up and the whole maze.
fn zoom_camera(
    keys: Res<ButtonInput<KeyCode>>,
    mut wheel: MessageReader<MouseWheel>,
    view: Res<MazeView>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut projection: Single<&mut Projection, With<Camera2d>>,
) {
    let mut notches: f32 = wheel.read().map(|w| w.y.signum()).sum();
    if keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        notches += 1.0;
    }
    if keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
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

/// `mm:ss.t`, for the HUD and the win dialog.
fn clock(seconds: f64) -> String {
    let tenths = (seconds * 10.0).floor() as u64;
    format!(
        "{:02}:{:02}.{}",
        tenths / 600,
        (tenths / 10) % 60,
        tenths % 10
    )
}

fn draw_hud(mut contexts: EguiContexts, run: Res<MazeRun>, settings: Res<Settings>) -> Result {
    hud_bar(contexts.ctx_mut()?, "maze-hud", |ui| {
        draw_hud_rows(ui, &run, &settings)
    });
    Ok(())
}

/// The HUD's two lines: the run's figures and the maze's identity, then the controls.
fn draw_hud_rows(ui: &mut egui::Ui, run: &MazeRun, settings: &Settings) {
    ui.horizontal(|ui| {
        hud_figure(ui, "Time", clock(run.elapsed.as_secs_f64()));
        hud_figure(ui, "Moves", run.moves.to_string());
        hud_figure(ui, "Optimal", run.optimal_moves.to_string());
        hud_figure(ui, "Hints", run.hints_used.to_string());
        if run.system_walk {
            ui.label(RichText::new("SYSTEM WALK").size(17.0).color(GOLD).strong());
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(
                RichText::new(format!(
                    "seed \"{}\"  ·  {}x{}  ·  {}  ·  braid {} %",
                    settings.seed_text,
                    run.spec.width,
                    run.spec.height,
                    run.spec.algorithm.label(),
                    (run.spec.braid * 100.0).round()
                ))
                .size(15.0)
                .color(DIM),
            );
        });
    });
    ui.label(
        RichText::new(
            "Arrows/WASD move   Space hint   E searched cells   Enter system walk   \
             wheel or +/- zoom   Esc pause",
        )
        .size(13.0)
        .color(DIM),
    );
}

fn draw_win_dialog(
    mut contexts: EguiContexts,
    win: Res<MazeWin>,
    mut cursor: ResMut<MenuCursor>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let place = MenuPlace {
        menu: Menu::Win,
        screen: Screen::Maze,
    };
    let mut inputs = Vec::new();
    modal_panel(ctx, "maze-win", |ui| {
        ui.heading(RichText::new("You found the way out!").color(GOLD));
        ui.add_space(6.0);
        let best = win
            .best
            .as_ref()
            .map_or_else(|| "none yet".to_owned(), |b| clock(b.value));
        results_table(
            ui,
            "maze-win-stats",
            &[
                ("Time", clock(win.seconds)),
                ("Moves", win.moves.to_string()),
                ("Optimal", win.optimal_moves.to_string()),
                ("Efficiency", format!("{:.0} %", win.efficiency_percent)),
                ("Hints used", win.hints_used.to_string()),
                ("Best time", best),
            ],
        );
        ui.add_space(4.0);
        if win.assisted {
            ui.label(RichText::new("The system walked: this time is not recorded.").color(AMBER));
        } else if win.new_record {
            ui.label(RichText::new("New best time!").color(GOLD).strong());
        }
        ui.add_space(8.0);
        let label = |item| match item {
            MenuItem::Restart => "Same maze again",
            other => item_label(other),
        };
        dialog_buttons(ui, place, label, &mut cursor, &mut inputs);
    });
    writer.write_batch(inputs);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_shows_minutes_seconds_and_tenths() {
        assert_eq!(clock(0.0), "00:00.0");
        assert_eq!(clock(61.27), "01:01.2");
        assert_eq!(clock(3599.99), "59:59.9");
    }

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
    }
}
