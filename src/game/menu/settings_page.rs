//! A mode's settings on the menus: its rows on the settings page (or its own panel), and the
//! menu inputs that edit them. The settings module stores them ([`ModeSettings`]); this one
//! shows and edits them.

use super::rows::{SettingEdit, SettingRow, SettingValue};
use super::{MenuContributions, MenuInput, MenuItem, MenuRequests};
use crate::game::screens::AppSystems;
use crate::game::settings::ModeSettings;
use bevy::prelude::*;

/// A mode's settings as the menus show them.
pub trait SettingsPage: ModeSettings {
    /// The heading of its section on the settings page, or `None` when the mode shows its
    /// settings itself (the wanderers' side panel).
    const PAGE_TITLE: Option<&'static str>;

    /// The settings as rows, top to bottom, with their current values.
    fn rows(&self) -> Vec<SettingRow>;

    /// Applies an edit to the setting of `item` (one of [`SettingsPage::rows`]).
    fn apply(&mut self, item: MenuItem, edit: SettingEdit);
}

/// Puts a mode's settings `T` on the settings page (when it has a [`SettingsPage::PAGE_TITLE`])
/// and edits them with the same [`MenuInput`]s the keys and the mouse send.
pub fn settings_page<T: SettingsPage>(app: &mut App) {
    app.add_systems(
        Update,
        apply_mode_setting_inputs::<T>
            .run_if(on_message::<MenuInput>)
            .in_set(AppSystems::Update),
    );
    if T::PAGE_TITLE.is_some() {
        app.add_systems(
            Update,
            show_mode_settings_on_page::<T>
                .run_if(resource_changed::<T>)
                .in_set(AppSystems::Update),
        );
    }
}

/// Applies the menu inputs about `T`'s rows.
fn apply_mode_setting_inputs<T: SettingsPage>(
    mut inputs: MessageReader<MenuInput>,
    mut mode_settings: ResMut<T>,
    mut requests: ResMut<MenuRequests>,
) {
    for input in inputs.read() {
        // Enter on a text setting's row puts the keys into its field, which alone edits it.
        if let MenuInput::Activated(item) = input
            && mode_settings
                .rows()
                .iter()
                .any(|row| row.item == *item && matches!(row.value, SettingValue::Text(_)))
        {
            requests.focus_text_setting = Some(*item);
        }
        let edit = mode_settings
            .rows()
            .into_iter()
            .find_map(|row| row.edit(input).map(|edit| (row.item, edit)));
        if let Some((item, edit)) = edit {
            let mut edited = mode_settings.clone();
            edited.apply(item, edit);
            mode_settings.set_if_neq(edited);
        }
    }
}

fn show_mode_settings_on_page<T: SettingsPage>(
    mode_settings: Res<T>,
    mut contributions: ResMut<MenuContributions>,
) {
    if let Some(title) = T::PAGE_TITLE {
        contributions.set_settings_section(title, mode_settings.rows());
    }
}
