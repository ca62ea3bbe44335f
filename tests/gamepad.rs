//! Headless App tests of play with a gamepad, pressed through leafwing-input-manager's own test
//! support (its messages go through Bevy's input plugin as a real pad's would): every menu page
//! is worked with the D-pad or the left stick, South and East; Start pauses and resumes; the
//! runner and the maze are played with buttons; the hints name the pad's buttons once it is in
//! use; and a key or a button tapped within one frame still counts.

mod common;

use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use common::runner::{PATIENCE, enter_runner, run};
use common::{connect_gamepad, headless_app, open_menu_items, press, state};
use leafwing_input_manager::prelude::InputMap;
use temple_trails::game::controls::{
    Device, LastDevice, bindings_named, first_binding, left_stick,
};
use temple_trails::game::maze::hint::MazeHint;
use temple_trails::game::maze::{self, CurrentMaze};
use temple_trails::game::menu::controls::MenuAction;
use temple_trails::game::menu::{MenuCursor, MenuInput, MenuItem};
use temple_trails::game::runner::controls::RunnerAction;
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::game::settings::Settings;
use temple_trails::logic::maze::Direction;
use temple_trails::logic::runner::body::Posture;

/// A game at its title screen with a gamepad plugged in.
fn app_with_a_pad() -> App {
    let mut app = headless_app(None);
    connect_gamepad(&mut app);
    app
}

/// Moves the menu's cursor to `item` with the D-pad.
fn pad_cursor_to(app: &mut App, item: MenuItem) {
    let target = open_menu_items(app)
        .iter()
        .position(|&listed| listed == item)
        .unwrap_or_else(|| panic!("{item:?} is not in {:?}", state::<Menu>(app)));
    for _ in 0..open_menu_items(app).len() {
        if app.world().resource::<MenuCursor>().0 == target {
            return;
        }
        press(app, GamepadButton::DPadDown);
    }
    panic!("the D-pad never reached {item:?}");
}

#[test]
fn the_title_pages_are_worked_with_the_d_pad_south_and_east() {
    let mut app = app_with_a_pad();
    assert_eq!(state::<Menu>(&app), Menu::Main);
    pad_cursor_to(&mut app, MenuItem::Settings);
    press(&mut app, GamepadButton::South);
    assert_eq!(state::<Menu>(&app), Menu::Settings);
    // A switch changes with D-pad right, as with the arrow keys.
    let ghosts = app.world().resource::<Settings>().ghosts;
    pad_cursor_to(&mut app, MenuItem::Ghosts);
    press(&mut app, GamepadButton::DPadRight);
    assert_ne!(app.world().resource::<Settings>().ghosts, ghosts);
    press(&mut app, GamepadButton::East);
    assert_eq!(state::<Menu>(&app), Menu::Main);
    pad_cursor_to(&mut app, MenuItem::Records);
    press(&mut app, GamepadButton::South);
    assert_eq!(state::<Menu>(&app), Menu::Records);
    press(&mut app, GamepadButton::East);
    assert_eq!(state::<Menu>(&app), Menu::Main);
    // East on the main menu does nothing, as Esc does not.
    press(&mut app, GamepadButton::East);
    assert_eq!(state::<Menu>(&app), Menu::Main);
    assert_eq!(**app.world().resource::<LastDevice>(), Device::Gamepad);
}

#[test]
fn the_left_stick_moves_the_cursor_as_the_d_pad_does() {
    let mut app = app_with_a_pad();
    let cursor = |app: &App| app.world().resource::<MenuCursor>().0;
    assert_eq!(cursor(&app), 0);
    press(&mut app, left_stick(Dir2::NEG_Y));
    assert_eq!(cursor(&app), 1);
    press(&mut app, left_stick(Dir2::Y));
    assert_eq!(cursor(&app), 0);
}

