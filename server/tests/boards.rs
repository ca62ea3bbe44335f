//! The board server as its clients meet it, started in this process on 127.0.0.1 over a fresh
//! SQLite file (and, when `TEMPLE_TRAILS_TEST_POSTGRES` names one, a fresh PostgreSQL
//! database): real runs accepted and ranked, the same play counted once, every forgery of the
//! replay properties refused where it diverges, the limits answered with their statuses, and
//! every accepted run still there after a restart or a crash.

mod common;
#[path = "../../tests/forgery/mod.rs"]
mod forgery;
#[path = "../../tests/oracle/mod.rs"]
mod oracle;

use common::{
    Answer, Player, TestServer, autopilot_run, config, databases, get, maze_run, runner_run,
};
use forgery::{Verdict, forgeries, random_maze_replay, random_runner_replay};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use temple_trails::board_api::{BoardList, BoardPage, PlayerAnswer, Submitted};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::replay::boards::date_of;
use temple_trails::logic::replay::{self, Replay, to_bytes};
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::verify_replay;
use temple_trails_server::checking::play_id;

fn today() -> String {
    date_of(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    )
}

fn score(replay: &Replay) -> u64 {
    replay.result.outcome::<RunnerKind>().unwrap().score
}

/// Runner runs of `seed_text` with different scores, worst first.
fn runs_by_score(seed_text: &str, count: usize) -> Vec<Replay> {
    let mut by_score = BTreeMap::new();
    for draw in 0.. {
        let run = runner_run(seed_text, Difficulty::Normal, draw, 4_000);
        by_score.entry(score(&run)).or_insert(run);
        if by_score.len() == count {
            break;
        }
    }
    by_score.into_values().collect()
}

fn accepted(answer: &Answer) -> Submitted {
    assert!(answer.status == 201 || answer.status == 200, "{answer:?}");
    answer.json()
}

