//! The controls on the settings page: a section for each set of actions, a row for each action
//! with its keys and gamepad buttons, and a row that resets them all. Choosing an action's row
//! waits for the next key or button, which becomes that action's binding on its device (Esc, or
//! a few seconds without one, gives up); one taken from another action is said so. Esc and
//! Start stay the menus' own.

use super::rows::{SettingRow, SettingValue};
use super::{MenuContributions, MenuInput, MenuItem, MenuRequests};
use crate::game::controls::rebinding::{Binding, BindingTable, Rebind, Rebound, ResetBindings};
use crate::game::screens::{AppSystems, Menu};
use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;

/// The reset row's item.
pub const RESET: MenuItem = MenuItem::Setting("controls.reset");
/// What a row waiting for a key says.
pub const WAITING: &str = "Press a key or a gamepad button (Esc gives up)";
/// A row waits this many seconds for a key, then gives up: a player with only a gamepad has no
/// Esc.
pub const WAIT_S: f32 = 5.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Capture>()
        .add_systems(
            Update,
            (
                hear_keys_again,
                capture_binding.run_if(|capture: Res<Capture>| capture.waiting.is_some()),
            )
                .chain()
                .before(super::MenuNavigation)
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            (
                start_capture.run_if(on_message::<MenuInput>),
                tell_what_was_rebound.run_if(on_message::<Rebound>),
                show_bindings_on_page
                    .run_if(resource_changed::<BindingTable>.or_else(resource_changed::<Capture>)),
            )
                .chain()
                .in_set(AppSystems::Update),
        )
        .add_systems(OnExit(Menu::Settings), give_up_waiting);
}

/// An action's row waiting for the key or button to bind.
#[derive(Resource, Debug, Default, PartialEq)]
pub struct Capture {
    /// The row waiting, if any.
    pub waiting: Option<&'static str>,
    /// The real time it started waiting, in seconds.
    since_s: f32,
    /// A key or button was just taken for a binding: this frame it is nothing else's.
    swallowed: bool,
}

/// Whether the menus may read their actions this frame: no row is waiting for a key, and the
/// key just bound is not also read as a menu's.
pub(super) fn menus_hear_keys(capture: Res<Capture>) -> bool {
    capture.waiting.is_none() && !capture.swallowed
}

/// Each set of actions is a section of the settings page, after which comes the reset row.
fn show_bindings_on_page(
    table: Res<BindingTable>,
    capture: Res<Capture>,
    mut contributions: ResMut<MenuContributions>,
) {
    for section in &table.sections {
        let rows = section
            .rows
            .iter()
            .map(|row| SettingRow {
                item: MenuItem::Setting(row.item),
                label: row.label,
                value: SettingValue::Press(if capture.waiting == Some(row.item) {
                    WAITING.to_owned()
                } else {
                    format!("{}   ·   {}", row.keys, row.buttons)
                }),
            })
            .collect();
        contributions.set_settings_section(section.title, rows);
    }
    let reset = SettingRow {
        item: RESET,
        label: "Every action's keys and buttons",
        value: SettingValue::Press("Reset to the defaults".to_owned()),
    };
    contributions.set_settings_section("All controls", vec![reset]);
}

/// Choosing an action's row waits for a key; choosing the reset row resets.
fn start_capture(
    mut inputs: MessageReader<MenuInput>,
    table: Res<BindingTable>,
    mut capture: ResMut<Capture>,
    mut reset: MessageWriter<ResetBindings>,
    mut requests: ResMut<MenuRequests>,
    time: Res<Time<Real>>,
) {
    for input in inputs.read() {
        let MenuInput::Activated(item) = *input else {
            continue;
        };
        if item == RESET {
            reset.write(ResetBindings);
            requests.notice = Some((
                "Every key and button is back to its default.".to_owned(),
                time.elapsed_secs(),
            ));
            continue;
        }
        let MenuItem::Setting(name) = item else {
            continue;
        };
        let Some(section) = table
            .sections
            .iter()
            .find(|section| section.rows.iter().any(|row| row.item == name))
        else {
            continue;
        };
        if section.rebindable {
            capture.waiting = Some(name);
            capture.since_s = time.elapsed_secs();
        } else {
            requests.notice = Some((
                "The menus' keys and buttons are fixed, so a menu can always be left.".to_owned(),
                time.elapsed_secs(),
            ));
        }
    }
}

/// The next key or gamepad button pressed becomes the waiting row's binding. Esc gives up, and
/// so does [`WAIT_S`] without a key; Start is kept for pausing.
fn capture_binding(
    keys: Res<ButtonInput<KeyCode>>,
    gamepads: Query<&Gamepad>,
    mut capture: ResMut<Capture>,
    mut rebind: MessageWriter<Rebind>,
    mut requests: ResMut<MenuRequests>,
    time: Res<Time<Real>>,
) {
    let Some(item) = capture.waiting else {
        return;
    };
    let key = keys.get_just_pressed().next().copied();
    let button = gamepads
        .iter()
        .find_map(|gamepad| gamepad.get_just_pressed().next().copied());
    let binding = match (key, button) {
        (Some(KeyCode::Escape), _) => None,
        (_, Some(GamepadButton::Start)) => {
            requests.notice = Some((
                "Start is kept for pausing; choose another button.".to_owned(),
                time.elapsed_secs(),
            ));
            None
        }
        (Some(key), _) => Some(Binding::Key(key)),
        (None, Some(button)) => Some(Binding::Button(button)),
        (None, None) if time.elapsed_secs() - capture.since_s < WAIT_S => return,
        (None, None) => {
            requests.notice = Some((
                "No key or button came: the binding is as it was.".to_owned(),
                time.elapsed_secs(),
            ));
            None
        }
    };
    if let Some(binding) = binding {
        rebind.write(Rebind { item, binding });
    }
    capture.waiting = None;
    capture.swallowed = true;
}

/// A frame after a key was taken for a binding, the menus hear keys again.
fn hear_keys_again(mut capture: ResMut<Capture>) {
    if capture.swallowed {
        capture.swallowed = false;
    }
}

fn tell_what_was_rebound(
    mut rebound: MessageReader<Rebound>,
    mut requests: ResMut<MenuRequests>,
    time: Res<Time<Real>>,
) {
    if let Some(Rebound(words)) = rebound.read().last() {
        requests.notice = Some((words.clone(), time.elapsed_secs()));
    }
}

/// Leaving the settings page, a row stops waiting.
fn give_up_waiting(mut capture: ResMut<Capture>) {
    capture.waiting = None;
}
