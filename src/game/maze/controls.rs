//! The maze's actions and their default keys and gamepad buttons: a step each way, the hint and
//! its searched cells, the system walk, and zoom.

use crate::game::controls::{Controls, controls_plugin, left_stick};
use crate::logic::maze::Direction;
use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

pub(super) fn plugin(app: &mut App) {
    controls_plugin::<MazeAction>(app);
}

/// What a maze player can do.
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
pub enum MazeAction {
    /// A step up (north).
    Up,
    /// A step right (east).
    Right,
    /// A step down (south).
    Down,
    /// A step left (west).
    Left,
    /// Show or hide the shortest way out.
    Hint,
    /// Show or hide the cells A* searched for it.
    Searched,
    /// Start or stop the system walk.
    SystemWalk,
    /// Closer.
    ZoomIn,
    /// Further out.
    ZoomOut,
}

impl MazeAction {
    /// The step actions, with their directions.
    pub const STEPS: [(MazeAction, Direction); 4] = [
        (MazeAction::Up, Direction::North),
        (MazeAction::Right, Direction::East),
        (MazeAction::Down, Direction::South),
        (MazeAction::Left, Direction::West),
    ];
}

impl Controls for MazeAction {
    const SECTION: &'static str = "maze";
    const TITLE: &'static str = "Maze controls";
    const ROWS: &'static [(Self, &'static str, &'static str)] = &[
        (MazeAction::Up, "controls.maze.up", "Step up"),
        (MazeAction::Right, "controls.maze.right", "Step right"),
        (MazeAction::Down, "controls.maze.down", "Step down"),
        (MazeAction::Left, "controls.maze.left", "Step left"),
        (MazeAction::Hint, "controls.maze.hint", "Hint"),
        (
            MazeAction::Searched,
            "controls.maze.searched",
            "Searched cells",
        ),
        (
            MazeAction::SystemWalk,
            "controls.maze.system_walk",
            "System walk",
        ),
        (MazeAction::ZoomIn, "controls.maze.zoom_in", "Zoom in"),
        (MazeAction::ZoomOut, "controls.maze.zoom_out", "Zoom out"),
    ];

    fn default_bindings() -> InputMap<Self> {
        use MazeAction::*;
        let mut map = InputMap::new([
            (Up, KeyCode::ArrowUp),
            (Up, KeyCode::KeyW),
            (Right, KeyCode::ArrowRight),
            (Right, KeyCode::KeyD),
            (Down, KeyCode::ArrowDown),
            (Down, KeyCode::KeyS),
            (Left, KeyCode::ArrowLeft),
            (Left, KeyCode::KeyA),
            (Hint, KeyCode::Space),
            (Searched, KeyCode::KeyE),
            (SystemWalk, KeyCode::Enter),
            (SystemWalk, KeyCode::NumpadEnter),
            (ZoomIn, KeyCode::Equal),
            (ZoomIn, KeyCode::NumpadAdd),
            (ZoomOut, KeyCode::Minus),
            (ZoomOut, KeyCode::NumpadSubtract),
        ]);
        map.insert_multiple([
            (Up, GamepadButton::DPadUp),
            (Right, GamepadButton::DPadRight),
            (Down, GamepadButton::DPadDown),
            (Left, GamepadButton::DPadLeft),
            (Hint, GamepadButton::North),
            (Searched, GamepadButton::West),
            (SystemWalk, GamepadButton::South),
            (ZoomIn, GamepadButton::RightTrigger),
            (ZoomOut, GamepadButton::LeftTrigger),
        ]);
        map.insert_multiple([
            (Up, left_stick(Dir2::Y)),
            (Right, left_stick(Dir2::X)),
            (Down, left_stick(Dir2::NEG_Y)),
            (Left, left_stick(Dir2::NEG_X)),
        ]);
        map
    }
}
