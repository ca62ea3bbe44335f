//! Online boards. With the setting on (off by default), every run the player finishes by their own
//! hand goes to the board server in the background: it is queued in the data folder's outbox
//! ([`board_outbox`]) the moment it ends, and a thread of its own sends what waits, at once and
//! again after a wait when the server cannot be reached, so play never waits for the network
//! and a run is never lost to it. The player's identity is made on first use and kept in
//! `player.json` beside the settings. Runs the server refuses are set aside and the player is
//! told, as with damaged files.
//!
//! The server's address is the `online.server` setting (`http://127.0.0.1:8080` unless set in
//! `settings.json`).

use crate::board_client::{
    BoardClient, ClientError, PlayerFile, PlayerIdentity, WorldBoardRuns, load_player, save_player,
};
use crate::board_outbox::{self, SendReport, Sent};
use crate::game::menu::rows::{SettingEdit, SettingRow, SettingValue};
use crate::game::menu::settings_page::{SettingsPage, settings_page};
use crate::game::menu::widgets::{MenuFocus, small_buttons};
use crate::game::menu::{
    MenuCursor, MenuInput, MenuItem, MenuNavigation, OpenMenuItems, WorldRunsOnPage,
};
use crate::game::records::watch;
use crate::game::replays::RaceGhost;
use crate::game::replays::RunRecorded;
use crate::game::scores::unix_now_s;
use crate::game::screens::{AppSystems, Menu, Modes, Screen, draws};
use crate::game::session::PlayRequest;
use crate::game::settings::GameSeed;
use crate::game::settings::{ModeSettings, mode_settings_plugin};
use crate::game::storage::{StorageDir, StorageWarnings};
use crate::game::theme::widgets::{note, section_label};
use crate::game::theme::{GOLD, PANEL, SAND, text};
use crate::logic::replay::Replay;
use crate::logic::replay::boards::date_of;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::Duration;

/// The row that turns online boards on and off.
pub const ENABLED: MenuItem = MenuItem::Setting("online.enabled");
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
    app.init_resource::<WorldView>()
        .add_systems(OnEnter(Menu::Records), fetch_world_boards)
        .add_systems(
            Update,
            (
                receive_world_boards,
                act_on_world_runs.run_if(on_message::<MenuInput>),
            )
                .before(MenuNavigation)
                .in_set(AppSystems::RecordInput),
        );
    if draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_world_panel.run_if(in_state(Menu::Records)),
        );
    }
}

/// The online settings: the `online` section of `settings.json`.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OnlineSettings {
    /// Send finished runs to the board server.
    pub enabled: bool,
    /// The board server: `http://HOST[:PORT]`.
    pub server: String,
}

impl Default for OnlineSettings {
    fn default() -> Self {
        OnlineSettings {
            enabled: false,
            server: DEFAULT_SERVER.to_owned(),
        }
    }
}

impl ModeSettings for OnlineSettings {
    const SECTION: &'static str = "online";

    fn sanitize(&mut self) -> Vec<String> {
        match BoardClient::new(&self.server) {
            Ok(_) => Vec::new(),
            Err(why) => {
                self.server = DEFAULT_SERVER.to_owned();
                vec![format!("online.server: {why}; {DEFAULT_SERVER} is used")]
            }
        }
    }
}

impl SettingsPage for OnlineSettings {
    const PAGE_TITLE: Option<&'static str> = Some("Online boards");

    fn rows(&self) -> Vec<SettingRow> {
        vec![SettingRow {
            item: ENABLED,
            label: "Send my runs to the board server",
            value: SettingValue::Toggle(self.enabled),
        }]
    }

    fn apply(&mut self, item: MenuItem, edit: SettingEdit) {
        if let (ENABLED, SettingEdit::Toggle(on)) = (item, edit) {
            self.enabled = on;
        }
    }
}

/// What the board server said of the runs sent this session, newest last.
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

