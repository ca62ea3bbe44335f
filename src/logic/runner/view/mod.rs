//! The runner as it is seen, the same for every view: where the track lies ([`layout`]), what is
//! laid of it and what stands beside it ([`world`], [`scenery`]), its colours ([`palette`]),
//! the planner's route through it, and how far behind the runner the guardians run.

pub mod layout;
pub mod palette;
pub mod scenery;
pub mod world;

use crate::logic::runner::body::{Crash, RunnerBody};
use crate::logic::runner::planner::Plan;
use bevy_math::Vec2;
use layout::{CORNER, TrackLayout, lane_offset};

/// How far behind the runner the guardians are just after a stumble, in metres: on the runner's
/// heels, well inside either view.
const NEAR_GAP_M: f64 = 1.5;
/// How far behind they are as the stumble window ends, in metres: dropping out of view.
const FAR_GAP_M: f64 = 6.0;
/// How far behind they are once they have caught the runner, in metres.
const CAUGHT_GAP_M: f64 = 0.6;
/// Where each guardian runs across the track, in lanes from the runner.
pub const GUARDIAN_LANES: [f32; 2] = [-0.45, 0.45];
/// How fast the guardians' bodies sway as they run, in radians per second.
pub const GUARDIAN_SWAY_RATE: f32 = 11.0;

/// How far behind the runner the guardians are drawn, in metres, or `None` when they are out of
/// sight: unseen while the runner runs clean, close behind just after a stumble and falling
/// back as the stumble window runs out, and on the runner once a second stumble lets them
/// catch it.
pub fn guardians_behind_m(body: &RunnerBody) -> Option<f64> {
    if body.crash == Some(Crash::Caught) {
        return Some(CAUGHT_GAP_M);
    }
    let pursuit = body.pursuit();
    (pursuit > 0.0).then_some(FAR_GAP_M + (NEAR_GAP_M - FAR_GAP_M) * pursuit)
}

/// The planner's route in the world, written into `points` (emptied first): where the runner
/// is, then the recommended lane at each of up to `steps` coming contact points, as far as the
/// track is laid. Leaves it empty when the runner is not on the laid track.
pub fn route_points(
    plan: &Plan,
    body: &RunnerBody,
    layout: &TrackLayout,
    steps: usize,
    points: &mut Vec<Vec2>,
) {
    points.clear();
    let across = lane_offset(body.lateral_lanes() as f32);
    let Some((start, _)) = layout.track_point(body.distance_m, across) else {
        return;
    };
    points.push(start);
    for step in plan.steps.iter().take(steps) {
        let Some(place) = layout.place_of(step.index) else {
            break;
        };
        points.push(place.point(CORNER, lane_offset(f32::from(step.lane))));
    }
}
