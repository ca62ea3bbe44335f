//! Headless App tests of the player's own bindings, driven as a player drives them: on the
//! settings page an action's row is chosen and a new key or gamepad button pressed; the runner
//! then plays with it and no longer with the key it replaced; a key taken from another action
//! is said so; Esc gives up; the reset row brings the defaults back; the bindings are saved,
//! and names the game does not know are set aside with a warning when the game starts.

mod common;

use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use common::runner::{enter_runner, run};
use common::{connect_gamepad, headless_app, open_menu_items, press, state};
use temple_trails::game::controls::rebinding::BindingTable;
use temple_trails::game::menu::controls_page::{Capture, RESET, WAIT_S, WAITING};
use temple_trails::game::menu::rows::SettingValue;
use temple_trails::game::menu::{MenuContributions, MenuCursor, MenuInput, MenuItem, MenuRequests};
use temple_trails::game::screens::Menu;
use temple_trails::game::settings::{SETTINGS_FILE, Settings};
use temple_trails::game::storage::StorageWarnings;
use temple_trails::logic::runner::body::Posture;

const JUMP: MenuItem = MenuItem::Setting("controls.runner.jump");
const SLIDE: MenuItem = MenuItem::Setting("controls.runner.slide");

/// The settings page of a new game, its files in `home`.
fn settings_page(home: &std::path::Path) -> App {
    let mut app = headless_app(Some(home));
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Settings));
    common::run_frames(&mut app, 2);
    assert_eq!(state::<Menu>(&app), Menu::Settings);
    app
}

/// Moves the cursor to `item` with the arrow keys and presses Enter on it.
fn choose(app: &mut App, item: MenuItem) {
    let target = open_menu_items(app)
        .iter()
        .position(|&listed| listed == item)
        .unwrap_or_else(|| panic!("{item:?} is not on the page"));
    while app.world().resource::<MenuCursor>().0 != target {
        press(app, KeyCode::ArrowDown);
    }
    press(app, KeyCode::Enter);
}

/// The text of the settings page's row of `item`.
fn row_text(app: &App, item: MenuItem) -> String {
    let contributions = app.world().resource::<MenuContributions>();
    let row = contributions
        .settings_sections()
        .iter()
        .flat_map(|section| &section.rows)
        .find(|row| row.item == item)
        .unwrap();
    match &row.value {
        SettingValue::Press(words) => words.clone(),
        other => panic!("{other:?}"),
    }
}

/// The notice the page shows now.
fn notice(app: &App) -> String {
    let requests = app.world().resource::<MenuRequests>();
    requests
        .notice
        .clone()
        .map(|(words, _)| words)
        .unwrap_or_default()
}

/// The runner section's row of `name` in the binding table: its keys and its buttons.
fn listed(app: &App, name: &str) -> (String, String) {
    let table = app.world().resource::<BindingTable>();
    let row = table
        .sections
        .iter()
        .flat_map(|section| &section.rows)
        .find(|row| row.item == format!("controls.runner.{name}"))
        .unwrap();
    (row.keys.clone(), row.buttons.clone())
}

#[test]
fn a_key_chosen_on_the_settings_page_plays_the_runner_in_place_of_the_old_ones() {
    let home = tempfile::tempdir().unwrap();
    let mut app = settings_page(home.path());
    assert_eq!(listed(&app, "jump").0, "Up, W or Space");
    choose(&mut app, JUMP);
    assert_eq!(
        app.world().resource::<Capture>().waiting,
        Some("controls.runner.jump")
    );
    assert_eq!(row_text(&app, JUMP), WAITING);
    press(&mut app, KeyCode::KeyJ);
    assert_eq!(app.world().resource::<Capture>().waiting, None);
    assert_eq!(listed(&app, "jump").0, "J");
    assert_eq!(
        listed(&app, "jump").1,
        "A, D-pad up or stick up",
        "the pad's are kept"
    );
    assert_eq!(notice(&app), "J is bound to Jump now.");
    // J was taken for the binding and chose nothing on the page.
    assert_eq!(state::<Menu>(&app), Menu::Settings);
    let saved = &app.world().resource::<Settings>().controls["runner"]["jump"];
    assert_eq!(saved.keys, vec!["KeyJ".to_owned()]);

    press(&mut app, KeyCode::Escape);
    assert_eq!(state::<Menu>(&app), Menu::Main);
    enter_runner(&mut app);
    press(&mut app, KeyCode::ArrowUp);
    assert!(
        matches!(run(&app).sim.body.posture, Posture::Running),
        "Up no longer jumps"
    );
    press(&mut app, KeyCode::KeyJ);
    assert!(matches!(
        run(&app).sim.body.posture,
        Posture::Jumping { .. }
    ));
}

