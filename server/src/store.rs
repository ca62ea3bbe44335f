//! The boards' database: players, the runs the server accepted, and each player's best run of
//! each board. One table layout and one set of queries serve SQLite (a file, the embedded
//! default) and PostgreSQL (shared by several servers), through sqlx's Any driver; the schema is
//! made by the embedded migrations when the store opens. A run and the best it may become are
//! written in one transaction, so a run is either wholly stored or not at all.

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use std::time::Duration;
use temple_trails::board_api::{BoardCount, BoardRow};

/// The schema, from `migrations/`.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The most connections one server holds to PostgreSQL.
const MAX_CONNECTIONS: u32 = 8;
/// The most connections to a SQLite file: in WAL mode readers do not wait for the writer, and
/// writers wait their turn (sqlx's busy timeout) rather than fail.
const MAX_SQLITE_CONNECTIONS: u32 = 4;
/// How long a request waits for a connection before it fails.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);

/// A database error, as the store reports it.
pub type StoreError = sqlx::Error;

/// The database of the boards.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
}

/// What `PUT /player` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerPut {
    /// A new player.
    Made,
    /// The player was there; the name is stored.
    Renamed,
    /// The id is another player's: the secret does not match.
    WrongSecret,
}

/// A run the server played again, ready to store.
#[derive(Debug, Clone)]
pub struct NewRun {
    /// The hash of its play.
    pub id: String,
    /// Who sent it.
    pub player_id: String,
    /// Its world board.
    pub board: String,
    /// Its place among runs of the board (smaller ranks higher).
    pub standing: i64,
    /// Fixed steps.
    pub ticks: i64,
    /// Its score or time, as boards show it.
    pub summary: String,
    /// The result the server computed, as JSON.
    pub result: String,
    /// When it was accepted.
    pub submitted_unix_s: i64,
    /// The replay, as this game writes it.
    pub replay: String,
}

/// What storing a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stored {
    /// The run is stored, new or (`new: false`) already there from this player.
    Kept {
        /// Whether this request stored it.
        new: bool,
        /// Its board (the stored one, when it was there already).
        board: String,
        /// Its score or time.
        summary: String,
    },
    /// The same play is another player's.
    Others,
}

/// A stored run as the submitting player finds it: its board and summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownRun {
    /// Who sent it first.
    pub player_id: String,
    /// Its board.
    pub board: String,
    /// Its score or time.
    pub summary: String,
}

/// The start of a query of boards' rows: the columns [`board_row`] reads, in its order, from
/// the bests with their players and runs.
macro_rules! select_rows {
    ($($rest:literal),*) => {
        concat!(
            "SELECT b.run_id, p.name, r.summary, r.ticks, b.submitted_unix_s, b.standing \
             FROM bests b JOIN players p ON p.id = b.player_id JOIN runs r ON r.id = b.run_id ",
            $($rest),*
        )
    };
}

