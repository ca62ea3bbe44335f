//! Records and ghosts, kept as replays in the data folder. Every finished run is sent here as a
//! replay ([`RunRecorded`]): the ten best runs of each board are kept in `replays/<board>/`, and
//! the best unassisted run of each seed on a board in `replays/<board>/ghosts/`, to run beside
//! the player as a ghost.
//!
//! The files are checked when the game starts, on a thread of their own ([`checking`]): the title
//! shows at once, the records page marks the runs still being checked, and each run is listed
//! as soon as it has played back as recorded. A file that does not, or is in the wrong place, or
//! cannot be a run of this game, is set aside (renamed, never deleted) and the player is told.
//! Runs finished meanwhile wait until the check is done, so a file is never written beside one
//! still being read. A new file never takes the name of one that is there, and a file is
//! deleted only when it is the very run that fell off its board.

pub mod checking;

use crate::files::{ReadError, read_plain_file, real_folder_within, write_new_file};
use crate::game::screens::{AppSystems, ModeInfo, Modes};
use crate::game::storage::{StorageDir, StorageWarnings};
use crate::logic::replay::boards::check_board;
use crate::logic::replay::boards::date_of;
use crate::logic::replay::limits::MAX_REPLAY_BYTES;
use crate::logic::replay::{Replay, ReplayError, ReplayKind, to_bytes};
use bevy::prelude::*;
use checking::{CheckFolders, Claim, Progress, check_records};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The folder inside [`StorageDir::data`] that holds the replays.
pub const REPLAYS_FOLDER: &str = "replays";
/// The folder inside a board's folder that holds its ghosts.
pub const GHOSTS_FOLDER: &str = "ghosts";
/// Runs kept per board.
pub const RECORDS_PER_BOARD: usize = 10;
/// The longest one record file may take to play back when the game starts, unless set
/// otherwise ([`RecordCheckBudget`]). The longest run a replay holds takes a few seconds on a
/// slow machine; a file still playing after this is set aside.
pub const DEFAULT_CHECK_BUDGET: Duration = Duration::from_secs(60);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RunRecorded>()
        .init_resource::<Records>()
        .init_resource::<RecordCheckBudget>()
        .add_systems(Startup, start_checking_records)
        .add_systems(
            OnEnter(crate::game::screens::Screen::Title),
            |mut commands: Commands| {
                commands.remove_resource::<RaceGhost>();
            },
        )
        .add_systems(
            Update,
            (
                receive_checked_records.run_if(resource_exists::<RecordCheck>),
                keep_records.run_if(on_message::<RunRecorded>),
            )
                .chain()
                .in_set(AppSystems::Present),
        );
}

/// A ghost the player chose to race, in place of their own best run of the seed: a world board's
/// run, checked when it was downloaded. It lasts until the title screen.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct RaceGhost(pub Replay);

impl RaceGhost {
    /// The chosen ghost when it is a run of `mode` on this seed and difficulty.
    pub fn of<'a>(
        chosen: Option<&'a RaceGhost>,
        mode: &str,
        seed: u64,
        difficulty: crate::logic::difficulty::Difficulty,
    ) -> Option<&'a Replay> {
        chosen.map(|race| &race.0).filter(|replay| {
            replay.run.mode() == mode && replay.seed == seed && replay.difficulty == difficulty
        })
    }
}

/// A run has finished and this is its replay.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct RunRecorded {
    /// The board its result went to (`runner/normal`).
    pub board: String,
    /// The whole run.
    pub replay: Replay,
}

/// How long one record file may take to play back at the start.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordCheckBudget(pub Duration);

impl Default for RecordCheckBudget {
    fn default() -> Self {
        RecordCheckBudget(DEFAULT_CHECK_BUDGET)
    }
}

/// A file's part in its board's folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    /// One of the board's best runs.
    Run,
    /// The best unassisted run of its seed on the board.
    Ghost,
}

/// One kept run.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The run.
    pub replay: Replay,
    /// Its file, when it was saved.
    pub file: Option<PathBuf>,
    /// The BLAKE3 hash of the file's bytes: the file is this run only while they hash so.
    pub digest: [u8; 32],
    /// Its place among the runs of its board, as its mode ranks them: smaller ranks higher.
    pub standing: i128,
}

