//! The game's look in one place: the palette (each colour defined once, for egui and for Bevy),
//! the named text sizes, the egui style and the shared widgets. It knows nothing of the menus.

pub mod backdrops;
pub mod widgets;

use crate::game::settings::Settings;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub(super) fn plugin(app: &mut App) {
    if crate::game::screens::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            (style_egui.run_if(run_once), follow_display_settings).chain(),
        );
    }
}

/// A colour of the palette as sRGB bytes: one definition that egui, Bevy and the textures the
/// game paints all read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// For egui.
    pub const fn egui(self) -> Color32 {
        Color32::from_rgb(self.0, self.1, self.2)
    }

    /// For Bevy's sprites, meshes and gizmos.
    pub fn bevy(self) -> Color {
        Color::srgb_u8(self.0, self.1, self.2)
    }

    /// A texel of a painted texture, with `alpha` from 0 (clear) to 255 (solid).
    pub const fn texel(self, alpha: u8) -> [u8; 4] {
        [self.0, self.1, self.2, alpha]
    }
}

/// Temple gold: headings, the title, the maze's exit, the selected wanderer's ring.
pub const GOLD: Rgb = Rgb(232, 186, 84);
/// Body text on dark panels.
pub const SAND: Rgb = Rgb(226, 210, 178);
/// Hints and secondary text.
pub const DIM: Rgb = Rgb(160, 148, 126);
/// Warnings.
pub const AMBER: Rgb = Rgb(255, 170, 70);
/// The dark of a temple's inner halls, behind everything.
pub const BACKDROP: Color = Color::srgb(0.07, 0.055, 0.045);
/// Panels drawn over the game or the title background (egui only: premultiplied, see-through).
pub const PANEL: Color32 = Color32::from_rgba_premultiplied(16, 12, 9, 242);
/// The thin frame around centred panels.
const PANEL_EDGE: Rgb = Rgb(90, 70, 40);
/// Selected buttons.
const SELECTION: Rgb = Rgb(150, 104, 30);

/// Named text sizes, in points.
pub mod text {
    /// The game's name on the title screen.
    pub const TITLE: f32 = 60.0;
    /// Dialog and page headings.
    pub const HEADING: f32 = 30.0;
    /// A side panel's title.
    pub const PANEL_TITLE: f32 = 22.0;
    /// Button labels.
    pub const BUTTON: f32 = 20.0;
    /// A figure's value in a HUD.
    pub const HUD_VALUE: f32 = 19.0;
    /// Body text, and the title screen's tagline.
    pub const BODY: f32 = 18.0;
    /// A badge in a HUD (AUTOPILOT, SYSTEM WALK).
    pub const BADGE: f32 = 17.0;
    /// Monospaced text.
    pub const MONO: f32 = 16.0;
    /// Notes, section names, a figure's name in a HUD.
    pub const NOTE: f32 = 15.0;
    /// Small print: previews, hints under a menu, statistics' names.
    pub const SMALL: f32 = 14.0;
    /// Key reminders along the bottom of a HUD.
    pub const KEYS: f32 = 13.0;
}

/// Menus and HUDs are drawn at the size the settings ask for (egui's zoom scales every panel,
/// text and widget alike), and HUDs in the contrast they ask for.
fn follow_display_settings(mut contexts: EguiContexts, settings: Option<Res<Settings>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (scale, high_contrast) = settings.map_or((1.0, false), |settings| {
        (settings.ui_scale, settings.high_contrast_hud)
    });
    if ctx.zoom_factor() != scale {
        ctx.set_zoom_factor(scale);
    }
    widgets::set_high_contrast_hud(ctx, high_contrast);
    Ok(())
}

fn style_egui(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    ctx.set_theme(egui::Theme::Dark);
    // The size is a setting: egui's own Ctrl+plus and Ctrl+minus would change it behind it.
    ctx.options_mut(|options| options.zoom_with_keyboard = false);
    ctx.all_styles_mut(|style| {
        use egui::{FontId, TextStyle};
        style.text_styles = [
            (TextStyle::Heading, FontId::proportional(text::HEADING)),
            (TextStyle::Body, FontId::proportional(text::BODY)),
            (TextStyle::Button, FontId::proportional(text::BUTTON)),
            (TextStyle::Small, FontId::proportional(text::SMALL)),
            (TextStyle::Monospace, FontId::monospace(text::MONO)),
        ]
        .into();
        style.spacing.item_spacing = egui::vec2(10.0, 8.0);
        style.visuals.selection.bg_fill = SELECTION.egui();
        style.visuals.selection.stroke = egui::Stroke::new(1.5, GOLD.egui());
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_definition_gives_the_same_colour_everywhere() {
        let [r, g, b, a] = GOLD.texel(255);
        assert_eq!(GOLD.egui(), Color32::from_rgb(r, g, b));
        assert_eq!(a, 255);
        let bevy = GOLD.bevy().to_srgba();
        assert!((bevy.red * 255.0 - f32::from(r)).abs() < 0.5);
        assert!((bevy.green * 255.0 - f32::from(g)).abs() < 0.5);
        assert!((bevy.blue * 255.0 - f32::from(b)).abs() < 0.5);
    }

    #[test]
    fn a_high_contrast_hud_is_solid_black() {
        let fills = |high_contrast: bool| {
            let ctx = egui::Context::default();
            // No fade-in of the new area, so its fill is as painted.
            ctx.all_styles_mut(|style| style.animation_time = 0.0);
            widgets::set_high_contrast_hud(&ctx, high_contrast);
            let mut output = egui::FullOutput::default();
            // A new area shows from its second frame.
            for _ in 0..2 {
                output = ctx.run_ui(egui::RawInput::default(), |ui| {
                    widgets::hud_bar(ui.ctx(), "hud", |ui| {
                        widgets::hud_figure(ui, "Distance", "12 m".into());
                    });
                });
            }
            output
                .shapes
                .iter()
                .filter_map(|clipped| match &clipped.shape {
                    egui::Shape::Rect(rect) => Some(rect.fill),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(fills(true), vec![Color32::BLACK]);
        assert_eq!(fills(false), vec![PANEL]);
    }
}
