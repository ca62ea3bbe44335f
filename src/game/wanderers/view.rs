//! Wanderers mode: the drawing. The field as one texture (a texel per cell), every NPC's body and
//! every home marker as two meshes (a few draw calls for any crowd: the bodies' corners are
//! rewritten each frame, the homes only when the sandbox is new), targets and tethers on T, and
//! the selected NPC with its raw and smoothed paths. Seen from far (a cell a few pixels or less),
//! the crowd is painted instead into a second texture over the field ([`super::far_view`]). The
//! camera fits the field beside the side panel, and the wheel zooms.

use super::far_view::{paint_crowd, seen_from_far, texel_colours};
use super::options::WanderersOptions;
use super::panel::PANEL_WIDTH;
use super::selection::{SelectedNpc, SelectedRoute};
use super::steering::{WanderersRun, start_sandbox};
use crate::game::camera::{NoMultisampling, end_mode_view};
use crate::game::screens::AppSystems;
use crate::game::theme::GOLD;
use crate::logic::wanderers::crowd::Body;
use crate::logic::wanderers::field::ObstacleField;
use crate::logic::wanderers::sandbox::Sandbox;
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::NoFrustumCulling;
use bevy::image::ImageSampler;
use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::mesh::{Indices, PrimitiveTopology, VertexAttributeValues};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;

/// Stone and open ground, as RGBA texels.
const STONE: [u8; 4] = [58, 52, 48, 255];
const GROUND: [u8; 4] = [112, 132, 84, 255];
/// Raw A* paths.
const RAW_PATH: Color = Color::srgb(1.0, 0.55, 0.2);
/// Smoothed paths.
const SMOOTH_PATH: Color = Color::srgb(0.3, 0.95, 1.0);
/// Targets and tethers.
const TETHER: Color = Color::srgba(1.0, 1.0, 1.0, 0.25);
/// How much of each side of a body is drawn: a sliver of ground shows between neighbours.
const BODY_DRAWN: f32 = 0.92;
/// Half the diagonal of a home marker, in cells.
const HOME_MARKER: f32 = 0.32;
/// The selected NPC's ring on the base field, in cells.
const SELECTION_RING: f32 = 2.0;
/// The base field's width, in cells: larger fields are drawn smaller.
const BASE_FIELD_WIDTH: f32 = 192.0;
/// How opaque home markers are.
const HOME_ALPHA: f32 = 0.55;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    let shown = in_state(super::SCREEN).and_then(resource_exists::<WanderersRun>);
    app.add_systems(
        OnEnter(super::SCREEN),
        spawn_field_view.after(start_sandbox),
    )
    .add_systems(
        OnExit(super::SCREEN),
        (end_mode_view::<DrawnSandbox>, allow_multisampling),
    )
    .add_systems(
        Update,
        (redraw_new_sandbox, fit_camera, draw_crowd, draw_overlays)
            .chain()
            .in_set(AppSystems::Present)
            .run_if(shown),
    );
}

/// Everything drawn for one sandbox (field, bodies, homes), replaced when it is rebuilt.
#[derive(Component, Debug)]
struct SandboxDrawing;

/// What is drawn of the sandbox: its generation, the bodies' mesh rewritten each frame seen from
/// near, and the crowd's image repainted each frame seen from far.
#[derive(Resource, Debug, Default)]
struct DrawnSandbox {
    generation: Option<u32>,
    bodies: Handle<Mesh>,
    crowd_image: Handle<Image>,
}

/// A drawing of the crowd shown only when the field is seen from far (the crowd's image) or only
/// when it is not (the bodies' and homes' meshes).
#[derive(Component, Debug)]
struct CrowdView {
    far: bool,
}

/// The world point of a position in cell units (x right, y down in the grid; up in the world),
/// with the field's middle at the origin.
fn to_world(field: &ObstacleField, [x, y]: [f32; 2]) -> Vec2 {
    Vec2::new(
        x - field.width() as f32 / 2.0,
        field.height() as f32 / 2.0 - y,
    )
}

/// The grid position of a world point.
pub(super) fn to_grid(field: &ObstacleField, world: Vec2) -> [f32; 2] {
    [
        world.x + field.width() as f32 / 2.0,
        field.height() as f32 / 2.0 - world.y,
    ]
}

/// A colour of its own for NPC `i`: hues a golden angle apart.
pub(super) fn npc_colour(i: usize) -> Color {
    let hue = (i as f32 * 137.507_77) % 360.0;
    Color::hsl(hue, 0.85, 0.6)
}

