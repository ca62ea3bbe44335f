//! The game's outbox against a real server: runs queued while the server cannot be reached wait
//! on disk, go once it answers, and count once when sent again; runs the server refuses are set
//! aside with the reason, never deleted.

mod common;

use common::{TestServer, autopilot_run, config, databases, runner_run};
use std::path::Path;
use temple_trails::board_api::BoardPage;
use temple_trails::board_client::{BoardClient, ClientError, PlayerIdentity};
use temple_trails::board_outbox::{
    MAX_WAITING, OUTBOX_FOLDER, QueueError, REFUSED_FOLDER, Sent, queue, send_waiting, waiting,
};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::replay::to_bytes;
use temple_trails::logic::runner::replay::RunnerKind;

fn files_in(folder: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.file_type().unwrap().is_file())
                .map(|entry| std::fs::read(entry.path()).unwrap())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn runs_wait_for_the_server_go_once_and_refused_ones_are_set_aside() {
    let data = tempfile::tempdir().unwrap();
    let honest = runner_run("fern", Difficulty::Normal, 2, 2_000);
    let assisted = autopilot_run("fern", 400);
    let mut forged = runner_run("fern", Difficulty::Normal, 3, 2_000);
    forged
        .result
        .edit::<RunnerKind>(|outcome| outcome.score *= 10)
        .unwrap();
    for run in [&honest, &assisted, &forged] {
        queue(data.path(), run).unwrap();
    }
    assert_eq!(waiting(data.path()).len(), 3);
    let player = PlayerIdentity::new("Outbox").unwrap();

    // No server: every run waits, untouched.
    let nobody = BoardClient::new("http://127.0.0.1:9").unwrap();
    let report = send_waiting(data.path(), &nobody, &player, &|| true);
    assert!(
        matches!(report.stopped, Some(ClientError::Unreachable(_))),
        "{report:?}"
    );
    assert!(report.stopped.as_ref().unwrap().worth_retrying());
    assert_eq!((report.sent.len(), report.still_waiting), (0, 3));
    let queued = files_in(&data.path().join(OUTBOX_FOLDER));
    assert_eq!(queued.len(), 3);

    let database = databases().remove(0);
    let server = TestServer::start(&config(&database));
    let client = BoardClient::new(&server.url("")).unwrap();
    // The game closing stops a round before it sends anything.
    let report = send_waiting(data.path(), &client, &player, &|| false);
    assert_eq!((report.sent.len(), report.still_waiting), (0, 3));

    let report = send_waiting(data.path(), &client, &player, &|| true);
    assert_eq!((report.still_waiting, report.stopped), (0, None));
    let mut accepted = 0;
    for (name, sent) in &report.sent {
        match sent {
            Sent::Accepted(submitted) => {
                accepted += 1;
                assert!(submitted.new, "{name}");
            }
            Sent::Refused(why) => assert!(
                why.contains("computer played") || why.contains("diverged at tick"),
                "{name}: {why}"
            ),
        }
    }
    assert_eq!(accepted, 1);
    assert!(waiting(data.path()).is_empty());
    // The refused runs are kept, byte for byte.
    let refused = files_in(&data.path().join(OUTBOX_FOLDER).join(REFUSED_FOLDER));
    let mut expected = vec![to_bytes(&assisted), to_bytes(&forged)];
    expected.sort();
    assert_eq!(refused, expected);

    // Sent again (the game closed before the file was removed): one run on the board.
    queue(data.path(), &honest).unwrap();
    let report = send_waiting(data.path(), &client, &player, &|| true);
    let [(_, Sent::Accepted(again))] = report.sent.as_slice() else {
        panic!("{report:?}");
    };
    assert!(!again.new);
    let page: BoardPage =
        serde_json::from_str(&common::get(&server, &format!("/boards/{}", again.board)).body)
            .unwrap();
    assert_eq!(page.players, 1);
    assert_eq!(page.rows[0].player, "Outbox");
}

#[test]
fn the_outbox_holds_a_bounded_number_of_runs() {
    let data = tempfile::tempdir().unwrap();
    let run = runner_run("fern", Difficulty::Easy, 1, 30);
    // All but one written directly (queueing each would flush each to disk: minutes here).
    let folder = data.path().join(OUTBOX_FOLDER);
    std::fs::create_dir_all(&folder).unwrap();
    for at in 1..MAX_WAITING {
        std::fs::write(folder.join(format!("{at:04}.json")), to_bytes(&run)).unwrap();
    }
    // Files that are not runs do not count.
    std::fs::write(folder.join("notes.txt"), b"not a run").unwrap();
    std::fs::create_dir(folder.join("a-folder.json")).unwrap();
    queue(data.path(), &run).unwrap();
    assert_eq!(waiting(data.path()).len(), MAX_WAITING);
    assert!(matches!(queue(data.path(), &run), Err(QueueError::Full)));
    assert_eq!(waiting(data.path()).len(), MAX_WAITING);
}

#[test]
fn world_runs_are_those_of_the_wanted_boards_and_only_runs_that_play_back() {
    let database = databases().remove(0);
    let server = TestServer::start(&config(&database));
    let client = BoardClient::new(&server.url("")).unwrap();
    let players: Vec<PlayerIdentity> = ["Ada", "Bo", "Cy"]
        .into_iter()
        .map(|name| PlayerIdentity::new(name).unwrap())
        .collect();
    for (at, player) in players.iter().enumerate() {
        client.register(player).unwrap();
        for seed_text in ["fern", "moss"] {
            let run = runner_run(seed_text, Difficulty::Normal, at as u64, 2_000);
            client.submit(player, &to_bytes(&run)).unwrap();
        }
    }
    let fern = runner_run("fern", Difficulty::Normal, 0, 10);
    let fern_board = format!("runner/seed-{}/normal", fern.seed);
    let wanted = |board: &str| board == fern_board;
    let world = client.world_runs(wanted, 4, 2).unwrap();
    assert_eq!(world.len(), 1);
    assert_eq!(
        (world[0].board.as_str(), world[0].players),
        (fern_board.as_str(), 3)
    );
    assert_eq!(world[0].runs.len(), 2, "the two best of three");
    let best = world[0].runs[0].0.run.clone();
    for (row, replay) in &world[0].runs {
        assert_eq!(replay.seed, fern.seed, "{row:?}");
    }

    // A server that sends a run that does not play back (here its stored replay is changed
    // behind its back) has that run left out.
    common::block_on(async {
        use sqlx::Connection;
        let mut connection = sqlx::AnyConnection::connect(&database.url).await.unwrap();
        let stored: String = sqlx::query_scalar("SELECT replay FROM runs WHERE id = $1")
            .bind(&best)
            .fetch_one(&mut connection)
            .await
            .unwrap();
        let mut replay = temple_trails::logic::replay::parse(&stored).unwrap();
        replay
            .result
            .edit::<RunnerKind>(|outcome| outcome.score += 1)
            .unwrap();
        let forged = String::from_utf8(to_bytes(&replay)).unwrap();
        sqlx::query("UPDATE runs SET replay = $1 WHERE id = $2")
            .bind(forged)
            .bind(&best)
            .execute(&mut connection)
            .await
            .unwrap();
    });
    let world = client.world_runs(wanted, 4, 2).unwrap();
    let listed: Vec<&str> = world[0]
        .runs
        .iter()
        .map(|(row, _)| row.run.as_str())
        .collect();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(!listed.contains(&best.as_str()));
}
