//! Menu behaviour: which items the open menu has, keyboard navigation, Esc, pausing when the
//! window loses focus, and what choosing one of the core's items does. Modes contribute their own items (pause actions, settings rows,
//! result buttons) and answer them themselves; the menu only lists and dispatches. Drawing is in
//! [`ui`]. The mouse and the keyboard both end up as [`MenuInput`] messages, so the headless
//! tests drive exactly what a player drives.

mod dispatch;
mod navigation;
pub mod rows;
pub mod ui;

use crate::game::daily::DAILY_MODES;
use crate::game::screens::{AppSystems, Menu, ModeInfo, Screen};
use crate::game::settings::{MAX_VOLUME, Settings, VolumeChannel};
use crate::game::theme::dialog::{ResultDialog, the_beat_is_over};
use crate::game::{MODES, draws};
use crate::logic::difficulty::Difficulty;
use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use dispatch::apply_menu_inputs;
use navigation::{
    close_menus, handle_escape, list_open_menu_items, navigate_menu_with_keys, pause_on_focus_loss,
    reset_cursor,
};
use rows::{NumberSetting, SettingRow, SettingValue};

/// One step of the volume with the arrow keys.
const VOLUME_STEP: f64 = 0.05;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuCursor>()
        .init_resource::<MenuRequests>()
        .init_resource::<MenuContributions>()
        .init_resource::<OpenMenuItems>()
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
                    handle_escape.run_if(input_just_pressed(KeyCode::Escape)),
                    pause_on_focus_loss,
                    navigate_menu_with_keys
                        .run_if(not(in_state(Menu::None)).and_then(the_beat_is_over)),
                )
                    .chain()
                    .in_set(AppSystems::RecordInput),
                apply_menu_inputs
                    .run_if(on_message::<MenuInput>)
                    .in_set(AppSystems::Update),
            ),
        );
    // A mode started from the command line, or by any other path, starts without a menu.
    for mode in MODES {
        app.add_systems(OnEnter(mode.screen), close_menus);
    }
    if draws(app) {
        ui::plugin(app);
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
    let volumes = VolumeChannel::ALL.map(|channel| SettingRow {
        item: MenuItem::Volume(channel),
        label: channel.label(),
        value: SettingValue::Number(NumberSetting {
            display_scale: 100.0,
            suffix: " %",
            ..NumberSetting::decimal(
                f64::from(settings.volume(channel)),
                0.0..=f64::from(MAX_VOLUME),
                VOLUME_STEP,
                0,
            )
        }),
    });
    let fullscreen = SettingRow {
        item: MenuItem::Fullscreen,
        label: "Fullscreen",
        value: SettingValue::Toggle(settings.fullscreen),
    };
    let ghosts = SettingRow {
        item: MenuItem::Ghosts,
        label: item_label(MenuItem::Ghosts),
        value: SettingValue::Toggle(settings.ghosts),
    };
    let antialiasing = SettingRow {
        item: MenuItem::AntiAliasing,
        label: item_label(MenuItem::AntiAliasing),
        value: SettingValue::Toggle(settings.antialiasing),
    };
    volumes
        .into_iter()
        .chain([fullscreen, ghosts, antialiasing])
        .collect()
}

/// The items of `menu` on `screen`, top to bottom.
pub fn menu_items(
    menu: Menu,
    screen: Screen,
    contributions: &MenuContributions,
    results: Option<&ResultDialog>,
    records: usize,
) -> Vec<MenuItem> {
    match menu {
        Menu::None => Vec::new(),
        Menu::Main => MODES
            .iter()
            .map(|mode| MenuItem::Play(mode.screen))
            .chain(DAILY_MODES.map(MenuItem::Daily))
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
            .chain([MenuItem::Back])
            .collect(),
        Menu::Settings => VolumeChannel::ALL
            .map(MenuItem::Volume)
            .into_iter()
            .chain([
                MenuItem::Fullscreen,
                MenuItem::Ghosts,
                MenuItem::AntiAliasing,
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

/// What the difficulty changes in each mode, for the line under the menu's difficulty row:
/// "Runner: speed, obstacles · Maze: ... · Wanderers: none".
pub fn difficulty_note(modes: &[ModeInfo]) -> String {
    modes
        .iter()
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
        MenuItem::Quit => "Quit",
        MenuItem::Volume(channel) => channel.label(),
        MenuItem::Fullscreen => "Fullscreen",
        MenuItem::Ghosts => "Ghosts of best runs",
        MenuItem::AntiAliasing => "Anti-aliasing (4x, slower)",
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
    use crate::game::theme::dialog::ResultDialog;

    #[test]
    fn the_difficulty_note_says_what_each_mode_changes() {
        assert_eq!(
            difficulty_note(MODES),
            "Runner: speed, obstacles · Maze: torch, hint cost, guardians · Wanderers: none"
        );
    }

    #[test]
    fn every_menu_with_items_has_a_way_out() {
        let none = MenuContributions::default();
        let items = |menu, screen| menu_items(menu, screen, &none, None, 3);
        assert!(items(Menu::Main, Screen::Title).contains(&MenuItem::Quit));
        assert!(items(Menu::Settings, Screen::Title).contains(&MenuItem::Back));
        let records = items(Menu::Records, Screen::Title);
        assert_eq!(
            records.len(),
            2 * 3 + 1,
            "watch and copy per record, and Back"
        );
        assert_eq!(records[4], MenuItem::WatchRecord(2));
        assert_eq!(records.last(), Some(&MenuItem::Back));
        for mode in MODES {
            let pause = items(Menu::Pause, mode.screen);
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
        assert_eq!(
            menu_items(Menu::Results, Screen::Maze, &none, Some(&dialog), 0),
            vec![MenuItem::Restart, MenuItem::MainMenu]
        );
    }

    #[test]
    fn main_menu_offers_every_mode_first() {
        let items = menu_items(
            Menu::Main,
            Screen::Title,
            &MenuContributions::default(),
            None,
            0,
        );
        for (i, mode) in MODES.iter().enumerate() {
            assert_eq!(items[i], MenuItem::Play(mode.screen));
        }
    }

    #[test]
    fn contributions_go_where_the_modes_put_them() {
        let mut contributions = MenuContributions::default();
        contributions
            .pause_actions
            .push((Screen::Maze, MenuItem::Action("maze.walk"), "Walk"));
        let row = SettingRow {
            item: MenuItem::Setting("maze.size"),
            label: "Size",
            value: SettingValue::Toggle(false),
        };
        contributions.set_settings_section("Maze", vec![row.clone()]);
        contributions.set_settings_section("Maze", vec![row]);
        let pause = menu_items(Menu::Pause, Screen::Maze, &contributions, None, 0);
        assert_eq!(
            pause[..2],
            [MenuItem::Resume, MenuItem::Action("maze.walk")]
        );
        let runner_pause = menu_items(Menu::Pause, Screen::Runner, &contributions, None, 0);
        assert!(!runner_pause.contains(&MenuItem::Action("maze.walk")));
        let settings = menu_items(Menu::Settings, Screen::Title, &contributions, None, 0);
        assert_eq!(
            settings,
            vec![
                MenuItem::Volume(VolumeChannel::Master),
                MenuItem::Volume(VolumeChannel::Music),
                MenuItem::Volume(VolumeChannel::Effects),
                MenuItem::Fullscreen,
                MenuItem::Ghosts,
                MenuItem::AntiAliasing,
                MenuItem::Setting("maze.size"),
                MenuItem::Back
            ]
        );
    }
}
