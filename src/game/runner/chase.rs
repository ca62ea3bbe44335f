//! The chase view, the runner's default: the run seen from behind and above the runner in
//! perspective. The drawing is plain code ([`crate::logic::runner::chase`]); this plugin keeps
//! the view's state moving (its clock, dust and sparkles), lists what the frame shows, paints it
//! into buffers kept from frame to frame and hands them to one mesh. It has entities and runs
//! systems only while it is the view shown.

use super::ghost::RunnerGhost;
use super::options::{RunnerView, ShownView, add_view, view_lifetime};
use super::rules::{RunnerEvent, RunnerRun};
use super::world::TrackInSight;
use crate::game::camera::ViewedCamera;
use crate::game::screens::AppSystems;
use crate::game::settings::Settings;
use crate::logic::runner::body::RunEvent;
use crate::logic::runner::chase::draw_list::{COIN_ALONGS, DrawList, Scene};
use crate::logic::runner::chase::painter::{Canvas, LAND, paint};
use crate::logic::runner::chase::state::{ChaseState, FrameClock};
use crate::logic::runner::planner::PLAN_LOOKAHEAD;
use crate::logic::runner::view::layout::{CORNER, lane_offset};
use crate::logic::runner::view::palette::powerup_colour;
use crate::logic::runner::view::route_points;
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::NoFrustumCulling;
use bevy::mesh::{Indices, PrimitiveTopology, VertexAttributeValues};
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

/// The view state this view is shown in.
const SHOWN: ShownView = ShownView(RunnerView::Chase);
/// A coin line sparkles where its coins stood, a power-up where its orb floated.
const SPARKLE: Color = Color::srgb(1.0, 0.93, 0.55);
/// Speed lines start showing at this speed and are at their strongest at the top speed.
const SPEED_LINES_FROM_MPS: f64 = 12.0;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    add_view::<ChaseView, _>(app, SHOWN.0, set_up_view);
    app.add_systems(
        Update,
        (
            sparkle_where_taken.run_if(on_message::<RunnerEvent>),
            move_view_on,
            paint_frame,
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(
                in_state(SHOWN)
                    .and_then(resource_exists::<ChaseView>)
                    .and_then(resource_exists::<RunnerRun>)
                    .and_then(resource_exists::<TrackInSight>),
            ),
    );
}

/// The chase view of the run being played: its mesh, its state, and the buffers of a frame.
#[derive(Resource)]
struct ChaseView {
    mesh: Handle<Mesh>,
    state: ChaseState,
    list: DrawList,
    canvas: Canvas,
    route: Vec<Vec2>,
}

/// A mesh of no triangles yet, kept in both worlds so its buffers can be filled in place.
fn empty_mesh() -> Mesh {
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, Vec::<[f32; 3]>::new())
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, Vec::<[f32; 4]>::new())
    .with_inserted_indices(Indices::U32(Vec::new()))
}

fn set_up_view(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    camera: ViewedCamera,
    (run, world): (Option<Res<RunnerRun>>, Option<Res<TrackInSight>>),
) {
    let mesh = meshes.add(empty_mesh());
    commands.spawn((
        Name::new("Chase view"),
        Mesh2d(mesh.clone()),
        MeshMaterial2d(materials.add(Color::WHITE)),
        Transform::default(),
        // The mesh is rebuilt every frame; its bounds are the window's, never to be culled.
        NoFrustumCulling,
        view_lifetime(SHOWN.0),
    ));
    // The painter works in window pixels from the centre, and leaves the land to the clear.
    if let Some(mut camera) = camera {
        let (ref mut transform, ref mut projection, ref mut camera) = *camera;
        **transform = Transform::from_xyz(0.0, 0.0, transform.translation.z);
        if let Projection::Orthographic(ortho) = &mut **projection {
            ortho.scale = 1.0;
        }
        camera.clear_color = ClearColorConfig::Custom(LAND);
    }
    commands.insert_resource(ChaseView {
        mesh,
        state: ChaseState::looking(
            run.zip(world)
                .map_or(0.0, |(run, world)| world.heading_of(&run)),
        ),
        list: DrawList::default(),
        canvas: Canvas::default(),
        route: Vec::new(),
    });
}

