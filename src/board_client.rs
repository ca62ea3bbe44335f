//! The board server's client, as the game and the command line use it: plain blocking HTTP
//! (ureq; the game calls it off the frame), the player's identity kept in `player.json` beside
//! the settings, and every answer read within a bound, since a server can be anything.

use crate::board_api::{
    self, ApiError, BoardList, BoardPage, BoardRow, MAX_PAGE_ROWS, PlayerAnswer, PlayerBody,
    Submitted, bearer,
};
use crate::files::{Loaded, load_json_checked, write_json_atomic};
use crate::logic::REPLAY_KINDS;
use crate::logic::replay::limits::MAX_REPLAY_BYTES;
use crate::logic::replay::{self, Replay, kind_of, printable, verify_while};
use rand::Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

/// The file inside the settings' folder that holds the player's id, secret and name.
pub const PLAYER_FILE: &str = "player.json";
/// The largest answer read that is not a replay: a page of a board is a few kilobytes.
const MAX_ANSWER_BYTES: u64 = 1024 * 1024;
/// The longest one request may take, from connecting to the last byte of the answer.
const REQUEST_TIME: Duration = Duration::from_secs(60);
/// The most characters of a server's message shown.
const MAX_SHOWN_CHARS: usize = 300;

/// Who the player is to the board server: made at random on first use and kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerIdentity {
    /// 32 hexadecimal digits, shown to others in no form but the boards' rows.
    pub id: String,
    /// 64 hexadecimal digits, sent only to the server.
    pub secret: String,
    /// The name boards show.
    pub name: String,
}

impl PlayerIdentity {
    /// A new identity of random id and secret (from the system's random source: it must not
    /// be guessable, unlike the game's seeded streams).
    pub fn new(name: &str) -> Result<PlayerIdentity, String> {
        let mut random = rand::rng();
        let mut hex = |words: usize| {
            (0..words)
                .map(|_| format!("{:016x}", random.next_u64()))
                .collect::<String>()
        };
        Ok(PlayerIdentity {
            id: hex(2),
            secret: hex(4),
            name: board_api::check_player_name(name)?,
        })
    }

    /// Refuses an identity no server would take.
    pub fn check(&self) -> Result<(), String> {
        board_api::check_player_id(&self.id)?;
        board_api::check_player_secret(&self.secret)?;
        board_api::check_player_name(&self.name).map(|_| ())
    }
}

/// `player.json` as it is kept: the identity, once there is one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerFile {
    /// The player's identity.
    pub player: Option<PlayerIdentity>,
}

/// Reads `player.json` in `folder`; a damaged one is set aside with a warning, as settings are.
pub fn load_player(folder: &Path) -> Loaded<PlayerFile> {
    load_json_checked(&folder.join(PLAYER_FILE), |file: &PlayerFile| {
        file.player.as_ref().map_or(Ok(()), PlayerIdentity::check)
    })
}

/// Writes `player.json` in `folder`, atomically.
pub fn save_player(folder: &Path, file: &PlayerFile) -> std::io::Result<()> {
    write_json_atomic(&folder.join(PLAYER_FILE), file)
}

/// Why a request to the board server did not give what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientError {
    /// No answer: the server could not be reached, or went quiet. Worth trying again later.
    Unreachable(String),
    /// The server refused, with its status and message (and how long to wait, for "too many"
    /// and "busy").
    Refused {
        /// The HTTP status.
        status: u16,
        /// The server's message.
        message: String,
        /// Seconds it asked to wait.
        retry_after_s: Option<u64>,
    },
    /// The answer was not what a board server sends.
    Unreadable(String),
}

impl ClientError {
    /// Whether sending the same request later may succeed: the server was away, busy or
    /// asked to wait, or its database did not answer.
    pub fn worth_retrying(&self) -> bool {
        match self {
            ClientError::Unreachable(_) => true,
            ClientError::Refused { status, .. } => matches!(status, 429 | 500..=599),
            ClientError::Unreadable(_) => false,
        }
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Unreachable(why) => write!(f, "the board server did not answer: {why}"),
            ClientError::Refused {
                status, message, ..
            } => write!(f, "the board server refused ({status}): {message}"),
            ClientError::Unreadable(why) => {
                write!(f, "the board server's answer could not be read: {why}")
            }
        }
    }
}

impl std::error::Error for ClientError {}

/// A board server, by its address.
#[derive(Debug, Clone)]
pub struct BoardClient {
    server: String,
    agent: ureq::Agent,
}

impl BoardClient {
    /// A client of the server at `server` (`http://host:port`, without a path).
    pub fn new(server: &str) -> Result<BoardClient, String> {
        let server = server.trim_end_matches('/');
        let rest = server.strip_prefix("http://").ok_or_else(|| {
            format!("the server's address must start with http:// (not {server:?})")
        })?;
        if rest.is_empty() || rest.contains(['/', '?', '#', ' ']) {
            return Err(format!(
                "the server's address is http://HOST[:PORT] with no path, not {server:?}"
            ));
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(REQUEST_TIME))
            .user_agent(concat!("temple-trails/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(BoardClient {
            server: server.to_owned(),
            agent,
        })
    }

