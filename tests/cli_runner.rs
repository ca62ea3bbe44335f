//! Tests of the built binary's `runner` and `replay` subcommands: the autopilot's run as text
//! and JSON, the track dumped, bad values, long runs, and recorded runs checked again.

mod binary;

use binary::{assert_usage_error, read_json, runner_json, stderr, stdout, temple_trails};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::runner::body::COIN_LINE_POINTS;
use temple_trails::logic::runner::timing::Timing;
use temple_trails::logic::runner::track::BUFFER_SEGMENTS;

#[test]
fn runner_json_reports_a_crash_free_autopilot_run() {
    let run = runner_json(&["--seed", "42", "--difficulty", "hard", "--segments", "3000"]);
    let keys: Vec<&str> = run
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "seed",
        "difficulty",
        "segments",
        "distance_m",
        "coins",
        "score",
        "crashes",
        "stumbles",
        "powerups",
        "repairs",
        "max_speed_mps",
        "max_buffered_segments",
    ];
    expected.sort_unstable();
    assert_eq!(keys, expected);
    assert_eq!(run["seed"], 42);
    assert_eq!(run["difficulty"], "hard");
    assert_eq!(run["segments"], 3000);
    assert_eq!(run["crashes"], 0);
    assert_eq!(run["stumbles"], 0);
    for kind in ["magnet", "shield", "multiplier"] {
        let taken = run["powerups"][kind].as_u64().unwrap();
        assert!(taken > 10, "{kind}: {taken}");
    }
    assert_eq!(run["powerups"].as_object().unwrap().len(), 3);
    assert_eq!(run["max_buffered_segments"], BUFFER_SEGMENTS);
    assert_eq!(
        run["max_speed_mps"],
        Timing::for_difficulty(Difficulty::Hard).max_speed_mps
    );
    let distance = run["distance_m"].as_f64().unwrap();
    assert!((29_990.0..30_010.0).contains(&distance), "{distance}");
    let coins = run["coins"].as_u64().unwrap();
    assert!(coins > 100);
    // Multipliers were taken, so the score is above metres plus coins by what they added.
    let unmultiplied = distance as u64 + COIN_LINE_POINTS * coins;
    let score = run["score"].as_u64().unwrap();
    assert!(score > unmultiplied, "{score} vs {unmultiplied}");
    assert_eq!(
        run,
        runner_json(&["--seed", "42", "--difficulty", "hard", "--segments", "3000"]),
        "the same seed runs the same"
    );
}

#[test]
fn runner_text_and_preview_show_the_track() {
    let output = temple_trails(&[
        "runner",
        "--seed",
        "42",
        "--segments",
        "100",
        "--preview",
        "8",
    ]);
    assert!(output.status.success());
    let text = stdout(&output);
    for line in [
        "seed: 42",
        "difficulty: normal",
        "segments: 100",
        "crashes: 0",
    ] {
        assert!(text.lines().any(|l| l == line), "no '{line}' in:\n{text}");
    }
    let preview: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("preview"))
        .collect();
    assert_eq!(preview.len(), 1 + 8, "{text}");
    assert_eq!(preview[1], "    0  . . .  straight");
    let golden = include_str!("golden/runner_normal_42.txt");
    for (line, expected) in preview[1..].iter().zip(golden.lines()) {
        assert!(line.ends_with(expected), "{line} vs {expected}");
    }
}

