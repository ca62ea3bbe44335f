//! Runner mode: the drawing. A top-down temple path in metres (one world unit is one metre), the
//! camera riding behind the runner and turning with it at junctions, obstacles and coins, the
//! planner overlay, the HUD and the game-over dialog.

use super::{RunnerEvent, RunnerResult, RunnerRun, start_run};
use crate::game::menu::ui::{
    AMBER, DIM, GOLD, MenuPlace, SAND, dialog_buttons, hud_bar, hud_figure, item_label,
    modal_panel, results_table,
};
use crate::game::menu::{MenuCursor, MenuInput, MenuItem};
use crate::game::screens::{AppSystems, Menu, Screen};
use crate::game::settings::Settings;
use crate::logic::runner::body::{Posture, RunEvent};
use crate::logic::runner::planner::PLAN_LOOKAHEAD;
use crate::logic::runner::timing::{CONTACT_OFFSET_M, LANES, SEGMENT_LENGTH_M};
use crate::logic::runner::track::{LaneContent, Segment, SegmentKind};
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use std::collections::VecDeque;
use std::f32::consts::FRAC_PI_2;

/// Width of one lane, in metres.
const LANE_WIDTH: f32 = 3.4;
/// Width of the walkable track.
const TRACK_WIDTH: f32 = LANE_WIDTH * LANES as f32;
/// The stone kerb on each side of the track.
const KERB: f32 = 0.8;
/// Screen pixels per metre.
const PIXELS_PER_METRE: f32 = 19.0;
/// How far ahead of the runner the camera looks, in metres: the runner sits near the bottom.
const LOOK_AHEAD_M: f32 = 13.0;
/// Segments drawn ahead of the runner: as far as the planner's route reaches.
const SEGMENTS_AHEAD: usize = PLAN_LOOKAHEAD;
/// Segments kept drawn behind the runner.
const SEGMENTS_BEHIND: u64 = 2;
/// How fast the camera turns toward the runner's heading, per second (exponential approach).
const CAMERA_TURN_RATE: f32 = 9.0;
/// How fast the drawn runner catches up when its place jumps (across a junction), per second.
const CATCH_UP_RATE: f32 = 14.0;
/// Jumps of the drawn runner shorter than this are taken at once, in metres.
const SNAP_DISTANCE_M: f32 = 0.3;

const FLOOR_LIGHT: Color = Color::srgb(0.60, 0.49, 0.34);
const FLOOR_DARK: Color = Color::srgb(0.55, 0.44, 0.30);
const KERB_COLOUR: Color = Color::srgb(0.30, 0.23, 0.16);
const LANE_LINE: Color = Color::srgba(0.25, 0.18, 0.12, 0.45);
const LOG_COLOUR: Color = Color::srgb(0.46, 0.26, 0.10);
const LOG_END: Color = Color::srgb(0.72, 0.52, 0.30);
const BEAM_COLOUR: Color = Color::srgb(0.47, 0.55, 0.66);
const PILLAR_COLOUR: Color = Color::srgb(0.28, 0.32, 0.42);
const SHADOW: Color = Color::srgba(0.0, 0.0, 0.0, 0.35);
const WALL_COLOUR: Color = Color::srgb(0.20, 0.18, 0.19);
const WALL_TOP: Color = Color::srgb(0.42, 0.38, 0.36);
const COIN_COLOUR: Color = Color::srgb(1.0, 0.82, 0.22);
const COIN_RIM: Color = Color::srgb(0.78, 0.55, 0.08);
const ARROW_COLOUR: Color = Color::srgba(0.95, 0.75, 0.25, 0.85);
const RUNNER_BODY: Color = Color::srgb(0.85, 0.30, 0.18);
const RUNNER_HEAD: Color = Color::srgb(0.93, 0.78, 0.58);
const ROUTE_COLOUR: Color = Color::srgba(0.35, 0.95, 0.75, 0.9);
const JUNGLE_FLOOR: Color = Color::srgb(0.07, 0.13, 0.07);
const CANOPY: [Color; 3] = [
    Color::srgb(0.10, 0.25, 0.10),
    Color::srgb(0.13, 0.31, 0.12),
    Color::srgb(0.08, 0.20, 0.09),
];
const STATUE_COLOUR: Color = Color::srgb(0.45, 0.41, 0.35);
/// How far the jungle floor reaches beside the track, in metres.
const JUNGLE_REACH: f32 = 40.0;

