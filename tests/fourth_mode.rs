//! A fourth mode, built here and nowhere else: "Taps", a few seconds in which every tap of Space
//! scores points the seed decides. It has its own kind of replay, a record summary, a daily
//! challenge, a sound and its own action (a key and a gamepad button), and is added to the whole
//! game with one call, as the game's own modes are. The tests play it with key presses and check
//! that the shared code keeps its records (on disk, checked again at the next start, listed and
//! watched), offers its daily challenge on a board of the day, and plays its sound: what the
//! README says a mode brings, with no shared file knowing it.

mod common;

use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use common::{connect_gamepad, headless_app_with, open_menu_items, press, run_frames, state};
use leafwing_input_manager::prelude::{Actionlike, InputMap};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;
use temple_trails::game::audio::{Sound, SoundRequested};
use temple_trails::game::controls::{Actions, Controls, controls_plugin};
use temple_trails::game::menu::dialog::ResultDialog;
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::records::{Watching, replay_over_dialog};
use temple_trails::game::replays::{Records, RunRecorded, describe};
use temple_trails::game::scores::unix_now_s;
use temple_trails::game::screens::{
    AppSystems, Menu, Mode, ModeInfo, ModeRecords, Modes, PausableSystems, Screen, add_mode,
    enter_mode,
};
use temple_trails::game::session::{PlayReason, PlaySession};
use temple_trails::game::storage::StorageWarnings;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::replay::boards::{board_name, date_of};
use temple_trails::logic::replay::{
    Recorder, ReplayHeader, RunKind, Simulation, Timed, replay_of, take_step_inputs,
};

// ---- The mode's logic: plain code, as `src/logic/<mode>/` would hold it. ----

/// Taps' kind of run.
struct TapsKind;

/// How long a run of Taps lasts: what decides it besides the seed and the difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
struct TapsSetup {
    length_s: u32,
}

/// The only thing a player does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum TapInput {
    Tap,
}

/// How a run of Taps ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct TapsOutcome {
    taps: u32,
    score: u64,
}

/// The longest run of Taps, in seconds.
const MAX_LENGTH_S: u32 = 10;
/// The length the game plays.
const LENGTH: TapsSetup = TapsSetup { length_s: 2 };

/// One run of Taps in fixed steps of 1/64 s: each tap scores 1 to 5 points (1 to 9 on Hard),
/// drawn from the seed's stream.
#[derive(Debug, Clone)]
struct TapsRun {
    setup: TapsSetup,
    difficulty: Difficulty,
    points: ChaCha8Rng,
    tick: u64,
    taps: u32,
    score: u64,
}

impl TapsRun {
    fn new(setup: TapsSetup, seed: u64, difficulty: Difficulty) -> TapsRun {
        TapsRun {
            setup,
            difficulty,
            points: ChaCha8Rng::seed_from_u64(seed),
            tick: 0,
            taps: 0,
            score: 0,
        }
    }
}

impl Simulation for TapsRun {
    type Input = TapInput;

    fn tick(&self) -> u64 {
        self.tick
    }

    fn is_over(&self) -> bool {
        self.tick >= u64::from(self.setup.length_s) * 64
    }

    fn step_with(&mut self, inputs: &[TapInput]) {
        let most = if self.difficulty == Difficulty::Hard {
            9
        } else {
            5
        };
        for TapInput::Tap in inputs {
            self.taps += 1;
            self.score += self.points.random_range(1..=most);
        }
        self.tick += 1;
    }

    fn fingerprint(&self) -> u64 {
        [self.tick, u64::from(self.taps), self.score]
            .into_iter()
            .fold(0xcbf2_9ce4_8422_2325, |hash, part| {
                (hash ^ part).wrapping_mul(0x0100_0000_01b3)
            })
    }

    fn assisted(&self) -> bool {
        false
    }
}

impl RunKind for TapsKind {
    const MODE: &'static str = "taps";
    type Setup = TapsSetup;
    type Input = TapInput;
    type Outcome = TapsOutcome;
    type Sim = TapsRun;

    fn setup_of(run: &TapsRun) -> TapsSetup {
        run.setup
    }

    fn outcome_of(run: &TapsRun) -> TapsOutcome {
        TapsOutcome {
            taps: run.taps,
            score: run.score,
        }
    }

    fn check(
        setup: &TapsSetup,
        _: &[Timed<TapInput>],
        _: u64,
        _: Difficulty,
    ) -> Result<(), String> {
        if (1..=MAX_LENGTH_S).contains(&setup.length_s) {
            Ok(())
        } else {
            Err(format!(
                "its run lasts {} s: 1 to {MAX_LENGTH_S}",
                setup.length_s
            ))
        }
    }

