//! The runner's world for every view: the laid track, worked out once per segment as it comes
//! ([`crate::logic::runner::view::world`]), and the coins and power-ups taken from it. Made on
//! entering the runner's screen when the game draws, whichever view is shown.

use super::rules::{RunnerEvent, RunnerRun, start_run};
use crate::game::screens::AppSystems;
use crate::logic::runner::body::RunEvent;
use crate::logic::runner::view::world::RunnerWorld;
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    app.add_systems(OnEnter(super::SCREEN), make_world.after(start_run))
        .add_systems(OnExit(super::SCREEN), |mut commands: Commands| {
            commands.remove_resource::<TrackInSight>();
        })
        .add_systems(
            Update,
            (lay_track, take_pickups.run_if(on_message::<RunnerEvent>))
                .chain()
                .in_set(AppSystems::Update)
                .run_if(resource_exists::<TrackInSight>.and_then(resource_exists::<RunnerRun>)),
        );
}

/// The world of the run being played.
#[derive(Resource, Debug, Deref, DerefMut)]
pub struct TrackInSight(pub RunnerWorld);

impl TrackInSight {
    /// The heading of the track where the runner of `run` is, in radians counter-clockwise
    /// from up (0 off the laid track): a view set up in the middle of a run starts looking
    /// where the runner runs, without swinging round.
    pub fn heading_of(&self, run: &RunnerRun) -> f32 {
        self.layout()
            .track_point(run.sim.body.distance_m, 0.0)
            .map_or(0.0, |(_, quarter)| quarter as f32 * FRAC_PI_2)
    }
}

fn make_world(mut commands: Commands, run: Option<Res<RunnerRun>>) {
    if let Some(run) = run {
        commands.insert_resource(TrackInSight(RunnerWorld::new(run.sim.seed)));
    }
}

/// Lays the segments coming within sight and forgets those well behind.
fn lay_track(run: Res<RunnerRun>, mut world: ResMut<TrackInSight>) {
    world.lay(run.sim.track.upcoming(), run.sim.body.distance_m);
}

/// Coins and power-ups taken are taken from the world, for every view.
fn take_pickups(mut events: MessageReader<RunnerEvent>, mut world: ResMut<TrackInSight>) {
    for RunnerEvent(event) in events.read() {
        if let RunEvent::Coins { index, lane } | RunEvent::PowerUp { index, lane, .. } = *event {
            world.take(index, lane);
        }
    }
}