/// The step an error names ("... at tick 123: ..."), if it names one.
fn named_tick(error: &str) -> Option<u64> {
    let (_, rest) = error.split_once("at tick ")?;
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

#[test]
fn real_runs_are_accepted_ranked_and_counted_once() {
    let runs = runs_by_score("vine", 4);
    let board = format!("runner/seed-{}/normal", runs[0].seed);
    for database in databases() {
        let server = TestServer::start(&config(&database));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let [ada, bo, cy] = ["Ada", "Bo", "Cy"].map(|name| Player::new(name, &mut rng));
        for player in [&ada, &bo, &cy] {
            let made = player.register(&server);
            assert_eq!(made.status, 200, "{}: {made:?}", database.name);
            assert!(made.json::<PlayerAnswer>().new);
        }

        // Ada's worst run first, then Bo's and Cy's, then Ada's best.
        let first = accepted(&ada.submit(&server, &runs[0]));
        assert_eq!(
            (first.board.as_str(), first.new, first.rank, first.best),
            (board.as_str(), true, 1, true)
        );
        assert_eq!(first.summary, format!("{} points", score(&runs[0])));
        assert_eq!(ada.submit(&server, &runs[0]).status, 200, "sent again");
        let bo_run = accepted(&bo.submit(&server, &runs[2]));
        assert_eq!((bo_run.rank, bo_run.best), (1, true));
        let cy_run = accepted(&cy.submit(&server, &runs[1]));
        assert_eq!(cy_run.rank, 2);
        let best = accepted(&ada.submit(&server, &runs[3]));
        assert_eq!((best.new, best.rank, best.best), (true, 1, true));
        // A run worse than Ada's best is kept but does not list.
        let worse = runner_run("vine", Difficulty::Normal, 10_000, 40);
        let kept = accepted(&ada.submit(&server, &worse));
        assert_eq!((kept.new, kept.rank, kept.best), (true, 1, false));

        // The same play, whatever the file says of when or how it was written, is one run.
        let mut retimed = runs[3].clone();
        retimed.recorded_unix_s += 99;
        retimed.game_version = "another build".to_owned();
        let again = ada.submit(&server, &retimed);
        assert_eq!(again.status, 200, "{again:?}");
        let again: Submitted = again.json();
        assert_eq!((again.run.as_str(), again.new), (best.run.as_str(), false));
        let spaced = String::from_utf8(to_bytes(&runs[3]))
            .unwrap()
            .replace(',', " ,\n ");
        assert_eq!(ada.submit_bytes(&server, spaced.as_bytes()).status, 200);
        // Another player's copy of it is refused.
        let stolen = bo.submit(&server, &runs[3]);
        assert_eq!(stolen.status, 409, "{stolen:?}");
        assert!(stolen.error().contains("another player"), "{stolen:?}");

        let page: BoardPage = get(&server, &format!("/boards/{board}?player={}", cy.id)).json();
        assert_eq!(page.players, 3);
        let listed: Vec<_> = page
            .rows
            .iter()
            .map(|row| (row.rank, row.player.as_str(), row.summary.clone()))
            .collect();
        assert_eq!(
            listed,
            [
                (1, "Ada", format!("{} points", score(&runs[3]))),
                (2, "Bo", format!("{} points", score(&runs[2]))),
                (3, "Cy", format!("{} points", score(&runs[1]))),
            ]
        );
        assert_eq!(page.own.as_ref().map(|row| row.rank), Some(3));
        let second: BoardPage = get(&server, &format!("/boards/{board}?offset=1&limit=1")).json();
        assert_eq!(second.rows.len(), 1);
        assert_eq!(
            (second.rows[0].rank, second.rows[0].player.as_str()),
            (2, "Bo")
        );

        // A listed run's replay is the run as the game writes it, and plays back.
        let served = get(&server, &format!("/runs/{}", page.rows[0].run));
        assert_eq!(served.status, 200);
        let served = replay::parse(&served.body).unwrap();
        assert_eq!(verify_replay(&served), Ok(runs[3].result.clone()));
        assert_eq!(get(&server, "/runs/0123").status, 404);

        // A new name shows on the board.
        let renamed = Player {
            name: "  Bo the Swift ".to_owned(),
            ..bo.clone()
        };
        let answer: PlayerAnswer = renamed.register(&server).json();
        assert_eq!((answer.name.as_str(), answer.new), ("Bo the Swift", false));
        let page: BoardPage = get(&server, &format!("/boards/{board}")).json();
        assert_eq!(page.rows[1].player, "Bo the Swift");

        // The maze ranks by the time that counts, hints included; the day's runs go on the
        // day's board.
        let maze = maze_run("vine", 6, 8, 1);
        let maze_board = accepted(&cy.submit(&server, &maze));
        assert_eq!(
            maze_board.board,
            format!("maze/seed-{}/6x6/prim/normal", maze.seed)
        );
        assert!(
            maze_board.summary.ends_with("1 hint, +10 s"),
            "{maze_board:?}"
        );
        let day = today();
        let daily = accepted(&bo.submit(
            &server,
            &runner_run(&format!("daily-{day}"), Difficulty::Normal, 3, 600),
        ));
        assert_eq!(daily.board, format!("runner/daily-{day}/normal"));
        let future = bo.submit(
            &server,
            &runner_run("daily-2999-01-01", Difficulty::Normal, 3, 60),
        );
        assert_eq!(future.status, 422, "{future:?}");
        assert!(future.error().contains("has not come"), "{future:?}");

        // Every board with its players (the order is the last run's second, then the name).
        let list: BoardList = get(&server, "/boards").json();
        let mut names: Vec<_> = list
            .boards
            .iter()
            .map(|b| (b.board.as_str(), b.players))
            .collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                (maze_board.board.as_str(), 1),
                (daily.board.as_str(), 1),
                (board.as_str(), 3)
            ],
            "{}",
            database.name
        );
        server.stop();
    }
}

