//! What choosing in a menu does: the one place where the core's choices take effect, whether
//! they came from the keys or the mouse, and the sound each makes. Modes answer their own
//! settings and actions.

use super::rows::{SettingEdit, SettingRow};
use super::{MenuContributions, MenuInput, MenuItem, MenuRequests, core_setting_rows};
use crate::game::audio::{Sound, SoundRequested};
use crate::game::screens::{Menu, Screen};
use crate::game::settings::{Settings, SettingsEdited};
use crate::logic::difficulty::Difficulty;
use crate::logic::seed::parse_seed;
use bevy::prelude::*;

/// The sound of a menu input: a click for a choice, a tick for a number nudged with the keys,
/// nothing for a value set with the mouse.
fn sound_of(input: &MenuInput, row: Option<&SettingRow>) -> Option<Sound> {
    let number = row.is_some_and(SettingRow::is_number);
    match input {
        MenuInput::Activated(_) if number => None,
        MenuInput::Activated(_) | MenuInput::DifficultyChosen(_) => Some(Sound::MENU_CONFIRM),
        MenuInput::Adjusted(..) if number => Some(Sound::MENU_MOVE),
        MenuInput::Adjusted(MenuItem::Difficulty, _) => Some(Sound::MENU_CONFIRM),
        MenuInput::Adjusted(..) => row.map(|_| Sound::MENU_CONFIRM),
        MenuInput::Chosen(..) | MenuInput::NumberSet(..) => None,
        MenuInput::SeedTyped(text) => parse_seed(text).ok().map(|_| Sound::MENU_CONFIRM),
        MenuInput::TextSet(..) => Some(Sound::MENU_CONFIRM),
    }
}

/// The one place where the core's menu choices take effect, whether they came from keys or the
/// mouse. Mode settings and actions are answered by their modes.
#[expect(
    clippy::too_many_arguments,
    reason = "the core menu reaches the screens, the settings, the clipboard, sounds and exit"
)]
pub(super) fn apply_menu_inputs(
    mut inputs: MessageReader<MenuInput>,
    screen: Res<State<Screen>>,
    time: Res<Time<Real>>,
    contributions: Res<MenuContributions>,
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
        let core_rows = core_setting_rows(&settings);
        let item = input_item(input);
        let row = item.and_then(|item| {
            core_rows
                .iter()
                .find(|row| row.item == item)
                .or_else(|| contributions.row(item))
        });
        let sound = sound_of(input, row);
        let mut settings_changed = false;
        if let Some(edit) = core_rows.iter().find_map(|row| row.edit(input)) {
            settings_changed = apply_core_edit(&mut settings, item, edit);
        }
        match input.clone() {
            MenuInput::Activated(MenuItem::Play(mode)) => {
                next_screen.set(mode);
                next_menu.set(Menu::None);
            }
            MenuInput::Activated(MenuItem::Seed) => requests.focus_seed_field = true,
            MenuInput::SeedTyped(text) => match parse_seed(&text) {
                Ok(_) => {
                    let text = text.trim().to_owned();
                    settings_changed = settings.seed_text != text;
                    settings.seed_text = text;
                }
                Err(err) => requests.notice = Some((format!("Seed not changed: {err}."), now)),
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
                let at = Difficulty::ALL
                    .iter()
                    .position(|&d| d == settings.difficulty)
                    .unwrap_or(0);
                settings.difficulty = Difficulty::ALL[(at + 1) % Difficulty::ALL.len()];
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
            // The records page belongs to the title screen.
            MenuInput::Activated(MenuItem::Records) => {
                if screen.mode().is_some() {
                    next_screen.set(Screen::Title);
                }
                next_menu.set(Menu::Records);
            }
            MenuInput::Activated(MenuItem::Quit) => {
                exit.write(AppExit::Success);
            }
            MenuInput::Activated(MenuItem::Back) => next_menu.set(if screen.mode().is_some() {
                Menu::Pause
            } else {
                Menu::Main
            }),
            // A mode's pause action resumes the game once the mode has carried it out.
            MenuInput::Activated(MenuItem::Resume | MenuItem::Action(_)) => {
                next_menu.set(Menu::None);
            }
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
            // Core rows were edited above; mode settings are their modes' to apply.
            MenuInput::Activated(_)
            | MenuInput::Adjusted(..)
            | MenuInput::Chosen(..)
            | MenuInput::NumberSet(..)
            | MenuInput::TextSet(..) => {}
        }
        if settings_changed {
            edited.write(SettingsEdited);
        }
        sounds.write_batch(sound.map(SoundRequested));
    }
}

/// The item an input is about, if any.
fn input_item(input: &MenuInput) -> Option<MenuItem> {
    match *input {
        MenuInput::Activated(item)
        | MenuInput::Adjusted(item, _)
        | MenuInput::Chosen(item, _)
        | MenuInput::NumberSet(item, _)
        | MenuInput::TextSet(item, _) => Some(item),
        MenuInput::SeedTyped(_) | MenuInput::DifficultyChosen(_) => None,
    }
}

/// Applies an edit of a core setting; returns whether anything changed.
fn apply_core_edit(settings: &mut Settings, item: Option<MenuItem>, edit: SettingEdit) -> bool {
    match (item, edit) {
        (Some(MenuItem::Volume(channel)), SettingEdit::Number(volume)) => {
            replace(settings.volume_mut(channel), volume as f32)
        }
        (Some(MenuItem::Fullscreen), SettingEdit::Toggle(on)) => {
            replace(&mut settings.fullscreen, on)
        }
        (Some(MenuItem::Ghosts), SettingEdit::Toggle(on)) => replace(&mut settings.ghosts, on),
        (Some(MenuItem::AntiAliasing), SettingEdit::Toggle(on)) => {
            replace(&mut settings.antialiasing, on)
        }
        (Some(MenuItem::UiScale), SettingEdit::Number(scale)) => {
            replace(&mut settings.ui_scale, scale as f32)
        }
        (Some(MenuItem::HighContrastHud), SettingEdit::Toggle(on)) => {
            replace(&mut settings.high_contrast_hud, on)
        }
        (Some(MenuItem::ReduceMotion), SettingEdit::Toggle(on)) => {
            replace(&mut settings.reduce_motion, on)
        }
        _ => false,
    }
}

/// Sets a setting; returns whether its value changed.
fn replace<T: PartialEq>(setting: &mut T, value: T) -> bool {
    let changed = *setting != value;
    *setting = value;
    changed
}
