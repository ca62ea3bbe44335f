//! The NPC wanderers' steering: the sandbox steps in `FixedUpdate` (each NPC toward its
//! Perlin-moved target on the map, planning and smoothing routes around stone, bodies kept
//! apart); a new count, body mix or stone density makes a new sandbox, other settings apply as it
//! runs; T shows or hides every target and its tether. A frame runs at most a few steps, so a
//! crowd too heavy for the machine plays in slow motion rather than at a few frames a second.

use super::options::WanderersOptions;
use crate::game::controls::{Controls, controls_plugin};
use crate::game::screens::{AppSystems, PausableSystems, enter_mode};
use crate::game::session::PlaySession;
use crate::logic::wanderers::sandbox::Sandbox;
use bevy::input::gamepad::GamepadButton;
use bevy::prelude::*;
use leafwing_input_manager::common_conditions::action_just_pressed;
use leafwing_input_manager::prelude::{Actionlike, InputMap};

/// The most sandbox steps one frame runs. Bevy runs as many fixed steps as the frame's real time
/// asks for; when steps take longer than the time they stand for, each frame would run more steps
/// than the last, down to a few frames a second. Past this many, the frame's remaining steps are
/// skipped and the crowd slows down instead. Four steps are 62.5 ms: 20 000 NPCs on 40 % stone
/// (about 35 ms a frame and 5 ms a step under Xvfb here) play at real speed within it.
pub const MAX_STEPS_PER_FRAME: u32 = 4;

/// Sandbox steps run in the current frame.
#[derive(Resource, Debug, Default)]
struct StepsThisFrame(u32);

/// What a sandbox player can do with keys or a gamepad (the rest is the mouse's).
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
pub enum WanderersAction {
    /// Show or hide the targets and tethers.
    Targets,
}

impl Controls for WanderersAction {
    const SECTION: &'static str = "wanderers";
    const TITLE: &'static str = "Wanderers controls";
    const ROWS: &'static [(Self, &'static str, &'static str)] = &[(
        WanderersAction::Targets,
        "controls.wanderers.targets",
        "Targets and tethers",
    )];

    fn default_bindings() -> InputMap<Self> {
        InputMap::new([(WanderersAction::Targets, KeyCode::KeyT)])
            .with(WanderersAction::Targets, GamepadButton::North)
    }
}

pub(super) fn plugin(app: &mut App) {
    controls_plugin::<WanderersAction>(app);
    let running = in_state(super::SCREEN).and_then(resource_exists::<WanderersRun>);
    app.init_resource::<StepsThisFrame>()
        .add_systems(First, |mut steps: ResMut<StepsThisFrame>| steps.0 = 0)
        .add_systems(OnEnter(super::SCREEN), start_sandbox.after(enter_mode))
        .add_systems(OnExit(super::SCREEN), end_sandbox)
        .add_systems(
            Update,
            toggle_targets
                .run_if(action_just_pressed(WanderersAction::Targets))
                .in_set(AppSystems::RecordInput)
                .in_set(PausableSystems)
                .run_if(running.clone()),
        )
        .add_systems(
            FixedUpdate,
            step_sandbox.in_set(PausableSystems).run_if(running.clone()),
        )
        .add_systems(
            Update,
            rebuild_for_new_settings
                .run_if(resource_changed::<WanderersOptions>)
                .in_set(AppSystems::Update)
                .run_if(running),
        );
}

/// The sandbox being watched.
#[derive(Resource, Debug)]
pub struct WanderersRun {
    /// The NPCs on their field.
    pub sandbox: Sandbox,
    /// The settings the NPCs and field were made with.
    pub built_with: WanderersOptions,
    /// Counts rebuilds, so the drawing and the selection know when the NPCs are new.
    pub generation: u32,
}

/// Makes the sandbox; the other wanderers plugins set themselves up after this.
pub(super) fn start_sandbox(
    mut commands: Commands,
    options: Res<WanderersOptions>,
    session: Res<PlaySession>,
) {
    commands.insert_resource(WanderersRun {
        sandbox: Sandbox::new(options.config(session.seed)),
        built_with: *options,
        generation: 0,
    });
}

fn end_sandbox(mut commands: Commands) {
    commands.remove_resource::<WanderersRun>();
}

/// T shows or hides every target and its tether (a setting, so it is remembered).
fn toggle_targets(mut options: ResMut<WanderersOptions>) {
    options.show_targets = !options.show_targets;
}

fn step_sandbox(
    time: Res<Time>,
    options: Res<WanderersOptions>,
    mut steps: ResMut<StepsThisFrame>,
    mut run: ResMut<WanderersRun>,
) {
    if steps.0 >= MAX_STEPS_PER_FRAME {
        return;
    }
    steps.0 += 1;
    run.sandbox
        .step(&options.params(), time.delta_secs(), &options.rules());
}

/// A new count, body mix or stone density makes a new sandbox; other edits apply as it runs.
pub(super) fn rebuild_for_new_settings(
    options: Res<WanderersOptions>,
    session: Res<PlaySession>,
    mut run: ResMut<WanderersRun>,
) {
    if run.built_with.needs_respawn(&options) {
        run.sandbox = Sandbox::new(options.config(session.seed));
        run.built_with = *options;
        run.generation += 1;
    }
}