/// Coins and power-ups burst into sparks as they are taken.
fn sparkle_where_taken(
    mut events: MessageReader<RunnerEvent>,
    world: Res<TrackInSight>,
    mut view: ResMut<ChaseView>,
) {
    for RunnerEvent(event) in events.read() {
        let (index, lane, colour, alongs): (u64, u8, Color, &[f32]) = match *event {
            RunEvent::Coins { index, lane } => (index, lane, SPARKLE, &COIN_ALONGS),
            RunEvent::PowerUp { index, lane, kind } => {
                (index, lane, powerup_colour(kind), &[CORNER])
            }
            _ => continue,
        };
        let Some(segment) = world.segment(index) else {
            continue;
        };
        for &along in alongs {
            let at = segment.place.point(along, lane_offset(f32::from(lane)));
            view.state.sparkle(at, colour);
        }
    }
}

/// The view's state moves on: its camera, its clock, its dust and sparkles.
fn move_view_on(
    time: Res<Time>,
    real_time: Res<Time<Real>>,
    run: Res<RunnerRun>,
    world: Res<TrackInSight>,
    settings: Res<Settings>,
    mut view: ResMut<ChaseView>,
) {
    // Read each frame, so that the setting changed from the pause menu holds at once.
    view.state.reduced_motion = settings.reduce_motion;
    let body = &run.sim.body;
    let layout = world.layout();
    let Some((_, quarter)) = layout.track_point(body.distance_m, 0.0) else {
        return;
    };
    let across = lane_offset(body.lateral_lanes() as f32);
    let feet = layout
        .track_point(body.distance_m, across)
        .map_or(Vec2::ZERO, |(feet, _)| feet);
    let clock = FrameClock {
        game_delta_s: time.delta_secs(),
        real_delta_s: real_time.delta_secs(),
        real_s: real_time.elapsed_secs(),
    };
    view.state
        .advance(clock, body, quarter as f32 * FRAC_PI_2, feet);
}

/// Lists what the frame shows, paints it, and hands the triangles to the mesh (swapping buffers
/// with it, so nothing is allocated once both are warm).
fn paint_frame(
    time: Res<Time>,
    real_time: Res<Time<Real>>,
    run: Res<RunnerRun>,
    world: Res<TrackInSight>,
    ghost: Option<Res<RunnerGhost>>,
    mut view: ResMut<ChaseView>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let view = &mut *view;
    let body = &run.sim.body;
    let route_shown = run.overlay_shown || run.sim.autopilot_on;
    view.route.clear();
    if route_shown && let Some(plan) = run.plan() {
        route_points(plan, body, world.layout(), PLAN_LOOKAHEAD, &mut view.route);
    }
    let timing = run.sim.track.timing();
    let speed = timing.speed_at(body.distance_m);
    let strength = if view.state.reduced_motion {
        0.0
    } else {
        (speed - SPEED_LINES_FROM_MPS) / (timing.max_speed_mps - SPEED_LINES_FROM_MPS)
    };
    let scene = Scene {
        world: &world,
        state: &view.state,
        runner: body,
        ghost: ghost.as_ref().map(|ghost| &ghost.sim.body),
        route: (!view.route.is_empty()).then_some(view.route.as_slice()),
        elapsed_s: time.elapsed_secs(),
        speed_lines: strength.clamp(0.0, 1.0) as f32,
        shake: view.state.shake(real_time.elapsed_secs()),
    };
    view.list.build(&scene);
    paint(&view.list, &mut view.canvas);
    let Some(mut mesh) = meshes.get_mut(&view.mesh) else {
        return;
    };
    if let Some(VertexAttributeValues::Float32x3(positions)) =
        mesh.attribute_mut(Mesh::ATTRIBUTE_POSITION)
    {
        std::mem::swap(positions, &mut view.canvas.positions);
    }
    if let Some(VertexAttributeValues::Float32x4(colours)) =
        mesh.attribute_mut(Mesh::ATTRIBUTE_COLOR)
    {
        std::mem::swap(colours, &mut view.canvas.colours);
    }
    if let Some(Indices::U32(indices)) = mesh.indices_mut() {
        std::mem::swap(indices, &mut view.canvas.indices);
    }
}
