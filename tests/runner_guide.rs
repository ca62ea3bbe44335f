//! Headless App tests of the runner's first-run guidance: a new player who presses the keys the
//! tip names gets past the default seed's first junction, where unguided new players fell; time
//! slows and the run waits for the key; what is learned is kept in the settings; a guided run
//! goes on no board; and guidance switched off shows nothing.

mod common;

use bevy::prelude::*;
use common::runner::{PATIENCE, enter_runner, play_runner, run};
use common::{connect_gamepad, headless_app, set_runner_guidance, state};
use leafwing_input_manager::prelude::InputMap;
use temple_trails::game::controls::{Device, LastDevice, binding_name, first_binding};
use temple_trails::game::replays::Records;
use temple_trails::game::runner::RunnerResult;
use temple_trails::game::runner::controls::RunnerAction;
use temple_trails::game::runner::guide::{RunnerGuide, tip_words};
use temple_trails::game::runner::options::RunnerOptions;
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

/// The player's bindings of the runner's actions.
fn bindings(app: &mut App) -> InputMap<RunnerAction> {
    let mut maps = app.world_mut().query::<&InputMap<RunnerAction>>();
    maps.single(app.world()).unwrap().clone()
}

/// Presses the first binding on `device` of the action that gives `command` (the one a player
/// reads first on the tip) for a frame, and returns its name as a tip shows it.
fn press_first(app: &mut App, command: Command, device: Device) -> String {
    let map = bindings(app);
    let binding = first_binding(&map, &RunnerAction::of(command), device).unwrap();
    binding.press(app.world_mut());
    app.update();
    binding.release(app.world_mut());
    app.update();
    binding_name(binding)
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

/// A new player on `device` presses what the tips show, when the run waits, up to the first
/// junction and past it; returns the app, the run going on.
fn first_junction_guided_on(device: Device) -> App {
    let home = tempfile::tempdir().unwrap();
    let mut app = new_players_run(home.path());
    assert_eq!(run(&app).sim.body.distance_m, 0.0);
    if device == Device::Gamepad {
        connect_gamepad(&mut app);
    }
    loop {
        let held = wait_for_hold(&mut app);
        let command = held.command.expect("a held prompt names a command");
        // The run waits: frames pass and it does not move.
        let at = run(&app).sim.body.distance_m;
        common::run_frames(&mut app, 5);
        let still = run(&app).sim.body.distance_m;
        assert_eq!(still, at, "the run waits for the key");
        let speed = app.world().resource::<Time<Virtual>>().relative_speed_f64();
        assert_eq!(speed, SLOWEST);
        let pressed = press_first(&mut app, command, device);
        let (_, instruction) = tip_words(&held, &bindings(&mut app), device);
        assert!(
            instruction.contains(&pressed),
            "the tip {instruction:?} names {pressed:?}"
        );
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
    let turns = run.sim.body.quarter_turns;
    assert_eq!(turns, -1, "the first junction turns right");
    assert!(run.guided);
    common::run_frames(&mut app, 2);
    let speed = app.world().resource::<Time<Virtual>>().relative_speed_f64();
    assert_eq!(speed, 1.0);
    let options = app.world().resource::<RunnerOptions>();
    assert!(options.guidance.learned.contains(&Lesson::Junction));
    let saved = &app.world().resource::<Settings>().modes["runner"]["guidance"]["learned"];
    let saved = saved.as_array().unwrap();
    assert!(saved.iter().any(|name| name == "junction"));
    app
}

#[test]
fn a_new_player_pressing_the_keys_shown_gets_past_the_first_junction() {
    let app = first_junction_guided_on(Device::Keyboard);
    assert_eq!(**app.world().resource::<LastDevice>(), Device::Keyboard);
}

#[test]
fn a_new_player_on_a_gamepad_is_shown_its_buttons_and_gets_past_the_first_junction() {
    let app = first_junction_guided_on(Device::Gamepad);
    assert_eq!(**app.world().resource::<LastDevice>(), Device::Gamepad);
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
        press_first(&mut app, wrong, Device::Keyboard);
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
