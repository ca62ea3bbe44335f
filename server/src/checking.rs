//! Playing submitted runs again. A replay is read and checked with the game's own logic on a
//! bounded pool of blocking workers: at most `workers` runs are read or played at once, at most
//! `waiting` more wait for a worker (past that the server answers "busy"), and a run that has
//! not played back within its time is refused. What is stored comes from this replay, never
//! from a figure sent beside it.

use crate::refusal::Refusal;
use axum::http::StatusCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use temple_trails::logic::REPLAY_KINDS;
use temple_trails::logic::replay::boards::{date_of, world_board_of};
use temple_trails::logic::replay::{self, Replay, ReplayError, ReplayKind, kind_of};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How far ahead of the server's clock a daily run's day may be (clocks differ a little).
const DAY_CLOCK_SLACK_S: u64 = 3600;

/// The pool of workers that play runs again.
#[derive(Debug)]
pub struct Checker {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
    time: Duration,
}

/// A replay that was read: its mode's kind and its id, before it is played.
pub struct Read {
    replay: Replay,
    kind: &'static dyn ReplayKind,
    /// Its id ([`play_id`]).
    pub id: String,
}

/// A run the server played again, with everything it computed of it.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Its world board.
    pub board: String,
    /// Its place among runs of the board (smaller ranks higher).
    pub standing: i64,
    /// Fixed steps.
    pub ticks: i64,
    /// Its score or time.
    pub summary: String,
    /// The result it played back to, as JSON.
    pub result: String,
    /// The replay as this game writes it.
    pub replay: String,
}

/// A worker, held while a run is read and played.
pub struct Worker(#[expect(dead_code, reason = "held for its drop")] OwnedSemaphorePermit);

impl Checker {
    /// A pool of `workers` workers, with at most `max_waiting` runs waiting for one, each run
    /// played for at most `time`.
    pub fn new(workers: usize, max_waiting: usize, time: Duration) -> Checker {
        Checker {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            waiting: AtomicUsize::new(0),
            max_waiting,
            time,
        }
    }

    /// Whether a new run would be turned away as things stand.
    pub fn full(&self) -> bool {
        self.permits.available_permits() == 0
            && self.waiting.load(Ordering::Relaxed) >= self.max_waiting
    }

    /// A worker, waiting for one when all are busy, or "busy" when too many runs already wait.
    pub async fn worker(&self) -> Result<Worker, Refusal> {
        if let Ok(permit) = Arc::clone(&self.permits).try_acquire_owned() {
            return Ok(Worker(permit));
        }
        let waiting = self.waiting.fetch_add(1, Ordering::AcqRel);
        let permit = if waiting < self.max_waiting {
            Arc::clone(&self.permits).acquire_owned().await.ok()
        } else {
            None
        };
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        permit.map(Worker).ok_or_else(|| {
            Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is checking as many runs as it can; send it again in a minute",
            )
            .retry_after(Duration::from_secs(30))
        })
    }

    /// Reads a replay and names its play, on a blocking thread (the worker held meanwhile).
    pub async fn read(&self, _worker: &Worker, bytes: axum::body::Bytes) -> Result<Read, Refusal> {
        blocking(move || read_replay(&bytes)).await
    }

    /// Plays a read replay again, on a blocking thread, and works out its board and standing.
    pub async fn play(
        &self,
        _worker: &Worker,
        read: Read,
        now_unix_s: u64,
    ) -> Result<Checked, Refusal> {
        let time = self.time;
        blocking(move || play_replay(&read, time, now_unix_s)).await
    }
}

/// Runs `work` on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|err| {
            Err(if err.is_cancelled() {
                // The server is going down: nothing was stored, and another may take it.
                Refusal::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is shutting down; send the run again",
                )
                .retry_after(Duration::from_secs(5))
            } else {
                tracing::error!(error = %err, "checking a run panicked");
                Refusal::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "checking the run failed inside the server",
                )
            })
        })
}

/// A refusal of a file that is no run of this game.
fn unreadable(err: &ReplayError) -> Refusal {
    Refusal::new(StatusCode::BAD_REQUEST, format!("the body is {err}"))
}

