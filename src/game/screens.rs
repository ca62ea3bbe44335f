//! The game's flow: which screen is shown, which menu overlays it, what a mode tells the title
//! screen about itself, pausing, and the system sets every feature's systems run in.

use crate::game::music::Piece;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_state::<Menu>()
        .configure_sets(
            Update,
            (
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

/// What fills the window: the title screen, or one mode's screen.
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
    /// The mode this screen plays, or `None` for the title screen.
    pub fn mode(self) -> Option<&'static ModeInfo> {
        crate::game::MODES.iter().find(|mode| mode.screen == self)
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
    /// The records page: the best runs of each board, to watch again.
    Records,
    /// The dialog at the end of a run (a runner's crash, a solved maze): the mode's
    /// [`ResultDialog`](crate::game::theme::dialog::ResultDialog).
    Results,
}

/// What the title screen, the menus and the command line know of a mode. Each mode's folder
/// defines one, and [`MODES`](crate::game::MODES) lists them.
#[derive(Debug, Clone, Copy)]
pub struct ModeInfo {
    /// The screen that plays it.
    pub screen: Screen,
    /// The lowercase name used in files (score boards) and on the command line.
    pub name: &'static str,
    /// The name shown to players.
    pub label: &'static str,
    /// One line that tells a player what the mode is.
    pub blurb: &'static str,
    /// The music loop played while it is on screen.
    pub music: Piece,
    /// What the shared difficulty changes in this mode, for the menu; `None` when it changes
    /// nothing.
    pub difficulty_shapes: Option<&'static str>,
    /// Adds the mode's plugins: its rules, its options and menus, and (when the app draws) its
    /// drawing.
    pub plugin: fn(&mut App),
}

/// The order of every `Update` system, configured once here and chained.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
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

/// The title screen opens on its main menu, unless the records page was asked for on the way.
fn open_main_menu(menu: Res<State<Menu>>, mut next_menu: ResMut<NextState<Menu>>) {
    let records =
        *menu.get() == Menu::Records || matches!(*next_menu, NextState::Pending(Menu::Records));
    if !records {
        next_menu.set(Menu::Main);
    }
}

/// Virtual time stands still under any menu so timers and `FixedUpdate` pause too.
fn pause_time_in_modes(mut time: ResMut<Time<Virtual>>) {
    time.pause();
}

fn resume_time(mut time: ResMut<Time<Virtual>>) {
    time.unpause();
}
