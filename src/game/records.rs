//! The records page and watching a record. The page lists the best runs of each board (score or
//! time, date, seed, hints, assisted or not); Watch plays one again exactly in its mode, with a
//! REPLAY badge: Space pauses, 1, 2 and 4 set the speed, Esc leaves for the page. Copy seed puts
//! its seed on the clipboard.

use crate::game::controls::{
    Actions, Controls, Device, bindings_named, controls_plugin, first_bindings,
};
use crate::game::menu::controls::MenuAction;
use crate::game::menu::dialog::{DialogNote, ResultDialog};
use crate::game::menu::widgets::{MenuFocus, menu_button, small_buttons};
use crate::game::menu::{
    MenuCursor, MenuInput, MenuItem, MenuNavigation, MenuRequests, OpenMenuItems, RecordsOnPage,
};
use crate::game::replays::{Records, describe, mode_of};
use crate::game::screens::{AppSystems, Menu, Modes, Screen, draws};
use crate::game::session::PlayRequest;
use crate::game::theme::widgets::{centered_panel, note, section_label};
use crate::game::theme::{DIM, GOLD, SAND, text};
use crate::logic::replay::boards::date_of;
use crate::logic::replay::{Replay, RunKind, Timed, inputs_due};
use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::*;
use std::any::Any;
use std::sync::Arc;

/// The keys a watched record answers, for the bottom of a mode's HUD.
/// What a watcher can do.
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
pub enum WatchAction {
    /// Pause or resume the replay.
    PauseResume,
    /// Play it at its own speed.
    Speed1,
    /// Twice as fast.
    Speed2,
    /// Four times as fast.
    Speed4,
}

impl Controls for WatchAction {
    const SECTION: &'static str = "watching";
    const TITLE: &'static str = "Watching a record";
    const ROWS: &'static [(Self, &'static str, &'static str)] = &[
        (
            WatchAction::PauseResume,
            "controls.watching.pause",
            "Pause and resume",
        ),
        (WatchAction::Speed1, "controls.watching.speed1", "1x"),
        (WatchAction::Speed2, "controls.watching.speed2", "2x"),
        (WatchAction::Speed4, "controls.watching.speed4", "4x"),
    ];

    fn default_bindings() -> InputMap<Self> {
        use WatchAction::*;
        let mut map = InputMap::new([
            (PauseResume, KeyCode::Space),
            (Speed1, KeyCode::Digit1),
            (Speed2, KeyCode::Digit2),
            (Speed4, KeyCode::Digit4),
        ]);
        map.insert_multiple([
            (PauseResume, GamepadButton::South),
            (Speed1, GamepadButton::LeftTrigger),
            (Speed2, GamepadButton::RightTrigger),
            (Speed4, GamepadButton::RightTrigger2),
        ]);
        map
    }
}

/// The watching actions' reminder along the bottom of a HUD, naming the bindings on `device`.
pub fn watch_hint(map: &InputMap<WatchAction>, device: Device) -> String {
    let speeds = [
        WatchAction::Speed1,
        WatchAction::Speed2,
        WatchAction::Speed4,
    ];
    format!(
        "{} pause/resume   {} speed 1x/2x/4x   Esc back to the records",
        bindings_named(map, &WatchAction::PauseResume, device),
        first_bindings(map, device, &speeds)
    )
}

/// How many of the runs still being checked the records page lists by name.
const CHECKING_SHOWN: usize = 5;

/// The speeds a replay can be watched at, with their actions.
pub const WATCH_SPEEDS: [(WatchAction, f32); 3] = [
    (WatchAction::Speed1, 1.0),
    (WatchAction::Speed2, 2.0),
    (WatchAction::Speed4, 4.0),
];

pub(super) fn plugin(app: &mut App) {
    controls_plugin::<WatchAction>(app);
    app.add_systems(
        Update,
        (
            watch_chosen_record.run_if(on_message::<MenuInput>),
            (control_watching, leave_watching_with_escape)
                .run_if(resource_exists::<Watching>.and_then(in_state(Menu::None))),
            count_records_on_page,
        )
            .before(MenuNavigation)
            .in_set(AppSystems::RecordInput),
    )
    .add_systems(OnEnter(Screen::Title), stop_watching);
    if draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_records_page.run_if(in_state(Menu::Records)),
        );
    }
}

/// A record being watched: its replay, where its inputs are up to, and the speed.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Watching {
    /// The run being played again.
    pub replay: Replay,
    /// Its inputs, as its mode reads them, and the next to feed.
    feed: InputFeed,
    /// Times real time.
    pub speed: f32,
}

impl Watching {
    /// A replay to watch from its start.
    pub fn new(replay: Replay) -> Watching {
        Watching {
            replay,
            feed: InputFeed::default(),
            speed: 1.0,
        }
    }