#[test]
fn start_pauses_and_resumes_and_the_runner_is_played_with_buttons() {
    let mut app = app_with_a_pad();
    enter_runner(&mut app);
    press(&mut app, GamepadButton::Start);
    assert_eq!(state::<Menu>(&app), Menu::Pause);
    press(&mut app, GamepadButton::Start);
    assert_eq!(state::<Menu>(&app), Menu::None);
    // East plays (it slides) rather than opening a menu.
    press(&mut app, GamepadButton::East);
    assert_eq!(state::<Menu>(&app), Menu::None);
    assert!(matches!(
        run(&app).sim.body.posture,
        Posture::Sliding { .. }
    ));
    press(&mut app, GamepadButton::DPadLeft);
    assert_eq!(run(&app).sim.body.target_lane(), 0);
    press(&mut app, left_stick(Dir2::X));
    assert_eq!(run(&app).sim.body.target_lane(), 1);
    for _ in 0..PATIENCE {
        if matches!(run(&app).sim.body.posture, Posture::Running) {
            break;
        }
        app.update();
    }
    press(&mut app, GamepadButton::South);
    assert!(matches!(
        run(&app).sim.body.posture,
        Posture::Jumping { .. }
    ));
    // From the pause menu, South chooses its first item, Resume.
    press(&mut app, GamepadButton::Start);
    assert_eq!(open_menu_items(&app)[0], MenuItem::Resume);
    press(&mut app, GamepadButton::South);
    assert_eq!(state::<Menu>(&app), Menu::None);
}

#[test]
fn the_maze_is_walked_with_the_d_pad_and_y_shows_the_hint() {
    let mut app = app_with_a_pad();
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    common::run_frames(&mut app, 2);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
    let maze_run = |app: &App| app.world().resource::<CurrentMaze>().0.clone();
    let start = maze_run(&app);
    let (direction, button) = [
        (Direction::North, GamepadButton::DPadUp),
        (Direction::East, GamepadButton::DPadRight),
        (Direction::South, GamepadButton::DPadDown),
        (Direction::West, GamepadButton::DPadLeft),
    ]
    .into_iter()
    .find(|&(direction, _)| start.maze.is_open(start.player, direction))
    .unwrap();
    press(&mut app, button);
    let walked = maze_run(&app);
    assert_eq!(walked.moves, 1);
    assert_eq!(
        Some(walked.player),
        start.maze.neighbour(start.player, direction)
    );
    press(&mut app, GamepadButton::North);
    assert!(app.world().resource::<MazeHint>().shown);
    assert_eq!(maze_run(&app).hints_used, 1);
}

#[test]
fn hints_name_the_pads_buttons_once_it_is_in_use() {
    let mut app = app_with_a_pad();
    let mut maps = app.world_mut().query::<&InputMap<MenuAction>>();
    let menu = maps.single(app.world()).unwrap().clone();
    assert_eq!(
        bindings_named(&menu, &MenuAction::Confirm, Device::Gamepad),
        "A"
    );
    assert_eq!(
        bindings_named(&menu, &MenuAction::Back, Device::Gamepad),
        "B"
    );
    assert_eq!(**app.world().resource::<LastDevice>(), Device::Keyboard);
    press(&mut app, GamepadButton::DPadDown);
    assert_eq!(**app.world().resource::<LastDevice>(), Device::Gamepad);
    press(&mut app, KeyCode::ArrowUp);
    assert_eq!(**app.world().resource::<LastDevice>(), Device::Keyboard);
    let mut maps = app.world_mut().query::<&InputMap<RunnerAction>>();
    let runner = maps.single(app.world()).unwrap();
    let jump = first_binding(runner, &RunnerAction::Jump, Device::Gamepad).unwrap();
    assert_eq!(temple_trails::game::controls::binding_name(jump), "A");
}

#[test]
fn a_key_or_button_tapped_within_one_frame_still_counts() {
    use leafwing_input_manager::prelude::Buttonlike;
    let mut app = app_with_a_pad();
    let cursor = |app: &App| app.world().resource::<MenuCursor>().0;
    // Down and up again before the frame runs, as a quick tap on a slow frame is.
    KeyCode::ArrowDown.press(app.world_mut());
    KeyCode::ArrowDown.release(app.world_mut());
    app.update();
    assert_eq!(cursor(&app), 1);
    // A frame with nothing pressed between the taps, as between any two presses.
    app.update();
    GamepadButton::DPadDown.press(app.world_mut());
    GamepadButton::DPadDown.release(app.world_mut());
    app.update();
    assert_eq!(cursor(&app), 2);
    app.update();
    assert_eq!(cursor(&app), 2, "one tap, one step");
}