#[test]
fn runner_dumps_the_track_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("track.json");
    let output = temple_trails(&[
        "runner",
        "--seed",
        "7",
        "--difficulty",
        "easy",
        "--segments",
        "300",
        "--dump-track",
        path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let dump = read_json(&path);
    assert_eq!(dump["seed"], 7);
    assert_eq!(dump["difficulty"], "easy");
    let segments = dump["segments"].as_array().unwrap();
    assert_eq!(segments.len(), 300);
    let kinds = ["straight", "turn_left", "turn_right"];
    let contents = [
        "empty",
        "coins",
        "low",
        "high",
        "block",
        "magnet",
        "shield",
        "multiplier",
    ];
    let top_speed = Timing::for_difficulty(Difficulty::Easy).max_speed_mps;
    let mut last_speed = 0.0;
    for (i, segment) in segments.iter().enumerate() {
        assert_eq!(segment["index"], i);
        assert!(kinds.contains(&segment["kind"].as_str().unwrap()));
        let lanes = segment["lanes"].as_array().unwrap();
        assert_eq!(lanes.len(), 3);
        assert!(
            lanes
                .iter()
                .all(|l| contents.contains(&l.as_str().unwrap()))
        );
        let speed = segment["speed_mps"].as_f64().unwrap();
        assert!(speed >= last_speed && speed <= top_speed);
        last_speed = speed;
    }
    assert!(segments.iter().any(|s| s["kind"] != "straight"));
}

#[test]
fn runner_bad_values_are_refused() {
    assert_usage_error(
        &["runner", "--segments", "0"],
        &["--segments", "1..=10000000"],
    );
    assert_usage_error(&["runner", "--segments", "lots"], &["--segments"]);
    assert_usage_error(
        &["runner", "--difficulty", "insane"],
        &["easy", "normal", "hard"],
    );
    assert_usage_error(&["runner", "--preview", "0"], &["--preview"]);
    assert_usage_error(&["runner", "--format", "xml"], &["text", "json"]);
    assert_usage_error(&["runner", "--seed", ""], &["seed"]);
}

#[test]
fn a_million_hard_segments_run_without_a_crash_or_a_stumble() {
    let run = runner_json(&["--difficulty", "hard", "--segments", "1000000"]);
    assert_eq!(run["segments"], 1_000_000);
    assert_eq!(run["crashes"], 0);
    assert_eq!(run["stumbles"], 0);
    let taken: u64 = ["magnet", "shield", "multiplier"]
        .iter()
        .map(|kind| run["powerups"][kind].as_u64().unwrap())
        .sum();
    // About one power-up every 34 segments.
    assert!(taken > 25_000, "{taken}");
    assert!(run["max_buffered_segments"].as_u64().unwrap() <= BUFFER_SEGMENTS as u64);
}

/// Records the autopilot's run over `segments` into a replay file in `dir`; returns its path.
fn record_runner(dir: &std::path::Path, segments: &str) -> std::path::PathBuf {
    let path = dir.join(format!("runner-{segments}.json"));
    let output = temple_trails(&[
        "runner",
        "--seed",
        "vine",
        "--difficulty",
        "hard",
        "--segments",
        segments,
        "--record",
        path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    path
}

#[test]
fn a_recorded_autopilot_run_replays_to_its_result() {
    let dir = tempfile::tempdir().unwrap();
    // 20 000 Hard segments: about 2 h 40 min of play, within the six hours a replay holds.
    let path = record_runner(dir.path(), "20000");
    let output = temple_trails(&["replay", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["mode"], "runner");
    assert_eq!(report["seed_text"], "vine");
    assert_eq!(report["difficulty"], "hard");
    assert_eq!(report["verified"], true);
    assert_eq!(
        report["inputs"], 1,
        "the autopilot switched on at the start"
    );
    let result = &report["result"];
    assert_eq!(result["crash"], serde_json::Value::Null);
    assert_eq!(result["stumbles"], 0);
    let distance = result["distance_m"].as_f64().unwrap();
    assert!((199_990.0..200_010.0).contains(&distance), "{distance}");
    // The same run as the report of the same command without --record.
    let run = runner_json(&[
        "--seed",
        "vine",
        "--difficulty",
        "hard",
        "--segments",
        "20000",
    ]);
    assert_eq!(result["score"], run["score"]);

    let text = temple_trails(&["replay", path.to_str().unwrap()]);
    assert!(stdout(&text).contains("verified: the recorded result is reproduced"));
}

#[test]
fn a_run_longer_than_a_replay_holds_is_not_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.json");
    // 100 000 Hard segments take over 13 hours of play.
    let output = temple_trails(&[
        "runner",
        "--difficulty",
        "hard",
        "--segments",
        "100000",
        "--record",
        path.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("six hours"), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(!path.exists(), "nothing written");
}

#[test]
fn a_tampered_replay_names_the_tick_where_it_diverged() {
    let dir = tempfile::tempdir().unwrap();
    let path = record_runner(dir.path(), "300");
    let mut replay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let ticks = replay["result"]["ticks"].as_u64().unwrap();
    replay["result"]["score"] = serde_json::json!(replay["result"]["score"].as_u64().unwrap() + 1);
    std::fs::write(&path, replay.to_string()).unwrap();
    let output = temple_trails(&["replay", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains(&format!("diverged at tick {ticks}")),
        "{message}"
    );
}

#[test]
fn a_file_that_is_not_a_replay_is_refused_with_exit_code_two() {
    let dir = tempfile::tempdir().unwrap();
    let recorded = std::fs::read_to_string(record_runner(dir.path(), "50")).unwrap();
    let cases = [
        ("garbage.json", "not json at all".to_owned(), "not a replay"),
        (
            "truncated.json",
            recorded[..recorded.len() / 2].to_owned(),
            "not a replay",
        ),
        ("other.json", "{\"format\":\"png\"}".to_owned(), "format"),
        (
            "newer.json",
            {
                let mut newer: serde_json::Value = serde_json::from_str(&recorded).unwrap();
                newer["version"] = serde_json::json!(7);
                newer.to_string()
            },
            "version 7",
        ),
    ];
    for (name, text, mention) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let output = temple_trails(&["replay", path.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{name}: {}", stderr(&output));
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{name}: {message}");
        assert!(message.contains(mention), "{name}: {message}");
    }
    let missing = dir.path().join("missing.json");
    let output = temple_trails(&["replay", missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot read"));
}
