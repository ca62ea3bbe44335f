//! The play session: what is being played, resolved once each time a mode's screen is entered.
//! A mode reads its seed, seed text and difficulty from [`PlaySession`], and never works them
//! out again from the settings, the daily challenge or a watched record.
//!
//! The settings stay the only writer of the player's own seed ([`GameSeed`]); the daily row and
//! the records page ask for another one with a [`PlayRequest`], which lasts until the title
//! screen.

use crate::game::screens::{EnteringMode, Screen};
use crate::game::settings::{GameDifficulty, GameSeed, LaunchOverrides, Settings};
use crate::logic::difficulty::Difficulty;
use crate::logic::replay::boards;
use crate::logic::seed::parse_seed;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AutoplayOnStart>()
        .add_systems(EnteringMode, resolve_session)
        .add_systems(OnEnter(Screen::Title), end_request);
}

/// Whether a mode starts with the computer playing (`--autoplay`): the maze's system walk, the
/// runner's autopilot, the wanderers following a planner.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AutoplayOnStart(pub bool);

/// What is being played.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct PlaySession {
    /// The seed.
    pub seed: u64,
    /// The text the seed came from, kept with the run's replay.
    pub seed_text: String,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// Why this seed is played.
    pub why: PlayReason,
}

/// Why a session plays its seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayReason {
    /// The player's own seed, from the settings or the command line.
    Chosen,
    /// The daily challenge of this day (`YYYY-MM-DD`, UTC).
    Daily {
        /// The day.
        date: String,
    },
    /// A record being watched again.
    Watched,
}

impl PlaySession {
    /// The day of the daily challenge being played, if it is one.
    pub fn daily_date(&self) -> Option<&str> {
        match &self.why {
            PlayReason::Daily { date } => Some(date),
            PlayReason::Chosen | PlayReason::Watched => None,
        }
    }

    /// The part of a board's name for a detail (a difficulty, a maze's size): the day's own
    /// board during the daily challenge (`daily-2026-11-30/normal`).
    pub fn board_detail(&self, detail: &str) -> String {
        boards::board_detail(self.daily_date(), detail)
    }
}

/// A seed other than the player's own for the modes entered from now until the title screen.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub enum PlayRequest {
    /// Today's challenge: the seed text `daily-YYYY-MM-DD`, at the player's difficulty.
    Daily {
        /// The day, `YYYY-MM-DD` in UTC.
        date: String,
    },
    /// A run of its own seed and difficulty, raced against a ghost the player chose (the day's
    /// challenge when its seed text is a day's).
    Race {
        /// The seed.
        seed: u64,
        /// The text the seed came from.
        seed_text: String,
        /// The difficulty.
        difficulty: Difficulty,
    },
    /// A record, with its own seed and difficulty.
    Watch {
        /// The seed.
        seed: u64,
        /// The text the seed came from.
        seed_text: String,
        /// The difficulty.
        difficulty: Difficulty,
    },
}

impl PlayRequest {
    /// The daily challenge of the day that `unix_s` (seconds since 1970) falls on.
    pub fn daily(unix_s: u64) -> PlayRequest {
        PlayRequest::Daily {
            date: boards::date_of(unix_s),
        }
    }
}

