//! Wanderers mode: the drawing. The field as one texture (a texel per cell), NPCs at their body
//! size in their own colours with home markers, targets and tethers on T, the selected NPC's raw
//! and smoothed paths, clicking to select, and the egui side panel with settings and statistics.

use super::options::{FIELD_HEIGHT, FIELD_WIDTH, MAX_COUNT, MAX_DENSITY, WanderersOptions};
use super::{SelectedNpc, SelectedRoute, WanderersRun, WanderersStats, start_sandbox};
use crate::game::menu::MenuInput;
use crate::game::menu::ui::{DIM, GOLD, PANEL, SAND};
use crate::game::screens::{AppSystems, Screen};
use crate::game::settings::Settings;
use crate::logic::field::ObstacleField;
use crate::logic::sandbox::FootprintMix;
use crate::logic::smoothing::FarthestSearch;
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_egui::egui::{self, RichText};
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// Width of the side panel, in logical pixels; the field is fitted beside it.
const PANEL_WIDTH: f32 = 300.0;
/// Stone and open ground, as RGBA texels.
const STONE: [u8; 4] = [58, 52, 48, 255];
const GROUND: [u8; 4] = [112, 132, 84, 255];
/// How close a click must be to an NPC to select it, in cells.
const CLICK_REACH: f32 = 2.5;
/// Raw A* paths.
const RAW_PATH: Color = Color::srgb(1.0, 0.55, 0.2);
/// Smoothed paths.
const SMOOTH_PATH: Color = Color::srgb(0.3, 0.95, 1.0);
/// Targets and tethers.
const TETHER: Color = Color::srgba(1.0, 1.0, 1.0, 0.25);

pub(in crate::game) fn plugin(app: &mut App) {
    let shown = in_state(Screen::Wanderers).and_then(resource_exists::<WanderersRun>);
    app.add_systems(
        OnEnter(Screen::Wanderers),
        spawn_field_view.after(start_sandbox),
    )
    .add_systems(
        OnExit(Screen::Wanderers),
        crate::game::end_mode_view::<DrawnGeneration>,
    )
    .add_systems(
        Update,
        select_with_click
            .in_set(AppSystems::RecordInput)
            .run_if(shown.clone()),
    )
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
            .run_if(shown.clone()),
    )
    .add_systems(EguiPrimaryContextPass, draw_side_panel.run_if(shown));
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
fn to_grid(world: Vec2) -> [f32; 2] {
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

/// Clicking selects the nearest NPC within reach (or clears the selection).
fn select_with_click(
    buttons: Res<ButtonInput<MouseButton>>,
    wants: Option<Res<EguiWantsInput>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    run: Res<WanderersRun>,
    mut selected: ResMut<SelectedNpc>,
) {
    if !buttons.just_pressed(MouseButton::Left) || wants.is_some_and(|w| w.wants_pointer_input()) {
        return;
    }
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    let (camera, transform) = *camera;
    let Ok(world) = camera.viewport_to_world_2d(transform, cursor) else {
        return;
    };
    let [x, y] = to_grid(world);
    let nearest = run
        .sandbox
        .crowd
        .position
        .iter()
        .enumerate()
        .map(|(i, p)| (i, (p[0] - x).hypot(p[1] - y)))
        .filter(|&(_, d)| d <= CLICK_REACH)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    selected.0 = nearest.map(|(i, _)| i);
}

/// Targets and tethers (T), and the selected NPC with its raw (thin) and smoothed (thick) path.
fn draw_overlays(
    run: Res<WanderersRun>,
    settings: Res<Settings>,
    selected: Res<SelectedNpc>,
    route: Option<Res<SelectedRoute>>,
    mut gizmos: Gizmos,
) {
    let sandbox = &run.sandbox;
    if settings.wanderers.show_targets {
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
    gizmos.circle_2d(at, 2.0, GOLD_COLOUR);
    if !settings.wanderers.show_paths {
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

/// The selection ring.
const GOLD_COLOUR: Color = Color::srgb(0.91, 0.73, 0.33);

/// The side panel: live statistics, the selected NPC's path counts, and every setting.
fn draw_side_panel(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    stats: Option<Res<WanderersStats>>,
    route: Option<Res<SelectedRoute>>,
    selected: Res<SelectedNpc>,
    time: Res<Time<Real>>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut options = settings.wanderers;
    let height = ctx.content_rect().height();
    egui::Area::new(egui::Id::new("wanderers-panel"))
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL)
                .inner_margin(egui::Margin::symmetric(12, 10))
                .show(ui, |ui| {
                    ui.set_width(PANEL_WIDTH - 24.0);
                    ui.set_max_width(PANEL_WIDTH - 24.0);
                    ui.set_min_height(height - 20.0);
                    ui.label(RichText::new("Wanderers").size(22.0).color(GOLD));
                    statistics(ui, stats.as_deref(), time.delta_secs());
                    ui.separator();
                    selection(ui, selected.0, route.as_deref());
                    ui.separator();
                    controls(ui, &mut options);
                    ui.add_space(6.0);
                    ui.label(
                        RichText::new("Click an NPC to see its paths   T targets   Esc pause")
                            .size(13.0)
                            .color(DIM),
                    );
                });
        });
    if options != settings.wanderers {
        writer.write(MenuInput::WanderersOptionsSet(options));
    }
    Ok(())
}

fn stat_row(ui: &mut egui::Ui, name: &str, value: String) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(name).size(14.0).color(DIM));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(RichText::new(value).size(15.0).color(SAND).strong());
        });
    });
}

