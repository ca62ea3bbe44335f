//! The world boards beside the records page: where the player's runs go, what the board server
//! answered this session and what waits ([`WorldResults`]), and the most recently played world
//! boards of the player's seed and of today's challenges, each with its best runs. Every run
//! listed was downloaded and played back on a thread of its own first. Watch plays a run again;
//! Race plays its seed and difficulty with it as the ghost ([`RaceGhost`]).

use crate::board_client::{BoardClient, ClientError, WorldBoardRuns};
use crate::game::menu::widgets::{MenuFocus, small_buttons};
use crate::game::menu::{
    MenuCursor, MenuInput, MenuItem, MenuNavigation, OpenMenuItems, WorldRunsOnPage,
};
use crate::game::online::{OnlineSettings, WorldResults};
use crate::game::records::{enter_mode_of, watch};
use crate::game::replays::RaceGhost;
use crate::game::scores::unix_now_s;
use crate::game::screens::{AppSystems, Menu, Modes, Screen, draws};
use crate::game::session::PlayRequest;
use crate::game::settings::GameSeed;
use crate::game::theme::backdrops::show_frame;
use crate::game::theme::widgets::{note, section_label};
use crate::game::theme::{GOLD, PANEL, SAND, text};
use crate::logic::replay::Replay;
use crate::logic::replay::boards::date_of;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use std::sync::mpsc::{Receiver, TryRecvError};

pub(super) fn plugin(app: &mut App) {
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
                let request = PlayRequest::Race {
                    seed: replay.seed,
                    seed_text: replay.seed_text.clone(),
                    difficulty: replay.difficulty,
                };
                let navigation = (&mut *next_screen, &mut *next_menu);
                if enter_mode_of(&mut commands, replay, &modes, request, navigation) {
                    commands.insert_resource(RaceGhost((*replay).clone()));
                }
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
            let frame = egui::Frame::new()
                .fill(PANEL)
                .corner_radius(12.0)
                .inner_margin(16.0);
            show_frame(ui, frame, |ui| {
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
                                        &[MenuItem::WatchWorldRun(at), MenuItem::RaceWorldRun(at)],
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