#[test]
fn a_key_taken_from_another_action_is_said_and_esc_gives_up_waiting() {
    let home = tempfile::tempdir().unwrap();
    let mut app = settings_page(home.path());
    choose(&mut app, JUMP);
    press(&mut app, KeyCode::KeyS);
    assert_eq!(
        notice(&app),
        "S is bound to Jump now, no longer to Slide (which keeps Down or Numpad 2)."
    );
    assert_eq!(listed(&app, "slide").0, "Down or Numpad 2");
    // Esc while a row waits gives up, and leaves the page where it was.
    choose(&mut app, SLIDE);
    press(&mut app, KeyCode::Escape);
    assert_eq!(app.world().resource::<Capture>().waiting, None);
    assert_eq!(state::<Menu>(&app), Menu::Settings);
    assert_eq!(listed(&app, "slide").0, "Down or Numpad 2");
    // A player with only a pad has no Esc: a row waits a few seconds, then gives up.
    choose(&mut app, SLIDE);
    let frames = (WAIT_S / common::FRAME.as_secs_f32()).ceil() as usize;
    common::run_frames(&mut app, frames - 2);
    assert_eq!(
        app.world().resource::<Capture>().waiting,
        Some("controls.runner.slide")
    );
    common::run_frames(&mut app, 3);
    assert_eq!(app.world().resource::<Capture>().waiting, None);
    assert!(notice(&app).starts_with("No key or button came"));
    // The reset row brings every default back, and the settings keep none of their own.
    choose(&mut app, RESET);
    assert_eq!(listed(&app, "jump").0, "Up, W or Space");
    assert_eq!(listed(&app, "slide").0, "Down, S or Numpad 2");
    app.update();
    assert!(app.world().resource::<Settings>().controls.is_empty());
}

#[test]
fn a_gamepad_button_is_bound_from_the_pad_and_start_is_kept_for_pausing() {
    let home = tempfile::tempdir().unwrap();
    let mut app = settings_page(home.path());
    connect_gamepad(&mut app);
    choose(&mut app, SLIDE);
    press(&mut app, GamepadButton::Start);
    assert_eq!(
        notice(&app),
        "Start is kept for pausing; choose another button."
    );
    assert_eq!(listed(&app, "slide").1, "B, D-pad down or stick down");
    choose(&mut app, SLIDE);
    press(&mut app, GamepadButton::North);
    assert_eq!(listed(&app, "slide").1, "Y or stick down");
    assert_eq!(
        listed(&app, "slide").0,
        "Down, S or Numpad 2",
        "the keys are kept"
    );
    assert_eq!(listed(&app, "route").1, "nothing (see Settings)");
    let saved = &app.world().resource::<Settings>().controls["runner"];
    assert_eq!(saved["slide"].buttons, vec!["North".to_owned()]);
    assert_eq!(saved["route"].buttons, Vec::<String>::new());
}

#[test]
fn the_menus_keys_are_listed_but_fixed() {
    let home = tempfile::tempdir().unwrap();
    let mut app = settings_page(home.path());
    let back = MenuItem::Setting("controls.menus.back");
    assert_eq!(row_text(&app, back), "Esc   ·   B");
    choose(&mut app, back);
    assert_eq!(app.world().resource::<Capture>().waiting, None);
    assert!(notice(&app).contains("fixed"));
}

#[test]
fn saved_bindings_come_back_and_unknown_names_are_set_aside_with_a_warning() {
    let home = tempfile::tempdir().unwrap();
    let text = r#"{"controls": {"runner": {
        "jump": {"keys": ["KeyJ", "NoSuchKey"], "buttons": ["West"]},
        "fly": {"keys": ["KeyF"]}
    }}}"#;
    std::fs::write(home.path().join(SETTINGS_FILE), text).unwrap();
    let mut app = headless_app(Some(home.path()));
    app.update();
    assert_eq!(
        listed(&app, "jump"),
        ("J".to_owned(), "X or stick up".to_owned())
    );
    let warnings = &app.world().resource::<StorageWarnings>().0;
    let warning = warnings.iter().find(|w| w.contains("bindings")).unwrap();
    assert!(warning.contains("controls.runner.jump: no key or button is called \"NoSuchKey\""));
    assert!(warning.contains("controls.runner.fly: no such action"));
    // What was understood is kept; what was not is gone from the settings.
    let saved = &app.world().resource::<Settings>().controls["runner"];
    assert_eq!(saved.keys().collect::<Vec<_>>(), ["jump"]);
    assert_eq!(saved["jump"].keys, vec!["KeyJ".to_owned()]);
    // West was the autopilot's: a saved list is the player's word, so both keep it.
    assert_eq!(saved["jump"].buttons, vec!["West".to_owned()]);
}

#[test]
fn bindings_of_the_wrong_shape_set_the_file_aside_with_its_bytes_kept() {
    let home = tempfile::tempdir().unwrap();
    let text = br#"{"controls": {"runner": {"jump": {"keys": "KeyJ"}}}}"#;
    std::fs::write(home.path().join(SETTINGS_FILE), text).unwrap();
    let app = headless_app(Some(home.path()));
    assert_eq!(listed(&app, "jump").0, "Up, W or Space", "the defaults");
    let warnings = &app.world().resource::<StorageWarnings>().0;
    assert!(
        warnings.iter().any(|w| w.contains(SETTINGS_FILE)),
        "{warnings:?}"
    );
    let kept: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().contains("settings.json.corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::read(&kept[0]).unwrap(),
        text,
        "the damaged file is kept as it was"
    );
}
