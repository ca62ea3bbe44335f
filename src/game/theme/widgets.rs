//! The shared egui widgets that know nothing of the menus: styled text, framed rows, panels,
//! HUD bars and figures, and tables of results.

use super::backdrops::{Backdrop, hand_over, show_frame};
use super::{AMBER, DIM, GOLD, PANEL, PANEL_EDGE, SAND, text};
use bevy_egui::egui::{self, Color32, RichText};

/// The width of menu buttons, in points: panels leave room for them.
pub const BUTTON_WIDTH: f32 = 300.0;

/// Text of one of the named sizes in one of the palette's colours.
pub fn styled(words: impl Into<String>, size: f32, colour: Color32) -> RichText {
    RichText::new(words).size(size).color(colour)
}

/// A framed row that shows the keyboard cursor on a whole line (seed, difficulty, a setting).
pub fn cursor_row<R>(
    ui: &mut egui::Ui,
    highlighted: bool,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let stroke = if highlighted {
        egui::Stroke::new(1.5, GOLD.egui())
    } else {
        egui::Stroke::NONE
    };
    egui::Frame::new()
        .stroke(stroke)
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(8, 4))
        .show(ui, |ui| ui.horizontal(add_contents).inner)
        .inner
}

/// A dim name over a group of rows.
pub fn section_label(ui: &mut egui::Ui, name: &str) {
    ui.label(styled(name, text::NOTE, DIM.egui()));
}

/// A dim line of small print.
pub fn note(ui: &mut egui::Ui, words: impl Into<String>) {
    ui.label(styled(words, text::SMALL, DIM.egui()));
}

/// A warning line.
pub fn warning(ui: &mut egui::Ui, words: impl Into<String>) {
    ui.label(styled(words, text::NOTE, AMBER.egui()));
}

/// A dark rounded panel in the middle of the window.
pub fn centered_panel(ctx: &egui::Context, id: &str, add_contents: impl FnOnce(&mut egui::Ui)) {
    panel_at(
        ctx,
        id,
        egui::Align2::CENTER_CENTER,
        // A little above the middle, clear of the title screen's footer.
        egui::vec2(0.0, -12.0),
        add_contents,
    );
}

/// Where the title screen's panel starts: below the game's name, its motto and the coins banked.
const BELOW_TITLE: f32 = 168.0;

/// Room the title screen keeps under its panel for the footer, in points.
const FOOTER_ROOM: f32 = 50.0;
/// The panel's inner margin, in points.
const PANEL_MARGIN: f32 = 24.0;
/// The least height the title screen's panel scrolls in, in points: a few rows, however small
/// the window.
const LEAST_PANEL_ROOM: f32 = 150.0;

/// A panel centred across the window that starts below the title screen's heading, however tall
/// it grows, so it never covers the heading. What does not fit above the footer scrolls (a large
/// UI size in a small window).
pub fn panel_below_title(ctx: &egui::Context, id: &str, add_contents: impl FnOnce(&mut egui::Ui)) {
    let room = ctx.content_rect().height() - BELOW_TITLE - 2.0 * PANEL_MARGIN - FOOTER_ROOM;
    panel_at(
        ctx,
        id,
        egui::Align2::CENTER_TOP,
        egui::vec2(0.0, BELOW_TITLE),
        |ui| {
            // An area's room starts at egui's default size, shorter than the window.
            let room = room.max(LEAST_PANEL_ROOM);
            ui.set_max_height(room);
            egui::ScrollArea::vertical()
                .max_height(room)
                .show(ui, |ui| ui.vertical_centered(add_contents));
        },
    );
}

/// The game's panel, anchored to the window at `anchor` moved by `offset`.
fn panel_at(
    ctx: &egui::Context,
    id: &str,
    anchor: egui::Align2,
    offset: egui::Vec2,
    add_contents: impl FnOnce(&mut egui::Ui),
) {
    egui::Area::new(egui::Id::new(id))
        .anchor(anchor, offset)
        .show(ctx, |ui| {
            let frame = egui::Frame::new()
                .fill(PANEL)
                .stroke(egui::Stroke::new(1.0, PANEL_EDGE.egui()))
                .corner_radius(12.0)
                .inner_margin(PANEL_MARGIN);
            show_frame(ui, frame, |ui| {
                ui.set_min_width(BUTTON_WIDTH + 40.0);
                ui.vertical_centered(add_contents);
            });
        });
}

/// A centred panel over the dimmed game: pause and results.
pub fn modal_panel(ctx: &egui::Context, id: &str, add_contents: impl FnOnce(&mut egui::Ui)) {
    dim_background(ctx);
    centered_panel(ctx, id, add_contents);
}

/// Dims whatever is behind a modal panel.
pub fn dim_background(ctx: &egui::Context) {
    let dimming = Backdrop {
        rect: ctx.content_rect(),
        corner_radius: 0.0,
        fill: Color32::from_black_alpha(150),
        order: egui::Order::Background,
    };
    if !hand_over(ctx, dimming) {
        ctx.layer_painter(egui::LayerId::background()).rect_filled(
            dimming.rect,
            dimming.corner_radius,
            dimming.fill,
        );
    }
}

fn high_contrast_id() -> egui::Id {
    egui::Id::new("high-contrast HUD")
}

/// Sets whether HUDs are drawn in high contrast.
pub fn set_high_contrast_hud(ctx: &egui::Context, on: bool) {
    ctx.data_mut(|data| data.insert_temp(high_contrast_id(), on));
}

/// Whether HUDs are drawn in high contrast: solid black, light names, white values.
fn high_contrast_hud(ctx: &egui::Context) -> bool {
    ctx.data(|data| data.get_temp(high_contrast_id()).unwrap_or(false))
}

