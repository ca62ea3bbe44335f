//! Records and ghosts, kept as replays in the data folder. Every finished run is sent here as a
//! replay ([`RunRecorded`]): the ten best runs of each board are kept in `replays/<board>/`, and
//! the best unassisted run of each seed on a board in `replays/<board>/ghosts/<seed>.json`, to run
//! beside the player as a ghost. Every file is played back when the game starts; one that does
//! not reproduce its result is set aside (renamed, never deleted) and the player is told.

use crate::files::{load_json_checked, write_json_atomic};
use crate::game::screens::AppSystems;
use crate::game::storage::{StorageDir, StorageWarnings};
use crate::logic::maze::challenge::MazeRules;
use crate::logic::replay::{self, REPLAY_FORMAT, REPLAY_VERSION, Replay, ReplayResult};
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The folder inside [`StorageDir::data`] that holds the replays.
pub const REPLAYS_FOLDER: &str = "replays";
/// The folder inside a board's folder that holds its ghosts.
pub const GHOSTS_FOLDER: &str = "ghosts";
/// Runs kept per board.
pub const RECORDS_PER_BOARD: usize = 10;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RunRecorded>()
        .init_resource::<Records>()
        .add_systems(Startup, load_records)
        .add_systems(
            Update,
            keep_records
                .run_if(on_message::<RunRecorded>)
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
}

/// One kept run.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The run.
    pub replay: Replay,
    /// Its file, when it was saved.
    pub file: Option<PathBuf>,
}

/// The kept runs: the best of each board, best first, and the ghosts by board and seed.
#[derive(Resource, Debug, Default)]
pub struct Records {
    boards: BTreeMap<String, Vec<Record>>,
    ghosts: BTreeMap<(String, u64), Record>,
}

impl Records {
    /// Every board with runs, in name order, each with its runs best first.
    pub fn boards(&self) -> impl Iterator<Item = (&str, &[Record])> {
        self.boards
            .iter()
            .map(|(board, runs)| (board.as_str(), runs.as_slice()))
    }

    /// Every kept run, board after board, each board best first: the records page's list.
    pub fn listed(&self) -> Vec<(&str, &Record)> {
        self.boards()
            .flat_map(|(board, runs)| runs.iter().map(move |record| (board, record)))
            .collect()
    }

    /// How many runs [`Records::listed`] lists, without listing them.
    pub fn len(&self) -> usize {
        self.boards.values().map(Vec::len).sum()
    }

    /// Whether no run is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The ghost of a seed on a board: its best unassisted run.
    pub fn ghost(&self, board: &str, seed: u64) -> Option<&Replay> {
        self.ghosts
            .get(&(board.to_owned(), seed))
            .map(|record| &record.replay)
    }

    /// Adds a run to its board, which keeps its [`RECORDS_PER_BOARD`] best. Returns the record
    /// that fell off the board, if one did, and whether this run is on the board.
    fn add(&mut self, board: &str, record: Record) -> (Option<Record>, bool) {
        let runs = self.boards.entry(board.to_owned()).or_default();
        let at = runs.partition_point(|kept| !better(&record.replay, &kept.replay));
        runs.insert(at, record);
        let dropped = (runs.len() > RECORDS_PER_BOARD)
            .then(|| runs.pop())
            .flatten();
        (dropped, at < RECORDS_PER_BOARD)
    }

    /// Makes `record` the ghost of its seed on `board` if it is unassisted and beats the ghost
    /// there. Returns whether it did.
    fn offer_ghost(&mut self, board: &str, record: Record) -> bool {
        if result_assisted(&record.replay.result) {
            return false;
        }
        let key = (board.to_owned(), record.replay.seed);
        let beats = self
            .ghosts
            .get(&key)
            .is_none_or(|ghost| better(&record.replay, &ghost.replay));
        if beats {
            self.ghosts.insert(key, record);
        }
        beats
    }
}

/// Whether run `a` ranks above run `b` on a board: unassisted runs first, then the higher score
/// (runner) or the shorter time (maze), then the earlier.
pub fn better(a: &Replay, b: &Replay) -> bool {
    rank(a) < rank(b)
}

/// A run's place in a ranking, smallest first.
fn rank(replay: &Replay) -> (bool, i128, u64) {
    let value = match replay.result {
        ReplayResult::Runner { score, .. } => -i128::from(score),
        ReplayResult::Maze {
            ticks,
            hints_used,
            finished,
            ..
        } => {
            if finished {
                // The time that counts, with what the hints cost.
                i128::from(MazeRules::of(replay.difficulty).counted_ticks(ticks, hints_used))
            } else {
                i128::MAX
            }
        }
    };
    (
        result_assisted(&replay.result),
        value,
        replay.recorded_unix_s,
    )
}

