//! What the server's tests share: a server started in this process on 127.0.0.1 over a fresh
//! database (a temporary SQLite file, and a PostgreSQL database of its own when
//! `TEMPLE_TRAILS_TEST_POSTGRES` gives a server's URL), a blocking HTTP client as the game's,
//! players, and real runs to send.
#![allow(
    dead_code,
    reason = "each test file uses a different part of these helpers"
)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sqlx::Connection;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use temple_trails::board_api::bearer;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::maze::replay::MazeKind;
use temple_trails::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use temple_trails::logic::maze::{Algorithm, Direction, MazeSpec};
use temple_trails::logic::replay::{Replay, ReplayHeader, record, replay_of, to_bytes};
use temple_trails::logic::runner::body::Command;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};
use temple_trails::logic::seed::parse_seed;
use temple_trails_server::{Boards, Config};
use tokio::sync::oneshot;

/// The variable that names a PostgreSQL server for the tests (`postgres://user@host/db`): each
/// test makes a database of its own there.
pub const POSTGRES_VARIABLE: &str = "TEMPLE_TRAILS_TEST_POSTGRES";

/// A database for one test, removed when dropped (a temporary file's folder; a PostgreSQL
/// database is left for the cluster's owner, named `temple_trails_test_*`).
pub struct TestDatabase {
    /// What it is, for messages.
    pub name: &'static str,
    /// The server's `--database`.
    pub url: String,
    _folder: Option<tempfile::TempDir>,
}

/// A fresh SQLite file, and a fresh PostgreSQL database when one is given.
pub fn databases() -> Vec<TestDatabase> {
    let folder = tempfile::tempdir().unwrap();
    let mut databases = vec![TestDatabase {
        name: "SQLite",
        url: format!("sqlite://{}", folder.path().join("boards.db").display()),
        _folder: Some(folder),
    }];
    if let Ok(admin) = std::env::var(POSTGRES_VARIABLE) {
        databases.push(TestDatabase {
            name: "PostgreSQL",
            url: fresh_postgres_database(&admin),
            _folder: None,
        });
    }
    databases
}

/// Makes an empty database on the PostgreSQL server of `admin` and gives its URL.
fn fresh_postgres_database(admin: &str) -> String {
    static MADE: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let name = format!(
        "temple_trails_test_{}_{}_{nanos}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    );
    block_on(async {
        let mut connection = sqlx::AnyConnection::connect(admin).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut connection)
            .await
            .unwrap();
        connection.close().await.unwrap();
    });
    let (base, _) = admin.rsplit_once('/').unwrap();
    format!("{base}/{name}")
}

/// Runs `work` to its end on a runtime of its own, with sqlx's drivers installed: what a test
/// does to a database behind the server's back.
pub fn block_on<F: std::future::Future>(work: F) -> F::Output {
    sqlx::any::install_default_drivers();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(work)
}

/// Settings for tests: limits far above what a test sends unless it tests them.
pub fn config(database: &TestDatabase) -> Config {
    let mut config = Config::new(&database.url);
    config.per_player_per_minute = 10_000.try_into().unwrap();
    config.per_address_per_minute = 10_000.try_into().unwrap();
    config.workers = 2;
    config.waiting = 64;
    config
}

/// A server answering on 127.0.0.1 from a thread of its own.
pub struct TestServer {
    /// Where it listens.
    pub address: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    kill: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Opens the database and starts answering on a free port.
    pub fn start(config: &Config) -> TestServer {
        let config = config.clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let (kill, killed) = oneshot::channel::<()>();
        let (listening, address) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let boards = Boards::open(&config).await.unwrap();
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                listening.send(listener.local_addr().unwrap()).unwrap();
                let stopped = async {
                    let _ = stopped.await;
                };
                tokio::select! {
                    served = boards.serve(listener, stopped) => served.unwrap(),
                    _ = killed => {}
                }
            });
            // A stop drops whatever is still running (a killed server), without waiting.
            runtime.shutdown_timeout(Duration::ZERO);
        });
        TestServer {
            address: address.recv_timeout(Duration::from_secs(60)).unwrap(),
            stop: Some(stop),
            kill: Some(kill),
            thread: Some(thread),
        }
    }

    /// The URL of a path on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Stops it: requests under way are finished, then the database is closed.
    pub fn stop(mut self) {
        self.halt();
    }

    /// The switch that kills it as a crash would: every request under way is dropped where it
    /// stands, at its next wait (a database write among them), and the database is not closed.
    /// [`TestServer::stop`] then waits for its thread.
    pub fn kill_switch(&mut self) -> KillSwitch {
        KillSwitch(self.kill.take().unwrap())
    }

    fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.halt();
    }
}

/// What kills a server when pulled.
pub struct KillSwitch(oneshot::Sender<()>);

impl KillSwitch {
    /// Kills the server.
    pub fn pull(self) {
        let _ = self.0.send(());
    }
}

/// An answer: its status, `Retry-After` and body.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// Seconds in the `Retry-After` header.
    pub retry_after: Option<u64>,
    /// The body as text.
    pub body: String,
}

impl Answer {
    /// The body read as `T`.
    pub fn json<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_str(&self.body).unwrap_or_else(|err| panic!("{err}: {}", self.body))
    }

    /// The `error` of a refusal's body.
    pub fn error(&self) -> String {
        self.json::<temple_trails::board_api::ApiError>().error
    }
}