impl Record {
    /// A run of `kind` as it will be written, with the hash of those bytes, and no file yet.
    fn of_run(replay: Replay, kind: &dyn ReplayKind) -> Result<(Record, Vec<u8>), ReplayError> {
        let standing = kind.standing(&replay)?;
        let bytes = to_bytes(&replay);
        let digest = *blake3::hash(&bytes).as_bytes();
        let record = Record {
            replay,
            file: None,
            digest,
            standing,
        };
        Ok((record, bytes))
    }
}

/// The kept runs: the best of each board, best first, the ghosts by board and seed, and while
/// the game starts, the files still being checked.
#[derive(Resource, Debug, Default)]
pub struct Records {
    boards: BTreeMap<String, Vec<Record>>,
    ghosts: BTreeMap<(String, u64), Record>,
    /// Files still to be played back, with what they claim.
    checking: Vec<Claim>,
    /// Runs finished while the files were being checked, kept once the check is done.
    waiting: Vec<RunRecorded>,
    /// The files are being checked.
    under_check: bool,
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

    /// The files still being checked, with what they claim: not listed until they play back.
    pub fn checking(&self) -> &[Claim] {
        &self.checking
    }

    /// Whether the record files are still being checked (the game has just started).
    pub fn is_checking(&self) -> bool {
        self.under_check
    }

    /// The ghost of a seed on a board: its best unassisted run.
    pub fn ghost(&self, board: &str, seed: u64) -> Option<&Replay> {
        self.ghosts
            .get(&(board.to_owned(), seed))
            .map(|record| &record.replay)
    }

    /// Adds a run to its board, which keeps its [`RECORDS_PER_BOARD`] best. Returns the record
    /// that fell off the board, if one did, and whether this run is on the board.
    pub fn add(&mut self, board: &str, record: Record) -> (Option<Record>, bool) {
        let runs = self.boards.entry(board.to_owned()).or_default();
        let at = runs.partition_point(|kept| !better(&record, kept));
        runs.insert(at, record);
        let dropped = (runs.len() > RECORDS_PER_BOARD)
            .then(|| runs.pop())
            .flatten();
        (dropped, at < RECORDS_PER_BOARD)
    }

    /// Makes `record` the ghost of its seed on `board` if it is unassisted and beats the ghost
    /// there. Returns whether it did, and the ghost it took the place of.
    pub fn offer_ghost(&mut self, board: &str, record: Record) -> (bool, Option<Record>) {
        if record.replay.result.assisted {
            return (false, None);
        }
        let key = (board.to_owned(), record.replay.seed);
        let beats = self
            .ghosts
            .get(&key)
            .is_none_or(|ghost| better(&record, ghost));
        if beats {
            (true, self.ghosts.insert(key, record))
        } else {
            (false, None)
        }
    }
}

/// Whether run `a` ranks above run `b` on a board: unassisted runs first, then by their
/// standing as their mode ranks them (the higher score, the shorter time with the hints'
/// price), then the earlier; runs equal in all of these are ordered by their files' hashes, so
/// a board's order never depends on the order its files were read in.
pub fn better(a: &Record, b: &Record) -> bool {
    let rank = |record: &Record| {
        let replay = &record.replay;
        (
            replay.result.assisted,
            record.standing,
            replay.recorded_unix_s,
            record.digest,
        )
    };
    rank(a) < rank(b)
}

/// The folder name of a board: its name with `/` as `+`.
pub fn board_folder_name(board: &str) -> String {
    board.replace('/', "+")
}

/// The folder of a board's runs.
pub fn board_folder(storage: &StorageDir, board: &str) -> PathBuf {
    storage
        .data
        .join(REPLAYS_FOLDER)
        .join(board_folder_name(board))
}

/// The check under way: what it has found so far arrives here. Dropped (the check done, or the
/// game closing), it tells the check to stop.
#[derive(Resource)]
struct RecordCheck {
    found: Mutex<Receiver<Progress>>,
    stop: Arc<AtomicBool>,
}

impl Drop for RecordCheck {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The mode of a replay, if the game has it.
pub fn mode_of(replay: &Replay, modes: &Modes) -> Option<&'static ModeInfo> {
    modes.named(replay.run.mode())
}

