//! The one dialog at the end of a run, for every mode: a heading, the run's figures as a table,
//! a line about the record, and the buttons of the results menu. A mode fills in a
//! [`ResultDialog`] and opens [`Menu::Results`]; this plugin draws it, after a short beat in
//! which the end of the run (a fall, a win) is seen and the keys still held from playing choose
//! nothing.

use super::widgets::{MenuFocus, menu_button};
use super::{MenuCursor, MenuInput, MenuItem, OpenMenuItems};
use crate::game::screens::Menu;
use crate::game::theme::widgets::{modal_panel, results_table, styled};
use crate::game::theme::{AMBER, GOLD, SAND, text};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// How long the end of a run shows before its dialog, in real seconds.
pub const DIALOG_BEAT_S: f32 = 0.8;

pub(super) fn plugin(app: &mut App) {
    if crate::game::screens::draws(app) {
        app.add_systems(OnEnter(Menu::Results), start_the_beat)
            .add_systems(OnExit(Menu::Results), |mut commands: Commands| {
                commands.remove_resource::<DialogBeat>();
            })
            .add_systems(
                EguiPrimaryContextPass,
                draw_result_dialog.run_if(
                    in_state(Menu::Results)
                        .and_then(resource_exists::<ResultDialog>)
                        .and_then(the_beat_is_over),
                ),
            );
    }
}

/// When the results menu opened, in real seconds: its dialog waits [`DIALOG_BEAT_S`].
#[derive(Resource, Debug, Clone, Copy)]
pub struct DialogBeat(pub f32);

fn start_the_beat(mut commands: Commands, time: Res<Time<Real>>) {
    commands.insert_resource(DialogBeat(time.elapsed_secs()));
}

/// Whether no dialog is waiting out its beat: true without a beat (a windowless app).
pub fn the_beat_is_over(beat: Option<Res<DialogBeat>>, time: Res<Time<Real>>) -> bool {
    beat.is_none_or(|beat| time.elapsed_secs() - beat.0 >= DIALOG_BEAT_S)
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
