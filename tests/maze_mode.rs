//! Headless App tests of the maze mode: walking through open passages only, the trail, the hint,
//! the system walk, winning and best times.

mod common;

use bevy::prelude::*;
use common::{headless_app, press, run_frames, state};
use leafwing_input_manager::prelude::Buttonlike;
use temple_trails::game::maze;
use temple_trails::game::maze::hint::MazeHint;
use temple_trails::game::maze::options::{
    ALGORITHM, BRAID, MazeLesson, MazeOptions, MazeSize, SIZE,
};
use temple_trails::game::maze::tips::{MazeTips, TIP_STEPS};
use temple_trails::game::maze::walk::{REPEAT_DELAY, REPEAT_INTERVAL};
use temple_trails::game::maze::{CurrentMaze, MODE, MazeWin};
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::scores::BestScores;
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::game::settings::Settings;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::guidance::Guidance;
use temple_trails::logic::maze::replay::MazeKind;
use temple_trails::logic::maze::run::MazeRun;
use temple_trails::logic::maze::{Algorithm, Direction};
use temple_trails::logic::replay;
use temple_trails::logic::runner::timing::SIMULATION_STEP_S;
use temple_trails::logic::verify_replay;

/// The small maze the tests play.
const SMALL: MazeOptions = MazeOptions {
    size: MazeSize::Custom,
    custom_width: 7,
    custom_height: 5,
    algorithm: Algorithm::Backtracker,
    braid_percent: 0,
    guidance: Guidance::new(),
};

/// An app in the maze mode on a small maze, its files in `home` when given.
fn maze_app(home: Option<&std::path::Path>) -> App {
    maze_app_with_seed(home, None)
}

/// Like [`maze_app`], with the seed text `seed` when given.
fn maze_app_with_seed(home: Option<&std::path::Path>, seed: Option<&str>) -> App {
    let mut app = headless_app(home);
    app.world_mut().insert_resource(SMALL);
    if let Some(seed) = seed {
        app.world_mut()
            .write_message(MenuInput::SeedTyped(seed.to_owned()));
        run_frames(&mut app, 1);
    }
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    run_frames(&mut app, 2);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
    app
}

fn run(app: &App) -> &MazeRun {
    &app.world().resource::<CurrentMaze>().0
}

fn hint(app: &App) -> &MazeHint {
    app.world().resource::<MazeHint>()
}

fn key_for(direction: Direction) -> KeyCode {
    match direction {
        Direction::North => KeyCode::ArrowUp,
        Direction::East => KeyCode::ArrowRight,
        Direction::South => KeyCode::ArrowDown,
        Direction::West => KeyCode::ArrowLeft,
    }
}

/// A direction in which the passage from the player's cell is open.
fn open_direction(app: &App) -> Direction {
    let run = run(app);
    Direction::ALL
        .into_iter()
        .find(|&d| run.maze.is_open(run.player, d))
        .expect("every cell of a connected maze has an open side")
}

/// The direction from one cell to its neighbour.
fn direction_between(run: &MazeRun, from: usize, to: usize) -> Direction {
    Direction::ALL
        .into_iter()
        .find(|&d| run.maze.neighbour(from, d) == Some(to))
        .expect("neighbours")
}

#[test]
fn entering_the_maze_starts_at_the_start_with_a_one_cell_trail() {
    let app = maze_app(None);
    let run = run(&app);
    assert_eq!((run.maze.width(), run.maze.height()), (7, 5));
    assert_eq!(run.player, run.maze.start());
    assert_eq!(run.trail(), [run.maze.start()]);
    assert_eq!(run.moves, 0);
}