    fn start(setup: &TapsSetup, seed: u64, difficulty: Difficulty) -> Result<TapsRun, String> {
        Ok(TapsRun::new(*setup, seed, difficulty))
    }

    fn board_detail(setup: &TapsSetup, _: u64, difficulty: Difficulty) -> String {
        format!("{}/{}s", difficulty.name(), setup.length_s)
    }

    fn standing(outcome: &TapsOutcome, _: u64, _: Difficulty) -> i128 {
        -i128::from(outcome.score)
    }

    fn describe(outcome: &TapsOutcome, _: u64) -> String {
        format!("taps: {}\nscore: {}\n", outcome.taps, outcome.score)
    }

    fn summary(outcome: &TapsOutcome, _: u64, _: Difficulty) -> String {
        format!("{} taps", outcome.taps)
    }
}

// ---- The mode in the game: a thin plugin, as `src/game/<mode>/` would hold it. ----

/// Taps' sound: a tap.
const TAP: Sound = Sound("taps_tap.wav");

const TAPS: ModeInfo = ModeInfo {
    name: TapsKind::MODE,
    label: "Taps",
    blurb: "Tap Space as often as you can in two seconds.",
    music: None,
    difficulty_shapes: Some("points per tap"),
    daily: true,
    records: Some(ModeRecords { kind: &TapsKind }),
    plugin: taps_plugin,
};

const TAPS_SCREEN: Screen = Screen::Mode(Mode(&TAPS));

/// The run being played, its recording and the taps waiting for the next step.
#[derive(Resource)]
struct TapsGame {
    run: TapsRun,
    recorder: Recorder<TapInput>,
    pending: Vec<TapInput>,
    finished: bool,
}

/// Taps' one action, with its key and gamepad button: a mode brings its own controls too.
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
enum TapsAction {
    Tap,
}

impl Controls for TapsAction {
    const SECTION: &'static str = "taps";
    const TITLE: &'static str = "Taps controls";
    const ROWS: &'static [(Self, &'static str, &'static str)] =
        &[(TapsAction::Tap, "controls.taps.tap", "Tap")];

    fn default_bindings() -> InputMap<Self> {
        InputMap::new([(TapsAction::Tap, KeyCode::Space)])
            .with(TapsAction::Tap, GamepadButton::South)
    }
}

fn taps_plugin(app: &mut App) {
    controls_plugin::<TapsAction>(app);
    let playing = in_state(TAPS_SCREEN).and_then(resource_exists::<TapsGame>);
    app.add_systems(OnEnter(TAPS_SCREEN), start_taps.after(enter_mode))
        .add_systems(
            Update,
            take_taps
                .run_if(not(resource_exists::<Watching>))
                .in_set(AppSystems::RecordInput)
                .in_set(PausableSystems)
                .run_if(playing.clone()),
        )
        .add_systems(
            FixedUpdate,
            step_taps.in_set(PausableSystems).run_if(playing.clone()),
        )
        .add_systems(
            Update,
            end_taps
                .in_set(AppSystems::Update)
                .in_set(PausableSystems)
                .run_if(playing),
        );
}

fn start_taps(
    mut commands: Commands,
    session: Res<PlaySession>,
    watching: Option<ResMut<Watching>>,
) {
    let setup = match watching {
        Some(mut watching) => {
            watching.rewind();
            watching.replay.run.setup::<TapsKind>().unwrap_or(LENGTH)
        }
        None => LENGTH,
    };
    let run = TapsRun::new(setup, session.seed, session.difficulty);
    commands.insert_resource(TapsGame {
        recorder: Recorder::start(run.fingerprint()),
        run,
        pending: Vec::new(),
        finished: false,
    });
}

fn take_taps(
    actions: Actions<TapsAction>,
    mut game: ResMut<TapsGame>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    if actions.just_pressed(&TapsAction::Tap) && !game.run.is_over() {
        game.pending.push(TapInput::Tap);
        sounds.write(SoundRequested(TAP));
    }
}

fn step_taps(mut game: ResMut<TapsGame>, watching: Option<ResMut<Watching>>) {
    if game.run.is_over() {
        return;
    }
    let tick = game.run.tick;
    let inputs = match watching {
        Some(mut watching) => watching.inputs_due::<TapsKind>(tick),
        None => take_step_inputs(&mut game.pending),
    };
    let game = &mut *game;
    game.run.step_with(&inputs);
    let run = &game.run;
    game.recorder.step(tick, &inputs, || run.fingerprint());
}

