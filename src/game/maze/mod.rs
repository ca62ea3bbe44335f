//! Maze mode: the rules. Walking with repeat, the trail, the A* hint, the system walk, winning
//! and best times. Drawing lives in [`view`], so everything here runs in headless tests.

pub mod options;
pub mod view;

use crate::game::AutoplayOnStart;
use crate::game::audio::{Sound, SoundRequested};
use crate::game::menu::{MenuInput, MenuItem};
use crate::game::scores::{BestScore, BestScores, Ranking};
use crate::game::screens::{AppSystems, Menu, Mode, PausableSystems, Screen};
use crate::game::settings::{GameSeed, Settings};
use crate::logic::grid_search::{GridSearch, SearchOutcome};
use crate::logic::maze::{Direction, Maze, MazeSpec};
use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;
use std::time::Duration;

/// How long a movement key must be held before it repeats.
const REPEAT_DELAY: Duration = Duration::from_millis(220);
/// Time between repeated steps while a movement key is held.
const REPEAT_INTERVAL: Duration = Duration::from_millis(85);
/// Time between steps of the system walk: brisk, yet easy to follow.
const SYSTEM_WALK_INTERVAL: Duration = Duration::from_millis(110);

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
    app.add_message::<PlayerStepped>()
        .add_systems(OnEnter(Screen::Maze), start_maze)
        .add_systems(OnExit(Screen::Maze), end_maze)
        .add_systems(
            Update,
            (
                (
                    toggle_hint.run_if(input_just_pressed(KeyCode::Space)),
                    toggle_expanded.run_if(input_just_pressed(KeyCode::KeyE)),
                    toggle_system_walk.run_if(
                        input_just_pressed(KeyCode::Enter)
                            .or_else(input_just_pressed(KeyCode::NumpadEnter)),
                    ),
                    walk_with_keys,
                )
                    .chain()
                    .in_set(AppSystems::RecordInput),
                (
                    walk_automatically
                        .run_if(|run: Option<Res<MazeRun>>| run.is_some_and(|r| r.system_walk)),
                    tick_clock,
                    refresh_hint.run_if(on_message::<PlayerStepped>),
                    finish_at_the_exit.run_if(on_message::<PlayerStepped>),
                )
                    .chain()
                    .in_set(AppSystems::Update),
            )
                .in_set(PausableSystems)
                .run_if(in_state(Screen::Maze).and_then(resource_exists::<MazeRun>)),
        )
        .add_systems(
            Update,
            toggle_system_walk_from_menu
                .run_if(on_message::<MenuInput>)
                .in_set(AppSystems::Update)
                .run_if(in_state(Screen::Maze).and_then(resource_exists::<MazeRun>)),
        );
}

/// Everything about the maze being played.
#[derive(Resource, Debug)]
pub struct MazeRun {
    /// What was generated.
    pub spec: MazeSpec,
    /// The maze.
    pub maze: Maze,
    /// The player's cell.
    pub player: usize,
    /// Every cell walked, in order (the trail), starting with the start cell.
    pub trail: Vec<usize>,
    /// Successful steps taken.
    pub moves: u32,
    /// Times the hint was switched on.
    pub hints_used: u32,
    /// Steps of the shortest path from start to exit.
    pub optimal_moves: usize,
    /// Play time, paused with the game.
    pub elapsed: Duration,
    /// Whether the A* hint is shown.
    pub hint_shown: bool,
    /// Whether the cells A* expanded for the hint are shown.
    pub expanded_shown: bool,
    /// The current hint: A* from the player to the exit.
    pub hint: Option<SearchOutcome>,
    /// Counts hint computations, so the view repaints only when the hint changed.
    pub hint_version: u32,
    /// The system walks the player to the exit.
    pub system_walk: bool,
    /// The system walked at some point: such a run sets no best time.
    pub assisted: bool,
    /// Reached the exit.
    pub finished: bool,
    /// Reusable A* buffers.
    pub search: GridSearch,
    /// Time a held movement key has been down, and time since its last repeat.
    held: Option<(Direction, Duration, Duration)>,
    /// Time since the system walk's last step.
    since_system_step: Duration,
}

