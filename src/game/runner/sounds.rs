//! The runner's sound effects, files in `assets/sounds/` made by `examples/make_sounds.rs`.

use crate::game::audio::Sound;

/// A coin line was taken.
pub const COIN: Sound = Sound("coin.wav");
/// The runner jumped.
pub const JUMP: Sound = Sound("jump.wav");
/// The runner slid.
pub const SLIDE: Sound = Sound("slide.wav");
/// The runner changed lane.
pub const LANE_CHANGE: Sound = Sound("lane_change.wav");
/// The runner turned at a junction.
pub const TURN: Sound = Sound("turn.wav");
/// A crash or a fall.
pub const CRASH: Sound = Sound("crash.wav");
/// The runner clipped a log or a beam and stumbled on.
pub const STUMBLE: Sound = Sound("stumble.wav");
/// The runner took a power-up.
pub const POWER_UP: Sound = Sound("power_up.wav");
/// The shield absorbed a hit and broke.
pub const SHIELD_BREAK: Sound = Sound("shield_break.wav");

/// Every sound of the runner.
pub const ALL: [Sound; 9] = [
    COIN,
    JUMP,
    SLIDE,
    LANE_CHANGE,
    TURN,
    CRASH,
    STUMBLE,
    POWER_UP,
    SHIELD_BREAK,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_of_the_runner_has_its_file() {
        crate::game::audio::assert_sound_files_exist(&ALL);
    }
}
