//! `temple-trails-server`: the board server. It listens on an address, keeps its boards in a
//! SQLite file or a PostgreSQL database, and logs one line a request (JSON with `--log json`).

use clap::{Parser, ValueEnum};
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::process::ExitCode;
use std::time::Duration;
use temple_trails_server::{Boards, Config};
use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum LogFormat {
    /// Lines for a person.
    Text,
    /// One JSON object a line, for a log collector.
    Json,
}

/// The Temple Trails board server: world boards on which every run was played again.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The database: sqlite://FILE (made when missing) or postgres://USER@HOST/DATABASE.
    #[arg(long)]
    database: String,
    /// The largest request body, in bytes.
    #[arg(long, default_value_t = 4 * 1024 * 1024)]
    max_request_bytes: usize,
    /// Runs one player may submit a minute.
    #[arg(long, default_value_t = NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN))]
    per_player_per_minute: NonZeroU32,
    /// Runs one address may submit a minute.
    #[arg(long, default_value_t = NonZeroU32::new(30).unwrap_or(NonZeroU32::MIN))]
    per_address_per_minute: NonZeroU32,
    /// Runs played again at once (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Runs that may wait for a worker before the server answers "busy" (default: four per
    /// worker).
    #[arg(long)]
    waiting: Option<usize>,
    /// The longest one run may take to play again, in seconds.
    #[arg(long, default_value_t = 20)]
    check_seconds: u64,
    /// How log lines are written.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log: LogFormat,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info,sqlx=warn"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal());
    match args.log {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
    let mut config = Config::new(args.database);
    config.max_request_bytes = args.max_request_bytes;
    config.per_player_per_minute = args.per_player_per_minute;
    config.per_address_per_minute = args.per_address_per_minute;
    if let Some(workers) = args.workers {
        config.workers = workers;
        config.waiting = 4 * workers;
    }
    if let Some(waiting) = args.waiting {
        config.waiting = waiting;
    }
    config.check_time = Duration::from_secs(args.check_seconds);
    let boards = match Boards::open(&config).await {
        Ok(boards) => boards,
        Err(err) => {
            eprintln!("temple-trails-server: {err}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(args.listen).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!(
                "temple-trails-server: cannot listen on {}: {err}",
                args.listen
            );
            return ExitCode::from(2);
        }
    };
    tracing::info!(address = %args.listen, workers = config.workers, "listening");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
    };
    match boards.serve(listener, shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("temple-trails-server: {err}");
            ExitCode::FAILURE
        }
    }
}