impl MazeRun {
    /// A new run of `spec` with the player at the start.
    pub fn new(
        spec: MazeSpec,
        system_walk: bool,
    ) -> Result<MazeRun, crate::logic::maze::MazeError> {
        let maze = spec.generate()?;
        let mut search = GridSearch::new();
        let optimal_moves = search
            .astar(&maze, maze.start(), maze.goal())
            .steps()
            .expect("a generated maze is connected");
        let start = maze.start();
        let mut run = MazeRun {
            spec,
            maze,
            player: start,
            trail: vec![start],
            moves: 0,
            hints_used: 0,
            optimal_moves,
            elapsed: Duration::ZERO,
            hint_shown: false,
            expanded_shown: false,
            hint: None,
            hint_version: 0,
            system_walk,
            assisted: system_walk,
            finished: false,
            search,
            held: None,
            since_system_step: Duration::ZERO,
        };
        if system_walk {
            run.show_route_for_system_walk();
        }
        Ok(run)
    }

    /// The system walk follows the shortest path, so that path is shown while it walks (the
    /// seed's "output the optimal path and display it"). It is not counted as a hint.
    fn show_route_for_system_walk(&mut self) {
        self.hint_shown = true;
        self.recompute_hint();
    }

    /// Moves the player one cell if the passage is open. Returns the cell left.
    pub fn step(&mut self, direction: Direction) -> Option<usize> {
        if self.finished || !self.maze.is_open(self.player, direction) {
            return None;
        }
        let from = self.player;
        self.player = self.maze.neighbour(from, direction)?;
        self.trail.push(self.player);
        self.moves += 1;
        Some(from)
    }

    /// Recomputes the hint from the player's cell.
    pub fn recompute_hint(&mut self) {
        self.hint = Some(self.search.astar(&self.maze, self.player, self.maze.goal()));
        self.hint_version = self.hint_version.wrapping_add(1);
    }

    /// The cells of the last hint, from the cell it was computed at to the exit.
    pub fn hint_path(&self) -> Option<&[usize]> {
        self.hint.as_ref().and_then(|hint| hint.path.as_deref())
    }

    /// Moves per optimal move as a percentage (100 % = the shortest route).
    pub fn efficiency_percent(&self) -> f64 {
        if self.moves == 0 {
            return 100.0;
        }
        100.0 * self.optimal_moves as f64 / f64::from(self.moves)
    }
}

/// The player moved from one cell to a neighbour.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerStepped {
    /// The cell left.
    pub from: usize,
    /// The cell entered.
    pub to: usize,
}

/// The result shown in the win dialog.
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

fn start_maze(
    mut commands: Commands,
    settings: Res<Settings>,
    seed: Res<GameSeed>,
    autoplay: Option<Res<AutoplayOnStart>>,
) {
    let spec = settings.maze.spec(seed.0);
    let system_walk = autoplay.is_some_and(|a| a.0);
    match MazeRun::new(spec, system_walk) {
        Ok(run) => {
            commands.remove_resource::<MazeWin>();
            commands.insert_resource(run);
        }
        // Settings are sanitized when loaded and edited, so this means a bug; say so clearly.
        Err(err) => error!("Cannot start the maze: {err}"),
    }
}

fn end_maze(mut commands: Commands) {
    commands.remove_resource::<MazeRun>();
}

fn toggle_hint(mut run: ResMut<MazeRun>) {
    run.hint_shown = !run.hint_shown;
    if run.hint_shown {
        run.hints_used += 1;
        run.recompute_hint();
    }
}

fn toggle_expanded(mut run: ResMut<MazeRun>) {
    run.expanded_shown = !run.expanded_shown;
    if run.expanded_shown && run.hint.is_none() {
        run.recompute_hint();
    }
}

