//! The menus' actions and their default keys and gamepad buttons: the cursor's four ways,
//! choosing, going back, and pausing a mode. A gamepad works every menu with its D-pad or left
//! stick, South to choose and East to go back; Start pauses and resumes.

use crate::game::controls::{Controls, Device, controls_plugin, first_bindings, left_stick};
use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

pub(super) fn plugin(app: &mut App) {
    controls_plugin::<MenuAction>(app);
}

/// What a player does in a menu, and to open or close the pause menu.
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
pub enum MenuAction {
    /// The cursor up.
    Up,
    /// The cursor down.
    Down,
    /// The value under the cursor down, or to the previous choice.
    Left,
    /// The value under the cursor up, or to the next choice.
    Right,
    /// Choose the item under the cursor.
    Confirm,
    /// Leave a page for the one it was opened from.
    Back,
    /// Pause a mode, or resume it from the pause menu.
    Pause,
}

impl Controls for MenuAction {
    const SECTION: &'static str = "menus";
    const TITLE: &'static str = "Menu controls";
    // Fixed, so that a menu can always be found and left.
    const REBINDABLE: bool = false;
    const ROWS: &'static [(Self, &'static str, &'static str)] = &[
        (MenuAction::Up, "controls.menus.up", "Up"),
        (MenuAction::Down, "controls.menus.down", "Down"),
        (
            MenuAction::Left,
            "controls.menus.left",
            "Less, or the choice before",
        ),
        (
            MenuAction::Right,
            "controls.menus.right",
            "More, or the next choice",
        ),
        (MenuAction::Confirm, "controls.menus.confirm", "Choose"),
        (MenuAction::Back, "controls.menus.back", "Back"),
        (
            MenuAction::Pause,
            "controls.menus.pause",
            "Pause and resume",
        ),
    ];

    fn default_bindings() -> InputMap<Self> {
        use MenuAction::*;
        let mut map = InputMap::new([
            (Up, KeyCode::ArrowUp),
            (Up, KeyCode::KeyW),
            (Down, KeyCode::ArrowDown),
            (Down, KeyCode::KeyS),
            (Left, KeyCode::ArrowLeft),
            (Left, KeyCode::KeyA),
            (Right, KeyCode::ArrowRight),
            (Right, KeyCode::KeyD),
            (Confirm, KeyCode::Enter),
            (Confirm, KeyCode::NumpadEnter),
            (Confirm, KeyCode::Space),
            (Back, KeyCode::Escape),
            (Pause, KeyCode::Escape),
        ]);
        map.insert_multiple([
            (Up, GamepadButton::DPadUp),
            (Down, GamepadButton::DPadDown),
            (Left, GamepadButton::DPadLeft),
            (Right, GamepadButton::DPadRight),
            (Confirm, GamepadButton::South),
            (Back, GamepadButton::East),
            (Pause, GamepadButton::Start),
        ]);
        map.insert_multiple([
            (Up, left_stick(Dir2::Y)),
            (Down, left_stick(Dir2::NEG_Y)),
            (Left, left_stick(Dir2::NEG_X)),
            (Right, left_stick(Dir2::X)),
        ]);
        map
    }
}

/// The menus' keys as a footer reminds the player of them, on `device`: "Up/Down choose
/// Left/Right change   Enter select   Esc back".
pub fn menu_keys(map: &InputMap<MenuAction>, device: Device) -> String {
    use MenuAction::*;
    format!(
        "{} choose   {} change   {} select   {} back",
        first_bindings(map, device, &[Up, Down]),
        first_bindings(map, device, &[Left, Right]),
        first_bindings(map, device, &[Confirm]),
        first_bindings(map, device, &[Back]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_footer_names_the_keys_or_the_pads_buttons() {
        let map = MenuAction::default_bindings();
        assert_eq!(
            menu_keys(&map, Device::Keyboard),
            "Up/Down choose   Left/Right change   Enter select   Esc back"
        );
        assert_eq!(
            menu_keys(&map, Device::Gamepad),
            "D-pad up/D-pad down choose   D-pad left/D-pad right change   A select   B back"
        );
    }
}