#[test]
fn arrow_keys_move_only_through_open_passages() {
    let mut app = maze_app(None);
    let mut moved = 0;
    for round in 0..40 {
        let direction = Direction::ALL[(round * 7 + round / 3) % 4];
        let before = run(&app).player;
        let open = run(&app).maze.is_open(before, direction);
        press(&mut app, key_for(direction));
        let after = run(&app).player;
        if open {
            assert_eq!(Some(after), run(&app).maze.neighbour(before, direction));
            moved += 1;
        } else {
            assert_eq!(after, before, "walked through a wall going {direction:?}");
        }
        if run(&app).finished {
            break;
        }
    }
    assert!(moved > 0, "the walk never found an open passage");
    assert_eq!(run(&app).moves as usize, moved);
    assert_eq!(
        run(&app).trail().len(),
        moved + 1,
        "the trail grows with every step"
    );
}

/// The first seed whose small maze has a straight corridor of at least `cells` cells going east
/// from the start, so a held key can repeat along it.
fn seed_with_a_long_first_corridor(cells: usize) -> u64 {
    (0..1000)
        .find(|&seed| {
            let maze = SMALL.spec(seed).generate().unwrap();
            let mut cell = maze.start();
            (0..cells).all(|_| {
                let open = maze.is_open(cell, Direction::East);
                cell += 1;
                open
            })
        })
        .expect("some small maze starts with a long corridor")
}

#[test]
fn a_held_key_repeats_after_a_delay() {
    // Frames of 100 ms: the first repeat is due once the key has been down for the delay.
    let frame = common::FRAME;
    let frames_to_first_repeat = REPEAT_DELAY.div_duration_f64(frame).ceil() as usize;
    assert!(
        REPEAT_INTERVAL <= frame,
        "then every frame after it repeats once"
    );
    let corridor = frames_to_first_repeat + 2;
    let seed = seed_with_a_long_first_corridor(corridor);
    let mut app = maze_app_with_seed(None, Some(&seed.to_string()));
    assert_eq!(run(&app).spec.seed, seed);
    KeyCode::ArrowRight.press(app.world_mut());
    app.update();
    // A key's step is taken at the next fixed step, in the next frame.
    app.update();
    assert_eq!(run(&app).moves, 1, "one step on the press");
    // Still held: nothing until the delay has passed...
    run_frames(&mut app, frames_to_first_repeat - 2);
    assert_eq!(run(&app).moves, 1, "no repeat before the delay");
    // ...then one step per frame along the corridor (each a frame after its repeat).
    run_frames(&mut app, 4);
    assert_eq!(run(&app).moves, 4, "a step each frame once repeating");
    assert_eq!(run(&app).player, run(&app).maze.start() + 4);
    KeyCode::ArrowRight.release(app.world_mut());
    // The step the last held frame asked for is still taken; then nothing more.
    run_frames(&mut app, 1);
    let moves = run(&app).moves;
    assert!(moves <= 5, "{moves}");
    run_frames(&mut app, 3);
    assert_eq!(run(&app).moves, moves, "released, the player stops");
}

#[test]
fn backtracking_keeps_the_trail() {
    let mut app = maze_app(None);
    let start = run(&app).player;
    let direction = open_direction(&app);
    let back = direction_between(
        run(&app),
        run(&app).maze.neighbour(start, direction).unwrap(),
        start,
    );
    press(&mut app, key_for(direction));
    press(&mut app, key_for(back));
    assert_eq!(run(&app).player, start);
    assert_eq!(run(&app).trail().len(), 3);
    assert_eq!(run(&app).moves, 2);
}

#[test]
fn space_toggles_a_hint_that_starts_at_the_player() {
    let mut app = maze_app(None);
    let direction = open_direction(&app);
    press(&mut app, key_for(direction));
    press(&mut app, KeyCode::Space);
    let path = hint(&app).path().unwrap().to_vec();
    assert!(hint(&app).shown);
    assert_eq!(
        path[0],
        run(&app).player,
        "the hint starts where the player stands"
    );
    assert_eq!(*path.last().unwrap(), run(&app).maze.goal());
    assert_eq!(run(&app).hints_used, 1);

    // Moving along the hint keeps it starting at the player.
    let next = path[1];
    let step = direction_between(run(&app), run(&app).player, next);
    press(&mut app, key_for(step));
    let path = hint(&app).path().unwrap().to_vec();
    assert_eq!(path[0], next);

    press(&mut app, KeyCode::Space);
    assert!(!hint(&app).shown);
    assert_eq!(run(&app).hints_used, 1, "hiding is not another hint");
}