pub(in crate::game) fn plugin(app: &mut App) {
    let drawn = in_state(Screen::Runner)
        .and_then(resource_exists::<RunnerRun>)
        .and_then(resource_exists::<RunnerView>);
    app.add_systems(OnEnter(Screen::Runner), spawn_runner_view.after(start_run))
        .add_systems(
            OnExit(Screen::Runner),
            crate::game::end_mode_view::<RunnerView>,
        )
        .add_systems(
            Update,
            (
                place_segments,
                take_coins.run_if(on_message::<RunnerEvent>),
                shine_coins,
                pose_runner,
                follow_runner,
                // Option: run conditions are checked even when the set's own condition is false.
                draw_route.run_if(|run: Option<Res<RunnerRun>>| {
                    run.is_some_and(|run| run.overlay_shown || run.autopilot_on)
                }),
            )
                .chain()
                .in_set(AppSystems::Present)
                .run_if(drawn),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                draw_hud.run_if(resource_exists::<RunnerRun>.and_then(in_state(Screen::Runner))),
                draw_game_over
                    .run_if(in_state(Menu::GameOver).and_then(resource_exists::<RunnerResult>)),
            ),
        );
}

/// Where one segment lies in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SegmentPlace {
    index: u64,
    kind: SegmentKind,
    /// The middle of the segment's start edge.
    origin: Vec2,
    /// Heading at the start, in quarter turns counter-clockwise from up.
    quarter: i64,
}

impl SegmentPlace {
    /// The world point `along` metres into the segment and `across` metres right of its centre
    /// line, following the turn at a junction.
    fn point(&self, along: f32, across: f32) -> Vec2 {
        self.origin + rotation(self.quarter) * local_point(self.kind, along, across)
    }
}

/// The drawing's memory: where the segments lie and where the runner and camera are drawn.
#[derive(Resource, Debug)]
struct RunnerView {
    places: VecDeque<SegmentPlace>,
    /// Where the next segment to place begins, and its heading.
    next_origin: Vec2,
    next_quarter: i64,
    next_index: u64,
    /// The runner as drawn, which catches up smoothly after a junction.
    drawn_at: Option<Vec2>,
    /// The camera's heading as drawn, in radians.
    camera_angle: f32,
}

impl RunnerView {
    fn new() -> RunnerView {
        RunnerView {
            places: VecDeque::new(),
            next_origin: Vec2::ZERO,
            next_quarter: 0,
            next_index: 0,
            drawn_at: None,
            camera_angle: 0.0,
        }
    }

    fn place_of(&self, index: u64) -> Option<&SegmentPlace> {
        let first = self.places.front()?.index;
        self.places
            .get(usize::try_from(index.checked_sub(first)?).ok()?)
    }
}

/// A segment's drawing.
#[derive(Component, Debug)]
struct SegmentVisual(u64);

/// One coin of a coin line: segment and lane.
#[derive(Component, Debug)]
struct CoinVisual(u64, u8);

/// The bright face of a coin, which swells and shrinks a little so coins shine.
#[derive(Component, Debug)]
struct CoinShine {
    /// Offset of this coin's shimmer, in radians, so neighbouring coins do not pulse together.
    phase: f32,
}

/// The drawn runner; its children are the body and the shadow.
#[derive(Component, Debug)]
struct RunnerFigure;

/// A part of the drawn runner that shows its posture.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
enum RunnerPart {
    /// The shadow, which slides away from the body during a jump.
    Shadow,
    /// The body, which grows in a jump and squashes in a slide.
    Body,
}

