//! The runner's rules: keys become commands, the runner moves in fixed steps under the timing
//! model, the autopilot (O, or the pause menu's action) and the planner's route (P), the end of
//! a run and best scores. Nothing here draws, so all of it runs in headless tests.

use crate::game::AutoplayOnStart;
use crate::game::audio::{Sound, SoundRequested};
use crate::game::menu::{MenuInput, MenuItem, add_pause_action};
use crate::game::scores::{BestScore, BestScores, Ranking};
use crate::game::screens::{AppSystems, Menu, PausableSystems, Screen};
use crate::game::settings::{GameDifficulty, GameSeed};
use crate::game::theme::dialog::ResultDialog;
use crate::logic::difficulty::Difficulty;
use crate::logic::runner::autopilot::Autopilot;
use crate::logic::runner::body::{Command, Crash, Posture, RunEvent, RunnerBody};
use crate::logic::runner::planner::{Action, Plan};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::runner::track::Track;
use bevy::input::common_conditions::input_just_pressed;
use bevy::prelude::*;

/// The keys a player runs with, and the command each gives.
const COMMAND_KEYS: [(KeyCode, Command); 10] = [
    (KeyCode::ArrowLeft, Command::Left),
    (KeyCode::KeyA, Command::Left),
    (KeyCode::ArrowRight, Command::Right),
    (KeyCode::KeyD, Command::Right),
    (KeyCode::ArrowUp, Command::Jump),
    (KeyCode::KeyW, Command::Jump),
    (KeyCode::Space, Command::Jump),
    (KeyCode::ArrowDown, Command::Slide),
    (KeyCode::KeyS, Command::Slide),
    (KeyCode::Numpad2, Command::Slide),
];

/// The pause menu's action that switches the autopilot on or off.
pub const AUTOPILOT: MenuItem = MenuItem::Action("runner.autopilot");

pub(super) fn plugin(app: &mut App) {
    let running = in_state(Screen::Runner).and_then(resource_exists::<RunnerRun>);
    add_pause_action(app, Screen::Runner, AUTOPILOT, "Autopilot on/off");
    app.add_message::<RunnerEvent>()
        .insert_resource(Time::<Fixed>::from_seconds(SIMULATION_STEP_S))
        .add_systems(OnEnter(Screen::Runner), start_run)
        .add_systems(OnExit(Screen::Runner), end_run)
        .add_systems(
            Update,
            (
                toggle_overlay.run_if(input_just_pressed(KeyCode::KeyP)),
                toggle_autopilot.run_if(input_just_pressed(KeyCode::KeyO)),
                queue_commands_from_keys,
            )
                .in_set(AppSystems::RecordInput)
                .in_set(PausableSystems)
                .run_if(running.clone()),
        )
        .add_systems(
            FixedUpdate,
            step_runner.in_set(PausableSystems).run_if(running.clone()),
        )
        .add_systems(
            Update,
            (
                (refresh_plan, play_event_sounds, end_run_on_crash)
                    .chain()
                    .in_set(PausableSystems),
                toggle_autopilot_from_menu.run_if(on_message::<MenuInput>),
            )
                .in_set(AppSystems::Update)
                .run_if(running),
        );
}

/// Everything about the run being played.
#[derive(Resource, Debug)]
pub struct RunnerRun {
    /// The seed the track was made from.
    pub seed: u64,
    /// The difficulty it is played at.
    pub difficulty: Difficulty,
    /// The upcoming track.
    pub track: Track,
    /// The runner.
    pub body: RunnerBody,
    /// The planner and the autopilot that runs its route.
    pub autopilot: Autopilot,
    /// Whether the autopilot is running the runner.
    pub autopilot_on: bool,
    /// The autopilot ran at some point: such a run sets no best score.
    pub assisted: bool,
    /// Whether the planner's route is drawn on the track.
    pub overlay_shown: bool,
    /// Commands from the keys, applied at the next fixed step.
    pub pending: Vec<Command>,
    /// The run is over and its result recorded.
    pub finished: bool,
    /// Scratch space for the events of one step.
    events: Vec<RunEvent>,
}