/// An image of a texel per cell of `field`, filled with `texel`, sampled without smoothing.
fn cell_image(field: &ObstacleField, texel: [u8; 4], usage: RenderAssetUsages) -> Image {
    let mut image = Image::new_fill(
        Extent3d {
            width: field.width() as u32,
            height: field.height() as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &texel,
        TextureFormat::Rgba8UnormSrgb,
        usage,
    );
    image.sampler = ImageSampler::nearest();
    image
}

fn field_image(field: &ObstacleField) -> Image {
    let mut image = cell_image(field, GROUND, RenderAssetUsages::RENDER_WORLD);
    let data = image.data.as_mut().expect("a filled image has data");
    for (id, texel) in data.chunks_exact_mut(4).enumerate() {
        let (x, y) = field.coords(id);
        if field.is_blocked(x as i64, y as i64) {
            texel.copy_from_slice(&STONE);
        }
    }
    image
}

/// Starts the view. The crowd is rectangles on whole cells and the field is drawn texel by texel:
/// multisampling would smooth no edge there, and under software rendering it cost about half of
/// every frame, so the sandbox is drawn without it whatever the anti-aliasing setting says.
fn spawn_field_view(mut commands: Commands) {
    commands.insert_resource(DrawnSandbox::default());
    commands.insert_resource(NoMultisampling);
}

/// Lets the anti-aliasing setting decide again.
fn allow_multisampling(mut commands: Commands) {
    commands.remove_resource::<NoMultisampling>();
}

/// A mesh of one four-cornered shape per NPC (two triangles each), coloured per NPC.
fn quads_mesh(corners: Vec<[f32; 3]>, colours: Vec<[f32; 4]>, usage: RenderAssetUsages) -> Mesh {
    let quads = (corners.len() / 4) as u32;
    let indices = (0..quads)
        .flat_map(|q| [0, 1, 2, 0, 2, 3].map(|corner| q * 4 + corner))
        .collect();
    Mesh::new(PrimitiveTopology::TriangleList, usage)
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, corners)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours)
        .with_inserted_indices(Indices::U32(indices))
}

/// Each NPC's colour, once per corner of its shape.
fn corner_colours(count: usize, alpha: f32) -> Vec<[f32; 4]> {
    (0..count)
        .flat_map(|i| [LinearRgba::from(npc_colour(i).with_alpha(alpha)).to_f32_array(); 4])
        .collect()
}

/// The corners of every body where it stands, counter-clockwise from the bottom left.
fn body_corners(sandbox: &Sandbox, corners: &mut Vec<[f32; 3]>) {
    corners.clear();
    corners.extend((0..sandbox.crowd.len()).flat_map(|i| {
        let body = Body::new(sandbox.footprints[i], sandbox.crowd.position[i]);
        let half = Vec2::from(body.half) * BODY_DRAWN;
        let centre = to_world(&sandbox.field, body.centre);
        [
            centre + Vec2::new(-half.x, -half.y),
            centre + Vec2::new(half.x, -half.y),
            centre + half,
            centre + Vec2::new(-half.x, half.y),
        ]
        .map(|corner| corner.extend(0.0).to_array())
    }));
}

