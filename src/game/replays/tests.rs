//! Unit tests of the records kept: how a board ranks runs, maze times with the hints' cost, full
//! boards, and ghosts.

use super::*;
use crate::logic::difficulty::Difficulty;
use crate::logic::maze::replay::{MazeKind, MazeOptions, MazeOutcome, MazeReplaySetup};
use crate::logic::replay::{ModeRun, REPLAY_FORMAT, REPLAY_VERSION, RunKind, RunResult};
use crate::logic::runner::replay::{NoSetup, RunnerKind, RunnerOutcome};

/// A kept run of mode `K` with this setup and result, recorded at `unix_s`, whose file hashes
/// to `digest`.
fn kept<K: RunKind>(setup: &K::Setup, result: RunResult, unix_s: u64, digest: u8) -> Record {
    let replay = Replay {
        format: REPLAY_FORMAT.to_owned(),
        version: REPLAY_VERSION,
        game_version: "test".to_owned(),
        seed: 1,
        seed_text: "1".to_owned(),
        difficulty: Difficulty::Normal,
        recorded_unix_s: unix_s,
        run: ModeRun::of::<K>(setup, &[]),
        checks: Vec::new(),
        result,
    };
    Record {
        standing: K::standing(
            &replay.result.outcome::<K>().unwrap(),
            replay.result.ticks,
            replay.difficulty,
        ),
        replay,
        file: None,
        digest: [digest; 32],
    }
}

fn runner(score: u64, assisted: bool, unix_s: u64, digest: u8) -> Record {
    let outcome = RunnerOutcome {
        distance_m: 10.0,
        coins: 0,
        score,
        stumbles: 0,
        crash: None,
    };
    let result = RunResult::of::<RunnerKind>(100, assisted, &outcome);
    kept::<RunnerKind>(&NoSetup {}, result, unix_s, digest)
}

fn maze(ticks: u64, hints_used: u32, finished: bool, unix_s: u64) -> Record {
    let outcome = MazeOutcome {
        moves: 10,
        hints_used,
        finished,
    };
    let setup = MazeReplaySetup {
        maze: MazeOptions {
            width: 9,
            height: 9,
            algorithm: crate::logic::maze::Algorithm::Prim,
            braid: 0.0,
            level: 1,
        },
    };
    let result = RunResult::of::<MazeKind>(ticks, false, &outcome);
    kept::<MazeKind>(&setup, result, unix_s, 0)
}

fn scores(records: &Records, board: &str) -> Vec<(u64, u64)> {
    records.boards[board]
        .iter()
        .map(|record| {
            let replay = &record.replay;
            let figure = match replay.result.outcome::<RunnerKind>() {
                Ok(outcome) => outcome.score,
                Err(_) => replay.result.ticks,
            };
            (figure, replay.recorded_unix_s)
        })
        .collect()
}

#[test]
fn a_board_ranks_the_higher_score_then_the_earlier_run_and_assisted_runs_last() {
    let mut records = Records::default();
    for record in [
        runner(500, false, 30, 1),
        runner(900, true, 10, 2),
        runner(700, false, 20, 3),
        runner(700, false, 15, 4),
        runner(100, false, 40, 5),
    ] {
        records.add("runner/normal", record);
    }
    assert_eq!(
        scores(&records, "runner/normal"),
        [(700, 15), (700, 20), (500, 30), (100, 40), (900, 10)],
        "the autopilot's 900 is listed, below every run of the player's own"
    );
}

#[test]
fn maze_times_count_what_the_hints_cost() {
    let mut records = Records::default();
    // On Normal a hint costs 10 s, 640 fixed steps: 1000 steps and a hint count 1640.
    for record in [
        maze(1_000, 1, true, 1),
        maze(1_500, 0, true, 2),
        maze(10, 0, false, 3),
        maze(1_700, 0, true, 4),
    ] {
        records.add("maze/9x9/prim/normal", record);
    }
    assert_eq!(
        scores(&records, "maze/9x9/prim/normal"),
        [(1_500, 2), (1_000, 1), (1_700, 4), (10, 3)],
        "an unfinished maze ranks below every finished one"
    );
}

#[test]
fn a_full_board_drops_its_last_and_of_equal_runs_keeps_the_earlier() {
    let mut records = Records::default();
    for at in 0..RECORDS_PER_BOARD as u64 {
        let (dropped, kept) = records.add("runner/normal", runner(600, false, 100 + at, 9));
        assert!(dropped.is_none() && kept);
    }
    // An equal score later falls off at once; an equal score earlier pushes out the newest.
    let (dropped, kept) = records.add("runner/normal", runner(600, false, 500, 9));
    assert!(!kept);
    assert_eq!(dropped.unwrap().replay.recorded_unix_s, 500);
    let (dropped, kept) = records.add("runner/normal", runner(600, false, 50, 9));
    assert!(kept);
    assert_eq!(dropped.unwrap().replay.recorded_unix_s, 109);
    assert_eq!(records.len(), RECORDS_PER_BOARD);
    // Runs equal in every way are ordered by their files, whatever order they come in.
    let twins = [runner(300, false, 7, 1), runner(300, false, 7, 2)];
    let mut forward = Records::default();
    let mut backward = Records::default();
    for record in twins.iter().cloned() {
        forward.add("b", record);
    }
    for record in twins.iter().rev().cloned() {
        backward.add("b", record);
    }
    assert_eq!(forward.boards["b"], backward.boards["b"]);
}

#[test]
fn a_ghost_is_the_best_unassisted_run_of_its_seed() {
    let mut records = Records::default();
    assert!(
        !records
            .offer_ghost("runner/normal", runner(900, true, 1, 1))
            .0
    );
    let (taken, replaced) = records.offer_ghost("runner/normal", runner(400, false, 2, 2));
    assert!(taken && replaced.is_none());
    assert!(
        !records
            .offer_ghost("runner/normal", runner(300, false, 3, 3))
            .0
    );
    let (taken, replaced) = records.offer_ghost("runner/normal", runner(800, false, 4, 4));
    assert!(taken);
    assert_eq!(replaced.unwrap().digest, [2; 32], "the ghost it beat");
    assert_eq!(
        records.ghost("runner/normal", 1).unwrap().recorded_unix_s,
        4
    );
}