#[test]
fn every_forgery_of_the_replay_properties_is_refused_where_it_diverges() {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let mut originals = Vec::new();
    for _ in 0..12 {
        originals.push(random_runner_replay(&mut rng, false));
        originals.push(random_maze_replay(&mut rng, false));
    }
    for database in databases() {
        let server = TestServer::start(&config(&database));
        let player = Player::new("Forger", &mut rng);
        player.register(&server);
        let mut refused_at_their_step = 0;
        for original in &originals {
            let unfinished =
                |answer: &Answer| answer.status == 422 && answer.error().contains("not finished");
            let sent = player.submit(&server, original);
            assert!(
                [200, 201].contains(&sent.status) || unfinished(&sent),
                "{sent:?}"
            );
            for forged in forgeries(original, &mut rng) {
                let answer = player.submit(&server, &forged.replay);
                let tick = || named_tick(&answer.error());
                let right = match forged.verdict {
                    Verdict::Unreadable => answer.status == 400,
                    Verdict::DivergedAt(at) => answer.status == 422 && tick() == Some(at),
                    Verdict::DivergedWithinOrSame(first, last) => {
                        (answer.status == 422
                            && tick().is_some_and(|t| (first..=last).contains(&t)))
                            || [200, 201].contains(&answer.status)
                            || unfinished(&answer)
                    }
                    Verdict::DivergedAfterOrSame(at) => {
                        (answer.status == 422 && tick().is_some_and(|t| t > at))
                            || [200, 201].contains(&answer.status)
                            || unfinished(&answer)
                    }
                };
                assert!(
                    right,
                    "{}: {}: {:?} expected, {answer:?}",
                    database.name, forged.what, forged.verdict
                );
                if matches!(forged.verdict, Verdict::DivergedAt(_)) {
                    refused_at_their_step += 1;
                }
                // A forgery that played back as an honest run is one: it is not counted as
                // refused.
            }
        }
        assert!(refused_at_their_step >= 48, "{refused_at_their_step}");

        // The computer's play is refused, and so is what is no replay at all.
        let assisted = player.submit(&server, &autopilot_run("vine", 300));
        assert_eq!(assisted.status, 422, "{assisted:?}");
        assert!(assisted.error().contains("computer played"), "{assisted:?}");
        let real = to_bytes(&originals[0]);
        for (what, bytes) in [
            ("not JSON", b"hello".to_vec()),
            ("an empty object", b"{}".to_vec()),
            ("cut short", real[..real.len() / 2].to_vec()),
            (
                "another mode",
                String::from_utf8(real.clone())
                    .unwrap()
                    .replace("\"mode\":\"runner\"", "\"mode\":\"chess\"")
                    .into_bytes(),
            ),
        ] {
            let answer = player.submit_bytes(&server, &bytes);
            assert_eq!(answer.status, 400, "{what}: {answer:?}");
            assert!(
                answer.error().starts_with("the body is not a replay"),
                "{what}: {answer:?}"
            );
        }
        server.stop();
    }
}

