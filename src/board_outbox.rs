//! Runs waiting to go to a board server: each a replay file in the data folder's `outbox/`,
//! written when the run ends and removed once the server has answered for it, so a run is kept
//! on disk while the server cannot be reached and tried again later. The server counts a run
//! once however often it is sent, so a run sent just before the game closed, and sent again at
//! the next start, is still one run. A run the server refuses for good (it does not play back,
//! the computer played it) is set aside in `outbox/refused/`, never deleted, and said.

use crate::board_api::Submitted;
use crate::board_client::{BoardClient, ClientError, PlayerIdentity};
use crate::files::{ReadError, read_plain_file, real_folder_within, write_new_file};
use crate::logic::replay::limits::MAX_REPLAY_BYTES;
use crate::logic::replay::{Replay, to_bytes};
use std::path::{Path, PathBuf};

/// The folder inside the data folder that holds the runs waiting to be sent.
pub const OUTBOX_FOLDER: &str = "outbox";
/// The folder inside the outbox that holds the runs the server refused.
pub const REFUSED_FOLDER: &str = "refused";
/// The most runs waiting at once: past that a new run is not queued (a player offline for
/// weeks keeps their first runs, and the folder stays small enough to list at every try).
pub const MAX_WAITING: usize = 1000;

/// Why a run could not be queued.
#[derive(Debug)]
pub enum QueueError {
    /// [`MAX_WAITING`] runs wait already.
    Full,
    /// The file could not be written.
    Io(std::io::Error),
}

impl std::fmt::Display for QueueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueueError::Full => write!(
                f,
                "{MAX_WAITING} runs are waiting for the board server already"
            ),
            QueueError::Io(err) => write!(f, "{err}"),
        }
    }
}

/// The runs waiting in the outbox of `data`, oldest first (by name: the time each was
/// recorded leads it). Only plain `.json` files are runs; anything else is left alone.
pub fn waiting(data: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(data.join(OUTBOX_FOLDER)) else {
        return Vec::new();
    };
    let mut runs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    runs.sort();
    runs
}

/// Puts a finished run in the outbox of `data`, under a name no file there has.
pub fn queue(data: &Path, replay: &Replay) -> Result<PathBuf, QueueError> {
    if waiting(data).len() >= MAX_WAITING {
        return Err(QueueError::Full);
    }
    let folder = real_folder_within(data, &[OUTBOX_FOLDER]).map_err(QueueError::Io)?;
    let stem = format!(
        "{:020}-{}-{}",
        replay.recorded_unix_s,
        replay.run.mode(),
        replay.result.ticks
    );
    let names = std::iter::once(format!("{stem}.json"))
        .chain((1..).map(move |n| format!("{stem}-{n}.json")));
    write_new_file(&folder, names, &to_bytes(replay)).map_err(QueueError::Io)
}

/// What became of one waiting run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// The server took it (or had it already): the file is removed.
    Accepted(Submitted),
    /// The server refused it for good, or the file could not be read: it is set aside in
    /// `outbox/refused/`, and this says why.
    Refused(String),
}

/// What one round of sending did.
#[derive(Debug, Default)]
pub struct SendReport {
    /// The runs the server answered for, with their files' names.
    pub sent: Vec<(String, Sent)>,
    /// Runs still waiting.
    pub still_waiting: usize,
    /// Why the round stopped early: the server could not be reached, was busy or asked to
    /// wait. The runs wait for the next round.
    pub stopped: Option<ClientError>,
}

/// Sends the waiting runs of `data`, oldest first, as `player`, until none is left, the server
/// cannot take more for now, or `go_on` says stop (the game closing).
pub fn send_waiting(
    data: &Path,
    client: &BoardClient,
    player: &PlayerIdentity,
    go_on: &dyn Fn() -> bool,
) -> SendReport {
    let mut report = SendReport::default();
    let runs = waiting(data);
    if runs.is_empty() {
        return report;
    }
    if let Err(err) = client.register(player) {
        report.still_waiting = runs.len();
        report.stopped = Some(err);
        return report;
    }
    for (at, path) in runs.iter().enumerate() {
        if !go_on() {
            report.still_waiting = runs.len() - at;
            return report;
        }
        let name = path
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        let outcome = match read_plain_file(path, MAX_REPLAY_BYTES) {
            Ok(bytes) => match client.submit(player, &bytes) {
                Ok(submitted) => Ok(submitted),
                Err(err) if err.worth_retrying() => {
                    report.still_waiting = runs.len() - at;
                    report.stopped = Some(err);
                    return report;
                }
                Err(err) => Err(err.to_string()),
            },
            // Gone meanwhile (another copy of the game sent it): nothing to do.
            Err(ReadError::NotFound) => continue,
            Err(err) => Err(format!("the file could not be read: {err}")),
        };
        let sent = match outcome {
            Ok(submitted) => {
                let _ = std::fs::remove_file(path);
                Sent::Accepted(submitted)
            }
            Err(why) => Sent::Refused(match set_refused_aside(data, path) {
                Ok(()) => why,
                Err(err) => format!("{why} (and it could not be set aside: {err})"),
            }),
        };
        report.sent.push((name, sent));
    }
    report
}

/// Moves a refused run into `outbox/refused/`, under a name no file there has.
fn set_refused_aside(data: &Path, path: &Path) -> std::io::Result<()> {
    let folder = real_folder_within(data, &[OUTBOX_FOLDER, REFUSED_FOLDER])?;
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("a run's file has no name"))?
        .to_string_lossy()
        .into_owned();
    // Linked under a free name, then unlinked here: a file already there is never replaced.
    for candidate in std::iter::once(name.clone()).chain((1..=999).map(|n| format!("{n}-{name}"))) {
        match std::fs::hard_link(path, folder.join(candidate)) {
            Ok(()) => return std::fs::remove_file(path),
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(err) => return Err(err),
        }
    }
    Err(std::io::Error::other(
        "no free name in the refused runs' folder",
    ))
}