impl Store {
    /// Opens the database at `url` (`sqlite://boards.db`, made when missing, or a
    /// `postgres://` URL) and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains("mode=") {
            // Make the file on the first start, as the README's command expects.
            let join = if url.contains('?') { '&' } else { '?' };
            format!("{url}{join}mode=rwc")
        } else {
            url.to_owned()
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite {
                MAX_SQLITE_CONNECTIONS
            } else {
                MAX_CONNECTIONS
            })
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if sqlite {
                        // A commit is on disk before the server answers: a restart, or the
                        // machine losing power, keeps every accepted run.
                        sqlx::query("PRAGMA journal_mode = WAL")
                            .execute(&mut *connection)
                            .await?;
                        sqlx::query("PRAGMA synchronous = FULL")
                            .execute(&mut *connection)
                            .await?;
                        sqlx::query("PRAGMA foreign_keys = ON")
                            .execute(&mut *connection)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool })
    }

    /// Whether the database answers.
    pub async fn ready(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// Closes the connections.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Makes the player, or renames them when the secret's hash matches the stored one.
    pub async fn put_player(
        &self,
        id: &str,
        secret_hash: &str,
        name: &str,
        now_unix_s: i64,
    ) -> Result<PlayerPut, StoreError> {
        let made = sqlx::query(
            "INSERT INTO players (id, secret_hash, name, joined_unix_s) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(secret_hash)
        .bind(name)
        .bind(now_unix_s)
        .execute(&self.pool)
        .await?;
        if made.rows_affected() == 1 {
            return Ok(PlayerPut::Made);
        }
        let renamed =
            sqlx::query("UPDATE players SET name = $1 WHERE id = $2 AND secret_hash = $3")
                .bind(name)
                .bind(id)
                .bind(secret_hash)
                .execute(&self.pool)
                .await?;
        Ok(if renamed.rows_affected() == 1 {
            PlayerPut::Renamed
        } else {
            PlayerPut::WrongSecret
        })
    }

    /// The stored hash of a player's secret, if the player exists.
    pub async fn secret_hash(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT secret_hash FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| row.try_get(0)).transpose()
    }

    /// A stored run's sender, board and summary.
    pub async fn known_run(&self, id: &str) -> Result<Option<KnownRun>, StoreError> {
        let row = sqlx::query("SELECT player_id, board, summary FROM runs WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| {
            Ok(KnownRun {
                player_id: row.try_get(0)?,
                board: row.try_get(1)?,
                summary: row.try_get(2)?,
            })
        })
        .transpose()
    }

    /// Stores a run and makes it its player's best on its board when it ranks higher than the
    /// one there, in one transaction.
    pub async fn add_run(&self, run: &NewRun) -> Result<Stored, StoreError> {
        let mut transaction = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO runs (id, player_id, board, standing, ticks, summary, result, \
             submitted_unix_s, replay) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(&run.id)
        .bind(&run.player_id)
        .bind(&run.board)
        .bind(run.standing)
        .bind(run.ticks)
        .bind(&run.summary)
        .bind(&run.result)
        .bind(run.submitted_unix_s)
        .bind(&run.replay)
        .execute(&mut *transaction)
        .await?;
        if inserted.rows_affected() == 0 {
            // Sent before (or at the same moment): what is stored counts.
            transaction.rollback().await?;
            return Ok(match self.known_run(&run.id).await? {
                Some(known) if known.player_id == run.player_id => Stored::Kept {
                    new: false,
                    board: known.board,
                    summary: known.summary,
                },
                _ => Stored::Others,
            });
        }
        sqlx::query(
            "INSERT INTO bests (board, player_id, run_id, standing, submitted_unix_s) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (board, player_id) DO UPDATE SET run_id = excluded.run_id, \
             standing = excluded.standing, submitted_unix_s = excluded.submitted_unix_s \
             WHERE excluded.standing < bests.standing",
        )
        .bind(&run.board)
        .bind(&run.player_id)
        .bind(&run.id)
        .bind(run.standing)
        .bind(run.submitted_unix_s)
        .execute(&mut *transaction)
        .await?;
        transaction.commit().await?;
        Ok(Stored::Kept {
            new: true,
            board: run.board.clone(),
            summary: run.summary.clone(),
        })
    }

    /// The rows `offset..offset + limit` of a board, best first, and how many players it has.
    pub async fn board(
        &self,
        board: &str,
        offset: u32,
        limit: u32,
    ) -> Result<(u64, Vec<BoardRow>), StoreError> {
        let players: i64 = sqlx::query("SELECT COUNT(*) FROM bests WHERE board = $1")
            .bind(board)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        let rows = sqlx::query(select_rows!(
            "WHERE b.board = $1 ORDER BY b.standing, b.submitted_unix_s, b.run_id ",
            "LIMIT $2 OFFSET $3"
        ))
        .bind(board)
        .bind(i64::from(limit))
        .bind(i64::from(offset))
        .fetch_all(&self.pool)
        .await?;
        let rows = rows
            .iter()
            .zip(u64::from(offset) + 1..)
            .map(|(row, rank)| board_row(row, rank))
            .collect::<Result<_, _>>()?;
        Ok((to_u64(players), rows))
    }

    /// A player's row on a board, with its rank, if they have a run there.
    pub async fn player_row(
        &self,
        board: &str,
        player_id: &str,
    ) -> Result<Option<BoardRow>, StoreError> {
        let Some(row) = sqlx::query(select_rows!("WHERE b.board = $1 AND b.player_id = $2"))
            .bind(board)
            .bind(player_id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let (run_id, submitted, standing): (String, i64, i64) =
            (row.try_get(0)?, row.try_get(4)?, row.try_get(5)?);
        let ahead: i64 = sqlx::query(
            "SELECT COUNT(*) FROM bests WHERE board = $1 AND (standing < $2 \
             OR (standing = $2 AND (submitted_unix_s < $3 \
             OR (submitted_unix_s = $3 AND run_id < $4))))",
        )
        .bind(board)
        .bind(standing)
        .bind(submitted)
        .bind(&run_id)
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?;
        board_row(&row, to_u64(ahead) + 1).map(Some)
    }

    /// The boards with runs, the most recently played first.
    pub async fn boards(&self, limit: u32) -> Result<Vec<BoardCount>, StoreError> {
        let rows = sqlx::query(
            "SELECT board, COUNT(*) FROM bests GROUP BY board \
             ORDER BY MAX(submitted_unix_s) DESC, board LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(BoardCount {
                    board: row.try_get(0)?,
                    players: to_u64(row.try_get(1)?),
                })
            })
            .collect()
    }

    /// A stored run's replay.
    pub async fn replay(&self, run_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT replay FROM runs WHERE id = $1")
            .bind(run_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| row.try_get(0)).transpose()
    }
}

/// A count or a time from the database as the API writes it (never negative).
fn to_u64(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

/// A board's row from the columns [`select_rows`] selects.
fn board_row(row: &sqlx::any::AnyRow, rank: u64) -> Result<BoardRow, StoreError> {
    Ok(BoardRow {
        rank,
        run: row.try_get(0)?,
        player: row.try_get(1)?,
        summary: row.try_get(2)?,
        ticks: to_u64(row.try_get(3)?),
        submitted_unix_s: to_u64(row.try_get(4)?),
    })
}
