//! Menu behaviour: which items each menu has, keyboard navigation, Esc, and what choosing an item
//! does. Drawing is in [`ui`]; the mouse and the keyboard both end up as [`MenuInput`] messages,
//! so the headless tests drive exactly what a player drives.

pub mod ui;

use crate::game::audio::{Sound, SoundRequested};
use crate::game::maze::options::{MAX_BRAID_PERCENT, MazeOptions, MazeSize};
use crate::game::screens::{AppSystems, Menu, Mode, Screen};
use crate::game::settings::{MAX_VOLUME, Settings, SettingsEdited};
use crate::game::wanderers::options::WanderersOptions;
use crate::logic::difficulty::Difficulty;
use crate::logic::maze::Algorithm;
use crate::logic::seed::parse_seed;
use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

/// One step of the volume with the arrow keys.
const VOLUME_STEP: f32 = 0.05;
/// One step of the maze braid with the arrow keys, in percent.
const BRAID_STEP: i16 = 5;

/// The value `step` places after `current` in `values`, wrapping around.
fn cycle<T: Copy + PartialEq>(values: &[T], current: T, step: isize) -> T {
    let index = values.iter().position(|&v| v == current).unwrap_or(0) as isize;
    values[(index + step).rem_euclid(values.len() as isize) as usize]
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MenuCursor>()
        .init_resource::<MenuRequests>()
        .add_message::<MenuInput>()
        .add_systems(
            Update,
            (
                (
                    reset_cursor.run_if(state_changed::<Menu>),
                    handle_escape.run_if(input_just_pressed(KeyCode::Escape)),
                    navigate_menu_with_keys.run_if(not(in_state(Menu::None))),
                )
                    .chain()
                    .in_set(AppSystems::RecordInput),
                apply_menu_inputs
                    .run_if(on_message::<MenuInput>)
                    .in_set(AppSystems::Update),
            ),
        );
    // A mode started from the command line, or by any other path, starts without a menu.
    for mode in Mode::ALL {
        app.add_systems(OnEnter(mode.screen()), close_menus);
    }
}

/// Something a menu can offer. Each menu is a list of these; the cursor walks the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MenuItem {
    /// Start a mode.
    Play(Mode),
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
    /// Leave the game.
    Quit,
    /// Master volume (Left/Right).
    Volume,
    /// Toggle fullscreen.
    Fullscreen,
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
    /// Toggle the maze's system walk (the pause menu of the maze).
    SystemWalk,
    /// Toggle the runner's autopilot (the pause menu of the runner).
    Autopilot,
    /// Maze size preset (Left/Right).
    MazeSize,
    /// Maze algorithm (Left/Right).
    MazeAlgorithm,
    /// Maze braid percentage (Left/Right).
    MazeBraid,
}

const MAIN_ITEMS: &[MenuItem] = &[
    MenuItem::Play(Mode::Runner),
    MenuItem::Play(Mode::Maze),
    MenuItem::Play(Mode::Wanderers),
    MenuItem::Seed,
    MenuItem::RandomizeSeed,
    MenuItem::CopySeed,
    MenuItem::Difficulty,
    MenuItem::Settings,
    MenuItem::Quit,
];
const SETTINGS_ITEMS: &[MenuItem] = &[
    MenuItem::Volume,
    MenuItem::Fullscreen,
    MenuItem::MazeSize,
    MenuItem::MazeAlgorithm,
    MenuItem::MazeBraid,
    MenuItem::Back,
];
const PAUSE_ITEMS: &[MenuItem] = &[
    MenuItem::Resume,
    MenuItem::Restart,
    MenuItem::Settings,
    MenuItem::MainMenu,
];
const MAZE_PAUSE_ITEMS: &[MenuItem] = &[
    MenuItem::Resume,
    MenuItem::SystemWalk,
    MenuItem::Restart,
    MenuItem::Settings,
    MenuItem::MainMenu,
];
const RUNNER_PAUSE_ITEMS: &[MenuItem] = &[
    MenuItem::Resume,
    MenuItem::Autopilot,
    MenuItem::Restart,
    MenuItem::Settings,
    MenuItem::MainMenu,
];
/// After a run: the same track again, a new one, or the title.
const GAME_OVER_ITEMS: &[MenuItem] = &[
    MenuItem::Restart,
    MenuItem::PlayAgainNewSeed,
    MenuItem::MainMenu,
];
const WIN_ITEMS: &[MenuItem] = &[
    MenuItem::PlayAgainNewSeed,
    MenuItem::Restart,
    MenuItem::MainMenu,
];

