//! Walking the maze: the arrow keys (repeating while held) and the system walk (Enter, or the
//! pause menu's action) become inputs that the maze's rules take at the next fixed step, where
//! the clock counts and the guardians walk; winning at the exit keeps the best time per board,
//! the best level reached and the run's replay.

use super::controls::MazeAction;
use super::generation::{CurrentMaze, start_maze};
use super::hint::MazeHint;
use super::hud::replay_figures;
use super::levels::{MazeLevel, submit_level};
use super::sounds;
use crate::game::audio::SoundRequested;
use crate::game::controls::Actions;
use crate::game::menu::{MenuInput, MenuItem, add_pause_action};
use crate::game::records::{Watching, replay_over_dialog};
use crate::game::replays::RunRecorded;
use crate::game::scores::{BestScore, BestScores, Ranking, unix_now_s};
use crate::game::screens::{AppSystems, Menu, PausableSystems};
use crate::game::session::PlaySession;
use crate::logic::maze::Direction;
use crate::logic::maze::replay::{MazeKind, board_detail};
use crate::logic::maze::run::{MazeEvent, MazeInput};
use crate::logic::replay::limits::MAX_RUN_TICKS;
use crate::logic::replay::{Recorder, ReplayHeader, replay_of, take_step_inputs};
use bevy::prelude::*;
use leafwing_input_manager::common_conditions::action_just_pressed;
use std::time::Duration;

/// How long a movement key must be held before it repeats.
pub const REPEAT_DELAY: Duration = Duration::from_millis(220);
/// Time between repeated steps while a movement key is held.
pub const REPEAT_INTERVAL: Duration = Duration::from_millis(85);
/// The pause menu's action that starts or stops the system walk.
pub const SYSTEM_WALK: MenuItem = MenuItem::Action("maze.system_walk");

pub(super) fn plugin(app: &mut App) {
    let playing = in_state(super::SCREEN).and_then(resource_exists::<CurrentMaze>);
    add_pause_action(app, super::SCREEN, SYSTEM_WALK, "System walk on/off");
    app.add_message::<PlayerStepped>()
        .add_message::<PlayerCaught>()
        .add_message::<MazeSolved>()
        .init_resource::<WalkPace>()
        .add_systems(
            OnEnter(super::SCREEN),
            (reset_pace, start_recording).after(start_maze),
        )
        .add_systems(
            Update,
            (
                (
                    toggle_system_walk.run_if(action_just_pressed(MazeAction::SystemWalk)),
                    walk_with_actions,
                )
                    .chain()
                    .in_set(AppSystems::RecordInput)
                    // A record being watched plays its own inputs.
                    .run_if(not(resource_exists::<Watching>)),
                finish_at_the_exit
                    .run_if(on_message::<MazeSolved>)
                    .in_set(AppSystems::Update),
            )
                .in_set(PausableSystems)
                .run_if(playing.clone()),
        )
        .add_systems(
            FixedUpdate,
            (
                feed_watched_inputs.run_if(resource_exists::<Watching>),
                step_maze,
            )
                .chain()
                .in_set(PausableSystems)
                .run_if(playing.clone().and_then(resource_exists::<MazeTape>)),
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

/// A guardian caught the player, who is back at the last shrine.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerCaught {
    /// The shrine the player is back at.
    pub shrine: usize,
    /// Where the way back starts in the trail.
    pub trail_from: usize,
}

/// The result shown when the maze is solved.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct MazeWin {
    /// The level won, from 1.
    pub level: u32,
    /// The time that counts, in seconds: the play time plus what the hints cost.
    pub seconds: f64,
    /// The play time alone, in seconds.
    pub play_seconds: f64,
    /// The counted time of the whole run: this level and those won before it.
    pub run_seconds: f64,
    /// Steps taken.
    pub moves: u32,
    /// Steps of the shortest route.
    pub optimal_moves: usize,
    /// optimal / moves in percent.
    pub efficiency_percent: f64,
    /// Times the hint was switched on.
    pub hints_used: u32,
    /// Seconds each hint cost.
    pub hint_cost_s: u32,
    /// Times a guardian caught the player.
    pub catches: u32,
    /// The best level reached at this difficulty after this run.
    pub best_level: Option<u32>,
    /// The best time on this board after this run, if any.
    pub best: Option<BestScore>,
    /// This run set the best time.
    pub new_record: bool,
    /// The system walked, so no time was recorded.
    pub assisted: bool,
}

