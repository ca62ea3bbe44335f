//! Helpers shared by the headless App tests: building an app and pressing keys.
#![allow(
    dead_code,
    reason = "each test file uses a different part of these helpers"
)]

pub mod runner;

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use leafwing_input_manager::prelude::Buttonlike;
use std::path::Path;
use std::time::Duration;
use temple_trails::game::storage::StorageDir;

/// Game time that passes in one `update` of a test app.
pub const FRAME: Duration = Duration::from_millis(100);

/// A windowless app with the whole game's plugins (each adds only its rules without a window),
/// its files in `home` when given, started up.
pub fn headless_app(home: Option<&Path>) -> App {
    headless_app_with(home, |_| {})
}

/// Like [`headless_app`], with `configure` run on the app before the game's plugins are added.
pub fn headless_app_with(home: Option<&Path>, configure: impl FnOnce(&mut App)) -> App {
    let mut app = App::new();
    // Bevy's input plugin turns the key and button messages that leafwing-input-manager's test
    // support sends into pressed keys, as a window's would be.
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
    if let Some(home) = home {
        app.insert_resource(StorageDir::single(home));
    }
    configure(&mut app);
    app.add_plugins(temple_trails::game::plugin);
    // Run startup and let the first state transitions settle, and the records be checked.
    app.update();
    app.update();
    wait_for_records(&mut app);
    app
}

/// Turns the runner's first-run guidance on (with nothing learned yet) or off, as the settings
/// row does.
pub fn set_runner_guidance(app: &mut App, on: bool) {
    use temple_trails::game::menu::rows::SettingEdit;
    use temple_trails::game::menu::settings_page::SettingsPage;
    use temple_trails::game::runner::options::{GUIDANCE, RunnerOptions};
    let mut options = app.world_mut().resource_mut::<RunnerOptions>();
    if on {
        options.apply(GUIDANCE, SettingEdit::Toggle(false));
    }
    options.apply(GUIDANCE, SettingEdit::Toggle(on));
    app.update();
}

/// Presses and releases `button` (a key, a mouse button, a gamepad's button or stick) as a
/// player would: one frame down, then the result settles.
pub fn press(app: &mut App, button: impl Buttonlike) {
    button.press(app.world_mut());
    app.update();
    button.release(app.world_mut());
    // State changes asked for in that frame take effect in the next one.
    app.update();
}

/// Connects a gamepad, as plugging one in does, and returns it.
pub fn connect_gamepad(app: &mut App) -> Entity {
    use bevy::input::gamepad::{GamepadConnection, GamepadConnectionEvent};
    let gamepad = app.world_mut().spawn_empty().id();
    app.world_mut().write_message(GamepadConnectionEvent::new(
        gamepad,
        GamepadConnection::Connected {
            name: "Test pad".to_owned(),
            vendor_id: None,
            product_id: None,
        },
    ));
    app.update();
    gamepad
}

/// Runs `frames` more updates.
pub fn run_frames(app: &mut App, frames: usize) {
    for _ in 0..frames {
        app.update();
    }
}

/// The items of the open menu, top to bottom.
pub fn open_menu_items(app: &App) -> Vec<temple_trails::game::menu::MenuItem> {
    app.world()
        .resource::<temple_trails::game::menu::OpenMenuItems>()
        .0
        .clone()
}

/// The current value of a state.
pub fn state<S: States + Copy>(app: &App) -> S {
    *app.world().resource::<State<S>>().get()
}

/// Most frames [`wait_for_records`] runs.
const RECORD_CHECK_FRAMES: usize = 2_000;

/// Runs frames until the record files found at the start have all been checked (off the main
/// thread, so it takes a few frames).
pub fn wait_for_records(app: &mut App) {
    for _ in 0..RECORD_CHECK_FRAMES {
        if !app
            .world()
            .resource::<temple_trails::game::replays::Records>()
            .is_checking()
        {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the records were still being checked after {RECORD_CHECK_FRAMES} frames");
}
