//! Headless App tests of what difficulty and levels make of the maze: Easy fully lit, hints
//! that cost time on Normal and Hard, a guardian's touch sending the player to the last shrine,
//! Next level's larger maze with the run's time carried over, and clicking a seen cell to walk
//! there.

mod common;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use common::{FRAME, headless_app, press, run_frames, state};
use leafwing_input_manager::prelude::Buttonlike;
use temple_trails::game::maze;
use temple_trails::game::maze::hint::MazeHint;
use temple_trails::game::maze::levels::NEXT_LEVEL;
use temple_trails::game::maze::options::{MazeOptions, MazeSize};
use temple_trails::game::maze::view::cell_point_position;
use temple_trails::game::maze::{CurrentMaze, MazeWin};
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::maze::challenge::LEVEL_GROWTH;
use temple_trails::logic::maze::run::MazeRun;
use temple_trails::logic::maze::{Algorithm, Direction};

/// The window of the click tests.
const WINDOW: Vec2 = Vec2::new(1280.0, 720.0);

/// An app in the maze mode at `difficulty` on a `side` x `side` maze of seed 7, with a mouse
/// and a window to click in.
fn maze_app(difficulty: Difficulty, side: usize) -> App {
    let mut app = headless_app(None);
    app.world_mut().insert_resource(MazeOptions {
        size: MazeSize::Custom,
        custom_width: side,
        custom_height: side,
        algorithm: Algorithm::Backtracker,
        braid_percent: 0,
        ..MazeOptions::default()
    });
    app.world_mut().spawn((
        Window {
            resolution: (WINDOW.x as u32, WINDOW.y as u32).into(),
            ..default()
        },
        PrimaryWindow,
    ));
    let world = app.world_mut();
    world.write_message(MenuInput::SeedTyped("7".to_owned()));
    world.write_message(MenuInput::DifficultyChosen(difficulty));
    run_frames(&mut app, 1);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    run_frames(&mut app, 2);
    assert_eq!(state::<Screen>(&app), maze::SCREEN);
    assert_eq!(run(&app).setup.difficulty, difficulty);
    app
}

fn run(app: &App) -> &MazeRun {
    &app.world().resource::<CurrentMaze>().0
}

fn key_for(run: &MazeRun, from: usize, to: usize) -> KeyCode {
    let direction = Direction::ALL
        .into_iter()
        .find(|&d| run.maze.neighbour(from, d) == Some(to))
        .expect("neighbours");
    match direction {
        Direction::North => KeyCode::ArrowUp,
        Direction::East => KeyCode::ArrowRight,
        Direction::South => KeyCode::ArrowDown,
        Direction::West => KeyCode::ArrowLeft,
    }
}

/// Shows the hint (Space), then walks to the exit with the arrow keys, step by step along the
/// shortest way from wherever the player stands (a guardian may send them back).
fn walk_to_the_exit(app: &mut App) {
    press(app, KeyCode::Space);
    assert!(app.world().resource::<MazeHint>().path().is_some());
    for _ in 0..2_000 {
        if run(app).finished {
            return;
        }
        let run = run(app);
        let next = run.next_cell_to_exit().expect("a way out");
        let key = key_for(run, run.player, next);
        press(app, key);
    }
    panic!("the exit was not reached");
}

#[test]
fn easy_is_fully_lit_and_normal_and_hard_are_dark_beyond_the_torch() {
    let easy = maze_app(Difficulty::Easy, 15);
    let cells = run(&easy).maze.cell_count();
    assert!((0..cells).all(|cell| run(&easy).is_lit(cell)));
    for (difficulty, radius) in [(Difficulty::Normal, 5), (Difficulty::Hard, 3)] {
        let app = maze_app(difficulty, 15);
        let run = run(&app);
        assert_eq!(run.rules.torch_radius, Some(radius));
        let lit = (0..cells).filter(|&cell| run.is_lit(cell)).count();
        assert!(
            lit > 0 && lit < cells / 4,
            "{difficulty:?}: {lit} cells lit"
        );
        assert!(!run.is_seen(run.maze.goal()));
    }
}

#[test]
fn the_system_walks_route_goes_when_the_player_takes_control_back() {
    let mut app = maze_app(Difficulty::Normal, 15);
    press(&mut app, KeyCode::Enter);
    run_frames(&mut app, 3);
    assert!(run(&app).system_walk && run(&app).moves > 0);
    assert!(app.world().resource::<MazeHint>().shown, "the route shows");
    let key = {
        let run = run(&app);
        let back = *run.trail().iter().rev().nth(1).unwrap();
        key_for(run, run.player, back)
    };
    press(&mut app, key);
    assert!(!run(&app).system_walk);
    assert!(
        !app.world().resource::<MazeHint>().shown,
        "no free way through the dark"
    );
    assert_eq!(run(&app).hints_used, 0);
}

#[test]
fn a_hint_costs_time_on_normal_and_hard_and_not_on_easy() {
    for (difficulty, cost) in [
        (Difficulty::Easy, 0.0),
        (Difficulty::Normal, 10.0),
        (Difficulty::Hard, 30.0),
    ] {
        let mut app = maze_app(difficulty, 9);
        walk_to_the_exit(&mut app);
        let win = app.world().resource::<MazeWin>().clone();
        assert_eq!(win.hints_used, 1);
        assert!(
            (win.seconds - win.play_seconds - cost).abs() < 1e-9,
            "{difficulty:?}: {} counted for {} played",
            win.seconds,
            win.play_seconds
        );
    }
}

