//! Headless App tests of the records folder as the game reads and writes it: 500 records, some
//! of them hostile, do not hold up the title; the genuine ones are all listed once checked, the
//! hostile ones set aside or skipped, and nothing outside the data folder changes. A second
//! start reads the checked files without playing them again. A new record never takes an
//! existing file's name, and a file is deleted only when it is the very run that fell off its
//! board.

mod common;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use common::{FRAME, headless_app_with, state, wait_for_records};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use temple_trails::game::replays::{RecordCheckBudget, Records, RunRecorded, board_folder_name};
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::game::storage::{StorageDir, StorageWarnings};
use temple_trails::logic::REPLAY_KINDS;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::maze::Algorithm;
use temple_trails::logic::maze::replay::{MazeKind, MazeOptions};
use temple_trails::logic::maze::run::{MazeInput, MazeRun};
use temple_trails::logic::replay::{
    self, Replay, ReplayHeader, kind_of, record_computer_play, replay_of, to_bytes,
};
use temple_trails::logic::runner::body::Command;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};

/// Genuine records in the folder of the big test: 50 boards of 10.
const GENUINE: usize = 500;
/// The longest the first frame may take with them in the folder: it must not wait for them.
const FIRST_FRAME_LIMIT: Duration = Duration::from_secs(3);

fn header(seed: u64, difficulty: Difficulty, unix_s: u64) -> ReplayHeader {
    ReplayHeader {
        seed,
        seed_text: seed.to_string(),
        difficulty,
        game_version: "test".to_owned(),
        recorded_unix_s: unix_s,
    }
}

/// The system walking a small maze to its exit: a genuine (assisted) record.
fn maze_walk(width: usize, seed: u64, difficulty: Difficulty) -> Replay {
    let options = MazeOptions {
        width,
        height: 3,
        algorithm: Algorithm::Backtracker,
        braid: 0.0,
        level: 1,
    };
    let mut run = MazeRun::new(options.setup(seed, difficulty), false).unwrap();
    let recorder = record_computer_play(&mut run, |_| false, MazeInput::SystemWalk(true));
    replay_of::<MazeKind>(header(seed, difficulty, 1_000 + seed), &run, &recorder)
}

/// A player's runner run that jumps now and then, to its crash.
fn runner_run(seed: u64, difficulty: Difficulty) -> Replay {
    let mut sim = RunnerSim::new(seed, difficulty);
    let recorder = replay::record(
        &mut sim,
        |_| false,
        |tick, _| match tick % 80 {
            20 => vec![RunnerInput::Command(Command::Jump)],
            _ => Vec::new(),
        },
    );
    replay_of::<RunnerKind>(header(seed, difficulty, 2_000 + seed), &sim, &recorder)
}

/// The board of a run that is not the daily challenge.
fn board_of(replay: &Replay) -> String {
    let kind = kind_of(replay, REPLAY_KINDS).unwrap();
    replay::boards::board_of(replay, kind, None).unwrap()
}

/// A runner run's score.
fn score(replay: &Replay) -> u64 {
    replay.result.outcome::<RunnerKind>().unwrap().score
}

fn write_record(home: &Path, board: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let folder = home.join("replays").join(board_folder_name(board));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Every file below `dir`, with its contents (links as what they point to, unfollowed).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            files.extend(snapshot(&path));
        } else if kind.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            files.insert(path, target.to_string_lossy().into_owned().into_bytes());
        } else {
            files.insert(path.clone(), std::fs::read(&path).unwrap_or_default());
        }
    }
    files
}

/// A game app on `home` whose first frames are left to the test.
fn unstarted_app(home: &Path, budget: Option<Duration>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
        .insert_resource(StorageDir::single(home));
    if let Some(budget) = budget {
        app.insert_resource(RecordCheckBudget(budget));
    }
    app.add_plugins(temple_trails::game::plugin);
    app
}

fn warnings(app: &App) -> Vec<String> {
    app.world().resource::<StorageWarnings>().0.clone()
}

