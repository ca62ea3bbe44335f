//! The drawing of the maze's guardians and shrines, and of where a click is walking the player.
//! A guardian is seen only in the torch's light; a red glow gives one away when it is close,
//! even round a corner. Shrines are teal rings on the floor, the one the player passed last
//! brighter, darkened as the floor under them is by the torch's darkness.

use super::generation::{CurrentMaze, start_maze};
use super::torchlight::{dark_colour, darkness_over};
use super::view::{TEXEL, cell_point_position, cell_texel, texel_position};
use crate::game::screens::AppSystems;
use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Over the maze's layers (at 0), under the player (at 5).
const GUARDIAN_Z: f32 = 4.0;
/// Under the guardian, over the darkness.
const GLOW_Z: f32 = 3.9;
/// Over the maze's layers (at 0), under the guardians.
const SHRINE_Z: f32 = 2.2;
/// Over everything but the player.
const TARGET_Z: f32 = 4.8;
/// The glow shows a guardian within this many cells of the player, lit or not.
const GLOW_REACH_CELLS: f32 = 2.5;
/// A guardian's body, in wall-grid squares.
const GUARDIAN_RADIUS: f32 = 0.75;

const STONE: Color = Color::srgb(0.42, 0.4, 0.37);
const STONE_RIM: Color = Color::srgb(0.16, 0.14, 0.13);
const EYES: Color = Color::srgb(1.0, 0.72, 0.18);
const GLOW: Color = Color::srgba(1.0, 0.2, 0.12, 0.85);
/// The glow's width, in wall-grid squares.
const GLOW_SIZE: f32 = 4.0;
/// Texels along each side of the glow's texture.
const GLOW_TEXELS: u32 = 64;
const SHRINE: Color = Color::srgb(0.3, 0.72, 0.66);
const SHRINE_LAST: Color = Color::srgb(0.55, 1.0, 0.9);
const TARGET: Color = Color::srgba(1.0, 0.84, 0.25, 0.9);

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    app.add_systems(OnEnter(super::SCREEN), spawn_guardians.after(start_maze))
        .add_systems(
            Update,
            (move_guardians, light_shrines, mark_walk_target)
                .in_set(AppSystems::Present)
                .run_if(in_state(super::SCREEN).and_then(resource_exists::<CurrentMaze>)),
        );
}

/// The body of guardian `.0`.
#[derive(Component)]
struct GuardianBody(usize);

/// The glow of guardian `.0`.
#[derive(Component)]
struct GuardianGlow(usize);

/// The ring of shrine cell `.0`.
#[derive(Component)]
struct ShrineRing(usize);

/// The marker of the cell a click is walking to.
#[derive(Component)]
struct WalkTargetMarker;

fn spawn_guardians(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let Some(run) = run else {
        return;
    };
    let maze = &run.maze;
    // A ring, not a disc with a floor-coloured hole: the hole shows the maze under it, trail,
    // hint and darkness too.
    let ring = Mesh2d(meshes.add(Annulus::new(0.3 * TEXEL, 0.5 * TEXEL)));
    let mut disc = |radius: f32| Mesh2d(meshes.add(Circle::new(TEXEL * radius)));
    let (body, rim, eye) = (
        disc(GUARDIAN_RADIUS - 0.12),
        disc(GUARDIAN_RADIUS),
        disc(0.13),
    );
    let glow = Sprite {
        image: images.add(glow_image()),
        color: GLOW,
        custom_size: Some(Vec2::splat(GLOW_SIZE * TEXEL)),
        ..default()
    };
    let target = disc(0.32);
    let mut paint = |colour: Color| MeshMaterial2d(materials.add(colour));
    let (stone, stone_rim, eyes) = (paint(STONE), paint(STONE_RIM), paint(EYES));
    for (index, guardian) in run.guardians.guardians.iter().enumerate() {
        let at = cell_point_position(maze, guardian.position(maze));
        commands.spawn((
            Name::new("Maze guardian"),
            GuardianBody(index),
            rim.clone(),
            stone_rim.clone(),
            Transform::from_translation(at.extend(GUARDIAN_Z)),
            Visibility::Hidden,
            DespawnOnExit(super::SCREEN),
            children![
                (
                    body.clone(),
                    stone.clone(),
                    Transform::from_xyz(0.0, 0.0, 0.01)
                ),
                (
                    eye.clone(),
                    eyes.clone(),
                    Transform::from_xyz(-0.25 * TEXEL, 0.12 * TEXEL, 0.02)
                ),
                (
                    eye.clone(),
                    eyes.clone(),
                    Transform::from_xyz(0.25 * TEXEL, 0.12 * TEXEL, 0.02)
                ),
            ],
        ));
        commands.spawn((
            Name::new("Maze guardian glow"),
            GuardianGlow(index),
            glow.clone(),
            Transform::from_translation(at.extend(GLOW_Z)),
            Visibility::Hidden,
            DespawnOnExit(super::SCREEN),
        ));
    }
    if run.rules.guardians {
        for &shrine in &run.shrines {
            let at = texel_position(maze, cell_texel(maze, shrine));
            commands.spawn((
                Name::new("Maze shrine"),
                ShrineRing(shrine),
                ring.clone(),
                paint(SHRINE),
                Transform::from_translation(at.extend(SHRINE_Z)),
                DespawnOnExit(super::SCREEN),
            ));
        }
    }
    commands.spawn((
        Name::new("Maze walk target"),
        WalkTargetMarker,
        target,
        paint(TARGET),
        Transform::from_xyz(0.0, 0.0, TARGET_Z),
        Visibility::Hidden,
        DespawnOnExit(super::SCREEN),
    ));
}

