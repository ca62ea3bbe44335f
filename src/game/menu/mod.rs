//! Menu behaviour: which items the open menu has, navigation with the menu's actions
//! ([`controls`]: keys or a gamepad), back and pause, pausing when the window loses focus, and
//! what choosing one of the core's items does. Modes contribute their own items (pause actions,
//! settings rows, result buttons) and answer them themselves; the menu only lists and
//! dispatches. Drawing is in [`ui`]. The mouse, the keyboard and gamepads all end up as
//! [`MenuInput`] messages, so the headless tests drive exactly what a player drives.

pub mod controls;
pub mod controls_page;
pub mod dialog;
mod dispatch;
mod navigation;
pub mod rows;
pub mod settings_page;
pub mod ui;
pub mod widgets;

use crate::game::screens::{AppSystems, EnteringMode, Menu, ModeInfo, Modes, Screen, draws};
use crate::game::settings::{MAX_VOLUME, Settings, UI_SCALE_STEP, UI_SCALES, VolumeChannel};
use crate::logic::difficulty::Difficulty;
use bevy::prelude::*;
use dialog::{ResultDialog, the_beat_is_over};
use dispatch::apply_menu_inputs;
use navigation::{
    close_menus, handle_back_and_pause, list_open_menu_items, navigate_menu_with_actions,
    pause_on_focus_loss, reset_cursor,
};
use rows::{NumberSetting, SettingRow, SettingValue};
use std::ops::RangeInclusive;

/// One step of the volume with the arrow keys.
const VOLUME_STEP: f64 = 0.05;

pub(super) fn plugin(app: &mut App) {
    controls::plugin(app);
    controls_page::plugin(app);
    app.init_resource::<MenuCursor>()
        .init_resource::<MenuRequests>()
        .init_resource::<MenuContributions>()
        .init_resource::<OpenMenuItems>()
        .init_resource::<RecordsOnPage>()
        .init_resource::<WorldRunsOnPage>()
        .init_resource::<PauseOnFocusLoss>()
        .add_message::<MenuInput>()
        // The window plugin registers it too; without a window (the headless tests) nothing
        // but a test writes it.
        .add_message::<bevy::window::WindowFocused>()
        .add_systems(
            Update,
            (
                (
                    list_open_menu_items,
                    reset_cursor.run_if(state_changed::<Menu>),
                    handle_back_and_pause.run_if(controls_page::menus_hear_keys),
                    pause_on_focus_loss,
                    navigate_menu_with_actions.run_if(
                        not(in_state(Menu::None))
                            .and_then(the_beat_is_over)
                            .and_then(controls_page::menus_hear_keys),
                    ),
                )
                    .chain()
                    .in_set(MenuNavigation)
                    .in_set(AppSystems::RecordInput),
                apply_menu_inputs
                    .run_if(on_message::<MenuInput>)
                    .in_set(AppSystems::Update),
            ),
        );
    // A mode started from the command line, or by any other path, starts without a menu.
    app.add_systems(EnteringMode, close_menus);
    dialog::plugin(app);
    if draws(app) {
        ui::plugin(app);
    }
}

/// The menus' reading of keys and the lists of items: a feature that answers a key itself, or
/// changes what a menu lists, runs before it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MenuNavigation;

/// How many records the records page lists, two items each; the records plugin keeps it.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RecordsOnPage(pub usize);

/// How many runs of world boards the records page lists, two items each; the online boards
/// plugin keeps it.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WorldRunsOnPage(pub usize);

/// Whether a mode pauses when the window loses the keyboard focus: yes, unless a scripted
/// capture (`--screenshot`) says no.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PauseOnFocusLoss(pub bool);

impl Default for PauseOnFocusLoss {
    fn default() -> Self {
        PauseOnFocusLoss(true)
    }
}