fn result_assisted(result: &ReplayResult) -> bool {
    match result {
        ReplayResult::Runner { assisted, .. } | ReplayResult::Maze { assisted, .. } => *assisted,
    }
}

/// The folder of a board's runs: the board's name with `/` as `+`.
pub fn board_folder(storage: &StorageDir, board: &str) -> PathBuf {
    storage
        .data
        .join(REPLAYS_FOLDER)
        .join(board.replace('/', "+"))
}

/// The board a folder holds.
fn board_of_folder(folder: &Path) -> Option<String> {
    Some(folder.file_name()?.to_str()?.replace('+', "/"))
}

/// Reads a replay file and plays it back; a file that is not a replay or does not reproduce its
/// result is set aside with a warning.
fn load_replay(path: &Path, warnings: &mut StorageWarnings) -> Option<Record> {
    let loaded = load_json_checked::<Option<Replay>>(path, |replay| {
        let Some(replay) = replay else {
            return Err("it is empty".to_owned());
        };
        if replay.format != REPLAY_FORMAT || replay.version != REPLAY_VERSION {
            return Err(format!(
                "it is not a replay of version {REPLAY_VERSION} of this game"
            ));
        }
        replay::verify(replay)
            .map(|_| ())
            .map_err(|err| err.to_string())
    });
    if let Some(warning) = loaded.warning {
        warn!("{warning}");
        warnings.0.push(warning);
    }
    loaded.value.map(|replay| Record {
        replay,
        file: Some(path.to_path_buf()),
    })
}

/// The JSON files of a folder, in name order.
fn json_files(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn load_records(
    storage: Option<Res<StorageDir>>,
    mut records: ResMut<Records>,
    mut warnings: ResMut<StorageWarnings>,
) {
    let Some(storage) = storage else {
        return;
    };
    let root = storage.data.join(REPLAYS_FOLDER);
    let Ok(folders) = std::fs::read_dir(&root) else {
        return;
    };
    let mut folders: Vec<PathBuf> = folders
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        let Some(board) = board_of_folder(&folder) else {
            continue;
        };
        for file in json_files(&folder) {
            if let Some(record) = load_replay(&file, &mut warnings) {
                // More than the board keeps (a hand-copied file) stays on disk but not in view.
                records.add(&board, record);
            }
        }
        for file in json_files(&folder.join(GHOSTS_FOLDER)) {
            if let Some(record) = load_replay(&file, &mut warnings) {
                records.offer_ghost(&board, record);
            }
        }
    }
}

/// Keeps a finished run on its board (and as its seed's ghost) when it ranks, in memory and,
/// with a data folder, on disk.
fn keep_records(
    mut recorded: MessageReader<RunRecorded>,
    storage: Option<Res<StorageDir>>,
    mut records: ResMut<Records>,
    mut warnings: ResMut<StorageWarnings>,
) {
    for run in recorded.read() {
        let folder = storage
            .as_deref()
            .map(|storage| board_folder(storage, &run.board));
        let name = format!(
            "{}-{}.json",
            run.replay.recorded_unix_s,
            run.replay.result.ticks()
        );
        let file = folder.as_ref().map(|folder| folder.join(&name));
        let record = Record {
            replay: run.replay.clone(),
            file: file.clone(),
        };
        let (dropped, kept) = records.add(&run.board, record.clone());
        let ghost_file = folder.as_ref().map(|folder| {
            folder
                .join(GHOSTS_FOLDER)
                .join(format!("{}.json", run.replay.seed))
        });
        let ghost = Record {
            file: ghost_file.clone(),
            ..record
        };
        let is_ghost = records.offer_ghost(&run.board, ghost);
        let writes = [(kept, file), (is_ghost, ghost_file)];
        for path in writes
            .into_iter()
            .filter_map(|(write, path)| write.then_some(path)?)
        {
            save(&path, &run.replay, &mut warnings);
        }
        // A run that fell off its board is no longer kept.
        if let Some(path) = dropped.and_then(|record| record.file) {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn save(path: &Path, replay: &Replay, warnings: &mut StorageWarnings) {
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| write_json_atomic(path, replay));
    if let Err(err) = written {
        warnings.0.push(format!(
            "A replay could not be saved to {}: {err}",
            path.display()
        ));
    }
}
