//! The Bevy game: plugins for every feature, composed here, and the windowed app that runs them.
//!
//! Each feature's plugin adds its rules always and its drawing only when the app draws
//! ([`draws`](screens::draws)), so headless tests build the very same [`plugin`] on
//! `MinimalPlugins`. Nothing else in the game imports this file: shared code reads the modes
//! from [`screens::Modes`].

pub mod audio;
pub mod camera;
pub mod controls;
pub mod daily;
pub mod frame_timing;
pub mod keys;
pub mod maze;
pub mod menu;
pub mod music;
pub mod online;
pub mod records;
pub mod replays;
pub mod runner;
pub mod scores;
pub mod screens;
pub mod screenshot;
pub mod session;
pub mod settings;
pub mod storage;
pub mod theme;
pub mod title;
pub mod wanderers;
pub mod world_boards;

use crate::game::frame_timing::FrameTimingPlan;
use crate::game::screens::{ModeInfo, Screen};
use crate::game::screenshot::ScreenshotPlan;
use crate::game::settings::LaunchOverrides;
use crate::game::storage::StorageDir;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;
use std::process::ExitCode;
use std::time::Duration;

/// Every mode, in the order the main menu lists them. A new mode is a folder of its own and one
/// line here.
pub const MODES: &[&ModeInfo] = &[&runner::MODE, &maze::MODE, &wanderers::MODE];

/// The window's size when the game starts, in logical pixels.
pub const WINDOW_SIZE: (u32, u32) = (1280, 720);

/// The frame time used for `--screenshot`, so every capture of the same state is the same.
const SCREENSHOT_FRAME_TIME: Duration = Duration::from_nanos(16_666_667);

/// The whole game. On Bevy's default plugins it plays in a window; on `MinimalPlugins` and
/// `StatesPlugin` (the headless tests) every feature adds only its rules.
pub fn plugin(app: &mut App) {
    if screens::draws(app) {
        app.add_plugins(EguiPlugin::default());
    }
    app.add_plugins((
        screens::plugin,
        storage::plugin,
        settings::plugin,
        session::plugin,
        scores::plugin,
        audio::plugin,
        music::plugin,
        replays::plugin,
        records::plugin,
        daily::plugin,
        theme::plugin,
        menu::plugin,
        camera::plugin,
        title::plugin,
        screenshot::plugin,
    ))
    .add_plugins((controls::plugin, online::plugin, world_boards::plugin));
    for mode in MODES {
        screens::add_mode(app, mode);
    }
}

/// How the game was asked to start.
#[derive(Debug, Clone, Default)]
pub struct LaunchOptions {
    /// Start this mode's screen instead of the title screen.
    pub mode: Option<Screen>,
    /// Play with this seed text for this session (not saved unless edited in the menu).
    pub seed_text: Option<String>,
    /// Play at this difficulty for this session.
    pub difficulty: Option<crate::logic::difficulty::Difficulty>,
    /// Take a screenshot and exit.
    pub screenshot: Option<ScreenshotPlan>,
    /// Start the mode with the computer playing.
    pub autoplay: bool,
    /// Time frames, print the mean and exit.
    pub frame_timing: Option<FrameTimingPlan>,
    /// Open only the window, a 2D camera and an empty egui panel: what every scene is measured
    /// beside.
    pub bare: bool,
}

/// The line printed when there is no display to open a window on.
pub const NO_DISPLAY_HINT: &str = "temple-trails: no display found (neither DISPLAY nor \
WAYLAND_DISPLAY is set). Run it in a desktop session or under Xvfb (xvfb-run -a temple-trails); \
the headless subcommands (see temple-trails --help) need no display.";

/// Whether a window can be opened: on Linux and the BSDs that needs an X11 or Wayland display.
fn display_available() -> bool {
    let unix_desktop = cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ));
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    !unix_desktop || set("DISPLAY") || set("WAYLAND_DISPLAY")
}

/// The assets folder: the source tree's during development, else `assets` beside the game.
fn asset_folder() -> String {
    let source_assets = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");
    if std::env::var_os("BEVY_ASSET_ROOT").is_none() && std::path::Path::new(source_assets).is_dir()
    {
        source_assets.to_owned()
    } else {
        "assets".to_owned()
    }
}

/// Opens the window and runs the game until the player quits.
pub fn run(options: LaunchOptions) -> ExitCode {
    if !display_available() {
        // Nothing more can be done if standard error is closed.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!("{NO_DISPLAY_HINT}\n").as_bytes(),
        );
        return ExitCode::FAILURE;
    }
    let mut app = App::new();
    app.add_plugins(window_plugins());
    if let Some(plan) = options.frame_timing {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(SCREENSHOT_FRAME_TIME))
            .insert_resource(plan)
            .add_plugins(frame_timing::plugin);
    }
    let storage = StorageDir::from_env();
    if options.bare {
        // The game's own camera settings, so a scene's frame is measured beside a window that
        // draws the same way.
        let settings = storage
            .as_ref()
            .map(settings::read_only)
            .unwrap_or_default();
        app.insert_resource(settings)
            .add_plugins((EguiPlugin::default(), bare_window));
        return exit_code(app.run());
    }
    match storage {
        Some(dirs) => {
            app.insert_resource(dirs);
        }
        None => warn!("No folder for settings and scores: nothing will be saved"),
    }
    app.insert_resource(LaunchOverrides {
        seed_text: options.seed_text,
        difficulty: options.difficulty,
    });
    app.add_plugins(plugin)
        .insert_resource(session::AutoplayOnStart(options.autoplay));
    if let Some(screen) = options.mode {
        app.add_systems(Startup, move |mut next: ResMut<NextState<Screen>>| {
            next.set(screen);
        });
    }
    if let Some(plan) = options.screenshot {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(SCREENSHOT_FRAME_TIME))
            .insert_resource(plan);
    }
    exit_code(app.run())
}

/// Bevy's default plugins with the game's window and assets folder.
fn window_plugins() -> bevy::app::PluginGroupBuilder {
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: "Temple Trails".into(),
                resolution: WindowResolution::new(WINDOW_SIZE.0, WINDOW_SIZE.1),
                ..default()
            }),
            ..default()
        })
        .set(AssetPlugin {
            file_path: asset_folder(),
            ..default()
        })
}

/// The process's exit code for how the app ended.
fn exit_code(exit: AppExit) -> ExitCode {
    match exit {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// The bare window: the game's 2D camera, as its settings set it up, and one empty egui panel,
/// nothing of the game.
fn bare_window(app: &mut App) {
    app.add_systems(Startup, camera::spawn_camera).add_systems(
        bevy_egui::EguiPrimaryContextPass,
        |mut contexts: bevy_egui::EguiContexts| -> Result {
            bevy_egui::egui::Window::new("Bare").show(contexts.ctx_mut()?, |ui| {
                ui.label("A window, a 2D camera and egui");
            });
            Ok(())
        },
    );
}