#[test]
fn a_new_players_first_dark_maze_points_out_the_torch_then_the_hint_once() {
    let mut app = maze_app(None);
    let tips = |app: &App| app.world().resource::<MazeTips>().shown;
    assert!(run(&app).rules.torch_radius.is_some(), "Normal is dark");
    assert_eq!(tips(&app), Some(MazeLesson::Torch));
    // Back and forth along one passage: the torch's tip stays for its steps, then the hint's.
    let start = run(&app).player;
    let neighbour = run(&app)
        .maze
        .neighbour(start, open_direction(&app))
        .unwrap();
    for step in 0..TIP_STEPS {
        assert_eq!(tips(&app), Some(MazeLesson::Torch), "step {step}");
        let here = run(&app).player;
        let to = if here == start { neighbour } else { start };
        let key = key_for(direction_between(run(&app), here, to));
        press(&mut app, key);
    }
    assert_eq!(tips(&app), Some(MazeLesson::Hint));
    // Asking for a hint is what its tip teaches: it goes at once.
    press(&mut app, KeyCode::Space);
    app.update();
    assert_eq!(tips(&app), None);
    let saved = &app.world().resource::<Settings>().modes["maze"]["guidance"]["learned"];
    assert_eq!(saved, &serde_json::json!(["torch", "hint"]));
    // Seen: the next maze shows no tip.
    press(&mut app, KeyCode::Escape);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Restart));
    run_frames(&mut app, 3);
    assert_eq!(state::<Menu>(&app), Menu::None);
    assert_eq!(run(&app).moves, 0, "a new run");
    assert_eq!(tips(&app), None);
}

#[test]
fn walking_the_hint_to_the_exit_wins_and_stores_a_best_time() {
    let home = tempfile::tempdir().unwrap();
    let mut app = maze_app(Some(home.path()));
    press(&mut app, KeyCode::Space);
    let path = hint(&app).path().unwrap().to_vec();
    for pair in path.windows(2) {
        let direction = direction_between(run(&app), pair[0], pair[1]);
        press(&mut app, key_for(direction));
    }
    run_frames(&mut app, 1);
    assert!(run(&app).finished);
    assert_eq!(state::<Menu>(&app), Menu::Results);
    let win = app.world().resource::<MazeWin>().clone();
    assert_eq!(win.moves as usize, path.len() - 1);
    assert_eq!(win.optimal_moves, path.len() - 1);
    assert!((win.efficiency_percent - 100.0).abs() < 1e-9);
    assert!(win.new_record && !win.assisted);
    let board = BestScores::board_name(&MODE, &SMALL.score_board(Difficulty::Normal));
    let best = app.world().resource::<BestScores>().best(&board).cloned();
    assert_eq!(best.map(|b| b.value), Some(win.seconds));
    assert!(
        home.path().join("scores.json").exists(),
        "the record is saved"
    );

    // "Same maze again" restarts the same maze from the start.
    let first_maze = run(&app).maze.clone();
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Restart));
    run_frames(&mut app, 3);
    assert_eq!(state::<Menu>(&app), Menu::None);
    assert_eq!(run(&app).maze, first_maze);
    assert_eq!(run(&app).moves, 0);
}