/// The items of a menu on a screen, top to bottom.
pub fn menu_items(menu: Menu, screen: Screen) -> &'static [MenuItem] {
    match (menu, screen) {
        (Menu::Main, _) => MAIN_ITEMS,
        (Menu::Settings, _) => SETTINGS_ITEMS,
        (Menu::Pause, Screen::Maze) => MAZE_PAUSE_ITEMS,
        (Menu::Pause, Screen::Runner) => RUNNER_PAUSE_ITEMS,
        (Menu::Pause, _) => PAUSE_ITEMS,
        (Menu::Win, _) => WIN_ITEMS,
        (Menu::GameOver, _) => GAME_OVER_ITEMS,
        (Menu::None, _) => &[],
    }
}

/// Which item of the open menu the keyboard points at (an index into [`menu_items`]).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MenuCursor(pub usize);

impl MenuCursor {
    /// The item under the cursor in `menu` on `screen`, if the menu has items.
    pub fn item(self, menu: Menu, screen: Screen) -> Option<MenuItem> {
        menu_items(menu, screen).get(self.0).copied()
    }
}

/// What the player did in a menu, with the keyboard or the mouse.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum MenuInput {
    /// Enter on, or a click of, an item.
    Activated(MenuItem),
    /// Left (-1) or Right (+1) on an item.
    Adjusted(MenuItem, i8),
    /// The seed field was confirmed with this text.
    SeedTyped(String),
    /// A difficulty was clicked.
    DifficultyChosen(Difficulty),
    /// The volume slider was moved to this value.
    VolumeSet(f32),
    /// The maze settings were edited with the mouse.
    MazeOptionsSet(MazeOptions),
    /// The wanderers settings were edited (side panel, or T for targets).
    WanderersOptionsSet(WanderersOptions),
}

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

fn reset_cursor(mut cursor: ResMut<MenuCursor>) {
    cursor.0 = 0;
}

fn close_menus(mut next_menu: ResMut<NextState<Menu>>) {
    next_menu.set(Menu::None);
}

/// Whether egui is typing into a text field, when egui is present at all.
fn egui_has_keyboard(wants: Option<Res<EguiWantsInput>>) -> bool {
    wants.is_some_and(|w| w.wants_keyboard_input())
}

/// Esc: pause or resume a mode, leave the settings page. On the title screen's main menu it does
/// nothing, so nothing is lost by pressing it.
fn handle_escape(
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    wants: Option<Res<EguiWantsInput>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    if egui_has_keyboard(wants) {
        return;
    }
    let target = match (screen.mode(), menu.get()) {
        (None, Menu::Settings) => Some(Menu::Main),
        (None, _) => None,
        (Some(_), Menu::None) => Some(Menu::Pause),
        (Some(_), Menu::Pause) => Some(Menu::None),
        (Some(_), Menu::Settings) => Some(Menu::Pause),
        // The modes' own dialogs decide what Esc means there.
        (Some(_), Menu::Main | Menu::GameOver | Menu::Win) => None,
    };
    if let Some(target) = target {
        next_menu.set(target);
        sounds.write(SoundRequested(Sound::MenuConfirm));
    }
}

/// Arrows or WASD move the cursor and change values; Enter or Space choose.
fn navigate_menu_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    menu: Res<State<Menu>>,
    screen: Res<State<Screen>>,
    wants: Option<Res<EguiWantsInput>>,
    mut cursor: ResMut<MenuCursor>,
    mut inputs: MessageWriter<MenuInput>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    let items = menu_items(*menu.get(), *screen.get());
    if items.is_empty() || egui_has_keyboard(wants) {
        return;
    }
    let count = items.len();
    cursor.0 = cursor.0.min(count - 1);
    if keys.any_just_pressed([KeyCode::ArrowUp, KeyCode::KeyW]) {
        cursor.0 = (cursor.0 + count - 1) % count;
        sounds.write(SoundRequested(Sound::MenuMove));
    }
    if keys.any_just_pressed([KeyCode::ArrowDown, KeyCode::KeyS]) {
        cursor.0 = (cursor.0 + 1) % count;
        sounds.write(SoundRequested(Sound::MenuMove));
    }
    let item = items[cursor.0];
    if keys.any_just_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]) {
        inputs.write(MenuInput::Adjusted(item, -1));
    }
    if keys.any_just_pressed([KeyCode::ArrowRight, KeyCode::KeyD]) {
        inputs.write(MenuInput::Adjusted(item, 1));
    }
    if keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter, KeyCode::Space]) {
        inputs.write(MenuInput::Activated(item));
    }
}

