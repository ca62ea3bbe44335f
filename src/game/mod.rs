//! The Bevy game: plugins for every feature, composed here, and the windowed app that runs them.

pub mod audio;
pub mod maze;
pub mod menu;
pub mod runner;
pub mod scores;
pub mod screens;
pub mod screenshot;
pub mod settings;
pub mod storage;
pub mod title;
pub mod wanderers;

use crate::game::screens::{Mode, Screen};
use crate::game::screenshot::ScreenshotPlan;
use crate::game::settings::LaunchOverrides;
use crate::game::storage::StorageDir;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;
use std::process::ExitCode;
use std::time::Duration;

/// The window's size when the game starts, in logical pixels.
pub const WINDOW_SIZE: (u32, u32) = (1280, 720);

/// The frame time used for `--screenshot`, so every capture of the same state is the same.
const SCREENSHOT_FRAME_TIME: Duration = Duration::from_nanos(16_666_667);

/// Everything that runs without a window: states, settings, scores, menu behaviour, sound
/// requests. Headless tests add this to `MinimalPlugins` + `StatesPlugin`.
pub fn core_plugin(app: &mut App) {
    app.add_plugins((
        screens::plugin,
        storage::plugin,
        settings::plugin,
        scores::plugin,
        audio::plugin,
        menu::plugin,
        maze::plugin,
        runner::plugin,
        wanderers::plugin,
    ))
    .init_resource::<AutoplayOnStart>();
}

/// Whether a mode starts with the computer playing (`--autoplay`): the maze's system walk, the
/// runner's autopilot.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AutoplayOnStart(pub bool);

/// The whole game on top of Bevy's default plugins: the core plus what needs a window and a GPU.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        core_plugin,
        EguiPlugin::default(),
        menu::ui::plugin,
        maze::view::plugin,
        runner::view::plugin,
        wanderers::view::plugin,
        title::plugin,
        screenshot::plugin,
    ))
    .insert_resource(ClearColor(BACKDROP))
    .add_systems(Startup, spawn_camera);
}

/// The colour behind everything: the dark of a temple's inner halls.
const BACKDROP: Color = Color::srgb(0.07, 0.055, 0.045);

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d));
}

/// Ends a mode's drawing: drops its view state `V` and puts the camera back.
pub(in crate::game) fn end_mode_view<V: Resource>(
    mut commands: Commands,
    camera: Option<Single<(&mut Transform, &mut Projection), With<Camera2d>>>,
) {
    commands.remove_resource::<V>();
    reset_camera(camera);
}

/// Puts the camera back as the title screen expects it: at the origin, upright, unzoomed. Modes
/// that move, turn or zoom it call this when they end.
fn reset_camera(camera: Option<Single<(&mut Transform, &mut Projection), With<Camera2d>>>) {
    if let Some(mut camera) = camera {
        let (ref mut transform, ref mut projection) = *camera;
        transform.translation = Vec3::new(0.0, 0.0, transform.translation.z);
        transform.rotation = Quat::IDENTITY;
        if let Projection::Orthographic(ortho) = &mut **projection {
            ortho.scale = 1.0;
        }
    }
}

/// How the game was asked to start.
#[derive(Debug, Clone, Default)]
pub struct LaunchOptions {
    /// Start this mode instead of the title screen.
    pub mode: Option<Mode>,
    /// Play with this seed text for this session (not saved unless edited in the menu).
    pub seed_text: Option<String>,
    /// Play at this difficulty for this session.
    pub difficulty: Option<crate::logic::difficulty::Difficulty>,
    /// Take a screenshot and exit.
    pub screenshot: Option<ScreenshotPlan>,
    /// Start the mode with the computer playing.
    pub autoplay: bool,
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
        eprintln!("{NO_DISPLAY_HINT}");
        return ExitCode::FAILURE;
    }
    let mut app = App::new();
    app.add_plugins(
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
            }),
    );
    match StorageDir::from_env() {
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
        .insert_resource(AutoplayOnStart(options.autoplay));
    if let Some(mode) = options.mode {
        app.add_systems(Startup, move |mut next: ResMut<NextState<Screen>>| {
            next.set(mode.screen());
        });
    }
    if let Some(plan) = options.screenshot {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(SCREENSHOT_FRAME_TIME))
            .insert_resource(plan);
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
