//! Walking the maze: the arrow keys (repeating while held), the system walk (Enter, or the pause
//! menu's action), the clock, and winning at the exit with the best time per board.

use super::generation::{CurrentMaze, start_maze};
use super::hint::MazeHint;
use super::options::board_of;
use crate::game::audio::{Sound, SoundRequested};
use crate::game::menu::{MenuInput, MenuItem, add_pause_action};
use crate::game::scores::{BestScore, BestScores, Ranking};
use crate::game::screens::{AppSystems, Menu, PausableSystems, Screen};
use crate::logic::maze::Direction;
use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use std::time::Duration;

/// How long a movement key must be held before it repeats.
pub const REPEAT_DELAY: Duration = Duration::from_millis(220);
/// Time between repeated steps while a movement key is held.
pub const REPEAT_INTERVAL: Duration = Duration::from_millis(85);
/// Time between steps of the system walk: brisk, yet easy to follow.
const SYSTEM_WALK_INTERVAL: Duration = Duration::from_millis(110);
/// The pause menu's action that starts or stops the system walk.
pub const SYSTEM_WALK: MenuItem = MenuItem::Action("maze.system_walk");

/// The keys that move the player, with their directions.
const MOVE_KEYS: [(KeyCode, Direction); 8] = [
    (KeyCode::ArrowUp, Direction::North),
    (KeyCode::KeyW, Direction::North),
    (KeyCode::ArrowRight, Direction::East),
    (KeyCode::KeyD, Direction::East),
    (KeyCode::ArrowDown, Direction::South),
    (KeyCode::KeyS, Direction::South),
    (KeyCode::ArrowLeft, Direction::West),
    (KeyCode::KeyA, Direction::West),
];

pub(super) fn plugin(app: &mut App) {
    let playing = in_state(Screen::Maze).and_then(resource_exists::<CurrentMaze>);
    add_pause_action(app, Screen::Maze, SYSTEM_WALK, "System walk on/off");
    app.add_message::<PlayerStepped>()
        .init_resource::<WalkPace>()
        .add_systems(OnEnter(Screen::Maze), reset_pace.after(start_maze))
        .add_systems(
            Update,
            (
                (
                    toggle_system_walk.run_if(
                        input_just_pressed(KeyCode::Enter)
                            .or_else(input_just_pressed(KeyCode::NumpadEnter)),
                    ),
                    walk_with_keys,
                )
                    .chain()
                    .in_set(AppSystems::RecordInput),
                (
                    walk_automatically.run_if(|run: Option<Res<CurrentMaze>>| {
                        run.is_some_and(|run| run.system_walk)
                    }),
                    tick_clock,
                    finish_at_the_exit.run_if(on_message::<PlayerStepped>),
                )
                    .chain()
                    .in_set(AppSystems::Update),
            )
                .in_set(PausableSystems)
                .run_if(playing.clone()),
        )
        .add_systems(
            Update,
            toggle_system_walk_from_menu
                .run_if(on_message::<MenuInput>)
                .in_set(AppSystems::Update)
                .run_if(playing),
        );
}

/// The player moved from one cell to a neighbour.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerStepped {
    /// The cell left.
    pub from: usize,
    /// The cell entered.
    pub to: usize,
}

/// The result shown when the maze is solved.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct MazeWin {
    /// Play time in seconds.
    pub seconds: f64,
    /// Steps taken.
    pub moves: u32,
    /// Steps of the shortest route.
    pub optimal_moves: usize,
    /// optimal / moves in percent.
    pub efficiency_percent: f64,
    /// Times the hint was switched on.
    pub hints_used: u32,
    /// The best time on this board after this run, if any.
    pub best: Option<BestScore>,
    /// This run set the best time.
    pub new_record: bool,
    /// The system walked, so no time was recorded.
    pub assisted: bool,
}

/// The timing of held keys and of the system walk's steps.
#[derive(Resource, Debug, Default)]
pub(super) struct WalkPace {
    /// The held movement key's direction, how long it has been down, and the time since its
    /// last repeat.
    held: Option<(Direction, Duration, Duration)>,
    /// Time since the system walk's last step.
    since_system_step: Duration,
}

fn reset_pace(mut pace: ResMut<WalkPace>) {
    *pace = WalkPace::default();
}