fn statistics(ui: &mut egui::Ui, stats: Option<&WanderersStats>, frame_s: f32) {
    let stats = stats.copied().unwrap_or_default();
    stat_row(ui, "NPCs", stats.npcs.to_string());
    stat_row(
        ui,
        "Replans per second",
        format!("{:.0}", stats.replans_per_second),
    );
    stat_row(
        ui,
        "Waypoints raw -> smoothed",
        format!(
            "{:.1} -> {:.1}",
            stats.mean_raw_waypoints, stats.mean_smoothed_waypoints
        ),
    );
    stat_row(
        ui,
        "Turns per NPC per second",
        format!("{:.3}", stats.turns_per_npc_per_second),
    );
    stat_row(ui, "Waiting for a plan", stats.waiting.to_string());
    stat_row(ui, "Frame time", format!("{:.1} ms", frame_s * 1000.0));
}

fn selection(ui: &mut egui::Ui, selected: Option<usize>, route: Option<&SelectedRoute>) {
    match (selected, route) {
        (Some(npc), Some(route)) if route.npc == npc => {
            ui.label(RichText::new(format!("NPC {npc}")).color(GOLD));
            let counts = |nodes: usize, turns: usize| {
                let s = |n: usize| if n == 1 { "" } else { "s" };
                format!("{nodes} node{}, {turns} turn{}", s(nodes), s(turns))
            };
            stat_row(
                ui,
                "A* path (thin)",
                counts(route.raw.len(), route.raw_turns),
            );
            stat_row(
                ui,
                "Smoothed (thick)",
                counts(route.smoothed.len(), route.smoothed_turns),
            );
        }
        (Some(npc), _) => {
            ui.label(
                RichText::new(format!("NPC {npc}: walking straight, no route yet")).color(SAND),
            );
        }
        (None, _) => {
            ui.label(RichText::new("No NPC selected").color(DIM));
        }
    }
}

fn controls(ui: &mut egui::Ui, options: &mut WanderersOptions) {
    ui.spacing_mut().slider_width = 100.0;
    let label = |text: &str| RichText::new(text).size(14.0);
    let mut count = options.count as u32;
    ui.add(
        egui::Slider::new(&mut count, 1..=MAX_COUNT as u32)
            .logarithmic(true)
            .text(label("NPCs")),
    );
    options.count = count as usize;
    let o = options;
    ui.add(
        egui::Slider::new(&mut o.wander_max_distance, 0.5..=30.0).text(label("wander distance")),
    );
    ui.add(egui::Slider::new(&mut o.noise_speed, 0.01..=2.0).text(label("noise speed")));
    ui.add(
        egui::Slider::new(&mut o.movement_strength, 0.1..=20.0).text(label("movement strength")),
    );
    ui.add(egui::Slider::new(&mut o.arrive_radius, 0.1..=5.0).text(label("arrive radius")));
    ui.add(egui::Slider::new(&mut o.refresh_every, 1..=30).text(label("refresh every (steps)")));
    ui.add(egui::Slider::new(&mut o.density, 0.0..=MAX_DENSITY).text(label("stone density")));
    let options = o;
    egui::ComboBox::from_id_salt("footprints")
        .selected_text(options.footprints.label())
        .show_ui(ui, |ui| {
            for mix in FootprintMix::ALL {
                ui.selectable_value(&mut options.footprints, mix, mix.label());
            }
        });
    ui.horizontal(|ui| {
        ui.label(RichText::new("farthest node").color(DIM));
        for search in FarthestSearch::ALL {
            ui.radio_value(&mut options.search, search, search.name());
        }
    });
    ui.checkbox(&mut options.show_targets, "show targets and tethers (T)");
    ui.checkbox(&mut options.show_paths, "show the selected NPC's paths");
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
