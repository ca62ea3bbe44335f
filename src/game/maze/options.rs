//! The player's maze settings: size preset (or a custom size), algorithm and braid.

use crate::logic::maze::{Algorithm, MAX_SIDE, MIN_SIDE, MazeSpec};
use serde::{Deserialize, Serialize};

/// The maze sizes on offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MazeSize {
    /// 15 x 15: a couple of minutes.
    #[default]
    Small,
    /// 31 x 31.
    Medium,
    /// 61 x 61.
    Large,
    /// 201 x 201: the camera follows the player.
    Huge,
    /// Any width and height from 2 to 1000.
    Custom,
}

impl MazeSize {
    /// Every size, smallest first.
    pub const ALL: [MazeSize; 5] = [
        MazeSize::Small,
        MazeSize::Medium,
        MazeSize::Large,
        MazeSize::Huge,
        MazeSize::Custom,
    ];

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            MazeSize::Small => "Small 15x15",
            MazeSize::Medium => "Medium 31x31",
            MazeSize::Large => "Large 61x61",
            MazeSize::Huge => "Huge 201x201",
            MazeSize::Custom => "Custom",
        }
    }

    /// The cells along each side, for the presets.
    pub const fn side(self) -> Option<usize> {
        match self {
            MazeSize::Small => Some(15),
            MazeSize::Medium => Some(31),
            MazeSize::Large => Some(61),
            MazeSize::Huge => Some(201),
            MazeSize::Custom => None,
        }
    }
}

/// The largest braid, in percent of dead ends.
pub const MAX_BRAID_PERCENT: u8 = 100;

/// The maze section of `settings.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MazeOptions {
    /// The size preset.
    pub size: MazeSize,
    /// Width used when `size` is Custom, 2..=1000.
    pub custom_width: usize,
    /// Height used when `size` is Custom, 2..=1000.
    pub custom_height: usize,
    /// The carving algorithm.
    pub algorithm: Algorithm,
    /// Percent of dead ends given an extra opening, 0..=100.
    pub braid_percent: u8,
}

impl Default for MazeOptions {
    fn default() -> Self {
        Self {
            size: MazeSize::Small,
            custom_width: 40,
            custom_height: 25,
            algorithm: Algorithm::Backtracker,
            braid_percent: 0,
        }
    }
}

impl MazeOptions {
    /// Width and height in cells.
    pub fn dimensions(&self) -> (usize, usize) {
        match self.size.side() {
            Some(side) => (side, side),
            None => (self.custom_width, self.custom_height),
        }
    }

    /// The maze these options and a seed describe.
    pub fn spec(&self, seed: u64) -> MazeSpec {
        let (width, height) = self.dimensions();
        MazeSpec {
            width,
            height,
            algorithm: self.algorithm,
            braid: f64::from(self.braid_percent) / 100.0,
            seed,
        }
    }

    /// Brings out-of-range values into range and says what changed.
    pub fn sanitize(&mut self) -> Vec<String> {
        let mut changes = Vec::new();
        for (name, side) in [
            ("maze.custom_width", &mut self.custom_width),
            ("maze.custom_height", &mut self.custom_height),
        ] {
            if !(MIN_SIDE..=MAX_SIDE).contains(side) {
                let fixed = (*side).clamp(MIN_SIDE, MAX_SIDE);
                changes.push(format!(
                    "{name} {side} is outside {MIN_SIDE} to {MAX_SIDE}; using {fixed}"
                ));
                *side = fixed;
            }
        }
        if self.braid_percent > MAX_BRAID_PERCENT {
            changes.push(format!(
                "maze.braid_percent {} is outside 0 to {MAX_BRAID_PERCENT}; using {MAX_BRAID_PERCENT}",
                self.braid_percent
            ));
            self.braid_percent = MAX_BRAID_PERCENT;
        }
        changes
    }

    /// The name of this maze's best-time board: size and algorithm, plus braid when used.
    pub fn score_board(&self) -> String {
        let (width, height) = self.dimensions();
        let algorithm = self.algorithm;
        if self.braid_percent == 0 {
            format!("{width}x{height}/{algorithm}")
        } else {
            format!("{width}x{height}/{algorithm}/braid{}", self.braid_percent)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_the_advertised_sizes() {
        let sides: Vec<_> = MazeSize::ALL.iter().filter_map(|s| s.side()).collect();
        assert_eq!(sides, vec![15, 31, 61, 201]);
    }

    #[test]
    fn custom_sizes_are_clamped_with_a_message() {
        let mut options = MazeOptions {
            size: MazeSize::Custom,
            custom_width: 1,
            custom_height: 5000,
            braid_percent: 250,
            ..MazeOptions::default()
        };
        let changes = options.sanitize();
        assert_eq!(options.dimensions(), (2, 1000));
        assert_eq!(options.braid_percent, 100);
        assert_eq!(changes.len(), 3);
        assert!(changes[0].contains("2 to 1000"), "{}", changes[0]);
    }

    #[test]
    fn boards_separate_sizes_algorithms_and_braid() {
        let plain = MazeOptions::default();
        let braided = MazeOptions {
            braid_percent: 10,
            ..plain
        };
        assert_eq!(plain.score_board(), "15x15/backtracker");
        assert_eq!(braided.score_board(), "15x15/backtracker/braid10");
    }
}
