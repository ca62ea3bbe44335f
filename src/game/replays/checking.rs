//! The check of the records folder, run on a thread of its own when the game starts: every record
//! and ghost file is read once (plain files only, never through a link, never more than a
//! replay can hold), refused if it is in the wrong place or cannot be a run of this game, and
//! played back unless this installation checked that very file before. What it finds is sent
//! to the game as it goes ([`Progress`]); whatever it refuses is set aside, never deleted.
//!
//! The files that played back are remembered in `replays/checked.json` by a keyed hash of
//! their bytes. The key is this installation's own (`records.key` beside the settings), so a
//! file copied in from elsewhere, or edited by hand, is played back before it is listed.

use super::describe;
use super::{GHOSTS_FOLDER, Record, RecordKind};
use crate::files::{
    EntryKind, ReadError, file_name_of, list_folder, read_plain_file, set_aside, write_new_file,
};
use crate::game::screens::Modes;
use crate::logic::replay::boards::check_board;
use crate::logic::replay::limits::{MAX_REPLAY_BYTES, check_shape};
use crate::logic::replay::{self, Replay, ReplayError, ReplayKind, printable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The file in the replays folder that lists the files checked before.
pub const CHECKED_FILE: &str = "checked.json";
/// The file beside the settings that holds this installation's key for [`CHECKED_FILE`].
pub const KEY_FILE: &str = "records.key";
/// The most record files one start reads: a hundred times ten runs on a hundred boards.
pub const MAX_RECORD_FILES: usize = 100_000;
/// The largest [`CHECKED_FILE`] read: room for [`MAX_RECORD_FILES`] hashes, and more.
const MAX_CHECKED_BYTES: u64 = 16 * 1024 * 1024;
/// The most characters of a file's name told to the player.
const MAX_SHOWN_NAME_CHARS: usize = 120;
/// What [`CHECKED_FILE`] says it is.
const CHECKED_FORMAT: &str = "temple-trails-checked-records";

/// What the check tells the game as it goes.
#[derive(Debug)]
pub enum Progress {
    /// Files that passed every check but the playing back, with what they claim: listed as
    /// still being checked.
    Found(Vec<Claim>),
    /// A file played back exactly as recorded (now, or at an earlier start).
    Verified(Box<Checked>),
    /// A file that is not listed, and why, for the player: it was set aside, or skipped.
    Refused {
        /// The file, when it was one.
        file: Option<PathBuf>,
        /// What the player is told.
        warning: String,
    },
    /// Every file has been seen.
    Done,
}

/// A file waiting to be played back, and what it claims.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// Its board.
    pub board: String,
    /// The file.
    pub file: PathBuf,
    /// Its result as it claims it, for the records page.
    pub summary: String,
}

/// A file that played back as recorded.
#[derive(Debug)]
pub struct Checked {
    /// Its board.
    pub board: String,
    /// A run on the board, or the ghost of its seed.
    pub kind: RecordKind,
    /// The run and its file.
    pub record: Record,
}

/// Where the check reads and writes: the data folder (with `replays/`) and the settings
/// folder (with [`KEY_FILE`]).
#[derive(Debug, Clone)]
pub struct CheckFolders {
    /// The folder with `replays/` in it.
    pub data: PathBuf,
    /// The folder the key is kept in.
    pub config: PathBuf,
}

/// A file read and found in its place, waiting to be played back.
struct Candidate {
    board: String,
    kind: RecordKind,
    /// The kind of replay of the run's mode.
    replay_kind: &'static dyn ReplayKind,
    path: PathBuf,
    /// This installation's keyed hash of its bytes.
    mac: String,
    record: Record,
}

/// [`CHECKED_FILE`]'s contents.
#[derive(Debug, Default, Serialize, Deserialize)]
struct CheckedList {
    format: String,
    /// The game version that checked them: another version's rules may differ.
    game_version: String,
    /// Keyed hashes, in hexadecimal, of the files that played back.
    verified: BTreeSet<String>,
}

/// Tells the game what the check finds.
struct Reporter<'a> {
    progress: &'a mut dyn FnMut(Progress),
}

