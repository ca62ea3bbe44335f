//! Headless App tests of the runner's first-run guidance: a new player who presses the keys the
//! tip names gets past the default seed's first junction, where unguided new players fell; time
//! slows and the run waits for the key; what is learned is kept in the settings; a guided run
//! goes on no board; and guidance switched off shows nothing.

mod common;

use bevy::prelude::*;
use common::runner::{PATIENCE, enter_runner, play_runner, run};
use common::{headless_app, press, set_runner_guidance, state};
use temple_trails::game::keys::key_name;
use temple_trails::game::replays::Records;
use temple_trails::game::runner::RunnerResult;
use temple_trails::game::runner::guide::{RunnerGuide, tip_words};
use temple_trails::game::runner::options::RunnerOptions;
use temple_trails::game::runner::rules::COMMAND_KEYS;
use temple_trails::game::scores::BestScores;
use temple_trails::game::screens::Menu;
use temple_trails::game::settings::Settings;
use temple_trails::logic::runner::body::Command;
use temple_trails::logic::runner::guide::{Lesson, Prompt, SLOWEST};

/// A new player's app (nothing learned, guidance on) running the default seed's runner.
fn new_players_run(home: &std::path::Path) -> App {
    let mut app = headless_app(Some(home));
    set_runner_guidance(&mut app, true);
    play_runner(&mut app);
    app
}

/// The prompt the guide shows now, if any.
fn shown(app: &App) -> Option<Prompt> {
    let guide = app.world().get_resource::<RunnerGuide>()?;
    guide.shown(run(app)).copied()
}

/// The first key the game lists for `command`: the one a player reads first on the tip.
fn first_key(command: Command) -> KeyCode {
    COMMAND_KEYS
        .iter()
        .find(|(_, given)| *given == command)
        .map(|&(key, _)| key)
        .unwrap()
}

/// Runs frames until the guide holds the run, and returns what it holds for. The run must not
/// end on the way.
fn wait_for_hold(app: &mut App) -> Prompt {
    for _ in 0..PATIENCE {
        if let Some(prompt) = shown(app).filter(Prompt::holds) {
            return prompt;
        }
        assert!(!run(app).sim.is_over(), "{:?}", run(app).sim.body.crash);
        app.update();
    }
    panic!("the guide never held the run");
}

#[test]
fn a_new_player_pressing_the_keys_shown_gets_past_the_first_junction() {
    let home = tempfile::tempdir().unwrap();
    let mut app = new_players_run(home.path());
    assert_eq!(run(&app).sim.body.distance_m, 0.0);
    loop {
        let held = wait_for_hold(&mut app);
        let command = held.command.expect("a held prompt names a command");
        let key = first_key(command);
        let (_, instruction) = tip_words(&held);
        assert!(
            instruction.contains(&key_name(key)),
            "the tip {instruction:?} names {key:?}"
        );
        // The run waits: frames pass and it does not move.
        let at = run(&app).sim.body.distance_m;
        common::run_frames(&mut app, 5);
        assert_eq!(
            run(&app).sim.body.distance_m,
            at,
            "the run waits for the key"
        );
        let speed = app.world().resource::<Time<Virtual>>().relative_speed_f64();
        assert_eq!(speed, SLOWEST);
        press(&mut app, key);
        if held.lesson == Lesson::Junction {
            break;
        }
    }
    // Past the corner at full speed, the lesson kept in the settings.
    for _ in 0..PATIENCE {
        if run(&app).sim.body.quarter_turns != 0 {
            break;
        }
        app.update();
    }
    let run = run(&app);
    assert!(run.sim.body.crash.is_none(), "{:?}", run.sim.body.crash);
    assert_eq!(
        run.sim.body.quarter_turns, -1,
        "the first junction turns right"
    );
    assert!(run.guided);
    common::run_frames(&mut app, 2);
    let speed = app.world().resource::<Time<Virtual>>().relative_speed_f64();
    assert_eq!(speed, 1.0);
    let options = app.world().resource::<RunnerOptions>();
    assert!(options.guidance.learned.contains(&Lesson::Junction));
    let saved = &app.world().resource::<Settings>().modes["runner"]["guidance"]["learned"];
    assert!(
        saved
            .as_array()
            .unwrap()
            .iter()
            .any(|name| name == "junction")
    );
}

#[test]
fn a_guided_run_goes_on_no_board_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let mut app = new_players_run(home.path());
    // Wrong keys at every hold: at the junction that is the wrong way, and the run falls.
    for _ in 0..20 {
        if run(&app).sim.is_over() {
            break;
        }
        let held = wait_for_hold(&mut app);
        let wrong = match held.command.unwrap() {
            Command::Left => Command::Right,
            Command::Right => Command::Left,
            Command::Jump => Command::Slide,
            Command::Slide => Command::Jump,
        };
        press(&mut app, first_key(wrong));
        common::run_frames(&mut app, 10);
    }
    assert!(run(&app).sim.is_over());
    common::run_frames(&mut app, 2);
    assert_eq!(state::<Menu>(&app), Menu::Results);
    let result = app.world().resource::<RunnerResult>();
    assert!(result.guided && !result.new_record);
    assert!(
        result.score > 0,
        "a score worth keeping, had it not been guided"
    );
    assert!(
        app.world()
            .resource::<BestScores>()
            .best("runner/normal")
            .is_none()
    );
    assert_eq!(app.world().resource::<Records>().len(), 0);
    let replays = home.path().join("replays");
    let files = std::fs::read_dir(&replays).map_or(0, |dir| dir.count());
    assert_eq!(files, 0, "no replay file was written");
}

#[test]
fn with_guidance_off_nothing_is_shown_and_nothing_waits() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app(Some(home.path()));
    enter_runner(&mut app);
    for _ in 0..PATIENCE {
        assert!(app.world().get_resource::<RunnerGuide>().is_none());
        if run(&app).sim.is_over() {
            break;
        }
        app.update();
    }
    let run = run(&app);
    assert!(
        run.sim.is_over() && !run.guided,
        "the unguided new player falls"
    );
}
