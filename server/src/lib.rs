//! The Temple Trails board server: world boards on which every listed run was played again by
//! the server with the game's own logic.
//!
//! A player sends a replay; the server reads it within the bounds the game's replays keep
//! (size, steps, inputs), plays it again on a bounded pool of workers ([`checking`]), and stores
//! the result it computed itself, never one sent to it ([`store`]). Boards list each player's
//! best run. Submissions are limited per player and per address ([`limits`]); every refusal is a
//! JSON message with the right status ([`refusal`]). The paths are in [`routes`]; what they take
//! and give is the game's `board_api`, which the game and its command line use as clients.

pub mod checking;
pub mod limits;
pub mod refusal;
pub mod routes;
pub mod store;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post, put};
use checking::Checker;
use limits::SubmitLimits;
use routes::Shared;
use std::future::Future;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;
use store::{Store, StoreError};
use temple_trails::logic::replay::limits::MAX_REPLAY_BYTES;
use tokio::net::TcpListener;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

/// How often the rate limiters forget senders who went quiet.
const FORGET_IDLE_EVERY: Duration = Duration::from_secs(60);

/// How a server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// The database: `sqlite://FILE` or a `postgres://` URL.
    pub database: String,
    /// The largest request body, in bytes (a replay is at most the game's own limit).
    pub max_request_bytes: usize,
    /// Runs one player may submit a minute.
    pub per_player_per_minute: NonZeroU32,
    /// Runs one address may submit a minute.
    pub per_address_per_minute: NonZeroU32,
    /// Runs played again at once.
    pub workers: usize,
    /// Runs that may wait for a worker; more are answered "busy".
    pub waiting: usize,
    /// The longest one run may take to play again.
    pub check_time: Duration,
}

impl Config {
    /// The defaults, with this database: 4 MiB requests (a replay of over an hour), 10 runs a
    /// player and 30 an address a minute, a worker per core with four runs waiting for each,
    /// 20 s a run.
    pub fn new(database: impl Into<String>) -> Config {
        let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
        Config {
            database: database.into(),
            max_request_bytes: 4 * 1024 * 1024,
            per_player_per_minute: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
            per_address_per_minute: NonZeroU32::new(30).unwrap_or(NonZeroU32::MIN),
            workers: cores,
            waiting: 4 * cores,
            check_time: Duration::from_secs(20),
        }
    }

    /// Refuses settings no server can run with.
    pub fn check(&self) -> Result<(), String> {
        let most = usize::try_from(MAX_REPLAY_BYTES).unwrap_or(usize::MAX);
        if !(1024..=most).contains(&self.max_request_bytes) {
            return Err(format!(
                "the request limit is 1024 to {most} bytes (the largest replay), not {}",
                self.max_request_bytes
            ));
        }
        if !(1..=256).contains(&self.workers) {
            return Err(format!("workers are 1 to 256, not {}", self.workers));
        }
        if self.waiting > 10_000 {
            return Err(format!("at most 10000 runs may wait, not {}", self.waiting));
        }
        if !(Duration::from_millis(1)..=Duration::from_secs(600)).contains(&self.check_time) {
            return Err(format!(
                "a run's check time is 1 ms to 600 s, not {:?}",
                self.check_time
            ));
        }
        Ok(())
    }
}

/// Why a server could not start.
#[derive(Debug)]
pub enum StartError {
    /// The settings are out of range.
    Config(String),
    /// The database could not be opened or its schema made.
    Store(StoreError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Config(why) => write!(f, "{why}"),
            StartError::Store(err) => write!(f, "cannot open the database: {err}"),
        }
    }
}

impl std::error::Error for StartError {}

/// A server ready to answer: its routes over an open database.
#[derive(Debug)]
pub struct Boards {
    shared: Arc<Shared>,
    max_request_bytes: usize,
}

impl Boards {
    /// Checks the settings and opens the database (making its schema when it is new).
    pub async fn open(config: &Config) -> Result<Boards, StartError> {
        config.check().map_err(StartError::Config)?;
        let store = Store::open(&config.database)
            .await
            .map_err(StartError::Store)?;
        Ok(Boards {
            shared: Arc::new(Shared {
                store,
                checker: Checker::new(config.workers, config.waiting, config.check_time),
                limits: SubmitLimits::new(
                    config.per_player_per_minute,
                    config.per_address_per_minute,
                ),
            }),
            max_request_bytes: config.max_request_bytes,
        })
    }

    /// The routes.
    pub fn router(&self) -> Router {
        Router::new()
            .route("/health", get(routes::health))
            .route("/ready", get(routes::ready))
            .route("/player", put(routes::put_player))
            .route("/runs", post(routes::submit))
            .route("/runs/{id}", get(routes::run_replay))
            .route("/boards", get(routes::boards))
            .route("/boards/{*board}", get(routes::board))
            .layer(DefaultBodyLimit::max(self.max_request_bytes))
            .layer(
                // A line for each answer, with its status and how long it took.
                TraceLayer::new_for_http()
                    .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                    .on_response(DefaultOnResponse::new().level(Level::INFO)),
            )
            .with_state(Arc::clone(&self.shared))
    }

    /// Answers requests on `listener` until `shutdown` completes, then finishes the requests
    /// under way and closes the database.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let shared = Arc::clone(&self.shared);
        let forgetting = tokio::spawn(async move {
            let mut every = tokio::time::interval(FORGET_IDLE_EVERY);
            loop {
                every.tick().await;
                shared.limits.forget_idle();
            }
        });
        let app = self
            .router()
            .into_make_service_with_connect_info::<SocketAddr>();
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await;
        forgetting.abort();
        self.shared.store.close().await;
        served
    }
}
