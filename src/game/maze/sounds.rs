//! The maze's sound effects, files in `assets/sounds/` made by `examples/make_sounds.rs`.

use crate::game::audio::Sound;

/// One step.
pub const FOOTSTEP: Sound = Sound("footstep.wav");
/// The maze was solved.
pub const WIN: Sound = Sound("win.wav");
/// A guardian caught the player (the runner's crash).
pub const CAUGHT: Sound = Sound("crash.wav");

/// Every sound of the maze.
pub const ALL: [Sound; 3] = [FOOTSTEP, WIN, CAUGHT];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_of_the_maze_has_its_file() {
        crate::game::audio::assert_sound_files_exist(&ALL);
    }
}