/// The one place where menu choices take effect, whether they came from keys or the mouse.
#[expect(
    clippy::too_many_arguments,
    reason = "a menu reaches into every part of the game"
)]
fn apply_menu_inputs(
    mut inputs: MessageReader<MenuInput>,
    screen: Res<State<Screen>>,
    time: Res<Time<Real>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut settings: ResMut<Settings>,
    mut requests: ResMut<MenuRequests>,
    mut edited: MessageWriter<SettingsEdited>,
    mut sounds: MessageWriter<SoundRequested>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = time.elapsed_secs();
    for input in inputs.read() {
        let mut settings_changed = false;
        let mut sound = Some(Sound::MenuConfirm);
        // Enter and Right step a list setting forwards, Left backwards.
        let cycle_step = match input {
            MenuInput::Adjusted(_, step) if *step < 0 => -1,
            _ => 1,
        };
        match input.clone() {
            MenuInput::Activated(MenuItem::Play(mode)) => {
                next_screen.set(mode.screen());
                next_menu.set(Menu::None);
            }
            MenuInput::Activated(MenuItem::Seed) => requests.focus_seed_field = true,
            MenuInput::SeedTyped(text) => match parse_seed(&text) {
                Ok(_) => {
                    let text = text.trim().to_owned();
                    settings_changed = settings.seed_text != text;
                    settings.seed_text = text;
                }
                Err(err) => {
                    requests.notice = Some((format!("Seed not changed: {err}."), now));
                    sound = None;
                }
            },
            MenuInput::Activated(MenuItem::RandomizeSeed) => {
                settings.seed_text = rand::random::<u64>().to_string();
                settings_changed = true;
            }
            MenuInput::Activated(MenuItem::CopySeed) => {
                requests.copy_to_clipboard = Some(settings.seed_text.clone());
                requests.notice = Some((format!("Copied seed \"{}\".", settings.seed_text), now));
            }
            MenuInput::Activated(MenuItem::Difficulty) => {
                settings.difficulty = cycle(&Difficulty::ALL, settings.difficulty, cycle_step);
                settings_changed = true;
            }
            MenuInput::Adjusted(MenuItem::Difficulty, step) => {
                let next = if step < 0 {
                    settings.difficulty.easier()
                } else {
                    settings.difficulty.harder()
                };
                settings_changed = next != settings.difficulty;
                settings.difficulty = next;
            }
            MenuInput::DifficultyChosen(difficulty) => {
                settings_changed = difficulty != settings.difficulty;
                settings.difficulty = difficulty;
            }
            MenuInput::Activated(MenuItem::Settings) => next_menu.set(Menu::Settings),
            MenuInput::Activated(MenuItem::Quit) => {
                exit.write(AppExit::Success);
            }
            MenuInput::Adjusted(MenuItem::Volume, step) => {
                let volume =
                    (settings.master_volume + f32::from(step) * VOLUME_STEP).clamp(0.0, MAX_VOLUME);
                // Round to whole steps so repeated presses land on 0 % and 100 % exactly.
                let volume = (volume / VOLUME_STEP).round() * VOLUME_STEP;
                settings_changed = volume != settings.master_volume;
                settings.master_volume = volume;
                sound = Some(Sound::MenuMove);
            }
            MenuInput::VolumeSet(volume) => {
                let volume = volume.clamp(0.0, MAX_VOLUME);
                settings_changed = volume != settings.master_volume;
                settings.master_volume = volume;
                sound = None;
            }
            MenuInput::Activated(MenuItem::Fullscreen)
            | MenuInput::Adjusted(MenuItem::Fullscreen, _) => {
                settings.fullscreen = !settings.fullscreen;
                settings_changed = true;
            }
            MenuInput::Activated(MenuItem::Back) => next_menu.set(if screen.mode().is_some() {
                Menu::Pause
            } else {
                Menu::Main
            }),
            MenuInput::Activated(MenuItem::Resume) => next_menu.set(Menu::None),
            // `set` (not `set_if_neq`) runs the exit and enter schedules of the same screen,
            // which is what starting over means.
            MenuInput::Activated(MenuItem::Restart) => {
                next_screen.set(*screen.get());
                next_menu.set(Menu::None);
            }
            MenuInput::Activated(MenuItem::MainMenu) => {
                next_screen.set(Screen::Title);
                // Set together with the screen so the title never shows a frame without its menu.
                next_menu.set(Menu::Main);
            }
            MenuInput::Activated(MenuItem::PlayAgainNewSeed) => {
                settings.seed_text = rand::random::<u64>().to_string();
                settings_changed = true;
                next_screen.set(*screen.get());
                next_menu.set(Menu::None);
            }
            MenuInput::Activated(MenuItem::MazeSize)
            | MenuInput::Adjusted(MenuItem::MazeSize, _) => {
                settings.maze.size = cycle(&MazeSize::ALL, settings.maze.size, cycle_step);
                settings_changed = true;
            }
            MenuInput::Activated(MenuItem::MazeAlgorithm)
            | MenuInput::Adjusted(MenuItem::MazeAlgorithm, _) => {
                settings.maze.algorithm =
                    cycle(&Algorithm::ALL, settings.maze.algorithm, cycle_step);
                settings_changed = true;
            }
            MenuInput::Adjusted(MenuItem::MazeBraid, step) => {
                let braid = i16::from(settings.maze.braid_percent) + i16::from(step) * BRAID_STEP;
                let braid = braid.clamp(0, i16::from(MAX_BRAID_PERCENT)) as u8;
                settings_changed = braid != settings.maze.braid_percent;
                settings.maze.braid_percent = braid;
                sound = Some(Sound::MenuMove);
            }
            MenuInput::MazeOptionsSet(mut options) => {
                let _ = options.sanitize();
                settings_changed = options != settings.maze;
                settings.maze = options;
                sound = None;
            }
            MenuInput::WanderersOptionsSet(mut options) => {
                let _ = options.sanitize();
                settings_changed = options != settings.wanderers;
                settings.wanderers = options;
                sound = None;
            }
            // The maze and runner plugins answer their own items.
            MenuInput::Activated(MenuItem::SystemWalk | MenuItem::Autopilot) => {
                next_menu.set(Menu::None);
            }
            MenuInput::Activated(MenuItem::Volume | MenuItem::MazeBraid)
            | MenuInput::Adjusted(_, _) => sound = None,
        }
        if settings_changed {
            edited.write(SettingsEdited);
        }
        if let Some(sound) = sound {
            sounds.write(SoundRequested(sound));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_menu_with_items_has_a_way_out() {
        let title = Screen::Title;
        assert!(menu_items(Menu::Main, title).contains(&MenuItem::Quit));
        assert!(menu_items(Menu::Settings, title).contains(&MenuItem::Back));
        for screen in [Screen::Runner, Screen::Maze, Screen::Wanderers] {
            assert!(menu_items(Menu::Pause, screen).contains(&MenuItem::Resume));
            assert!(menu_items(Menu::Pause, screen).contains(&MenuItem::MainMenu));
        }
        assert!(menu_items(Menu::Win, Screen::Maze).contains(&MenuItem::MainMenu));
        assert!(menu_items(Menu::GameOver, Screen::Runner).contains(&MenuItem::MainMenu));
    }

    #[test]
    fn cycling_wraps_both_ways() {
        assert_eq!(cycle(&[1, 2, 3], 3, 1), 1);
        assert_eq!(cycle(&[1, 2, 3], 1, -1), 3);
        assert_eq!(cycle(&[1, 2, 3], 2, 1), 3);
    }

    #[test]
    fn main_menu_offers_every_mode_first() {
        let items = menu_items(Menu::Main, Screen::Title);
        for (i, mode) in Mode::ALL.into_iter().enumerate() {
            assert_eq!(items[i], MenuItem::Play(mode));
        }
    }
}
