//! What the board server and its clients (the game, the command line) say to each other: the
//! paths, the JSON bodies, and the rules for a player's id, secret and name, which both sides
//! check so that the game refuses what the server would.
//!
//! - `PUT /player` with `{"name": ...}` makes a player or renames one;
//! - `POST /runs` with a replay as its body submits a run, which the server plays again;
//! - `GET /boards` lists the boards, `GET /boards/{board}` one board's page
//!   (`?offset=&limit=&player=`);
//! - `GET /runs/{id}` gives a listed run's replay;
//! - `GET /health` and `GET /ready` say whether the server is up and can take work.
//!
//! A player is named by `Authorization: Bearer <id>.<secret>`, both made at random by the game.

use serde::{Deserialize, Serialize};

/// Hexadecimal digits of a player's id (128 random bits).
pub const PLAYER_ID_DIGITS: usize = 32;
/// Hexadecimal digits of a player's secret (256 random bits).
pub const PLAYER_SECRET_DIGITS: usize = 64;
/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;
/// The most rows a board's page holds.
pub const MAX_PAGE_ROWS: u32 = 100;
/// The most boards `GET /boards` lists.
pub const MAX_BOARDS_LISTED: u32 = 200;

/// Refuses an id or a secret that is not `digits` lowercase hexadecimal digits.
fn check_hex(what: &str, text: &str, digits: usize) -> Result<(), String> {
    let hex = text
        .bytes()
        .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte));
    if text.len() == digits && hex {
        Ok(())
    } else {
        Err(format!(
            "a player's {what} is {digits} lowercase hexadecimal digits"
        ))
    }
}

/// Refuses a player id that is not 32 lowercase hexadecimal digits.
pub fn check_player_id(id: &str) -> Result<(), String> {
    check_hex("id", id, PLAYER_ID_DIGITS)
}

/// Refuses a player secret that is not 64 lowercase hexadecimal digits.
pub fn check_player_secret(secret: &str) -> Result<(), String> {
    check_hex("secret", secret, PLAYER_SECRET_DIGITS)
}

/// A display name as boards show it: the name without spaces around it, refused when it is
/// empty, longer than [`MAX_NAME_CHARS`] characters, or holds a control or formatting
/// character (a line break, a right-to-left override, a zero-width joiner), which could make
/// one player's row look like another's.
pub fn check_player_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("a player's name may not be empty".to_owned());
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(format!(
            "a player's name is at most {MAX_NAME_CHARS} characters, not {chars}"
        ));
    }
    if let Some(bad) = name.chars().find(|&c| c.is_control() || is_format(c)) {
        return Err(format!(
            "a player's name may not hold the character {}",
            bad.escape_unicode()
        ));
    }
    Ok(name.to_owned())
}

/// Unicode's invisible formatting characters (general category Cf) that text can hide:
/// zero-width spaces and joiners, direction marks, overrides and isolates, the word joiner and
/// the byte order mark.
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
    )
}

/// The `Authorization` header's value that names a player.
pub fn bearer(id: &str, secret: &str) -> String {
    format!("Bearer {id}.{secret}")
}

/// A player's id and secret read from an `Authorization` header's value, both checked.
pub fn read_bearer(header: &str) -> Result<(&str, &str), String> {
    let token = header
        .strip_prefix("Bearer ")
        .ok_or("the Authorization header must be \"Bearer <id>.<secret>\"")?;
    let (id, secret) = token
        .split_once('.')
        .ok_or("the Authorization header must be \"Bearer <id>.<secret>\"")?;
    check_player_id(id)?;
    check_player_secret(secret)?;
    Ok((id, secret))
}

/// The body of `PUT /player`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerBody {
    /// The name boards show.
    pub name: String,
}

/// What `PUT /player` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerAnswer {
    /// The player's id.
    pub id: String,
    /// The name as stored (without spaces around it).
    pub name: String,
    /// Whether the player was made by this request.
    pub new: bool,
}

/// What `POST /runs` answers for a run the server played again and accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submitted {
    /// The run's id: the same play always has the same id.
    pub run: String,
    /// The board it went on.
    pub board: String,
    /// What the board shows of it: its score or time.
    pub summary: String,
    /// False when the server had this run already (it counts once).
    pub new: bool,
    /// The player's rank on the board now (1 is first), with their best run.
    pub rank: u64,
    /// Whether this run is the player's best on the board.
    pub best: bool,
}

/// One row of a board: a player's best run on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRow {
    /// 1 for the best run; ties go to the run sent first.
    pub rank: u64,
    /// The run's id, to download its replay.
    pub run: String,
    /// The player's name.
    pub player: String,
    /// The score or time.
    pub summary: String,
    /// Fixed steps the run lasted.
    pub ticks: u64,
    /// When the server accepted it, in seconds since 1970.
    pub submitted_unix_s: u64,
}

/// A page of a board (`GET /boards/{board}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPage {
    /// The board's name.
    pub board: String,
    /// How many players have a run on it.
    pub players: u64,
    /// The rows asked for, best first.
    pub rows: Vec<BoardRow>,
    /// The row of the player asked about (`?player=`), wherever it ranks.
    pub own: Option<BoardRow>,
}

/// A board and how many players have a run on it (`GET /boards`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardCount {
    /// The board's name.
    pub board: String,
    /// Players with a run on it.
    pub players: u64,
}

/// The boards with runs, the most recently played first (`GET /boards`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardList {
    /// The boards.
    pub boards: Vec<BoardCount>,
}

/// The body of every refusal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    /// What was wrong, for a person to read.
    pub error: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_secrets_are_lowercase_hex_of_their_length() {
        let id = "0123456789abcdef0123456789abcdef";
        let secret = id.repeat(2);
        assert_eq!(read_bearer(&bearer(id, &secret)), Ok((id, secret.as_str())));
        for bad in [
            &id[1..],
            &format!("{id}0"),
            &id.to_uppercase(),
            &id.replace('a', "g"),
        ] {
            assert!(check_player_id(bad).is_err(), "{bad}");
            assert!(read_bearer(&bearer(bad, &secret)).is_err(), "{bad}");
        }
        assert!(read_bearer(&bearer(id, &secret[1..])).is_err());
        assert!(read_bearer(&format!("Basic {id}.{secret}")).is_err());
        assert!(read_bearer(&format!("Bearer {id}{secret}")).is_err());
    }

    #[test]
    fn names_are_trimmed_short_and_free_of_hidden_characters() {
        assert_eq!(check_player_name("  Ada  "), Ok("Ada".to_owned()));
        assert_eq!(check_player_name("Zoë 李"), Ok("Zoë 李".to_owned()));
        let longest = "x".repeat(MAX_NAME_CHARS);
        assert_eq!(check_player_name(&longest), Ok(longest.clone()));
        let error = check_player_name(&format!("{longest}x")).unwrap_err();
        assert!(error.contains("at most 24"), "{error}");
        assert!(check_player_name("   ").is_err());
        for hidden in [
            "a\nb",
            "a\u{0}b",
            "evil\u{202E}gnp",
            "a\u{200D}b",
            "\u{FEFF}a",
        ] {
            let error = check_player_name(hidden).unwrap_err();
            assert!(error.contains("character"), "{hidden:?}: {error}");
        }
    }
}
