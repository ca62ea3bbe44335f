//! Hostile replay files: real recordings of both modes mutated at random (numbers set to the
//! edges of their types, strings given control characters or made huge, lists cut, reordered,
//! duplicated or multiplied, fields dropped, bytes flipped), each checked by the built binary's
//! `replay` command. Every case must end within [`CASE_LIMIT`] with exit 0, 1 or 2 and never a
//! panic, and a file accepted (exit 0) must be honest: the test plays its inputs itself, step by
//! step, and its fingerprints and result must be what it claims.

mod oracle;

use oracle::fingerprints;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::maze::replay::MazeKind;
use temple_trails::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use temple_trails::logic::maze::{Algorithm, Direction, MazeSpec};
use temple_trails::logic::replay::{
    self, Replay, ReplayHeader, RunKind, record, replay_of, result_of, to_bytes,
};
use temple_trails::logic::runner::body::Command as RunCommand;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};
use temple_trails::logic::seed::parse_seed;
use temple_trails::logic::verify_replay;

/// Mutated files checked through the binary.
const CASES: usize = 600;
/// The longest one case may take, the binary's start included (a debug build, a busy machine).
const CASE_LIMIT: Duration = Duration::from_secs(20);

fn header(seed_text: &str, difficulty: Difficulty) -> ReplayHeader {
    ReplayHeader {
        seed: parse_seed(seed_text).unwrap(),
        seed_text: seed_text.to_owned(),
        difficulty,
        game_version: "test".to_owned(),
        recorded_unix_s: 1_796_000_000,
    }
}

/// Real recordings: a player's runner run, the autopilot's, a Hard maze walked by keys, hints
/// and clicks, and a system walk.
fn recordings() -> Vec<Replay> {
    let mut draws = ChaCha8Rng::seed_from_u64(5);
    let mut runs = Vec::new();
    for difficulty in [Difficulty::Normal, Difficulty::Hard] {
        let head = header("vine", difficulty);
        let mut sim = RunnerSim::new(head.seed, difficulty);
        let recorder = record(
            &mut sim,
            |sim| sim.tick >= 2_500,
            |tick, _| match (tick, draws.random_range(0..9)) {
                (0, _) if difficulty == Difficulty::Hard => vec![RunnerInput::Autopilot(true)],
                (_, 0) => vec![RunnerInput::Command(RunCommand::Jump)],
                (_, 1) => vec![RunnerInput::Command(RunCommand::Left)],
                (_, 2) => vec![RunnerInput::Command(RunCommand::Right)],
                (_, 3) => vec![RunnerInput::Command(RunCommand::Slide)],
                _ => Vec::new(),
            },
        );
        runs.push(replay_of::<RunnerKind>(head, &sim, &recorder));
    }
    let head = header("temple", Difficulty::Hard);
    let setup = MazeSetup {
        first: MazeSpec {
            width: 9,
            height: 9,
            algorithm: Algorithm::Prim,
            braid: 0.2,
            seed: head.seed,
        },
        difficulty: Difficulty::Hard,
        level: 2,
    };
    let mut run = MazeRun::new(setup, false).unwrap();
    let cells = run.maze.cell_count();
    let recorder = record(
        &mut run,
        |run| run.ticks >= 3_000,
        |_, _| match draws.random_range(0..12) {
            0 => vec![MazeInput::Hint],
            1 => vec![MazeInput::WalkTo(draws.random_range(0..cells))],
            2 => vec![MazeInput::SystemWalk(draws.random())],
            3..=5 => vec![MazeInput::Step(Direction::ALL[draws.random_range(0..4)])],
            _ => Vec::new(),
        },
    );
    runs.push(replay_of::<MazeKind>(head.clone(), &run, &recorder));
    let mut walk = MazeRun::new(setup, false).unwrap();
    let recorder = replay::record_computer_play(
        &mut walk,
        |run| run.ticks >= 3_000,
        MazeInput::SystemWalk(true),
    );
    runs.push(replay_of::<MazeKind>(head, &walk, &recorder));
    for run in &runs {
        assert!(verify_replay(run).is_ok(), "a real recording verifies");
    }
    runs
}

