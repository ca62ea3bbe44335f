//! The maze's textures drawn in one pass instead of one sprite each: the walls, the searched
//! cells, the ghost's trail, the player's trail, the darkness and the hint, blended back to front
//! by one quad's shader ([`LayerStack`]). A pixel of the maze is then written once a frame, not
//! once per layer: the layers were most of a maze frame's time under software rendering. The
//! drawing's plugins paint their own layer's texture and hand it over with [`MazeLayers::set`];
//! what stands on the maze (shrines, guardians, the player) is drawn over it.

use super::generation::start_maze;
use super::view::{CLEAR, world_size};
use crate::game::maze::CurrentMaze;
use bevy::asset::{AssetPath, RenderAssetUsages, embedded_asset, embedded_path};
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, Extent3d, TextureDimension, TextureFormat};
use bevy::shader::ShaderRef;
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dPlugin};

/// Under everything that stands on the maze.
const LAYERS_Z: f32 = 0.0;

/// A texture of the maze's drawing, back to front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layer {
    /// Walls, floor, entrance and exit (opaque).
    Walls,
    /// The cells A* searched for the hint.
    Searched,
    /// The ghost's trail.
    GhostTrail,
    /// The player's trail and the way back after a catch.
    Trail,
    /// The torch's darkness, sampled smoothly.
    Darkness,
    /// The hint's path, over the darkness so it shows its way through the dark.
    Hint,
}

/// Every layer, back to front.
const STACK: [Layer; 6] = [
    Layer::Walls,
    Layer::Searched,
    Layer::GhostTrail,
    Layer::Trail,
    Layer::Darkness,
    Layer::Hint,
];

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    embedded_asset!(app, "layer_stack.wgsl");
    app.add_plugins(Material2dPlugin::<LayerStack>::default())
        .init_resource::<MazeLayers>()
        .configure_sets(
            OnEnter(super::SCREEN),
            PaintLayers.after(start_maze).before(spawn_layer_stack),
        )
        .add_systems(OnEnter(super::SCREEN), spawn_layer_stack);
}

/// The systems that paint the layers of a new maze and hand them to [`MazeLayers`], before the
/// stack is made of them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct PaintLayers;

/// The layers handed over for the maze being entered; a layer a maze has none of (no torch, no
/// ghost) stays clear.
#[derive(Resource, Debug, Default)]
pub(super) struct MazeLayers {
    textures: Vec<(Layer, Handle<Image>)>,
}

impl MazeLayers {
    /// Hands over `layer`'s texture, a texel per wall-grid square over the whole maze.
    pub(super) fn set(&mut self, layer: Layer, texture: Handle<Image>) {
        self.textures.retain(|(held, _)| *held != layer);
        self.textures.push((layer, texture));
    }

    fn get(&self, layer: Layer) -> Option<&Handle<Image>> {
        self.textures
            .iter()
            .find(|(held, _)| *held == layer)
            .map(|(_, texture)| texture)
    }
}

/// The six layers' textures over a quad, blended back to front in its shader: what drawing each
/// as a sprite of its own over the ones before it shows, in one pass. Each texture keeps its own
/// sampler (the darkness is sampled smoothly, the others texel by texel).
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub(super) struct LayerStack {
    #[texture(0)]
    #[sampler(1)]
    walls: Handle<Image>,
    #[texture(2)]
    #[sampler(3)]
    searched: Handle<Image>,
    #[texture(4)]
    #[sampler(5)]
    ghost_trail: Handle<Image>,
    #[texture(6)]
    #[sampler(7)]
    trail: Handle<Image>,
    #[texture(8)]
    #[sampler(9)]
    darkness: Handle<Image>,
    #[texture(10)]
    #[sampler(11)]
    hint: Handle<Image>,
}

impl Material2d for LayerStack {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(
            AssetPath::from_path_buf(embedded_path!("layer_stack.wgsl")).with_source("embedded"),
        )
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        // Blended, although the walls cover every pixel: drawn opaque, the stack took longer
        // under the software rasteriser, and drawing it with blending off took no less time.
        AlphaMode2d::Blend
    }
}

/// One clear texel: the texture of a layer a maze does not have.
fn clear_texel() -> Image {
    let mut image = Image::new_fill(
        Extent3d {
            width: 1,
            height: 1,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &CLEAR,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.sampler = ImageSampler::nearest();
    image
}

/// Makes the stack of the layers handed over, and empties the hand-over for the next maze.
fn spawn_layer_stack(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    mut layers: ResMut<MazeLayers>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<LayerStack>>,
) {
    let layers = std::mem::take(&mut *layers);
    let Some(run) = run else {
        return;
    };
    let clear = images.add(clear_texel());
    let [walls, searched, ghost_trail, trail, darkness, hint] =
        STACK.map(|layer| layers.get(layer).unwrap_or(&clear).clone());
    let stack = LayerStack {
        walls,
        searched,
        ghost_trail,
        trail,
        darkness,
        hint,
    };
    commands.spawn((
        Name::new("Maze layers"),
        Mesh2d(meshes.add(Rectangle::from_size(world_size(&run.maze)))),
        MeshMaterial2d(materials.add(stack)),
        Transform::from_xyz(0.0, 0.0, LAYERS_Z),
        DespawnOnExit(super::SCREEN),
    ));
}