/// The unit direction of a heading: 0 up, 1 left, 2 down, 3 right.
fn rotation(quarter: i64) -> Mat2 {
    Mat2::from_angle(quarter.rem_euclid(4) as f32 * FRAC_PI_2)
}

/// A point of a segment in its own frame (start edge centre at the origin, heading up, right
/// along +x). At a junction the part past the contact point runs along the new heading.
fn local_point(kind: SegmentKind, along: f32, across: f32) -> Vec2 {
    let corner = CONTACT_OFFSET_M as f32;
    let turn = match kind {
        SegmentKind::TurnLeft if along > corner => 1,
        SegmentKind::TurnRight if along > corner => -1,
        _ => return Vec2::new(across, along),
    };
    Vec2::new(0.0, corner) + rotation(turn) * Vec2::new(across, along - corner)
}

/// How many quarter turns a segment adds to the heading.
fn quarter_turns(kind: SegmentKind) -> i64 {
    match kind {
        SegmentKind::Straight => 0,
        SegmentKind::TurnLeft => 1,
        SegmentKind::TurnRight => -1,
    }
}

/// The centre of a lane, in metres right of the centre line.
fn lane_offset(lane: f32) -> f32 {
    (lane - 1.0) * LANE_WIDTH
}

/// Meshes and materials every drawn thing shares.
struct Palette<'a> {
    meshes: &'a mut Assets<Mesh>,
    materials: &'a mut Assets<ColorMaterial>,
}

impl Palette<'_> {
    fn circle(&mut self, radius: f32, colour: Color) -> (Mesh2d, MeshMaterial2d<ColorMaterial>) {
        (
            Mesh2d(self.meshes.add(Circle::new(radius))),
            MeshMaterial2d(self.materials.add(colour)),
        )
    }

    fn triangle(&mut self, colour: Color) -> (Mesh2d, MeshMaterial2d<ColorMaterial>) {
        let triangle = Triangle2d::new(
            Vec2::new(0.0, 1.6),
            Vec2::new(-1.3, -1.0),
            Vec2::new(1.3, -1.0),
        );
        (
            Mesh2d(self.meshes.add(triangle)),
            MeshMaterial2d(self.materials.add(colour)),
        )
    }
}

/// A rectangle of `size` metres at `centre` in a segment's frame, turned by `angle`.
fn block(colour: Color, size: Vec2, centre: Vec2, angle: f32, z: f32) -> impl Bundle {
    (
        Sprite::from_color(colour, size),
        Transform::from_translation(centre.extend(z)).with_rotation(Quat::from_rotation_z(angle)),
    )
}

fn spawn_runner_view(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    camera: Option<Single<(&mut Transform, &mut Projection), With<Camera2d>>>,
) {
    commands.insert_resource(RunnerView::new());
    let mut palette = Palette {
        meshes: &mut meshes,
        materials: &mut materials,
    };
    commands.spawn((
        Name::new("Runner"),
        RunnerFigure,
        Transform::from_xyz(0.0, 0.0, 5.0),
        Visibility::default(),
        DespawnOnExit(Screen::Runner),
        children![
            (
                Name::new("Runner shadow"),
                RunnerPart::Shadow,
                palette.circle(0.8, SHADOW),
                Transform::from_xyz(0.0, 0.0, -0.2),
            ),
            (
                Name::new("Runner body"),
                RunnerPart::Body,
                palette.circle(0.78, RUNNER_BODY),
                Transform::default(),
                children![(
                    Name::new("Runner head"),
                    palette.circle(0.42, RUNNER_HEAD),
                    Transform::from_xyz(0.0, 0.22, 0.1),
                )],
            ),
        ],
    ));
    if let Some(mut camera) = camera
        && let Projection::Orthographic(ortho) = &mut *camera.1
    {
        ortho.scale = 1.0 / PIXELS_PER_METRE;
    }
}

