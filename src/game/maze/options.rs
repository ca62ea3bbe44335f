//! The player's maze settings: size preset (or a custom size), algorithm, braid and the first
//! runs' tips with what they have pointed out, as the maze's section of the settings page and
//! of `settings.json`.

use crate::game::menu::MenuItem;
use crate::game::menu::rows::{NumberSetting, SettingEdit, SettingRow, SettingValue};
use crate::game::menu::settings_page::{SettingsPage, settings_page};
use crate::game::settings::{ModeSettings, mode_settings_plugin};
use crate::logic::difficulty::Difficulty;
use crate::logic::guidance::Guidance;
use crate::logic::maze::replay::board_detail;
use crate::logic::maze::run::MazeSetup;
use crate::logic::maze::{Algorithm, MAX_SIDE, MIN_SIDE, MazeSpec};
use crate::logic::ranges::clamp_into;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    mode_settings_plugin::<MazeOptions>(app);
    settings_page::<MazeOptions>(app);
}

/// The size row.
pub const SIZE: MenuItem = MenuItem::Setting("maze.size");
/// The custom width row (shown for a custom size).
pub const CUSTOM_WIDTH: MenuItem = MenuItem::Setting("maze.custom_width");
/// The custom height row (shown for a custom size).
pub const CUSTOM_HEIGHT: MenuItem = MenuItem::Setting("maze.custom_height");
/// The algorithm row.
pub const ALGORITHM: MenuItem = MenuItem::Setting("maze.algorithm");
/// The braid row.
pub const BRAID: MenuItem = MenuItem::Setting("maze.braid");
/// The first runs' tips row.
pub const GUIDANCE: MenuItem = MenuItem::Setting("maze.guidance");

/// What the maze's first runs point out, once each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MazeLesson {
    /// In the dark, the torch lights only the cells near the player.
    Torch,
    /// The hint shows the way out, at a price in time.
    Hint,
}

impl MazeLesson {
    /// Every lesson, in the order they are pointed out.
    pub const ALL: [MazeLesson; 2] = [MazeLesson::Torch, MazeLesson::Hint];
}
/// How far one key press moves the braid, in percent.
const BRAID_STEP: f64 = 5.0;

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
#[derive(Resource, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The first runs point out the torch and the hint, until each has been seen.
    pub guidance: Guidance<MazeLesson>,
}

