//! Runner mode: an endless three-lane temple run on a certified noise track, with the planner's
//! route and an autopilot. One plugin per feature: the rules ([`rules`]), the ghost of the best
//! run, the world every view draws ([`world`]), the two views of it ([`chase`], the default, and
//! [`top_down`]; only the one shown runs), the settings, the HUD and the music's tempo.

mod chase;
pub mod ghost;
mod hud;
pub mod options;
pub mod rules;
mod tempo;
mod top_down;
pub mod world;

pub use rules::{AUTOPILOT, RunnerEvent, RunnerResult, RunnerRun};

use crate::game::music::Piece;
use crate::game::screens::{ModeInfo, Screen};
use bevy::prelude::*;

/// What the title screen and the command line know of the runner.
pub const MODE: ModeInfo = ModeInfo {
    screen: Screen::Runner,
    name: crate::logic::replay::boards::RUNNER_MODE,
    label: "Runner",
    blurb: "Run the endless temple: jump, slide, dodge and turn.",
    music: Piece::Runner,
    difficulty_shapes: Some("speed, obstacles"),
    plugin,
};

fn plugin(app: &mut App) {
    app.add_plugins((
        rules::plugin,
        ghost::plugin,
        world::plugin,
        chase::plugin,
        top_down::plugin,
        options::plugin,
        hud::plugin,
        tempo::plugin,
    ));
}
