//! The player's own bindings: every set of actions listed with its keys and buttons
//! ([`BindingTable`], which the settings page shows), a new key or button given to an action
//! ([`Rebind`], taking it from any other action of the set), the defaults back
//! ([`ResetBindings`]), and the bindings kept in the settings: applied when the game starts, a
//! name the game does not know set aside with a warning, and saved when they change.

use super::{Controls, Device, bindings_named};
use crate::game::keys::key_name;
use crate::game::settings::{SavedBindings, Settings, SettingsLoaded};
use crate::game::storage::StorageWarnings;
use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use std::collections::BTreeMap;

/// Adds the systems that keep `A`'s bindings listed, rebound, reset, loaded and saved.
pub(super) fn rebinding_plugin<A: Controls>(app: &mut App) {
    app.init_resource::<BindingTable>()
        .add_message::<Rebind>()
        .add_message::<ResetBindings>()
        .add_message::<Rebound>()
        .add_systems(Startup, apply_saved_bindings::<A>.after(SettingsLoaded))
        .add_systems(
            Update,
            (
                rebind::<A>.run_if(on_message::<Rebind>),
                reset_bindings::<A>.run_if(on_message::<ResetBindings>),
                (list_bindings::<A>, save_bindings::<A>).run_if(bindings_changed::<A>),
            )
                .chain(),
        );
}

/// A key or a gamepad button, as a player binds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// A key.
    Key(KeyCode),
    /// A gamepad button.
    Button(GamepadButton),
}

impl Binding {
    /// The device it is on.
    pub fn device(self) -> Device {
        match self {
            Binding::Key(_) => Device::Keyboard,
            Binding::Button(_) => Device::Gamepad,
        }
    }

    /// What a player calls it.
    pub fn name(self) -> String {
        match self {
            Binding::Key(key) => key_name(key),
            Binding::Button(button) => super::button_name(button).to_owned(),
        }
    }

    /// Whether `input` is this key or button.
    fn is(self, input: &dyn Buttonlike) -> bool {
        let input: &dyn Reflect = input;
        match self {
            Binding::Key(key) => input.downcast_ref::<KeyCode>() == Some(&key),
            Binding::Button(button) => input.downcast_ref::<GamepadButton>() == Some(&button),
        }
    }

    /// Adds it to `action`'s bindings in `map`.
    fn insert_into<A: Actionlike>(self, map: &mut InputMap<A>, action: A) {
        match self {
            Binding::Key(key) => map.insert(action, key),
            Binding::Button(button) => map.insert(action, button),
        };
    }
}

/// Whether `input` is a key or a gamepad button on `device` (a stick's lean is neither: sticks
/// keep their defaults).
fn rebindable_on(input: &dyn Buttonlike, device: Device) -> bool {
    let input: &dyn Reflect = input;
    match device {
        Device::Keyboard => input.is::<KeyCode>(),
        Device::Gamepad => input.is::<GamepadButton>(),
    }
}

/// Every set of actions with its rows, for the settings page.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct BindingTable {
    /// The sets, in the order their features registered them.
    pub sections: Vec<BindingSection>,
}

/// One set of actions: its heading and each action's row.
#[derive(Debug, Clone, PartialEq)]
pub struct BindingSection {
    /// Its name in the settings file (`"runner"`).
    pub name: &'static str,
    /// Its heading ("Runner controls").
    pub title: &'static str,
    /// Whether the player may change it (the menus' are fixed, so a menu can always be left).
    pub rebindable: bool,
    /// Its actions.
    pub rows: Vec<BindingRow>,
}

/// One action's row: what it is called and what it is bound to.
#[derive(Debug, Clone, PartialEq)]
pub struct BindingRow {
    /// The action's menu item name (`"controls.runner.jump"`).
    pub item: &'static str,
    /// What a player calls the action.
    pub label: &'static str,
    /// Its keys, named ("Up, W or Space").
    pub keys: String,
    /// Its gamepad buttons and stick leans, named.
    pub buttons: String,
}

/// Gives the action of the row `item` the binding, in place of its bindings on that device.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rebind {
    /// The action's row.
    pub item: &'static str,
    /// The new key or button.
    pub binding: Binding,
}

/// Puts every binding back to its default.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResetBindings;

/// What a [`Rebind`] did, in words for the player ("S is bound to Jump now, no longer to Slide
/// (which keeps Down or Numpad 2)").
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct Rebound(pub String);

