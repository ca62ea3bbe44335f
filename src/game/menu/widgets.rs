//! The menus' egui widgets: buttons that follow the keyboard cursor and the widgets that edit a
//! setting. Every click becomes a [`MenuInput`], the same the keys send.

use super::rows::{SettingRow, SettingValue};
use super::{MenuCursor, MenuInput, MenuItem};
use crate::game::theme::backdrops::button;
use crate::game::theme::widgets::{BUTTON_WIDTH, styled};
use crate::game::theme::{GOLD, SAND, text};
use bevy_egui::egui::{self, RichText};
use std::collections::HashMap;

/// The height of menu buttons, in points.
const BUTTON_HEIGHT: f32 = 38.0;

/// The open menu's items and the keyboard cursor among them, as the drawing sees them.
pub struct MenuFocus<'a> {
    items: &'a [MenuItem],
    cursor: &'a mut MenuCursor,
    /// The cursor is on another item than in the last frame.
    moved: bool,
}

impl<'a> MenuFocus<'a> {
    /// The cursor among `items`.
    pub fn new(items: &'a [MenuItem], cursor: &'a mut MenuCursor) -> MenuFocus<'a> {
        MenuFocus {
            items,
            cursor,
            moved: false,
        }
    }

    /// The cursor among `items` on a page that scrolls: the widget it moves onto scrolls into
    /// sight. `last_seen` is where the page last saw it, kept by the page between frames.
    pub fn scrolling(
        items: &'a [MenuItem],
        cursor: &'a mut MenuCursor,
        last_seen: &mut Option<usize>,
    ) -> MenuFocus<'a> {
        let moved = last_seen.replace(cursor.0) != Some(cursor.0);
        MenuFocus {
            items,
            cursor,
            moved,
        }
    }

    /// Scrolls `response`'s widget into sight when the cursor has just moved onto `item`, so
    /// that the keys never choose what cannot be seen.
    pub fn keep_in_sight(&self, response: &egui::Response, item: MenuItem) {
        if self.moved && self.is_on(item) {
            response.scroll_to_me(None);
        }
    }

    /// Whether the keyboard cursor is on `item`.
    pub fn is_on(&self, item: MenuItem) -> bool {
        self.items.get(self.cursor.0) == Some(&item)
    }

    /// Whether the cursor is on any of `items`.
    pub fn is_on_any(&self, items: &[MenuItem]) -> bool {
        items.iter().any(|&item| self.is_on(item))
    }

    /// Moves the cursor to `item` when the mouse moves over its widget, so the keyboard and the
    /// mouse never disagree about what is chosen.
    pub fn follow_mouse(&mut self, ui: &egui::Ui, response: &egui::Response, item: MenuItem) {
        let mouse_moved = ui.input(|input| input.pointer.delta() != egui::Vec2::ZERO);
        if response.hovered()
            && mouse_moved
            && let Some(index) = self.items.iter().position(|&i| i == item)
        {
            self.cursor.0 = index;
        }
    }
}

/// A full-width menu button, highlighted while the keyboard cursor is on it.
pub fn menu_button(
    ui: &mut egui::Ui,
    label: &str,
    item: MenuItem,
    focus: &mut MenuFocus,
    inputs: &mut Vec<MenuInput>,
) {
    let selected = focus.is_on(item);
    let colour = if selected { GOLD } else { SAND };
    let response = button(
        ui,
        egui::Button::new(RichText::new(label).color(colour.egui()))
            .min_size(egui::vec2(BUTTON_WIDTH, BUTTON_HEIGHT)),
        selected,
    );
    focus.follow_mouse(ui, &response, item);
    focus.keep_in_sight(&response, item);
    if response.clicked() {
        inputs.push(MenuInput::Activated(item));
    }
}

/// Small buttons side by side for `items` (a row's Watch and Copy seed), each highlighted while
/// the keyboard cursor is on it.
pub fn small_buttons(
    ui: &mut egui::Ui,
    items: &[MenuItem],
    focus: &mut MenuFocus,
    inputs: &mut Vec<MenuInput>,
) {
    for &item in items {
        let response = button(
            ui,
            egui::Button::new(super::item_label(item)),
            focus.is_on(item),
        );
        focus.follow_mouse(ui, &response, item);
        focus.keep_in_sight(&response, item);
        if response.clicked() {
            inputs.push(MenuInput::Activated(item));
        }
    }
}