/// A run's figures for its row: its result as its mode describes it, the date, the seed, and
/// whether the computer played.
pub fn describe(replay: &Replay, modes: &Modes) -> String {
    let result = mode_of(replay, modes)
        .and_then(|mode| mode.records)
        .map_or_else(String::new, |records| {
            records.kind.summary(replay).unwrap_or_default()
        });
    let who = if replay.result.assisted {
        "  ·  assisted"
    } else {
        ""
    };
    format!(
        "{result}  ·  {}  ·  seed \"{}\"{who}",
        date_of(replay.recorded_unix_s),
        replay.seed_text
    )
}

/// Starts checking the records folder on a thread of its own. Not on one of Bevy's task pools:
/// their few threads also compile the shaders of the first frames, which a long check there
/// would hold up.
fn start_checking_records(
    mut commands: Commands,
    storage: Option<Res<StorageDir>>,
    (budget, modes): (Res<RecordCheckBudget>, Res<Modes>),
    mut records: ResMut<Records>,
    mut warnings: ResMut<StorageWarnings>,
) {
    let Some(storage) = storage else {
        return;
    };
    let modes = modes.clone();
    records.under_check = true;
    let folders = CheckFolders {
        data: storage.data.clone(),
        config: storage.config.clone(),
    };
    let budget = budget.0;
    let (send, found) = std::sync::mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    let spawned = std::thread::Builder::new()
        .name("record check".to_owned())
        .spawn(move || {
            // Nobody listens any more once the game has closed: nothing is lost then.
            check_records((&folders, &modes), (budget, &stopped), &mut |progress| {
                let _ = send.send(progress);
            });
        });
    if let Err(err) = spawned {
        // Without the check no record is listed, and none is touched.
        records.under_check = false;
        warnings.0.push(format!(
            "The records could not be checked ({err}): none is listed."
        ));
        return;
    }
    commands.insert_resource(RecordCheck {
        found: Mutex::new(found),
        stop,
    });
}

/// Lists the runs the check has played back, tells the player of the files it set aside, and
/// once it is done, keeps the runs finished meanwhile.
fn receive_checked_records(
    mut commands: Commands,
    check: Res<RecordCheck>,
    storage: Option<Res<StorageDir>>,
    (mut records, modes): (ResMut<Records>, Res<Modes>),
    mut warnings: ResMut<StorageWarnings>,
) {
    let Ok(found) = check.found.lock() else {
        return;
    };
    let forget = |records: &mut Records, file: &Path| {
        records.checking.retain(|claim| claim.file != file);
    };
    loop {
        match found.try_recv() {
            Ok(Progress::Found(claims)) => records.checking.extend(claims),
            Ok(Progress::Verified(checked)) => {
                let checked = *checked;
                if let Some(file) = &checked.record.file {
                    forget(&mut records, file);
                }
                match checked.kind {
                    // More than a board keeps (a hand-copied file) stays on disk, not in view.
                    RecordKind::Run => {
                        let _ = records.add(&checked.board, checked.record);
                    }
                    RecordKind::Ghost => {
                        let _ = records.offer_ghost(&checked.board, checked.record);
                    }
                }
            }
            Ok(Progress::Refused { file, warning }) => {
                if let Some(file) = file {
                    forget(&mut records, &file);
                }
                warn!("{warning}");
                warnings.0.push(warning);
            }
            Ok(Progress::Done) | Err(TryRecvError::Disconnected) => {
                records.checking.clear();
                records.under_check = false;
                commands.remove_resource::<RecordCheck>();
                for run in std::mem::take(&mut records.waiting) {
                    let kept = (storage.as_deref(), modes.as_ref());
                    keep_run(kept, &mut records, &mut warnings, run);
                }
                return;
            }
            Err(TryRecvError::Empty) => return,
        }
    }
}

/// Keeps a finished run on its board (and as its seed's ghost) when it ranks, in memory and,
/// with a data folder, on disk; while the files are still being checked, once they are.
fn keep_records(
    mut recorded: MessageReader<RunRecorded>,
    (storage, modes): (Option<Res<StorageDir>>, Res<Modes>),
    check: Option<Res<RecordCheck>>,
    mut records: ResMut<Records>,
    mut warnings: ResMut<StorageWarnings>,
) {
    for run in recorded.read() {
        if check.is_some() {
            records.waiting.push(run.clone());
        } else {
            let kept = (storage.as_deref(), modes.as_ref());
            keep_run(kept, &mut records, &mut warnings, run.clone());
        }
    }
}