fn end_taps(
    mut commands: Commands,
    mut game: ResMut<TapsGame>,
    (session, watching): (Res<PlaySession>, Option<Res<Watching>>),
    mut recorded: MessageWriter<RunRecorded>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    if game.finished || !game.run.is_over() {
        return;
    }
    game.finished = true;
    let outcome = TapsKind::outcome_of(&game.run);
    let figures = vec![
        ("Taps".to_owned(), outcome.taps.to_string()),
        ("Score".to_owned(), outcome.score.to_string()),
    ];
    let dialog = match watching {
        Some(watching) => replay_over_dialog(&watching, figures),
        None => {
            let detail = TapsKind::board_detail(&game.run.setup, session.seed, session.difficulty);
            let header = ReplayHeader::new(
                session.seed,
                session.seed_text.clone(),
                session.difficulty,
                unix_now_s(),
            );
            recorded.write(RunRecorded {
                board: board_name(TapsKind::MODE, &session.board_detail(&detail)),
                replay: replay_of::<TapsKind>(header, &game.run, &game.recorder),
            });
            ResultDialog {
                title: "Time!".to_owned(),
                subtitle: None,
                figures,
                note: None,
                buttons: vec![
                    (MenuItem::Restart, "Again"),
                    (MenuItem::MainMenu, "Main menu"),
                ],
            }
        }
    };
    commands.insert_resource(dialog);
    next_menu.set(Menu::Results);
}

// ---- The tests: the whole game with Taps added, played with keys. ----

/// The sounds asked for, in order.
#[derive(Resource, Default)]
struct Heard(Vec<Sound>);

/// The whole game with Taps added by one call, its files in `home`.
fn game_with_taps(home: &Path) -> App {
    headless_app_with(Some(home), |app| {
        add_mode(app, &TAPS);
        app.init_resource::<Heard>().add_systems(
            Last,
            |mut asked: MessageReader<SoundRequested>, mut heard: ResMut<Heard>| {
                heard.0.extend(asked.read().map(|request| request.0));
            },
        );
    })
}

fn activate(app: &mut App, item: MenuItem) {
    app.world_mut().write_message(MenuInput::Activated(item));
    run_frames(app, 2);
}

/// Plays a run of Taps from the main menu's `item`, tapping `taps` times, with Space and a
/// gamepad's South by turns; returns what its dialog shows.
fn play_taps(app: &mut App, item: MenuItem, taps: usize) -> ResultDialog {
    activate(app, item);
    assert_eq!(state::<Screen>(app), TAPS_SCREEN);
    connect_gamepad(app);
    for tap in 0..taps {
        if tap % 2 == 0 {
            press(app, KeyCode::Space);
        } else {
            press(app, GamepadButton::South);
        }
    }
    for _ in 0..100 {
        if state::<Menu>(app) == Menu::Results {
            return app.world().resource::<ResultDialog>().clone();
        }
        app.update();
    }
    panic!("the run of Taps did not end");
}

fn figure(dialog: &ResultDialog, name: &str) -> String {
    let found = dialog.figures.iter().find(|(shown, _)| shown == name);
    found.map(|(_, value)| value.clone()).unwrap_or_default()
}