/// One setting on one line of a menu page: its name, then the widget that edits it. Returns the
/// widget's response, so the page can let the mouse move its cursor there.
pub fn setting_widget(
    ui: &mut egui::Ui,
    row: &SettingRow,
    inputs: &mut Vec<MenuInput>,
    drafts: &mut TextDrafts,
) -> egui::Response {
    ui.label(styled(row.label, text::BODY, SAND.egui()));
    setting_control(ui, row, inputs, drafts)
}

/// The egui id of a text setting's field.
pub fn text_field_id(item: MenuItem) -> egui::Id {
    egui::Id::new(("setting-text", item))
}

/// The text being typed into each text setting's field while it has the keys; the page that
/// draws them keeps it from frame to frame.
pub type TextDrafts = HashMap<MenuItem, String>;

/// Settings as a compact list for a side panel: each widget, then its name after it, so the
/// widgets line up at the left edge.
pub fn settings_list(ui: &mut egui::Ui, rows: &[SettingRow], inputs: &mut Vec<MenuInput>) {
    for row in rows {
        ui.horizontal(|ui| {
            setting_control(ui, row, inputs, &mut TextDrafts::new());
            ui.label(styled(row.label, text::SMALL, SAND.egui()));
        });
    }
}

/// The widget that edits a setting: a list to choose from, a slider or a check box. Edits go
/// out as [`MenuInput`]s, the same the keys send.
fn setting_control(
    ui: &mut egui::Ui,
    row: &SettingRow,
    inputs: &mut Vec<MenuInput>,
    drafts: &mut TextDrafts,
) -> egui::Response {
    match &row.value {
        SettingValue::Choice { choices, selected } => {
            let mut chosen = *selected;
            let response = egui::ComboBox::from_id_salt(row.item)
                .selected_text(choices.get(*selected).copied().unwrap_or_default())
                .show_ui(ui, |ui| {
                    for (index, choice) in choices.iter().enumerate() {
                        ui.selectable_value(&mut chosen, index, *choice);
                    }
                })
                .response;
            if chosen != *selected {
                inputs.push(MenuInput::Chosen(row.item, chosen));
            }
            response
        }
        SettingValue::Number(number) => {
            let scale = number.display_scale;
            let mut shown = number.value * scale;
            let range = number.range.start() * scale..=number.range.end() * scale;
            let response = ui.add(
                egui::Slider::new(&mut shown, range)
                    .logarithmic(number.logarithmic)
                    .fixed_decimals(number.decimals)
                    .step_by(if number.decimals == 0 { 1.0 } else { 0.0 })
                    .suffix(number.suffix),
            );
            if response.changed() {
                inputs.push(MenuInput::NumberSet(row.item, shown / scale));
            }
            response
        }
        SettingValue::Press(words) => {
            let response = ui.button(words);
            if response.clicked() {
                inputs.push(MenuInput::Activated(row.item));
            }
            response
        }
        SettingValue::Toggle(on) => {
            let mut checked = *on;
            let response = ui.checkbox(&mut checked, "");
            if response.changed() {
                inputs.push(MenuInput::Activated(row.item));
            }
            response
        }
        SettingValue::Text(setting) => {
            let id = text_field_id(row.item);
            // While the field has the keys it shows what is being typed; otherwise the setting.
            if !ui.memory(|memory| memory.has_focus(id)) {
                drafts.insert(row.item, setting.value.clone());
            }
            let draft = drafts
                .entry(row.item)
                .or_insert_with(|| setting.value.clone());
            let response = ui.add(
                egui::TextEdit::singleline(draft)
                    .id(id)
                    .desired_width(220.0)
                    .char_limit(setting.max_chars)
                    .hint_text(setting.hint),
            );
            let escaped = ui.input(|input| input.key_pressed(egui::Key::Escape));
            if response.lost_focus() && !escaped && *draft != setting.value {
                inputs.push(MenuInput::TextSet(row.item, draft.clone()));
            }
            response
        }
    }
}