/// The maze was solved at the last fixed step.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MazeSolved;

/// The timing of held keys.
#[derive(Resource, Debug, Default)]
pub(super) struct WalkPace {
    /// The held movement key's direction, how long it has been down, and the time since its
    /// last repeat.
    held: Option<(Direction, Duration, Duration)>,
}

/// The inputs waiting for the next fixed step, and the run's recording.
#[derive(Resource, Debug)]
pub struct MazeTape {
    /// Inputs from the keys and the menu, taken at the next fixed step.
    pub pending: Vec<MazeInput>,
    /// The run's inputs and fingerprints so far.
    pub recorder: Recorder<MazeInput>,
    /// The seed as the player typed it, kept with the replay.
    pub seed_text: String,
}

impl MazeTape {
    /// Whether the system will be walking after the inputs waiting for the next step.
    pub fn system_walk_wanted(&self, run: &CurrentMaze) -> bool {
        self.pending
            .iter()
            .rev()
            .find_map(|input| match input {
                MazeInput::SystemWalk(on) => Some(*on),
                MazeInput::Step(_) | MazeInput::WalkTo(_) => Some(false),
                MazeInput::Hint => None,
            })
            .unwrap_or(run.system_walk)
    }
}

fn reset_pace(mut pace: ResMut<WalkPace>) {
    *pace = WalkPace::default();
}

/// A new maze starts a new recording; `--autoplay`'s system walk is its first input.
pub(super) fn start_recording(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    session: Res<PlaySession>,
) {
    let Some(run) = run else {
        return;
    };
    let seed_text = session.seed_text.clone();
    // The recording starts from the maze as made, with `--autoplay`'s system walk as the input
    // of the first step, so the replay starts where a replayed maze starts.
    let mut as_made = run.0.clone();
    as_made.system_walk = false;
    as_made.assisted = false;
    let mut pending = Vec::new();
    if run.system_walk {
        pending.push(MazeInput::SystemWalk(true));
    }
    commands.insert_resource(MazeTape {
        pending,
        recorder: Recorder::start(as_made.fingerprint()),
        seed_text,
    });
}

/// A watched record's inputs for the coming step.
fn feed_watched_inputs(
    run: Res<CurrentMaze>,
    mut tape: ResMut<MazeTape>,
    mut watching: ResMut<Watching>,
) {
    let due = watching.inputs_due::<MazeKind>(run.ticks);
    tape.pending.extend(due);
}

/// One fixed step of the maze: the inputs waiting, the system walk, the clock and the exit.
pub(super) fn step_maze(
    mut run: ResMut<CurrentMaze>,
    mut tape: ResMut<MazeTape>,
    (mut stepped, mut caught): (MessageWriter<PlayerStepped>, MessageWriter<PlayerCaught>),
    mut solved: MessageWriter<MazeSolved>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    if run.finished {
        return;
    }
    let inputs = take_step_inputs(&mut tape.pending);
    let tick = run.ticks;
    let mut events = Vec::new();
    let won = run.step_tick(inputs.iter().copied(), &mut events);
    tape.recorder.step(tick, &inputs, || run.fingerprint());
    for event in events {
        match event {
            MazeEvent::Stepped { from, to } => {
                stepped.write(PlayerStepped { from, to });
                sounds.write(SoundRequested(sounds::FOOTSTEP));
            }
            MazeEvent::Caught {
                shrine, trail_from, ..
            } => {
                caught.write(PlayerCaught { shrine, trail_from });
                sounds.write(SoundRequested(sounds::CAUGHT));
            }
        }
    }
    if won {
        solved.write(MazeSolved);
    }
}