/// The colour of a HUD's small print (names, keys, what is played): dim, or light in high
/// contrast.
fn hud_small_print(ui: &egui::Ui) -> Color32 {
    if high_contrast_hud(ui.ctx()) {
        SAND.egui()
    } else {
        DIM.egui()
    }
}

/// A bar across the top of the window for a mode's HUD.
pub fn hud_bar(ctx: &egui::Context, id: &str, add_contents: impl FnOnce(&mut egui::Ui)) {
    let width = ctx.content_rect().width();
    let fill = if high_contrast_hud(ctx) {
        Color32::BLACK
    } else {
        PANEL
    };
    egui::Area::new(egui::Id::new(id))
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(fill)
                .inner_margin(egui::Margin::symmetric(14, 6))
                .show(ui, |ui| {
                    ui.set_width(width - 28.0);
                    add_contents(ui);
                });
        });
}

/// How far below the top of the window a HUD tip stands, in points: under the HUD bar.
const TIP_TOP: f32 = 84.0;
/// How far above the bottom of the window a HUD tip stands there, in points.
const TIP_BOTTOM: f32 = 24.0;

/// Where a HUD tip stands: centred under the HUD bar, or along the bottom of the window (out of
/// the way of what the player is looking at in the top half).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TipPlace {
    /// Under the HUD bar.
    Top,
    /// Along the bottom.
    Bottom,
}

/// A tip from a guide: what is coming in gold, and what to do about it. `urgent` (the moment
/// to act) draws the instruction larger and in amber, in an amber frame.
pub fn hud_tip(
    ctx: &egui::Context,
    id: &str,
    place: TipPlace,
    (heading, instruction): (&str, &str),
    urgent: bool,
) {
    let (align, offset) = match place {
        TipPlace::Top => (egui::Align2::CENTER_TOP, egui::vec2(0.0, TIP_TOP)),
        TipPlace::Bottom => (egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -TIP_BOTTOM)),
    };
    let contrast = high_contrast_hud(ctx);
    let fill = if contrast { Color32::BLACK } else { PANEL };
    let (edge, size, colour) = if urgent {
        (AMBER.egui(), text::HEADING * 0.8, AMBER.egui())
    } else if contrast {
        (GOLD.egui(), text::BODY, Color32::WHITE)
    } else {
        (GOLD.egui(), text::BODY, SAND.egui())
    };
    egui::Area::new(egui::Id::new(id))
        .anchor(align, offset)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(fill)
                .stroke(egui::Stroke::new(2.0, edge))
                .corner_radius(8.0)
                .inner_margin(egui::Margin::symmetric(18, 10))
                .show(ui, |ui| {
                    // One line each, however narrow the area starts: a key name wrapped onto
                    // a line of its own reads as a second instruction.
                    ui.vertical_centered(|ui| {
                        let heading = styled(heading, text::PANEL_TITLE, GOLD.egui()).strong();
                        ui.add(egui::Label::new(heading).extend());
                        let instruction = styled(instruction, size, colour).strong();
                        ui.add(egui::Label::new(instruction).extend());
                    });
                });
        });
}

/// One figure in a HUD bar: a dim name, then its value.
pub fn hud_figure(ui: &mut egui::Ui, name: &str, value: String) {
    hud_figure_popped(ui, name, value, 0.0);
}

/// A HUD figure that has just changed: `pop` from 1 (this moment, larger and gold) down to 0
/// (as [`hud_figure`]).
pub fn hud_figure_popped(ui: &mut egui::Ui, name: &str, value: String, pop: f32) {
    let pop = pop.clamp(0.0, 1.0);
    ui.label(styled(name, text::NOTE, hud_small_print(ui)));
    let size = text::HUD_VALUE * (1.0 + 0.45 * pop);
    let colour = if pop > 0.0 {
        GOLD.egui()
    } else if high_contrast_hud(ui.ctx()) {
        Color32::WHITE
    } else {
        SAND.egui()
    };
    ui.label(styled(value, size, colour).strong());
    ui.add_space(10.0);
}

/// A badge in a HUD bar that says the computer is playing.
pub fn hud_badge(ui: &mut egui::Ui, words: &str) {
    ui.label(styled(words, text::BADGE, GOLD.egui()).strong());
}

/// A warning in a HUD bar's row, in amber: something the player must act on now.
pub fn hud_alert(ui: &mut egui::Ui, words: &str) {
    ui.label(styled(words, text::BADGE, AMBER.egui()).strong());
}

/// What is being played (seed, size, difficulty), at the right end of a HUD bar's row, cut
/// short with an ellipsis where the figures leave too little room (a large UI size).
pub fn hud_identity(ui: &mut egui::Ui, words: String) {
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        let colour = hud_small_print(ui);
        ui.add(egui::Label::new(styled(words, text::NOTE, colour)).truncate());
    });
}

/// A line of the keys a screen answers, in small print.
pub fn keys_hint(ui: &mut egui::Ui, keys: &str) {
    let colour = hud_small_print(ui);
    ui.label(styled(keys, text::KEYS, colour));
}

/// Figures as a two-column table of names and values.
pub fn results_table(ui: &mut egui::Ui, id: &str, rows: &[(String, String)]) {
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([24.0, 4.0])
        .show(ui, |ui| {
            for (name, value) in rows {
                ui.label(RichText::new(name).color(DIM.egui()));
                ui.label(RichText::new(value).color(SAND.egui()).strong());
                ui.end_row();
            }
        });
}

/// A statistic on one line of a side panel: its name at the left, its value at the right.
pub fn stat_row(ui: &mut egui::Ui, name: &str, value: String) {
    ui.horizontal(|ui| {
        ui.label(styled(name, text::SMALL, DIM.egui()));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(styled(value, text::NOTE, SAND.egui()).strong());
        });
    });
}