/// Every place in a JSON tree, as a path of keys and indexes.
fn places(value: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                at.push(Step::Key(key.clone()));
                places(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            // A few items of a long list: the first, the last and some between.
            let len = items.len();
            let mut picks: Vec<usize> = vec![0, len / 3, len / 2, len.saturating_sub(1)];
            picks.retain(|&i| i < len);
            picks.dedup();
            for i in picks {
                at.push(Step::Index(i));
                places(&items[i], at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn at_mut<'a>(value: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(value, |value, step| match step {
        Step::Key(key) => &mut value[key.as_str()],
        Step::Index(i) => &mut value[*i],
    })
}

/// The edges of the types a number in a replay can have, and some values just past them.
fn edge_number(rng: &mut ChaCha8Rng) -> Value {
    let edges = [
        json!(0),
        json!(1),
        json!(-1),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(u32::MAX),
        json!(u64::from(u32::MAX) + 1),
        json!(9_007_199_254_740_993_u64),
        json!(1e308),
        json!(-0.0),
        json!(0.5),
        json!(1_000_000_000_000_000_u64),
    ];
    edges[rng.random_range(0..edges.len())].clone()
}

fn hostile_string(rng: &mut ChaCha8Rng) -> Value {
    let texts = [
        "\n".to_owned(),
        "42\nscore: 999999".to_owned(),
        "\u{1b}[2J\u{1b}[31mverified".to_owned(),
        "\t42".to_owned(),
        String::new(),
        "x".repeat(100_000),
        "north".to_owned(),
        "0000000000000000".to_owned(),
        "ffffffffffffffffff".to_owned(),
    ];
    json!(texts[rng.random_range(0..texts.len())])
}

/// One random change to a recording.
fn mutate(replay: &Replay, rng: &mut ChaCha8Rng) -> (Vec<u8>, String) {
    let mut value = serde_json::to_value(replay).unwrap();
    if rng.random_range(0..8) == 0 {
        // Bytes flipped in the file itself.
        let mut bytes = to_bytes(replay);
        let flips = rng.random_range(1..4);
        for _ in 0..flips {
            let at = rng.random_range(0..bytes.len());
            bytes[at] ^= 1 << rng.random_range(0..8);
        }
        return (bytes, format!("{flips} bits flipped"));
    }
    let mut all = Vec::new();
    places(&value, &mut Vec::new(), &mut all);
    let path = all[rng.random_range(1..all.len())].clone();
    let target = at_mut(&mut value, &path);
    let what = match target {
        Value::Number(_) => {
            *target = edge_number(rng);
            "a number set to an edge"
        }
        Value::String(_) | Value::Bool(_) | Value::Null => {
            *target = if rng.random() {
                hostile_string(rng)
            } else {
                edge_number(rng)
            };
            "a value made hostile"
        }
        Value::Array(items) if !items.is_empty() => match rng.random_range(0..4) {
            0 => {
                let keep = rng.random_range(0..items.len());
                items.truncate(keep);
                "a list cut"
            }
            1 => {
                let (a, b) = (
                    rng.random_range(0..items.len()),
                    rng.random_range(0..items.len()),
                );
                items.swap(a, b);
                "two items swapped"
            }
            2 => {
                let at = rng.random_range(0..items.len());
                let copy = items[at].clone();
                items.insert(at, copy);
                "an item duplicated"
            }
            _ => {
                let times = [2, 10, 1000][rng.random_range(0..3)];
                let copy = items.clone();
                for _ in 1..times {
                    items.extend(copy.iter().cloned());
                }
                "a list multiplied"
            }
        },
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            map.remove(&keys[rng.random_range(0..keys.len())]);
            "a field removed"
        }
        _ => "nothing",
    };
    (
        serde_json::to_vec(&value).unwrap(),
        format!("{what} at {path:?}"),
    )
}