/// The player's identity: the kept one, or a new one named after its id, saved.
fn identity(config: &std::path::Path, warnings: &mut StorageWarnings) -> Option<PlayerIdentity> {
    let loaded = load_player(config);
    if let Some(warning) = loaded.warning {
        warnings.0.push(warning);
    }
    if let Some(player) = loaded.value.player {
        return Some(player);
    }
    let mut player = PlayerIdentity::new("Player").ok()?;
    player.name = format!("Player {}", &player.id[..4]);
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
    let Some(player) = identity(&storage.config, &mut warnings) else {
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

/// The most accepted runs the world panel lists.
const RESULTS_SHOWN: usize = 3;
/// World boards fetched for the records page: the most recently played of the player's seed
/// and of today's challenges.
const WORLD_BOARDS_SHOWN: usize = 4;
/// Best runs fetched of each.
const WORLD_RUNS_PER_BOARD: u32 = 3;

/// What the records page shows of the world boards.
#[derive(Debug, Default, Clone, PartialEq)]
pub enum WorldShown {
    /// Nothing: online boards are off.
    #[default]
    Nothing,
    /// Being fetched.
    Loading,
    /// The boards, each with its best runs (checked here).
    Boards(Vec<WorldBoardRuns>),
    /// The server could not be asked.
    Failed(String),
}

/// What the thread that asks for the world boards answers.
type WorldAnswer = Result<Vec<WorldBoardRuns>, ClientError>;

/// The world boards of the records page, and the fetch under way.
#[derive(Resource, Default)]
pub struct WorldView {
    /// What is shown.
    pub shown: WorldShown,
    fetching: Option<std::sync::Mutex<Receiver<WorldAnswer>>>,
}

impl WorldView {
    /// The runs listed, in the order of their Watch and Race items.
    pub fn runs(&self) -> Vec<&Replay> {
        match &self.shown {
            WorldShown::Boards(boards) => boards
                .iter()
                .flat_map(|board| board.runs.iter().map(|(_, replay)| replay))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Opening the records page asks the server for the world boards of the player's seed and of
/// today's challenges, on a thread of its own.
fn fetch_world_boards(
    mut view: ResMut<WorldView>,
    mut on_page: ResMut<WorldRunsOnPage>,
    settings: Res<OnlineSettings>,
    seed: Res<GameSeed>,
) {
    view.fetching = None;
    on_page.set_if_neq(WorldRunsOnPage(0));
    if !settings.enabled {
        view.shown = WorldShown::Nothing;
        return;
    }
    let Ok(client) = BoardClient::new(&settings.server) else {
        return;
    };
    let (own, today) = (
        format!("/seed-{}/", seed.0),
        format!("/daily-{}/", date_of(unix_now_s())),
    );
    let (answer, answers) = std::sync::mpsc::channel();
    let started = std::thread::Builder::new()
        .name("world boards".to_owned())
        .spawn(move || {
            let wanted = |board: &str| board.contains(&own) || board.contains(&today);
            let _ =
                answer.send(client.world_runs(wanted, WORLD_BOARDS_SHOWN, WORLD_RUNS_PER_BOARD));
        });
    view.shown = match started {
        Ok(_) => {
            view.fetching = Some(std::sync::Mutex::new(answers));
            WorldShown::Loading
        }
        Err(err) => WorldShown::Failed(err.to_string()),
    };
}

/// Shows the world boards when they arrive, and counts their runs for the page's items.
fn receive_world_boards(mut view: ResMut<WorldView>, mut on_page: ResMut<WorldRunsOnPage>) {
    let received = view.fetching.as_ref().map(|fetching| {
        fetching
            .lock()
            .map_or(Err(TryRecvError::Disconnected), |answers| {
                answers.try_recv()
            })
    });
    let answer = match received {
        Some(Ok(answer)) => answer,
        Some(Err(TryRecvError::Empty)) | None => return,
        Some(Err(TryRecvError::Disconnected)) => {
            view.fetching = None;
            return;
        }
    };
    view.fetching = None;
    view.shown = match answer {
        Ok(boards) => WorldShown::Boards(boards),
        Err(err) => WorldShown::Failed(err.to_string()),
    };
    on_page.set_if_neq(WorldRunsOnPage(view.runs().len()));
}

/// Watch plays a world board's run again; Race plays its seed with it as the ghost.
fn act_on_world_runs(
    mut commands: Commands,
    mut inputs: MessageReader<MenuInput>,
    (view, modes): (Res<WorldView>, Res<Modes>),
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    let runs = view.runs();
    for input in inputs.read() {
        match *input {
            MenuInput::Activated(MenuItem::WatchWorldRun(at)) => {
                if let Some(replay) = runs.get(usize::from(at)) {
                    watch(
                        &mut commands,
                        replay,
                        &modes,
                        (&mut next_screen, &mut next_menu),
                    );
                }
            }
            MenuInput::Activated(MenuItem::RaceWorldRun(at)) => {
                let Some(replay) = runs.get(usize::from(at)) else {
                    continue;
                };
                let Some(mode) = modes.named(replay.run.mode()) else {
                    continue;
                };
                commands.insert_resource(PlayRequest::Race {
                    seed: replay.seed,
                    seed_text: replay.seed_text.clone(),
                    difficulty: replay.difficulty,
                });
                commands.insert_resource(RaceGhost((*replay).clone()));
                next_screen.set(mode.screen());
                next_menu.set(Menu::None);
            }
            _ => {}
        }
    }
}

/// Beside the records page: where runs go, what the server answered this session, what waits,
/// and the world boards of the player's seed and of today, each run with Watch and Race.
fn draw_world_panel(
    mut contexts: EguiContexts,
    (settings, results, view): (Res<OnlineSettings>, Res<WorldResults>, Res<WorldView>),
    items: Res<OpenMenuItems>,
    mut cursor: ResMut<MenuCursor>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut focus = MenuFocus::new(&items.0, &mut cursor);
    let mut inputs = Vec::new();
    egui::Area::new(egui::Id::new("world-boards"))
        .anchor(egui::Align2::RIGHT_CENTER, egui::vec2(-12.0, 0.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL)
                .corner_radius(12.0)
                .inner_margin(16.0)
                .show(ui, |ui| {
                    ui.set_width(330.0);
                    ui.label(
                        RichText::new("World boards")
                            .color(GOLD.egui())
                            .size(text::NOTE),
                    );
                    if !settings.enabled {
                        note(
                            ui,
                            "Off: turn on \"Send my runs to the board server\" in Settings.",
                        );
                        return;
                    }
                    note(
                        ui,
                        format!(
                            "Your runs go to {} ({} sent this session)",
                            settings.server,
                            results.accepted.len()
                        ),
                    );
                    let start = results.accepted.len().saturating_sub(RESULTS_SHOWN);
                    for line in &results.accepted[start..] {
                        note(ui, format!("Sent: {line}"));
                    }
                    if results.waiting > 0 {
                        let why = results.last_problem.as_deref().unwrap_or("not sent yet");
                        let count = match results.waiting {
                            1 => "1 run".to_owned(),
                            n => format!("{n} runs"),
                        };
                        note(
                            ui,
                            format!("{count} waiting, to be sent again later: {why}"),
                        );
                    }
                    ui.add_space(6.0);
                    match &view.shown {
                        WorldShown::Nothing => {}
                        WorldShown::Loading => note(ui, "Asking the server…"),
                        WorldShown::Failed(why) => note(ui, why.clone()),
                        WorldShown::Boards(boards) if boards.is_empty() => {
                            note(ui, "No runs of your seed or of today's challenges yet.");
                        }
                        WorldShown::Boards(boards) => {
                            let mut at = 0u16;
                            for board in boards {
                                let players = match board.players {
                                    1 => "1 player".to_owned(),
                                    n => format!("{n} players"),
                                };
                                section_label(ui, &format!("{}  ({players})", board.board));
                                for (row, _) in &board.runs {
                                    ui.horizontal(|ui| {
                                        ui.label(
                                            RichText::new(format!(
                                                "{:>2}. {}  {}",
                                                row.rank, row.player, row.summary
                                            ))
                                            .size(text::SMALL)
                                            .color(SAND.egui()),
                                        );
                                        small_buttons(
                                            ui,
                                            &[
                                                MenuItem::WatchWorldRun(at),
                                                MenuItem::RaceWorldRun(at),
                                            ],
                                            &mut focus,
                                            &mut inputs,
                                        );
                                    });
                                    at = at.saturating_add(1);
                                }
                            }
                        }
                    }
                });
        });
    writer.write_batch(inputs);
    Ok(())
}