/// A blocking HTTP client that reads every status's body, as the game's does.
pub fn client() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

fn answer(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
    try_answer(response).unwrap()
}

fn try_answer(
    response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<Answer, ureq::Error> {
    let mut response = response?;
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok()?.parse().ok());
    Ok(Answer {
        status: response.status().as_u16(),
        retry_after,
        body: response.body_mut().read_to_string()?,
    })
}

/// `GET path`.
pub fn get(server: &TestServer, path: &str) -> Answer {
    answer(client().get(&server.url(path)).call())
}

/// A player: an id, a secret and a name.
#[derive(Debug, Clone)]
pub struct Player {
    /// 32 hexadecimal digits.
    pub id: String,
    /// 64 hexadecimal digits.
    pub secret: String,
    /// The display name.
    pub name: String,
}

impl Player {
    /// A player of random id and secret.
    pub fn new(name: &str, rng: &mut ChaCha8Rng) -> Player {
        let hex = |rng: &mut ChaCha8Rng, words: usize| {
            (0..words)
                .map(|_| format!("{:016x}", rng.next_u64()))
                .collect::<String>()
        };
        Player {
            id: hex(rng, 2),
            secret: hex(rng, 4),
            name: name.to_owned(),
        }
    }

    /// `PUT /player` with this player's name.
    pub fn register(&self, server: &TestServer) -> Answer {
        answer(
            client()
                .put(&server.url("/player"))
                .header("Authorization", &bearer(&self.id, &self.secret))
                .send_json(serde_json::json!({ "name": self.name })),
        )
    }

    /// `POST /runs` with these bytes.
    pub fn submit_bytes(&self, server: &TestServer, bytes: &[u8]) -> Answer {
        self.try_submit_bytes(server, bytes).unwrap()
    }

    /// `POST /runs` with these bytes, or the error of a server that is gone.
    pub fn try_submit_bytes(
        &self,
        server: &TestServer,
        bytes: &[u8],
    ) -> Result<Answer, ureq::Error> {
        try_answer(
            client()
                .post(&server.url("/runs"))
                .header("Authorization", &bearer(&self.id, &self.secret))
                .header("Content-Type", "application/json")
                .send(bytes),
        )
    }

    /// `POST /runs` with a replay.
    pub fn submit(&self, server: &TestServer, replay: &Replay) -> Answer {
        self.submit_bytes(server, &to_bytes(replay))
    }
}

fn header(seed_text: &str, difficulty: Difficulty) -> ReplayHeader {
    let seed = parse_seed(seed_text).unwrap();
    ReplayHeader::new(seed, seed_text.to_owned(), difficulty, 1_796_000_000)
}

/// A runner run a player played on `seed_text`: random lane changes, jumps and slides drawn
/// from `draw`, until the run ends or `ticks` steps pass.
pub fn runner_run(seed_text: &str, difficulty: Difficulty, draw: u64, ticks: u64) -> Replay {
    let head = header(seed_text, difficulty);
    let mut sim = RunnerSim::new(head.seed, difficulty);
    let mut draws = ChaCha8Rng::seed_from_u64(draw);
    let recorder = record(
        &mut sim,
        |sim| sim.tick >= ticks,
        |_, _| {
            let command = match draws.next_u32() % 40 {
                0 => Command::Left,
                1 => Command::Right,
                2 => Command::Jump,
                3 => Command::Slide,
                _ => return Vec::new(),
            };
            vec![RunnerInput::Command(command)]
        },
    );
    replay_of::<RunnerKind>(head, &sim, &recorder)
}

/// The autopilot running `seed_text` for `ticks` steps: an assisted run.
pub fn autopilot_run(seed_text: &str, ticks: u64) -> Replay {
    let head = header(seed_text, Difficulty::Normal);
    let mut sim = RunnerSim::new(head.seed, Difficulty::Normal);
    let recorder = record(
        &mut sim,
        |sim| sim.tick >= ticks,
        |tick, _| {
            if tick == 0 {
                vec![RunnerInput::Autopilot(true)]
            } else {
                Vec::new()
            }
        },
    );
    replay_of::<RunnerKind>(head, &sim, &recorder)
}

/// A maze of `seed_text` walked to its exit by the shortest way, a step every `pace` steps of
/// the clock, with `hints` hints asked for on the way.
pub fn maze_run(seed_text: &str, side: usize, pace: u64, hints: usize) -> Replay {
    let head = header(seed_text, Difficulty::Normal);
    let setup = MazeSetup::first_level(
        MazeSpec {
            width: side,
            height: side,
            algorithm: Algorithm::Prim,
            braid: 0.0,
            seed: head.seed,
        },
        Difficulty::Normal,
    );
    let mut run = MazeRun::new(setup, false).unwrap();
    let mut asked = 0;
    let recorder = record(
        &mut run,
        |_| false,
        |tick, run| {
            if !tick.is_multiple_of(pace) {
                return Vec::new();
            }
            if asked < hints {
                asked += 1;
                return vec![MazeInput::Hint];
            }
            let here = run.player;
            let next = run.next_cell_to_exit().unwrap();
            let toward = Direction::ALL
                .into_iter()
                .find(|&direction| run.maze.neighbour(here, direction) == Some(next))
                .unwrap();
            vec![MazeInput::Step(toward)]
        },
    );
    replay_of::<MazeKind>(head, &run, &recorder)
}
