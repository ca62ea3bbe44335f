//! The game's `submit` and `boards` subcommands against a real server in this process: the
//! game's own binary, as `cargo test` in the game's folder builds it, run with a data folder of
//! its own. Output, exit codes and bad input, as the other subcommands' tests check them.

mod common;

use common::{TestServer, autopilot_run, config, databases, runner_run};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use temple_trails::board_api::{BoardPage, Submitted};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::replay::to_bytes;
use temple_trails::logic::runner::replay::RunnerKind;

/// The game's binary, beside this test's folder in the build folder.
fn game_binary() -> PathBuf {
    let test = std::env::current_exe().unwrap();
    let binary = test
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join(format!("temple-trails{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is missing: run `cargo test` (or `cargo build`) in the game's folder first",
        binary.display()
    );
    binary
}

fn run(home: &Path, args: &[&str]) -> Output {
    Command::new(game_binary())
        .args(args)
        .env("TEMPLE_TRAILS_HOME", home)
        .output()
        .unwrap()
}

/// The file the game keeps the player's identity in, inside its settings' folder.
const PLAYER_FILE: &str = "player.json";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn submit_and_boards_report_what_the_server_did() {
    let database = databases().remove(0);
    let server = TestServer::start(&config(&database));
    let url = server.url("");
    let home = tempfile::tempdir().unwrap();
    let run_file = home.path().join("run.json");
    let replay = runner_run("vine", Difficulty::Normal, 7, 2_000);
    std::fs::write(&run_file, to_bytes(&replay)).unwrap();
    let file = run_file.to_str().unwrap();

    // The first time needs a name, and makes the player.
    let nameless = run(home.path(), &["submit", file, "--server", &url]);
    assert_eq!(
        nameless.status.code(),
        Some(2),
        "{}",
        text(&nameless.stderr)
    );
    assert!(text(&nameless.stderr).contains("--name"));
    assert!(!home.path().join(PLAYER_FILE).exists());
    let sent = run(
        home.path(),
        &["submit", file, "--server", &url, "--name", "Ada"],
    );
    assert_eq!(sent.status.code(), Some(0), "{}", text(&sent.stderr));
    let board = format!("runner/seed-{}/normal", replay.seed);
    let score = replay.result.outcome::<RunnerKind>().unwrap().score;
    let out = text(&sent.stdout);
    assert!(out.contains(&format!("board: {board}\n")), "{out}");
    assert!(out.contains(&format!("result: {score} points\n")), "{out}");
    assert!(out.contains("rank: 1 (with this run)\n"), "{out}");
    assert!(
        out.contains("played again by the server and accepted"),
        "{out}"
    );
    let player_file = home.path().join(PLAYER_FILE);
    assert!(player_file.is_file());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&player_file)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the secret is the player's alone");
    }

    // Sent again, as JSON: the same run, the identity kept.
    let again = run(
        home.path(),
        &["submit", file, "--server", &url, "--format", "json"],
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let again: Submitted = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        (again.board.as_str(), again.new, again.rank),
        (board.as_str(), false, 1)
    );

    let listed = run(home.path(), &["boards", "--server", &url]);
    assert_eq!(text(&listed.stdout), format!("{board}  (1 player)\n"));
    let page = run(home.path(), &["boards", &board, "--server", &url]);
    let page_text = text(&page.stdout);
    assert!(
        page_text.starts_with(&format!("{board}: 1 player\n")),
        "{page_text}"
    );
    assert!(page_text.contains("   1  Ada  "), "{page_text}");
    assert!(
        page_text.contains(&format!("{score} points")),
        "{page_text}"
    );
    let page = run(
        home.path(),
        &["boards", &board, "--server", &url, "--format", "json"],
    );
    let page: BoardPage = serde_json::from_slice(&page.stdout).unwrap();
    assert_eq!(page.rows.len(), 1);
    assert_eq!(page.own.map(|row| row.player), Some("Ada".to_owned()));
}

#[test]
fn submit_refuses_bad_input_and_reports_refusals() {
    let database = databases().remove(0);
    let server = TestServer::start(&config(&database));
    let url = server.url("");
    let home = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = home.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let honest = runner_run("vine", Difficulty::Hard, 8, 1_500);
    let mut forged = honest.clone();
    forged
        .result
        .edit::<RunnerKind>(|outcome| outcome.score += 1000)
        .unwrap();
    let forged_at = format!("diverged at tick {}:", honest.result.ticks);
    let cases: [(&str, Vec<String>, i32, &str); 8] = [
        (
            "a missing file",
            vec!["submit".into(), "/nonexistent/run.json".into()],
            2,
            "cannot read",
        ),
        (
            "no replay",
            vec!["submit".into(), write("notes.txt", b"hello")],
            2,
            "not a replay",
        ),
        (
            "an address that is not http",
            vec![
                "submit".into(),
                write("ok.json", &to_bytes(&honest)),
                "--server".into(),
                "ftp://x".into(),
            ],
            2,
            "http://",
        ),
        (
            "a name with a line break",
            vec![
                "submit".into(),
                write("ok.json", &to_bytes(&honest)),
                "--name".into(),
                "a\nb".into(),
            ],
            2,
            "character",
        ),
        (
            "a forged score",
            vec![
                "submit".into(),
                write("forged.json", &to_bytes(&forged)),
                "--name".into(),
                "Bo".into(),
            ],
            1,
            &forged_at,
        ),
        (
            "the autopilot's run",
            vec![
                "submit".into(),
                write("auto.json", &to_bytes(&autopilot_run("vine", 300))),
            ],
            1,
            "computer played",
        ),
        (
            "a page past the limit",
            vec![
                "boards".into(),
                "runner/normal".into(),
                "--limit".into(),
                "101".into(),
            ],
            2,
            "101",
        ),
        (
            "a server that is not there",
            vec![
                "boards".into(),
                "--server".into(),
                "http://127.0.0.1:9".into(),
            ],
            1,
            "did not answer",
        ),
    ];
    for (what, mut args, code, says) in cases {
        if !args.iter().any(|arg| arg == "--server") {
            args.extend(["--server".to_owned(), url.clone()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = run(home.path(), &args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{what}: {stderr}");
        assert!(stderr.contains(says), "{what}: {stderr}");
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(output.stdout.is_empty(), "{what}");
    }
}