/// Draws segments as they come within sight and removes them once well behind.
fn place_segments(
    mut commands: Commands,
    run: Res<RunnerRun>,
    mut view: ResMut<RunnerView>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    visuals: Query<(Entity, &SegmentVisual)>,
) {
    let mut palette = Palette {
        meshes: &mut meshes,
        materials: &mut materials,
    };
    for segment in run.track.upcoming().take(SEGMENTS_AHEAD) {
        if segment.index < view.next_index {
            continue;
        }
        let place = SegmentPlace {
            index: segment.index,
            kind: segment.kind,
            origin: view.next_origin,
            quarter: view.next_quarter,
        };
        view.next_origin = place.point(SEGMENT_LENGTH_M as f32, 0.0);
        view.next_quarter += quarter_turns(segment.kind);
        view.next_index = segment.index + 1;
        view.places.push_back(place);
        spawn_segment(&mut commands, &mut palette, segment, &place);
    }
    let current = (run.body.distance_m / SEGMENT_LENGTH_M) as u64;
    let keep_from = current.saturating_sub(SEGMENTS_BEHIND);
    while view.places.front().is_some_and(|p| p.index < keep_from) {
        view.places.pop_front();
    }
    for (entity, SegmentVisual(index)) in &visuals {
        if *index < keep_from {
            commands.entity(entity).despawn();
        }
    }
}

fn spawn_segment(
    commands: &mut Commands,
    palette: &mut Palette,
    segment: &Segment,
    place: &SegmentPlace,
) {
    let angle = place.quarter as f32 * FRAC_PI_2;
    let floor = if segment.index.is_multiple_of(2) {
        FLOOR_LIGHT
    } else {
        FLOOR_DARK
    };
    let corner = CONTACT_OFFSET_M as f32;
    let length = SEGMENT_LENGTH_M as f32;
    let full = TRACK_WIDTH + 2.0 * KERB;
    let mut parts: Vec<(Color, Vec2, Vec2, f32, f32)> = Vec::new();
    // (colour, size, centre in the segment's frame, angle in that frame, z)
    // The jungle under and beside the path; around a junction a square covers every way out.
    if segment.kind.is_junction() {
        let side = 2.0 * JUNGLE_REACH + TRACK_WIDTH;
        parts.push((
            JUNGLE_FLOOR,
            Vec2::splat(side),
            Vec2::new(0.0, corner),
            0.0,
            -1.0,
        ));
    } else {
        let side = Vec2::new(2.0 * JUNGLE_REACH + TRACK_WIDTH, length);
        parts.push((JUNGLE_FLOOR, side, Vec2::new(0.0, length / 2.0), 0.0, -1.0));
    }
    if segment.kind.is_junction() {
        let turn = quarter_turns(segment.kind) as f32 * FRAC_PI_2;
        let after = local_point(segment.kind, corner + corner / 2.0, 0.0);
        let corner_point = Vec2::new(0.0, corner);
        let half = corner / 2.0;
        // The kerb under the floor: the same three pieces, wider and lower.
        for (colour, width, z) in [(KERB_COLOUR, full, 0.0), (floor, TRACK_WIDTH, 0.1)] {
            let half_piece = Vec2::new(width, corner);
            parts.push((colour, half_piece, Vec2::new(0.0, half), 0.0, z));
            parts.push((colour, Vec2::splat(width), corner_point, 0.0, z));
            parts.push((colour, half_piece, after, turn, z));
        }
    } else {
        let centre = Vec2::new(0.0, length / 2.0);
        for (colour, width, z) in [(KERB_COLOUR, full, 0.0), (floor, TRACK_WIDTH, 0.1)] {
            parts.push((colour, Vec2::new(width, length), centre, 0.0, z));
        }
        for divider in [-0.5, 0.5] {
            let x = divider * LANE_WIDTH;
            let dash = Vec2::new(0.12, length * 0.55);
            parts.push((LANE_LINE, dash, Vec2::new(x, length / 2.0), 0.0, 0.2));
        }
    }
    for (lane, content) in segment.lanes.iter().enumerate() {
        obstacle_parts(*content, lane_offset(lane as f32), corner, &mut parts);
    }
    let mut entity = commands.spawn((
        Name::new(format!("Segment {}", segment.index)),
        SegmentVisual(segment.index),
        Transform::from_translation(place.origin.extend(0.0))
            .with_rotation(Quat::from_rotation_z(angle)),
        Visibility::default(),
        DespawnOnExit(Screen::Runner),
    ));
    entity.with_children(|parent| {
        for (colour, size, centre, part_angle, z) in parts {
            parent.spawn(block(colour, size, centre, part_angle, z));
        }
        if segment.kind.is_junction() {
            // An arrow on the corner, pointing the way to turn.
            let turn = quarter_turns(segment.kind) as f32 * FRAC_PI_2;
            parent.spawn((
                palette.triangle(ARROW_COLOUR),
                Transform::from_translation(Vec2::new(0.0, corner).extend(0.3))
                    .with_rotation(Quat::from_rotation_z(turn)),
            ));
        }
        if !segment.kind.is_junction() {
            spawn_scenery(parent, palette, segment.index);
        }
        for (lane, content) in segment.lanes.iter().enumerate() {
            if *content != LaneContent::Coins {
                continue;
            }
            let x = lane_offset(lane as f32);
            for along in [corner - 2.2, corner, corner + 2.2] {
                parent
                    .spawn((
                        CoinVisual(segment.index, lane as u8),
                        palette.circle(0.42, COIN_RIM),
                        Transform::from_xyz(x, along, 0.5),
                    ))
                    .with_child((
                        CoinShine {
                            phase: along * 0.9 + lane as f32 * 2.1,
                        },
                        palette.circle(0.3, COIN_COLOUR),
                        Transform::from_xyz(0.0, 0.0, 0.01),
                    ));
            }
        }
    });
}

