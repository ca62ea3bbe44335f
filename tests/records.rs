//! Headless App tests of records and replays: a finished run is kept and listed; watching it
//! plays it to its recorded result at 30, 60 and 144 frames per second alike and records nothing;
//! a record that does not play back is set aside with a warning.

mod common;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{
    headless_app, headless_app_with, open_menu_items, press, run_frames, set_runner_guidance, state,
};
use std::path::{Path, PathBuf};
use std::time::Duration;
use temple_trails::game::maze::CurrentMaze;
use temple_trails::game::maze::ghost::MazeGhost;
use temple_trails::game::maze::hint::MazeHint;
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::records::Watching;
use temple_trails::game::replays::Records;
use temple_trails::game::runner::RunnerRun;
use temple_trails::game::scores::BestScores;
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::game::session::{PlayReason, PlayRequest, PlaySession};
use temple_trails::game::settings::GameSeed;
use temple_trails::game::storage::StorageWarnings;
use temple_trails::game::{maze, runner};
use temple_trails::logic::maze::Direction;
use temple_trails::logic::maze::replay::MazeKind;
use temple_trails::logic::replay::{Replay, result_of};
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::seed::parse_seed;
use temple_trails::logic::verify_replay;

/// Most frames a test waits for something.
const PATIENCE: usize = 5_000;

fn activate(app: &mut App, item: MenuItem) {
    app.world_mut().write_message(MenuInput::Activated(item));
    run_frames(app, 2);
}

/// Plays a runner run in `home` with a jump and a lane change, to its end; returns its replay.
fn play_a_runner_run(home: &Path) -> Replay {
    let mut app = headless_app(Some(home));
    // A guided run goes on no board: this player has turned the guidance off.
    set_runner_guidance(&mut app, false);
    activate(&mut app, MenuItem::Play(runner::SCREEN));
    run_frames(&mut app, 4);
    press(&mut app, KeyCode::ArrowUp);
    run_frames(&mut app, 3);
    press(&mut app, KeyCode::ArrowRight);
    for _ in 0..PATIENCE {
        if app.world().resource::<RunnerRun>().sim.is_over() {
            break;
        }
        app.update();
    }
    run_frames(&mut app, 3);
    assert_eq!(state::<Menu>(&app), Menu::Results);
    let records = app.world().resource::<Records>();
    let listed = records.listed();
    assert_eq!(listed.len(), 1, "the run is on its board");
    listed[0].1.replay.clone()
}

/// The one replay file kept on a board in `home`.
fn board_files(home: &Path) -> Vec<PathBuf> {
    let boards = home.join("replays");
    std::fs::read_dir(boards)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .flat_map(|board| {
            std::fs::read_dir(board.path())
                .unwrap()
                .filter_map(Result::ok)
        })
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect()
}

/// Opens the records page from the title and watches the first record until its dialog.
fn watch_the_first_record(app: &mut App) {
    activate(app, MenuItem::Records);
    assert_eq!(state::<Menu>(app), Menu::Records);
    assert_eq!(open_menu_items(app)[0], MenuItem::WatchRecord(0));
    activate(app, MenuItem::WatchRecord(0));
    assert!(app.world().contains_resource::<Watching>());
    for _ in 0..PATIENCE {
        if state::<Menu>(app) == Menu::Results {
            return;
        }
        app.update();
    }
    panic!("the replay did not end");
}

