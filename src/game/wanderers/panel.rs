//! The wanderers' side panel: live statistics, the selected NPC's path counts, and every setting
//! of the sandbox as rows, whose edits go out as the same [`MenuInput`]s the menus send.

use super::options::WanderersOptions;
use super::selection::{SelectedNpc, SelectedRoute};
use super::stats::WanderersStats;
use super::steering::WanderersRun;
use crate::game::menu::MenuInput;
use crate::game::menu::settings_page::SettingsPage;
use crate::game::menu::widgets::settings_list;
use crate::game::theme::widgets::{keys_hint, stat_row, styled};
use crate::game::theme::{DIM, GOLD, PANEL, SAND, text};
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// Width of the side panel, in logical pixels; the field is fitted beside it.
pub(super) const PANEL_WIDTH: f32 = 300.0;
/// The width of a slider in the panel, in points.
const SLIDER_WIDTH: f32 = 100.0;

pub(super) fn plugin(app: &mut App) {
    if crate::game::screens::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_side_panel
                .run_if(in_state(super::SCREEN).and_then(resource_exists::<WanderersRun>)),
        );
    }
}

fn draw_side_panel(
    mut contexts: EguiContexts,
    options: Res<WanderersOptions>,
    stats: Option<Res<WanderersStats>>,
    route: Option<Res<SelectedRoute>>,
    selected: Res<SelectedNpc>,
    time: Res<Time<Real>>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let height = ctx.content_rect().height();
    let mut inputs = Vec::new();
    egui::Area::new(egui::Id::new("wanderers-panel"))
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            // Opaque, unlike the menus' panels: zoomed in, the field reaches under this column
            // of statistics, and bright bodies showing through made them harder to read.
            egui::Frame::new()
                .fill(PANEL.to_opaque())
                .inner_margin(egui::Margin::symmetric(12, 10))
                .show(ui, |ui| {
                    ui.set_width(PANEL_WIDTH - 24.0);
                    ui.set_max_width(PANEL_WIDTH - 24.0);
                    ui.set_min_height(height - 20.0);
                    ui.label(styled("Wanderers", text::PANEL_TITLE, GOLD.egui()));
                    statistics(ui, stats.as_deref(), time.delta_secs());
                    ui.separator();
                    selection(ui, selected.0, route.as_deref());
                    ui.separator();
                    ui.spacing_mut().slider_width = SLIDER_WIDTH;
                    settings_list(ui, &options.rows(), &mut inputs);
                    ui.add_space(6.0);
                    keys_hint(
                        ui,
                        "Click an NPC to see its paths   Wheel zoom   T targets   Esc pause",
                    );
                });
        });
    writer.write_batch(inputs);
    Ok(())
}

fn statistics(ui: &mut egui::Ui, stats: Option<&WanderersStats>, frame_s: f32) {
    let stats = stats.copied().unwrap_or_default();
    stat_row(ui, "NPCs", stats.npcs.to_string());
    stat_row(ui, "Speed (1 = real time)", format!("{:.2}", stats.speed));
    stat_row(
        ui,
        "Replans per second",
        format!("{:.0}", stats.replans_per_second),
    );
    stat_row(
        ui,
        "Repairs per second",
        format!("{:.0}", stats.repairs_per_second),
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
    stat_row(
        ui,
        "Longest wait for a plan",
        format!("{:.0} ms", stats.longest_plan_wait_s * 1000.0),
    );
    stat_row(ui, "Frame time", format!("{:.1} ms", frame_s * 1000.0));
}

fn selection(ui: &mut egui::Ui, selected: Option<usize>, route: Option<&SelectedRoute>) {
    match (selected, route) {
        (Some(npc), Some(route)) if route.npc == npc => {
            ui.label(RichText::new(format!("NPC {npc}")).color(GOLD.egui()));
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
                RichText::new(format!("NPC {npc}: walking straight, no route yet"))
                    .color(SAND.egui()),
            );
        }
        (None, _) => {
            ui.label(RichText::new("No NPC selected").color(DIM.egui()));
        }
    }
}
