//! Runner mode: an endless three-lane temple run on a certified noise track, with the planner's
//! route and an autopilot. One plugin per feature: the rules ([`rules`]), the track as it is
//! spawned ([`track`]), the runner's figure, the guardians who chase it, the ghost of the best
//! run, the camera, the route overlay, the HUD and the music's tempo.

mod camera;
mod chase;
mod figure;
pub mod ghost;
mod hud;
mod layout;
pub mod options;
mod palette;
mod projection;
mod pursuers;
mod route;
pub mod rules;
mod tempo;
mod track;

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
        track::plugin,
        figure::plugin,
        pursuers::plugin,
        ghost::plugin,
        camera::plugin,
        chase::plugin,
        options::plugin,
        route::plugin,
        hud::plugin,
        tempo::plugin,
    ));
}