/// Something a menu can offer. Each menu is a list of these; the cursor walks the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MenuItem {
    /// Start the mode of this screen.
    Play(Screen),
    /// Edit the seed text (Enter focuses the field).
    Seed,
    /// Pick a random seed.
    RandomizeSeed,
    /// Copy the seed to the clipboard.
    CopySeed,
    /// Choose the difficulty (Left/Right).
    Difficulty,
    /// Open the settings page.
    Settings,
    /// Play today's daily challenge of a mode.
    Daily(Screen),
    /// Open the records page.
    Records,
    /// Watch the record at this place in the records page's list.
    WatchRecord(u16),
    /// Copy the seed of the record at this place in the records page's list.
    CopyRecordSeed(u16),
    /// Watch the run at this place in the records page's list of world boards.
    WatchWorldRun(u16),
    /// Race the run at this place in the records page's list of world boards as a ghost.
    RaceWorldRun(u16),
    /// Leave the game.
    Quit,
    /// A volume (Left/Right).
    Volume(VolumeChannel),
    /// Toggle fullscreen.
    Fullscreen,
    /// Toggle the ghosts of best runs.
    Ghosts,
    /// Toggle anti-aliasing (multisampling).
    AntiAliasing,
    /// Toggle reduced motion (no shake, slow motion or speed lines).
    ReduceMotion,
    /// The size of the menus and HUDs.
    UiScale,
    /// Toggle the high-contrast HUD.
    HighContrastHud,
    /// Leave the settings page.
    Back,
    /// Close the pause menu.
    Resume,
    /// Start the current mode again.
    Restart,
    /// Go back to the title screen.
    MainMenu,
    /// Start the current mode again with a new random seed.
    PlayAgainNewSeed,
    /// One of a mode's settings, named by the mode (`"maze.size"`); the mode applies it.
    Setting(&'static str),
    /// One of a mode's actions in its pause menu, named by the mode (`"runner.autopilot"`); the
    /// mode carries it out and the game resumes.
    Action(&'static str),
}

/// What the player did in a menu, with the keyboard or the mouse.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum MenuInput {
    /// Enter on, or a click of, an item.
    Activated(MenuItem),
    /// Left (-1) or Right (+1) on an item.
    Adjusted(MenuItem, i8),
    /// An entry of a setting's list was picked with the mouse.
    Chosen(MenuItem, usize),
    /// A number setting was set with the mouse.
    NumberSet(MenuItem, f64),
    /// The seed field was confirmed with this text.
    SeedTyped(String),
    /// A text setting's field was confirmed with this text.
    TextSet(MenuItem, String),
    /// A difficulty was clicked.
    DifficultyChosen(Difficulty),
}

/// Which item of the open menu the keyboard points at (an index into [`OpenMenuItems`]).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MenuCursor(pub usize);

/// The items of the open menu, top to bottom, brought up to date every frame.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct OpenMenuItems(pub Vec<MenuItem>);

/// Things the behaviour asks of the egui drawing, which alone can do them.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct MenuRequests {
    /// Move keyboard focus into the seed field.
    pub focus_seed_field: bool,
    /// Move keyboard focus into this text setting's field (Enter on its row).
    pub focus_text_setting: Option<MenuItem>,
    /// Put this text on the clipboard.
    pub copy_to_clipboard: Option<String>,
    /// A short message for the player (a refused seed, a copied seed), with the real time it
    /// was posted in seconds.
    pub notice: Option<(String, f32)>,
}

/// What the modes add to the menus: actions in their pause menus and sections of the settings
/// page. Modes register these when their plugins are built, and keep their rows up to date.
#[derive(Resource, Debug, Default)]
pub struct MenuContributions {
    pause_actions: Vec<(Screen, MenuItem, &'static str)>,
    settings_sections: Vec<SettingsSection>,
}

/// A mode's part of the settings page.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsSection {
    /// The heading over its rows.
    pub title: &'static str,
    /// The rows, top to bottom.
    pub rows: Vec<SettingRow>,
}

impl MenuContributions {
    /// The actions a mode's pause menu offers after Resume, with their labels.
    pub fn pause_actions(&self, screen: Screen) -> impl Iterator<Item = (MenuItem, &'static str)> {
        self.pause_actions
            .iter()
            .filter(move |(on, ..)| *on == screen)
            .map(|&(_, item, label)| (item, label))
    }

    /// The sections of the settings page, in the order the modes added them.
    pub fn settings_sections(&self) -> &[SettingsSection] {
        &self.settings_sections
    }

    /// Puts `rows` under `title` on the settings page, replacing that section's earlier rows.
    pub fn set_settings_section(&mut self, title: &'static str, rows: Vec<SettingRow>) {
        match self.settings_sections.iter_mut().find(|s| s.title == title) {
            Some(section) => section.rows = rows,
            None => self.settings_sections.push(SettingsSection { title, rows }),
        }
    }