impl RunnerRun {
    /// A run on `track`, with the autopilot on from the start if asked.
    pub fn new(seed: u64, difficulty: Difficulty, track: Track, autopilot_on: bool) -> RunnerRun {
        RunnerRun {
            seed,
            difficulty,
            track,
            body: RunnerBody::new(),
            autopilot: Autopilot::new(),
            autopilot_on,
            assisted: autopilot_on,
            overlay_shown: false,
            pending: Vec::new(),
            finished: false,
            events: Vec::new(),
        }
    }

    /// The planner's current route, when the overlay or the autopilot needs one.
    pub fn plan(&self) -> Option<&Plan> {
        self.autopilot.plan()
    }

    /// Switches the autopilot on or off; once on, the run is assisted.
    pub fn set_autopilot(&mut self, on: bool) {
        self.autopilot_on = on;
        self.assisted |= on;
    }
}

/// Something that happened to the runner, for sounds and the view.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct RunnerEvent(pub RunEvent);

/// The result shown in the game-over dialog.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct RunnerResult {
    /// Metres run.
    pub distance_m: f64,
    /// Coin lines taken.
    pub coins: u32,
    /// The run's score (see [`RunnerBody::score`]).
    pub score: u64,
    /// Stumbles, the one the guardians caught included.
    pub stumbles: u32,
    /// Power-ups taken, of every kind.
    pub powerups: u32,
    /// What ended the run.
    pub crash: Crash,
    /// The seed.
    pub seed: u64,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// The best score at this difficulty after this run, if any.
    pub best: Option<BestScore>,
    /// This run set the best score.
    pub new_record: bool,
    /// The autopilot ran, so no score was recorded and no coins were banked.
    pub assisted: bool,
    /// Coins banked over every counted run, this one included.
    pub coins_banked: u64,
}

/// Starts a run on a new track; the drawing sets itself up after this.
pub(super) fn start_run(
    mut commands: Commands,
    seed: Res<GameSeed>,
    difficulty: Res<GameDifficulty>,
    autoplay: Option<Res<AutoplayOnStart>>,
) {
    let track = Track::new(seed.0, difficulty.0);
    let autopilot = autoplay.is_some_and(|a| a.0);
    commands.remove_resource::<RunnerResult>();
    commands.remove_resource::<ResultDialog>();
    commands.insert_resource(RunnerRun::new(seed.0, difficulty.0, track, autopilot));
}

fn end_run(mut commands: Commands) {
    commands.remove_resource::<RunnerRun>();
}

fn toggle_overlay(mut run: ResMut<RunnerRun>) {
    run.overlay_shown = !run.overlay_shown;
}

fn toggle_autopilot(mut run: ResMut<RunnerRun>) {
    let on = !run.autopilot_on;
    run.set_autopilot(on);
}

/// The pause menu's "Autopilot" item toggles it too.
fn toggle_autopilot_from_menu(mut inputs: MessageReader<MenuInput>, mut run: ResMut<RunnerRun>) {
    if inputs
        .read()
        .any(|input| *input == MenuInput::Activated(AUTOPILOT))
    {
        let on = !run.autopilot_on;
        run.set_autopilot(on);
    }
}

/// Keys pressed this frame become commands for the next fixed step. A key the player presses
/// takes the runner back from the autopilot, as in the maze's system walk.
fn queue_commands_from_keys(keys: Res<ButtonInput<KeyCode>>, mut run: ResMut<RunnerRun>) {
    for (key, command) in COMMAND_KEYS {
        if keys.just_pressed(key) {
            run.pending.push(command);
            run.autopilot_on = false;
        }
    }
}

