//! The daily challenge: one runner track and one maze a day, the same for everyone. The seed is
//! the seed text `daily-YYYY-MM-DD` of the day in UTC (hashed with FNV-1a like any seed word),
//! the maze has the default maze settings, and the runs go to boards of their own, named for the
//! day (`runner/daily-2026-11-30/normal`).

use crate::game::menu::{MenuInput, MenuItem};
use crate::game::records::date_of;
use crate::game::scores::unix_now_s;
use crate::game::screens::{AppSystems, Menu, Screen};
use crate::game::settings::{GameSeed, Settings};
use crate::logic::replay::boards;
use crate::logic::seed::parse_seed;
use bevy::prelude::*;

/// The modes that have a daily challenge.
pub const DAILY_MODES: [Screen; 2] = [Screen::Runner, Screen::Maze];

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        start_daily
            .run_if(on_message::<MenuInput>)
            .in_set(AppSystems::Update),
    )
    .add_systems(OnEnter(Screen::Title), end_daily);
}

/// Today's challenge, while it is played.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct DailyChallenge {
    /// The day, `YYYY-MM-DD` in UTC.
    pub date: String,
}

impl DailyChallenge {
    /// The challenge of the day that `unix_s` (seconds since 1970) falls on.
    pub fn of_day(unix_s: u64) -> DailyChallenge {
        DailyChallenge {
            date: date_of(unix_s),
        }
    }

    /// The seed text of the day: `daily-YYYY-MM-DD`.
    pub fn seed_text(&self) -> String {
        boards::daily_seed_text(&self.date)
    }

    /// The seed of the day: the hash of its seed text.
    pub fn seed(&self) -> u64 {
        parse_seed(&self.seed_text()).unwrap_or_default()
    }

    /// The part of a board's name for a detail (a difficulty, a maze's size) on this day.
    pub fn board_detail(&self, detail: &str) -> String {
        boards::board_detail(Some(&self.date), detail)
    }
}

/// A board detail, for the daily challenge's own board when one is played.
pub fn board_detail(daily: Option<&DailyChallenge>, detail: &str) -> String {
    boards::board_detail(daily.map(|daily| daily.date.as_str()), detail)
}

fn start_daily(
    mut commands: Commands,
    mut inputs: MessageReader<MenuInput>,
    mut seed: ResMut<GameSeed>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    for input in inputs.read() {
        match *input {
            MenuInput::Activated(MenuItem::Daily(screen)) => {
                let daily = DailyChallenge::of_day(unix_now_s());
                // Played with the day's seed, which is not saved as the player's.
                *seed = GameSeed(daily.seed());
                commands.insert_resource(daily);
                next_screen.set(screen);
                next_menu.set(Menu::None);
            }
            // A new seed leaves the challenge for an ordinary run.
            MenuInput::Activated(MenuItem::PlayAgainNewSeed) => {
                commands.remove_resource::<DailyChallenge>();
            }
            _ => {}
        }
    }
}

/// Back on the title screen the player's own seed is the game's seed again.
fn end_daily(
    mut commands: Commands,
    daily: Option<Res<DailyChallenge>>,
    settings: Res<Settings>,
    mut seed: ResMut<GameSeed>,
) {
    if daily.is_some() {
        commands.remove_resource::<DailyChallenge>();
        *seed = GameSeed(settings.seed());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_day_gives_the_seed_and_the_board() {
        let daily = DailyChallenge::of_day(1_796_068_494);
        assert_eq!(daily.seed_text(), "daily-2026-11-30");
        assert_eq!(daily.seed(), parse_seed("daily-2026-11-30").unwrap());
        assert_ne!(
            daily.seed(),
            DailyChallenge::of_day(1_796_068_494 + 86_400).seed()
        );
        assert_eq!(
            board_detail(Some(&daily), "normal"),
            "daily-2026-11-30/normal"
        );
        assert_eq!(board_detail(None, "normal"), "normal");
    }
}