#[test]
fn a_fourth_mode_is_offered_played_with_its_sound_and_kept_as_a_record_checked_at_the_next_start() {
    let home = tempfile::tempdir().unwrap();
    let mut app = game_with_taps(home.path());
    let items = open_menu_items(&app);
    assert!(items.contains(&MenuItem::Play(TAPS_SCREEN)), "{items:?}");
    assert!(items.contains(&MenuItem::Daily(TAPS_SCREEN)), "{items:?}");

    let dialog = play_taps(&mut app, MenuItem::Play(TAPS_SCREEN), 5);
    assert_eq!(figure(&dialog, "Taps"), "5");
    let heard = &app.world().resource::<Heard>().0;
    assert_eq!(heard.iter().filter(|&&sound| sound == TAP).count(), 5);

    // Its record is on its own board, described by the mode, and saved.
    run_frames(&mut app, 2);
    let board = "taps/normal/2s";
    let records = app.world().resource::<Records>();
    let listed = records.listed();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0, board);
    let replay = listed[0].1.replay.clone();
    let modes = app.world().resource::<Modes>();
    let row = describe(&replay, modes);
    assert!(row.starts_with("5 taps  ·  "), "{row}");
    let score = replay.result.outcome::<TapsKind>().unwrap().score;
    assert_eq!(figure(&dialog, "Score"), score.to_string());
    assert!((5..=25).contains(&score), "{score}");
    let file = listed[0].1.file.clone().expect("saved");
    assert!(file.starts_with(home.path().join("replays").join("taps+normal+2s")));

    // At the next start the file is played back and listed again, nothing set aside.
    let mut again = game_with_taps(home.path());
    let records = again.world().resource::<Records>();
    assert_eq!(
        records.listed().len(),
        1,
        "the record is checked and listed"
    );
    assert_eq!(records.listed()[0].1.replay, replay);
    assert!(again.world().resource::<StorageWarnings>().0.is_empty());

    // Watched, it plays its own inputs to the same end.
    activate(&mut again, MenuItem::Records);
    assert_eq!(open_menu_items(&again)[0], MenuItem::WatchRecord(0));
    activate(&mut again, MenuItem::WatchRecord(0));
    assert_eq!(state::<Screen>(&again), TAPS_SCREEN);
    for _ in 0..100 {
        if state::<Menu>(&again) == Menu::Results {
            break;
        }
        again.update();
    }
    let watched = again.world().resource::<ResultDialog>();
    assert_eq!(watched.title, "Replay over");
    assert_eq!(figure(watched, "Taps"), "5");
    assert_eq!(figure(watched, "Score"), score.to_string());
    let taps_heard = again
        .world()
        .resource::<Heard>()
        .0
        .iter()
        .filter(|&&s| s == TAP)
        .count();
    assert_eq!(taps_heard, 0, "a watched run takes no taps from the keys");
    assert_eq!(
        again.world().resource::<Records>().listed().len(),
        1,
        "and records nothing"
    );
}

#[test]
fn the_fourth_mode_has_a_daily_challenge_on_a_board_of_the_day() {
    let home = tempfile::tempdir().unwrap();
    let mut app = game_with_taps(home.path());
    let dialog = play_taps(&mut app, MenuItem::Daily(TAPS_SCREEN), 3);
    assert_eq!(figure(&dialog, "Taps"), "3");
    let today = date_of(unix_now_s());
    let session = app.world().resource::<PlaySession>();
    assert_eq!(
        session.why,
        PlayReason::Daily {
            date: today.clone()
        }
    );
    assert_eq!(session.seed_text, format!("daily-{today}"));
    run_frames(&mut app, 2);
    let records = app.world().resource::<Records>();
    let listed = records.listed();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0, format!("taps/daily-{today}/normal/2s"));
    assert_eq!(listed[0].1.replay.seed_text, format!("daily-{today}"));
}

#[test]
fn the_fourth_mode_s_records_rank_by_its_own_rule_and_a_forged_one_is_refused() {
    // Two runs on one board: the higher score first, whatever order they come in.
    let home = tempfile::tempdir().unwrap();
    let mut app = game_with_taps(home.path());
    play_taps(&mut app, MenuItem::Play(TAPS_SCREEN), 1);
    activate(&mut app, MenuItem::Restart);
    play_taps_again(&mut app, 6);
    run_frames(&mut app, 2);
    let scores: Vec<u64> = app
        .world()
        .resource::<Records>()
        .listed()
        .iter()
        .map(|(_, record)| record.replay.result.outcome::<TapsKind>().unwrap().score)
        .collect();
    assert_eq!(scores.len(), 2);
    assert!(scores[0] > scores[1], "{scores:?}");

    // A file claiming more taps than it holds is set aside at the next start, with a warning.
    let record = &app.world().resource::<Records>().listed()[0].1;
    let path = record.file.clone().unwrap();
    let mut forged = record.replay.clone();
    forged
        .result
        .edit::<TapsKind>(|outcome| outcome.score += 100)
        .unwrap();
    std::fs::write(&path, temple_trails::logic::replay::to_bytes(&forged)).unwrap();
    let again = game_with_taps(home.path());
    assert_eq!(again.world().resource::<Records>().listed().len(), 1);
    let warnings = &again.world().resource::<StorageWarnings>().0;
    assert!(
        warnings.iter().any(|warning| warning.contains("diverged")),
        "{warnings:?}"
    );
}

/// The run entered again from its dialog, tapped `taps` times to its end.
fn play_taps_again(app: &mut App, taps: usize) {
    assert_eq!(state::<Screen>(app), TAPS_SCREEN);
    for _ in 0..taps {
        press(app, KeyCode::Space);
    }
    for _ in 0..100 {
        if state::<Menu>(app) == Menu::Results {
            return;
        }
        app.update();
    }
    panic!("the run of Taps did not end");
}