#[test]
fn limits_answer_with_their_statuses() {
    for database in databases() {
        let mut limited = config(&database);
        limited.per_player_per_minute = 3.try_into().unwrap();
        limited.per_address_per_minute = 8.try_into().unwrap();
        limited.max_request_bytes = 64 * 1024;
        let server = TestServer::start(&limited);
        assert_eq!(get(&server, "/health").status, 200);
        assert_eq!(get(&server, "/ready").status, 200);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let [ada, bo] = ["Ada", "Bo"].map(|name| Player::new(name, &mut rng));
        ada.register(&server);
        bo.register(&server);

        // Who may send: a known player with their own secret.
        let stranger = Player::new("Stranger", &mut rng);
        let unknown = stranger.submit(&server, &runner_run("vine", Difficulty::Normal, 1, 60));
        assert_eq!(unknown.status, 401, "{unknown:?}");
        assert!(unknown.error().contains("PUT /player"), "{unknown:?}");
        let thief = Player {
            secret: stranger.secret.clone(),
            ..ada.clone()
        };
        assert_eq!(thief.register(&server).status, 401, "renaming another's id");
        let wrong_secret = thief.submit(&server, &runner_run("vine", Difficulty::Normal, 1, 60));
        assert_eq!(wrong_secret.status, 401);
        let no_header = common::client()
            .post(&server.url("/runs"))
            .send(b"{}".as_slice())
            .unwrap();
        assert_eq!(no_header.status().as_u16(), 401);
        for name in ["", "a\nb", "evil\u{202E}", &"x".repeat(25)] {
            let bad = Player {
                name: name.to_owned(),
                ..Player::new("x", &mut rng)
            };
            assert_eq!(bad.register(&server).status, 422, "{name:?}");
        }

        // Ada may send three runs a minute; the address eight, whoever sends them, refused or
        // not (three were refused above, and Ada's fourth is counted too).
        for draw in 0..3 {
            let sent = ada.submit(&server, &runner_run("vine", Difficulty::Normal, draw, 200));
            assert!([200, 201].contains(&sent.status), "{sent:?}");
        }
        let fourth = ada.submit(&server, &runner_run("vine", Difficulty::Normal, 9, 200));
        assert_eq!(fourth.status, 429, "{fourth:?}");
        assert!(
            fourth.retry_after.is_some_and(|s| (1..=60).contains(&s)),
            "{fourth:?}"
        );
        assert_eq!(
            bo.submit(&server, &runner_run("vine", Difficulty::Normal, 4, 200))
                .status,
            201
        );
        let over = bo.submit(&server, &runner_run("vine", Difficulty::Normal, 5, 200));
        assert_eq!(over.status, 429, "the address's ninth: {over:?}");
        assert!(over.error().contains("this address"), "{over:?}");

        // Too large a body, whatever it holds.
        let big = vec![b' '; 64 * 1024 + 1];
        let Answer { status, .. } = Player::new("Big", &mut rng).submit_bytes(&server, &big);
        assert_eq!(status, 413);

        // Pages within their bounds.
        for (query, status) in [
            ("/boards/runner/seed-1/normal", 200),
            ("/boards/runner/seed-1/normal?limit=100", 200),
            ("/boards/runner/seed-1/normal?limit=101", 400),
            ("/boards/runner/seed-1/normal?limit=0", 400),
            ("/boards/runner/seed-1/normal?offset=-1", 400),
            ("/boards/runner/seed-1/normal?player=nobody", 400),
            ("/boards/runner/seed-1/normal?sort=name", 400),
            ("/boards?limit=201", 400),
        ] {
            let answer = get(&server, query);
            assert_eq!(answer.status, status, "{query}: {answer:?}");
        }
        let long_name = format!("/boards/{}", "x".repeat(201));
        assert_eq!(get(&server, &long_name).status, 400);
        server.stop();
    }
}

#[test]
fn a_run_that_takes_too_long_to_check_is_refused_with_the_step_it_reached() {
    let database = databases().remove(0);
    let mut quick = config(&database);
    quick.check_time = Duration::from_millis(1);
    let server = TestServer::start(&quick);
    let player = Player::new("Slow", &mut ChaCha8Rng::seed_from_u64(4));
    player.register(&server);
    // A run of many times 4096 steps, the checker asking the time every 4096 (the autopilot's:
    // the time runs out before the checker reaches its end, where it would see that).
    let slow = autopilot_run("vine", 100_000);
    assert_eq!(slow.result.ticks, 100_000);
    let answer = player.submit(&server, &slow);
    assert_eq!(answer.status, 422, "{answer:?}");
    let error = answer.error();
    assert!(error.contains("took longer than the 1ms"), "{error}");
    let (_, reached) = error.split_once("reached step ").unwrap();
    let reached: u64 = reached.trim_end_matches(')').parse().unwrap();
    assert!(
        reached > 0 && reached < 100_000 && reached.is_multiple_of(4096),
        "{error}"
    );
}

/// Runs sent before the crashes, and in each of them.
const CALM_RUNS: usize = 12;
const CRASHES: usize = 4;
const RUNS_PER_CRASH: usize = 24;

