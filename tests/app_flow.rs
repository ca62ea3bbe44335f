//! Headless App tests of the game's flow: title, modes, pausing (with Esc or when the window
//! loses focus), menus, and Esc.

mod common;

use bevy::prelude::*;
use bevy::window::WindowFocused;
use common::{headless_app, headless_app_with, open_menu_items, press, run_frames, state};
use leafwing_input_manager::prelude::Buttonlike;
use temple_trails::game::MODES;
use temple_trails::game::maze;
use temple_trails::game::menu::{MenuCursor, MenuInput, MenuItem};
use temple_trails::game::screens::{Menu, PausableSystems, Screen};
use temple_trails::game::settings::{GameDifficulty, Settings, VolumeChannel};
use temple_trails::logic::difficulty::Difficulty;

/// Counts how often a pausable gameplay system ran.
#[derive(Resource, Default)]
struct GameplayTicks(u32);

/// Counts how often the maze screen was entered.
#[derive(Resource, Default)]
struct MazeEntries(u32);

/// An app with probes for gameplay and restarts in the maze.
fn app_with_maze_probes() -> App {
    headless_app_with(None, |app| {
        app.init_resource::<GameplayTicks>()
            .init_resource::<MazeEntries>()
            .add_systems(
                Update,
                (|mut ticks: ResMut<GameplayTicks>| ticks.0 += 1)
                    .in_set(PausableSystems)
                    .run_if(in_state(maze::SCREEN)),
            )
            .add_systems(OnEnter(maze::SCREEN), |mut entries: ResMut<MazeEntries>| {
                entries.0 += 1;
            });
    })
}

/// Moves the cursor to `item` of the open menu with the arrow keys.
fn move_cursor_to(app: &mut App, item: MenuItem) {
    let menu = state::<Menu>(app);
    let target = open_menu_items(app)
        .iter()
        .position(|&i| i == item)
        .unwrap_or_else(|| panic!("{item:?} is not in {menu:?}"));
    while app.world().resource::<MenuCursor>().0 != target {
        press(app, KeyCode::ArrowDown);
    }
}

#[test]
fn game_starts_on_the_title_screen_with_the_main_menu() {
    let app = headless_app(None);
    assert_eq!(state::<Screen>(&app), Screen::Title);
    assert_eq!(state::<Menu>(&app), Menu::Main);
}

#[test]
fn title_to_mode_to_pause_to_resume_to_main_menu() {
    let mut app = app_with_maze_probes();
    move_cursor_to(&mut app, MenuItem::Play(maze::SCREEN));
    press(&mut app, KeyCode::Enter);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
    assert_eq!(state::<Menu>(&app), Menu::None);

    press(&mut app, KeyCode::Escape);
    assert_eq!(state::<Menu>(&app), Menu::Pause);
    assert!(app.world().resource::<Time<Virtual>>().is_paused());

    press(&mut app, KeyCode::Escape);
    assert_eq!(state::<Menu>(&app), Menu::None, "Esc resumes");
    assert!(!app.world().resource::<Time<Virtual>>().is_paused());

    press(&mut app, KeyCode::Escape);
    press(&mut app, KeyCode::Enter);
    assert_eq!(state::<Menu>(&app), Menu::None, "Resume is the first item");

    press(&mut app, KeyCode::Escape);
    move_cursor_to(&mut app, MenuItem::MainMenu);
    press(&mut app, KeyCode::Enter);
    assert_eq!(state::<Screen>(&app), Screen::Title);
    assert_eq!(state::<Menu>(&app), Menu::Main);
}

#[test]
fn gameplay_stops_while_paused() {
    let mut app = app_with_maze_probes();
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    run_frames(&mut app, 2);
    let before = app.world().resource::<GameplayTicks>().0;
    run_frames(&mut app, 3);
    assert!(app.world().resource::<GameplayTicks>().0 >= before + 3);

    press(&mut app, KeyCode::Escape);
    let paused_at = app.world().resource::<GameplayTicks>().0;
    run_frames(&mut app, 5);
    assert_eq!(app.world().resource::<GameplayTicks>().0, paused_at);
}

/// Tells the game its window lost or regained the keyboard focus, as the window plugin would.
fn focus(app: &mut App, focused: bool) {
    let window = Entity::PLACEHOLDER;
    app.world_mut()
        .write_message(WindowFocused { window, focused });
    run_frames(app, 2);
}

