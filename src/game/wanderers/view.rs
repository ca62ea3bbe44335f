//! Wanderers mode: the drawing. The field as one texture (a texel per cell), NPCs at their body
//! size in their own colours with home markers, targets and tethers on T, and the selected NPC
//! with its raw and smoothed paths. The camera fits the field beside the side panel.

use super::options::{FIELD_HEIGHT, FIELD_WIDTH, WanderersOptions};
use super::panel::PANEL_WIDTH;
use super::selection::{SelectedNpc, SelectedRoute};
use super::steering::{WanderersRun, start_sandbox};
use crate::game::camera::end_mode_view;
use crate::game::screens::{AppSystems, Screen};
use crate::game::theme::GOLD;
use crate::logic::wanderers::field::ObstacleField;
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;

/// Stone and open ground, as RGBA texels.
const STONE: [u8; 4] = [58, 52, 48, 255];
const GROUND: [u8; 4] = [112, 132, 84, 255];
/// Raw A* paths.
const RAW_PATH: Color = Color::srgb(1.0, 0.55, 0.2);
/// Smoothed paths.
const SMOOTH_PATH: Color = Color::srgb(0.3, 0.95, 1.0);
/// Targets and tethers.
const TETHER: Color = Color::srgba(1.0, 1.0, 1.0, 0.25);

