//! Runner mode: an endless three-lane temple run on a certified noise track, with the planner's
//! route and an autopilot. One plugin per feature: the rules ([`rules`]), the actions and their
//! bindings ([`controls`]), the first runs' guidance ([`guide`]), the ghost of the best run, the
//! world every view draws ([`world`]), the two views of it ([`chase`], the default, and
//! [`top_down`]; only the one shown runs), the settings, the HUD and the music's tempo.

mod chase;
pub mod controls;
pub mod ghost;
pub mod guide;
mod hud;
pub mod options;
pub mod results;
pub mod rules;
pub mod sounds;
mod tempo;
mod top_down;
pub mod world;

pub use results::RunnerResult;
pub use rules::{AUTOPILOT, RunnerEvent, RunnerRun};

use crate::game::screens::{Mode, ModeInfo, ModeRecords, Screen};
use crate::logic::replay::RunKind;
use crate::logic::runner::replay::RunnerKind;
use bevy::prelude::*;

/// The runner's music loop, an asset path.
pub const MUSIC: &str = "music/runner.wav";

/// What the title screen and the command line know of the runner.
pub const MODE: ModeInfo = ModeInfo {
    name: RunnerKind::MODE,
    label: "Runner",
    blurb: "Run the endless temple: jump, slide, dodge and turn.",
    music: Some(MUSIC),
    difficulty_shapes: Some("speed, obstacles"),
    daily: true,
    records: Some(ModeRecords { kind: &RunnerKind }),
    plugin,
};

/// The screen that plays it.
pub const SCREEN: Screen = Screen::Mode(Mode(&MODE));

fn plugin(app: &mut App) {
    app.add_plugins((
        rules::plugin,
        controls::plugin,
        ghost::plugin,
        guide::plugin,
        world::plugin,
        chase::plugin,
        top_down::plugin,
        options::plugin,
        hud::plugin,
        tempo::plugin,
    ));
}