    /// The server's address, as used (without a trailing `/`).
    pub fn server(&self) -> &str {
        &self.server
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server)
    }

    /// Makes the player on the server, or gives them their name there.
    pub fn register(&self, player: &PlayerIdentity) -> Result<PlayerAnswer, ClientError> {
        let body = PlayerBody {
            name: player.name.clone(),
        };
        let answer = self
            .agent
            .put(&self.url("/player"))
            .header("Authorization", &bearer(&player.id, &player.secret))
            .send_json(&body);
        read_json(answer)
    }

    /// Sends a run (a replay file's bytes) for the server to play again and rank.
    pub fn submit(&self, player: &PlayerIdentity, replay: &[u8]) -> Result<Submitted, ClientError> {
        let answer = self
            .agent
            .post(&self.url("/runs"))
            .header("Authorization", &bearer(&player.id, &player.secret))
            .header("Content-Type", "application/json")
            .send(replay);
        read_json(answer)
    }

    /// The boards with runs, the most recently played first.
    pub fn boards(&self) -> Result<BoardList, ClientError> {
        read_json(self.agent.get(&self.url("/boards")).call())
    }

    /// A page of a board from `offset`, and the row of `player` wherever it ranks.
    pub fn board(
        &self,
        board: &str,
        offset: u32,
        limit: u32,
        player: Option<&str>,
    ) -> Result<BoardPage, ClientError> {
        let mut request = self
            .agent
            .get(&self.url(&format!("/boards/{board}")))
            .query("offset", offset.to_string())
            .query("limit", limit.min(MAX_PAGE_ROWS).to_string());
        if let Some(player) = player {
            request = request.query("player", player);
        }
        read_json(request.call())
    }

    /// A listed run's replay, read within the size of the largest replay and parsed.
    pub fn replay(&self, run: &str) -> Result<Replay, ClientError> {
        if !run.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return Err(ClientError::Unreadable(format!(
                "{run:?} is not a run's id"
            )));
        }
        let text = read_text(
            self.agent.get(&self.url(&format!("/runs/{run}"))).call(),
            MAX_REPLAY_BYTES,
        )?;
        replay::parse(&text).map_err(|err| ClientError::Unreadable(err.to_string()))
    }
}

/// The longest one downloaded run may take to play back before it is shown.
const WORLD_CHECK_TIME: Duration = Duration::from_secs(10);

/// A world board's best runs, each downloaded and played back here before it is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldBoardRuns {
    /// The board's name.
    pub board: String,
    /// Players with a run on it.
    pub players: u64,
    /// Its best runs, best first, each with its replay.
    pub runs: Vec<(BoardRow, Replay)>,
}

impl BoardClient {
    /// The best `per_board` runs of the first `boards` boards whose names `wanted` accepts, the
    /// most recently played first. Each run's replay is downloaded within the size of the
    /// largest replay and played back (at most [`WORLD_CHECK_TIME`] each) before it is kept:
    /// what a server sends is not trusted more than a file.
    pub fn world_runs(
        &self,
        wanted: impl Fn(&str) -> bool,
        boards: usize,
        per_board: u32,
    ) -> Result<Vec<WorldBoardRuns>, ClientError> {
        let listed = self.boards()?;
        let mut found = Vec::new();
        for board in listed
            .boards
            .iter()
            .filter(|board| wanted(&board.board))
            .take(boards)
        {
            let page = self.board(&board.board, 0, per_board, None)?;
            let mut runs = Vec::new();
            for row in page.rows {
                let Ok(replay) = self.replay(&row.run) else {
                    continue;
                };
                let Ok(kind) = kind_of(&replay, REPLAY_KINDS) else {
                    continue;
                };
                let deadline = Instant::now() + WORLD_CHECK_TIME;
                let played = verify_while(&replay, kind, &mut || Instant::now() < deadline);
                if played.is_ok() {
                    runs.push((row, replay));
                }
            }
            found.push(WorldBoardRuns {
                board: page.board,
                players: page.players,
                runs,
            });
        }
        Ok(found)
    }
}

/// An answer's body as text, within `limit` bytes, or the refusal it holds.
fn read_text(
    answer: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    limit: u64,
) -> Result<String, ClientError> {
    let mut answer = answer.map_err(|err| ClientError::Unreachable(err.to_string()))?;
    let status = answer.status().as_u16();
    let retry_after_s = answer
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok()?.trim().parse().ok());
    let text = answer
        .body_mut()
        .with_config()
        .limit(limit)
        .read_to_string()
        .map_err(|err| ClientError::Unreadable(err.to_string()));
    if (200..300).contains(&status) {
        return text;
    }
    let message = text
        .ok()
        .and_then(|text| serde_json::from_str::<ApiError>(&text).ok())
        .map_or_else(|| "no reason given".to_owned(), |refusal| refusal.error);
    Err(ClientError::Refused {
        status,
        message: printable(&message, MAX_SHOWN_CHARS),
        retry_after_s,
    })
}

/// An answer's JSON body, or the refusal it holds.
fn read_json<T: DeserializeOwned>(
    answer: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<T, ClientError> {
    let text = read_text(answer, MAX_ANSWER_BYTES)?;
    serde_json::from_str(&text)
        .map_err(|err| ClientError::Unreadable(printable(&err.to_string(), MAX_SHOWN_CHARS)))
}
