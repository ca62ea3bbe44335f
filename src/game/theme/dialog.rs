//! The one dialog at the end of a run, for every mode: a heading, the run's figures as a table,
//! a line about the record, and the buttons of the results menu. A mode fills in a
//! [`ResultDialog`] and opens [`Menu::Results`]; this plugin draws it.

use super::widgets::{MenuFocus, menu_button, modal_panel, results_table, styled};
use super::{AMBER, GOLD, SAND, text};
use crate::game::menu::{MenuCursor, MenuInput, MenuItem, OpenMenuItems};
use crate::game::screens::Menu;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub(super) fn plugin(app: &mut App) {
    if crate::game::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_result_dialog
                .run_if(in_state(Menu::Results).and_then(resource_exists::<ResultDialog>)),
        );
    }
}

/// What the results menu shows; its buttons are the menu's items, in order.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct ResultDialog {
    /// The heading.
    pub title: String,
    /// A line under the heading (what ended the run), if any.
    pub subtitle: Option<String>,
    /// The run's figures: names and values.
    pub figures: Vec<(String, String)>,
    /// A line about the record, if any.
    pub note: Option<DialogNote>,
    /// The buttons: the results menu's items with their labels here.
    pub buttons: Vec<(MenuItem, &'static str)>,
}

/// A line about the record under a dialog's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DialogNote {
    /// Good news: a new record.
    Record(String),
    /// Why nothing was recorded.
    NotRecorded(String),
}

impl ResultDialog {
    /// The results menu's items, top to bottom.
    pub fn items(&self) -> Vec<MenuItem> {
        self.buttons.iter().map(|&(item, _)| item).collect()
    }
}

fn draw_result_dialog(
    mut contexts: EguiContexts,
    dialog: Res<ResultDialog>,
    items: Res<OpenMenuItems>,
    mut cursor: ResMut<MenuCursor>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut focus = MenuFocus::new(&items.0, &mut cursor);
    let mut inputs = Vec::new();
    modal_panel(ctx, "result-dialog", |ui| {
        ui.heading(styled(&dialog.title, text::HEADING, GOLD.egui()));
        if let Some(subtitle) = &dialog.subtitle {
            ui.label(styled(subtitle, text::BODY, SAND.egui()));
        }
        ui.add_space(6.0);
        results_table(ui, "result-figures", &dialog.figures);
        ui.add_space(4.0);
        match &dialog.note {
            Some(DialogNote::Record(words)) => {
                ui.label(styled(words, text::BODY, GOLD.egui()).strong());
            }
            Some(DialogNote::NotRecorded(words)) => {
                ui.label(styled(words, text::BODY, AMBER.egui()));
            }
            None => {}
        }
        ui.add_space(8.0);
        for &(item, label) in &dialog.buttons {
            menu_button(ui, label, item, &mut focus, &mut inputs);
        }
    });
    writer.write_batch(inputs);
    Ok(())
}