impl Default for MazeOptions {
    fn default() -> Self {
        Self {
            size: MazeSize::Small,
            custom_width: 40,
            custom_height: 25,
            algorithm: Algorithm::Backtracker,
            braid_percent: 0,
            guidance: Guidance::default(),
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

    /// The name of the best-time board of the first level these options make at a difficulty.
    pub fn score_board(&self, difficulty: Difficulty) -> String {
        board_detail(&MazeSetup::first_level(self.spec(0), difficulty))
    }
}

impl ModeSettings for MazeOptions {
    const SECTION: &'static str = "maze";

    fn sanitize(&mut self) -> Vec<String> {
        let d = MazeOptions::default();
        let sides = MIN_SIDE..=MAX_SIDE;
        [
            clamp_into(
                &mut self.custom_width,
                &sides,
                d.custom_width,
                "maze.custom_width",
            ),
            clamp_into(
                &mut self.custom_height,
                &sides,
                d.custom_height,
                "maze.custom_height",
            ),
            clamp_into(
                &mut self.braid_percent,
                &(0..=MAX_BRAID_PERCENT),
                d.braid_percent,
                "maze.braid_percent",
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

impl SettingsPage for MazeOptions {
    const PAGE_TITLE: Option<&'static str> = Some("Maze");

    fn rows(&self) -> Vec<SettingRow> {
        let side = |value: usize| NumberSetting {
            logarithmic: true,
            ..NumberSetting::whole(value as f64, MIN_SIDE as f64..=MAX_SIDE as f64)
        };
        let mut rows = vec![SettingRow {
            item: SIZE,
            label: "Size",
            value: SettingValue::choice(&MazeSize::ALL, self.size, MazeSize::label),
        }];
        if self.size == MazeSize::Custom {
            rows.push(SettingRow {
                item: CUSTOM_WIDTH,
                label: "Width (cells)",
                value: SettingValue::Number(side(self.custom_width)),
            });
            rows.push(SettingRow {
                item: CUSTOM_HEIGHT,
                label: "Height (cells)",
                value: SettingValue::Number(side(self.custom_height)),
            });
        }
        rows.push(SettingRow {
            item: ALGORITHM,
            label: "Algorithm",
            value: SettingValue::choice(&Algorithm::ALL, self.algorithm, Algorithm::label),
        });
        rows.push(SettingRow {
            item: BRAID,
            label: "Braid (loops)",
            value: SettingValue::Number(NumberSetting {
                key_step: BRAID_STEP,
                suffix: " %",
                ..NumberSetting::whole(
                    f64::from(self.braid_percent),
                    0.0..=f64::from(MAX_BRAID_PERCENT),
                )
            }),
        });
        rows.push(SettingRow {
            item: GUIDANCE,
            label: "First-run tips",
            value: SettingValue::Toggle(self.guidance.on),
        });
        rows
    }

    fn apply(&mut self, item: MenuItem, edit: SettingEdit) {
        match (item, edit) {
            (SIZE, SettingEdit::Choice(index)) => self.size = MazeSize::ALL[index],
            (ALGORITHM, SettingEdit::Choice(index)) => self.algorithm = Algorithm::ALL[index],
            // Rows hand over values already in their ranges.
            (CUSTOM_WIDTH, SettingEdit::Number(cells)) => self.custom_width = cells as usize,
            (CUSTOM_HEIGHT, SettingEdit::Number(cells)) => self.custom_height = cells as usize,
            (BRAID, SettingEdit::Number(percent)) => self.braid_percent = percent as u8,
            (GUIDANCE, SettingEdit::Toggle(on)) => self.guidance.switch(on),
            _ => {}
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
    fn custom_sides_are_rows_only_for_a_custom_size() {
        let items = |options: MazeOptions| -> Vec<MenuItem> {
            options.rows().iter().map(|row| row.item).collect()
        };
        assert_eq!(
            items(MazeOptions::default()),
            vec![SIZE, ALGORITHM, BRAID, GUIDANCE]
        );
        let custom = MazeOptions {
            size: MazeSize::Custom,
            ..MazeOptions::default()
        };
        assert_eq!(
            items(custom),
            vec![
                SIZE,
                CUSTOM_WIDTH,
                CUSTOM_HEIGHT,
                ALGORITHM,
                BRAID,
                GUIDANCE
            ]
        );
    }

    #[test]
    fn every_row_edit_lands_in_the_options() {
        let mut options = MazeOptions::default();
        options.apply(SIZE, SettingEdit::Choice(4));
        options.apply(CUSTOM_WIDTH, SettingEdit::Number(123.0));
        options.apply(CUSTOM_HEIGHT, SettingEdit::Number(7.0));
        options.apply(ALGORITHM, SettingEdit::Choice(3));
        options.apply(BRAID, SettingEdit::Number(35.0));
        assert_eq!(options.dimensions(), (123, 7));
        assert_eq!(options.algorithm, Algorithm::Wilson);
        assert_eq!(options.braid_percent, 35);
        assert!(options.sanitize().is_empty());
    }

    #[test]
    fn boards_separate_sizes_algorithms_braid_difficulties_and_levels() {
        let plain = MazeOptions::default();
        let braided = MazeOptions {
            braid_percent: 10,
            ..plain.clone()
        };
        assert_eq!(
            plain.score_board(Difficulty::Normal),
            "15x15/backtracker/normal"
        );
        assert_eq!(
            braided.score_board(Difficulty::Hard),
            "15x15/backtracker/braid10/hard"
        );
        let third = MazeSetup {
            level: 3,
            ..MazeSetup::first_level(plain.spec(1), Difficulty::Easy)
        };
        assert_eq!(board_detail(&third), "15x15/backtracker/easy/level3");
    }
}
