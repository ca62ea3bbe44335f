//! Replays of finished runs: every mode sends its finished run's replay here, and the best run
//! of each board is kept in the data folder as `replays/<board>.json`, written atomically like
//! the scores.

use crate::files::write_json_atomic;
use crate::game::screens::AppSystems;
use crate::game::storage::{StorageDir, StorageWarnings};
use crate::logic::replay::Replay;
use bevy::prelude::*;
use std::path::PathBuf;

/// The folder inside [`StorageDir::data`] that holds the replays.
pub const REPLAYS_FOLDER: &str = "replays";

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RunRecorded>().add_systems(
        Update,
        keep_best_replays
            .run_if(on_message::<RunRecorded>.and_then(resource_exists::<StorageDir>))
            .in_set(AppSystems::Present),
    );
}

/// A run has finished and this is its replay.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct RunRecorded {
    /// The board its result went to (`runner/normal`).
    pub board: String,
    /// The whole run.
    pub replay: Replay,
    /// It set the board's record.
    pub new_record: bool,
}

/// Where the best replay of a board is kept: the board's name with `/` as `-`.
pub fn best_replay_path(storage: &StorageDir, board: &str) -> PathBuf {
    storage
        .data
        .join(REPLAYS_FOLDER)
        .join(format!("{}.json", board.replace('/', "-")))
}

fn keep_best_replays(
    mut recorded: MessageReader<RunRecorded>,
    storage: Res<StorageDir>,
    mut warnings: ResMut<StorageWarnings>,
) {
    for run in recorded.read().filter(|run| run.new_record) {
        let path = best_replay_path(&storage, &run.board);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| write_json_atomic(&path, &run.replay));
        if let Err(err) = written {
            warnings.0.push(format!(
                "The replay of your record could not be saved to {}: {err}",
                path.display()
            ));
        }
    }
}
