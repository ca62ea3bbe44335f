//! The runner's actions and their default keys and gamepad buttons: the four run commands, the
//! planner's route and the autopilot.

use crate::game::controls::{Controls, Device, bindings_named, controls_plugin, left_stick};
use crate::logic::runner::body::Command;
use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

pub(super) fn plugin(app: &mut App) {
    controls_plugin::<RunnerAction>(app);
}

/// What a runner player can do.
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
pub enum RunnerAction {
    /// A lane to the left, or a left turn at a junction.
    Left,
    /// A lane to the right, or a right turn at a junction.
    Right,
    /// Jump.
    Jump,
    /// Slide.
    Slide,
    /// Show or hide the planner's route.
    Route,
    /// Switch the autopilot on or off.
    Autopilot,
}

impl RunnerAction {
    /// The actions that are run commands, with their command.
    pub const COMMANDS: [(RunnerAction, Command); 4] = [
        (RunnerAction::Left, Command::Left),
        (RunnerAction::Right, Command::Right),
        (RunnerAction::Jump, Command::Jump),
        (RunnerAction::Slide, Command::Slide),
    ];

    /// The action that gives `command`.
    pub fn of(command: Command) -> RunnerAction {
        match command {
            Command::Left => RunnerAction::Left,
            Command::Right => RunnerAction::Right,
            Command::Jump => RunnerAction::Jump,
            Command::Slide => RunnerAction::Slide,
        }
    }
}

impl Controls for RunnerAction {
    const SECTION: &'static str = "runner";
    const TITLE: &'static str = "Runner controls";
    const ROWS: &'static [(Self, &'static str, &'static str)] = &[
        (
            RunnerAction::Left,
            "controls.runner.left",
            "Left (a lane, or a turn)",
        ),
        (
            RunnerAction::Right,
            "controls.runner.right",
            "Right (a lane, or a turn)",
        ),
        (RunnerAction::Jump, "controls.runner.jump", "Jump"),
        (RunnerAction::Slide, "controls.runner.slide", "Slide"),
        (
            RunnerAction::Route,
            "controls.runner.route",
            "Planner's route",
        ),
        (
            RunnerAction::Autopilot,
            "controls.runner.autopilot",
            "Autopilot",
        ),
    ];

    fn default_bindings() -> InputMap<Self> {
        use RunnerAction::*;
        let mut map = InputMap::new([
            (Left, KeyCode::ArrowLeft),
            (Left, KeyCode::KeyA),
            (Right, KeyCode::ArrowRight),
            (Right, KeyCode::KeyD),
            (Jump, KeyCode::ArrowUp),
            (Jump, KeyCode::KeyW),
            (Jump, KeyCode::Space),
            (Slide, KeyCode::ArrowDown),
            (Slide, KeyCode::KeyS),
            (Slide, KeyCode::Numpad2),
            (Route, KeyCode::KeyP),
            (Autopilot, KeyCode::KeyO),
        ]);
        map.insert_multiple([
            (Left, GamepadButton::DPadLeft),
            (Right, GamepadButton::DPadRight),
            (Jump, GamepadButton::South),
            (Jump, GamepadButton::DPadUp),
            (Slide, GamepadButton::East),
            (Slide, GamepadButton::DPadDown),
            (Route, GamepadButton::North),
            (Autopilot, GamepadButton::West),
        ]);
        map.insert_multiple([
            (Left, left_stick(Dir2::NEG_X)),
            (Right, left_stick(Dir2::X)),
            (Jump, left_stick(Dir2::Y)),
            (Slide, left_stick(Dir2::NEG_Y)),
        ]);
        map
    }
}

/// The bindings of the action that gives `command`, on `device`: "Up, W or Space".
pub fn keys_for(map: &InputMap<RunnerAction>, command: Command, device: Device) -> String {
    bindings_named(map, &RunnerAction::of(command), device)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_command_has_keys_and_gamepad_buttons_named_as_players_read_them() {
        let map = RunnerAction::default_bindings();
        assert_eq!(
            keys_for(&map, Command::Jump, Device::Keyboard),
            "Up, W or Space"
        );
        assert_eq!(
            keys_for(&map, Command::Jump, Device::Gamepad),
            "A, D-pad up or stick up"
        );
        assert_eq!(
            keys_for(&map, Command::Right, Device::Gamepad),
            "D-pad right or stick right"
        );
        for (action, command) in RunnerAction::COMMANDS {
            assert_eq!(RunnerAction::of(command), action);
        }
    }
}
