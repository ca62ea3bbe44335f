//! The meshes and materials the top-down view shares: one circle mesh per radius, one arrow and
//! one material per colour, made once and handed out again.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::collections::HashMap;

/// Meshes and materials already made.
#[derive(Resource, Debug, Default)]
pub(super) struct PaletteCache {
    circles: HashMap<u32, Handle<Mesh>>,
    arrow: Option<Handle<Mesh>>,
    materials: HashMap<[u8; 4], Handle<ColorMaterial>>,
}

/// Hands out shared meshes and materials, making each the first time it is asked for.
#[derive(SystemParam)]
pub(super) struct Palette<'w> {
    cache: ResMut<'w, PaletteCache>,
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<ColorMaterial>>,
}

impl Palette<'_> {
    /// A disc of `radius` metres in `colour`.
    pub fn circle(
        &mut self,
        radius: f32,
        colour: Color,
    ) -> (Mesh2d, MeshMaterial2d<ColorMaterial>) {
        let meshes = &mut self.meshes;
        let mesh = self
            .cache
            .circles
            .entry(radius.to_bits())
            .or_insert_with(|| meshes.add(Circle::new(radius)))
            .clone();
        (Mesh2d(mesh), self.material(colour))
    }

    /// The arrow that shows the way at a junction, pointing up (+y) before it is turned.
    pub fn arrow(&mut self, colour: Color) -> (Mesh2d, MeshMaterial2d<ColorMaterial>) {
        let meshes = &mut self.meshes;
        let mesh = self
            .cache
            .arrow
            .get_or_insert_with(|| {
                meshes.add(Triangle2d::new(
                    Vec2::new(0.0, 1.6),
                    Vec2::new(-1.3, -1.0),
                    Vec2::new(1.3, -1.0),
                ))
            })
            .clone();
        (Mesh2d(mesh), self.material(colour))
    }

    fn material(&mut self, colour: Color) -> MeshMaterial2d<ColorMaterial> {
        let materials = &mut self.materials;
        MeshMaterial2d(
            self.cache
                .materials
                .entry(colour.to_srgba().to_u8_array())
                .or_insert_with(|| materials.add(colour))
                .clone(),
        )
    }
}
