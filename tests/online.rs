//! Online boards in the headless game: with the setting on, a run the player finishes is kept in
//! the outbox at once and the sender tries it in the background (here no server answers, so it
//! waits there, and the records page's status says so); the computer's runs and runs finished
//! with the setting off are not queued. The server's own tests send the outbox to a real server.

mod common;

use bevy::prelude::*;
use common::headless_app_with;
use std::path::Path;
use std::time::{Duration, Instant};
use temple_trails::board_outbox::waiting;
use temple_trails::game::menu::MenuInput;
use temple_trails::game::online::{ENABLED, OnlineSettings, WorldResults};
use temple_trails::game::replays::RunRecorded;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::replay::boards::board_of;
use temple_trails::logic::replay::{Replay, ReplayHeader, record, replay_of};
use temple_trails::logic::runner::body::Command;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};

/// A runner run that ends at the first junction; `autopilot` hands it to the computer.
fn finished_run(autopilot: bool) -> Replay {
    let mut sim = RunnerSim::new(42, Difficulty::Normal);
    let recorder = record(
        &mut sim,
        |_| false,
        |tick, _| match tick {
            0 if autopilot => vec![RunnerInput::Autopilot(true)],
            30 => vec![RunnerInput::Command(Command::Jump)],
            _ => Vec::new(),
        },
    );
    let head = ReplayHeader::new(42, "42".to_owned(), Difficulty::Normal, 1_796_000_000);
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
