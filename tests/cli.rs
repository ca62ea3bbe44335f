//! Tests of the built `temple-trails` binary: help, bad arguments, seeds, and no display.

use std::process::{Command, Output};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::runner::body::COIN_LINE_POINTS;
use temple_trails::logic::runner::timing::Timing;
use temple_trails::logic::runner::track::BUFFER_SEGMENTS;

fn temple_trails(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn help_lists_the_options_and_subcommands() {
    let output = temple_trails(&["--help"]);
    assert!(output.status.success());
    let help = stdout(&output);
    for expected in [
        "--mode",
        "--seed",
        "--difficulty",
        "--screenshot",
        "--frames",
        "runner",
        "maze",
        "wanderers",
        "seed",
    ] {
        assert!(help.contains(expected), "--help lacks {expected}:\n{help}");
    }
}

/// A usage error: exit code 2 and a short message that names what is allowed.
fn assert_usage_error(args: &[&str], must_mention: &[&str]) {
    let output = temple_trails(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stderr(&output)
    );
    let message = stderr(&output);
    assert!(message.starts_with("error:"), "{args:?}: {message}");
    assert!(
        message.lines().count() <= 8,
        "{args:?}: too long:\n{message}"
    );
    for text in must_mention {
        assert!(
            message.contains(text),
            "{args:?} should mention {text}: {message}"
        );
    }
    assert!(stdout(&output).is_empty());
}

#[test]
fn unknown_mode_is_refused_with_the_allowed_values() {
    assert_usage_error(&["--mode", "racing"], &["runner", "maze", "wanderers"]);
}

#[test]
fn unknown_difficulty_is_refused_with_the_allowed_values() {
    assert_usage_error(&["--difficulty", "nightmare"], &["easy", "normal", "hard"]);
}

#[test]
fn frames_out_of_range_are_refused() {
    assert_usage_error(&["--screenshot", "x.png", "--frames", "0"], &["1..=100000"]);
    assert_usage_error(&["--screenshot", "x.png", "--frames", "-3"], &[]);
    assert_usage_error(&["--screenshot", "x.png", "--frames", "many"], &[]);
}

#[test]
fn frames_without_a_screenshot_are_refused() {
    assert_usage_error(&["--frames", "10"], &["--screenshot"]);
}

#[test]
fn empty_seed_is_refused() {
    assert_usage_error(&["--seed", "  "], &["seed"]);
    assert_usage_error(&["seed", ""], &["seed"]);
}

#[test]
fn unknown_subcommand_and_flag_are_refused() {
    assert_usage_error(&["fly"], &[]);
    assert_usage_error(&["--speed", "9"], &[]);
}

#[test]
fn seed_words_hash_to_a_stable_value() {
    let output = temple_trails(&["seed", "temple"]);
    assert!(output.status.success());
    let text = stdout(&output);
    // FNV-1a of "temple": a change here changes every world players have shared.
    assert!(text.contains("seed: 4646669004503201372\n"), "{text}");

    let output = temple_trails(&["seed", "12345", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["seed"], 12345);
    assert_eq!(json["text"], "12345");
}

#[test]
fn without_a_display_the_game_explains_and_fails_cleanly() {
    let output = Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env(
            "TEMPLE_TRAILS_HOME",
            std::env::temp_dir().join("tt-no-display"),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("DISPLAY"), "{message}");
    assert!(message.contains("subcommands"), "{message}");
    assert!(!message.contains("panicked"), "{message}");
}

#[test]
fn maze_prints_the_ascii_grid() {
    let output = temple_trails(&["maze", "--width", "6", "--height", "4", "--seed", "7"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 9);
    assert!(
        rows.iter()
            .all(|r| r.len() == 13 && r.chars().all(|c| c == '#' || c == ' '))
    );
    assert!(rows[1].starts_with(' '), "entrance:\n{text}");
    assert!(rows[7].ends_with(' '), "exit:\n{text}");
}

#[test]
fn maze_solve_marks_a_connected_path_in_ascii() {
    let output = temple_trails(&["maze", "--width", "9", "--height", "5", "--solve"]);
    let text = stdout(&output);
    let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    // The marked squares form one walk from the start square to the goal square.
    assert_eq!(rows[1][1], b'.');
    assert_eq!(rows[9][17], b'.');
    let dots: usize = rows
        .iter()
        .map(|r| r.iter().filter(|&&c| c == b'.').count())
        .sum();
    // At least the Manhattan distance: 2 * (8 + 4) squares between the corners, plus the start.
    let shortest_possible = 2 * (8 + 4) + 1;
    assert!(dots >= shortest_possible, "too short a path:\n{text}");
}

#[test]
fn maze_json_has_the_documented_fields() {
    let output = temple_trails(&[
        "maze",
        "--width",
        "12",
        "--height",
        "7",
        "--seed",
        "lotus",
        "--algorithm",
        "wilson",
        "--braid",
        "0.25",
        "--solve",
        "--format",
        "json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["width"], 12);
    assert_eq!(json["height"], 7);
    assert_eq!(json["seed"], 8_338_555_134_582_089_532u64);
    assert_eq!(json["algorithm"], "wilson");
    assert_eq!(json["braid"], 0.25);
    assert_eq!(json["start"], serde_json::json!([0, 0]));
    assert_eq!(json["goal"], serde_json::json!([11, 6]));
    let grid = json["grid"].as_array().unwrap();
    assert_eq!(grid.len(), 15);
    assert!(grid.iter().all(|row| row.as_str().unwrap().len() == 25));
    let path = json["path"].as_array().unwrap();
    assert_eq!(path.first().unwrap(), &json["start"]);
    assert_eq!(path.last().unwrap(), &json["goal"]);
    // Each path cell is open in the grid, and consecutive cells are joined by an open square.
    let open = |x: u64, y: u64| grid[y as usize].as_str().unwrap().as_bytes()[x as usize] == b' ';
    for pair in path.windows(2) {
        let (ax, ay) = (pair[0][0].as_u64().unwrap(), pair[0][1].as_u64().unwrap());
        let (bx, by) = (pair[1][0].as_u64().unwrap(), pair[1][1].as_u64().unwrap());
        assert_eq!(ax.abs_diff(bx) + ay.abs_diff(by), 1);
        assert!(open(2 * ax + 1, 2 * ay + 1) && open(ax + bx + 1, ay + by + 1));
    }
    for field in ["generate_ms", "solve_ms", "expanded"] {
        assert!(json["stats"][field].is_number(), "stats.{field}");
    }
}

#[test]
fn maze_json_without_solve_has_no_path() {
    let output = temple_trails(&["maze", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(json.get("path").is_none());
    assert!(json["stats"]["solve_ms"].is_null());
}

#[test]
fn maze_output_is_the_same_every_run() {
    let args = [
        "maze", "--width", "20", "--height", "11", "--seed", "5", "--braid", "0.3",
    ];
    assert_eq!(temple_trails(&args).stdout, temple_trails(&args).stdout);
}

#[test]
fn maze_bad_values_are_refused() {
    assert_usage_error(&["maze", "--width", "1"], &["2 to 1000"]);
    assert_usage_error(&["maze", "--height", "1001"], &["2 to 1000"]);
    assert_usage_error(&["maze", "--width", "ten"], &["2 to 1000"]);
    assert_usage_error(&["maze", "--braid", "1.5"], &["0 to 1"]);
    assert_usage_error(&["maze", "--braid", "-0.1"], &["0 to 1"]);
    assert_usage_error(
        &["maze", "--algorithm", "eller"],
        &["backtracker", "prim", "kruskal", "wilson"],
    );
    assert_usage_error(&["maze", "--format", "png"], &["ascii", "json"]);
    for bad in ["impossible", "", "3"] {
        assert_usage_error(&["maze", "--difficulty", bad], &["easy", "normal", "hard"]);
    }
    for bad in ["0", "1001", "two"] {
        assert_usage_error(&["maze", "--level", bad], &["1 to 1000"]);
    }
}

#[test]
fn maze_json_lists_the_guardians_of_hard_on_open_cells_away_from_the_start() {
    let args = |difficulty: &str| {
        json_of(&[
            "maze",
            "--seed",
            "7",
            "--width",
            "31",
            "--height",
            "31",
            "--difficulty",
            difficulty,
            "--format",
            "json",
        ])
    };
    let hard = args("hard");
    assert_eq!(hard["difficulty"], "hard");
    assert_eq!(hard["torch_radius"], 3);
    assert_eq!(hard["hint_cost_s"], 30);
    let grid: Vec<&str> = hard["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_str().unwrap())
        .collect();
    // Steps from the start along open passages, by breadth-first search over the ASCII grid.
    let (width, height) = (31usize, 31usize);
    let open = |x: usize, y: usize| grid[y].as_bytes()[x] == b' ';
    let mut steps = vec![usize::MAX; width * height];
    steps[0] = 0;
    let mut queue = std::collections::VecDeque::from([(0usize, 0usize)]);
    while let Some((x, y)) = queue.pop_front() {
        let here = steps[y * width + x];
        let neighbours = [
            (x > 0).then(|| (x - 1, y)),
            (x + 1 < width).then(|| (x + 1, y)),
            (y > 0).then(|| (x, y - 1)),
            (y + 1 < height).then(|| (x, y + 1)),
        ];
        for (nx, ny) in neighbours.into_iter().flatten() {
            let passage = open(x + nx + 1, y + ny + 1);
            if passage && steps[ny * width + nx] == usize::MAX {
                steps[ny * width + nx] = here + 1;
                queue.push_back((nx, ny));
            }
        }
    }
    let guardians = hard["guardians"].as_array().unwrap();
    // One per hundred cells at level 1, as long as there is room off the way to the exit.
    assert!(!guardians.is_empty() && guardians.len() <= 31 * 31 / 100);
    for guardian in guardians {
        let home = &guardian["home"];
        let (x, y) = (
            home[0].as_u64().unwrap() as usize,
            home[1].as_u64().unwrap() as usize,
        );
        assert!(open(2 * x + 1, 2 * y + 1), "a home on an open cell");
        let tether = guardian["tether"].as_u64().unwrap() as usize;
        assert!(
            steps[y * width + x] > tether + 1,
            "a home whose reach comes near the start"
        );
    }
    assert_eq!(hard["shrines"][0], serde_json::json!([0, 0]));
    assert_eq!(
        args("hard")["guardians"],
        hard["guardians"],
        "the same seed, the same guardians"
    );
    let easy = args("easy");
    assert!(easy["torch_radius"].is_null());
    assert_eq!(easy["guardians"], serde_json::json!([]));
    // Level 3 is 12 cells wider and taller, with two guardians more room permitting.
    let third = json_of(&[
        "maze",
        "--seed",
        "7",
        "--width",
        "31",
        "--height",
        "31",
        "--difficulty",
        "hard",
        "--level",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(
        (third["width"].as_u64(), third["level"].as_u64()),
        (Some(43), Some(3))
    );
    assert_eq!(third["seed"], hard["seed"], "the game's seed");
    assert_ne!(third["grid"], hard["grid"]);
    assert!(third["guardians"].as_array().unwrap().len() > guardians.len());
    assert_eq!(args("normal")["torch_radius"], 5);
    assert_eq!(args("normal")["guardians"], serde_json::json!([]));
}

#[test]
fn autoplay_needs_a_mode() {
    assert_usage_error(&["--autoplay"], &["--mode"]);
}

fn runner_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["runner", "--format", "json"];
    all.extend_from_slice(args);
    json_of(&all)
}

/// A JSON file the binary wrote.
fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the file was written"))
        .expect("the file is JSON")
}

/// Runs the binary, expects success, and parses its output as one JSON object.
fn json_of(args: &[&str]) -> serde_json::Value {
    let output = temple_trails(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).expect("one JSON object")
}

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
        assert!(speed >= last_speed && speed <= 15.0);
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
fn wander_json_shows_tethered_npcs_that_move_differently() {
    let args = [
        "wander", "--seed", "3", "--count", "50", "--steps", "3000", "--format", "json",
    ];
    let run = json_of(&args);
    let mut keys: Vec<&str> = run
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "avoid",
            "bodies",
            "count",
            "density",
            "field_height",
            "field_width",
            "max_distance_from_home",
            "max_overlap_fraction",
            "max_plan_wait_s",
            "mean_speed",
            "min_pairwise_path_difference",
            "overlapping_pairs",
            "routes_planned",
            "seed",
            "steps",
            "tether_margin",
            "wander_max_distance"
        ]
    );
    assert_eq!(run["avoid"], true);
    assert_eq!(run["bodies"], "small");
    assert_eq!(run["density"], 0.0);
    let radius = run["wander_max_distance"].as_f64().unwrap();
    let margin = run["tether_margin"].as_f64().unwrap();
    let farthest = run["max_distance_from_home"].as_f64().unwrap();
    assert!(
        farthest > 0.0 && farthest <= (radius + margin) * 1.0001,
        "{farthest} > {radius} + {margin}"
    );
    assert_eq!(run["routes_planned"], 0, "an open plane needs no routes");
    assert!(run["mean_speed"].as_f64().unwrap() > 0.0);
    assert!(run["min_pairwise_path_difference"].as_f64().unwrap() > 0.5);
    assert_eq!(run, json_of(&args), "the same seed runs the same");
    let text = stdout(&temple_trails(&["wander", "--count", "1", "--steps", "5"]));
    assert!(
        text.contains("min pairwise path difference: none"),
        "{text}"
    );
}

#[test]
fn wander_keeps_a_crowd_on_stone_apart_and_plans_without_long_waits() {
    let crowd = |avoid: &str| {
        json_of(&[
            "wander",
            "--seed",
            "4",
            "--count",
            "1500",
            "--steps",
            "300",
            "--density",
            "0.3",
            "--bodies",
            "mixed",
            avoid,
            "--format",
            "json",
        ])
    };
    let kept = crowd("--avoid");
    let free = crowd("--no-avoid");
    assert_eq!(
        (&kept["avoid"], &free["avoid"]),
        (&true.into(), &false.into())
    );
    let pairs = |run: &serde_json::Value| run["overlapping_pairs"].as_u64().unwrap();
    assert!(pairs(&kept) * 100 < 1500, "{kept}");
    assert!(pairs(&free) > 20 * pairs(&kept).max(1), "{free}");
    let covered = |run: &serde_json::Value| run["max_overlap_fraction"].as_f64().unwrap();
    // One body of a mixed crowd can still end up wholly covered for a moment (a known defect),
    // so only the pair counts are held to a bound here.
    assert!(covered(&kept) <= covered(&free), "{kept}\n{free}");
    assert!(kept["routes_planned"].as_u64().unwrap() > 0);
    let wait = kept["max_plan_wait_s"].as_f64().unwrap();
    assert!(wait > 0.0 && wait <= 0.25, "{wait}");
}

/// Turns along a polyline of `[x, y]` points as the paper counts them: setting off is the first
/// turn, then each change of direction.
fn turns_along(points: &[serde_json::Value]) -> u64 {
    let xy = |p: &serde_json::Value| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap());
    let mut turns = 0;
    let mut heading: Option<(i64, i64)> = None;
    for pair in points.windows(2) {
        let ((ax, ay), (bx, by)) = (xy(&pair[0]), xy(&pair[1]));
        let (dx, dy) = (bx - ax, by - ay);
        // The same direction: parallel steps pointing the same way.
        let straight_on =
            heading.is_some_and(|(hx, hy)| hx * dy == hy * dx && hx * dx + hy * dy > 0);
        if !straight_on {
            turns += 1;
        }
        heading = Some((dx, dy));
    }
    turns
}

#[test]
fn smooth_reports_both_methods_and_dumps_the_paths() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("paths.json");
    let run = json_of(&[
        "smooth",
        "--seed",
        "5",
        "--width",
        "60",
        "--height",
        "40",
        "--density",
        "0.2",
        "--agent",
        "2x3",
        "--pairs",
        "12",
        "--format",
        "json",
        "--dump",
        dump.to_str().unwrap(),
    ]);
    assert_eq!(run["pairs"], 12);
    assert_eq!(run["agent"], serde_json::json!([2, 3]));
    for method in ["binary", "exact"] {
        let m = &run[method];
        let raw = m["raw_nodes"].as_u64().unwrap();
        let kept = m["smoothed_nodes"].as_u64().unwrap();
        assert!(kept >= 24 && kept < raw, "{method}: {kept} of {raw}");
        assert!(m["smoothed_turns"].as_u64() <= m["raw_turns"].as_u64());
        // Smoothing a path takes time: a report of none would mean nothing was timed.
        let mean_us = m["mean_us"].as_f64().unwrap();
        assert!(
            mean_us > 0.0 && mean_us.is_finite(),
            "{method}: {mean_us} us"
        );
    }
    let dump = read_json(&dump);
    // The totals are the sums over the dumped paths, counted here independently.
    let paths = dump["paths"].as_array().unwrap();
    let total = |key: &str, measure: fn(&[serde_json::Value]) -> u64| -> u64 {
        paths
            .iter()
            .map(|path| measure(path[key].as_array().unwrap()))
            .sum()
    };
    let nodes = |points: &[serde_json::Value]| points.len() as u64;
    assert_eq!(run["binary"]["raw_nodes"], total("raw", nodes));
    assert_eq!(run["binary"]["raw_turns"], total("raw", turns_along));
    assert_eq!(run["exact"]["raw_turns"], total("raw", turns_along));
    for method in ["binary", "exact"] {
        assert_eq!(
            run[method]["smoothed_nodes"],
            total(method, nodes),
            "{method}"
        );
        assert_eq!(
            run[method]["smoothed_turns"],
            total(method, turns_along),
            "{method}"
        );
    }
    assert_eq!(
        (dump["width"].as_u64(), dump["height"].as_u64()),
        (Some(60), Some(40))
    );
    assert_eq!(dump["agent"], serde_json::json!([2, 3]));
    assert_eq!(
        dump["centre_offsets"],
        serde_json::json!({"left": 0, "top": 1, "right": 1, "bottom": 1})
    );
    let grid = dump["grid"].as_array().unwrap();
    assert_eq!(grid.len(), 40);
    assert!(
        grid.iter()
            .all(|row| row.as_str().unwrap().chars().count() == 60)
    );
    let paths = dump["paths"].as_array().unwrap();
    assert_eq!(paths.len(), 12);
    for path in paths {
        let raw = path["raw"].as_array().unwrap();
        assert_eq!(raw.first(), Some(&path["start"]));
        assert_eq!(raw.last(), Some(&path["goal"]));
        for method in ["binary", "exact"] {
            let kept = path[method].as_array().unwrap();
            assert_eq!((kept.first(), kept.last()), (raw.first(), raw.last()));
            assert!(kept.len() <= raw.len());
        }
    }
}

#[test]
fn wander_and_smooth_bad_values_are_refused() {
    assert_usage_error(&["wander", "--count", "0"], &["--count"]);
    assert_usage_error(&["wander", "--steps", "2000000"], &["--steps"]);
    assert_usage_error(&["wander", "--density", "0.9"], &["0 to 0.45"]);
    assert_usage_error(&["wander", "--density", "dense"], &["not a number"]);
    assert_usage_error(&["wander", "--bodies", "huge"], &["points, small, mixed"]);
    assert_usage_error(&["smooth", "--agent", "5x1"], &["1 to 4"]);
    assert_usage_error(&["smooth", "--agent", "2by2"], &["LxW"]);
    assert_usage_error(&["smooth", "--density", "1.5"], &["0 to 1"]);
    assert_usage_error(&["smooth", "--density", "-0.1"], &["0 to 1"]);
    assert_usage_error(&["smooth", "--pairs", "0"], &["--pairs"]);
    assert_usage_error(&["smooth", "--width", "1"], &["2 to 2000"]);
    let too_big = temple_trails(&["smooth", "--width", "3", "--height", "3", "--agent", "4x4"]);
    assert_eq!(too_big.status.code(), Some(2));
    let message = stderr(&too_big);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("does not fit in a 3x3 field"), "{message}");
}

/// Runs the binary with its output read by `reader`, which then hangs up, as `| head` does.
fn run_into_a_pipe_that_closes(
    args: &[&str],
    reader: impl FnOnce(std::process::ChildStdout),
) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    reader(child.stdout.take().expect("a piped standard output"));
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn a_reader_that_takes_only_the_start_ends_the_output_quietly() {
    use std::io::Read;
    let output = run_into_a_pipe_that_closes(
        &[
            "maze", "--width", "1000", "--height", "1000", "--format", "json",
        ],
        |mut stdout| {
            let mut start = [0u8; 10];
            stdout.read_exact(&mut start).expect("ten bytes of output");
            assert_eq!(&start, b"{\"width\":1");
        },
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "", "nothing on standard error");
}

#[test]
fn every_subcommand_ends_quietly_when_its_reader_has_gone() {
    for args in [
        &["seed", "temple"][..],
        &["seed", "temple", "--format", "json"],
        &["maze", "--width", "300", "--height", "300", "--solve"],
        &["runner", "--segments", "2000", "--preview", "2000"],
        &["runner", "--segments", "200", "--format", "json"],
        &["replay", "tests/golden/runner-replay.json"],
        &["wander", "--count", "20", "--steps", "100"],
        &["smooth", "--pairs", "5"],
        &["smooth", "--pairs", "5", "--format", "json"],
    ] {
        // The reader hangs up before the binary writes anything.
        let output = run_into_a_pipe_that_closes(args, drop);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), "", "{args:?}: nothing on standard error");
    }
}

#[test]
fn an_unwritable_dump_is_one_line_and_exit_code_one() {
    let dir = tempfile::tempdir().unwrap();
    // A folder where the file should be: it cannot be replaced by a file.
    let taken = dir.path().join("taken");
    std::fs::create_dir(&taken).unwrap();
    for args in [
        vec![
            "runner",
            "--segments",
            "20",
            "--dump-track",
            taken.to_str().unwrap(),
        ],
        vec!["smooth", "--pairs", "3", "--dump", taken.to_str().unwrap()],
    ] {
        let output = temple_trails(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(
            message.starts_with("temple-trails: cannot write"),
            "{message}"
        );
        assert!(taken.is_dir(), "the folder in the way is left alone");
    }
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

#[test]
fn a_recorded_system_walk_replays_to_the_exit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("maze.json");
    let output = temple_trails(&[
        "maze",
        "--seed",
        "7",
        "--width",
        "31",
        "--height",
        "31",
        "--solve",
        "--record",
        path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = temple_trails(&["replay", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["mode"], "maze");
    let result = &report["result"];
    assert_eq!(result["finished"], true);
    assert_eq!(result["assisted"], true);
    // The system walk takes the shortest path, one cell every 7 fixed steps.
    let solved = temple_trails(&[
        "maze", "--seed", "7", "--width", "31", "--height", "31", "--solve", "--format", "json",
    ]);
    let maze: serde_json::Value = serde_json::from_str(&stdout(&solved)).unwrap();
    let moves = maze["path"].as_array().unwrap().len() as u64 - 1;
    assert_eq!(result["moves"], moves);
    assert_eq!(result["ticks"], 7 * moves);
    assert_usage_error(&["maze", "--record", "x.json"], &["--solve"]);
    // On Hard the guardians walk too, and the replay plays back the same.
    let hard = dir.path().join("hard.json");
    let output = temple_trails(&[
        "maze",
        "--seed",
        "7",
        "--width",
        "31",
        "--height",
        "31",
        "--difficulty",
        "hard",
        "--solve",
        "--record",
        hard.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = temple_trails(&["replay", hard.to_str().unwrap(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["difficulty"], "hard");
    assert_eq!(report["result"]["finished"], true);
}
