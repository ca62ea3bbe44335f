//! The planner's route on the track: a line through the recommended lane at each of the next
//! contact points, shown with P and always while the autopilot runs it. This draws it in the
//! top-down view; the chase view paints it on its ground ([`super::chase`]).

use super::layout::{CORNER, TrackLayout, lane_offset};
use super::rules::RunnerRun;
use crate::game::screens::{AppSystems, Screen};
use crate::logic::runner::planner::PLAN_LOOKAHEAD;
use bevy::prelude::*;

pub(super) const ROUTE_COLOUR: Color = Color::srgba(0.35, 0.95, 0.75, 0.9);

pub(super) fn plugin(app: &mut App) {
    if !crate::game::draws(app) {
        return;
    }
    app.add_systems(
        Update,
        draw_route.in_set(AppSystems::Present).run_if(
            in_state(Screen::Runner)
                .and_then(resource_exists::<TrackLayout>)
                // Option: a condition must not fail where there is no run.
                .and_then(|run: Option<Res<RunnerRun>>| {
                    run.is_some_and(|run| run.overlay_shown || run.sim.autopilot_on)
                }),
        ),
    );
}

/// The route's points in the world: where the runner is, then the recommended lane at each of
/// up to `steps` coming contact points (as far as the track is laid). `None` without a plan.
pub(super) fn route_points(
    run: &RunnerRun,
    layout: &TrackLayout,
    steps: usize,
) -> Option<Vec<Vec2>> {
    let plan = run.plan()?;
    let across = lane_offset(run.sim.body.lateral_lanes() as f32);
    let (start, _) = layout.track_point(run.sim.body.distance_m, across)?;
    let mut points = vec![start];
    for step in plan.steps.iter().take(steps) {
        let Some(place) = layout.place_of(step.index) else {
            break;
        };
        points.push(place.point(CORNER, lane_offset(f32::from(step.lane))));
    }
    Some(points)
}

fn draw_route(run: Res<RunnerRun>, layout: Res<TrackLayout>, mut gizmos: Gizmos) {
    let Some(points) = route_points(&run, &layout, PLAN_LOOKAHEAD) else {
        return;
    };
    for &at in &points[1..] {
        gizmos.circle_2d(at, 0.55, ROUTE_COLOUR);
    }
    gizmos.linestrip_2d(points, ROUTE_COLOUR);
}
