//! `temple-trails submit FILE --server URL` sends a replay to a board server, which plays it
//! again and ranks it; `temple-trails boards [BOARD] --server URL` lists the boards, or a page of
//! one. The player's identity is the game's (`player.json` beside the settings), made on the
//! first submission with `--name`. Exit codes as elsewhere: 0 done, 1 refused or no answer, 2 a
//! file that is no replay or arguments that cannot be used.

use super::args::Format;
use super::replay::read_bounded;
use super::{CliError, render};
use crate::board_api::{BoardPage, BoardRow, MAX_PAGE_ROWS};
use crate::board_client::{
    BoardClient, ClientError, PlayerFile, PlayerIdentity, load_player, save_player,
};
use crate::game::storage::StorageDir;
use crate::logic::replay::limits::MAX_REPLAY_BYTES;
use crate::logic::replay::{self, printable};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `temple-trails submit`.
#[derive(Debug, clap::Args)]
pub struct SubmitArgs {
    /// The replay file (as the game and `--record` write it).
    pub file: PathBuf,
    /// The board server: http://HOST[:PORT].
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The name boards show for you (needed the first time; given again, it renames you).
    #[arg(long)]
    pub name: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Arguments of `temple-trails boards`.
#[derive(Debug, clap::Args)]
pub struct BoardsArgs {
    /// The board (`runner/daily-2026-12-02/normal`); without one, the boards are listed.
    pub board: Option<String>,
    /// The board server: http://HOST[:PORT].
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// Rows skipped from the top.
    #[arg(long, default_value_t = 0)]
    pub offset: u32,
    /// Rows shown (1 to 100).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PAGE_ROWS)))]
    pub limit: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A refusal or silence of the server, with the exit code it ends with: a file the server
/// says is no replay is the caller's (2), anything else a failure (1).
fn client_error(err: ClientError) -> CliError {
    match err {
        ClientError::Refused { status: 400, .. } => CliError::usage(err.to_string()),
        _ => CliError::failure(err.to_string()),
    }
}

fn client(server: &str) -> Result<BoardClient, CliError> {
    BoardClient::new(server).map_err(CliError::usage)
}

/// The player's identity: the kept one (renamed when `name` differs), or a new one when there is
/// none and a name is given.
fn identity(name: Option<&str>) -> Result<PlayerIdentity, CliError> {
    let folders = StorageDir::from_env()
        .ok_or_else(|| CliError::failure("this system has no folder for the game's settings"))?;
    let loaded = load_player(&folders.config);
    if let Some(warning) = &loaded.warning {
        eprintln!("temple-trails: {warning}");
    }
    let kept = loaded.value.player;
    let player = match (kept, name) {
        (Some(kept), None) => return Ok(kept),
        (Some(kept), Some(name)) => PlayerIdentity {
            name: crate::board_api::check_player_name(name).map_err(CliError::usage)?,
            ..kept
        },
        (None, Some(name)) => PlayerIdentity::new(name).map_err(CliError::usage)?,
        (None, None) => {
            return Err(CliError::usage(
                "give --name NAME the first time: it is the name boards show for you",
            ));
        }
    };
    if !loaded.writable {
        return Err(CliError::failure(
            "the damaged player file could not be set aside, so it is not overwritten",
        ));
    }
    let file = PlayerFile {
        player: Some(player.clone()),
    };
    save_player(&folders.config, &file)
        .map_err(|err| CliError::failure(format!("cannot save the player file: {err}")))?;
    Ok(player)
}

/// Reads the replay, sends it with the player's identity, and reports where it ranks.
pub fn submit(args: &SubmitArgs) -> Result<String, CliError> {
    let client = client(&args.server)?;
    let bytes = read_bounded(&args.file, MAX_REPLAY_BYTES)
        .map_err(|err| CliError::usage(format!("cannot read {}: {err}", args.file.display())))?;
    replay::parse_bytes(&bytes)
        .map_err(|err| CliError::usage(format!("{} is {err}", args.file.display())))?;
    let player = identity(args.name.as_deref())?;
    client.register(&player).map_err(client_error)?;
    let submitted = client.submit(&player, &bytes).map_err(client_error)?;
    render(args.format, &submitted, |submitted| {
        format!(
            "board: {}\nrun: {}\nresult: {}\nrank: {}{}\n{}\n",
            printable(&submitted.board, 200),
            submitted.run,
            printable(&submitted.summary, 200),
            submitted.rank,
            if submitted.best {
                " (with this run)"
            } else {
                " (with a better run of yours)"
            },
            if submitted.new {
                "played again by the server and accepted"
            } else {
                "the server had this run already"
            },
        )
    })
}

/// Lists the boards, or a page of one with the player's own row when they have one.
pub fn boards(args: &BoardsArgs) -> Result<String, CliError> {
    let client = client(&args.server)?;
    let Some(board) = &args.board else {
        let list = client.boards().map_err(client_error)?;
        return render(args.format, &list, |list| {
            list.boards.iter().fold(String::new(), |mut text, board| {
                let _ = writeln!(
                    text,
                    "{}  ({})",
                    printable(&board.board, 200),
                    players(board.players)
                );
                text
            })
        });
    };
    // Only a kept identity is asked about: looking at boards makes no player.
    let player = StorageDir::from_env()
        .map(|folders| load_player(&folders.config).value.player)
        .and_then(|player| player.map(|player| player.id));
    let page = client
        .board(board, args.offset, args.limit, player.as_deref())
        .map_err(client_error)?;
    render(args.format, &page, page_text)
}

/// "1 player", "2 players".
fn players(count: u64) -> String {
    if count == 1 {
        "1 player".to_owned()
    } else {
        format!("{count} players")
    }
}

fn row_text(row: &BoardRow) -> String {
    format!(
        "{:>4}  {:<24}  {}  ({})",
        row.rank,
        printable(&row.player, 24),
        printable(&row.summary, 80),
        crate::logic::replay::boards::date_of(row.submitted_unix_s)
    )
}

fn page_text(page: &BoardPage) -> String {
    let mut text = format!(
        "{}: {}\n",
        printable(&page.board, 200),
        players(page.players)
    );
    for row in &page.rows {
        text += &row_text(row);
        text.push('\n');
    }
    if let Some(own) = &page.own
        && !page.rows.iter().any(|row| row.run == own.run)
    {
        text += "  ...\n";
        text += &row_text(own);
        text.push('\n');
    }
    text
}
