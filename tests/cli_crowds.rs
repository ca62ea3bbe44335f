//! Tests of the built binary's `wander` and `smooth` subcommands: tethered crowds that move
//! differently and keep apart on stone, both smoothing methods, and bad values.

mod binary;

use binary::{assert_usage_error, json_of, read_json, stderr, stdout, temple_trails};

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
            "routes",
            "routes_planned",
            "routes_repaired",
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
    assert_eq!(run["routes"], "replan");
    assert_eq!(run["routes_planned"], 0, "an open plane needs no routes");
    assert_eq!(run["routes_repaired"], 0);
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
    assert!(covered(&kept) <= 0.25, "{kept}");
    assert!(covered(&free) > 0.5, "{free}");
    assert!(kept["routes_planned"].as_u64().unwrap() > 0);
    let wait = kept["max_plan_wait_s"].as_f64().unwrap();
    assert!(wait > 0.0 && wait <= 0.25, "{wait}");
}

/// On stone, `--routes repair` repairs routes where `--routes replan` plans them afresh, and
/// both keep every NPC within its tether and margin.
#[test]
fn wander_on_stone_repairs_routes_when_asked_and_keeps_the_tether() {
    let crowd = |routes: &str| {
        json_of(&[
            "wander",
            "--seed",
            "6",
            "--count",
            "800",
            "--steps",
            "400",
            "--density",
            "0.4",
            "--routes",
            routes,
            "--format",
            "json",
        ])
    };
    let (replanned, repaired) = (crowd("replan"), crowd("repair"));
    let count = |run: &serde_json::Value, key: &str| run[key].as_u64().unwrap();
    assert_eq!(count(&replanned, "routes_repaired"), 0, "{replanned}");
    assert!(count(&replanned, "routes_planned") > 0, "{replanned}");
    assert!(
        count(&repaired, "routes_repaired") > count(&repaired, "routes_planned"),
        "{repaired}"
    );
    for run in [&replanned, &repaired] {
        let limit =
            run["wander_max_distance"].as_f64().unwrap() + run["tether_margin"].as_f64().unwrap();
        let farthest = run["max_distance_from_home"].as_f64().unwrap();
        assert!(farthest <= limit * 1.0001, "{run}");
    }
    let text = stdout(&temple_trails(&[
        "wander",
        "--count",
        "300",
        "--steps",
        "200",
        "--density",
        "0.4",
        "--routes",
        "repair",
    ]));
    assert!(text.contains("routes: repair\n"), "{text}");
    assert!(text.contains("routes repaired: "), "{text}");
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
    assert_usage_error(
        &["wander", "--routes", "mend"],
        &["--routes", "replan, repair"],
    );
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
