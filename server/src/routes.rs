//! The server's HTTP answers: players, submitted runs, boards, replays, health and readiness.
//! What each path takes and gives is written in the game's `board_api`.

use crate::checking::Checker;
use crate::limits::SubmitLimits;
use crate::refusal::Refusal;
use crate::store::{NewRun, PlayerPut, Store, Stored};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use temple_trails::board_api::{
    BoardList, BoardPage, MAX_BOARDS_LISTED, MAX_PAGE_ROWS, PlayerAnswer, PlayerBody, Submitted,
    check_player_id, check_player_name, read_bearer,
};

/// The longest board name looked up, in bytes (real ones are under 60).
const MAX_BOARD_NAME_BYTES: usize = 200;
/// Rows of a board's page when none are asked for.
const DEFAULT_PAGE_ROWS: u32 = 20;

/// What every request handler shares.
#[derive(Debug)]
pub struct Shared {
    /// The database.
    pub store: Store,
    /// The workers that play runs again.
    pub checker: Checker,
    /// Submissions per player and address.
    pub limits: SubmitLimits,
}

/// The shared state as handlers take it.
pub type AppState = State<Arc<Shared>>;

/// Seconds since 1970 on the server's clock.
fn now_unix_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

/// A time as the database keeps it.
fn stored_time(unix_s: u64) -> i64 {
    i64::try_from(unix_s).unwrap_or(i64::MAX)
}

/// `GET /health`: the process answers.
pub async fn health() -> &'static str {
    "ok\n"
}

/// `GET /ready`: the database answers and a submitted run would be taken.
pub async fn ready(State(shared): AppState) -> Response {
    if !shared.store.ready().await {
        return Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database does not answer",
        )
        .into_response();
    }
    if shared.checker.full() {
        return Refusal::new(StatusCode::SERVICE_UNAVAILABLE, "every worker is busy")
            .into_response();
    }
    "ready\n".into_response()
}

/// The player an `Authorization` header names, with their secret's hash.
fn credentials(headers: &HeaderMap) -> Result<(String, String), Refusal> {
    let header = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .ok_or_else(|| {
            Refusal::new(
                StatusCode::UNAUTHORIZED,
                "name the player with \"Authorization: Bearer <id>.<secret>\"",
            )
        })?;
    let (id, secret) =
        read_bearer(header).map_err(|why| Refusal::new(StatusCode::UNAUTHORIZED, why))?;
    Ok((
        id.to_owned(),
        blake3::hash(secret.as_bytes()).to_hex().to_string(),
    ))
}

/// The player an `Authorization` header names, checked against the stored secret.
async fn known_player(shared: &Shared, headers: &HeaderMap) -> Result<String, Refusal> {
    let (id, secret_hash) = credentials(headers)?;
    let stored = shared
        .store
        .secret_hash(&id)
        .await
        .map_err(|err| Refusal::store(&err))?;
    match stored {
        // blake3's hashes compare in constant time; these are their hex forms, which are
        // compared as hashes again so that the time says nothing of the stored one.
        Some(stored) if blake3::hash(stored.as_bytes()) == blake3::hash(secret_hash.as_bytes()) => {
            Ok(id)
        }
        Some(_) => Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "the secret is not this player's",
        )),
        None => Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "no such player: make one with PUT /player first",
        )),
    }
}

/// `PUT /player`: makes the player named by the `Authorization` header, or renames them.
pub async fn put_player(
    State(shared): AppState,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<PlayerAnswer>, Refusal> {
    let (id, secret_hash) = credentials(&headers)?;
    let body: PlayerBody = serde_json::from_slice(&body).map_err(|err| {
        Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("the body must be {{\"name\": \"...\"}}: {err}"),
        )
    })?;
    let name = check_player_name(&body.name)
        .map_err(|why| Refusal::new(StatusCode::UNPROCESSABLE_ENTITY, why))?;
    let put = shared
        .store
        .put_player(&id, &secret_hash, &name, stored_time(now_unix_s()))
        .await
        .map_err(|err| Refusal::store(&err))?;
    match put {
        PlayerPut::WrongSecret => Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "the secret is not this player's",
        )),
        PlayerPut::Made | PlayerPut::Renamed => {
            tracing::info!(player = %id, name = %name, new = put == PlayerPut::Made, "player");
            Ok(Json(PlayerAnswer {
                id,
                name,
                new: put == PlayerPut::Made,
            }))
        }
    }
}

