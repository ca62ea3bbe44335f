//! Maze mode: a generated maze walked with the arrow keys, leaving a trail, with the A*
//! shortest path on demand and a system walk. One plugin per feature: the settings
//! ([`options`]), making the maze ([`generation`]), walking and winning ([`walk`]), the hint
//! overlay ([`hint`]), and the drawing and HUD.

pub mod generation;
pub mod ghost;
pub mod hint;
mod hud;
pub mod levels;
pub mod options;
mod view;
pub mod walk;

pub use generation::CurrentMaze;
pub use hud::MazeTime;
pub use walk::{MazeWin, PlayerStepped};

use crate::game::music::Piece;
use crate::game::screens::{ModeInfo, Screen};
use bevy::prelude::*;

/// What the title screen and the command line know of the maze.
pub const MODE: ModeInfo = ModeInfo {
    screen: Screen::Maze,
    name: "maze",
    label: "Maze",
    blurb: "Find the exit of a generated maze; Space shows the way.",
    music: Piece::Maze,
    plugin,
};

fn plugin(app: &mut App) {
    app.add_plugins((
        options::plugin,
        generation::plugin,
        walk::plugin,
        levels::plugin,
        hint::plugin,
        view::plugin,
        ghost::plugin,
        hud::plugin,
    ));
}