#[test]
fn a_guardians_touch_sends_the_player_back_to_the_last_shrine() {
    let mut app = maze_app(Difficulty::Hard, 21);
    let start = run(&app).maze.start();
    assert!(!run(&app).guardians.is_empty());
    // A guardian stands in the next cell of the way; the player walks into it.
    let first = run(&app).next_cell_to_exit().unwrap();
    let second = {
        let mut ahead = run(&app).clone();
        ahead.step_to(first).unwrap();
        ahead.next_cell_to_exit().unwrap()
    };
    let key = key_for(run(&app), start, first);
    press(&mut app, key);
    assert_eq!(run(&app).player, first);
    {
        let mut maze = app.world_mut().resource_mut::<CurrentMaze>();
        let guardian = &mut maze.guardians.guardians[0];
        (guardian.at, guardian.next, guardian.progress) = (second, None, 0.0);
    }
    let key = key_for(run(&app), first, second);
    press(&mut app, key);
    let run = run(&app);
    assert_eq!(run.catches, 1);
    assert_eq!(run.player, start, "back at the start, the first shrine");
    assert_eq!(run.trail(), [start, first, second, first, start]);
    assert_eq!(run.moves, 2, "being dragged back is not a move");
}

#[test]
fn next_level_makes_a_larger_maze_and_carries_the_run_on() {
    let mut app = maze_app(Difficulty::Hard, 9);
    walk_to_the_exit(&mut app);
    let first = app.world().resource::<MazeWin>().clone();
    assert_eq!((first.level, first.best_level), (1, Some(1)));
    let first_seed = run(&app).spec.seed;
    let first_guardians = run(&app).guardians.len();
    app.world_mut()
        .write_message(MenuInput::Activated(NEXT_LEVEL));
    run_frames(&mut app, 3);
    assert_eq!(state::<Menu>(&app), Menu::None);
    let second = run(&app);
    assert_eq!(second.setup.level, 2);
    assert_eq!(second.maze.width(), 9 + LEVEL_GROWTH);
    assert_ne!(second.spec.seed, first_seed, "a maze of its own");
    assert!(second.guardians.len() > first_guardians);
    walk_to_the_exit(&mut app);
    let win = app.world().resource::<MazeWin>().clone();
    assert_eq!((win.level, win.best_level), (2, Some(2)));
    assert!((win.run_seconds - first.seconds - win.seconds).abs() < 1e-9);
    // "Same maze again" plays level 2 again; the main menu forgets the run.
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Restart));
    run_frames(&mut app, 3);
    assert_eq!(run(&app).setup.level, 2);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::MainMenu));
    run_frames(&mut app, 3);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(maze::SCREEN)));
    run_frames(&mut app, 3);
    assert_eq!(run(&app).setup.level, 1);
}

/// Clicks the centre of `cell` in the window (the camera is the default one).
fn click(app: &mut App, cell: usize) {
    let maze = run(app).maze.clone();
    let (x, y) = maze.coords(cell);
    let world = cell_point_position(&maze, [x as f32, y as f32]);
    let point = Vec2::new(world.x, -world.y) + WINDOW / 2.0;
    let mut windows = app
        .world_mut()
        .query_filtered::<&mut Window, With<PrimaryWindow>>();
    windows
        .single_mut(app.world_mut())
        .unwrap()
        .set_cursor_position(Some(point));
    MouseButton::Left.press(app.world_mut());
    app.update();
    MouseButton::Left.release(app.world_mut());
}

#[test]
fn clicking_a_seen_cell_walks_there_and_a_key_takes_control_back() {
    let mut app = maze_app(Difficulty::Normal, 15);
    // The seen cell farthest from the player along the corridors.
    let (target, steps) = {
        let run = run(&app);
        let distances = temple_trails::logic::grid_search::distance_map(&run.maze, run.player);
        let target = *run
            .lit()
            .iter()
            .max_by_key(|&&cell| distances[cell])
            .unwrap();
        (target, distances[target].unwrap())
    };
    let unseen = run(&app).maze.goal();
    click(&mut app, unseen);
    run_frames(&mut app, 2);
    assert_eq!(run(&app).walk_target, None, "an unseen cell is no target");
    click(&mut app, target);
    let frames = (2.0 / FRAME.as_secs_f64()) as usize;
    run_frames(&mut app, frames);
    assert_eq!(run(&app).player, target);
    assert_eq!(run(&app).moves, steps, "by the shortest way");
    // A second walk, interrupted by a key.
    let back = run(&app).maze.start();
    click(&mut app, back);
    // The click is taken at the next fixed step; the first step follows seven steps later.
    run_frames(&mut app, 1);
    assert_eq!(run(&app).walk_target, Some(back));
    let open = Direction::ALL
        .into_iter()
        .find(|&d| run(&app).maze.is_open(run(&app).player, d))
        .unwrap();
    let to = run(&app).maze.neighbour(run(&app).player, open).unwrap();
    let key = key_for(run(&app), run(&app).player, to);
    press(&mut app, key);
    assert_eq!(run(&app).walk_target, None);
}