    /// The settings page's row for `item`, if a mode added one.
    fn row(&self, item: MenuItem) -> Option<&SettingRow> {
        self.settings_sections
            .iter()
            .flat_map(|section| &section.rows)
            .find(|row| row.item == item)
    }
}

/// Adds an action to the pause menu of `screen`, right after Resume; the mode that adds it
/// answers [`MenuInput::Activated`] of `item`.
pub fn add_pause_action(app: &mut App, screen: Screen, item: MenuItem, label: &'static str) {
    app.init_resource::<MenuContributions>()
        .world_mut()
        .resource_mut::<MenuContributions>()
        .pause_actions
        .push((screen, item, label));
}

/// The settings every mode shares, as rows of the settings page.
pub fn core_setting_rows(settings: &Settings) -> Vec<SettingRow> {
    // A number shown in per cent, in whole steps.
    let percent = |item, label, value: f32, range: RangeInclusive<f32>, step: f64| SettingRow {
        item,
        label,
        value: SettingValue::Number(NumberSetting {
            display_scale: 100.0,
            suffix: " %",
            ..NumberSetting::decimal(
                f64::from(value),
                f64::from(*range.start())..=f64::from(*range.end()),
                step,
                0,
            )
        }),
    };
    let toggle = |item, on| SettingRow {
        item,
        label: item_label(item),
        value: SettingValue::Toggle(on),
    };
    let volumes = VolumeChannel::ALL.map(|channel| {
        let volume = settings.volume(channel);
        let item = MenuItem::Volume(channel);
        percent(item, channel.label(), volume, 0.0..=MAX_VOLUME, VOLUME_STEP)
    });
    let ui_scale = percent(
        MenuItem::UiScale,
        item_label(MenuItem::UiScale),
        settings.ui_scale,
        UI_SCALES,
        f64::from(UI_SCALE_STEP),
    );
    volumes
        .into_iter()
        .chain([
            toggle(MenuItem::Fullscreen, settings.fullscreen),
            toggle(MenuItem::Ghosts, settings.ghosts),
            toggle(MenuItem::AntiAliasing, settings.antialiasing),
            ui_scale,
            toggle(MenuItem::HighContrastHud, settings.high_contrast_hud),
            toggle(MenuItem::ReduceMotion, settings.reduce_motion),
        ])
        .collect()
}

/// What the open menu's items are made from, besides the menu and the screen.
#[derive(Debug, Clone, Copy)]
pub struct MenuSources<'a> {
    /// The modes, for the main menu's Play and Daily items.
    pub modes: &'a Modes,
    /// What the modes put on the pause menu and the settings page.
    pub contributions: &'a MenuContributions,
    /// The result dialog open, if any.
    pub results: Option<&'a ResultDialog>,
    /// How many records the records page lists.
    pub records: usize,
    /// How many runs of world boards it lists.
    pub world_runs: usize,
}

/// The items of `menu` on `screen`, top to bottom.
pub fn menu_items(menu: Menu, screen: Screen, sources: MenuSources) -> Vec<MenuItem> {
    let MenuSources {
        modes,
        contributions,
        results,
        records,
        world_runs,
    } = sources;
    match menu {
        Menu::None => Vec::new(),
        Menu::Main => modes
            .iter()
            .map(|mode| MenuItem::Play(mode.screen()))
            .chain(daily_items(modes))
            .chain([
                MenuItem::Seed,
                MenuItem::RandomizeSeed,
                MenuItem::CopySeed,
                MenuItem::Difficulty,
                MenuItem::Records,
                MenuItem::Settings,
                MenuItem::Quit,
            ])
            .collect(),
        Menu::Records => (0..u16::try_from(records).unwrap_or(u16::MAX))
            .flat_map(|at| [MenuItem::WatchRecord(at), MenuItem::CopyRecordSeed(at)])
            .chain(
                (0..u16::try_from(world_runs).unwrap_or(u16::MAX))
                    .flat_map(|at| [MenuItem::WatchWorldRun(at), MenuItem::RaceWorldRun(at)]),
            )
            .chain([MenuItem::Back])
            .collect(),
        Menu::Settings => VolumeChannel::ALL
            .map(MenuItem::Volume)
            .into_iter()
            .chain([
                MenuItem::Fullscreen,
                MenuItem::Ghosts,
                MenuItem::AntiAliasing,
                MenuItem::UiScale,
                MenuItem::HighContrastHud,
                MenuItem::ReduceMotion,
            ])
            .chain(
                contributions
                    .settings_sections
                    .iter()
                    .flat_map(|section| section.rows.iter().map(|row| row.item)),
            )
            .chain([MenuItem::Back])
            .collect(),
        Menu::Pause => [MenuItem::Resume]
            .into_iter()
            .chain(contributions.pause_actions(screen).map(|(item, _)| item))
            .chain([MenuItem::Restart, MenuItem::Settings, MenuItem::MainMenu])
            .collect(),
        Menu::Results => results.map(ResultDialog::items).unwrap_or_default(),
    }
}