/// One fixed step of the run: the player's commands or the autopilot's, then motion.
fn step_runner(
    time: Res<Time>,
    mut run: ResMut<RunnerRun>,
    mut events: MessageWriter<RunnerEvent>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    if run.finished || run.body.crash.is_some() {
        return;
    }
    let run = &mut *run;
    let before = (run.body.posture, run.body.target_lane());
    for command in run.pending.drain(..) {
        run.body.command(command, &run.track);
    }
    run.events.clear();
    let dt = time.delta_secs_f64();
    if run.autopilot_on {
        run.autopilot
            .drive(&mut run.body, &mut run.track, dt, &mut run.events);
    } else {
        let mut left = dt;
        while left > 0.0 && run.body.crash.is_none() {
            left = run.body.advance(left, &mut run.track, &mut run.events);
        }
    }
    // Sounds of what the runner started this step, whoever gave the command.
    let after = (run.body.posture, run.body.target_lane());
    let started = match (before.0, after.0) {
        (Posture::Jumping { .. }, Posture::Jumping { .. })
        | (Posture::Sliding { .. }, Posture::Sliding { .. }) => None,
        (_, Posture::Jumping { .. }) => Some(Sound::Jump),
        (_, Posture::Sliding { .. }) => Some(Sound::Slide),
        (_, Posture::Running) => None,
    };
    let moved = (before.1 != after.1).then_some(Sound::LaneChange);
    sounds.write_batch(started.into_iter().chain(moved).map(SoundRequested));
    events.write_batch(run.events.iter().copied().map(RunnerEvent));
}

/// Keeps the planner's route current while the overlay is shown (the autopilot plans itself).
fn refresh_plan(mut run: ResMut<RunnerRun>) {
    if run.overlay_shown && !run.autopilot_on && run.body.crash.is_none() {
        let run = &mut *run;
        run.autopilot.refresh_plan(&run.body, &run.track);
    }
}

/// Coins, turns and crashes as they happen (jumps, slides and lane changes sound when they start).
fn play_event_sounds(
    mut events: MessageReader<RunnerEvent>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    for RunnerEvent(event) in events.read() {
        let sound = match event {
            RunEvent::Coins { .. } => Some(Sound::Coin),
            RunEvent::Cleared {
                action: Action::TurnLeft | Action::TurnRight,
                ..
            } => Some(Sound::Turn),
            RunEvent::Cleared { .. } => None,
            RunEvent::Stumbled { .. } => Some(Sound::Stumble),
            RunEvent::PowerUp { .. } => Some(Sound::PowerUp),
            RunEvent::Shielded { .. } => Some(Sound::ShieldBreak),
            RunEvent::Crashed { .. } => Some(Sound::Crash),
        };
        sounds.write_batch(sound.map(SoundRequested));
    }
}

fn end_run_on_crash(
    mut run: ResMut<RunnerRun>,
    mut scores: ResMut<BestScores>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut commands: Commands,
) {
    let Some(crash) = run.body.crash else {
        return;
    };
    if run.finished {
        return;
    }
    run.finished = true;
    let score = run.body.score();
    let board = BestScores::board_name(&super::MODE, run.difficulty.name());
    let new_record =
        !run.assisted && scores.submit(&board, Ranking::HigherIsBetter, score as f64, run.seed);
    let coins_banked = if run.assisted {
        scores.coins_banked()
    } else {
        scores.bank_coins(u64::from(run.body.coins))
    };
    let result = RunnerResult {
        distance_m: run.body.distance_m,
        coins: run.body.coins,
        score,
        stumbles: run.body.stumbles,
        powerups: run.body.powerups_taken_total(),
        crash,
        seed: run.seed,
        difficulty: run.difficulty,
        best: scores.best(&board).cloned(),
        new_record,
        assisted: run.assisted,
        coins_banked,
    };
    commands.insert_resource(super::hud::result_dialog(&result));
    commands.insert_resource(result);
    next_menu.set(Menu::Results);
}