    /// Starts the replay again from its first input (a restart of the watched run).
    pub fn rewind(&mut self) {
        self.feed.next = 0;
    }

    /// The inputs of step `tick`, read as a run of mode `K` (the watching mode's): none when
    /// the replay is another mode's. The inputs are read from the replay once.
    pub fn inputs_due<K: RunKind>(&mut self, tick: u64) -> Vec<K::Input> {
        let feed = &mut self.feed;
        let read = feed
            .inputs
            .as_ref()
            .is_some_and(|inputs| inputs.is::<Vec<Timed<K::Input>>>());
        if !read {
            feed.inputs = self.replay.run.inputs::<K>().ok().map(|inputs| {
                let inputs: Arc<dyn Any + Send + Sync> = Arc::new(inputs);
                inputs
            });
        }
        feed.inputs
            .as_ref()
            .and_then(|inputs| inputs.downcast_ref::<Vec<Timed<K::Input>>>())
            .map(|inputs| inputs_due(inputs, &mut feed.next, tick))
            .unwrap_or_default()
    }

    /// Whether the recorded run has been played to its last step.
    pub fn is_done(&self, tick: u64) -> bool {
        tick >= self.replay.result.ticks
    }

    /// The HUD badge: REPLAY and the speed.
    pub fn badge(&self) -> String {
        format!("REPLAY {}x", self.speed)
    }
}

/// A watched run's inputs, read once by the mode that plays them, and the next to feed.
#[derive(Clone, Default)]
struct InputFeed {
    inputs: Option<Arc<dyn Any + Send + Sync>>,
    next: usize,
}

impl std::fmt::Debug for InputFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InputFeed")
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl PartialEq for InputFeed {
    /// The inputs are the replay's own: only how far they are fed can differ.
    fn eq(&self, other: &InputFeed) -> bool {
        self.next == other.next
    }
}

/// The dialog at the end of a watched record: its result (`figures`, which its mode gives), and
/// nothing recorded.
pub fn replay_over_dialog(watching: &Watching, figures: Vec<(String, String)>) -> ResultDialog {
    let replay = &watching.replay;
    ResultDialog {
        title: "Replay over".to_owned(),
        subtitle: Some(format!(
            "Seed \"{}\", {}, recorded {}",
            replay.seed_text,
            replay.difficulty.label(),
            date_of(replay.recorded_unix_s)
        )),
        figures,
        note: Some(DialogNote::NotRecorded(
            "A replay, played exactly as recorded: nothing new was recorded.".to_owned(),
        )),
        buttons: vec![
            (MenuItem::Restart, "Watch again"),
            (MenuItem::Records, "Records"),
            (MenuItem::MainMenu, "Main menu"),
        ],
    }
}

/// Enters `replay`'s mode with the menus closed, asking for `request`; false when the game has
/// no such mode. Watching a run and racing one as a ghost both start so.
pub fn enter_mode_of(
    commands: &mut Commands,
    replay: &Replay,
    modes: &Modes,
    request: PlayRequest,
    (next_screen, next_menu): (&mut NextState<Screen>, &mut NextState<Menu>),
) -> bool {
    let Some(mode) = mode_of(replay, modes) else {
        return false;
    };
    next_screen.set(mode.screen());
    next_menu.set(Menu::None);
    commands.insert_resource(request);
    true
}

/// Plays `replay` again in its mode, with the REPLAY badge (a record, or a run of a world board).
pub fn watch(
    commands: &mut Commands,
    replay: &Replay,
    modes: &Modes,
    navigation: (&mut NextState<Screen>, &mut NextState<Menu>),
) {
    let request = PlayRequest::Watch {
        seed: replay.seed,
        seed_text: replay.seed_text.clone(),
        difficulty: replay.difficulty,
    };
    if enter_mode_of(commands, replay, modes, request, navigation) {
        commands.insert_resource(Watching::new(replay.clone()));
    }
}

fn watch_chosen_record(
    mut commands: Commands,
    mut inputs: MessageReader<MenuInput>,
    (records, modes): (Res<Records>, Res<Modes>),
    mut requests: ResMut<MenuRequests>,
    time: Res<Time<Real>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    let listed = records.listed();
    for input in inputs.read() {
        match *input {
            MenuInput::Activated(MenuItem::WatchRecord(at)) => {
                let Some((_, record)) = listed.get(usize::from(at)) else {
                    continue;
                };
                watch(
                    &mut commands,
                    &record.replay,
                    &modes,
                    (&mut next_screen, &mut next_menu),
                );
            }
            MenuInput::Activated(MenuItem::CopyRecordSeed(at)) => {
                let Some((_, record)) = listed.get(usize::from(at)) else {
                    continue;
                };
                let seed = record.replay.seed_text.clone();
                requests.notice = Some((format!("Copied seed \"{seed}\"."), time.elapsed_secs()));
                requests.copy_to_clipboard = Some(seed);
            }
            _ => {}
        }
    }
}

