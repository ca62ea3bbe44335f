//! The title screen's living background: a seeded field of temple floor tiles drifting slowly.

use crate::game::screens::{AppSystems, Screen};
use crate::game::settings::GameSeed;
use crate::logic::title_field::{TileKind, title_tiles};
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Tiles along each side of the background texture.
const FIELD_TILES: usize = 32;
/// Pixels along each side of one tile.
const TILE_PIXELS: usize = 40;
/// Pixels along each side of the whole texture.
const FIELD_PIXELS: usize = FIELD_TILES * TILE_PIXELS;
/// Copies of the texture along each axis: enough to cover a 4K fullscreen window while drifting.
const COPIES: i32 = 5;
/// Drift velocity in pixels per second: slow enough to read the menu over it.
const DRIFT: Vec2 = Vec2::new(-14.0, 9.0);
/// Behind everything else.
const BACKGROUND_Z: f32 = -100.0;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    app.add_systems(OnEnter(Screen::Title), spawn_title_background)
        .add_systems(
            Update,
            (
                repaint_title_background_on_new_seed.run_if(resource_changed::<GameSeed>),
                drift_title_background,
            )
                .in_set(AppSystems::Present)
                .run_if(in_state(Screen::Title)),
        );
}

/// One copy of the tile texture, at its place in the grid of copies.
#[derive(Component)]
struct TitleTiles {
    grid_offset: Vec2,
}

fn spawn_title_background(
    mut commands: Commands,
    seed: Res<GameSeed>,
    mut images: ResMut<Assets<Image>>,
) {
    let image = images.add(paint_field(seed.0));
    let half = COPIES / 2;
    for y in -half..=half {
        for x in -half..=half {
            let grid_offset = Vec2::new(x as f32, y as f32) * FIELD_PIXELS as f32;
            commands.spawn((
                Name::new("Title tiles"),
                Sprite::from_image(image.clone()),
                Transform::from_translation(grid_offset.extend(BACKGROUND_Z)),
                TitleTiles { grid_offset },
                DespawnOnExit(Screen::Title),
            ));
        }
    }
}

/// A new seed shows a new field at once, so the player sees the seed mean something.
fn repaint_title_background_on_new_seed(
    seed: Res<GameSeed>,
    mut images: ResMut<Assets<Image>>,
    tiles: Query<&Sprite, With<TitleTiles>>,
) {
    // All copies share one texture, so repainting it once updates them all.
    if let Some(sprite) = tiles.iter().next()
        && let Some(mut image) = images.get_mut(&sprite.image)
    {
        *image = paint_field(seed.0);
    }
}

fn drift_title_background(time: Res<Time<Real>>, mut tiles: Query<(&mut Transform, &TitleTiles)>) {
    let period = FIELD_PIXELS as f32;
    let shift = (DRIFT * time.elapsed_secs()).rem_euclid(Vec2::splat(period));
    for (mut transform, tiles) in &mut tiles {
        transform.translation.x = tiles.grid_offset.x + shift.x;
        transform.translation.y = tiles.grid_offset.y + shift.y;
    }
}

/// Paints the seed's tile field into a texture that repeats seamlessly.
fn paint_field(seed: u64) -> Image {
    let tiles = title_tiles(seed, FIELD_TILES, FIELD_TILES);
    let mut pixels = vec![0u8; FIELD_PIXELS * FIELD_PIXELS * 4];
    for (index, &kind) in tiles.iter().enumerate() {
        let (tile_x, tile_y) = (index % FIELD_TILES, index / FIELD_TILES);
        for py in 0..TILE_PIXELS {
            for px in 0..TILE_PIXELS {
                let colour = tile_pixel(kind, index, px, py);
                let x = tile_x * TILE_PIXELS + px;
                let y = tile_y * TILE_PIXELS + py;
                let at = (y * FIELD_PIXELS + x) * 4;
                pixels[at..at + 4].copy_from_slice(&[colour[0], colour[1], colour[2], 255]);
            }
        }
    }
    let mut image = Image::new(
        Extent3d {
            width: FIELD_PIXELS as u32,
            height: FIELD_PIXELS as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        pixels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    );
    image.sampler = ImageSampler::nearest();
    image
}

/// Dark mortar between slabs.
const MORTAR: [u8; 3] = [28, 21, 16];
/// Sandstone, kept dark so the menu stays readable over it.
const STONE: [u8; 3] = [74, 59, 43];
/// Carvings and cracks.
const CARVED: [u8; 3] = [50, 39, 29];
/// Moss.
const MOSS: [u8; 3] = [52, 70, 40];
/// Inlaid gold.
const GOLD: [u8; 3] = [120, 94, 42];

/// The colour of pixel (`px`, `py`) of tile number `index` of kind `kind`.
fn tile_pixel(kind: TileKind, index: usize, px: usize, py: usize) -> [u8; 3] {
    let last = TILE_PIXELS - 1;
    if px < 2 || py < 2 || px == last || py == last {
        return MORTAR;
    }
    // A per-tile and per-pixel shade so the stone looks worn rather than flat.
    let grain = ((index * 31 + px * 7 + py * 13) % 9) as i16 - 4;
    let tile_shade = ((index * 17) % 11) as i16 - 5;
    let shade = |c: [u8; 3]| c.map(|v| (i16::from(v) + grain + tile_shade).clamp(0, 255) as u8);
    let centre = (TILE_PIXELS / 2) as i32;
    let (cx, cy) = (px as i32 - centre, py as i32 - centre);
    match kind {
        TileKind::Plain => shade(STONE),
        TileKind::Cracked => {
            // A jagged line from one corner to the other.
            let crack = px as i32 - py as i32 == ((py / 4) % 2) as i32;
            if crack { CARVED } else { shade(STONE) }
        }
        TileKind::Mossy => {
            let blob =
                (cx + 5).pow(2) + (cy - 6).pow(2) < 90 || (cx - 8).pow(2) + (cy + 4).pow(2) < 45;
            if blob { shade(MOSS) } else { shade(STONE) }
        }
        TileKind::Glyph => {
            // A carved ring with a dot: a simple temple sun.
            let r2 = cx * cx + cy * cy;
            if (64..=110).contains(&r2) || r2 <= 6 {
                CARVED
            } else {
                shade(STONE)
            }
        }
        TileKind::Gold => {
            let inset = (6..=last - 6).contains(&px) && (6..=last - 6).contains(&py);
            if inset { shade(GOLD) } else { shade(STONE) }
        }
    }
}
