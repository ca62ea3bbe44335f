//! The records page and watching a record. The page lists the best runs of each board (score or
//! time, date, seed, hints, assisted or not); Watch plays one again exactly in its mode, with a
//! REPLAY badge: Space pauses, 1, 2 and 4 set the speed, Esc leaves for the page. Copy seed puts
//! its seed on the clipboard.

use crate::game::maze::MazeTime;
use crate::game::menu::{MenuCursor, MenuInput, MenuItem, MenuRequests, OpenMenuItems};
use crate::game::replays::Records;
use crate::game::screens::{AppSystems, Menu, Screen};
use crate::game::theme::dialog::{DialogNote, ResultDialog};
use crate::game::theme::widgets::{MenuFocus, centered_panel, menu_button, note, section_label};
use crate::game::theme::{DIM, GOLD, SAND, text};
use crate::game::{MODES, draws};
use crate::logic::maze::run::MazeInput;
use crate::logic::replay::{Replay, ReplayResult, ReplayRun, inputs_due};
use crate::logic::runner::run::RunnerInput;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// The keys a watched record answers, for the bottom of a mode's HUD.
pub const WATCH_KEYS: &str = "Space pause/resume   1 / 2 / 4 speed   Esc back to the records";

/// How many of the runs still being checked the records page lists by name.
const CHECKING_SHOWN: usize = 5;

/// The speeds a replay can be watched at, with their keys.
pub const WATCH_SPEEDS: [(KeyCode, f32); 3] = [
    (KeyCode::Digit1, 1.0),
    (KeyCode::Digit2, 2.0),
    (KeyCode::Digit4, 4.0),
];

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            watch_chosen_record.run_if(on_message::<MenuInput>),
            (control_watching, leave_watching_with_escape)
                .run_if(resource_exists::<Watching>.and_then(in_state(Menu::None))),
        )
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
    /// The next of its inputs to feed.
    next: usize,
    /// Times real time.
    pub speed: f32,
}

impl Watching {
    /// A replay to watch from its start.
    pub fn new(replay: Replay) -> Watching {
        Watching {
            replay,
            next: 0,
            speed: 1.0,
        }
    }

    /// Starts the replay again from its first input (a restart of the watched run).
    pub fn rewind(&mut self) {
        self.next = 0;
    }

    /// The runner inputs of step `tick` (none for another mode's replay).
    pub fn runner_inputs(&mut self, tick: u64) -> Vec<RunnerInput> {
        match &self.replay.run {
            ReplayRun::Runner { inputs } => inputs_due(inputs, &mut self.next, tick),
            ReplayRun::Maze { .. } => Vec::new(),
        }
    }

    /// The maze inputs of step `tick` (none for another mode's replay).
    pub fn maze_inputs(&mut self, tick: u64) -> Vec<MazeInput> {
        match &self.replay.run {
            ReplayRun::Maze { inputs, .. } => inputs_due(inputs, &mut self.next, tick),
            ReplayRun::Runner { .. } => Vec::new(),
        }
    }

    /// Whether the recorded run has been played to its last step.
    pub fn is_done(&self, tick: u64) -> bool {
        tick >= self.replay.result.ticks()
    }

    /// The HUD badge: REPLAY and the speed.
    pub fn badge(&self) -> String {
        format!("REPLAY {}x", self.speed)
    }
}

