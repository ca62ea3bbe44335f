//! Tests of the built binary's `maze` subcommand: the grid as ASCII and JSON, the path, bad
//! values, guardians, and a recorded system walk that replays.

mod binary;

use binary::{assert_usage_error, json_of, stderr, stdout, temple_trails};
use temple_trails::logic::maze::run::SYSTEM_WALK_TICKS;

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

/// Records the system walk of the 31 x 31 maze of seed 7 at `difficulty` into `dir`, and gives
/// the `replay` command's JSON report of the file.
fn recorded_walk_report(dir: &std::path::Path, difficulty: &str) -> serde_json::Value {
    let path = dir.join(format!("{difficulty}.json"));
    let output = temple_trails(&[
        "maze",
        "--seed",
        "7",
        "--width",
        "31",
        "--height",
        "31",
        "--difficulty",
        difficulty,
        "--solve",
        "--record",
        path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = temple_trails(&["replay", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap()
}

#[test]
fn a_recorded_system_walk_replays_to_the_exit() {
    let dir = tempfile::tempdir().unwrap();
    let report = recorded_walk_report(dir.path(), "normal");
    assert_eq!(report["mode"], "maze");
    let result = &report["result"];
    assert_eq!(result["finished"], true);
    assert_eq!(result["assisted"], true);
    // The system walk takes the shortest path, one cell every SYSTEM_WALK_TICKS fixed steps.
    let solved = temple_trails(&[
        "maze", "--seed", "7", "--width", "31", "--height", "31", "--solve", "--format", "json",
    ]);
    let maze: serde_json::Value = serde_json::from_str(&stdout(&solved)).unwrap();
    let moves = maze["path"].as_array().unwrap().len() as u64 - 1;
    assert_eq!(result["moves"], moves);
    assert_eq!(result["ticks"], SYSTEM_WALK_TICKS * moves);
    assert_usage_error(&["maze", "--record", "x.json"], &["--solve"]);
    // On Hard the guardians walk too, and the replay plays back the same.
    let report = recorded_walk_report(dir.path(), "hard");
    assert_eq!(report["difficulty"], "hard");
    assert_eq!(report["result"]["finished"], true);
}
