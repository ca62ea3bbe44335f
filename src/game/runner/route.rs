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

fn draw_route(run: Res<RunnerRun>, layout: Res<TrackLayout>, mut gizmos: Gizmos) {
    let Some(plan) = run.plan() else {
        return;
    };
    let across = lane_offset(run.sim.body.lateral_lanes() as f32);
    let Some((start, _)) = layout.track_point(run.sim.body.distance_m, across) else {
        return;
    };
    let mut points = vec![start];
    for step in plan.steps.iter().take(PLAN_LOOKAHEAD) {
        let Some(place) = layout.place_of(step.index) else {
            break;
        };
        let at = place.point(CORNER, lane_offset(f32::from(step.lane)));
        gizmos.circle_2d(at, 0.55, ROUTE_COLOUR);
        points.push(at);
    }
    gizmos.linestrip_2d(points, ROUTE_COLOUR);
}
