//! Online boards in the headless game: with the setting on, a run the player finishes is kept in
//! the outbox at once and the sender tries it in the background (here no server answers, so it
//! waits there, and the records page's status says so); the computer's runs and runs finished
//! with the setting off are not queued. The server's own tests send the outbox to a real server.

mod common;

use bevy::prelude::*;
use common::headless_app_with;
use std::path::Path;
use std::time::{Duration, Instant};
use temple_trails::board_api::BoardRow;
use temple_trails::board_client::WorldBoardRuns;
use temple_trails::board_outbox::waiting;
use temple_trails::game::menu::{MenuInput, MenuItem, WorldRunsOnPage};
use temple_trails::game::online::{ENABLED, OnlineSettings, WorldResults};
use temple_trails::game::records::Watching;
use temple_trails::game::replays::{RaceGhost, RunRecorded};
use temple_trails::game::runner::ghost::RunnerGhost;
use temple_trails::game::screens::Screen;
use temple_trails::game::session::PlaySession;
use temple_trails::game::world_boards::{WorldShown, WorldView};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::replay::boards::board_of;
use temple_trails::logic::replay::{Replay, ReplayHeader, record, replay_of};
use temple_trails::logic::runner::body::Command;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};

/// A runner run that ends at the first junction; `autopilot` hands it to the computer.
fn finished_run(autopilot: bool) -> Replay {
    run_of(42, Difficulty::Normal, autopilot)
}

fn run_of(seed: u64, difficulty: Difficulty, autopilot: bool) -> Replay {
    let mut sim = RunnerSim::new(seed, difficulty);
    let recorder = record(
        &mut sim,
        |_| false,
        |tick, _| match tick {
            0 if autopilot => vec![RunnerInput::Autopilot(true)],
            30 => vec![RunnerInput::Command(Command::Jump)],
            _ => Vec::new(),
        },
    );
    let head = ReplayHeader::new(seed, seed.to_string(), difficulty, 1_796_000_000);
    replay_of::<RunnerKind>(head, &sim, &recorder)
}

fn finish(app: &mut App, replay: &Replay) {
    let board = board_of(replay, &RunnerKind, None).unwrap();
    app.world_mut().write_message(RunRecorded {
        board,
        replay: replay.clone(),
    });
    app.update();
}

