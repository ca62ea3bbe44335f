//! The runner's rules: actions become commands, the runner moves in fixed steps under the timing
//! model, the autopilot (O, or the pause menu's action) and the planner's route (P), the end of
//! a run and best scores. Nothing here draws, so all of it runs in headless tests.

use super::controls::RunnerAction;
use super::results::{RunnerResult, replay_figures, result_dialog};
use super::sounds;
use crate::game::audio::SoundRequested;
use crate::game::controls::Actions;
use crate::game::menu::dialog::ResultDialog;
use crate::game::menu::{MenuInput, MenuItem, add_pause_action};
use crate::game::records::{Watching, replay_over_dialog};
use crate::game::replays::RunRecorded;
use crate::game::scores::{BestScores, Ranking, unix_now_s};
use crate::game::screens::{AppSystems, Menu, PausableSystems, enter_mode};
use crate::game::session::AutoplayOnStart;
use crate::game::session::PlaySession;
use crate::logic::difficulty::Difficulty;
use crate::logic::replay::limits::MAX_RUN_TICKS;
use crate::logic::replay::{Recorder, Replay, ReplayHeader, replay_of, take_step_inputs};
use crate::logic::runner::autopilot::Autopilot;
use crate::logic::runner::body::{Posture, RunEvent};
use crate::logic::runner::planner::{Action, Plan};
use crate::logic::runner::replay::RunnerKind;
use crate::logic::runner::run::{RunnerInput, RunnerSim};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::runner::track::Track;
use bevy::prelude::*;
use leafwing_input_manager::common_conditions::action_just_pressed;

/// The fixed step that moves the run, for systems that must run after it or hold it back.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RunnerStep;

/// The pause menu's action that switches the autopilot on or off.
pub const AUTOPILOT: MenuItem = MenuItem::Action("runner.autopilot");

