//! The ghost: the best run of this seed and difficulty, played from its replay step for step
//! beside the player, with the gap in metres in the HUD; each view draws it as a translucent
//! runner. The Ghosts setting turns it off; a world board's run the player chose to race
//! ([`RaceGhost`]) takes its place.

use super::rules::{RunnerRun, runner_board, start_run, step_runner};
use crate::game::replays::{RaceGhost, Records};
use crate::game::screens::PausableSystems;
use crate::game::session::{PlayReason, PlaySession};
use crate::game::settings::Settings;
use crate::logic::replay::{RunKind, Timed, play_until};
use crate::logic::runner::replay::RunnerKind;
use crate::logic::runner::run::{RunnerInput, RunnerSim};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(super::SCREEN), summon_ghost.after(start_run))
        .add_systems(OnExit(super::SCREEN), |mut commands: Commands| {
            commands.remove_resource::<RunnerGhost>();
        })
        .add_systems(
            FixedUpdate,
            step_ghost
                .after(step_runner)
                .in_set(PausableSystems)
                .run_if(resource_exists::<RunnerGhost>.and_then(resource_exists::<RunnerRun>)),
        );
}

/// The best run of this seed, being played again beside the player.
#[derive(Resource, Debug)]
pub struct RunnerGhost {
    /// The ghost's run.
    pub sim: RunnerSim,
    inputs: Vec<Timed<RunnerInput>>,
    next: usize,
}

impl RunnerGhost {
    /// Metres the player is ahead of the ghost (negative: behind).
    pub fn gap_m(&self, run: &RunnerRun) -> f64 {
        run.sim.body.distance_m - self.sim.body.distance_m
    }
}

/// The ghost of this run's seed and difficulty, when there is one and ghosts are on.
fn summon_ghost(
    mut commands: Commands,
    run: Option<Res<RunnerRun>>,
    (records, race): (Res<Records>, Option<Res<RaceGhost>>),
    settings: Res<Settings>,
    session: Res<PlaySession>,
) {
    let Some(run) = run else {
        return;
    };
    if session.why == PlayReason::Watched {
        return;
    }
    let board = runner_board(&session);
    // A ghost the player chose to race comes whatever the Ghosts setting says.
    let raced = RaceGhost::of(
        race.as_deref(),
        RunnerKind::MODE,
        run.sim.seed,
        session.difficulty,
    );
    let ghost = raced.or_else(|| {
        settings
            .ghosts
            .then(|| records.ghost(&board, run.sim.seed))
            .flatten()
    });
    let Some(replay) = ghost else {
        return;
    };
    let Ok(inputs) = replay.run.inputs::<RunnerKind>() else {
        return;
    };
    commands.insert_resource(RunnerGhost {
        sim: RunnerSim::new(replay.seed, replay.difficulty),
        inputs,
        next: 0,
    });
}

/// The ghost takes the steps the player's run took, with its own recorded inputs.
fn step_ghost(run: Res<RunnerRun>, mut ghost: ResMut<RunnerGhost>) {
    let ghost = &mut *ghost;
    play_until(&mut ghost.sim, &ghost.inputs, &mut ghost.next, run.sim.tick);
}