/// A refusal of a run that is a replay but goes on no board.
fn unranked(why: impl Into<String>) -> Refusal {
    Refusal::new(StatusCode::UNPROCESSABLE_ENTITY, why)
}

/// The id of a replay's run: a hash of all it says, as this game writes it, but when and by
/// which build it was recorded. Two files of one run have one id however they are spaced, so a
/// run counts once and a copy of another player's run is known for one; a file that claims
/// another result or other fingerprints for the same inputs has another id, and is played.
pub fn play_id(replay: &Replay, kind: &dyn ReplayKind) -> Result<String, ReplayError> {
    let canonical = Replay {
        recorded_unix_s: 0,
        game_version: String::new(),
        ..kind.canonical(replay)?
    };
    Ok(blake3::hash(&replay::to_bytes(&canonical)).to_hex()[..32].to_owned())
}

fn read_replay(bytes: &[u8]) -> Result<Read, Refusal> {
    let replay = replay::parse_bytes(bytes).map_err(|err| unreadable(&err))?;
    let kind = kind_of(&replay, REPLAY_KINDS).map_err(|err| unreadable(&err))?;
    let id = play_id(&replay, kind).map_err(|err| unreadable(&err))?;
    Ok(Read { replay, kind, id })
}

fn play_replay(read: &Read, time: Duration, now_unix_s: u64) -> Result<Checked, Refusal> {
    let Read { replay, kind, .. } = read;
    let deadline = Instant::now() + time;
    let result = replay::verify_while(replay, *kind, &mut || Instant::now() < deadline).map_err(
        |err| match err {
            ReplayError::Invalid(_) => unreadable(&err),
            ReplayError::Diverged { .. } => {
                unranked(format!("the run does not play back as recorded: {err}"))
            }
            ReplayError::OutOfTime { tick } => unranked(format!(
                "playing the run again took longer than the {time:?} the server gives a run (it \
                 had reached step {tick})"
            )),
        },
    )?;
    if result.assisted {
        return Err(unranked(
            "the computer played part of this run (the autopilot or the system walk); world \
             boards list runs players played themselves",
        ));
    }
    let board = world_board_of(replay, *kind).map_err(|err| unreadable(&err))?;
    if let Some(day) = &board.day
        && day.as_str() > date_of(now_unix_s.saturating_add(DAY_CLOCK_SLACK_S)).as_str()
    {
        return Err(unranked(format!(
            "the day {day} has not come yet on the server's clock"
        )));
    }
    let standing = kind.standing(replay).map_err(|err| unreadable(&err))?;
    let standing = i64::try_from(standing)
        .map_err(|_| unranked("the run was not finished, so it has no place on a board"))?;
    let summary = kind.summary(replay).map_err(|err| unreadable(&err))?;
    let ticks = i64::try_from(result.ticks).map_err(|_| unranked("the run is too long"))?;
    Ok(Checked {
        board: board.name,
        standing,
        ticks,
        summary,
        result: serde_json::to_string(&result).unwrap_or_default(),
        replay: String::from_utf8_lossy(&replay::to_bytes(replay)).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_run_waits_for_a_worker_while_there_is_room_and_is_turned_away_after() {
        let checker = Arc::new(Checker::new(1, 1, Duration::from_secs(1)));
        let first = checker.worker().await.unwrap();
        assert!(!checker.full(), "one may still wait");
        let waiting = tokio::spawn({
            let checker = Arc::clone(&checker);
            async move { checker.worker().await.map(|_| ()) }
        });
        while checker.waiting.load(Ordering::Acquire) == 0 {
            tokio::task::yield_now().await;
        }
        assert!(checker.full());
        let Err(busy) = checker.worker().await else {
            panic!("a third run was let wait");
        };
        assert_eq!(
            (busy.status, busy.retry_after_s),
            (StatusCode::SERVICE_UNAVAILABLE, Some(30))
        );
        drop(first);
        assert_eq!(waiting.await.unwrap(), Ok(()));
        assert!(!checker.full());
    }
}
