//! Maze mode: a generated maze walked with the arrow keys, a gamepad or by clicking, leaving a
//! trail, with the A* shortest path on demand and a system walk; on Normal and Hard in
//! torchlight, on Hard with guardians; level after level. One plugin per feature: the settings
//! ([`options`]), the actions and their bindings ([`controls`]), making the maze
//! ([`generation`]), walking and winning ([`walk`]), the levels ([`levels`]), clicking to walk
//! ([`click_walk`]), the hint overlay ([`hint`]), the first runs' tips ([`tips`]), and the
//! drawing (the maze, the darkness, the guardians and shrines, the ghost) and HUD.

pub mod click_walk;
pub mod controls;
pub mod generation;
pub mod ghost;
mod guardians;
pub mod hint;
mod hud;
mod layers;
pub mod levels;
pub mod options;
pub mod sounds;
pub mod tips;
mod torchlight;
pub mod view;
pub mod walk;

pub use generation::CurrentMaze;
pub use walk::{MazeWin, PlayerCaught, PlayerStepped};

use crate::game::screens::{Mode, ModeInfo, ModeRecords, Screen};
use crate::logic::maze::replay::MazeKind;
use crate::logic::replay::RunKind;
use bevy::prelude::*;

/// The maze's music loop, an asset path.
pub const MUSIC: &str = "music/maze.wav";

/// What the title screen and the command line know of the maze.
pub const MODE: ModeInfo = ModeInfo {
    name: MazeKind::MODE,
    label: "Maze",
    blurb: "Find the exit of a generated maze by torchlight, level after level.",
    music: Some(MUSIC),
    difficulty_shapes: Some("torch, hint cost, guardians"),
    daily: true,
    records: Some(ModeRecords { kind: &MazeKind }),
    plugin,
};

/// The screen that plays it.
pub const SCREEN: Screen = Screen::Mode(Mode(&MODE));

fn plugin(app: &mut App) {
    app.add_plugins((
        options::plugin,
        controls::plugin,
        generation::plugin,
        walk::plugin,
        levels::plugin,
        hint::plugin,
        tips::plugin,
        view::plugin,
        layers::plugin,
        torchlight::plugin,
        guardians::plugin,
        click_walk::plugin,
        ghost::plugin,
        hud::plugin,
    ));
}