/// Enter starts or stops the system walk; its route is shown while it walks (the seed's "output
/// the optimal path and display it"), which is not counted as a hint.
fn toggle_system_walk(
    run: Res<CurrentMaze>,
    mut tape: ResMut<MazeTape>,
    mut hint: ResMut<MazeHint>,
) {
    let on = !tape.system_walk_wanted(&run);
    tape.pending.push(MazeInput::SystemWalk(on));
    if on {
        hint.show_route(&run);
    }
}

/// The pause menu's "System walk" action toggles it too.
fn toggle_system_walk_from_menu(
    mut inputs: MessageReader<MenuInput>,
    run: Res<CurrentMaze>,
    tape: ResMut<MazeTape>,
    hint: ResMut<MazeHint>,
) {
    if inputs
        .read()
        .any(|input| *input == MenuInput::Activated(SYSTEM_WALK))
    {
        toggle_system_walk(run, tape, hint);
    }
}

/// The step actions (arrow keys, WASD, a D-pad or the left stick): one step per press,
/// repeating while held, taken at the next fixed step. Any step takes control back from the
/// system walk.
fn walk_with_actions(
    actions: Actions<MazeAction>,
    time: Res<Time>,
    mut tape: ResMut<MazeTape>,
    mut pace: ResMut<WalkPace>,
) {
    let pressed = MazeAction::STEPS
        .iter()
        .find(|(action, _)| actions.just_pressed(action))
        .map(|&(_, direction)| direction);
    let held = MazeAction::STEPS
        .iter()
        .find(|(action, _)| actions.pressed(action))
        .map(|&(_, direction)| direction);
    let direction = if let Some(direction) = pressed {
        pace.held = Some((direction, Duration::ZERO, Duration::ZERO));
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
    if let Some(direction) = direction {
        tape.pending.push(MazeInput::Step(direction));
    }
}

fn finish_at_the_exit(
    run: Res<CurrentMaze>,
    tape: Res<MazeTape>,
    mut scores: ResMut<BestScores>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut commands: Commands,
    (mut sounds, mut recorded): (MessageWriter<SoundRequested>, MessageWriter<RunRecorded>),
    (level, watching, session): (Res<MazeLevel>, Option<Res<Watching>>, Res<PlaySession>),
) {
    sounds.write(SoundRequested(sounds::WIN));
    next_menu.set(Menu::Results);
    if let Some(watching) = watching {
        // A watched record ends where it ended, and records nothing.
        commands.insert_resource(replay_over_dialog(
            &watching,
            replay_figures(&watching.replay),
        ));
        return;
    }
    // The time that counts, with what the hints cost.
    let seconds = run.total_seconds();
    let seed = run.setup.first.seed;
    let run_seconds = level.earlier_seconds + seconds;
    let assisted = run.assisted || level.earlier_assisted;
    // The board of the maze played, whatever the settings say by now.
    let detail = session.board_detail(&board_detail(&run.setup));
    let board = BestScores::board_name(&super::MODE, &detail);
    let new_record = !run.assisted && scores.submit(&board, Ranking::LowerIsBetter, seconds, seed);
    let best_level = if assisted {
        None
    } else {
        submit_level(&mut scores, &session, &run.setup, run_seconds)
    };
    let win = MazeWin {
        level: run.setup.level,
        seconds,
        play_seconds: run.seconds(),
        run_seconds,
        moves: run.moves,
        optimal_moves: run.optimal_moves,
        efficiency_percent: run.efficiency_percent(),
        hints_used: run.hints_used,
        hint_cost_s: run.rules.hint_cost_s,
        catches: run.catches,
        best_level,
        best: scores.best(&board).cloned(),
        new_record,
        assisted: run.assisted,
    };
    let header = ReplayHeader::new(
        seed,
        tape.seed_text.clone(),
        run.setup.difficulty,
        unix_now_s(),
    );
    // A run longer than a replay holds is won and shown, but not kept.
    if run.ticks <= MAX_RUN_TICKS {
        recorded.write(RunRecorded {
            board,
            replay: replay_of::<MazeKind>(header, &run, &tape.recorder),
        });
    }
    commands.insert_resource(super::hud::result_dialog(&win));
    commands.insert_resource(win);
}