/// The dialog at the end of a watched record: its result, and nothing recorded.
pub fn replay_over_dialog(watching: &Watching) -> ResultDialog {
    let replay = &watching.replay;
    let figures = match replay.result {
        ReplayResult::Runner {
            distance_m,
            coins,
            score,
            stumbles,
            ..
        } => vec![
            ("Distance".to_owned(), format!("{distance_m:.0} m")),
            ("Coins".to_owned(), coins.to_string()),
            ("Stumbles".to_owned(), stumbles.to_string()),
            ("Score".to_owned(), score.to_string()),
        ],
        ReplayResult::Maze {
            ticks,
            moves,
            hints_used,
            ..
        } => {
            let time = MazeTime::new(ticks, hints_used, replay.difficulty);
            vec![
                ("Time".to_owned(), time.counted()),
                ("Moves".to_owned(), moves.to_string()),
                ("Hints".to_owned(), time.hints()),
            ]
        }
    };
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

/// The screen that plays a replay's mode.
fn screen_of(replay: &Replay) -> Screen {
    match replay.run {
        ReplayRun::Runner { .. } => Screen::Runner,
        ReplayRun::Maze { .. } => Screen::Maze,
    }
}

fn watch_chosen_record(
    mut commands: Commands,
    mut inputs: MessageReader<MenuInput>,
    records: Res<Records>,
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
                next_screen.set(screen_of(&record.replay));
                next_menu.set(Menu::None);
                commands.insert_resource(Watching::new(record.replay.clone()));
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

/// Space pauses and resumes the replay; 1, 2 and 4 set its speed.
fn control_watching(
    keys: Res<ButtonInput<KeyCode>>,
    mut watching: ResMut<Watching>,
    mut time: ResMut<Time<Virtual>>,
) {
    if keys.just_pressed(KeyCode::Space) {
        if time.is_paused() {
            time.unpause();
        } else {
            time.pause();
        }
    }
    for (key, speed) in WATCH_SPEEDS {
        if keys.just_pressed(key) {
            watching.speed = speed;
            time.set_relative_speed(speed);
        }
    }
}

/// Esc leaves a replay for the records page.
fn leave_watching_with_escape(
    keys: Res<ButtonInput<KeyCode>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    if keys.just_pressed(KeyCode::Escape) {
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

/// A run's figures for its row: the result, the date, the seed, hints, and who played.
pub fn describe(replay: &Replay) -> String {
    let (result, hints, assisted) = match replay.result {
        ReplayResult::Runner {
            score, assisted, ..
        } => (format!("{score} points"), String::new(), assisted),
        ReplayResult::Maze {
            ticks,
            hints_used,
            assisted,
            ..
        } => {
            let time = MazeTime::new(ticks, hints_used, replay.difficulty);
            (time.counted(), format!("  ·  {}", time.hints()), assisted)
        }
    };
    let who = if assisted { "  ·  assisted" } else { "" };
    format!(
        "{result}  ·  {}  ·  seed \"{}\"{hints}{who}",
        date_of(replay.recorded_unix_s),
        replay.seed_text
    )
}

/// A date from seconds since 1970, as `YYYY-MM-DD` (UTC), by the civil-from-days algorithm.
pub fn date_of(unix_s: u64) -> String {
    let days = i64::try_from(unix_s / 86_400).unwrap_or(0);
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The mode's label for a board's name (`runner/normal` → Runner).
fn board_title(board: &str) -> String {
    let (mode, detail) = board.split_once('/').unwrap_or((board, ""));
    let label = MODES
        .iter()
        .find(|info| info.name == mode)
        .map_or(mode, |info| info.label);
    format!("{label}  {detail}")
}

fn draw_records_page(
    mut contexts: EguiContexts,
    records: Res<Records>,
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
                    section_label(ui, &board_title(board));
                    for (rank, record) in runs.iter().enumerate() {
                        ui.horizontal(|ui| {
                            ui.label(
                                RichText::new(format!(
                                    "{:>2}.  {}",
                                    rank + 1,
                                    describe(&record.replay)
                                ))
                                .size(text::SMALL)
                                .color(SAND.egui()),
                            );
                            for item in [MenuItem::WatchRecord(at), MenuItem::CopyRecordSeed(at)] {
                                let response = ui.add(
                                    egui::Button::new(crate::game::menu::item_label(item))
                                        .selected(focus.is_on(item)),
                                );
                                focus.follow_mouse(ui, &response, item);
                                if response.clicked() {
                                    inputs.push(MenuInput::Activated(item));
                                }
                            }
                        });
                        at = at.saturating_add(1);
                    }
                }
                draw_still_checked(ui, &records);
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
fn draw_still_checked(ui: &mut egui::Ui, records: &Records) {
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
            note(ui, board_title(&claim.board));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates_in_utc() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(951_782_400), "2000-02-29");
        assert_eq!(date_of(1_796_068_494), "2026-11-30");
        assert_eq!(date_of(4_107_542_399), "2100-02-28");
    }
}