/// Pause/resume (Space) pauses and resumes the replay; the speeds (1, 2 and 4) set its speed.
fn control_watching(
    actions: Actions<WatchAction>,
    mut watching: ResMut<Watching>,
    mut time: ResMut<Time<Virtual>>,
) {
    if actions.just_pressed(&WatchAction::PauseResume) {
        if time.is_paused() {
            time.unpause();
        } else {
            time.pause();
        }
    }
    for (action, speed) in WATCH_SPEEDS {
        if actions.just_pressed(&action) {
            watching.speed = speed;
            time.set_relative_speed(speed);
        }
    }
}

/// The records page's length, for its menu items.
fn count_records_on_page(records: Res<Records>, mut on_page: ResMut<RecordsOnPage>) {
    on_page.set_if_neq(RecordsOnPage(records.len()));
}

/// Pause (Esc, Start) leaves a replay for the records page. It runs before the menus' answer
/// to the action, which leaves the menu change asked for here alone, so the pause menu does not
/// open.
fn leave_watching_with_escape(
    actions: Actions<MenuAction>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    if actions.just_pressed(&MenuAction::Pause) {
        next_screen.set(Screen::Title);
        next_menu.set(Menu::Records);
    }
}

/// Back on the title screen nothing is watched, and time runs as it should.
fn stop_watching(mut commands: Commands, mut time: ResMut<Time<Virtual>>) {
    commands.remove_resource::<Watching>();
    time.set_relative_speed(1.0);
    time.unpause();
}

/// The mode's label for a board's name (`runner/normal` → Runner).
fn board_title(board: &str, modes: &Modes) -> String {
    let (mode, detail) = board.split_once('/').unwrap_or((board, ""));
    let label = modes.named(mode).map_or(mode, |info| info.label);
    format!("{label}  {detail}")
}

fn draw_records_page(
    mut contexts: EguiContexts,
    (records, modes): (Res<Records>, Res<Modes>),
    items: Res<OpenMenuItems>,
    mut cursor: ResMut<MenuCursor>,
    mut requests: ResMut<MenuRequests>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut focus = MenuFocus::new(&items.0, &mut cursor);
    let mut inputs = Vec::new();
    centered_panel(ctx, "records", |ui| {
        ui.heading(RichText::new("Records").color(GOLD.egui()));
        if records.is_empty() && records.checking().is_empty() {
            note(
                ui,
                "No runs yet: finish a run or solve a maze to see it here.",
            );
        }
        let mut at = 0u16;
        egui::ScrollArea::vertical()
            .max_height(420.0)
            .show(ui, |ui| {
                for (board, runs) in records.boards() {
                    section_label(ui, &board_title(board, &modes));
                    for (rank, record) in runs.iter().enumerate() {
                        ui.horizontal(|ui| {
                            ui.label(
                                RichText::new(format!(
                                    "{:>2}.  {}",
                                    rank + 1,
                                    describe(&record.replay, &modes)
                                ))
                                .size(text::SMALL)
                                .color(SAND.egui()),
                            );
                            small_buttons(
                                ui,
                                &[MenuItem::WatchRecord(at), MenuItem::CopyRecordSeed(at)],
                                &mut focus,
                                &mut inputs,
                            );
                        });
                        at = at.saturating_add(1);
                    }
                }
                draw_still_checked(ui, &records, &modes);
            });
        ui.add_space(8.0);
        menu_button(ui, "Back", MenuItem::Back, &mut focus, &mut inputs);
        note(
            ui,
            "Watching: Space pauses, 1 / 2 / 4 set the speed, Esc comes back here",
        );
    });
    if let Some(words) = requests.copy_to_clipboard.take() {
        ctx.copy_text(words);
    }
    writer.write_batch(inputs);
    Ok(())
}

/// The runs still being checked, below the ranked ones: the first few, each board's name once
/// above its runs, dimmed, and how many more.
fn draw_still_checked(ui: &mut egui::Ui, records: &Records, modes: &Modes) {
    let checking = records.checking();
    if checking.is_empty() {
        return;
    }
    ui.add_space(6.0);
    section_label(ui, &format!("Still being checked ({})", checking.len()));
    let mut board = None;
    for claim in checking.iter().take(CHECKING_SHOWN) {
        if board != Some(&claim.board) {
            board = Some(&claim.board);
            note(ui, board_title(&claim.board, modes));
        }
        ui.label(
            RichText::new(format!("      {}  ·  checking…", claim.summary))
                .size(text::SMALL)
                .color(DIM.egui()),
        );
    }
    if checking.len() > CHECKING_SHOWN {
        note(ui, format!("and {} more", checking.len() - CHECKING_SHOWN));
    }
}