#[test]
fn every_accepted_run_survives_a_restart_and_a_crash_leaves_none_half_written() {
    // Each run better than the one before, so that each run stored is its sender's best and
    // a run stored without its place on the board would show.
    let mut runs: Vec<Replay> = (0..CALM_RUNS + CRASHES * RUNS_PER_CRASH)
        .map(|draw| runner_run("moss", Difficulty::Hard, draw as u64, 3_000))
        .collect();
    runs.sort_by_key(score);
    let sender_of = |run: usize| run % 3;
    for database in databases() {
        let settings = config(&database);
        let server = TestServer::start(&settings);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let players: Vec<Player> = (0..3)
            .map(|at| Player::new(&format!("Runner {at}"), &mut rng))
            .collect();
        for player in &players {
            player.register(&server);
        }
        // The first runs sent and answered; then the server is stopped and started again.
        let mut answered = Vec::new();
        for (at, run) in runs[..CALM_RUNS].iter().enumerate() {
            let sent = accepted(&players[sender_of(at)].submit(&server, run));
            answered.push(sent.run);
        }
        server.stop();
        let server = TestServer::start(&settings);
        for id in &answered {
            assert_eq!(
                get(&server, &format!("/runs/{id}")).status,
                200,
                "{}",
                database.name
            );
        }
        server.stop();

        // The rest sent from three threads at once, a batch to each server, which is killed
        // as soon as two of the batch are answered, while the others are under way.
        let mut unanswered = 0;
        for crash in 0..CRASHES {
            let batch =
                CALM_RUNS + crash * RUNS_PER_CRASH..CALM_RUNS + (crash + 1) * RUNS_PER_CRASH;
            let mut server = TestServer::start(&settings);
            let kill = server.kill_switch();
            let answers = AtomicUsize::new(0);
            let accepted_now = std::thread::scope(|scope| {
                let senders: Vec<_> = (0..3)
                    .map(|sender| {
                        let (players, server, runs, answers) = (&players, &server, &runs, &answers);
                        let batch = batch.clone();
                        scope.spawn(move || {
                            let mut mine = Vec::new();
                            for at in batch.filter(|&at| sender_of(at) == sender) {
                                let bytes = to_bytes(&runs[at]);
                                let Ok(answer) = players[sender].try_submit_bytes(server, &bytes)
                                else {
                                    break;
                                };
                                if answer.status == 503 {
                                    // Turned away as the server went down: not taken.
                                    break;
                                }
                                assert!([200, 201].contains(&answer.status), "{answer:?}");
                                mine.push(answer.json::<Submitted>().run);
                                answers.fetch_add(1, Ordering::AcqRel);
                            }
                            mine
                        })
                    })
                    .collect();
                let deadline = std::time::Instant::now() + Duration::from_secs(120);
                while answers.load(Ordering::Acquire) < 2 {
                    assert!(
                        std::time::Instant::now() < deadline,
                        "the server answered no run"
                    );
                    std::thread::yield_now();
                }
                kill.pull();
                senders
                    .into_iter()
                    .flat_map(|sender| sender.join().unwrap())
                    .collect::<Vec<String>>()
            });
            server.stop();
            unanswered += RUNS_PER_CRASH - accepted_now.len();
            answered.extend(accepted_now);
        }
        assert!(
            unanswered > 0,
            "every run was answered before its server was killed"
        );

        let server = TestServer::start(&settings);
        // Every run the server said it took is there, and plays back.
        for id in &answered {
            let served = get(&server, &format!("/runs/{id}"));
            assert_eq!(served.status, 200, "{}: run {id}", database.name);
            verify_replay(&replay::parse(&served.body).unwrap()).unwrap();
        }
        // Every run stored is whole: each player's row is their best stored run, whether or
        // not the server lived to answer for it.
        let board = format!("runner/seed-{}/hard", runs[0].seed);
        let mut stored_unanswered = 0;
        for (at, player) in players.iter().enumerate() {
            let stored: Vec<&Replay> = runs
                .iter()
                .enumerate()
                .filter(|&(index, run)| {
                    let id = play_id(run, &RunnerKind).unwrap();
                    let stored = get(&server, &format!("/runs/{id}")).status == 200;
                    if stored && !answered.contains(&id) {
                        stored_unanswered += 1;
                    }
                    sender_of(index) == at && stored
                })
                .map(|(_, run)| run)
                .collect();
            let best = stored.iter().map(|run| score(run)).max().unwrap();
            let page: BoardPage =
                get(&server, &format!("/boards/{board}?player={}", player.id)).json();
            assert_eq!(
                page.own.map(|row| row.summary),
                Some(format!("{best} points")),
                "{}",
                database.name
            );
        }
        println!(
            "{}: {} runs answered, {unanswered} cut off by a crash, of which {} were stored",
            database.name,
            answered.len(),
            stored_unanswered / players.len()
        );
        server.stop();
    }
}