/// A soft round glow: white, opaque at the centre and fading to nothing at the rim, to be
/// tinted by the sprite's colour.
fn glow_image() -> Image {
    let half = GLOW_TEXELS as f32 / 2.0;
    let mut data = Vec::with_capacity((GLOW_TEXELS * GLOW_TEXELS * 4) as usize);
    for y in 0..GLOW_TEXELS {
        for x in 0..GLOW_TEXELS {
            let from_centre = Vec2::new(x as f32 + 0.5 - half, y as f32 + 0.5 - half) / half;
            let fade = (1.0 - from_centre.length()).max(0.0);
            data.extend_from_slice(&[255, 255, 255, (fade * fade * 255.0) as u8]);
        }
    }
    Image::new(
        Extent3d {
            width: GLOW_TEXELS,
            height: GLOW_TEXELS,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// Guardians stand where the rules put them, seen only in the light, their glow when close.
fn move_guardians(
    run: Res<CurrentMaze>,
    mut bodies: Query<(&GuardianBody, &mut Transform, &mut Visibility), Without<GuardianGlow>>,
    mut glows: Query<(&GuardianGlow, &mut Transform, &mut Visibility), Without<GuardianBody>>,
) {
    let maze = &run.maze;
    let (px, py) = maze.coords(run.player);
    let at = |index: usize| {
        let guardian = &run.guardians.guardians[index];
        let [x, y] = guardian.position(maze);
        let close = (x - px as f32).hypot(y - py as f32) <= GLOW_REACH_CELLS;
        let lit = run.is_lit(guardian.cell());
        (cell_point_position(maze, [x, y]), lit, close)
    };
    for (body, mut transform, mut visibility) in &mut bodies {
        let (position, lit, _) = at(body.0);
        transform.translation = position.extend(GUARDIAN_Z);
        *visibility = if lit {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
    for (glow, mut transform, mut visibility) in &mut glows {
        let (position, lit, close) = at(glow.0);
        transform.translation = position.extend(GLOW_Z);
        *visibility = if lit || close {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
}

/// The shrine passed last shines brighter; each is as dark as the torch's darkness over its cell,
/// mixed as blending the darkness over it would (in linear light), and a shrine on a cell never
/// seen is not drawn, since the darkness is under it: it would show where the shrines are.
fn light_shrines(
    run: Res<CurrentMaze>,
    mut rings: Query<(&ShrineRing, &MeshMaterial2d<ColorMaterial>, &mut Visibility)>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let dark = dark_colour().to_linear();
    for (ring, material, mut visibility) in &mut rings {
        visibility.set_if_neq(if run.is_seen(ring.0) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
        let lit = if ring.0 == run.last_shrine {
            SHRINE_LAST
        } else {
            SHRINE
        };
        let colour = Color::from(lit.to_linear().mix(&dark, darkness_over(&run, ring.0)));
        // Only a real change is written: writing marks the material for upload.
        if materials
            .get(&material.0)
            .is_some_and(|shown| shown.color != colour)
            && let Some(mut shown) = materials.get_mut(&material.0)
        {
            shown.color = colour;
        }
    }
}

/// A gold dot on the cell a click is walking to.
fn mark_walk_target(
    run: Res<CurrentMaze>,
    mut marker: Single<(&mut Transform, &mut Visibility), With<WalkTargetMarker>>,
) {
    let (ref mut transform, ref mut visibility) = *marker;
    match run.walk_target {
        Some(cell) => {
            let at = texel_position(&run.maze, cell_texel(&run.maze, cell));
            transform.translation = at.extend(TARGET_Z);
            **visibility = Visibility::Inherited;
        }
        None => **visibility = Visibility::Hidden,
    }
}