#[test]
fn losing_the_window_focus_pauses_every_mode_and_regaining_it_does_not_resume() {
    for mode in MODES {
        let mut app = headless_app(None);
        app.world_mut()
            .write_message(MenuInput::Activated(MenuItem::Play(mode.screen())));
        run_frames(&mut app, 2);
        assert_eq!(state::<Screen>(&app), mode.screen());
        focus(&mut app, true);
        assert_eq!(
            state::<Menu>(&app),
            Menu::None,
            "{}: focus gained",
            mode.name
        );

        focus(&mut app, false);
        assert_eq!(state::<Menu>(&app), Menu::Pause, "{}", mode.name);
        assert!(app.world().resource::<Time<Virtual>>().is_paused());
        // The player decides when to go on: coming back leaves the pause menu open.
        focus(&mut app, true);
        assert_eq!(state::<Menu>(&app), Menu::Pause, "{}", mode.name);
        press(&mut app, KeyCode::Escape);
        assert_eq!(state::<Menu>(&app), Menu::None, "{}", mode.name);
    }
}

#[test]
fn losing_the_focus_on_the_title_screen_or_in_the_settings_changes_nothing() {
    let mut app = headless_app(None);
    focus(&mut app, false);
    assert_eq!(state::<Screen>(&app), Screen::Title);
    assert_eq!(state::<Menu>(&app), Menu::Main);

    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    run_frames(&mut app, 2);
    press(&mut app, KeyCode::Escape);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Settings));
    run_frames(&mut app, 2);
    assert_eq!(state::<Menu>(&app), Menu::Settings);
    focus(&mut app, false);
    assert_eq!(
        state::<Menu>(&app),
        Menu::Settings,
        "an open page stays open"
    );
}

#[test]
fn restart_enters_the_mode_again() {
    let mut app = app_with_maze_probes();
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    run_frames(&mut app, 2);
    assert_eq!(app.world().resource::<MazeEntries>().0, 1);

    press(&mut app, KeyCode::Escape);
    move_cursor_to(&mut app, MenuItem::Restart);
    press(&mut app, KeyCode::Enter);
    run_frames(&mut app, 1);
    assert_eq!(app.world().resource::<MazeEntries>().0, 2);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
    assert_eq!(state::<Menu>(&app), Menu::None, "a restarted mode runs");
}

#[test]
fn escape_on_the_title_screen_changes_nothing() {
    let mut app = headless_app(None);
    let settings_before = app.world().resource::<Settings>().clone();
    press(&mut app, KeyCode::ArrowDown);
    press(&mut app, KeyCode::Escape);
    assert_eq!(state::<Screen>(&app), Screen::Title);
    assert_eq!(state::<Menu>(&app), Menu::Main);
    assert_eq!(app.world().resource::<MenuCursor>().0, 1);
    assert_eq!(*app.world().resource::<Settings>(), settings_before);
    assert!(app.world().resource::<Messages<AppExit>>().is_empty());
}

#[test]
fn cursor_wraps_around_the_menu() {
    let mut app = headless_app(None);
    press(&mut app, KeyCode::ArrowUp);
    assert_eq!(
        app.world().resource::<MenuCursor>().0,
        open_menu_items(&app).len() - 1
    );
    press(&mut app, KeyCode::ArrowDown);
    assert_eq!(app.world().resource::<MenuCursor>().0, 0);
}

#[test]
fn difficulty_changes_with_left_and_right() {
    let mut app = headless_app(None);
    move_cursor_to(&mut app, MenuItem::Difficulty);
    press(&mut app, KeyCode::ArrowRight);
    assert_eq!(app.world().resource::<GameDifficulty>().0, Difficulty::Hard);
    press(&mut app, KeyCode::ArrowRight);
    assert_eq!(app.world().resource::<GameDifficulty>().0, Difficulty::Hard);
    press(&mut app, KeyCode::ArrowLeft);
    press(&mut app, KeyCode::ArrowLeft);
    assert_eq!(app.world().resource::<GameDifficulty>().0, Difficulty::Easy);
}