/// Tree tops on both sides of a straight segment, and a stone statue on the kerb every third
/// segment. Placed by a hash of the segment index, so the same track always looks the same.
fn spawn_scenery(parent: &mut ChildSpawnerCommands, palette: &mut Palette, index: u64) {
    let mut bits = crate::logic::seed::fnv1a_64(&index.to_le_bytes());
    let mut next = |range: f32| {
        bits = bits.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (bits >> 40) as f32 / (1u64 << 24) as f32 * range
    };
    for side in [-1.0, 1.0] {
        for _ in 0..2 {
            let across = side * (TRACK_WIDTH / 2.0 + KERB + 1.6 + next(JUNGLE_REACH - 8.0));
            let along = next(SEGMENT_LENGTH_M as f32);
            let radius = 1.4 + next(2.2);
            let colour = CANOPY[(next(3.0) as usize).min(CANOPY.len() - 1)];
            parent.spawn((
                palette.circle(radius, colour),
                Transform::from_xyz(across, along, -0.9 + next(0.1)),
            ));
        }
    }
    if index.is_multiple_of(3) {
        for side in [-1.0, 1.0] {
            let at = Vec2::new(side * (TRACK_WIDTH / 2.0 + KERB / 2.0), 1.0);
            parent.spawn(block(STATUE_COLOUR, Vec2::splat(1.1), at, 0.0, 0.3));
            parent.spawn(block(KERB_COLOUR, Vec2::splat(0.6), at, 0.0, 0.31));
        }
    }
}

