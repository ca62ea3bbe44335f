//! The game's flow: which screen is shown, which menu overlays it, pausing, and the system sets
//! that every feature's systems run in.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_state::<Menu>()
        .configure_sets(
            Update,
            (
                AppSystems::TickTimers,
                AppSystems::RecordInput,
                AppSystems::Update,
                AppSystems::Present,
            )
                .chain(),
        )
        .configure_sets(Update, PausableSystems.run_if(in_state(Menu::None)))
        .configure_sets(FixedUpdate, PausableSystems.run_if(in_state(Menu::None)))
        .add_systems(OnEnter(Screen::Title), open_main_menu)
        .add_systems(OnEnter(Menu::None), resume_time)
        .add_systems(OnExit(Menu::None), pause_time_in_modes);
}

/// What fills the window.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The title screen with the main menu.
    #[default]
    Title,
    /// The endless temple run.
    Runner,
    /// The maze.
    Maze,
    /// The wanderers sandbox.
    Wanderers,
}

impl Screen {
    /// The mode this screen plays, if it is a mode's screen.
    pub const fn mode(self) -> Option<Mode> {
        match self {
            Screen::Title => None,
            Screen::Runner => Some(Mode::Runner),
            Screen::Maze => Some(Mode::Maze),
            Screen::Wanderers => Some(Mode::Wanderers),
        }
    }
}

/// The overlay drawn over the screen; gameplay runs only under [`Menu::None`].
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Menu {
    /// No overlay: the game runs.
    #[default]
    None,
    /// The title screen's main menu.
    Main,
    /// The settings page, opened from the main or the pause menu.
    Settings,
    /// The pause menu of a mode.
    Pause,
    /// A runner's end-of-run dialog.
    GameOver,
    /// A solved maze's dialog.
    Win,
}

/// The three ways to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Mode {
    /// The endless three-lane temple run.
    Runner,
    /// A generated maze walked with the arrow keys.
    Maze,
    /// NPCs wandering near home.
    Wanderers,
}

impl Mode {
    /// Every mode, in menu order.
    pub const ALL: [Mode; 3] = [Mode::Runner, Mode::Maze, Mode::Wanderers];

    /// The screen that plays this mode.
    pub const fn screen(self) -> Screen {
        match self {
            Mode::Runner => Screen::Runner,
            Mode::Maze => Screen::Maze,
            Mode::Wanderers => Screen::Wanderers,
        }
    }

    /// The lowercase name used in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Runner => "runner",
            Mode::Maze => "maze",
            Mode::Wanderers => "wanderers",
        }
    }

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            Mode::Runner => "Runner",
            Mode::Maze => "Maze",
            Mode::Wanderers => "Wanderers",
        }
    }

    /// One line that tells a player what the mode is.
    pub const fn blurb(self) -> &'static str {
        match self {
            Mode::Runner => "Run the endless temple: jump, slide, dodge and turn.",
            Mode::Maze => "Find the exit of a generated maze; Space shows the way.",
            Mode::Wanderers => "Watch NPCs wander near home and find their way around stone.",
        }
    }
}

/// The order of every `Update` system, configured once here and chained.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Advance timers.
    TickTimers,
    /// Read keys and the mouse.
    RecordInput,
    /// Everything else: plan, move, decide.
    Update,
    /// Bring what is drawn up to date.
    Present,
}

/// Gameplay systems that stop while a menu is open. Configured for `Update` and `FixedUpdate`.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PausableSystems;

fn open_main_menu(mut next_menu: ResMut<NextState<Menu>>) {
    next_menu.set(Menu::Main);
}

/// Virtual time stands still under any menu so timers and `FixedUpdate` pause too.
fn pause_time_in_modes(mut time: ResMut<Time<Virtual>>) {
    time.pause();
}

fn resume_time(mut time: ResMut<Time<Virtual>>) {
    time.unpause();
}