pub(super) fn plugin(app: &mut App) {
    if !crate::game::draws(app) {
        return;
    }
    let shown = in_state(Screen::Wanderers).and_then(resource_exists::<WanderersRun>);
    app.add_systems(
        OnEnter(Screen::Wanderers),
        spawn_field_view.after(start_sandbox),
    )
    .add_systems(OnExit(Screen::Wanderers), end_mode_view::<DrawnGeneration>)
    .add_systems(
        Update,
        (
            respawn_npc_sprites,
            move_npc_sprites,
            fit_camera,
            draw_overlays,
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(shown),
    );
}

/// One NPC's sprite.
#[derive(Component, Debug)]
struct NpcSprite(usize);

/// Everything drawn for one sandbox (field, NPCs, homes), replaced when it is rebuilt.
#[derive(Component, Debug)]
struct SandboxSprite;

/// The sprites belong to this sandbox generation.
#[derive(Resource, Debug, Default)]
struct DrawnGeneration(Option<u32>);

/// The world point of a position in cell units (x right, y down in the grid; up in the world).
fn to_world([x, y]: [f32; 2]) -> Vec2 {
    Vec2::new(x - FIELD_WIDTH as f32 / 2.0, FIELD_HEIGHT as f32 / 2.0 - y)
}

/// The grid position of a world point.
pub(super) fn to_grid(world: Vec2) -> [f32; 2] {
    [
        world.x + FIELD_WIDTH as f32 / 2.0,
        FIELD_HEIGHT as f32 / 2.0 - world.y,
    ]
}

/// A colour of its own for NPC `i`: hues a golden angle apart.
fn npc_colour(i: usize) -> Color {
    let hue = (i as f32 * 137.507_77) % 360.0;
    Color::hsl(hue, 0.85, 0.6)
}

fn field_image(field: &ObstacleField) -> Image {
    let mut image = Image::new_fill(
        Extent3d {
            width: field.width() as u32,
            height: field.height() as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &GROUND,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.sampler = ImageSampler::nearest();
    let data = image.data.as_mut().expect("a filled image has data");
    for (id, texel) in data.chunks_exact_mut(4).enumerate() {
        let (x, y) = field.coords(id);
        if field.is_blocked(x as i64, y as i64) {
            texel.copy_from_slice(&STONE);
        }
    }
    image
}

fn spawn_field_view(mut commands: Commands) {
    commands.insert_resource(DrawnGeneration(None));
}

/// (Re)draws the field and one sprite and home marker per NPC when the sandbox is new.
fn respawn_npc_sprites(
    mut commands: Commands,
    run: Res<WanderersRun>,
    mut drawn: ResMut<DrawnGeneration>,
    mut images: ResMut<Assets<Image>>,
    old: Query<Entity, With<SandboxSprite>>,
) {
    if drawn.0 == Some(run.generation) {
        return;
    }
    drawn.0 = Some(run.generation);
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let sandbox = &run.sandbox;
    commands.spawn((
        Name::new("Field"),
        SandboxSprite,
        Sprite {
            image: images.add(field_image(&sandbox.field)),
            custom_size: Some(Vec2::new(FIELD_WIDTH as f32, FIELD_HEIGHT as f32)),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, -1.0),
        DespawnOnExit(Screen::Wanderers),
    ));
    for i in 0..sandbox.crowd.len() {
        let footprint = sandbox.footprints[i];
        let colour = npc_colour(i);
        commands.spawn((
            NpcSprite(i),
            SandboxSprite,
            Sprite::from_color(
                colour,
                Vec2::new(footprint.length() as f32, footprint.width() as f32) * 0.92,
            ),
            Transform::from_translation(to_world(sandbox.crowd.position[i]).extend(1.0)),
            DespawnOnExit(Screen::Wanderers),
        ));
        commands.spawn((
            SandboxSprite,
            Sprite::from_color(colour.with_alpha(0.55), Vec2::splat(0.45)),
            Transform::from_translation(to_world(sandbox.crowd.home[i]).extend(0.5))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
            DespawnOnExit(Screen::Wanderers),
        ));
    }
}

/// Places each NPC's sprite over the cells its body covers.
fn move_npc_sprites(run: Res<WanderersRun>, mut sprites: Query<(&mut Transform, &NpcSprite)>) {
    let sandbox = &run.sandbox;
    for (mut transform, NpcSprite(i)) in &mut sprites {
        let Some(&position) = sandbox.crowd.position.get(*i) else {
            continue;
        };
        let [left, top, right, bottom] = sandbox.footprints[*i].extents().map(f32::from);
        // The body's middle is off its centre cell when a side is even.
        let middle = [
            position[0] + (right - left) / 2.0,
            position[1] + (bottom - top) / 2.0,
        ];
        transform.translation = to_world(middle).extend(1.0);
    }
}

/// Fits the whole field in the window beside the side panel.
fn fit_camera(
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let free = Vec2::new((window.width() - PANEL_WIDTH).max(100.0), window.height());
    let scale = (FIELD_WIDTH as f32 / free.x).max(FIELD_HEIGHT as f32 / free.y) * 1.02;
    let (ref mut transform, ref mut projection) = *camera;
    if let Projection::Orthographic(ortho) = &mut **projection {
        ortho.scale = scale;
    }
    // Shift right by half the panel so the field sits in the space left of it.
    transform.translation.x = PANEL_WIDTH / 2.0 * scale;
    transform.translation.y = 0.0;
}

/// Targets and tethers (T), and the selected NPC with its raw (thin) and smoothed (thick) path.
fn draw_overlays(
    run: Res<WanderersRun>,
    options: Res<WanderersOptions>,
    selected: Res<SelectedNpc>,
    route: Option<Res<SelectedRoute>>,
    mut gizmos: Gizmos,
) {
    let sandbox = &run.sandbox;
    if options.show_targets {
        for i in 0..sandbox.crowd.len() {
            let home = to_world(sandbox.crowd.home[i]);
            let target = to_world(sandbox.crowd.target[i]);
            gizmos.line_2d(home, target, TETHER);
            gizmos.cross_2d(Isometry2d::from_translation(target), 0.5, npc_colour(i));
        }
    }
    let Some(npc) = selected.0.filter(|&i| i < sandbox.crowd.len()) else {
        return;
    };
    let at = to_world(sandbox.crowd.position[npc]);
    gizmos.circle_2d(at, 2.0, GOLD.bevy());
    if !options.show_paths {
        return;
    }
    let Some(route) = route.filter(|r| r.npc == npc) else {
        return;
    };
    let centre = |cell: usize| {
        let (x, y) = sandbox.field.coords(cell);
        to_world([x as f32 + 0.5, y as f32 + 0.5])
    };
    gizmos.linestrip_2d(route.raw.iter().map(|&c| centre(c)), RAW_PATH);
    // Thick: the same line drawn a little apart on both sides.
    for offset in [-0.12, 0.0, 0.12] {
        let shift = Vec2::new(offset, offset);
        gizmos.linestrip_2d(
            route.smoothed.iter().map(|&c| centre(c) + shift),
            SMOOTH_PATH,
        );
    }
    for &cell in &route.smoothed {
        gizmos.circle_2d(centre(cell), 0.8, SMOOTH_PATH);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_and_world_points_convert_both_ways() {
        let grid = [12.5, 40.25];
        let back = to_grid(to_world(grid));
        assert!((back[0] - grid[0]).abs() < 1e-4 && (back[1] - grid[1]).abs() < 1e-4);
        assert_eq!(to_world([0.0, 0.0]), Vec2::new(-96.0, 54.0));
    }

    #[test]
    fn neighbouring_npcs_get_different_colours() {
        assert_ne!(npc_colour(0), npc_colour(1));
        assert_ne!(npc_colour(1), npc_colour(2));
    }
}