/// The rectangles of one lane's obstacle at the contact point, in the segment's frame.
fn obstacle_parts(
    content: LaneContent,
    x: f32,
    along: f32,
    parts: &mut Vec<(Color, Vec2, Vec2, f32, f32)>,
) {
    let at = Vec2::new(x, along);
    match content {
        LaneContent::Low => {
            // A log across the lane with light cut ends.
            let log = Vec2::new(LANE_WIDTH * 0.92, 1.1);
            parts.push((SHADOW, log, at + Vec2::new(0.2, -0.3), 0.0, 0.55));
            parts.push((LOG_COLOUR, log, at, 0.0, 0.6));
            // Bark lines along the log and light cut ends.
            parts.push((
                LOG_END.with_alpha(0.35),
                Vec2::new(log.x, 0.12),
                at,
                0.0,
                0.605,
            ));
            for side in [-1.0, 1.0] {
                let end = at + Vec2::new(side * (log.x / 2.0 - 0.18), 0.0);
                parts.push((LOG_END, Vec2::new(0.36, log.y), end, 0.0, 0.61));
            }
        }
        LaneContent::High => {
            // A beam on two pillars; its shadow falls short of it, showing that it is high.
            let beam = Vec2::new(LANE_WIDTH, 0.8);
            parts.push((SHADOW, beam, at + Vec2::new(0.35, -1.4), 0.0, 0.55));
            for side in [-1.0, 1.0] {
                let pillar = at + Vec2::new(side * (LANE_WIDTH / 2.0 - 0.4), 0.0);
                parts.push((PILLAR_COLOUR, Vec2::splat(0.8), pillar, 0.0, 0.6));
            }
            parts.push((BEAM_COLOUR, beam, at, 0.0, 0.62));
            parts.push((PILLAR_COLOUR, Vec2::new(beam.x, 0.14), at, 0.0, 0.63));
        }
        LaneContent::Block => {
            // A wall of stone with a lighter top.
            let wall = Vec2::new(LANE_WIDTH * 0.96, 2.2);
            parts.push((WALL_COLOUR, wall, at, 0.0, 0.6));
            parts.push((WALL_TOP, wall - Vec2::splat(0.5), at, 0.0, 0.61));
        }
        LaneContent::Empty | LaneContent::Coins => {}
    }
}

fn take_coins(
    mut commands: Commands,
    mut events: MessageReader<RunnerEvent>,
    coins: Query<(Entity, &CoinVisual)>,
) {
    for RunnerEvent(event) in events.read() {
        if let RunEvent::Coins { index, lane } = *event {
            for (entity, coin) in &coins {
                if coin.0 == index && coin.1 == lane {
                    commands.entity(entity).despawn();
                }
            }
        }
    }
}

/// The world point `across` metres right of the centre line at the runner's distance, and the
/// heading there in quarter turns.
fn track_point(view: &RunnerView, run: &RunnerRun, across: f32) -> Option<(Vec2, i64)> {
    let distance = run.body.distance_m;
    let index = (distance / SEGMENT_LENGTH_M) as u64;
    let place = view.place_of(index)?;
    let along = (distance - index as f64 * SEGMENT_LENGTH_M) as f32;
    let quarter = place.quarter
        + if along > CONTACT_OFFSET_M as f32 {
            quarter_turns(place.kind)
        } else {
            0
        };
    Some((place.point(along, across), quarter))
}

/// How fast coins shimmer, in radians per second.
const SHINE_RATE: f32 = 7.0;

fn shine_coins(time: Res<Time>, mut coins: Query<(&mut Transform, &CoinShine)>) {
    let t = time.elapsed_secs();
    for (mut transform, shine) in &mut coins {
        transform.scale = Vec3::splat(1.0 + 0.18 * (t * SHINE_RATE + shine.phase).sin());
    }
}

/// Where the runner is in the world, from its distance and lane, and its heading.
fn runner_point(view: &RunnerView, run: &RunnerRun) -> Option<(Vec2, i64)> {
    track_point(view, run, lane_offset(run.body.lateral_lanes() as f32))
}