/// The action of the row `item`, if it is one of `A`'s.
fn action_of<A: Controls>(item: &str) -> Option<(A, &'static str)> {
    A::ROWS
        .iter()
        .find(|(_, row, _)| *row == item)
        .map(|&(action, _, label)| (action, label))
}

/// The name an action is saved under: the last part of its row's item (`"jump"`).
fn saved_name(item: &str) -> &str {
    item.rsplit('.').next().unwrap_or(item)
}

fn bindings_changed<A: Controls>(maps: Query<(), Changed<InputMap<A>>>) -> bool {
    !maps.is_empty()
}

fn rebind<A: Controls>(
    mut rebinds: MessageReader<Rebind>,
    mut map: Single<&mut InputMap<A>>,
    mut told: MessageWriter<Rebound>,
) {
    for &Rebind { item, binding } in rebinds.read() {
        let Some((action, label)) = action_of::<A>(item) else {
            continue;
        };
        let device = binding.device();
        let mut taken_from = Vec::new();
        for &(other, _, other_label) in A::ROWS {
            let Some(inputs) = map.get_buttonlike_mut(&other) else {
                continue;
            };
            let before = inputs.len();
            if other == action {
                inputs.retain(|input| !rebindable_on(input.as_ref(), device));
            } else {
                inputs.retain(|input| !binding.is(input.as_ref()));
                if inputs.len() < before {
                    taken_from.push((other, other_label));
                }
            }
        }
        binding.insert_into(&mut map, action);
        let mut words = format!("{} is bound to {label} now", binding.name());
        for (other, other_label) in taken_from {
            let left = bindings_named(&map, &other, device);
            words.push_str(&format!(
                ", no longer to {other_label} (which keeps {left})"
            ));
        }
        told.write(Rebound(words + "."));
    }
}

fn reset_bindings<A: Controls>(mut map: Single<&mut InputMap<A>>) {
    **map = A::default_bindings();
}

/// Keeps `A`'s section of the [`BindingTable`] up to date.
fn list_bindings<A: Controls>(map: Single<&InputMap<A>>, mut table: ResMut<BindingTable>) {
    let section = BindingSection {
        name: A::SECTION,
        title: A::TITLE,
        rebindable: A::REBINDABLE,
        rows: A::ROWS
            .iter()
            .map(|&(action, item, label)| BindingRow {
                item,
                label,
                keys: bindings_named(&map, &action, Device::Keyboard),
                buttons: bindings_named(&map, &action, Device::Gamepad),
            })
            .collect(),
    };
    match table.sections.iter_mut().find(|s| s.name == A::SECTION) {
        Some(listed) => *listed = section,
        None => table.sections.push(section),
    }
}

/// `A`'s keys and gamepad buttons as saved, for every action whose bindings differ from its
/// defaults.
pub fn saved_section<A: Controls>(map: &InputMap<A>) -> BTreeMap<String, SavedBindings> {
    let defaults = A::default_bindings();
    let saved_of = |map: &InputMap<A>, action: &A| {
        let names = |device: Device| -> Vec<String> {
            map.get_buttonlike(action)
                .into_iter()
                .flatten()
                .filter(|input| rebindable_on(input.as_ref(), device))
                .filter_map(|input| {
                    let input: &dyn Reflect = input.as_ref();
                    let value = if let Some(key) = input.downcast_ref::<KeyCode>() {
                        serde_json::to_value(key)
                    } else {
                        serde_json::to_value(input.downcast_ref::<GamepadButton>()?)
                    };
                    value.ok()?.as_str().map(str::to_owned)
                })
                .collect()
        };
        SavedBindings {
            keys: names(Device::Keyboard),
            buttons: names(Device::Gamepad),
        }
    };
    A::ROWS
        .iter()
        .filter_map(|(action, item, _)| {
            let saved = saved_of(map, action);
            (saved != saved_of(&defaults, action)).then(|| (saved_name(item).to_owned(), saved))
        })
        .collect()
}

