//! The colours of the runner's world, the same in every view: the ground, the obstacles, the
//! coins and power-ups, the scenery, the route and the guardians.

use crate::logic::runner::powerups::PowerUp;
use bevy_color::Color;

/// The path's floor, alternating light and dark from one segment to the next.
pub const FLOOR_LIGHT: Color = Color::srgb(0.60, 0.49, 0.34);
/// See [`FLOOR_LIGHT`].
pub const FLOOR_DARK: Color = Color::srgb(0.55, 0.44, 0.30);
/// The stone kerbs, and the statues' plinths.
pub const KERB_COLOUR: Color = Color::srgb(0.30, 0.23, 0.16);
/// The dashes between lanes.
pub const LANE_LINE: Color = Color::srgba(0.25, 0.18, 0.12, 0.45);
/// A log's bark.
pub const LOG_COLOUR: Color = Color::srgb(0.46, 0.26, 0.10);
/// A log's cut ends.
pub const LOG_END: Color = Color::srgb(0.72, 0.52, 0.30);
/// The beam to slide under.
pub const BEAM_COLOUR: Color = Color::srgb(0.47, 0.55, 0.66);
/// The beam's pillars.
pub const PILLAR_COLOUR: Color = Color::srgb(0.28, 0.32, 0.42);
/// Shadows of obstacles, coins and bodies.
pub const SHADOW: Color = Color::srgba(0.0, 0.0, 0.0, 0.35);
/// A stone wall.
pub const WALL_COLOUR: Color = Color::srgb(0.20, 0.18, 0.19);
/// A wall's top.
pub const WALL_TOP: Color = Color::srgb(0.42, 0.38, 0.36);
/// A coin's face.
pub const COIN_COLOUR: Color = Color::srgb(1.0, 0.82, 0.22);
/// A coin's rim.
pub const COIN_RIM: Color = Color::srgb(0.78, 0.55, 0.08);
/// A power-up's glow, its colour and its core, per kind in the order of [`PowerUp::ALL`]: a lime
/// magnet, a sky-blue shield and a violet multiplier, none of them a colour the track or the
/// runner uses.
const POWERUP_COLOURS: [Color; 3] = [
    Color::srgb(0.55, 0.95, 0.30),
    Color::srgb(0.30, 0.75, 1.0),
    Color::srgb(0.70, 0.35, 0.95),
];
/// The white core of a power-up's orb.
pub const POWERUP_CORE: Color = Color::srgb(1.0, 0.97, 0.90);
/// The arrow on a junction, pointing the way to turn.
pub const ARROW_COLOUR: Color = Color::srgba(0.95, 0.75, 0.25, 0.85);
/// The jungle's floor beside the path.
pub const JUNGLE_FLOOR: Color = Color::srgb(0.07, 0.13, 0.07);
/// The canopies of the deep jungle's trees.
pub const CANOPY: [Color; 3] = [
    Color::srgb(0.10, 0.25, 0.10),
    Color::srgb(0.13, 0.31, 0.12),
    Color::srgb(0.08, 0.20, 0.09),
];
/// The canopies of the ruins' trees.
pub const RUINS_CANOPY: [Color; 3] = [
    Color::srgb(0.22, 0.27, 0.12),
    Color::srgb(0.28, 0.31, 0.14),
    Color::srgb(0.18, 0.22, 0.11),
];
/// The canopies of a grove's pale trees.
pub const GROVE_CANOPY: [Color; 3] = [
    Color::srgb(0.30, 0.48, 0.20),
    Color::srgb(0.38, 0.55, 0.24),
    Color::srgb(0.26, 0.42, 0.18),
];
/// A statue's stone.
pub const STATUE_COLOUR: Color = Color::srgb(0.45, 0.41, 0.35);
/// The planner's route.
pub const ROUTE_COLOUR: Color = Color::srgba(0.35, 0.95, 0.75, 0.9);
/// A red glow around each guardian, so they stand out on the path and the jungle alike.
pub const GUARDIAN_GLOW: Color = Color::srgba(0.85, 0.15, 0.08, 0.35);
/// A guardian's stone body.
pub const GUARDIAN_BODY: Color = Color::srgb(0.32, 0.30, 0.27);
/// A guardian's mask.
pub const GUARDIAN_MASK: Color = Color::srgb(0.55, 0.47, 0.30);
/// A guardian's glowing eyes.
pub const GUARDIAN_EYES: Color = Color::srgb(1.0, 0.55, 0.10);

/// The colour a power-up is drawn in.
pub fn powerup_colour(kind: PowerUp) -> Color {
    POWERUP_COLOURS[kind.slot()]
}
