//! Online boards. With the setting on (off by default), every run the player finishes by their own
//! hand goes to the board server in the background: it is queued in the data folder's outbox
//! ([`board_outbox`]) the moment it ends, and a thread of its own sends what waits, at once and
//! again after a wait when the server cannot be reached, so play never waits for the network
//! and a run is never lost to it. The player's identity is made on first use and kept in
//! `player.json` beside the settings. Runs the server refuses are set aside and the player is
//! told, as with damaged files. The world boards panel ([`world_boards`](super::world_boards)) shows what the server
//! answered.
//!
//! The server's address and the name boards show are settings of their own, typed on the
//! settings page (`http://127.0.0.1:8080`, and "Player" with the start of the id, until set).

use crate::board_api::{MAX_NAME_CHARS, check_player_name};
use crate::board_client::{BoardClient, PlayerFile, PlayerIdentity, load_player, save_player};
use crate::board_outbox::{self, SendReport, Sent};
use crate::game::menu::MenuItem;
use crate::game::menu::rows::{SettingEdit, SettingRow, SettingValue, TextSetting};
use crate::game::menu::settings_page::{SettingsPage, settings_page};
use crate::game::replays::RunRecorded;
use crate::game::screens::AppSystems;
use crate::game::settings::{ModeSettings, mode_settings_plugin};
use crate::game::storage::{StorageDir, StorageWarnings};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::Duration;

/// The row that turns online boards on and off.
pub const ENABLED: MenuItem = MenuItem::Setting("online.enabled");
/// The row of the server's address.
pub const SERVER: MenuItem = MenuItem::Setting("online.server");
/// The row of the name boards show.
pub const NAME: MenuItem = MenuItem::Setting("online.name");
/// The longest server address typed.
const MAX_SERVER_CHARS: usize = 200;
/// The server a new player's game sends to: one on this machine, as the README starts it.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:8080";
/// The first wait before trying again when the server could not be reached; each failure
/// doubles it, up to [`LONGEST_RETRY_WAIT`].
const FIRST_RETRY_WAIT: Duration = Duration::from_secs(30);
/// The longest wait between two tries.
const LONGEST_RETRY_WAIT: Duration = Duration::from_secs(15 * 60);
/// How often an idle sender looks at the outbox anyway (runs queued by another copy of the
/// game, or left from the last session).
const IDLE_LOOK: Duration = Duration::from_secs(30 * 60);

pub(super) fn plugin(app: &mut App) {
    mode_settings_plugin::<OnlineSettings>(app);
    settings_page::<OnlineSettings>(app);
    app.init_resource::<WorldResults>().add_systems(
        Update,
        (
            start_or_stop_sending.run_if(resource_changed::<OnlineSettings>),
            queue_finished_runs.run_if(on_message::<RunRecorded>),
            receive_reports.run_if(resource_exists::<BackgroundSender>),
        )
            .chain()
            .in_set(AppSystems::Present),
    );
}

/// The online settings: the `online` section of `settings.json`.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OnlineSettings {
    /// Send finished runs to the board server.
    pub enabled: bool,
    /// The board server: `http://HOST[:PORT]`.
    pub server: String,
    /// The name boards show; empty for "Player" and the start of the player's id.
    pub name: String,
}

impl Default for OnlineSettings {
    fn default() -> Self {
        OnlineSettings {
            enabled: false,
            server: DEFAULT_SERVER.to_owned(),
            name: String::new(),
        }
    }
}

impl ModeSettings for OnlineSettings {
    const SECTION: &'static str = "online";

    fn sanitize(&mut self) -> Vec<String> {
        let mut changed = Vec::new();
        if let Err(why) = BoardClient::new(&self.server) {
            self.server = DEFAULT_SERVER.to_owned();
            changed.push(format!("online.server: {why}; {DEFAULT_SERVER} is used"));
        }
        if !self.name.is_empty()
            && let Err(why) = check_player_name(&self.name)
        {
            self.name = String::new();
            changed.push(format!(
                "online.name: {why}; the name made with the player is used"
            ));
        }
        changed
    }
}