fn pose_runner(
    time: Res<Time>,
    run: Res<RunnerRun>,
    mut view: ResMut<RunnerView>,
    mut figure: Single<&mut Transform, With<RunnerFigure>>,
    mut parts: Query<(&mut Transform, &RunnerPart), Without<RunnerFigure>>,
) {
    let Some((target, quarter)) = runner_point(&view, &run) else {
        return;
    };
    let drawn = match view.drawn_at {
        Some(drawn) if drawn.distance(target) > SNAP_DISTANCE_M => {
            drawn.lerp(target, 1.0 - (-CATCH_UP_RATE * time.delta_secs()).exp())
        }
        _ => target,
    };
    view.drawn_at = Some(drawn);
    figure.translation = drawn.extend(figure.translation.z);
    figure.rotation = Quat::from_rotation_z(quarter as f32 * FRAC_PI_2);
    // A jump lifts the runner (bigger, shadow left behind); a slide squashes it.
    let (scale, shadow_offset) = match run.body.posture {
        Posture::Jumping { left_s } => {
            let t = (left_s / crate::logic::runner::timing::JUMP_S) as f32;
            let height = 4.0 * t * (1.0 - t);
            (
                Vec3::splat(1.0 + 0.45 * height),
                Vec2::new(0.25, -0.9) * height,
            )
        }
        Posture::Sliding { .. } => (Vec3::new(1.25, 0.55, 1.0), Vec2::ZERO),
        Posture::Running => (Vec3::ONE, Vec2::ZERO),
    };
    for (mut transform, part) in &mut parts {
        match part {
            RunnerPart::Body => transform.scale = scale,
            RunnerPart::Shadow => transform.translation = shadow_offset.extend(-0.2),
        }
    }
}

fn follow_runner(
    time: Res<Time>,
    run: Res<RunnerRun>,
    mut view: ResMut<RunnerView>,
    mut camera: Single<&mut Transform, With<Camera2d>>,
) {
    // The camera rides the centre line, so the track stays put while the runner changes lane.
    let Some((centre, quarter)) = track_point(&view, &run, 0.0) else {
        return;
    };
    let target = quarter as f32 * FRAC_PI_2;
    let mut angle = view.camera_angle;
    // Turn the short way round toward the runner's heading.
    let gap = (target - angle + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
        - std::f32::consts::PI;
    angle += gap * (1.0 - (-CAMERA_TURN_RATE * time.delta_secs()).exp());
    if gap.abs() < 1e-3 {
        angle = target;
    }
    view.camera_angle = angle;
    let ahead = Mat2::from_angle(angle) * Vec2::new(0.0, LOOK_AHEAD_M);
    camera.translation = (centre + ahead).extend(camera.translation.z);
    camera.rotation = Quat::from_rotation_z(angle);
}

/// The planner's route: a line through the recommended lane at each of the next contact points.
/// Shown with P, and always while the autopilot runs it.
fn draw_route(run: Res<RunnerRun>, view: Res<RunnerView>, mut gizmos: Gizmos) {
    let Some(plan) = run.plan() else {
        return;
    };
    let Some((start, _)) = runner_point(&view, &run) else {
        return;
    };
    let mut points = vec![start];
    for step in plan.steps.iter().take(PLAN_LOOKAHEAD) {
        let Some(place) = view.place_of(step.index) else {
            break;
        };
        let at = place.point(CONTACT_OFFSET_M as f32, lane_offset(f32::from(step.lane)));
        gizmos.circle_2d(at, 0.55, ROUTE_COLOUR);
        points.push(at);
    }
    gizmos.linestrip_2d(points, ROUTE_COLOUR);
}

fn draw_hud(mut contexts: EguiContexts, run: Res<RunnerRun>, settings: Res<Settings>) -> Result {
    let speed = run.track.timing().speed_at(run.body.distance_m);
    hud_bar(contexts.ctx_mut()?, "runner-hud", |ui| {
        ui.horizontal(|ui| {
            hud_figure(ui, "Distance", format!("{:.0} m", run.body.distance_m));
            hud_figure(ui, "Coins", run.body.coins.to_string());
            hud_figure(ui, "Score", run.body.score().to_string());
            hud_figure(ui, "Speed", format!("{speed:.1} m/s"));
            if run.autopilot_on {
                ui.label(RichText::new("AUTOPILOT").size(17.0).color(GOLD).strong());
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.label(
                    RichText::new(format!(
                        "seed \"{}\"  ·  {}",
                        settings.seed_text,
                        run.difficulty.label()
                    ))
                    .size(15.0)
                    .color(DIM),
                );
            });
        });
        ui.label(
            RichText::new(
                "Left/Right or A/D change lane (turn at a junction)   Up/W/Space \
                             jump   Down/S slide   P route   O autopilot   Esc pause",
            )
            .size(13.0)
            .color(DIM),
        );
    });
    Ok(())
}