/// The hostile files: each is put in the folder, and what the player must be told of it.
fn plant_hostile_files(home: &Path, outside: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut planted = Vec::new();
    let runner = runner_run(7, Difficulty::Normal);
    let text = |replay: &Replay| serde_json::to_value(replay).unwrap();
    let write = |board: &str, name: &str, value: &serde_json::Value| {
        write_record(home, board, name, value.to_string().as_bytes())
    };

    let mut endless = text(&runner);
    endless["result"]["ticks"] = serde_json::json!(u64::MAX);
    planted.push((
        write("runner/normal", "endless.json", &endless),
        "fixed steps",
    ));

    let mut autopilot_forever = text(&runner);
    autopilot_forever["inputs"] = serde_json::json!([{"tick": 0, "input": {"autopilot": true}}]);
    autopilot_forever["result"]["ticks"] = serde_json::json!(1_000_000_000_000_000_u64);
    planted.push((
        write(
            "runner/normal",
            "autopilot-forever.json",
            &autopilot_forever,
        ),
        "fixed steps",
    ));

    let wide = maze_walk(9, 3, Difficulty::Easy);
    let mut widest = text(&wide);
    widest["maze"]["width"] = serde_json::json!(u64::MAX);
    widest["maze"]["level"] = serde_json::json!(2);
    planted.push((
        write("maze/9x3/backtracker/easy", "widest.json", &widest),
        "each side is",
    ));

    let mut crowd = text(&runner);
    let input = crowd["inputs"][0].clone();
    crowd["inputs"] = serde_json::Value::Array(vec![input; 400_000]);
    planted.push((write("runner/normal", "crowd.json", &crowd), "inputs"));

    let mut swapped = text(&runner);
    let inputs = swapped["inputs"].as_array_mut().unwrap();
    inputs.swap(0, 1);
    planted.push((
        write("runner/normal", "swapped.json", &swapped),
        "before the input ahead",
    ));

    planted.push((
        write("runner/hard", "easy-on-hard.json", &text(&runner)),
        "wrong place",
    ));
    planted.push((
        write("runner/normal", "maze-on-runner.json", &text(&wide)),
        "wrong place",
    ));

    let mut other_text = text(&runner);
    other_text["seed_text"] = serde_json::json!("8");
    planted.push((
        write("runner/normal", "other-text.json", &other_text),
        "seed text",
    ));

    let mut shouting = text(&runner);
    shouting["seed_text"] = serde_json::json!("7\n\u{1b}[2Jscore: 999999");
    planted.push((
        write("runner/normal", "shouting.json", &shouting),
        "seed text",
    ));

    let mut better = text(&runner);
    better["result"]["score"] = serde_json::json!(999_999);
    planted.push((write("runner/normal", "better.json", &better), "diverged"));

    let huge = write_record(home, "runner/normal", "huge.json", b"");
    std::fs::File::options()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len(40 * 1024 * 1024)
        .unwrap();
    planted.push((huge, "bytes"));

    planted.push((
        write_record(
            home,
            "runner/normal",
            "old.json",
            b"{\"format\":\"temple-trails-replay\",\"version\":1}",
        ),
        "version 1",
    ));

    // Links and special files: skipped, never followed, never renamed.
    let link = home.join("replays").join("runner+normal").join("link.json");
    std::os::unix::fs::symlink(outside.join("outside.json"), &link).unwrap();
    planted.push((link, "a link"));
    let folder_link = home.join("replays").join("runner+easy");
    std::os::unix::fs::symlink(outside, &folder_link).unwrap();
    planted.push((folder_link, "a link"));
    let pipe = home.join("replays").join("runner+normal").join("pipe.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    planted.push((pipe, "special file"));
    planted
}

#[test]
fn five_hundred_records_some_hostile_never_hold_up_the_title() {
    let home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    // What the links point to: a genuine record and a board's worth of them, outside.
    std::fs::write(
        outside.path().join("outside.json"),
        to_bytes(&runner_run(11, Difficulty::Easy)),
    )
    .unwrap();
    std::fs::write(
        outside.path().join("easy.json"),
        to_bytes(&runner_run(12, Difficulty::Easy)),
    )
    .unwrap();
    let mut genuine = Vec::new();
    for board_at in 0..GENUINE / 10 {
        for seed in 0..10 {
            let replay = maze_walk(3 + board_at, seed, Difficulty::Easy);
            let board = board_of(&replay);
            write_record(
                home.path(),
                &board,
                &format!("{seed}.json"),
                &to_bytes(&replay),
            );
            genuine.push(replay);
        }
    }
    let hostile = plant_hostile_files(home.path(), outside.path());
    let outside_before = snapshot(outside.path());

    let started = Instant::now();
    let mut app = unstarted_app(home.path(), None);
    app.update();
    let first_frame = started.elapsed();
    println!(
        "first frame with {GENUINE} records and {} hostile files: {first_frame:?}",
        hostile.len()
    );
    assert!(first_frame < FIRST_FRAME_LIMIT, "{first_frame:?}");
    assert!(
        app.world().resource::<Records>().is_checking(),
        "the first frame did not wait for the records"
    );
    app.update();
    assert_eq!(state::<Screen>(&app), Screen::Title);
    assert_eq!(state::<Menu>(&app), Menu::Main);

    wait_for_records(&mut app);
    println!("all checked after {:?}", started.elapsed());
    let records = app.world().resource::<Records>();
    assert_eq!(records.len(), GENUINE, "every genuine record is listed");
    let listed: Vec<&Replay> = records.listed().iter().map(|(_, r)| &r.replay).collect();
    assert!(listed.iter().all(|replay| genuine.contains(replay)));
    let told = warnings(&app);
    assert_eq!(told.len(), hostile.len(), "{told:#?}");
    for (file, why) in &hostile {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            told.iter()
                .any(|warning| warning.contains(&name) && warning.contains(why)),
            "{name}: {why} in {told:#?}"
        );
    }
    for warning in &told {
        assert!(
            !warning.contains('\n') && !warning.contains('\u{1b}'),
            "{warning}"
        );
    }
    // Set aside beside their names (never deleted), or, links and pipes, left as they were.
    let kept: Vec<String> = std::fs::read_dir(home.path().join("replays/runner+normal"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for (file, why) in &hostile {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let skipped = why.contains("link") || why.contains("special");
        let folder = file.parent().unwrap();
        let aside = std::fs::read_dir(folder).unwrap().any(|entry| {
            let other = entry.unwrap().file_name().to_string_lossy().into_owned();
            other.starts_with(&format!("{name}.corrupt-"))
        });
        assert_eq!(
            std::fs::symlink_metadata(file).is_ok(),
            skipped,
            "{name} in {kept:?}"
        );
        assert_eq!(aside, !skipped, "{name} in {kept:?}");
    }
    assert_eq!(
        snapshot(outside.path()),
        outside_before,
        "nothing outside changed"
    );
    assert!(home.path().join("replays").join("checked.json").is_file());
    assert!(home.path().join("records.key").is_file());
    drop(app);

    // The next start plays nothing again: with no time at all to play a file, every genuine
    // record is still listed, and only what was set aside is gone.
    let mut again = unstarted_app(home.path(), Some(Duration::ZERO));
    again.update();
    wait_for_records(&mut again);
    assert_eq!(again.world().resource::<Records>().len(), GENUINE);
    let told = warnings(&again);
    assert_eq!(
        told.len(),
        3,
        "the links and the pipe are skipped again: {told:#?}"
    );
    // A file edited since it was checked is played again, and with no time, set aside.
    let edited = home
        .path()
        .join("replays")
        .join(board_folder_name(&board_of(&genuine[0])))
        .join("0.json");
    let mut bytes = std::fs::read(&edited).unwrap();
    bytes.push(b' ');
    std::fs::write(&edited, &bytes).unwrap();
    drop(again);
    let mut third = unstarted_app(home.path(), Some(Duration::ZERO));
    third.update();
    wait_for_records(&mut third);
    assert_eq!(third.world().resource::<Records>().len(), GENUINE - 1);
    assert!(
        warnings(&third)
            .iter()
            .any(|warning| warning.contains("0.json") && warning.contains("longer than it may")),
        "{:#?}",
        warnings(&third)
    );
    assert_eq!(
        snapshot(outside.path()),
        outside_before,
        "nothing outside changed"
    );
}

/// The record files of a board's folder (not its ghosts), by name.
fn board_files(home: &Path, board: &str) -> BTreeMap<String, Vec<u8>> {
    let folder = home.join("replays").join(board_folder_name(board));
    std::fs::read_dir(folder)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_file())
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

fn send(app: &mut App, replay: &Replay) {
    let board = board_of(replay);
    app.world_mut().write_message(RunRecorded {
        board,
        replay: replay.clone(),
    });
    app.update();
}

/// A runner run of `seed` re-dated, so that it ranks where the test wants among equals.
fn dated(seed: u64, unix_s: u64) -> Replay {
    Replay {
        recorded_unix_s: unix_s,
        ..runner_run(seed, Difficulty::Normal)
    }
}

#[test]
fn a_new_record_never_takes_an_existing_name_and_only_the_dropped_run_is_deleted() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app_with(Some(home.path()), |_| {});
    let board = "runner/normal";
    // Ten runs of one seed, each a second apart: a full board.
    for second in 0..10 {
        send(&mut app, &dated(3, 100 + second));
    }
    let full = board_files(home.path(), board);
    assert_eq!(full.len(), 10);

    // A file in the way of the name the next run takes: another run of that very second and
    // length. It is kept, and the new run is written beside it.
    let next = dated(3, 50);
    let digest = blake3::hash(&to_bytes(&next)).to_hex();
    let taken = format!("50-{}-{}.json", next.result.ticks, &digest[..12]);
    let squatter = b"not this run".to_vec();
    write_record(home.path(), board, &taken, &squatter);
    send(&mut app, &next);
    let after = board_files(home.path(), board);
    assert_eq!(
        after[&taken], squatter,
        "the file in the way is left as it was"
    );
    let beside = taken.replace(".json", "-2.json");
    assert_eq!(
        after[&beside],
        to_bytes(&next),
        "the new run is written beside it"
    );
    // The newest of the ten equal runs fell off the board, and only its file went.
    let gone: Vec<&String> = full
        .keys()
        .filter(|name| !after.contains_key(*name))
        .collect();
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert!(gone[0].starts_with("109-"), "{gone:?}");
    assert_eq!(score(&next), score(&dated(3, 109)));

    // A record whose file was changed since it was kept is no longer that run: when it falls
    // off, its file stays.
    let newest = full
        .keys()
        .find(|name| name.starts_with("108-"))
        .unwrap()
        .clone();
    let changed = home
        .path()
        .join("replays")
        .join(board_folder_name(board))
        .join(&newest);
    std::fs::write(&changed, b"changed by hand").unwrap();
    send(&mut app, &dated(3, 40));
    let last = board_files(home.path(), board);
    assert_eq!(last[&newest], b"changed by hand", "not deleted");
    assert_eq!(app.world().resource::<Records>().len(), 10);
}

#[test]
fn a_record_finished_while_the_files_are_checked_waits_and_is_kept() {
    let home = tempfile::tempdir().unwrap();
    let mut scores = Vec::new();
    for seed in 0..200 {
        let replay = runner_run(seed, Difficulty::Normal);
        scores.push(score(&replay));
        write_record(
            home.path(),
            "runner/normal",
            &format!("{seed}.json"),
            &to_bytes(&replay),
        );
    }
    scores.sort_unstable();
    let tenth_best = scores[scores.len() - 10];
    let mut app = unstarted_app(home.path(), None);
    // A run that makes the board, finished at the very first frame as the check starts: it
    // waits for the check, then takes its place.
    let run = (1_000..2_000)
        .map(|seed| runner_run(seed, Difficulty::Normal))
        .find(|replay| score(replay) > tenth_best)
        .expect("a run that makes the board");
    app.world_mut().write_message(RunRecorded {
        board: "runner/normal".to_owned(),
        replay: run.clone(),
    });
    app.update();
    wait_for_records(&mut app);
    app.update();
    let records = app.world().resource::<Records>();
    assert_eq!(records.len(), 10, "a full board");
    let on_disk = board_files(home.path(), "runner/normal");
    assert!(
        records
            .listed()
            .iter()
            .any(|(_, record)| record.replay == run)
    );
    assert!(on_disk.values().any(|bytes| *bytes == to_bytes(&run)));
    // It pushed the tenth run off the board and that file went: 200 files, and none of the
    // others was touched.
    assert_eq!(on_disk.len(), 200);
    let originals = (0..200)
        .filter(|seed| on_disk.contains_key(&format!("{seed}.json")))
        .count();
    assert_eq!(originals, 199);
}

#[test]
fn closing_the_game_while_the_files_are_checked_sets_nothing_aside() {
    let home = tempfile::tempdir().unwrap();
    for seed in 0..200 {
        let replay = runner_run(seed, Difficulty::Hard);
        write_record(
            home.path(),
            "runner/hard",
            &format!("{seed}.json"),
            &to_bytes(&replay),
        );
    }
    let mut app = unstarted_app(home.path(), None);
    app.update();
    // Closed at once: the check stops at its next chance, keeping what it has done.
    drop(app);
    let mut again = unstarted_app(home.path(), None);
    again.update();
    wait_for_records(&mut again);
    assert!(warnings(&again).is_empty(), "{:#?}", warnings(&again));
    assert_eq!(again.world().resource::<Records>().len(), 10);
    let names: Vec<String> = board_files(home.path(), "runner/hard")
        .into_keys()
        .collect();
    assert_eq!(names.len(), 200, "{names:?}");
    assert!(
        names.iter().all(|name| !name.contains("corrupt")),
        "{names:?}"
    );
}
