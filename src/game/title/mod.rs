//! The title screen's living background: a seeded field of temple floor tiles drifting slowly,
//! and the menu's panel fills painted over it.

mod panels;

use crate::game::screens::{AppSystems, Screen};
use crate::game::settings::GameSeed;
use crate::logic::title_field::{TileKind, title_tiles};
use bevy::asset::{AssetPath, RenderAssetUsages, embedded_asset, embedded_path};
use bevy::image::{ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
use bevy::mesh::{MeshVertexBufferLayoutRef, VertexAttributeValues};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, CompareFunction, Extent3d, RenderPipelineDescriptor, SpecializedMeshPipelineError,
    TextureDimension, TextureFormat,
};
use bevy::shader::ShaderRef;
use bevy::sprite_render::{Material2d, Material2dKey, Material2dPlugin};

/// Tiles along each side of the background texture.
const FIELD_TILES: usize = 32;
/// Pixels along each side of one tile.
const TILE_PIXELS: usize = 40;
/// Pixels along each side of the whole texture.
const FIELD_PIXELS: usize = FIELD_TILES * TILE_PIXELS;
/// Repeats of the texture along each side of the field: enough to cover a 4K fullscreen window
/// while drifting.
const COPIES: i32 = 5;
/// Drift velocity in pixels per second: slow enough to read the menu over it.
const DRIFT: Vec2 = Vec2::new(-14.0, 9.0);
/// Behind everything else.
pub(super) const BACKGROUND_Z: f32 = -100.0;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    embedded_asset!(app, "field.wgsl");
    app.add_plugins((Material2dPlugin::<TitleField>::default(), panels::plugin))
        .add_systems(OnEnter(Screen::Title), spawn_title_background)
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

/// The tile field: one quad over the whole window, its texture repeated across it.
#[derive(Component)]
struct TitleTiles;

/// The tile field's material: the seed's tiles, opaque (a sprite would blend every pixel).
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
struct TitleField {
    #[texture(0)]
    #[sampler(1)]
    tiles: Handle<Image>,
}

impl Material2d for TitleField {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(
            AssetPath::from_path_buf(embedded_path!("field.wgsl")).with_source("embedded"),
        )
    }

    fn specialize(
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        _key: Material2dKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        // Nothing of the title lies under the field and all of it lies over the field, so the
        // field neither tests depth nor writes it.
        if let Some(depth) = descriptor.depth_stencil.as_mut() {
            depth.depth_compare = Some(CompareFunction::Always);
            depth.depth_write_enabled = Some(false);
        }
        Ok(())
    }
}

fn spawn_title_background(
    mut commands: Commands,
    seed: Res<GameSeed>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<TitleField>>,
) {
    let tiles = images.add(paint_field(seed.0));
    let side = (COPIES * FIELD_PIXELS as i32) as f32;
    let mut quad = Mesh::from(Rectangle::from_length(side));
    // The texture repeats COPIES times along each side of the quad.
    if let Some(VertexAttributeValues::Float32x2(uvs)) = quad.attribute_mut(Mesh::ATTRIBUTE_UV_0) {
        for uv in uvs {
            *uv = uv.map(|v| v * COPIES as f32);
        }
    }
    commands.spawn((
        Name::new("Title tiles"),
        Mesh2d(meshes.add(quad)),
        MeshMaterial2d(materials.add(TitleField { tiles })),
        Transform::from_xyz(0.0, 0.0, BACKGROUND_Z),
        TitleTiles,
        DespawnOnExit(Screen::Title),
    ));
}

/// A new seed shows a new field at once, so the player sees the seed mean something.
fn repaint_title_background_on_new_seed(
    seed: Res<GameSeed>,
    mut images: ResMut<Assets<Image>>,
    fields: Res<Assets<TitleField>>,
) {
    for (_, field) in fields.iter() {
        if let Some(mut image) = images.get_mut(&field.tiles) {
            *image = paint_field(seed.0);
        }
    }
}

fn drift_title_background(
    time: Res<Time<Real>>,
    mut tiles: Query<&mut Transform, With<TitleTiles>>,
) {
    let period = FIELD_PIXELS as f32;
    let shift = (DRIFT * time.elapsed_secs()).rem_euclid(Vec2::splat(period));
    for mut transform in &mut tiles {
        transform.translation.x = shift.x;
        transform.translation.y = shift.y;
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
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        ..ImageSamplerDescriptor::nearest()
    });
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
