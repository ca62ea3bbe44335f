//! The title menu's panel fills, painted by the scene under egui (see `theme::backdrops`): egui's
//! own shader converts every pixel it fills between sRGB and linear light twice, which under
//! software rendering made the panels' fills cost more than the whole tile field under them. The
//! fills are tessellated by egui's own tessellator, so their shape and soft edges are egui's, and
//! drawn with egui's blending by a plain vertex-colour material.

use super::BACKGROUND_Z;
use crate::game::screens::{Menu, Screen};
use crate::game::theme::backdrops::{self, Backdrop};
use bevy::asset::{AssetPath, RenderAssetUsages, embedded_asset, embedded_path};
use bevy::mesh::{Indices, MeshVertexBufferLayoutRef, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, BlendState, RenderPipelineDescriptor, SpecializedMeshPipelineError,
};
use bevy::shader::ShaderRef;
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dKey, Material2dPlugin};
use bevy::window::PrimaryWindow;
use bevy_egui::egui::epaint;
use bevy_egui::{EguiContexts, egui};

/// How many fills the scene paints: enough for the main menu's panel and buttons and the footer.
const SLOTS: usize = 32;

pub(super) fn plugin(app: &mut App) {
    embedded_asset!(app, "panel_fill.wgsl");
    app.add_plugins(Material2dPlugin::<PanelFill>::default())
        .add_systems(OnExit(Screen::Title), withdraw_offer)
        // After the frame's egui pass (in PostUpdate) has laid the panels out.
        .add_systems(Last, paint_panel_fills.run_if(in_state(Screen::Title)));
}

/// The mesh of the panels' fills, and the fills it was last made from.
#[derive(Component, Default)]
struct PanelFills {
    painted: Vec<Backdrop>,
}

/// Vertex colours, linear and premultiplied, blended as egui blends.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
struct PanelFill {}

impl Material2d for PanelFill {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(
            AssetPath::from_path_buf(embedded_path!("panel_fill.wgsl")).with_source("embedded"),
        )
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        AlphaMode2d::Blend
    }

    fn specialize(
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        _key: Material2dKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        // egui's colours are premultiplied, and so is its blending.
        if let Some(fragment) = descriptor.fragment.as_mut() {
            for target in fragment.targets.iter_mut().flatten() {
                target.blend = Some(BlendState::PREMULTIPLIED_ALPHA_BLENDING);
            }
        }
        Ok(())
    }
}

/// Takes the fills egui handed over this frame, remakes their mesh when they changed, and offers
/// the slots again for the next frame.
fn paint_panel_fills(
    mut commands: Commands,
    mut contexts: EguiContexts,
    menu: Res<State<Menu>>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    mut fills: Query<(&mut Mesh2d, &mut PanelFills, &mut Visibility)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<PanelFill>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let taken = backdrops::take(ctx);
    // Only the main menu is known to keep its panels side by side. A page's panels may come to
    // overlap (the footer under a tall page), and a fill painted under all of egui would let what
    // lies beneath show through.
    let slots = if *menu.get() == Menu::Main { SLOTS } else { 0 };
    backdrops::offer(ctx, slots);
    let mut existing = fills.single_mut().ok();
    // Most frames the panels stand still: only a change remakes the mesh.
    if let Some((_, fills, _)) = &existing
        && fills.painted == taken
    {
        return Ok(());
    }
    let pixels_per_point = ctx.pixels_per_point();
    let tessellated = tessellate(&taken, pixels_per_point);
    if tessellated.is_empty() {
        // Nothing to paint; a mesh of nothing would be an empty buffer, which the renderer refuses.
        if let Some((_, fills, visibility)) = &mut existing {
            **visibility = Visibility::Hidden;
            fills.painted = taken;
        }
        return Ok(());
    }
    let window_scale = window.map_or(1.0, |window| window.scale_factor());
    let centre = ctx.content_rect().center();
    let mesh = bevy_mesh(
        &tessellated,
        Vec2::new(centre.x, centre.y),
        pixels_per_point / window_scale,
    );
    match existing {
        Some((mut handle, mut fills, mut visibility)) => {
            // A new asset rather than a new value for the old one: the renderer keeps no copy of
            // a render-world mesh to change, and the old one is freed with its last handle.
            handle.0 = meshes.add(mesh);
            *visibility = Visibility::Inherited;
            fills.painted = taken;
        }
        None => {
            commands.spawn((
                Name::new("Panel fills"),
                Mesh2d(meshes.add(mesh)),
                MeshMaterial2d(materials.add(PanelFill {})),
                // Just over the tile field.
                Transform::from_xyz(0.0, 0.0, BACKGROUND_Z + 1.0),
                PanelFills { painted: taken },
                DespawnOnExit(Screen::Title),
            ));
        }
    }
    Ok(())
}