fn keep_run(
    (storage, modes): (Option<&StorageDir>, &Modes),
    records: &mut Records,
    warnings: &mut StorageWarnings,
    run: RunRecorded,
) {
    let board = run.board;
    // The game names its boards by the same rule the files are checked by; a run that does not
    // fit its board would be set aside at the next start, so it is not kept at all.
    let kept = modes.replay_kind(&run.replay).and_then(|kind| {
        check_board(&run.replay, kind, &board).map_err(ReplayError::Invalid)?;
        Record::of_run(run.replay, kind)
    });
    let (record, bytes) = match kept {
        Ok(kept) => kept,
        Err(err) => {
            let why = match err {
                ReplayError::Invalid(why) => why,
                other => other.to_string(),
            };
            let warning = format!("A run was not kept as a record: {why}.");
            warn!("{warning}");
            warnings.0.push(warning);
            return;
        }
    };
    let mut save = |kind: RecordKind| {
        save_new(storage?, &board, kind, &record, &bytes)
            .map_err(|err| {
                warnings
                    .0
                    .push(format!("A record of {board} could not be saved: {err}"))
            })
            .ok()
    };
    let (dropped, on_board) = records.add(&board, record.clone());
    let run_file = on_board.then(|| save(RecordKind::Run)).flatten();
    let (is_ghost, replaced) = records.offer_ghost(&board, record.clone());
    let ghost_file = is_ghost.then(|| save(RecordKind::Ghost)).flatten();
    if let Some(runs) = records.boards.get_mut(&board)
        && let Some(kept) = runs
            .iter_mut()
            .find(|kept| kept.digest == record.digest && kept.file.is_none())
    {
        kept.file = run_file;
    }
    if let Some(ghost) = records.ghosts.get_mut(&(board.clone(), record.replay.seed))
        && ghost.file.is_none()
    {
        ghost.file = ghost_file;
    }
    // A run that fell off its board, or a ghost beaten, is no longer kept.
    for gone in dropped.into_iter().chain(replaced) {
        remove_if_same(&gone);
    }
}

/// Writes a new record or ghost file for `record` under a name no file has, in a folder checked
/// to lie inside the data folder, and gives its path.
fn save_new(
    storage: &StorageDir,
    board: &str,
    kind: RecordKind,
    record: &Record,
    bytes: &[u8],
) -> std::io::Result<PathBuf> {
    let board_folder = board_folder_name(board);
    let mut parts = vec![REPLAYS_FOLDER, board_folder.as_str()];
    if kind == RecordKind::Ghost {
        parts.push(GHOSTS_FOLDER);
    }
    let folder = real_folder_within(&storage.data, &parts)?;
    let replay = &record.replay;
    let short = blake3::Hash::from_bytes(record.digest).to_hex();
    let stem = match kind {
        RecordKind::Run => format!(
            "{}-{}-{}",
            replay.recorded_unix_s,
            replay.result.ticks,
            &short[..12]
        ),
        RecordKind::Ghost => format!("{}-{}", replay.seed, &short[..12]),
    };
    let names = std::iter::once(format!("{stem}.json"))
        .chain((2..100).map(|counter| format!("{stem}-{counter}.json")));
    write_new_file(&folder, names, bytes)
}

/// Deletes a record's file, only if it still holds that very run.
fn remove_if_same(record: &Record) {
    let Some(path) = &record.file else {
        return;
    };
    match read_plain_file(path, MAX_REPLAY_BYTES) {
        Ok(bytes) if *blake3::hash(&bytes).as_bytes() == record.digest => {
            if let Err(err) = std::fs::remove_file(path) {
                warn!("{} could not be removed: {err}", path.display());
            }
        }
        Ok(_) | Err(ReadError::NotPlain(_)) => {
            warn!(
                "{} is no longer the run it was, so it is left",
                path.display()
            );
        }
        Err(_) => {}
    }
}

#[cfg(test)]
mod tests;