/// Runs `temple-trails replay FILE`, killing it past [`CASE_LIMIT`]. Returns the exit code,
/// standard error and the time taken.
fn check_with_binary(file: &Path) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .arg("replay")
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let output = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
            return (status.code(), stderr, started.elapsed());
        }
        if started.elapsed() > CASE_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return (
                None,
                "killed: it ran too long".to_owned(),
                started.elapsed(),
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Plays `sim` with the replay's inputs from the test's own loop, checks that each was fed, and
/// gives the fingerprints of every step and whether the result is the one claimed.
fn played_honestly<K: RunKind>(replay: &Replay, mut sim: K::Sim, what: &str) -> (Vec<u64>, bool) {
    let inputs = replay.run.inputs::<K>().unwrap();
    let (prints, fed) = fingerprints(&mut sim, &inputs, replay.result.ticks);
    assert_eq!(
        fed,
        inputs.len(),
        "{what}: every input was played at its tick"
    );
    let claimed = replay.result.outcome::<K>().unwrap();
    let played = result_of::<K>(&sim);
    let honest = played.outcome::<K>().unwrap() == claimed
        && (played.ticks, played.assisted) == (replay.result.ticks, replay.result.assisted);
    (prints, honest)
}

/// The test's own account of an accepted file: its seed text gives its seed, its inputs played
/// from the seed step by step give every fingerprint it records and the result it claims.
fn assert_honest(replay: &Replay, what: &str) {
    assert_eq!(parse_seed(&replay.seed_text), Ok(replay.seed), "{what}");
    let (prints, honest) = match replay.run.mode() {
        "runner" => {
            let sim = RunnerSim::new(replay.seed, replay.difficulty);
            played_honestly::<RunnerKind>(replay, sim, what)
        }
        _ => {
            let maze = replay.run.setup::<MazeKind>().unwrap().maze;
            let run = MazeRun::new(maze.setup(replay.seed, replay.difficulty), false).unwrap();
            played_honestly::<MazeKind>(replay, run, what)
        }
    };
    assert!(honest, "{what}: the result it claims");
    for check in &replay.checks {
        assert_eq!(
            usize::try_from(check.tick)
                .ok()
                .and_then(|tick| prints.get(tick)),
            Some(&check.fingerprint),
            "{what}: the fingerprint at tick {}",
            check.tick
        );
    }
}

#[test]
fn mutated_recordings_end_in_time_with_a_clear_answer_and_forgeries_never_pass() {
    let dir = tempfile::tempdir().unwrap();
    let runs = recordings();
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut exits: BTreeMap<i32, usize> = BTreeMap::new();
    let mut slowest = Duration::ZERO;
    for case in 0..CASES {
        let original = &runs[case % runs.len()];
        let (bytes, what) = mutate(original, &mut rng);
        let file = dir.path().join(format!("case-{case}.json"));
        std::fs::write(&file, &bytes).unwrap();
        let (code, stderr, took) = check_with_binary(&file);
        slowest = slowest.max(took);
        assert!(
            !stderr.contains("panicked"),
            "case {case}, {what}: {stderr}"
        );
        let code = code.unwrap_or_else(|| panic!("case {case}, {what}: {stderr}"));
        assert!(
            matches!(code, 0..=2),
            "case {case}, {what}: exit {code}: {stderr}"
        );
        if code == 0 {
            let accepted = replay::parse_bytes(&bytes).expect("an accepted file parses");
            assert_honest(&accepted, &format!("case {case}, {what}"));
        } else {
            assert_eq!(stderr.lines().count(), 1, "case {case}, {what}: {stderr}");
        }
        *exits.entry(code).or_default() += 1;
    }
    println!("exit codes of {CASES} mutated files: {exits:?}; slowest case {slowest:?}");
    // Most changes are caught, and both kinds of refusal are seen.
    assert!(
        exits.get(&1).copied().unwrap_or(0) >= CASES / 50,
        "{exits:?}"
    );
    assert!(
        exits.get(&2).copied().unwrap_or(0) >= CASES / 2,
        "{exits:?}"
    );
}

#[test]
fn every_real_recording_is_honest_by_the_tests_own_account() {
    // The oracle above agrees with the game on files it did not touch.
    for (at, run) in recordings().iter().enumerate() {
        assert_honest(run, &format!("recording {at}"));
    }
}