/// Off the title, egui paints its panels' fills itself again.
fn withdraw_offer(mut contexts: EguiContexts) -> Result {
    backdrops::offer(contexts.ctx_mut()?, 0);
    Ok(())
}

/// The fills as egui's tessellator makes them, soft edges included, in egui's points.
fn tessellate(fills: &[Backdrop], pixels_per_point: f32) -> epaint::Mesh {
    let mut tessellator = epaint::Tessellator::new(
        pixels_per_point,
        epaint::TessellationOptions::default(),
        [1, 1],
        Vec::new(),
    );
    let mut mesh = epaint::Mesh::default();
    for fill in fills {
        let shape = epaint::RectShape::filled(fill.rect, fill.corner_radius, fill.fill);
        tessellator.tessellate_rect(&shape, &mut mesh);
    }
    mesh
}

/// A Bevy mesh of an egui mesh: points measured from the top left of a window whose centre is
/// `centre` become world units from the middle (`logical_per_point` each, y up), and egui's
/// premultiplied sRGB colours become premultiplied linear ones, which is what egui's shader
/// computes before blending.
fn bevy_mesh(mesh: &epaint::Mesh, centre: Vec2, logical_per_point: f32) -> Mesh {
    let positions: Vec<[f32; 3]> = mesh
        .vertices
        .iter()
        .map(|vertex| {
            let offset = (Vec2::new(vertex.pos.x, vertex.pos.y) - centre) * logical_per_point;
            [offset.x, -offset.y, 0.0]
        })
        .collect();
    let colours: Vec<[f32; 4]> = mesh
        .vertices
        .iter()
        .map(|vertex| {
            let [r, g, b, a] = vertex.color.to_array();
            let linear = egui::ecolor::linear_f32_from_gamma_u8;
            [linear(r), linear(g), linear(b), f32::from(a) / 255.0]
        })
        .collect();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours)
    .with_inserted_indices(Indices::U32(mesh.indices.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::mesh::VertexAttributeValues;

    #[test]
    fn a_fill_lands_where_egui_would_paint_it_in_the_colour_egui_blends() {
        let fill = Backdrop {
            rect: egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(100.0, 50.0)),
            corner_radius: 0.0,
            fill: egui::Color32::from_rgba_premultiplied(16, 12, 9, 242),
            order: egui::Order::Middle,
        };
        // A 200 x 100 window at two pixels a point: the fill is its top left quarter.
        let mesh = bevy_mesh(&tessellate(&[fill], 2.0), Vec2::new(100.0, 50.0), 2.0);
        let Some(VertexAttributeValues::Float32x3(positions)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions")
        };
        let (mut low, mut high) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for position in positions {
            low = low.min(Vec2::new(position[0], position[1]));
            high = high.max(Vec2::new(position[0], position[1]));
        }
        // The soft edge reaches half a pixel past the rectangle, a quarter of a point here.
        assert!(
            (low - Vec2::new(-200.0, 0.0)).abs().max_element() <= 0.5 + 1e-3,
            "{low}"
        );
        assert!(
            (high - Vec2::new(0.0, 100.0)).abs().max_element() <= 0.5 + 1e-3,
            "{high}"
        );
        let Some(VertexAttributeValues::Float32x4(colours)) = mesh.attribute(Mesh::ATTRIBUTE_COLOR)
        else {
            panic!("colours")
        };
        let solid = colours
            .iter()
            .find(|colour| colour[3] > 0.9)
            .expect("the inside is solid");
        let linear = egui::ecolor::linear_f32_from_gamma_u8(16);
        assert!((solid[0] - linear).abs() < 1e-6);
        assert!((solid[3] - 242.0 / 255.0).abs() < 1e-6);
        assert!(
            colours.iter().any(|colour| colour[3] == 0.0),
            "the edge fades out"
        );
    }
}