#[test]
fn a_watched_run_reaches_its_recorded_result_at_any_frame_rate_and_records_nothing() {
    let home = tempfile::tempdir().unwrap();
    let replay = play_a_runner_run(home.path());
    let scores_before = std::fs::read_to_string(home.path().join("scores.json")).unwrap();
    for fps in [30.0, 60.0, 144.0] {
        let mut app = headless_app_with(Some(home.path()), |app| {
            app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
                1.0 / fps,
            )));
        });
        watch_the_first_record(&mut app);
        assert_eq!(state::<Screen>(&app), runner::SCREEN);
        let run = app.world().resource::<RunnerRun>();
        let fps_note = format!("at {fps} frames per second");
        assert_eq!(
            result_of::<RunnerKind>(&run.sim),
            replay.result,
            "{fps_note}"
        );
        // Played again, the run records the very same replay.
        assert_eq!(run.replay(replay.recorded_unix_s), replay, "{fps_note}");
        assert!(
            app.world()
                .resource::<BestScores>()
                .best("runner/normal")
                .is_some(),
            "the record is still there"
        );
        run_frames(&mut app, 2);
        assert_eq!(app.world().resource::<Records>().listed().len(), 1);
    }
    assert_eq!(
        board_files(home.path()).len(),
        1,
        "watching kept no new run"
    );
    let scores_after = std::fs::read_to_string(home.path().join("scores.json")).unwrap();
    assert_eq!(
        scores_before, scores_after,
        "nor changed a score or the coins"
    );
}

#[test]
fn watching_can_pause_speed_up_and_leave_for_the_records_page() {
    let home = tempfile::tempdir().unwrap();
    play_a_runner_run(home.path());
    let mut app = headless_app(Some(home.path()));
    activate(&mut app, MenuItem::Records);
    activate(&mut app, MenuItem::WatchRecord(0));
    run_frames(&mut app, 5);
    let tick = |app: &App| app.world().resource::<RunnerRun>().sim.tick;
    let before = tick(&app);
    run_frames(&mut app, 1);
    assert!(tick(&app) > before, "the watched run plays");
    press(&mut app, KeyCode::Space);
    let paused_at = tick(&app);
    run_frames(&mut app, 5);
    assert_eq!(tick(&app), paused_at, "paused");
    press(&mut app, KeyCode::Space);
    press(&mut app, KeyCode::Digit4);
    let from = tick(&app);
    run_frames(&mut app, 2);
    // Four times 6.4 steps a frame of 100 ms.
    assert!(
        tick(&app) - from >= 48,
        "{} steps in two frames",
        tick(&app) - from
    );
    assert_eq!(app.world().resource::<Watching>().badge(), "REPLAY 4x");
    press(&mut app, KeyCode::Escape);
    run_frames(&mut app, 1);
    assert_eq!(state::<Screen>(&app), Screen::Title);
    assert_eq!(state::<Menu>(&app), Menu::Records);
    assert!(!app.world().contains_resource::<Watching>());
    let time = app.world().resource::<Time<Virtual>>();
    assert_eq!(time.relative_speed(), 1.0);
}

#[test]
fn a_solved_maze_is_listed_and_watched_to_its_exact_time() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app(Some(home.path()));
    activate(&mut app, MenuItem::Play(maze::SCREEN));
    press(&mut app, KeyCode::Space);
    let path = app.world().resource::<MazeHint>().path().unwrap().to_vec();
    for pair in path.windows(2) {
        let run = &app.world().resource::<CurrentMaze>().0;
        let direction = Direction::ALL
            .into_iter()
            .find(|&d| run.maze.neighbour(pair[0], d) == Some(pair[1]))
            .unwrap();
        let key = match direction {
            Direction::North => KeyCode::ArrowUp,
            Direction::East => KeyCode::ArrowRight,
            Direction::South => KeyCode::ArrowDown,
            Direction::West => KeyCode::ArrowLeft,
        };
        press(&mut app, key);
    }
    run_frames(&mut app, 2);
    let played_run = app.world().resource::<CurrentMaze>().0.clone();
    let played = result_of::<MazeKind>(&played_run);

    // Again: the solved run walks beside the player as a ghost, step for step, to the exit.
    activate(&mut app, MenuItem::Restart);
    assert!(app.world().contains_resource::<MazeGhost>());
    for _ in 0..PATIENCE {
        if app.world().resource::<MazeGhost>().run.finished {
            break;
        }
        app.update();
        let ghost_ticks = app.world().resource::<MazeGhost>().run.ticks;
        assert_eq!(ghost_ticks, app.world().resource::<CurrentMaze>().0.ticks);
    }
    let ghost = &app.world().resource::<MazeGhost>().run;
    assert_eq!(ghost.trail(), played_run.trail());
    assert_eq!(ghost.ticks, played_run.ticks);

    press(&mut app, KeyCode::Escape);
    activate(&mut app, MenuItem::MainMenu);
    watch_the_first_record(&mut app);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
    assert_eq!(
        result_of::<MazeKind>(&app.world().resource::<CurrentMaze>().0),
        played
    );
}

