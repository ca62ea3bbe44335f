//! Moving about the menus: the open menu's items kept up to date, the cursor, back and pause,
//! and the actions that move the cursor, change values and choose.

use super::controls::MenuAction;
use super::dialog::ResultDialog;
use super::{
    MenuContributions, MenuCursor, MenuInput, MenuSources, OpenMenuItems, PauseOnFocusLoss,
    RecordsOnPage, WorldRunsOnPage, menu_items,
};
use crate::game::audio::{Sound, SoundRequested};
use crate::game::controls::Actions;
use crate::game::screens::{Menu, Modes, Screen};
use bevy::prelude::*;
use bevy::window::WindowFocused;
use bevy_egui::input::EguiWantsInput;

pub(super) fn list_open_menu_items(
    menu: Res<State<Menu>>,
    screen: Res<State<Screen>>,
    (modes, contributions): (Res<Modes>, Res<MenuContributions>),
    results: Option<Res<ResultDialog>>,
    (records, world_runs): (Res<RecordsOnPage>, Res<WorldRunsOnPage>),
    mut open: ResMut<OpenMenuItems>,
) {
    let sources = MenuSources {
        modes: &modes,
        contributions: &contributions,
        results: results.as_deref(),
        records: records.0,
        world_runs: world_runs.0,
    };
    let items = menu_items(*menu.get(), *screen.get(), sources);
    open.set_if_neq(OpenMenuItems(items));
}

pub(super) fn reset_cursor(mut cursor: ResMut<MenuCursor>) {
    cursor.0 = 0;
}

pub(super) fn close_menus(mut next_menu: ResMut<NextState<Menu>>) {
    next_menu.set(Menu::None);
}

/// Whether egui is typing into a text field, when egui is present at all.
fn egui_has_keyboard(wants: Option<Res<EguiWantsInput>>) -> bool {
    wants.is_some_and(|w| w.wants_keyboard_input())
}

/// Back (Esc, or a gamepad's East) and Pause (Esc, or Start): pause or resume a mode, leave
/// the settings page. In a mode with no menu open only Pause opens the pause menu (East plays).
/// On the title screen's main menu it does nothing, so nothing is lost by pressing it. A
/// feature that answers the action itself (watching a record) sets the next menu before
/// [`MenuNavigation`](super::MenuNavigation) runs, and a change already asked for is left alone.
pub(super) fn handle_back_and_pause(
    actions: Actions<MenuAction>,
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    wants: Option<Res<EguiWantsInput>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    let in_mode = screen.mode().is_some();
    let pause = actions.just_pressed(&MenuAction::Pause);
    // One press is one answer, though Esc is both actions.
    let back = pause || actions.just_pressed(&MenuAction::Back);
    let answered = matches!(*next_menu, NextState::Pending(_));
    if !back || answered || egui_has_keyboard(wants) {
        return;
    }
    let target = match (in_mode, menu.get()) {
        (false, Menu::Settings | Menu::Records) => Some(Menu::Main),
        (false, _) => None,
        (true, Menu::None) => pause.then_some(Menu::Pause),
        (true, Menu::Pause) => Some(Menu::None),
        (true, Menu::Settings) => Some(Menu::Pause),
        // A result dialog's buttons decide what comes next.
        (true, Menu::Main | Menu::Results | Menu::Records) => None,
    };
    if let Some(target) = target {
        next_menu.set(target);
        sounds.write(SoundRequested(Sound::MENU_CONFIRM));
    }
}

/// A mode pauses when its window loses the keyboard focus, so a player who switches to another
/// window comes back to the pause menu rather than to a lost run, unless [`PauseOnFocusLoss`]
/// says not to (a scripted capture: nobody is there to come back).
pub(super) fn pause_on_focus_loss(
    mut focus_changes: MessageReader<WindowFocused>,
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    wanted: Res<PauseOnFocusLoss>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    // Only the last change of a frame counts: focus lost and found again within one frame does
    // not pause.
    let Some(last) = focus_changes.read().last() else {
        return;
    };
    if !last.focused && wanted.0 && screen.mode().is_some() && *menu.get() == Menu::None {
        next_menu.set(Menu::Pause);
    }
}

/// The cursor's actions (arrows, WASD, a D-pad or the left stick) move it and change values;
/// Confirm (Enter, Space, a gamepad's South) chooses.
pub(super) fn navigate_menu_with_actions(
    actions: Actions<MenuAction>,
    items: Res<OpenMenuItems>,
    wants: Option<Res<EguiWantsInput>>,
    mut cursor: ResMut<MenuCursor>,
    mut inputs: MessageWriter<MenuInput>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    let count = items.0.len();
    if count == 0 || egui_has_keyboard(wants) {
        return;
    }
    cursor.0 = cursor.0.min(count - 1);
    if actions.just_pressed(&MenuAction::Up) {
        cursor.0 = (cursor.0 + count - 1) % count;
        sounds.write(SoundRequested(Sound::MENU_MOVE));
    }
    if actions.just_pressed(&MenuAction::Down) {
        cursor.0 = (cursor.0 + 1) % count;
        sounds.write(SoundRequested(Sound::MENU_MOVE));
    }
    let item = items.0[cursor.0];
    if actions.just_pressed(&MenuAction::Left) {
        inputs.write(MenuInput::Adjusted(item, -1));
    }
    if actions.just_pressed(&MenuAction::Right) {
        inputs.write(MenuInput::Adjusted(item, 1));
    }
    if actions.just_pressed(&MenuAction::Confirm) {
        inputs.write(MenuInput::Activated(item));
    }
}