/// (Re)draws the field, the homes and the bodies when the sandbox is new.
fn redraw_new_sandbox(
    mut commands: Commands,
    run: Res<WanderersRun>,
    mut drawn: ResMut<DrawnSandbox>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    old: Query<Entity, With<SandboxDrawing>>,
) {
    if drawn.generation == Some(run.generation) {
        return;
    }
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let sandbox = &run.sandbox;
    let field = &sandbox.field;
    commands.spawn((
        Name::new("Field"),
        SandboxDrawing,
        Sprite {
            image: images.add(field_image(field)),
            custom_size: Some(Vec2::new(field.width() as f32, field.height() as f32)),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, -1.0),
        DespawnOnExit(super::SCREEN),
    ));
    let count = sandbox.crowd.len();
    let homes: Vec<[f32; 3]> = sandbox
        .crowd
        .home
        .iter()
        .flat_map(|&home| {
            let at = to_world(field, home);
            [
                Vec2::new(0.0, -HOME_MARKER),
                Vec2::new(HOME_MARKER, 0.0),
                Vec2::new(0.0, HOME_MARKER),
                Vec2::new(-HOME_MARKER, 0.0),
            ]
            .map(|corner| (at + corner).extend(0.0).to_array())
        })
        .collect();
    let white = materials.add(ColorMaterial::from_color(Color::WHITE));
    commands.spawn((
        Name::new("Homes"),
        SandboxDrawing,
        CrowdView { far: false },
        Mesh2d(meshes.add(quads_mesh(
            homes,
            corner_colours(count, HOME_ALPHA),
            RenderAssetUsages::RENDER_WORLD,
        ))),
        MeshMaterial2d(white.clone()),
        Transform::from_xyz(0.0, 0.0, 0.5),
        DespawnOnExit(super::SCREEN),
    ));
    let mut corners = Vec::with_capacity(count * 4);
    body_corners(sandbox, &mut corners);
    // Kept in the main world too: its corners are rewritten every frame.
    let bodies = meshes.add(quads_mesh(
        corners,
        corner_colours(count, 1.0),
        RenderAssetUsages::default(),
    ));
    commands.spawn((
        Name::new("Bodies"),
        SandboxDrawing,
        CrowdView { far: false },
        Mesh2d(bodies.clone()),
        MeshMaterial2d(white),
        Transform::from_xyz(0.0, 0.0, 1.0),
        // The bodies move; the mesh's first bounds would cull them wrongly.
        NoFrustumCulling,
        DespawnOnExit(super::SCREEN),
    ));
    // Kept in the main world too: repainted every frame the field is seen from far.
    let crowd_image = images.add(cell_image(field, [0; 4], RenderAssetUsages::default()));
    commands.spawn((
        Name::new("Crowd seen from far"),
        SandboxDrawing,
        CrowdView { far: true },
        Sprite {
            image: crowd_image.clone(),
            custom_size: Some(Vec2::new(field.width() as f32, field.height() as f32)),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 1.0),
        Visibility::Hidden,
        DespawnOnExit(super::SCREEN),
    ));
    *drawn = DrawnSandbox {
        generation: Some(run.generation),
        bodies,
        crowd_image,
    };
}