#[test]
fn settings_page_opens_changes_volume_and_esc_goes_back() {
    let mut app = headless_app(None);
    move_cursor_to(&mut app, MenuItem::Settings);
    press(&mut app, KeyCode::Enter);
    assert_eq!(state::<Menu>(&app), Menu::Settings);
    assert_eq!(
        app.world().resource::<MenuCursor>().0,
        0,
        "cursor starts at the top"
    );

    let before = app.world().resource::<Settings>().master_volume;
    press(&mut app, KeyCode::ArrowLeft);
    let after = app.world().resource::<Settings>().master_volume;
    assert!((before - after - 0.05).abs() < 1e-6, "{before} -> {after}");

    press(&mut app, KeyCode::Escape);
    assert_eq!(state::<Menu>(&app), Menu::Main);
}

#[test]
fn volume_stays_between_silent_and_full() {
    let mut app = headless_app(None);
    app.world_mut().write_message(MenuInput::NumberSet(
        MenuItem::Volume(VolumeChannel::Master),
        3.0,
    ));
    run_frames(&mut app, 1);
    assert_eq!(app.world().resource::<Settings>().master_volume, 1.0);
    for _ in 0..30 {
        app.world_mut().write_message(MenuInput::Adjusted(
            MenuItem::Volume(VolumeChannel::Master),
            -1,
        ));
        run_frames(&mut app, 1);
    }
    assert_eq!(app.world().resource::<Settings>().master_volume, 0.0);
}

#[test]
fn settings_from_the_pause_menu_return_to_it() {
    let mut app = app_with_maze_probes();
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    run_frames(&mut app, 2);
    press(&mut app, KeyCode::Escape);
    move_cursor_to(&mut app, MenuItem::Settings);
    press(&mut app, KeyCode::Enter);
    assert_eq!(state::<Menu>(&app), Menu::Settings);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
    move_cursor_to(&mut app, MenuItem::Back);
    press(&mut app, KeyCode::Enter);
    assert_eq!(state::<Menu>(&app), Menu::Pause);
}

#[test]
fn quit_asks_the_app_to_exit() {
    let mut app = headless_app(None);
    move_cursor_to(&mut app, MenuItem::Quit);
    KeyCode::Enter.press(app.world_mut());
    app.update();
    assert_eq!(app.should_exit(), Some(AppExit::Success));
}

#[test]
fn seed_words_and_randomize_change_the_game_seed() {
    use temple_trails::game::settings::GameSeed;
    let mut app = headless_app(None);
    app.world_mut()
        .write_message(MenuInput::SeedTyped("  banana ".into()));
    run_frames(&mut app, 1);
    assert_eq!(
        app.world().resource::<GameSeed>().0,
        13_029_959_021_517_523_088
    );
    assert_eq!(app.world().resource::<Settings>().seed_text, "banana");

    app.world_mut()
        .write_message(MenuInput::SeedTyped("   ".into()));
    run_frames(&mut app, 1);
    assert_eq!(
        app.world().resource::<Settings>().seed_text,
        "banana",
        "an empty seed is refused"
    );

    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::RandomizeSeed));
    run_frames(&mut app, 1);
    let text = app.world().resource::<Settings>().seed_text.clone();
    assert_eq!(
        app.world().resource::<GameSeed>().0,
        text.parse::<u64>().unwrap()
    );
}

#[test]
fn copy_seed_hands_the_seed_text_to_the_clipboard() {
    use temple_trails::game::menu::MenuRequests;
    let mut app = headless_app(None);
    move_cursor_to(&mut app, MenuItem::CopySeed);
    press(&mut app, KeyCode::Enter);
    let requests = app.world().resource::<MenuRequests>();
    let seed_text = app.world().resource::<Settings>().seed_text.clone();
    assert_eq!(requests.copy_to_clipboard, Some(seed_text.clone()));
    let (notice, _) = requests.notice.clone().expect("the player is told");
    assert!(notice.contains(&seed_text), "{notice}");
}

#[test]
fn enter_on_the_seed_row_focuses_the_seed_field() {
    use temple_trails::game::menu::MenuRequests;
    let mut app = headless_app(None);
    move_cursor_to(&mut app, MenuItem::Seed);
    press(&mut app, KeyCode::Enter);
    assert!(app.world().resource::<MenuRequests>().focus_seed_field);
}