fn draw_game_over(
    mut contexts: EguiContexts,
    result: Res<RunnerResult>,
    mut cursor: ResMut<MenuCursor>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let place = MenuPlace {
        menu: Menu::GameOver,
        screen: Screen::Runner,
    };
    let mut inputs = Vec::new();
    modal_panel(ctx, "runner-game-over", |ui| {
        ui.heading(RichText::new("The temple claims another runner").color(GOLD));
        ui.label(RichText::new(result.crash.describe()).color(SAND));
        ui.add_space(6.0);
        let best = result
            .best
            .as_ref()
            .map_or_else(|| "none yet".to_owned(), |b| format!("{:.0}", b.value));
        let best_name = format!("Best ({})", result.difficulty.label());
        results_table(
            ui,
            "runner-result",
            &[
                ("Distance", format!("{:.0} m", result.distance_m)),
                ("Coins", result.coins.to_string()),
                ("Score", result.score.to_string()),
                (&best_name, best),
                ("Seed", result.seed.to_string()),
            ],
        );
        ui.add_space(4.0);
        if result.assisted {
            ui.label(RichText::new("The autopilot ran: this score is not recorded.").color(AMBER));
        } else if result.new_record {
            ui.label(RichText::new("New best score!").color(GOLD).strong());
        }
        ui.add_space(8.0);
        let label = |item| match item {
            MenuItem::Restart => "Retry (same seed)",
            MenuItem::PlayAgainNewSeed => "New run (new seed)",
            other => item_label(other),
        };
        dialog_buttons(ui, place, label, &mut cursor, &mut inputs);
    });
    writer.write_batch(inputs);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junction_points_follow_the_turn() {
        let c = CONTACT_OFFSET_M as f32;
        let left = local_point(SegmentKind::TurnLeft, c + 2.0, 0.0);
        assert!(left.abs_diff_eq(Vec2::new(-2.0, c), 1e-5), "{left}");
        let right = local_point(SegmentKind::TurnRight, c + 2.0, 1.0);
        // Heading right, "right of the centre line" is down.
        assert!(right.abs_diff_eq(Vec2::new(2.0, c - 1.0), 1e-5), "{right}");
        let straight = local_point(SegmentKind::Straight, 7.0, -3.0);
        assert_eq!(straight, Vec2::new(-3.0, 7.0));
    }

    #[test]
    fn headings_turn_counter_clockwise_for_left() {
        assert!((rotation(1) * Vec2::Y).abs_diff_eq(Vec2::NEG_X, 1e-6));
        assert!((rotation(-1) * Vec2::Y).abs_diff_eq(Vec2::X, 1e-6));
        assert!((rotation(4) * Vec2::Y).abs_diff_eq(Vec2::Y, 1e-6));
    }

    #[test]
    fn segments_chain_end_to_start() {
        let place = SegmentPlace {
            index: 3,
            kind: SegmentKind::TurnLeft,
            origin: Vec2::new(0.0, 30.0),
            quarter: 0,
        };
        let end = place.point(SEGMENT_LENGTH_M as f32, 0.0);
        assert!(end.abs_diff_eq(Vec2::new(-5.0, 35.0), 1e-5), "{end}");
    }
}