/// The main menu's Daily row: a button for each mode that has a daily challenge.
pub fn daily_items(modes: &Modes) -> Vec<MenuItem> {
    modes
        .iter()
        .filter(|mode| mode.daily)
        .map(|mode| MenuItem::Daily(mode.screen()))
        .collect()
}

/// What the difficulty changes in each mode, for the line under the menu's difficulty row:
/// "Runner: speed, obstacles · Maze: ... · Wanderers: none".
pub fn difficulty_note<'a>(modes: impl IntoIterator<Item = &'a ModeInfo>) -> String {
    modes
        .into_iter()
        .map(|mode| {
            format!(
                "{}: {}",
                mode.label,
                mode.difficulty_shapes.unwrap_or("none")
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The label of a core menu button.
pub fn item_label(item: MenuItem) -> &'static str {
    match item {
        MenuItem::Play(screen) => screen.mode().map_or("Play", |mode| mode.label),
        MenuItem::Seed => "Seed",
        MenuItem::RandomizeSeed => "Random",
        MenuItem::CopySeed => "Copy",
        MenuItem::Difficulty => "Difficulty",
        MenuItem::Settings => "Settings",
        MenuItem::Daily(screen) => screen.mode().map_or("Daily", |mode| mode.label),
        MenuItem::Records => "Records",
        MenuItem::WatchRecord(_) => "Watch",
        MenuItem::CopyRecordSeed(_) => "Copy seed",
        MenuItem::WatchWorldRun(_) => "Watch",
        MenuItem::RaceWorldRun(_) => "Race",
        MenuItem::Quit => "Quit",
        MenuItem::Volume(channel) => channel.label(),
        MenuItem::Fullscreen => "Fullscreen",
        MenuItem::Ghosts => "Ghosts of best runs",
        MenuItem::AntiAliasing => "Anti-aliasing (4x, slower)",
        MenuItem::ReduceMotion => "Reduce motion (no shake, slow motion or speed lines)",
        MenuItem::UiScale => "Size of menus and HUD",
        MenuItem::HighContrastHud => "High-contrast HUD",
        MenuItem::Back => "Back",
        MenuItem::Resume => "Resume",
        MenuItem::Restart => "Restart",
        MenuItem::MainMenu => "Main menu",
        MenuItem::PlayAgainNewSeed => "Play again (new seed)",
        MenuItem::Setting(name) | MenuItem::Action(name) => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::screens::Mode;

    const FIRST: ModeInfo = ModeInfo {
        name: "first",
        label: "First",
        blurb: "",
        music: None,
        difficulty_shapes: Some("speed"),
        daily: true,
        records: None,
        plugin: |_| {},
    };
    const SECOND: ModeInfo = ModeInfo {
        name: "second",
        label: "Second",
        difficulty_shapes: None,
        daily: false,
        ..FIRST
    };
    const FIRST_SCREEN: Screen = Screen::Mode(Mode(&FIRST));
    const SECOND_SCREEN: Screen = Screen::Mode(Mode(&SECOND));

    fn modes() -> Modes {
        [&FIRST, &SECOND].into_iter().collect()
    }

    fn sources<'a>(modes: &'a Modes, contributions: &'a MenuContributions) -> MenuSources<'a> {
        MenuSources {
            modes,
            contributions,
            results: None,
            records: 0,
            world_runs: 0,
        }
    }

    #[test]
    fn the_difficulty_note_says_what_each_mode_changes() {
        assert_eq!(
            difficulty_note(modes().iter()),
            "First: speed · Second: none"
        );
    }

    #[test]
    fn every_menu_with_items_has_a_way_out() {
        let (modes, none) = (modes(), MenuContributions::default());
        let with_records = MenuSources {
            records: 3,
            world_runs: 2,
            ..sources(&modes, &none)
        };
        let items = |menu, screen| menu_items(menu, screen, with_records);
        assert!(items(Menu::Main, Screen::Title).contains(&MenuItem::Quit));
        assert!(items(Menu::Settings, Screen::Title).contains(&MenuItem::Back));
        let records = items(Menu::Records, Screen::Title);
        assert_eq!(
            records.len(),
            2 * 3 + 2 * 2 + 1,
            "watch and copy per record, watch and race per world run, and Back"
        );
        assert_eq!(records[4], MenuItem::WatchRecord(2));
        assert_eq!(records[8], MenuItem::WatchWorldRun(1));
        assert_eq!(records[9], MenuItem::RaceWorldRun(1));
        assert_eq!(records.last(), Some(&MenuItem::Back));
        for screen in [FIRST_SCREEN, SECOND_SCREEN] {
            let pause = items(Menu::Pause, screen);
            assert!(pause.contains(&MenuItem::Resume));
            assert!(pause.contains(&MenuItem::MainMenu));
        }
        let dialog = ResultDialog {
            title: "Done".into(),
            subtitle: None,
            figures: Vec::new(),
            note: None,
            buttons: vec![(MenuItem::Restart, "Again"), (MenuItem::MainMenu, "Menu")],
        };
        let with_dialog = MenuSources {
            results: Some(&dialog),
            ..sources(&modes, &none)
        };
        assert_eq!(
            menu_items(Menu::Results, FIRST_SCREEN, with_dialog),
            vec![MenuItem::Restart, MenuItem::MainMenu]
        );
    }

    #[test]
    fn main_menu_offers_every_mode_first_then_the_daily_challenges() {
        let (modes, none) = (modes(), MenuContributions::default());
        let items = menu_items(Menu::Main, Screen::Title, sources(&modes, &none));
        assert_eq!(
            items[..3],
            [
                MenuItem::Play(FIRST_SCREEN),
                MenuItem::Play(SECOND_SCREEN),
                MenuItem::Daily(FIRST_SCREEN),
            ]
        );
        assert!(!items.contains(&MenuItem::Daily(SECOND_SCREEN)));
        assert_eq!(item_label(MenuItem::Play(SECOND_SCREEN)), "Second");
    }

    #[test]
    fn contributions_go_where_the_modes_put_them() {
        let modes = modes();
        let mut contributions = MenuContributions::default();
        contributions
            .pause_actions
            .push((FIRST_SCREEN, MenuItem::Action("first.walk"), "Walk"));
        let row = SettingRow {
            item: MenuItem::Setting("first.size"),
            label: "Size",
            value: SettingValue::Toggle(false),
        };
        contributions.set_settings_section("First", vec![row.clone()]);
        contributions.set_settings_section("First", vec![row]);
        let pause = menu_items(Menu::Pause, FIRST_SCREEN, sources(&modes, &contributions));
        assert_eq!(
            pause[..2],
            [MenuItem::Resume, MenuItem::Action("first.walk")]
        );
        let second_pause = menu_items(Menu::Pause, SECOND_SCREEN, sources(&modes, &contributions));
        assert!(!second_pause.contains(&MenuItem::Action("first.walk")));
        let settings = menu_items(
            Menu::Settings,
            Screen::Title,
            sources(&modes, &contributions),
        );
        assert_eq!(
            settings,
            vec![
                MenuItem::Volume(VolumeChannel::Master),
                MenuItem::Volume(VolumeChannel::Music),
                MenuItem::Volume(VolumeChannel::Effects),
                MenuItem::Fullscreen,
                MenuItem::Ghosts,
                MenuItem::AntiAliasing,
                MenuItem::UiScale,
                MenuItem::HighContrastHud,
                MenuItem::ReduceMotion,
                MenuItem::Setting("first.size"),
                MenuItem::Back
            ]
        );
    }
}
