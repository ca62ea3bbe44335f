//! How a runner run's end is shown: the result of a run just played and its dialog, and how a
//! recorded run is described on the records page and at the end of watching it.

use crate::game::menu::dialog::{DialogNote, ResultDialog};
use crate::game::menu::{MenuItem, item_label};
use crate::game::scores::BestScore;
use crate::logic::difficulty::Difficulty;
use crate::logic::replay::Replay;
use crate::logic::runner::body::Crash;
use crate::logic::runner::replay::RunnerKind;
use bevy::prelude::*;

/// The result shown in the game-over dialog.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct RunnerResult {
    /// Metres run.
    pub distance_m: f64,
    /// Coin lines taken.
    pub coins: u32,
    /// The run's score (see [`RunnerBody::score`](crate::logic::runner::body::RunnerBody::score)).
    pub score: u64,
    /// Stumbles, the one the guardians caught included.
    pub stumbles: u32,
    /// Power-ups taken, of every kind.
    pub powerups: u32,
    /// What ended the run.
    pub crash: Crash,
    /// The seed.
    pub seed: u64,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// The best score at this difficulty after this run, if any.
    pub best: Option<BestScore>,
    /// This run set the best score.
    pub new_record: bool,
    /// The autopilot ran, so no score was recorded and no coins were banked.
    pub assisted: bool,
    /// The first runs' guide helped, so the run went on no board (its coins were banked).
    pub guided: bool,
    /// Coins banked over every counted run, this one included.
    pub coins_banked: u64,
}

/// The result dialog of a finished run.
pub(super) fn result_dialog(result: &RunnerResult) -> ResultDialog {
    let best = result
        .best
        .as_ref()
        .map_or_else(|| "none yet".to_owned(), |b| format!("{:.0}", b.value));
    let note = if result.assisted {
        Some(DialogNote::NotRecorded(
            "The autopilot ran: this score is not recorded and its coins are not banked."
                .to_owned(),
        ))
    } else if result.guided {
        Some(DialogNote::NotRecorded(
            "A guided run: it goes on no board. The guide stops once you have met each thing once."
                .to_owned(),
        ))
    } else {
        result
            .new_record
            .then(|| DialogNote::Record("New best score!".to_owned()))
    };
    ResultDialog {
        title: "The temple claims another runner".to_owned(),
        subtitle: Some(result.crash.describe().to_owned()),
        figures: vec![
            ("Distance".to_owned(), format!("{:.0} m", result.distance_m)),
            ("Coins".to_owned(), result.coins.to_string()),
            ("Coins banked".to_owned(), result.coins_banked.to_string()),
            ("Power-ups".to_owned(), result.powerups.to_string()),
            ("Stumbles".to_owned(), result.stumbles.to_string()),
            ("Score".to_owned(), result.score.to_string()),
            (format!("Best ({})", result.difficulty.label()), best),
            ("Seed".to_owned(), result.seed.to_string()),
        ],
        note,
        buttons: vec![
            (MenuItem::Restart, "Retry (same seed)"),
            (MenuItem::PlayAgainNewSeed, "New run (new seed)"),
            (MenuItem::MainMenu, item_label(MenuItem::MainMenu)),
        ],
    }
}

/// The figures of the dialog at the end of watching a recorded run.
pub fn replay_figures(replay: &Replay) -> Vec<(String, String)> {
    let Ok(outcome) = replay.result.outcome::<RunnerKind>() else {
        return Vec::new();
    };
    vec![
        (
            "Distance".to_owned(),
            format!("{:.0} m", outcome.distance_m),
        ),
        ("Coins".to_owned(), outcome.coins.to_string()),
        ("Stumbles".to_owned(), outcome.stumbles.to_string()),
        ("Score".to_owned(), outcome.score.to_string()),
    ]
}
