//! The top-down view: the run seen from straight above, as a map. The track's segments as
//! sprites under their segment's transform, with coins and power-ups that shine and vanish when
//! taken ([`track`]); the runner, the ghost and the guardians ([`figures`]); the planner's route
//! as gizmos ([`route`]); and a camera riding the centre line and turning at junctions
//! ([`camera`]). It has entities and runs systems only while it is the view shown.

mod camera;
mod figures;
mod palette;
mod route;
mod track;

use super::options::{RunnerView, ShownView, add_view};
use super::rules::RunnerRun;
use super::world::TrackInSight;
use crate::game::screens::Screen;
use bevy::prelude::*;

/// The view state this view is shown in.
const SHOWN: ShownView = ShownView(RunnerView::TopDown);

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    add_view::<TopDown, _>(app, SHOWN.0, set_up_view);
    app.init_resource::<palette::PaletteCache>().add_plugins((
        camera::plugin,
        figures::plugin,
        route::plugin,
        track::plugin,
    ));
}

/// The top-down view is set up for the run being played.
#[derive(Resource, Debug, Default)]
struct TopDown;

/// Whether the view is shown and set up, with a run and its world: when its systems run.
fn drawing(
    shown: Option<Res<State<ShownView>>>,
    view: Option<Res<TopDown>>,
    run: Option<Res<RunnerRun>>,
    world: Option<Res<TrackInSight>>,
) -> bool {
    shown.is_some_and(|shown| *shown.get() == SHOWN)
        && view.is_some()
        && run.is_some()
        && world.is_some()
}

/// Marks the view set up: each part spawns its entities as it sees this.
fn set_up_view(mut commands: Commands) {
    commands.insert_resource(TopDown);
}

/// The components every entity of the view carries: it goes when the view or the screen ends.
fn view_lifetime() -> (DespawnOnExit<ShownView>, DespawnOnExit<Screen>) {
    super::options::view_lifetime(SHOWN.0)
}