#[test]
fn the_system_walk_reaches_the_exit_and_records_no_time() {
    let mut app = maze_app(None);
    press(&mut app, KeyCode::Enter);
    assert!(run(&app).system_walk);
    let optimal = run(&app).optimal_moves;
    run_frames(&mut app, 4 * optimal + 10);
    assert!(run(&app).finished);
    assert_eq!(
        run(&app).moves as usize,
        optimal,
        "the system walks the shortest path"
    );
    let win = app.world().resource::<MazeWin>();
    assert!(win.assisted && !win.new_record);
    assert!(
        app.world()
            .resource::<BestScores>()
            .book()
            .boards
            .is_empty()
    );
}

#[test]
fn a_movement_key_takes_control_back_from_the_system_walk() {
    let mut app = maze_app(None);
    press(&mut app, KeyCode::Enter);
    assert!(run(&app).system_walk);
    press(&mut app, KeyCode::ArrowLeft);
    assert!(!run(&app).system_walk);
}

#[test]
fn play_again_uses_a_new_seed() {
    let mut app = maze_app(None);
    let seed_before = app.world().resource::<Settings>().seed_text.clone();
    let maze_before = run(&app).maze.clone();
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::PlayAgainNewSeed));
    run_frames(&mut app, 3);
    assert_ne!(app.world().resource::<Settings>().seed_text, seed_before);
    assert_ne!(run(&app).maze, maze_before);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
}

#[test]
fn the_clock_stops_while_paused() {
    let mut app = maze_app(None);
    run_frames(&mut app, 3);
    press(&mut app, KeyCode::Escape);
    let paused_at = run(&app).ticks;
    run_frames(&mut app, 5);
    assert_eq!(run(&app).ticks, paused_at);
}

#[test]
fn maze_settings_change_from_the_settings_menu_keys() {
    let mut app = headless_app(None);
    app.world_mut().write_message(MenuInput::Adjusted(SIZE, 1));
    app.world_mut()
        .write_message(MenuInput::Adjusted(ALGORITHM, -1));
    app.world_mut().write_message(MenuInput::Adjusted(BRAID, 1));
    run_frames(&mut app, 1);
    let maze = app.world().resource::<MazeOptions>().clone();
    assert_eq!(maze.size, MazeSize::Medium);
    assert_eq!(maze.algorithm, Algorithm::Wilson);
    assert_eq!(maze.braid_percent, 5);
    run_frames(&mut app, 1);
    assert_eq!(
        app.world().resource::<Settings>().mode::<MazeOptions>(),
        maze,
        "the edits are stored in the settings"
    );
}

#[test]
fn a_solved_maze_writes_its_replay_which_plays_back_to_the_same_time() {
    let home = tempfile::tempdir().unwrap();
    let mut app = maze_app(Some(home.path()));
    press(&mut app, KeyCode::Space);
    let path = hint(&app).path().expect("a hint").to_vec();
    for pair in path.windows(2) {
        let direction = direction_between(run(&app), pair[0], pair[1]);
        press(&mut app, key_for(direction));
    }
    run_frames(&mut app, 2);
    assert!(run(&app).finished);
    let win = app.world().resource::<MazeWin>().clone();
    // On Normal the hint added its 10 s to the time that counts.
    assert!((win.seconds - win.play_seconds - 10.0).abs() < 1e-9);
    let seconds = win.play_seconds;
    let board = std::fs::read_dir(home.path().join("replays"))
        .expect("a replays folder")
        .next()
        .expect("one board")
        .unwrap()
        .path();
    let file = std::fs::read_dir(&board)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.is_file())
        .expect("one replay on the board");
    let replay = replay::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let played = verify_replay(&replay).expect("it plays back");
    let outcome = played.outcome::<MazeKind>().unwrap();
    assert!((played.ticks as f64 * SIMULATION_STEP_S - seconds).abs() < 1e-9);
    assert_eq!(outcome.moves as usize, path.len() - 1);
    let (hints, finished, assisted) = (outcome.hints_used, outcome.finished, played.assisted);
    assert_eq!((hints, finished, assisted), (1, true, false));
}