impl SettingsPage for OnlineSettings {
    const PAGE_TITLE: Option<&'static str> = Some("Online boards");

    fn rows(&self) -> Vec<SettingRow> {
        vec![
            SettingRow {
                item: ENABLED,
                label: "Send my runs to the board server",
                value: SettingValue::Toggle(self.enabled),
            },
            SettingRow {
                item: SERVER,
                label: "Server",
                value: SettingValue::Text(TextSetting {
                    value: self.server.clone(),
                    max_chars: MAX_SERVER_CHARS,
                    hint: "http://host:port",
                }),
            },
            SettingRow {
                item: NAME,
                label: "Your name on the boards",
                value: SettingValue::Text(TextSetting {
                    value: self.name.clone(),
                    max_chars: MAX_NAME_CHARS,
                    hint: "Player and your id",
                }),
            },
        ]
    }

    /// A server address or a name that no server would take is not kept: the field shows the
    /// setting as it was.
    fn apply(&mut self, item: MenuItem, edit: SettingEdit) {
        match (item, edit) {
            (ENABLED, SettingEdit::Toggle(on)) => self.enabled = on,
            (SERVER, SettingEdit::Text(server)) => {
                if let Ok(client) = BoardClient::new(server.trim()) {
                    self.server = client.server().to_owned();
                }
            }
            (NAME, SettingEdit::Text(name)) if name.trim().is_empty() => self.name = String::new(),
            (NAME, SettingEdit::Text(name)) => {
                if let Ok(name) = check_player_name(&name) {
                    self.name = name;
                }
            }
            _ => {}
        }
    }
}

/// What the board server said of the runs sent this session, newest last (the world boards
/// panel shows it).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct WorldResults {
    /// "runner/seed-42/normal: 65 points, rank 3", one line a run.
    pub accepted: Vec<String>,
    /// Runs waiting in the outbox after the last try.
    pub waiting: usize,
    /// Why the last try stopped, when it did.
    pub last_problem: Option<String>,
}

/// The thread that sends the outbox, and what it reports.
#[derive(Resource)]
pub struct BackgroundSender {
    wake: Sender<()>,
    reports: std::sync::Mutex<Receiver<SendReport>>,
    stop: Arc<AtomicBool>,
}

impl Drop for BackgroundSender {
    fn drop(&mut self) {
        // The thread ends at its next question whether to go on; a request under way is left
        // to its timeout, and its run stays in the outbox unless the server answered.
        self.stop.store(true, Ordering::Release);
        let _ = self.wake.send(());
    }
}

/// The player's identity: the kept one, or a new one, named as the settings say (or, with no
/// name there, the kept name or "Player" and the start of the id), saved when it changed.
fn identity(
    config: &std::path::Path,
    name: &str,
    warnings: &mut StorageWarnings,
) -> Option<PlayerIdentity> {
    let loaded = load_player(config);
    if let Some(warning) = loaded.warning {
        warnings.0.push(warning);
    }
    let kept = loaded.value.player;
    let mut player = match &kept {
        Some(player) => player.clone(),
        None => {
            let mut player = PlayerIdentity::new("Player").ok()?;
            player.name = format!("Player {}", &player.id[..4]);
            player
        }
    };
    // As boards show it: without the spaces around it (the settings refused any other fault).
    if let Ok(name) = check_player_name(name) {
        player.name = name;
    }
    if kept.as_ref() == Some(&player) {
        return Some(player);
    }
    if !loaded.writable {
        return None;
    }
    let file = PlayerFile {
        player: Some(player.clone()),
    };
    match save_player(config, &file) {
        Ok(()) => Some(player),
        Err(err) => {
            warnings.0.push(format!(
                "Online boards are off: the player file could not be saved ({err})."
            ));
            None
        }
    }
}

