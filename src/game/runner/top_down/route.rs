//! The planner's route seen from above: a line through the recommended lane at each of the
//! next contact points, shown with P and always while the autopilot runs it.

use super::drawing;
use crate::game::runner::rules::RunnerRun;
use crate::game::runner::world::TrackInSight;
use crate::game::screens::AppSystems;
use crate::logic::runner::planner::PLAN_LOOKAHEAD;
use crate::logic::runner::view::palette::ROUTE_COLOUR;
use crate::logic::runner::view::route_points;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_route
            .in_set(AppSystems::Present)
            .run_if(drawing.and_then(|run: Option<Res<RunnerRun>>| {
                run.is_some_and(|run| run.overlay_shown || run.sim.autopilot_on)
            })),
    );
}

fn draw_route(
    run: Res<RunnerRun>,
    world: Res<TrackInSight>,
    mut points: Local<Vec<Vec2>>,
    mut gizmos: Gizmos,
) {
    let Some(plan) = run.plan() else {
        return;
    };
    route_points(
        plan,
        &run.sim.body,
        world.layout(),
        PLAN_LOOKAHEAD,
        &mut points,
    );
    for &at in points.iter().skip(1) {
        gizmos.circle_2d(at, 0.55, ROUTE_COLOUR);
    }
    gizmos.linestrip_2d(points.iter().copied(), ROUTE_COLOUR);
}
