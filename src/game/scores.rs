//! Best scores per mode and the coins banked over runner runs, kept in `scores.json` and written
//! atomically whenever a record falls or coins are banked.

use crate::files::{load_json_or_default, write_json_atomic};
use crate::game::screens::{AppSystems, ModeInfo};
use crate::game::storage::{StorageDir, StorageWarnings};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

/// The scores file's name inside [`StorageDir::data`].
pub const SCORES_FILE: &str = "scores.json";

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BestScores>()
        .add_systems(PreStartup, load_scores)
        .add_systems(
            Update,
            save_scores
                .run_if(|scores: Res<BestScores>| scores.unsaved)
                .in_set(AppSystems::Present),
        );
}

/// Seconds since 1970 (UTC), the time records and replays are stamped with; 0 if the clock is
/// before it.
pub fn unix_now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// Which way a board's records go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranking {
    /// Scores and distances: more is better.
    HigherIsBetter,
    /// Times and move counts: less is better.
    LowerIsBetter,
}

/// One record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BestScore {
    /// The score, time (seconds) or count, in the board's own unit.
    pub value: f64,
    /// The seed it was set on.
    pub seed: u64,
    /// When it was set, in seconds since the Unix epoch.
    pub recorded_unix: u64,
}

/// Everything in `scores.json`: one record per board, boards named `mode/detail`
/// (for example `maze/31x31/backtracker`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScoreBook {
    /// Records by board name.
    pub boards: BTreeMap<String, BestScore>,
    /// Coins taken over every runner run that counts (the autopilot's runs do not).
    pub coins_banked: u64,
}

/// The best scores of this player. Submit through [`BestScores::submit`]; saving is automatic.
#[derive(Resource, Debug, Default)]
pub struct BestScores {
    book: ScoreBook,
    /// True when a damaged file could not be moved aside, so it must not be overwritten.
    read_only: bool,
    /// A record fell or coins were banked since the file was last written.
    unsaved: bool,
}

impl BestScores {
    /// The name of a mode's board for a detail such as a size or difficulty: `mode/detail`.
    pub fn board_name(mode: &ModeInfo, detail: &str) -> String {
        crate::logic::replay::boards::board_name(mode.name, detail)
    }

    /// The record on a board, if any.
    pub fn best(&self, board: &str) -> Option<&BestScore> {
        self.book.boards.get(board)
    }

    /// Offers a result to a board and returns true when it is a new record (it is then saved).
    pub fn submit(&mut self, board: &str, ranking: Ranking, value: f64, seed: u64) -> bool {
        if !value.is_finite() {
            return false;
        }
        let is_record = match self.book.boards.get(board) {
            None => true,
            Some(old) => match ranking {
                Ranking::HigherIsBetter => value > old.value,
                Ranking::LowerIsBetter => value < old.value,
            },
        };
        if is_record {
            let recorded_unix = unix_now_s();
            self.book.boards.insert(
                board.to_owned(),
                BestScore {
                    value,
                    seed,
                    recorded_unix,
                },
            );
            self.unsaved = true;
        }
        is_record
    }

    /// Adds a run's coins to the bank (saved like a record) and returns the new total.
    pub fn bank_coins(&mut self, coins: u64) -> u64 {
        if coins > 0 {
            self.book.coins_banked = self.book.coins_banked.saturating_add(coins);
            self.unsaved = true;
        }
        self.book.coins_banked
    }

    /// Coins banked over every counted runner run.
    pub fn coins_banked(&self) -> u64 {
        self.book.coins_banked
    }

    /// Every record, by board name.
    pub fn book(&self) -> &ScoreBook {
        &self.book
    }
}

fn load_scores(
    dirs: Option<Res<StorageDir>>,
    mut scores: ResMut<BestScores>,
    mut warnings: ResMut<StorageWarnings>,
) {
    let Some(dirs) = dirs else {
        return;
    };
    let loaded = load_json_or_default::<ScoreBook>(&dirs.data.join(SCORES_FILE));
    if let Some(warning) = loaded.warning {
        warn!("{warning}");
        warnings.0.push(warning);
    }
    scores.book = loaded.value;
    scores.read_only = !loaded.writable;
}

fn save_scores(dirs: Option<Res<StorageDir>>, mut scores: ResMut<BestScores>) {
    scores.unsaved = false;
    let Some(dirs) = dirs else {
        return;
    };
    if scores.read_only {
        warn!("Scores not saved: the damaged scores file could not be moved aside");
        return;
    }
    if let Err(err) = write_json_atomic(&dirs.data.join(SCORES_FILE), &scores.book) {
        error!("Could not save best scores: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn higher_is_better_keeps_the_maximum() {
        let mut scores = BestScores::default();
        assert!(scores.submit("runner/normal", Ranking::HigherIsBetter, 100.0, 1));
        assert!(!scores.submit("runner/normal", Ranking::HigherIsBetter, 90.0, 2));
        assert!(!scores.submit("runner/normal", Ranking::HigherIsBetter, 100.0, 3));
        assert!(scores.submit("runner/normal", Ranking::HigherIsBetter, 120.0, 4));
        let best = scores.best("runner/normal").unwrap();
        assert_eq!((best.value, best.seed), (120.0, 4));
    }

    #[test]
    fn lower_is_better_keeps_the_minimum() {
        let mut scores = BestScores::default();
        assert!(scores.submit("maze/15x15/prim", Ranking::LowerIsBetter, 30.0, 1));
        assert!(scores.submit("maze/15x15/prim", Ranking::LowerIsBetter, 20.5, 1));
        assert!(!scores.submit("maze/15x15/prim", Ranking::LowerIsBetter, 25.0, 1));
        assert_eq!(scores.best("maze/15x15/prim").unwrap().value, 20.5);
    }

    #[test]
    fn coins_add_up_and_a_file_from_before_the_bank_starts_it_at_zero() {
        let mut scores = BestScores::default();
        assert_eq!(scores.bank_coins(0), 0);
        assert!(!scores.unsaved, "nothing banked, nothing to save");
        assert_eq!(scores.bank_coins(12), 12);
        assert_eq!(scores.bank_coins(30), 42);
        assert!(scores.unsaved);
        scores.book.coins_banked = u64::MAX - 1;
        assert_eq!(scores.bank_coins(5), u64::MAX, "the bank saturates");
        let old: ScoreBook = serde_json::from_str(
            r#"{"boards":{"runner/normal":{"value":65.0,"seed":42,"recorded_unix":1}}}"#,
        )
        .unwrap();
        assert_eq!(old.coins_banked, 0);
        assert_eq!(old.boards["runner/normal"].value, 65.0);
    }

    #[test]
    fn boards_are_separate_and_nan_is_refused() {
        let mut scores = BestScores::default();
        assert!(scores.submit("maze/a", Ranking::LowerIsBetter, 1.0, 0));
        assert!(scores.best("maze/b").is_none());
        assert!(scores.best("runner/a").is_none());
        assert!(!scores.submit("maze/b", Ranking::LowerIsBetter, f64::NAN, 0));
        assert_eq!(scores.book().boards.len(), 1);
    }
}
