//! Wanderers mode: a sandbox of NPCs that wander near home toward Perlin-moved targets and
//! smooth their A* paths for their bodies around stone. One plugin per feature: the settings
//! ([`options`]), the NPCs' steering ([`steering`]), choosing an NPC to watch ([`selection`]), the
//! live statistics ([`stats`]), and the drawing and side panel.

mod far_view;
pub mod options;
mod panel;
pub mod selection;
pub mod stats;
pub mod steering;
mod view;

pub use selection::{SelectedNpc, SelectedRoute};
pub use stats::WanderersStats;
pub use steering::WanderersRun;

use crate::game::screens::{Mode, ModeInfo, Screen};
use bevy::prelude::*;

/// What the title screen and the command line know of the wanderers.
pub const MODE: ModeInfo = ModeInfo {
    name: "wanderers",
    label: "Wanderers",
    blurb: "Watch NPCs wander near home and find their way around stone.",
    music: None,
    difficulty_shapes: None,
    daily: false,
    records: None,
    plugin,
};

/// The screen that plays it.
pub const SCREEN: Screen = Screen::Mode(Mode(&MODE));

fn plugin(app: &mut App) {
    app.add_plugins((
        options::plugin,
        steering::plugin,
        selection::plugin,
        stats::plugin,
        view::plugin,
        panel::plugin,
    ));
}