/// `A`'s bindings from the saved `section` over the defaults, and a sentence for each name set
/// aside. An action's saved list that names nothing the game knows keeps that device's defaults.
pub fn bindings_from<A: Controls>(
    section: &BTreeMap<String, SavedBindings>,
) -> (InputMap<A>, Vec<String>) {
    let mut map = A::default_bindings();
    let mut set_aside = Vec::new();
    for (name, saved) in section {
        let place = format!("controls.{}.{name}", A::SECTION);
        let Some(&(action, _, _)) = A::ROWS.iter().find(|(_, item, _)| saved_name(item) == name)
        else {
            set_aside.push(format!("{place}: no such action"));
            continue;
        };
        let lists = [
            (Device::Keyboard, &saved.keys),
            (Device::Gamepad, &saved.buttons),
        ];
        for (device, names) in lists {
            let known: Vec<Binding> = names
                .iter()
                .filter_map(|name| {
                    let value = serde_json::Value::String(name.clone());
                    let binding = match device {
                        Device::Keyboard => serde_json::from_value(value).ok().map(Binding::Key),
                        Device::Gamepad => serde_json::from_value(value).ok().map(Binding::Button),
                    };
                    if binding.is_none() {
                        set_aside.push(format!("{place}: no key or button is called \"{name}\""));
                    }
                    binding
                })
                .collect();
            if known.is_empty() && !names.is_empty() {
                continue;
            }
            if let Some(inputs) = map.get_buttonlike_mut(&action) {
                inputs.retain(|input| !rebindable_on(input.as_ref(), device));
            }
            for binding in known {
                binding.insert_into(&mut map, action);
            }
        }
    }
    (map, set_aside)
}

/// At the start, `A`'s bindings become the ones saved in the settings; names that are not
/// understood are set aside, with a warning.
fn apply_saved_bindings<A: Controls>(
    settings: Res<Settings>,
    mut map: Single<&mut InputMap<A>>,
    mut warnings: ResMut<StorageWarnings>,
) {
    let Some(section) = settings.controls.get(A::SECTION) else {
        return;
    };
    let (loaded, set_aside) = bindings_from::<A>(section);
    **map = loaded;
    if !set_aside.is_empty() {
        let warning = format!(
            "Settings had bindings that were set aside: {}.",
            set_aside.join("; ")
        );
        warn!("{warning}");
        warnings.0.push(warning);
    }
}

/// Changed bindings go into the settings, which save themselves.
fn save_bindings<A: Controls>(map: Single<&InputMap<A>>, mut settings: ResMut<Settings>) {
    let section = saved_section(&map);
    let current = settings.controls.get(A::SECTION);
    let unchanged = match current {
        Some(saved) => *saved == section,
        None => section.is_empty(),
    };
    if unchanged {
        return;
    }
    if section.is_empty() {
        settings.controls.remove(A::SECTION);
    } else {
        settings.controls.insert(A::SECTION.to_owned(), section);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two actions of a test's own, as a feature declares them.
    #[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
    enum Test {
        Jump,
        Route,
    }

    impl Controls for Test {
        const SECTION: &'static str = "test";
        const TITLE: &'static str = "Test controls";
        const ROWS: &'static [(Self, &'static str, &'static str)] = &[
            (Test::Jump, "controls.test.jump", "Jump"),
            (Test::Route, "controls.test.route", "Route"),
        ];

        fn default_bindings() -> InputMap<Self> {
            InputMap::new([
                (Test::Jump, KeyCode::ArrowUp),
                (Test::Jump, KeyCode::Space),
                (Test::Route, KeyCode::KeyP),
            ])
            .with(Test::Jump, GamepadButton::South)
        }
    }

    #[test]
    fn saved_bindings_read_back_as_they_were_and_defaults_save_nothing() {
        let defaults = Test::default_bindings();
        assert!(saved_section(&defaults).is_empty());
        let mut map = defaults.clone();
        for action in [Test::Jump, Test::Route] {
            if let Some(inputs) = map.get_buttonlike_mut(&action) {
                inputs.retain(|input| !rebindable_on(input.as_ref(), Device::Keyboard));
            }
        }
        Binding::Key(KeyCode::KeyJ).insert_into(&mut map, Test::Jump);
        let saved = saved_section(&map);
        assert_eq!(saved.keys().collect::<Vec<_>>(), ["jump", "route"]);
        assert_eq!(saved["jump"].keys, ["KeyJ"]);
        assert_eq!(
            saved["jump"].buttons,
            ["South"],
            "the pad's are saved with them"
        );
        assert!(saved["route"].keys.is_empty());
        let (read, set_aside) = bindings_from::<Test>(&saved);
        assert!(set_aside.is_empty());
        assert_eq!(saved_section(&read), saved);
        assert_eq!(bindings_named(&read, &Test::Jump, Device::Keyboard), "J");
        assert_eq!(
            bindings_named(&read, &Test::Route, Device::Keyboard),
            "nothing (see Settings)"
        );
    }
}