fn toggle_system_walk(mut run: ResMut<MazeRun>) {
    run.system_walk = !run.system_walk;
    run.assisted |= run.system_walk;
    run.since_system_step = Duration::ZERO;
    if run.system_walk {
        run.show_route_for_system_walk();
    }
}

/// The pause menu's "System walk" item toggles it too.
fn toggle_system_walk_from_menu(mut inputs: MessageReader<MenuInput>, run: ResMut<MazeRun>) {
    if inputs
        .read()
        .any(|input| *input == MenuInput::Activated(MenuItem::SystemWalk))
    {
        toggle_system_walk(run);
    }
}

/// Arrow keys and WASD: one step per press, repeating while held. Any movement key takes
/// control back from the system walk.
fn walk_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut run: ResMut<MazeRun>,
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
        run.held = Some((direction, Duration::ZERO, Duration::ZERO));
        run.system_walk = false;
        Some(direction)
    } else if let (Some(direction), Some((held_direction, down, since))) = (held, run.held) {
        let down = down + time.delta();
        let since = since + time.delta();
        let repeat =
            direction == held_direction && down >= REPEAT_DELAY && since >= REPEAT_INTERVAL;
        run.held = Some((direction, down, if repeat { Duration::ZERO } else { since }));
        repeat.then_some(direction)
    } else {
        run.held = None;
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

/// The system walk: follow A* from the current cell to the exit, one cell per interval.
fn walk_automatically(
    time: Res<Time>,
    mut run: ResMut<MazeRun>,
    mut stepped: MessageWriter<PlayerStepped>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    run.since_system_step += time.delta();
    if run.since_system_step < SYSTEM_WALK_INTERVAL || run.finished {
        return;
    }
    run.since_system_step = Duration::ZERO;
    // The shown route is recomputed after every step, so it usually starts here already; only
    // when it was hidden (and so not kept up to date) is a new search needed.
    if run.hint_path().and_then(|path| path.first()) != Some(&run.player) {
        run.recompute_hint();
    }
    let Some(next) = run.hint_path().and_then(|path| path.get(1).copied()) else {
        return;
    };
    let direction = Direction::ALL
        .into_iter()
        .find(|&d| run.maze.neighbour(run.player, d) == Some(next))
        .expect("consecutive path cells are neighbours");
    if let Some(from) = run.step(direction) {
        stepped.write(PlayerStepped {
            from,
            to: run.player,
        });
        sounds.write(SoundRequested(Sound::Footstep));
    }
}

fn tick_clock(time: Res<Time>, mut run: ResMut<MazeRun>) {
    if !run.finished {
        run.elapsed += time.delta();
    }
}

/// The hint is recomputed only when the player moved while it is shown.
fn refresh_hint(mut run: ResMut<MazeRun>) {
    if run.hint_shown || run.expanded_shown {
        run.recompute_hint();
    }
}

fn finish_at_the_exit(
    mut run: ResMut<MazeRun>,
    settings: Res<Settings>,
    seed: Res<GameSeed>,
    mut scores: ResMut<BestScores>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut commands: Commands,
    mut sounds: MessageWriter<SoundRequested>,
) {
    if run.finished || run.player != run.maze.goal() {
        return;
    }
    run.finished = true;
    run.system_walk = false;
    let seconds = run.elapsed.as_secs_f64();
    let board = settings.maze.score_board();
    let new_record =
        !run.assisted && scores.submit(Mode::Maze, &board, Ranking::LowerIsBetter, seconds, seed.0);
    commands.insert_resource(MazeWin {
        seconds,
        moves: run.moves,
        optimal_moves: run.optimal_moves,
        efficiency_percent: run.efficiency_percent(),
        hints_used: run.hints_used,
        best: scores.best(Mode::Maze, &board).cloned(),
        new_record,
        assisted: run.assisted,
    });
    next_menu.set(Menu::Win);
    sounds.write(SoundRequested(Sound::Win));
}
