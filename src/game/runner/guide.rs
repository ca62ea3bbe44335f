//! The first runs' guidance in the game: while the player has something left to learn and the
//! setting is on, the guide of [`crate::logic::runner::guide`] follows the run, its tip names
//! what is coming and the player's keys for it, time slows toward the moment to act and the run
//! waits there for a key. What it teaches is saved with the settings; a run it guided goes on
//! no board. Watched records and the autopilot are never guided.

use super::controls::{RunnerAction, keys_for};
use super::options::RunnerOptions;
use super::rules::{RunnerRun, RunnerStep};
use crate::game::controls::{Device, LastDevice};
use crate::game::records::Watching;
use crate::game::screens::{AppSystems, PausableSystems};
use crate::game::theme::widgets::{TipPlace, hud_tip};
use crate::logic::runner::body::Command;
use crate::logic::runner::guide::{Guide, Lesson, Prompt};
use crate::logic::runner::planner::Action;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::InputMap;

pub(super) fn plugin(app: &mut App) {
    let running = in_state(super::SCREEN).and_then(resource_exists::<RunnerRun>);
    app.configure_sets(FixedUpdate, RunnerStep.run_if(guide_lets_the_run_step))
        .add_systems(OnExit(super::SCREEN), end_guide)
        .add_systems(
            FixedUpdate,
            follow_the_run
                .after(RunnerStep)
                .in_set(PausableSystems)
                .run_if(running.clone().and_then(resource_exists::<RunnerGuide>)),
        )
        .add_systems(
            Update,
            (start_guide, end_guide_when_turned_off, pace_time)
                .chain()
                .in_set(AppSystems::Update)
                .run_if(running),
        );
    if crate::game::screens::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_tip.run_if(resource_exists::<RunnerGuide>.and_then(in_state(super::SCREEN))),
        );
    }
}

/// The guide of the run being played, while it is guided.
#[derive(Resource, Debug)]
pub struct RunnerGuide(pub Guide);

impl RunnerGuide {
    /// The prompt to show, unless the autopilot runs (then it is the autopilot's to act).
    pub fn shown<'a>(&'a self, run: &RunnerRun) -> Option<&'a Prompt> {
        self.0.current().filter(|_| !run.sim.autopilot_on)
    }
}

/// A run not yet stepped is guided if the player wants it and has something left to learn. It
/// is set up again until the first step, so a restart or a run replaced before it starts (as
/// the tests do) gets a guide of its own.
fn start_guide(
    mut commands: Commands,
    run: Res<RunnerRun>,
    options: Res<RunnerOptions>,
    watching: Option<Res<Watching>>,
) {
    if run.sim.tick != 0 {
        return;
    }
    if options.guidance.guides(&Lesson::ALL) && watching.is_none() {
        let learned = options.guidance.learned.clone();
        let guide = Guide::new(learned, &run.sim.body, &run.sim.track);
        commands.insert_resource(RunnerGuide(guide));
    } else {
        commands.remove_resource::<RunnerGuide>();
    }
}

/// Guidance turned off in the pause menu's settings ends at once.
fn end_guide_when_turned_off(
    options: Res<RunnerOptions>,
    guide: Option<Res<RunnerGuide>>,
    commands: Commands,
    time: ResMut<Time<Virtual>>,
) {
    if !options.guidance.on {
        end_guide(commands, guide, time);
    }
}

/// The guide goes, and time runs at full speed again if it was guiding.
fn end_guide(
    mut commands: Commands,
    guide: Option<Res<RunnerGuide>>,
    mut time: ResMut<Time<Virtual>>,
) {
    if guide.is_some() {
        commands.remove_resource::<RunnerGuide>();
        time.set_relative_speed(1.0);
    }
}

/// The run's next step waits while the guide holds it, until the player gives a command (any:
/// a wrong one is stepped too, and the guide looks again).
fn guide_lets_the_run_step(guide: Option<Res<RunnerGuide>>, run: Option<Res<RunnerRun>>) -> bool {
    let (Some(guide), Some(run)) = (guide, run) else {
        return true;
    };
    !run.pending.is_empty() || !guide.shown(&run).is_some_and(Prompt::holds)
}

/// After each step: the lessons the player has just learned are saved, and a run that shows a
/// tip is marked guided.
fn follow_the_run(
    mut guide: ResMut<RunnerGuide>,
    mut run: ResMut<RunnerRun>,
    mut options: ResMut<RunnerOptions>,
) {
    // What the autopilot does teaches the player nothing.
    if run.sim.autopilot_on {
        return;
    }
    let taught = guide
        .0
        .follow(&run.sim.body, &run.sim.track, &run.sim.events);
    if !taught.is_empty() {
        options.guidance.learned.extend(taught);
    }
    if guide.0.current().is_some() && !run.guided {
        run.guided = true;
    }
}

/// Time runs as fast as the prompt shown asks: slower toward the moment to act.
fn pace_time(
    guide: Option<Res<RunnerGuide>>,
    run: Res<RunnerRun>,
    mut time: ResMut<Time<Virtual>>,
) {
    let Some(guide) = guide else {
        return;
    };
    let scale = guide.shown(&run).map_or(1.0, Prompt::time_scale);
    if time.relative_speed_f64() != scale {
        time.set_relative_speed_f64(scale);
    }
}

/// What a tip says: what is coming, and what to do about it with which of the player's keys (or
/// buttons, on `device`).
pub fn tip_words(
    prompt: &Prompt,
    bindings: &InputMap<RunnerAction>,
    device: Device,
) -> (String, String) {
    let keys = prompt
        .command
        .map(|command| keys_for(bindings, command, device))
        .unwrap_or_default();
    let side = match prompt.command {
        Some(Command::Left) => "left",
        _ => "right",
    };
    let act = |verb: &str| {
        if prompt.in_reach() {
            format!("{verb} now: {keys}")
        } else {
            format!("Get ready to {}: {keys}", verb.to_lowercase())
        }
    };
    match prompt.lesson {
        Lesson::Junction => {
            let way = if prompt.turn == Some(Action::TurnLeft) {
                "left"
            } else {
                "right"
            };
            (format!("The path turns {way}"), act(&format!("Turn {way}")))
        }
        Lesson::Log => ("A log across your lane".to_owned(), act("Jump")),
        Lesson::Beam => ("A beam over your lane".to_owned(), act("Slide")),
        Lesson::Wall => (
            "A wall in your lane".to_owned(),
            act(&format!("Step {side}")),
        ),
        Lesson::PowerUp => {
            let name = prompt.powerup.map_or("power-up", |kind| kind.label());
            let instruction = if prompt.command.is_some() {
                format!("Step {side} to take it: {keys}")
            } else {
                "Run through it to take it".to_owned()
            };
            (format!("A power-up: {name}"), instruction)
        }
    }
}

fn draw_tip(
    mut contexts: EguiContexts,
    guide: Res<RunnerGuide>,
    run: Res<RunnerRun>,
    bindings: Single<&InputMap<RunnerAction>>,
    device: Res<LastDevice>,
) -> Result {
    // A prompt met goes (a power-up in the lane is met by running on, and stays).
    let Some(prompt) = guide
        .shown(&run)
        .filter(|prompt| !prompt.met || prompt.command.is_none())
    else {
        return Ok(());
    };
    let (heading, instruction) = tip_words(prompt, &bindings, **device);
    // Over the sky, clear of the track.
    hud_tip(
        contexts.ctx_mut()?,
        "runner-guide",
        TipPlace::Top,
        (&heading, &instruction),
        prompt.time_scale() < 1.0,
    );
    Ok(())
}