fn app_with_online(home: &Path, enabled: bool) -> App {
    // A server address where nothing listens (the discard port).
    let settings =
        format!(r#"{{"online": {{"enabled": {enabled}, "server": "http://127.0.0.1:9"}}}}"#);
    std::fs::write(home.join("settings.json"), settings).unwrap();
    headless_app_with(Some(home), |_| {})
}

#[test]
fn a_finished_run_waits_in_the_outbox_while_no_server_answers() {
    let home = tempfile::tempdir().unwrap();
    let mut app = app_with_online(home.path(), true);
    assert!(app.world().resource::<OnlineSettings>().enabled);
    finish(&mut app, &finished_run(true));
    assert!(
        waiting(home.path()).is_empty(),
        "the autopilot's run was queued"
    );
    finish(&mut app, &finished_run(false));
    assert_eq!(waiting(home.path()).len(), 1);
    // The identity is made and kept beside the settings.
    let player = std::fs::read_to_string(home.path().join("player.json")).unwrap();
    assert!(player.contains("\"name\": \"Player "), "{player}");

    // The sender tries, finds no server, and the status says the run waits.
    let deadline = Instant::now() + Duration::from_secs(30);
    while app
        .world()
        .resource::<WorldResults>()
        .last_problem
        .is_none()
    {
        assert!(Instant::now() < deadline, "the sender never reported");
        std::thread::sleep(Duration::from_millis(20));
        app.update();
    }
    let results = app.world().resource::<WorldResults>();
    assert_eq!(results.waiting, 1);
    assert!(
        results
            .last_problem
            .as_deref()
            .is_some_and(|why| why.contains("did not answer")),
        "{results:?}"
    );
    assert_eq!(
        waiting(home.path()).len(),
        1,
        "a run is never lost to the network"
    );
}

#[test]
fn with_online_boards_off_nothing_is_queued_and_the_row_turns_them_on() {
    let home = tempfile::tempdir().unwrap();
    let mut app = app_with_online(home.path(), false);
    finish(&mut app, &finished_run(false));
    assert!(waiting(home.path()).is_empty());
    assert!(!home.path().join("player.json").exists());

    app.world_mut().write_message(MenuInput::Activated(ENABLED));
    app.update();
    assert!(app.world().resource::<OnlineSettings>().enabled);
    finish(&mut app, &finished_run(false));
    assert_eq!(waiting(home.path()).len(), 1);
}

/// The records page showing one world board with one run.
fn show_world_run(app: &mut App, replay: &Replay) {
    let row = BoardRow {
        rank: 1,
        run: "0123456789abcdef0123456789abcdef".to_owned(),
        player: "Ada".to_owned(),
        summary: "65 points".to_owned(),
        ticks: replay.result.ticks,
        submitted_unix_s: 1_796_000_000,
    };
    app.world_mut().resource_mut::<WorldView>().shown = WorldShown::Boards(vec![WorldBoardRuns {
        board: "runner/seed-7/hard".to_owned(),
        players: 1,
        runs: vec![(row, replay.clone())],
    }]);
    app.insert_resource(WorldRunsOnPage(1));
}

#[test]
fn a_world_run_is_watched_or_raced_as_a_ghost_on_its_own_seed_and_difficulty() {
    let home = tempfile::tempdir().unwrap();
    let mut app = app_with_online(home.path(), true);
    let world_run = run_of(7, Difficulty::Hard, false);
    show_world_run(&mut app, &world_run);

    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::RaceWorldRun(0)));
    common::run_frames(&mut app, 3);
    assert_eq!(
        common::state::<Screen>(&app),
        temple_trails::game::runner::SCREEN
    );
    let session = app.world().resource::<PlaySession>();
    assert_eq!((session.seed, session.difficulty), (7, Difficulty::Hard));
    assert_eq!(app.world().resource::<RaceGhost>().0, world_run);
    let ghost = app.world().get_resource::<RunnerGhost>();
    assert!(
        ghost.is_some_and(|ghost| ghost.sim.seed == 7),
        "the raced run is the ghost"
    );
    assert!(app.world().get_resource::<Watching>().is_none());

    // Back at the title, the race is over; Watch plays the run again.
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    common::run_frames(&mut app, 2);
    assert!(app.world().get_resource::<RaceGhost>().is_none());
    show_world_run(&mut app, &world_run);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::WatchWorldRun(0)));
    common::run_frames(&mut app, 3);
    assert_eq!(
        common::state::<Screen>(&app),
        temple_trails::game::runner::SCREEN
    );
    assert_eq!(app.world().resource::<Watching>().replay, world_run);
}

#[test]
fn a_raced_maze_is_the_ghost_s_own_maze_whatever_the_maze_settings_say() {
    use temple_trails::game::maze::CurrentMaze;
    use temple_trails::game::maze::ghost::MazeGhost;
    use temple_trails::logic::maze::replay::MazeKind;
    use temple_trails::logic::maze::run::{MazeRun, MazeSetup};
    use temple_trails::logic::maze::{Algorithm, MazeSpec};
    let home = tempfile::tempdir().unwrap();
    let mut app = app_with_online(home.path(), true);
    // A 9x7 Kruskal maze at level 2: not what the maze settings make.
    let setup = MazeSetup {
        first: MazeSpec {
            width: 9,
            height: 7,
            algorithm: Algorithm::Kruskal,
            braid: 0.0,
            seed: 7,
        },
        difficulty: Difficulty::Easy,
        level: 2,
    };
    let mut run = MazeRun::new(setup, false).unwrap();
    let recorder = record(&mut run, |run| run.ticks >= 200, |_, _| Vec::new());
    let head = ReplayHeader::new(7, "7".to_owned(), Difficulty::Easy, 1_796_000_000);
    let ghost = replay_of::<MazeKind>(head, &run, &recorder);
    show_world_run(&mut app, &ghost);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::RaceWorldRun(0)));
    common::run_frames(&mut app, 3);
    assert_eq!(
        common::state::<Screen>(&app),
        temple_trails::game::maze::SCREEN
    );
    let maze = app.world().resource::<CurrentMaze>();
    assert_eq!(maze.setup, setup);
    assert!(app.world().get_resource::<MazeGhost>().is_some());
}

