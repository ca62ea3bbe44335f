//! The game's flow: which screen is shown, which menu overlays it, the modes (what each tells the
//! shared code about itself, and the [`Modes`] every mode adds itself to), pausing, and the
//! system sets every feature's systems run in. Shared code reads all of this without knowing
//! any mode by name.

use crate::logic::replay::{Replay, ReplayError, ReplayKind, kind_of};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use std::hash::{Hash, Hasher};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Modes>()
        .init_schedule(EnteringMode)
        .init_state::<Screen>()
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
    /// A mode's screen.
    Mode(Mode),
}

impl Screen {
    /// The mode this screen plays, or `None` for the title screen.
    pub fn mode(self) -> Option<&'static ModeInfo> {
        match self {
            Screen::Title => None,
            Screen::Mode(mode) => Some(mode.0),
        }
    }
}

/// A mode, as a screen names it: equal to another when their names are.
#[derive(Clone, Copy)]
pub struct Mode(pub &'static ModeInfo);

impl std::fmt::Debug for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mode({})", self.0.name)
    }
}

impl PartialEq for Mode {
    fn eq(&self, other: &Mode) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for Mode {}

impl Hash for Mode {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
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
    /// [`ResultDialog`](crate::game::menu::dialog::ResultDialog).
    Results,
}

/// What the title screen, the menus, the music, the records and the command line know of a
/// mode. Each mode's folder defines one and adds itself with [`add_mode`].
#[derive(Debug)]
pub struct ModeInfo {
    /// The lowercase name used in files (score boards, replays) and on the command line.
    pub name: &'static str,
    /// The name shown to players.
    pub label: &'static str,
    /// One line that tells a player what the mode is.
    pub blurb: &'static str,
    /// The music loop played while it is on screen (an asset path); `None` for the title's.
    pub music: Option<&'static str>,
    /// What the shared difficulty changes in this mode, for the menu; `None` when it changes
    /// nothing.
    pub difficulty_shapes: Option<&'static str>,
    /// Whether the main menu offers a daily challenge of it.
    pub daily: bool,
    /// What it brings to records and ghosts; `None` for a mode that records no runs.
    pub records: Option<ModeRecords>,
    /// Adds the mode's plugins: its rules, its options and menus, and (when the app draws) its
    /// drawing. [`add_mode`] calls it.
    pub plugin: fn(&mut App),
}

/// What a mode that keeps its runs as records brings.
#[derive(Clone, Copy)]
pub struct ModeRecords {
    /// Its kind of replay: how a run is read, checked, played again, put on a board, ranked
    /// and summed up on the records page.
    pub kind: &'static dyn ReplayKind,
}

impl std::fmt::Debug for ModeRecords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModeRecords")
            .field("kind", &self.kind.mode())
            .finish_non_exhaustive()
    }
}

impl ModeInfo {
    /// The screen that plays it.
    pub const fn screen(&'static self) -> Screen {
        Screen::Mode(Mode(self))
    }
}

/// Every mode the game has, in the order they were added: the main menu lists them so.
#[derive(Resource, Debug, Default, Clone)]
pub struct Modes(Vec<&'static ModeInfo>);

impl Modes {
    /// Every mode, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'static ModeInfo> + '_ {
        self.0.iter().copied()
    }

    /// The mode of this name (as the command line and files name it).
    pub fn named(&self, name: &str) -> Option<&'static ModeInfo> {
        self.iter().find(|mode| mode.name == name)
    }

    /// The kind of replay of every mode that keeps records.
    pub fn replay_kinds(&self) -> Vec<&'static dyn ReplayKind> {
        self.iter()
            .filter_map(|mode| mode.records.map(|records| records.kind))
            .collect()
    }

    /// The kind of a replay's mode, or why the game has none.
    pub fn replay_kind(&self, replay: &Replay) -> Result<&'static dyn ReplayKind, ReplayError> {
        kind_of(replay, &self.replay_kinds())
    }
}

impl FromIterator<&'static ModeInfo> for Modes {
    fn from_iter<T: IntoIterator<Item = &'static ModeInfo>>(modes: T) -> Modes {
        Modes(modes.into_iter().collect())
    }
}

/// Adds a mode to the game: lists it in [`Modes`], runs [`EnteringMode`] whenever its screen is
/// entered (before the mode's own `OnEnter` systems that are ordered after [`enter_mode`]), and
/// adds its plugin. Adding a mode twice adds it once.
pub fn add_mode(app: &mut App, mode: &'static ModeInfo) {
    let mut modes = app.world_mut().get_resource_or_init::<Modes>();
    if modes.named(mode.name).is_some() {
        return;
    }
    if let Some(records) = mode.records {
        debug_assert_eq!(
            records.kind.mode(),
            mode.name,
            "a mode's replays carry its name"
        );
    }
    modes.0.push(mode);
    app.add_systems(OnEnter(mode.screen()), enter_mode);
    (mode.plugin)(app);
}

/// The schedule shared code runs in whenever a mode's screen is entered (a new run, a restart,
/// a record watched), before the mode starts: the play session is resolved and menus close.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct EnteringMode;

/// Runs [`EnteringMode`]. A mode orders the `OnEnter` system that starts it after this one.
pub fn enter_mode(world: &mut World) {
    world.run_schedule(EnteringMode);
}

/// Whether the app draws: a window, a GPU and egui. Features add their drawing systems only then.
pub fn draws(app: &App) -> bool {
    app.is_plugin_added::<bevy::render::RenderPlugin>()
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