pub(super) fn plugin(app: &mut App) {
    let running = in_state(super::SCREEN).and_then(resource_exists::<RunnerRun>);
    add_pause_action(app, super::SCREEN, AUTOPILOT, "Autopilot on/off");
    app.add_message::<RunnerEvent>()
        .insert_resource(Time::<Fixed>::from_seconds(SIMULATION_STEP_S))
        .add_systems(OnEnter(super::SCREEN), start_run.after(enter_mode))
        .add_systems(OnExit(super::SCREEN), end_run)
        .add_systems(
            Update,
            (
                toggle_overlay.run_if(action_just_pressed(RunnerAction::Route)),
                // A record being watched plays its own inputs.
                (
                    toggle_autopilot.run_if(action_just_pressed(RunnerAction::Autopilot)),
                    queue_commands_from_actions,
                )
                    .run_if(not(resource_exists::<Watching>)),
            )
                .in_set(AppSystems::RecordInput)
                .in_set(PausableSystems)
                .run_if(running.clone()),
        )
        .add_systems(
            FixedUpdate,
            (
                feed_watched_inputs.run_if(resource_exists::<Watching>),
                step_runner.in_set(RunnerStep),
            )
                .chain()
                .in_set(PausableSystems)
                .run_if(running.clone()),
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
    /// The run itself: track, runner, autopilot and fixed steps, as a replay plays it too.
    pub sim: RunnerSim,
    /// The seed as the player typed it, kept with the replay.
    pub seed_text: String,
    /// Whether the planner's route is drawn on the track.
    pub overlay_shown: bool,
    /// Inputs from the keys and the menu, applied at the next fixed step.
    pub pending: Vec<RunnerInput>,
    /// The run is over and its result recorded.
    pub finished: bool,
    /// The run's inputs and fingerprints so far.
    pub recorder: Recorder<RunnerInput>,
    /// The planner behind the overlay while the autopilot is off: apart from the run's own
    /// autopilot, so showing the route never changes the run (or its replay).
    pub preview: Autopilot,
    /// The first runs' guide showed the player something: the run goes on no board.
    pub guided: bool,
}

impl RunnerRun {
    /// A run on `track`, with the autopilot on from the start if asked.
    pub fn new(seed: u64, difficulty: Difficulty, track: Track, autopilot_on: bool) -> RunnerRun {
        let mut sim = RunnerSim::on_track(seed, difficulty, track);
        let recorder = Recorder::start(sim.fingerprint());
        let mut pending = Vec::new();
        if autopilot_on {
            // Shown as on at once; recorded, like any input, at the first step.
            sim.apply(RunnerInput::Autopilot(true));
            pending.push(RunnerInput::Autopilot(true));
        }
        RunnerRun {
            sim,
            seed_text: seed.to_string(),
            overlay_shown: false,
            pending,
            finished: false,
            recorder,
            preview: Autopilot::new(),
            guided: false,
        }
    }

    /// The planner's current route, when the overlay or the autopilot needs one: the one the
    /// autopilot follows while it runs, the preview's otherwise.
    pub fn plan(&self) -> Option<&Plan> {
        if self.sim.autopilot_on {
            self.sim.autopilot.plan()
        } else {
            self.preview.plan()
        }
    }

    /// Whether the autopilot will be running after the inputs waiting for the next step.
    pub fn autopilot_wanted(&self) -> bool {
        // The last waiting input that says anything about it decides.
        self.pending
            .iter()
            .rev()
            .map(|input| match input {
                RunnerInput::Autopilot(wanted) => *wanted,
                RunnerInput::Command(_) => false,
            })
            .next()
            .unwrap_or(self.sim.autopilot_on)
    }

    /// Asks for the autopilot to be switched the other way at the next step.
    pub fn toggle_autopilot(&mut self) {
        let on = !self.autopilot_wanted();
        self.pending.push(RunnerInput::Autopilot(on));
    }

    /// The replay of the run so far.
    pub fn replay(&self, recorded_unix_s: u64) -> Replay {
        let header = ReplayHeader::new(
            self.sim.seed,
            self.seed_text.clone(),
            self.sim.difficulty,
            recorded_unix_s,
        );
        replay_of::<RunnerKind>(header, &self.sim, &self.recorder)
    }
}

/// Something that happened to the runner, for sounds and the view.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct RunnerEvent(pub RunEvent);

/// Starts a run on a new track, of the session's seed and difficulty; the drawing sets itself up
/// after this.
pub(super) fn start_run(
    mut commands: Commands,
    session: Res<PlaySession>,
    autoplay: Option<Res<AutoplayOnStart>>,
    watching: Option<ResMut<Watching>>,
) {
    commands.remove_resource::<RunnerResult>();
    commands.remove_resource::<ResultDialog>();
    // A record being watched runs from its first input, with no autopilot but its own.
    let watched = watching.is_some_and(|mut watching| {
        watching.rewind();
        true
    });
    let track = Track::new(session.seed, session.difficulty);
    let autopilot = !watched && autoplay.is_some_and(|a| a.0);
    let mut run = RunnerRun::new(session.seed, session.difficulty, track, autopilot);
    run.seed_text.clone_from(&session.seed_text);
    commands.insert_resource(run);
}

/// The board a run's score goes to: its difficulty's, or the day's when it is the daily
/// challenge.
pub fn runner_board(session: &PlaySession) -> String {
    BestScores::board_name(
        &super::MODE,
        &session.board_detail(session.difficulty.name()),
    )
}

/// A watched record's inputs for the coming step.
fn feed_watched_inputs(mut run: ResMut<RunnerRun>, mut watching: ResMut<Watching>) {
    let due = watching.inputs_due::<RunnerKind>(run.sim.tick);
    run.pending.extend(due);
}

fn end_run(mut commands: Commands) {
    commands.remove_resource::<RunnerRun>();
}

fn toggle_overlay(mut run: ResMut<RunnerRun>) {
    run.overlay_shown = !run.overlay_shown;
}

fn toggle_autopilot(mut run: ResMut<RunnerRun>) {
    run.toggle_autopilot();
}

/// The pause menu's "Autopilot" item toggles it too.
fn toggle_autopilot_from_menu(mut inputs: MessageReader<MenuInput>, mut run: ResMut<RunnerRun>) {
    if inputs
        .read()
        .any(|input| *input == MenuInput::Activated(AUTOPILOT))
    {
        run.toggle_autopilot();
    }
}

/// Actions pressed this frame become commands for the next fixed step. A command the player
/// gives takes the runner back from the autopilot, as in the maze's system walk.
fn queue_commands_from_actions(actions: Actions<RunnerAction>, mut run: ResMut<RunnerRun>) {
    for (action, command) in RunnerAction::COMMANDS {
        if actions.just_pressed(&action) {
            run.pending.push(RunnerInput::Command(command));
        }
    }
}

/// One fixed step of the run: the inputs waiting for it, the autopilot's commands when it runs,
/// then motion; recorded for the replay.
pub(super) fn step_runner(
    mut run: ResMut<RunnerRun>,
    mut events: MessageWriter<RunnerEvent>,
    mut sounds: MessageWriter<SoundRequested>,
    watching: Option<Res<Watching>>,
) {
    let watched_to_end = watching.is_some_and(|watching| watching.is_done(run.sim.tick));
    if run.finished || run.sim.is_over() || watched_to_end {
        return;
    }
    let run = &mut *run;
    let before = (run.sim.body.posture, run.sim.body.target_lane());
    let inputs = take_step_inputs(&mut run.pending);
    let tick = run.sim.tick;
    run.sim.step(inputs.iter().copied());
    let sim = &run.sim;
    run.recorder.step(tick, &inputs, || sim.fingerprint());
    // Sounds of what the runner started this step, whoever gave the command.
    let after = (run.sim.body.posture, run.sim.body.target_lane());
    let started = match (before.0, after.0) {
        (Posture::Jumping { .. }, Posture::Jumping { .. })
        | (Posture::Sliding { .. }, Posture::Sliding { .. }) => None,
        (_, Posture::Jumping { .. }) => Some(sounds::JUMP),
        (_, Posture::Sliding { .. }) => Some(sounds::SLIDE),
        (_, Posture::Running) => None,
    };
    let moved = (before.1 != after.1).then_some(sounds::LANE_CHANGE);
    sounds.write_batch(started.into_iter().chain(moved).map(SoundRequested));
    events.write_batch(run.sim.events.iter().copied().map(RunnerEvent));
}

/// Keeps the planner's route current while the overlay is shown (the autopilot plans itself).
fn refresh_plan(mut run: ResMut<RunnerRun>) {
    if run.overlay_shown && !run.sim.autopilot_on && !run.sim.is_over() {
        let run = &mut *run;
        run.preview.refresh_plan(&run.sim.body, &run.sim.track);
    }
}

/// Coins, turns and crashes as they happen (jumps, slides and lane changes sound when they start).
fn play_event_sounds(
    mut events: MessageReader<RunnerEvent>,
    mut sounds: MessageWriter<SoundRequested>,
) {
    for RunnerEvent(event) in events.read() {
        let sound = match event {
            RunEvent::Coins { .. } => Some(sounds::COIN),
            RunEvent::Cleared {
                action: Action::TurnLeft | Action::TurnRight,
                ..
            } => Some(sounds::TURN),
            RunEvent::Cleared { .. } => None,
            RunEvent::Stumbled { .. } => Some(sounds::STUMBLE),
            RunEvent::PowerUp { .. } => Some(sounds::POWER_UP),
            RunEvent::Shielded { .. } => Some(sounds::SHIELD_BREAK),
            RunEvent::Crashed { .. } => Some(sounds::CRASH),
        };
        sounds.write_batch(sound.map(SoundRequested));
    }
}

fn end_run_on_crash(
    mut run: ResMut<RunnerRun>,
    mut scores: ResMut<BestScores>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut commands: Commands,
    mut recorded: MessageWriter<RunRecorded>,
    (watching, session): (Option<Res<Watching>>, Res<PlaySession>),
) {
    if run.finished {
        return;
    }
    if let Some(watching) = watching {
        // A watched record ends where it ended, and records nothing.
        if run.sim.is_over() || watching.is_done(run.sim.tick) {
            run.finished = true;
            commands.insert_resource(replay_over_dialog(
                &watching,
                replay_figures(&watching.replay),
            ));
            next_menu.set(Menu::Results);
        }
        return;
    }
    let Some(crash) = run.sim.body.crash else {
        return;
    };
    run.finished = true;
    let sim = &run.sim;
    let score = sim.body.score();
    let board = runner_board(&session);
    // Guided and assisted runs are not the player's own: no best score. Guided ones are not
    // recorded at all, so they appear on no board.
    let counted = !sim.assisted && !run.guided;
    let new_record =
        counted && scores.submit(&board, Ranking::HigherIsBetter, score as f64, sim.seed);
    let coins_banked = if sim.assisted {
        scores.coins_banked()
    } else {
        scores.bank_coins(u64::from(sim.body.coins))
    };
    let result = RunnerResult {
        distance_m: sim.body.distance_m,
        coins: sim.body.coins,
        score,
        stumbles: sim.body.stumbles,
        powerups: sim.body.powerups_taken_total(),
        crash,
        seed: sim.seed,
        difficulty: sim.difficulty,
        best: scores.best(&board).cloned(),
        new_record,
        assisted: sim.assisted,
        guided: run.guided,
        coins_banked,
    };
    // A run longer than a replay holds is played to its end and shown, but not kept.
    if sim.tick <= MAX_RUN_TICKS && !run.guided {
        recorded.write(RunRecorded {
            board,
            replay: run.replay(unix_now_s()),
        });
    }
    commands.insert_resource(result_dialog(&result));
    commands.insert_resource(result);
    next_menu.set(Menu::Results);
}