#[test]
fn the_name_in_the_settings_is_the_name_boards_show_and_a_bad_one_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let settings =
        r#"{"online": {"enabled": true, "server": "http://127.0.0.1:9", "name": " Ada "}}"#;
    std::fs::write(home.path().join("settings.json"), settings).unwrap();
    let app = headless_app_with(Some(home.path()), |_| {});
    assert_eq!(app.world().resource::<OnlineSettings>().name, " Ada ");
    // The identity the sender uses, which the command line shares, carries it.
    let player = std::fs::read_to_string(home.path().join("player.json")).unwrap();
    assert!(player.contains("\"name\": \"Ada\""), "{player}");

    let other = tempfile::tempdir().unwrap();
    let settings = r#"{"online": {"enabled": true, "server": "ftp://x", "name": "evil\u202e"}}"#;
    std::fs::write(other.path().join("settings.json"), settings).unwrap();
    let app = headless_app_with(Some(other.path()), |_| {});
    let online = app.world().resource::<OnlineSettings>();
    assert_eq!(
        (online.server.as_str(), online.name.as_str()),
        ("http://127.0.0.1:8080", "")
    );
    let warnings = &app
        .world()
        .resource::<temple_trails::game::storage::StorageWarnings>()
        .0;
    assert!(
        warnings.iter().any(|w| w.contains("online.name")),
        "{warnings:?}"
    );
}

#[test]
fn the_server_and_the_name_are_typed_on_the_settings_page_and_refused_when_no_server_takes_them() {
    use temple_trails::game::online::{NAME, SERVER};
    let home = tempfile::tempdir().unwrap();
    let mut app = app_with_online(home.path(), true);
    let mut type_into = |item, text: &str| {
        app.world_mut()
            .write_message(MenuInput::TextSet(item, text.to_owned()));
        app.update();
        app.world().resource::<OnlineSettings>().clone()
    };
    assert_eq!(
        type_into(SERVER, "ftp://boards").server,
        "http://127.0.0.1:9"
    );
    assert_eq!(
        type_into(SERVER, " http://boards.example:8080/ ").server,
        "http://boards.example:8080"
    );
    assert_eq!(
        type_into(NAME, "Ada\u{202E}").name,
        "",
        "a hidden character"
    );
    assert_eq!(type_into(NAME, &"x".repeat(25)).name, "", "too long");
    assert_eq!(type_into(NAME, "  Ada  ").name, "Ada");
    // The name goes to the identity the sender uses, which the command line shares.
    let player = std::fs::read_to_string(home.path().join("player.json")).unwrap();
    assert!(player.contains("\"name\": \"Ada\""), "{player}");
    assert_eq!(type_into(NAME, "").name, "");
}

#[test]
fn enter_on_a_text_row_asks_for_the_keys_to_go_into_its_field() {
    use temple_trails::game::menu::MenuRequests;
    use temple_trails::game::online::{NAME, SERVER};
    let home = tempfile::tempdir().unwrap();
    let mut app = app_with_online(home.path(), true);
    for item in [NAME, SERVER] {
        app.world_mut().write_message(MenuInput::Activated(item));
        app.update();
        assert_eq!(
            app.world().resource::<MenuRequests>().focus_text_setting,
            Some(item)
        );
    }
    // Enter on a row that is not text asks nothing of the kind.
    app.world_mut()
        .resource_mut::<MenuRequests>()
        .focus_text_setting = None;
    app.world_mut().write_message(MenuInput::Activated(ENABLED));
    app.update();
    assert_eq!(
        app.world().resource::<MenuRequests>().focus_text_setting,
        None
    );
}