/// Enter starts or stops the system walk; its route is shown while it walks (the seed's "output
/// the optimal path and display it"), which is not counted as a hint.
fn toggle_system_walk(
    mut run: ResMut<CurrentMaze>,
    mut hint: ResMut<MazeHint>,
    mut pace: ResMut<WalkPace>,
) {
    let on = !run.system_walk;
    run.set_system_walk(on);
    pace.since_system_step = Duration::ZERO;
    if on {
        hint.show_route(&run);
    }
}

/// The pause menu's "System walk" action toggles it too.
fn toggle_system_walk_from_menu(
    mut inputs: MessageReader<MenuInput>,
    run: ResMut<CurrentMaze>,
    hint: ResMut<MazeHint>,
    pace: ResMut<WalkPace>,
) {
    if inputs
        .read()
        .any(|input| *input == MenuInput::Activated(SYSTEM_WALK))
    {
        toggle_system_walk(run, hint, pace);
    }
}

/// Arrow keys and WASD: one step per press, repeating while held. Any movement key takes
/// control back from the system walk.
fn walk_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut run: ResMut<CurrentMaze>,
    mut pace: ResMut<WalkPace>,
    mut stepped: MessageWriter<PlayerStepped>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    let pressed = MOVE_KEYS
        .iter()
        .find(|(key, _)| keys.just_pressed(*key))
        .map(|&(_, direction)| direction);
    let held = MOVE_KEYS
        .iter()
        .find(|(key, _)| keys.pressed(*key))
        .map(|&(_, direction)| direction);
    let direction = if let Some(direction) = pressed {
        pace.held = Some((direction, Duration::ZERO, Duration::ZERO));
        run.system_walk = false;
        Some(direction)
    } else if let (Some(direction), Some((held_direction, down, since))) = (held, pace.held) {
        let down = down + time.delta();
        let since = since + time.delta();
        let repeat =
            direction == held_direction && down >= REPEAT_DELAY && since >= REPEAT_INTERVAL;
        pace.held = Some((direction, down, if repeat { Duration::ZERO } else { since }));
        repeat.then_some(direction)
    } else {
        pace.held = None;
        None
    };
    if let Some(direction) = direction
        && let Some(from) = run.step(direction)
    {
        stepped.write(PlayerStepped {
            from,
            to: run.player,
        });
        sounds.write(SoundRequested(Sound::Footstep));
    }
}

/// The system walk: along the shortest path from the current cell, one cell per interval.
pub(super) fn walk_automatically(
    time: Res<Time>,
    mut run: ResMut<CurrentMaze>,
    mut hint: ResMut<MazeHint>,
    mut pace: ResMut<WalkPace>,
    mut stepped: MessageWriter<PlayerStepped>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    pace.since_system_step += time.delta();
    if pace.since_system_step < SYSTEM_WALK_INTERVAL || run.finished {
        return;
    }
    pace.since_system_step = Duration::ZERO;
    let Some(next) = hint.next_cell_to_exit(&run) else {
        return;
    };
    if let Some(from) = run.step_to(next) {
        stepped.write(PlayerStepped {
            from,
            to: run.player,
        });
        sounds.write(SoundRequested(Sound::Footstep));
    }
}

fn tick_clock(time: Res<Time>, mut run: ResMut<CurrentMaze>) {
    run.tick(time.delta());
}

fn finish_at_the_exit(
    mut run: ResMut<CurrentMaze>,
    mut scores: ResMut<BestScores>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut commands: Commands,
    mut sounds: MessageWriter<SoundRequested>,
) {
    if !run.finish_at_exit() {
        return;
    }
    let seconds = run.elapsed.as_secs_f64();
    // The board of the maze played, whatever the settings say by now.
    let board = BestScores::board_name(&super::MODE, &board_of(&run.spec));
    let new_record =
        !run.assisted && scores.submit(&board, Ranking::LowerIsBetter, seconds, run.spec.seed);
    let win = MazeWin {
        seconds,
        moves: run.moves,
        optimal_moves: run.optimal_moves,
        efficiency_percent: run.efficiency_percent(),
        hints_used: run.hints_used,
        best: scores.best(&board).cloned(),
        new_record,
        assisted: run.assisted,
    };
    commands.insert_resource(super::hud::result_dialog(&win));
    commands.insert_resource(win);
    next_menu.set(Menu::Results);
    sounds.write(SoundRequested(Sound::Win));
}