/// The session of the mode being entered, from the request if there is one, else from the
/// player's own seed and difficulty.
pub fn session_of(
    request: Option<&PlayRequest>,
    seed: GameSeed,
    difficulty: GameDifficulty,
    seed_texts: [Option<&str>; 2],
) -> PlaySession {
    match request {
        Some(
            request @ (PlayRequest::Watch {
                seed,
                seed_text,
                difficulty,
            }
            | PlayRequest::Race {
                seed,
                seed_text,
                difficulty,
            }),
        ) => PlaySession {
            seed: *seed,
            seed_text: seed_text.clone(),
            difficulty: *difficulty,
            why: match (request, boards::day_of_seed_text(seed_text)) {
                (PlayRequest::Watch { .. }, _) => PlayReason::Watched,
                (_, Some(date)) => PlayReason::Daily {
                    date: date.to_owned(),
                },
                (_, None) => PlayReason::Chosen,
            },
        },
        Some(PlayRequest::Daily { date }) => {
            let seed_text = boards::daily_seed_text(date);
            PlaySession {
                // A day's text is a word, which always gives a seed.
                seed: parse_seed(&seed_text).unwrap_or_default(),
                seed_text,
                difficulty: difficulty.0,
                why: PlayReason::Daily { date: date.clone() },
            }
        }
        None => {
            // The text the player's seed came from, if one of them gives it; else its number.
            let seed_text = seed_texts
                .into_iter()
                .flatten()
                .find(|text| parse_seed(text).ok() == Some(seed.0))
                .map_or_else(|| seed.0.to_string(), str::to_owned);
            PlaySession {
                seed: seed.0,
                seed_text,
                difficulty: difficulty.0,
                why: PlayReason::Chosen,
            }
        }
    }
}

fn resolve_session(
    mut commands: Commands,
    request: Option<Res<PlayRequest>>,
    (seed, difficulty): (Res<GameSeed>, Res<GameDifficulty>),
    settings: Res<Settings>,
    overrides: Option<Res<LaunchOverrides>>,
) {
    let launch_text = overrides.as_ref().and_then(|o| o.seed_text.as_deref());
    commands.insert_resource(session_of(
        request.as_deref(),
        *seed,
        *difficulty,
        [Some(&settings.seed_text), launch_text],
    ));
}

/// Back on the title screen the player's own seed is played again.
fn end_request(mut commands: Commands) {
    commands.remove_resource::<PlayRequest>();
    commands.remove_resource::<PlaySession>();
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: GameSeed = GameSeed(7);
    const NORMAL: GameDifficulty = GameDifficulty(Difficulty::Normal);

    #[test]
    fn the_player_own_seed_keeps_the_text_it_came_from() {
        let word = parse_seed("temple").unwrap();
        let session = session_of(None, GameSeed(word), NORMAL, [Some("temple"), None]);
        assert_eq!(session.seed, word);
        assert_eq!(session.seed_text, "temple");
        assert_eq!(session.why, PlayReason::Chosen);
        assert_eq!(session.board_detail("normal"), "normal");
        // A seed given on the command line keeps its own text.
        let launched = session_of(None, GameSeed(word), NORMAL, [Some("42"), Some("temple")]);
        assert_eq!(launched.seed_text, "temple");
        // A text that does not give the seed is not its text.
        let other = session_of(None, OWN, NORMAL, [Some("temple"), None]);
        assert_eq!(other.seed_text, "7");
    }

    #[test]
    fn the_daily_challenge_plays_the_day_seed_on_the_day_board() {
        let request = PlayRequest::daily(1_796_068_494);
        let session = session_of(Some(&request), OWN, NORMAL, [Some("7"), None]);
        assert_eq!(session.seed_text, "daily-2026-11-30");
        assert_eq!(session.seed, parse_seed("daily-2026-11-30").unwrap());
        assert_eq!(session.difficulty, Difficulty::Normal);
        assert_eq!(session.daily_date(), Some("2026-11-30"));
        assert_eq!(session.board_detail("normal"), "daily-2026-11-30/normal");
        let tomorrow = session_of(
            Some(&PlayRequest::daily(1_796_068_494 + 86_400)),
            OWN,
            NORMAL,
            [None, None],
        );
        assert_ne!(tomorrow.seed, session.seed);
    }

    #[test]
    fn a_watched_record_plays_its_own_seed_and_difficulty() {
        let request = PlayRequest::Watch {
            seed: 42,
            seed_text: "forty-two".to_owned(),
            difficulty: Difficulty::Hard,
        };
        let session = session_of(Some(&request), OWN, NORMAL, [Some("7"), None]);
        assert_eq!(
            (session.seed, session.seed_text.as_str(), session.difficulty),
            (42, "forty-two", Difficulty::Hard)
        );
        assert_eq!(session.why, PlayReason::Watched);
        assert_eq!(session.board_detail("hard"), "hard");
    }
}