/// Draws the crowd where it stands now: seen from near, the bodies' mesh with its corners
/// rewritten; seen from far, the crowd's image repainted. Only the one shown is drawn.
fn draw_crowd(
    run: Res<WanderersRun>,
    drawn: Res<DrawnSandbox>,
    camera: Single<&Projection, With<Camera2d>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut views: Query<(&mut Visibility, &CrowdView)>,
    mut colours: Local<Vec<[u8; 4]>>,
) {
    // A cell is one world unit, and the camera shows `scale` world units per pixel.
    let from_far = match *camera {
        Projection::Orthographic(ortho) => seen_from_far(1.0 / ortho.scale),
        _ => false,
    };
    for (mut visibility, view) in &mut views {
        visibility.set_if_neq(if view.far == from_far {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
    let sandbox = &run.sandbox;
    if from_far {
        if colours.len() != sandbox.crowd.len() {
            *colours = texel_colours(sandbox.crowd.len());
        }
        if let Some(mut image) = images.get_mut(&drawn.crowd_image)
            && let Some(texels) = image.data.as_mut()
        {
            paint_crowd(sandbox, &colours, texels);
        }
        return;
    }
    let Some(mut mesh) = meshes.get_mut(&drawn.bodies) else {
        return;
    };
    // Written in place: no second copy of every corner each frame.
    if let Some(VertexAttributeValues::Float32x3(corners)) =
        mesh.attribute_mut(Mesh::ATTRIBUTE_POSITION)
    {
        body_corners(sandbox, corners);
    }
}

/// How the field is viewed: `zoom` 1 shows it whole; more magnifies it about `centre`, the world
/// point in the middle of the space beside the panel.
#[derive(Debug, Clone, Copy, PartialEq)]
struct FieldView {
    zoom: f32,
    centre: Vec2,
}

impl Default for FieldView {
    fn default() -> FieldView {
        FieldView {
            zoom: 1.0,
            centre: Vec2::ZERO,
        }
    }
}

/// The most the field is magnified: a one-cell body is then some twenty pixels on the largest field.
const MAX_ZOOM: f32 = 24.0;
/// Each notch of the wheel magnifies or shrinks by this much.
const ZOOM_STEP: f32 = 1.25;

impl FieldView {
    /// The view after zooming by `notches` about the world point `under_cursor`, which stays under
    /// the cursor, on a field of `size`. At zoom 1 the field is centred again; otherwise the
    /// centre stays over the field.
    fn zoomed(self, notches: f32, under_cursor: Vec2, size: Vec2) -> FieldView {
        let zoom = (self.zoom * ZOOM_STEP.powf(notches)).clamp(1.0, MAX_ZOOM);
        if zoom <= 1.0 {
            return FieldView::default();
        }
        // The cursor's point keeps its place on screen: its offset from the centre shrinks with the
        // scale.
        let kept = self.zoom / zoom;
        let centre = under_cursor + (self.centre - under_cursor) * kept;
        FieldView {
            zoom,
            centre: centre.clamp(-size / 2.0, size / 2.0),
        }
    }
}

/// Fits the field in the window beside the side panel, magnified by the mouse wheel about the
/// cursor.
fn fit_camera(
    run: Res<WanderersRun>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
    scroll: Res<AccumulatedMouseScroll>,
    wants: Option<Res<EguiWantsInput>>,
    mut view: Local<FieldView>,
    mut drawn_for: Local<Option<u32>>,
) {
    if *drawn_for != Some(run.generation) {
        // A new sandbox (another size of field) is shown whole.
        *view = FieldView::default();
        *drawn_for = Some(run.generation);
    }
    let size = Vec2::new(
        run.sandbox.field.width() as f32,
        run.sandbox.field.height() as f32,
    );
    let free = Vec2::new((window.width() - PANEL_WIDTH).max(100.0), window.height());
    let fit = (size.x / free.x).max(size.y / free.y) * 1.02;
    let over_panel = wants.is_some_and(|w| w.wants_pointer_input());
    if let (Some(cursor), false) = (window.cursor_position(), over_panel)
        && scroll.delta.y != 0.0
    {
        // The world point under the cursor, as the camera shows it now.
        let scale = fit / view.zoom;
        let from_free_middle = Vec2::new(cursor.x - free.x / 2.0, window.height() / 2.0 - cursor.y);
        let under_cursor = view.centre + from_free_middle * scale;
        *view = view.zoomed(scroll.delta.y.signum(), under_cursor, size);
    }
    let scale = fit / view.zoom;
    let (ref mut transform, ref mut projection) = *camera;
    if let Projection::Orthographic(ortho) = &mut **projection {
        ortho.scale = scale;
    }
    // Shift right by half the panel so the view's centre sits in the space left of it.
    transform.translation.x = view.centre.x + PANEL_WIDTH / 2.0 * scale;
    transform.translation.y = view.centre.y;
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
    let field = &sandbox.field;
    if options.show_targets {
        for i in 0..sandbox.crowd.len() {
            let home = to_world(field, sandbox.crowd.home[i]);
            let target = to_world(field, sandbox.crowd.target[i]);
            gizmos.line_2d(home, target, TETHER);
            gizmos.cross_2d(Isometry2d::from_translation(target), 0.5, npc_colour(i));
        }
    }
    let Some(npc) = selected.0.filter(|&i| i < sandbox.crowd.len()) else {
        return;
    };
    let at = to_world(field, sandbox.crowd.position[npc]);
    // The ring keeps its size on screen however large the field grows with the crowd.
    let ring = SELECTION_RING * field.width() as f32 / BASE_FIELD_WIDTH;
    gizmos.circle_2d(at, ring, GOLD.bevy());
    if !options.show_paths {
        return;
    }
    let Some(route) = route.filter(|r| r.npc == npc) else {
        return;
    };
    let centre = |cell: usize| to_world(field, sandbox.centre(cell));
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
        let field = ObstacleField::open(192, 108);
        let grid = [12.5, 40.25];
        let back = to_grid(&field, to_world(&field, grid));
        assert!((back[0] - grid[0]).abs() < 1e-4 && (back[1] - grid[1]).abs() < 1e-4);
        assert_eq!(to_world(&field, [0.0, 0.0]), Vec2::new(-96.0, 54.0));
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor_and_the_view_on_the_field() {
        let size = Vec2::new(192.0, 108.0);
        let whole = FieldView::default();
        let point = Vec2::new(40.0, -20.0);
        let near = whole.zoomed(2.0, point, size);
        assert!((near.zoom - ZOOM_STEP * ZOOM_STEP).abs() < 1e-5);
        // On screen, a point sits (point - centre) x zoom / fit from the middle: the cursor's
        // point stays where it was.
        let before = (point - whole.centre) * whole.zoom;
        let after = (point - near.centre) * near.zoom;
        assert!((before - after).length() < 1e-4, "{before} {after}");
        // Zooming out all the way shows the whole field again.
        assert_eq!(near.zoomed(-10.0, point, size), whole);
        // The centre never leaves the field, and the zoom has a limit.
        let corner = whole.zoomed(40.0, Vec2::new(500.0, 500.0), size);
        assert_eq!(corner.zoom, MAX_ZOOM);
        assert!(corner.centre.x <= 96.0 && corner.centre.y <= 54.0);
    }

    #[test]
    fn neighbouring_npcs_get_different_colours() {
        assert_ne!(npc_colour(0), npc_colour(1));
        assert_ne!(npc_colour(1), npc_colour(2));
    }
}