#[test]
fn a_record_that_does_not_play_back_is_set_aside_with_a_warning() {
    let home = tempfile::tempdir().unwrap();
    let replay = play_a_runner_run(home.path());
    let file = board_files(home.path()).remove(0);
    let mut changed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(verify_replay(&replay).is_ok());
    changed["result"]["score"] = serde_json::json!(999_999);
    std::fs::write(&file, changed.to_string()).unwrap();

    let app = headless_app(Some(home.path()));
    assert!(app.world().resource::<Records>().listed().is_empty());
    let warnings = &app.world().resource::<StorageWarnings>().0;
    assert!(
        warnings.iter().any(|w| w.contains("diverged")),
        "{warnings:?}"
    );
    assert!(!file.exists(), "moved aside");
    let folder = file.parent().unwrap();
    let aside = std::fs::read_dir(folder)
        .unwrap()
        .filter_map(Result::ok)
        .any(|entry| entry.file_name().to_string_lossy().contains(".corrupt-"));
    assert!(aside, "kept under another name, never deleted");
}

#[test]
fn the_daily_challenge_plays_the_day_seed_on_its_own_board_and_keeps_the_player_seed() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app(Some(home.path()));
    set_runner_guidance(&mut app, false);
    let own_seed = app.world().resource::<GameSeed>().0;
    assert!(open_menu_items(&app).contains(&MenuItem::Daily(runner::SCREEN)));
    activate(&mut app, MenuItem::Daily(runner::SCREEN));
    assert_eq!(state::<Screen>(&app), runner::SCREEN);
    let session = app.world().resource::<PlaySession>().clone();
    let PlayReason::Daily { date } = &session.why else {
        panic!("the daily challenge is played: {session:?}");
    };
    assert_eq!(session.seed_text, format!("daily-{date}"));
    assert_eq!(Ok(session.seed), parse_seed(&session.seed_text));
    assert_ne!(session.seed, own_seed);
    let run = app.world().resource::<RunnerRun>();
    assert_eq!(run.sim.seed, session.seed);
    assert_eq!(run.seed_text, session.seed_text);
    for _ in 0..PATIENCE {
        if app.world().resource::<RunnerRun>().sim.is_over() {
            break;
        }
        app.update();
    }
    run_frames(&mut app, 3);
    let board = format!("runner/daily-{date}/normal");
    let scores = app.world().resource::<BestScores>();
    assert!(scores.best(&board).is_some(), "the day's own board");
    assert!(
        scores.best("runner/normal").is_none(),
        "not the ordinary one"
    );
    activate(&mut app, MenuItem::MainMenu);
    assert_eq!(state::<Screen>(&app), Screen::Title);
    assert!(!app.world().contains_resource::<PlayRequest>());
    assert!(!app.world().contains_resource::<PlaySession>());
    assert_eq!(app.world().resource::<GameSeed>().0, own_seed);
}

#[test]
fn a_maze_walked_by_the_system_from_the_start_replays_too() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app_with(Some(home.path()), |app| {
        app.insert_resource(temple_trails::game::session::AutoplayOnStart(true));
    });
    activate(&mut app, MenuItem::Play(maze::SCREEN));
    for _ in 0..PATIENCE {
        if state::<Menu>(&app) == Menu::Results {
            break;
        }
        app.update();
    }
    let listed = app.world().resource::<Records>().listed().len();
    assert_eq!(listed, 1, "an assisted run is kept, marked as such");
    let replay = app.world().resource::<Records>().listed()[0]
        .1
        .replay
        .clone();
    let result = verify_replay(&replay).expect("it plays back");
    assert_eq!(
        result,
        result_of::<MazeKind>(&app.world().resource::<CurrentMaze>().0)
    );
}
