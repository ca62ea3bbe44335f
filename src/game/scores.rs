//! Best scores per mode, kept in `scores.json` and written atomically whenever a record falls.

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
}

/// The best scores of this player. Submit through [`BestScores::submit`]; saving is automatic.
#[derive(Resource, Debug, Default)]
pub struct BestScores {
    book: ScoreBook,
    /// True when a damaged file could not be moved aside, so it must not be overwritten.
    read_only: bool,
    /// A record fell since the file was last written.
    unsaved: bool,
}

impl BestScores {
    /// The name of a mode's board for a detail such as a size or difficulty: `mode/detail`.
    pub fn board_name(mode: &ModeInfo, detail: &str) -> String {
        format!("{}/{detail}", mode.name)
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
            let recorded_unix = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
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
    fn boards_are_separate_and_nan_is_refused() {
        let mut scores = BestScores::default();
        assert!(scores.submit("maze/a", Ranking::LowerIsBetter, 1.0, 0));
        assert!(scores.best("maze/b").is_none());
        assert!(scores.best("runner/a").is_none());
        assert!(!scores.submit("maze/b", Ranking::LowerIsBetter, f64::NAN, 0));
        assert_eq!(scores.book().boards.len(), 1);
    }
}