impl Reporter<'_> {
    fn send(&mut self, progress: Progress) {
        (self.progress)(progress);
    }

    /// Tells the player why `file` is not listed, after setting it aside when `aside`.
    fn refuse(&mut self, file: &Path, why: &str, aside: bool) {
        let warning = if aside {
            match set_aside(file) {
                Ok(kept) => format!(
                    "The record {} was set aside as {}: {why}.",
                    shown(file),
                    printable(&file_name_of(&kept), MAX_SHOWN_NAME_CHARS)
                ),
                Err(err) => format!(
                    "The record {} is not listed ({why}) and could not be set aside ({err}).",
                    shown(file)
                ),
            }
        } else {
            format!("{} was skipped: {why}.", shown(file))
        };
        self.send(Progress::Refused {
            file: Some(file.to_path_buf()),
            warning,
        });
    }
}

/// A file as the player is told of it: its board's folder and its name, escaped (a name can
/// hold anything but `/`).
fn shown(file: &Path) -> String {
    let folder = file
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned());
    let name = match folder {
        Some(folder) => format!("{folder}/{}", file_name_of(file)),
        None => file_name_of(file),
    };
    printable(&name, MAX_SHOWN_NAME_CHARS)
}

/// Checks every record and ghost file under `folders.data/replays`, giving each file that is
/// played back at most `budget`, and tells `progress` what it finds, ending with
/// [`Progress::Done`]. Once `stop` is set it ends at the next chance, keeping what it has done
/// and leaving the rest for the next start.
pub fn check_records(
    (folders, modes): (&CheckFolders, &Modes),
    (budget, stop): (Duration, &AtomicBool),
    progress: &mut dyn FnMut(Progress),
) {
    let mut report = Reporter { progress };
    let root = folders.data.join(super::REPLAYS_FOLDER);
    match std::fs::symlink_metadata(&root) {
        Ok(meta) if meta.file_type().is_dir() => {
            check_folder((folders, modes), &root, (budget, stop), &mut report);
        }
        Ok(_) => report.send(Progress::Refused {
            file: Some(root.clone()),
            warning: format!(
                "{} is not a plain folder (it is a link or a file): no records are read from \
                 it or written to it.",
                root.display()
            ),
        }),
        // No records yet.
        Err(_) => {}
    }
    report.send(Progress::Done);
}

fn check_folder(
    (folders, modes): (&CheckFolders, &Modes),
    root: &Path,
    (budget, stop): (Duration, &AtomicBool),
    report: &mut Reporter,
) {
    let key = installation_key(&folders.config, report);
    let checked_path = root.join(CHECKED_FILE);
    let before = read_checked_list(&checked_path, report);
    let candidates: Vec<Candidate> = record_files(root, report)
        .into_iter()
        .filter_map(|(path, kind, board)| read_candidate((path, kind, board), modes, &key, report))
        .collect();
    report.send(Progress::Found(
        candidates
            .iter()
            .map(|candidate| Claim {
                board: candidate.board.clone(),
                file: candidate.path.clone(),
                summary: describe(&candidate.record.replay, modes),
            })
            .collect(),
    ));
    let mut verified = BTreeSet::new();
    for candidate in candidates {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let outcome = if before.contains(&candidate.mac) {
            Ok(())
        } else {
            // A budget too large to add to the clock is no limit at all.
            let deadline = Instant::now().checked_add(budget);
            let mut go_on =
                || !stop.load(Ordering::Relaxed) && deadline.is_none_or(|end| Instant::now() < end);
            replay::verify_while(&candidate.record.replay, candidate.replay_kind, &mut go_on)
                .map(|_| ())
        };
        match outcome {
            Ok(()) => {
                verified.insert(candidate.mac);
                report.send(Progress::Verified(Box::new(Checked {
                    board: candidate.board,
                    kind: candidate.kind,
                    record: candidate.record,
                })));
            }
            // The game is closing: what is left is checked at the next start.
            Err(ReplayError::OutOfTime { .. }) if stop.load(Ordering::Relaxed) => return,
            Err(err @ ReplayError::OutOfTime { .. }) => report.refuse(
                &candidate.path,
                &format!("{err}: {} s", budget.as_secs_f32()),
                true,
            ),
            Err(err) => report.refuse(&candidate.path, &err.to_string(), true),
        }
    }
    if verified != before {
        write_checked_list(&checked_path, verified, report);
    }
}

