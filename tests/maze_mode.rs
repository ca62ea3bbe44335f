//! Headless App tests of the maze mode: walking through open passages only, the trail, the hint,
//! the system walk, winning and best times.

mod common;

use bevy::prelude::*;
use common::{headless_app, press, run_frames, state};
use temple_trails::game::maze::options::{MazeOptions, MazeSize};
use temple_trails::game::maze::{MazeRun, MazeWin};
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::scores::BestScores;
use temple_trails::game::screens::{Menu, Mode, Screen};
use temple_trails::game::settings::Settings;
use temple_trails::logic::maze::{Algorithm, Direction};

/// An app in the maze mode on a small maze, its files in `home` when given.
fn maze_app(home: Option<&std::path::Path>) -> App {
    let mut app = headless_app(home);
    app.world_mut().resource_mut::<Settings>().maze = MazeOptions {
        size: MazeSize::Custom,
        custom_width: 7,
        custom_height: 5,
        algorithm: Algorithm::Backtracker,
        braid_percent: 0,
    };
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(Mode::Maze)));
    run_frames(&mut app, 2);
    assert_eq!(state::<Screen>(&app), Screen::Maze);
    app
}

fn run(app: &App) -> &MazeRun {
    app.world().resource::<MazeRun>()
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
    assert_eq!(run.trail, vec![run.maze.start()]);
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
        run(&app).trail.len(),
        moved + 1,
        "the trail grows with every step"
    );
}

#[test]
fn a_held_key_repeats_after_a_delay() {
    let mut app = maze_app(None);
    let direction = open_direction(&app);
    let key = key_for(direction);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(key);
    app.update();
    assert_eq!(run(&app).moves, 1, "one step on the press");
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .clear();
    // Still held; each test frame is 100 ms, past the repeat delay after three frames.
    run_frames(&mut app, 6);
    assert!(run(&app).moves > 1 || !run(&app).maze.is_open(run(&app).player, direction));
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release(key);
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
    assert_eq!(run(&app).trail.len(), 3);
    assert_eq!(run(&app).moves, 2);
}

#[test]
fn space_toggles_a_hint_that_starts_at_the_player() {
    let mut app = maze_app(None);
    let direction = open_direction(&app);
    press(&mut app, key_for(direction));
    press(&mut app, KeyCode::Space);
    let hint = run(&app).hint.clone().unwrap();
    let path = hint.path.unwrap();
    assert!(run(&app).hint_shown);
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
    let path = run(&app).hint.clone().unwrap().path.unwrap();
    assert_eq!(path[0], next);

    press(&mut app, KeyCode::Space);
    assert!(!run(&app).hint_shown);
    assert_eq!(run(&app).hints_used, 1, "hiding is not another hint");
}

#[test]
fn walking_the_hint_to_the_exit_wins_and_stores_a_best_time() {
    let home = tempfile::tempdir().unwrap();
    let mut app = maze_app(Some(home.path()));
    press(&mut app, KeyCode::Space);
    let path = run(&app).hint.clone().unwrap().path.unwrap();
    for pair in path.windows(2) {
        let direction = direction_between(run(&app), pair[0], pair[1]);
        press(&mut app, key_for(direction));
    }
    run_frames(&mut app, 1);
    assert!(run(&app).finished);
    assert_eq!(state::<Menu>(&app), Menu::Win);
    let win = app.world().resource::<MazeWin>().clone();
    assert_eq!(win.moves as usize, path.len() - 1);
    assert_eq!(win.optimal_moves, path.len() - 1);
    assert!((win.efficiency_percent - 100.0).abs() < 1e-9);
    assert!(win.new_record && !win.assisted);
    let board = app.world().resource::<Settings>().maze.score_board();
    let best = app
        .world()
        .resource::<BestScores>()
        .best(Mode::Maze, &board)
        .cloned();
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
    assert_eq!(state::<Screen>(&app), Screen::Maze);
}

#[test]
fn the_clock_stops_while_paused() {
    let mut app = maze_app(None);
    run_frames(&mut app, 3);
    press(&mut app, KeyCode::Escape);
    let paused_at = run(&app).elapsed;
    run_frames(&mut app, 5);
    assert_eq!(run(&app).elapsed, paused_at);
}

#[test]
fn maze_settings_change_from_the_settings_menu_keys() {
    let mut app = headless_app(None);
    app.world_mut()
        .write_message(MenuInput::Adjusted(MenuItem::MazeSize, 1));
    app.world_mut()
        .write_message(MenuInput::Adjusted(MenuItem::MazeAlgorithm, -1));
    app.world_mut()
        .write_message(MenuInput::Adjusted(MenuItem::MazeBraid, 1));
    run_frames(&mut app, 1);
    let maze = app.world().resource::<Settings>().maze;
    assert_eq!(maze.size, MazeSize::Medium);
    assert_eq!(maze.algorithm, Algorithm::Wilson);
    assert_eq!(maze.braid_percent, 5);
}