/// Starts the sender when online boards are on (again with a new address), stops it when off.
fn start_or_stop_sending(
    mut commands: Commands,
    settings: Res<OnlineSettings>,
    storage: Option<Res<StorageDir>>,
    mut warnings: ResMut<StorageWarnings>,
) {
    commands.remove_resource::<BackgroundSender>();
    let (true, Some(storage)) = (settings.enabled, storage) else {
        return;
    };
    let Ok(client) = BoardClient::new(&settings.server) else {
        return;
    };
    let Some(player) = identity(&storage.config, &settings.name, &mut warnings) else {
        return;
    };
    let (wake, woken) = std::sync::mpsc::channel();
    let (report, reports) = std::sync::mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let data = storage.data.clone();
    let stopped = Arc::clone(&stop);
    let started = std::thread::Builder::new()
        .name("board sender".to_owned())
        .spawn(move || send_in_background(&data, &client, &player, &woken, &report, &stopped));
    match started {
        Ok(_) => commands.insert_resource(BackgroundSender {
            wake,
            reports: std::sync::Mutex::new(reports),
            stop,
        }),
        Err(err) => warnings.0.push(format!(
            "Online boards are off: no thread could send runs ({err})."
        )),
    }
}

/// The sender's loop: send what waits; after a failure wait longer each time before trying
/// again, or until a new run wakes it.
fn send_in_background(
    data: &std::path::Path,
    client: &BoardClient,
    player: &PlayerIdentity,
    woken: &Receiver<()>,
    reports: &Sender<SendReport>,
    stop: &AtomicBool,
) {
    let go_on = || !stop.load(Ordering::Acquire);
    let mut retry_wait = FIRST_RETRY_WAIT;
    while go_on() {
        let report = board_outbox::send_waiting(data, client, player, &go_on);
        let wait = if report.stopped.is_some() {
            let wait = retry_wait;
            retry_wait = (retry_wait * 2).min(LONGEST_RETRY_WAIT);
            wait
        } else {
            retry_wait = FIRST_RETRY_WAIT;
            IDLE_LOOK
        };
        if reports.send(report).is_err() {
            return;
        }
        match woken.recv_timeout(wait) {
            Ok(()) | Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// Queues each run the player finished by their own hand, and wakes the sender.
fn queue_finished_runs(
    mut recorded: MessageReader<RunRecorded>,
    settings: Res<OnlineSettings>,
    storage: Option<Res<StorageDir>>,
    sender: Option<Res<BackgroundSender>>,
    mut warnings: ResMut<StorageWarnings>,
) {
    let (true, Some(storage)) = (settings.enabled, storage) else {
        recorded.clear();
        return;
    };
    for run in recorded.read() {
        // The server lists only runs players played: the computer's would only be refused.
        if run.replay.result.assisted {
            continue;
        }
        if let Err(err) = board_outbox::queue(&storage.data, &run.replay) {
            warnings.0.push(format!(
                "A run could not be kept for the board server: {err}."
            ));
        }
    }
    if let Some(sender) = sender {
        let _ = sender.wake.send(());
    }
}

/// Shows what the server said: accepted runs on the records page, refused ones as warnings.
fn receive_reports(
    sender: Res<BackgroundSender>,
    mut results: ResMut<WorldResults>,
    mut warnings: ResMut<StorageWarnings>,
    storage: Option<Res<StorageDir>>,
) {
    let Ok(reports) = sender.reports.lock() else {
        return;
    };
    loop {
        let report = match reports.try_recv() {
            Ok(report) => report,
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => return,
        };
        for (name, sent) in report.sent {
            match sent {
                Sent::Accepted(submitted) => results.accepted.push(format!(
                    "{}: {}, rank {}",
                    submitted.board, submitted.summary, submitted.rank
                )),
                Sent::Refused(why) => {
                    let kept: PathBuf = storage.as_ref().map_or_else(PathBuf::new, |storage| {
                        storage
                            .data
                            .join(board_outbox::OUTBOX_FOLDER)
                            .join(board_outbox::REFUSED_FOLDER)
                    });
                    warnings.0.push(format!(
                        "The board server refused the run {name} ({why}); it is kept in {}.",
                        kept.display()
                    ));
                }
            }
        }
        results.waiting = report.still_waiting;
        results.last_problem = report.stopped.map(|err| err.to_string());
    }
}