/// The board of a board's folder: its name with `+` as `/`.
fn board_of_folder(folder: &Path) -> Option<String> {
    Some(folder.file_name()?.to_str()?.replace('+', "/"))
}

/// The record and ghost files of every board folder, in name order, with their kind and board,
/// at most [`MAX_RECORD_FILES`] of them. Links and special files are skipped with a warning.
fn record_files(root: &Path, report: &mut Reporter) -> Vec<(PathBuf, RecordKind, String)> {
    let mut files = Vec::new();
    let list = |folder: &Path, report: &mut Reporter| match list_folder(folder) {
        Ok(listing) => {
            for (path, what) in &listing.skipped {
                report.refuse(
                    path,
                    &format!("it is {what}; only plain files are read"),
                    false,
                );
            }
            listing.entries
        }
        Err(err) => {
            report.refuse(folder, &format!("it could not be listed ({err})"), false);
            Vec::new()
        }
    };
    let is_json = |path: &Path| path.extension().is_some_and(|ext| ext == "json");
    for (folder, kind) in list(root, report) {
        if kind != EntryKind::Folder {
            continue;
        }
        let Some(board) = board_of_folder(&folder) else {
            report.refuse(&folder, "its name is not a board's", false);
            continue;
        };
        for (path, kind) in list(&folder, report) {
            match kind {
                EntryKind::File if is_json(&path) => {
                    files.push((path, RecordKind::Run, board.clone()));
                }
                EntryKind::Folder if path.file_name().is_some_and(|n| n == GHOSTS_FOLDER) => {
                    for (ghost, kind) in list(&path, report) {
                        if kind == EntryKind::File && is_json(&ghost) {
                            files.push((ghost, RecordKind::Ghost, board.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if files.len() > MAX_RECORD_FILES {
        report.send(Progress::Refused {
            file: None,
            warning: format!(
                "There are {} record files; only the first {MAX_RECORD_FILES} were read.",
                files.len()
            ),
        });
        files.truncate(MAX_RECORD_FILES);
    }
    files
}

/// Reads a record file and checks everything but its playing back: a plain file no larger than
/// a replay can be, a replay of this version that any run of the game can have recorded, on
/// the board of its folder, and for a ghost, an unassisted run of the seed its name gives.
/// Anything else is set aside (or skipped, for what is not a plain file).
fn read_candidate(
    (path, kind, board): (PathBuf, RecordKind, String),
    modes: &Modes,
    key: &[u8; 32],
    report: &mut Reporter,
) -> Option<Candidate> {
    let bytes = match read_plain_file(&path, MAX_REPLAY_BYTES) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => return None,
        // Swapped for a link or a pipe since it was listed: not ours to move.
        Err(err @ ReadError::NotPlain(_)) => {
            report.refuse(&path, &err.to_string(), false);
            return None;
        }
        Err(err) => {
            report.refuse(&path, &format!("it could not be read ({err})"), true);
            return None;
        }
    };
    let checked = replay::parse_bytes(&bytes)
        .and_then(|replay| {
            let replay_kind = modes.replay_kind(&replay)?;
            check_shape(&replay, replay_kind)?;
            let standing = replay_kind.standing(&replay)?;
            Ok((replay, replay_kind, standing))
        })
        .map_err(|err| err.to_string())
        .and_then(|(replay, replay_kind, standing)| {
            check_board(&replay, replay_kind, &board)
                .map_err(|why| format!("it is in the wrong place: {why}"))?;
            if kind == RecordKind::Ghost {
                check_ghost(&path, &replay)?;
            }
            Ok((replay, replay_kind, standing))
        });
    match checked {
        Ok((replay, replay_kind, standing)) => Some(Candidate {
            board,
            kind,
            replay_kind,
            mac: blake3::keyed_hash(key, &bytes).to_hex().to_string(),
            record: Record {
                replay,
                file: Some(path.clone()),
                digest: *blake3::hash(&bytes).as_bytes(),
                standing,
            },
            path,
        }),
        Err(why) => {
            report.refuse(&path, &why, true);
            None
        }
    }
}

/// A ghost file must be an unassisted run of the seed its name starts with (`<seed>-...`).
fn check_ghost(path: &Path, replay: &Replay) -> Result<(), String> {
    let name = path
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or("");
    let seed = name
        .split('-')
        .next()
        .and_then(|seed| seed.parse::<u64>().ok());
    if seed != Some(replay.seed) {
        return Err(format!(
            "it is in the wrong place: a ghost of seed {} under the name {name:?}",
            replay.seed
        ));
    }
    if replay.result.assisted {
        return Err("it is in the wrong place: an assisted run is no ghost".to_owned());
    }
    Ok(())
}

/// This installation's key, from [`KEY_FILE`] in `config`: made there the first time, and made
/// again (the damaged one set aside) when it cannot be read. Without a folder to keep it in, a
/// key for this start alone: then every file is played back at every start.
fn installation_key(config: &Path, report: &mut Reporter) -> [u8; 32] {
    let path = config.join(KEY_FILE);
    match read_plain_file(&path, 256) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            match blake3::Hash::from_hex(text.trim()) {
                Ok(key) => return *key.as_bytes(),
                Err(_) => report.refuse(&path, "it is not a key", true),
            }
        }
        Err(ReadError::NotFound) => {}
        Err(err @ ReadError::NotPlain(_)) => report.refuse(&path, &err.to_string(), false),
        Err(err) => report.refuse(&path, &format!("it could not be read ({err})"), true),
    }
    let key: [u8; 32] = std::array::from_fn(|_| rand::random::<u8>());
    let hex = blake3::Hash::from_bytes(key).to_hex();
    // Another start may have made one meanwhile: then this start's own key is used once.
    let _ = std::fs::create_dir_all(config)
        .and_then(|()| write_new_file(config, [KEY_FILE.to_owned()], hex.as_bytes()));
    key
}

/// The keyed hashes of the files checked before by this version of the game. A damaged list is
/// set aside and every file is played back again.
fn read_checked_list(path: &Path, report: &mut Reporter) -> BTreeSet<String> {
    let bytes = match read_plain_file(path, MAX_CHECKED_BYTES) {
        Ok(bytes) => bytes,
        Err(ReadError::NotFound) => return BTreeSet::new(),
        Err(err @ ReadError::NotPlain(_)) => {
            report.refuse(path, &err.to_string(), false);
            return BTreeSet::new();
        }
        Err(err) => {
            report.refuse(path, &format!("it could not be read ({err})"), true);
            return BTreeSet::new();
        }
    };
    match serde_json::from_slice::<CheckedList>(&bytes) {
        Ok(list) if list.format == CHECKED_FORMAT => {
            if list.game_version == env!("CARGO_PKG_VERSION") {
                list.verified
            } else {
                BTreeSet::new()
            }
        }
        _ => {
            report.refuse(
                path,
                "it is not the list of checked records; every record is checked again",
                true,
            );
            BTreeSet::new()
        }
    }
}

/// Replaces the list of checked files, atomically.
fn write_checked_list(path: &Path, verified: BTreeSet<String>, report: &mut Reporter) {
    let list = CheckedList {
        format: CHECKED_FORMAT.to_owned(),
        game_version: env!("CARGO_PKG_VERSION").to_owned(),
        verified,
    };
    // The link check: never write through a link put where the list goes.
    if std::fs::symlink_metadata(path).is_ok_and(|meta| !meta.file_type().is_file()) {
        report.refuse(
            path,
            "it is not a plain file, so the list is not kept",
            false,
        );
        return;
    }
    if let Err(err) = crate::files::write_json_atomic(path, &list) {
        report.send(Progress::Refused {
            file: Some(path.to_path_buf()),
            warning: format!("The list of checked records could not be saved ({err})."),
        });
    }
}
