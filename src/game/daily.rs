//! The daily challenge: one runner track and one maze a day, the same for everyone. The main
//! menu's Daily row offers each mode that has one ([`ModeInfo::daily`]); choosing it plays the
//! mode with a [`PlayRequest::Daily`]: the seed text `daily-YYYY-MM-DD` of the day in UTC
//! (hashed with FNV-1a like any seed word) on boards of its own, named for the day
//! (`runner/daily-2026-11-30/normal`). The mode decides the rest (the maze plays its default
//! settings).
//!
//! [`ModeInfo::daily`]: crate::game::screens::ModeInfo::daily

use crate::game::menu::{MenuInput, MenuItem};
use crate::game::scores::unix_now_s;
use crate::game::screens::{AppSystems, Menu, Screen};
use crate::game::session::PlayRequest;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        start_daily
            .run_if(on_message::<MenuInput>)
            .in_set(AppSystems::Update),
    );
}

fn start_daily(
    mut commands: Commands,
    mut inputs: MessageReader<MenuInput>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    for input in inputs.read() {
        match *input {
            MenuInput::Activated(MenuItem::Daily(screen)) => {
                // Played with the day's seed, which is not saved as the player's.
                commands.insert_resource(PlayRequest::daily(unix_now_s()));
                next_screen.set(screen);
                next_menu.set(Menu::None);
            }
            // A new seed leaves the challenge for an ordinary run.
            MenuInput::Activated(MenuItem::PlayAgainNewSeed) => {
                commands.remove_resource::<PlayRequest>();
            }
            _ => {}
        }
    }
}