/// `POST /runs`: plays the replay in the body again and, when it plays back as recorded, puts
/// the run on its board. 201 for a new run, 200 for one this player sent before.
pub async fn submit(
    State(shared): AppState,
    ConnectInfo(address): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<Submitted>), Refusal> {
    shared.limits.address(address.ip())?;
    let player = known_player(&shared, &headers).await?;
    shared.limits.player(&player)?;
    let worker = shared.checker.worker().await?;
    let read = shared
        .checker
        .read(&worker, body)
        .await
        .inspect_err(|refusal| {
            tracing::info!(player = %player, error = %refusal.message, "refused a file");
        })?;
    let run_id = read.id.clone();
    let known = shared
        .store
        .known_run(&run_id)
        .await
        .map_err(|err| Refusal::store(&err))?;
    let stored = match known {
        Some(known) if known.player_id == player => Stored::Kept {
            new: false,
            board: known.board,
            summary: known.summary,
        },
        Some(_) => Stored::Others,
        None => {
            let now = now_unix_s();
            let checked = shared.checker.play(&worker, read, now).await.inspect_err(|refusal| {
                tracing::info!(player = %player, run = %run_id, error = %refusal.message, "refused a run");
            })?;
            drop(worker);
            let run = NewRun {
                id: run_id.clone(),
                player_id: player.clone(),
                board: checked.board,
                standing: checked.standing,
                ticks: checked.ticks,
                summary: checked.summary,
                result: checked.result,
                submitted_unix_s: stored_time(now),
                replay: checked.replay,
            };
            shared
                .store
                .add_run(&run)
                .await
                .map_err(|err| Refusal::store(&err))?
        }
    };
    let Stored::Kept {
        new,
        board,
        summary,
    } = stored
    else {
        return Err(Refusal::new(
            StatusCode::CONFLICT,
            "this run was sent by another player first",
        ));
    };
    let row = shared
        .store
        .player_row(&board, &player)
        .await
        .map_err(|err| Refusal::store(&err))?;
    let rank = row.as_ref().map_or(0, |row| row.rank);
    let best = row.is_some_and(|row| row.run == run_id);
    tracing::info!(player = %player, run = %run_id, board = %board, summary = %summary, new, rank, "accepted a run");
    let status = if new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(Submitted {
            run: run_id,
            board,
            summary,
            new,
            rank,
            best,
        }),
    ))
}

/// The query of `GET /boards`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    limit: Option<u32>,
}

/// `GET /boards`: the boards with runs, the most recently played first.
pub async fn boards(
    State(shared): AppState,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<BoardList>, Refusal> {
    let Query(query) =
        query.map_err(|err| Refusal::new(StatusCode::BAD_REQUEST, err.body_text()))?;
    let limit = query.limit.unwrap_or(MAX_BOARDS_LISTED);
    if limit > MAX_BOARDS_LISTED {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("limit is at most {MAX_BOARDS_LISTED}"),
        ));
    }
    let boards = shared
        .store
        .boards(limit)
        .await
        .map_err(|err| Refusal::store(&err))?;
    Ok(Json(BoardList { boards }))
}

/// The query of `GET /boards/{board}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    offset: Option<u32>,
    limit: Option<u32>,
    player: Option<String>,
}

/// `GET /boards/{board}`: a page of a board, best first, and the row of `?player=` wherever it
/// ranks.
pub async fn board(
    State(shared): AppState,
    Path(board): Path<String>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Json<BoardPage>, Refusal> {
    let Query(query) =
        query.map_err(|err| Refusal::new(StatusCode::BAD_REQUEST, err.body_text()))?;
    if board.len() > MAX_BOARD_NAME_BYTES {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("a board's name is at most {MAX_BOARD_NAME_BYTES} bytes"),
        ));
    }
    let limit = query.limit.unwrap_or(DEFAULT_PAGE_ROWS);
    if !(1..=MAX_PAGE_ROWS).contains(&limit) {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("limit is 1 to {MAX_PAGE_ROWS}"),
        ));
    }
    if let Some(player) = &query.player {
        check_player_id(player).map_err(|why| Refusal::new(StatusCode::BAD_REQUEST, why))?;
    }
    let (players, rows) = shared
        .store
        .board(&board, query.offset.unwrap_or(0), limit)
        .await
        .map_err(|err| Refusal::store(&err))?;
    let own = match &query.player {
        Some(player) => shared
            .store
            .player_row(&board, player)
            .await
            .map_err(|err| Refusal::store(&err))?,
        None => None,
    };
    Ok(Json(BoardPage {
        board,
        players,
        rows,
        own,
    }))
}

/// `GET /runs/{id}`: a stored run's replay, as this game writes replays.
pub async fn run_replay(
    State(shared): AppState,
    Path(run_id): Path<String>,
) -> Result<Response, Refusal> {
    let replay = shared
        .store
        .replay(&run_id)
        .await
        .map_err(|err| Refusal::store(&err))?
        .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "no run has this id"))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], replay).into_response())
}
