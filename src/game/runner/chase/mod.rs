//! The chase view, the runner's default: the track seen from behind and above the runner in
//! perspective, receding to a horizon under a dusk sky, its obstacles, coins, power-ups and
//! scenery standing up and growing as they come closer, the view swinging round at a junction.
//! Everything is projected on the CPU every frame ([`super::projection`]) into one mesh drawn
//! back to front (sky, then the flat ground layer by layer, then upright things from the
//! farthest to the nearest), on a render layer of its own that the camera shows instead of the
//! top-down world. This file holds the scene, the sky, the ground, the route and the effects;
//! the things standing on the track are in [`things`], and the runner's, the ghost's and the
//! guardians' bodies (a run cycle whose rate follows the speed, a jump over the shadow, a slide
//! crouch, a lean into lane changes, a stumble and a fall) in [`figures`].

mod figures;
mod things;

use super::camera::turn_toward;
use super::ghost::RunnerGhost;
use super::layout::{CORNER, LANE_WIDTH, TrackLayout, lane_offset, rotation};
use super::options::{RunnerOptions, RunnerView};
use super::projection::{
    CAMERA_BACK_M, ChaseCamera, FAR_M, HORIZON_PX, Viewed, project_ground, readable_distance_m,
};
use super::pursuers::{ACROSS_LANES, SWAY_RATE, gap_behind_m};
use super::route::{ROUTE_COLOUR, route_points};
use super::rules::{RunnerEvent, RunnerRun, start_run};
use super::track::{
    JUNGLE_FLOOR, STATUE_COLOUR, Scenery, ground_parts, powerup_colour, scenery_of,
};
use crate::game::screens::{AppSystems, Screen};
use crate::logic::runner::body::{Posture, RunEvent};
use crate::logic::runner::powerups::PowerUp;
use crate::logic::runner::timing::SEGMENT_LENGTH_M;
use crate::logic::runner::track::{LaneContent, Segment};
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::{NoFrustumCulling, RenderLayers};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use figures::{GHOST_LOOK, Pose, RUNNER_LOOK, draw_aura, draw_guardian, draw_runner};
use std::collections::{HashSet, VecDeque};
use std::f32::consts::{FRAC_PI_2, TAU};
use things::{box_parts, coin, obstacle, orb, tree};

/// The render layer of the chase view's mesh.
const CHASE_LAYER: usize = 1;
/// Segments drawn ahead of the runner: as many as fit within [`FAR_M`].
const SEGMENTS_AHEAD: u64 = (FAR_M as f64 / SEGMENT_LENGTH_M) as u64;
/// Segments kept behind the runner: the camera rides behind it.
const SEGMENTS_BEHIND: u64 = 2;
/// Sky at the top of the window and at the horizon.
const SKY_TOP: Color = Color::srgb(0.10, 0.12, 0.22);
const SKY_HAZE: Color = Color::srgb(0.78, 0.52, 0.36);
/// The far jungle's silhouette along the horizon.
const FAR_JUNGLE: Color = Color::srgb(0.06, 0.11, 0.07);
/// In its last seconds a power-up's glow blinks, so the player sees it is about to go.
const AURA_BLINK_S: f64 = 2.0;
/// After a crash the view's clock runs this much slower...
const SLOW_MOTION_RATE: f32 = 0.3;
/// ...for this many real seconds.
const SLOW_MOTION_S: f32 = 0.9;
/// How far the view shakes at a crash, in pixels, dying away over...
const SHAKE_PX: f32 = 18.0;
/// ...this many real seconds.
const SHAKE_S: f32 = 0.5;
/// How long a coin's sparkle and a puff of dust last, in seconds of the view's clock.
const SPARKLE_S: f32 = 0.55;
const DUST_S: f32 = 0.45;
const SPARKLE: Color = Color::srgb(1.0, 0.93, 0.55);
const DUST: Color = Color::srgb(0.62, 0.52, 0.38);
/// Speed lines start showing at this speed and are at their strongest at the top speed.
const SPEED_LINES_FROM_MPS: f64 = 12.0;
/// Streaks along the window's sides, pointing at the horizon.
const SPEED_LINES: usize = 22;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::draws(app) {
        return;
    }
    app.add_systems(OnEnter(Screen::Runner), start_chase_view.after(start_run))
        .add_systems(OnExit(Screen::Runner), end_chase_view)
        .add_systems(
            Update,
            (remember_taken.run_if(on_message::<RunnerEvent>), draw_chase)
                .chain()
                .in_set(AppSystems::Present)
                .run_if(
                    in_state(Screen::Runner)
                        .and_then(resource_exists::<RunnerRun>)
                        .and_then(resource_exists::<TrackLayout>)
                        .and_then(resource_exists::<ChaseScene>),
                ),
        );
}

/// The chase view's state: its mesh, the camera's heading as drawn, the segments still in
/// sight behind the runner, the pickups taken, and when the run ended.
#[derive(Resource)]
pub(super) struct ChaseScene {
    mesh: Handle<Mesh>,
    heading: f32,
    segments: VecDeque<Segment>,
    taken: HashSet<(u64, u8)>,
    /// The view's own clock, in seconds: it slows down for a moment at a crash.
    clock: f32,
    /// When the run ended: on the view's clock, and in real seconds.
    ended_at: Option<(f32, f32)>,
    /// Sparkles and dust still in the air.
    effects: Vec<Effect>,
    /// The runner was changing lane, or in the air, in the last frame.
    was_changing: bool,
    was_airborne: bool,
}

/// A short-lived effect where something happened on the track.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Effect {
    kind: EffectKind,
    /// Where, on the ground, in world metres.
    at: Vec2,
    /// When it started, on the view's clock.
    born: f32,
}

/// What an effect looks like.
#[derive(Debug, Clone, Copy, PartialEq)]
enum EffectKind {
    /// Sparks flying up from a coin or a power-up taken, in this colour.
    Sparkle(Color),
    /// A puff of dust at the runner's feet: a lane change or a landing.
    Dust,
}

/// Shapes to draw, as convex polygons in window pixels with one colour each, in drawing order.
#[derive(Default)]
struct Canvas {
    positions: Vec<[f32; 3]>,
    colours: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

impl Canvas {
    /// A convex polygon in one colour.
    fn polygon(&mut self, corners: &[Vec2], colour: Color) {
        self.shaded(corners, &vec![colour; corners.len()]);
    }

    /// A convex polygon with a colour per corner, blended across it.
    fn shaded(&mut self, corners: &[Vec2], colours: &[Color]) {
        if corners.len() < 3 {
            return;
        }
        let first = self.positions.len() as u32;
        for (corner, colour) in corners.iter().zip(colours) {
            self.positions.push([corner.x, corner.y, 0.0]);
            self.colours.push(LinearRgba::from(*colour).to_f32_array());
        }
        for i in 1..corners.len() as u32 - 1 {
            self.indices.extend([first, first + i, first + i + 1]);
        }
    }

    /// Moves everything drawn so far by `offset` pixels.
    fn shift(&mut self, offset: Vec2) {
        for position in &mut self.positions {
            position[0] += offset.x;
            position[1] += offset.y;
        }
    }

    /// A disc of `radius` pixels.
    fn disc(&mut self, centre: Vec2, radius: Vec2, colour: Color) {
        let corners: Vec<Vec2> = (0..14)
            .map(|i| {
                let angle = i as f32 / 14.0 * TAU;
                centre + Vec2::new(angle.cos(), angle.sin()) * radius
            })
            .collect();
        self.polygon(&corners, colour);
    }

    fn into_mesh(self) -> Mesh {
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, self.colours)
        .with_inserted_indices(Indices::U32(self.indices))
    }
}

/// Something upright, to be drawn in order of distance.
struct Upright {
    ahead: f32,
    draw: Box<dyn FnOnce(&mut Canvas) + Send>,
}

/// What the chase view sets on the camera: its render layer, its place and its zoom.
type CameraParts = (Entity, &'static mut Transform, &'static mut Projection);

fn start_chase_view(
    mut commands: Commands,
    options: Res<RunnerOptions>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    camera: Option<Single<CameraParts, With<Camera2d>>>,
) {
    if options.view != RunnerView::Chase {
        return;
    }
    let mesh = meshes.add(Canvas::default().into_mesh());
    commands.spawn((
        Name::new("Chase view"),
        Mesh2d(mesh.clone()),
        MeshMaterial2d(materials.add(Color::WHITE)),
        Transform::default(),
        RenderLayers::layer(CHASE_LAYER),
        // The mesh is rebuilt every frame; its bounds are the window's, never to be culled.
        NoFrustumCulling,
        DespawnOnExit(Screen::Runner),
    ));
    if let Some(camera) = camera {
        let (entity, mut transform, mut projection) = camera.into_inner();
        *transform = Transform::from_xyz(0.0, 0.0, transform.translation.z);
        if let Projection::Orthographic(ortho) = &mut *projection {
            ortho.scale = 1.0;
        }
        commands
            .entity(entity)
            .insert(RenderLayers::layer(CHASE_LAYER));
    }
    commands.insert_resource(ChaseScene {
        mesh,
        heading: 0.0,
        segments: VecDeque::new(),
        taken: HashSet::new(),
        clock: 0.0,
        ended_at: None,
        effects: Vec::new(),
        was_changing: false,
        was_airborne: false,
    });
}

fn end_chase_view(mut commands: Commands, camera: Option<Single<Entity, With<Camera2d>>>) {
    commands.remove_resource::<ChaseScene>();
    if let Some(camera) = camera {
        commands.entity(*camera).insert(RenderLayers::default());
    }
}

/// Coins and power-ups vanish as they are taken, in a sparkle.
fn remember_taken(
    mut events: MessageReader<RunnerEvent>,
    layout: Res<TrackLayout>,
    mut scene: ResMut<ChaseScene>,
) {
    for RunnerEvent(event) in events.read() {
        let (index, lane, colour, alongs): (u64, u8, Color, &[f32]) = match *event {
            RunEvent::Coins { index, lane } => {
                (index, lane, SPARKLE, &[CORNER - 2.2, CORNER, CORNER + 2.2])
            }
            RunEvent::PowerUp { index, lane, kind } => {
                (index, lane, powerup_colour(kind), &[CORNER])
            }
            _ => continue,
        };
        scene.taken.insert((index, lane));
        let Some(place) = layout.place_of(index).copied() else {
            continue;
        };
        let born = scene.clock;
        for &along in alongs {
            scene.effects.push(Effect {
                kind: EffectKind::Sparkle(colour),
                at: place.point(along, lane_offset(f32::from(lane))),
                born,
            });
        }
    }
}

fn draw_chase(
    time: Res<Time>,
    real_time: Res<Time<Real>>,
    run: Res<RunnerRun>,
    layout: Res<TrackLayout>,
    ghost: Option<Res<RunnerGhost>>,
    mut scene: ResMut<ChaseScene>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let body = &run.sim.body;
    let Some((centre, quarter)) = layout.track_point(body.distance_m, 0.0) else {
        return;
    };
    let scene = &mut *scene;
    scene.heading = turn_toward(scene.heading, quarter as f32 * FRAC_PI_2, time.delta_secs());
    let camera = ChaseCamera::behind(centre, scene.heading, CAMERA_BACK_M);
    // Keep the segments in sight: those ahead come from the track, those passed are kept.
    let current = (body.distance_m / SEGMENT_LENGTH_M) as u64;
    let keep_from = current.saturating_sub(SEGMENTS_BEHIND);
    for segment in run.sim.track.upcoming() {
        if segment.index > current + SEGMENTS_AHEAD {
            break;
        }
        if scene
            .segments
            .back()
            .is_none_or(|last| last.index < segment.index)
        {
            scene.segments.push_back(*segment);
        }
    }
    while scene.segments.front().is_some_and(|s| s.index < keep_from) {
        scene.segments.pop_front();
    }
    // The view's clock follows the game's, which stops under a menu; after a crash the results
    // menu is open, so it follows real time, slowed for a moment.
    let real = real_time.elapsed_secs();
    let (delta, rate) = match scene.ended_at {
        Some((_, crashed)) if real - crashed < SLOW_MOTION_S => {
            (real_time.delta_secs(), SLOW_MOTION_RATE)
        }
        Some(_) => (real_time.delta_secs(), 1.0),
        None => (time.delta_secs(), 1.0),
    };
    scene.clock += delta * rate;
    if body.crash.is_some() && scene.ended_at.is_none() {
        scene.ended_at = Some((scene.clock, real));
    }
    // Dust where a lane change starts and where a jump lands.
    let changing = body.change.is_some();
    let airborne = matches!(body.posture, Posture::Jumping { .. });
    let started_moving = changing && !scene.was_changing;
    let landed = scene.was_airborne && !airborne;
    (scene.was_changing, scene.was_airborne) = (changing, airborne);
    if (started_moving || landed)
        && let Some((feet, _)) =
            layout.track_point(body.distance_m, lane_offset(body.lateral_lanes() as f32))
    {
        scene.effects.push(Effect {
            kind: EffectKind::Dust,
            at: feet,
            born: scene.clock,
        });
    }
    let clock = scene.clock;
    scene
        .effects
        .retain(|effect| clock - effect.born < SPARKLE_S.max(DUST_S));

    let mut canvas = Canvas::default();
    draw_sky(&mut canvas, &camera);
    draw_ground(
        &mut canvas,
        &camera,
        &layout,
        keep_from,
        current + SEGMENTS_AHEAD,
    );
    if run.overlay_shown || run.sim.autopilot_on {
        draw_route(&mut canvas, &camera, &run, &layout);
    }
    let mut uprights = Vec::new();
    for segment in &scene.segments {
        let Some(place) = layout.place_of(segment.index) else {
            continue;
        };
        let frame = |along: f32, across: f32| {
            place.origin + rotation(place.quarter) * Vec2::new(across, along)
        };
        for (lane, content) in segment.lanes.iter().enumerate() {
            let x = lane_offset(lane as f32);
            let taken = scene.taken.contains(&(segment.index, lane as u8));
            match *content {
                LaneContent::Coins if !taken => {
                    for along in [CORNER - 2.2, CORNER, CORNER + 2.2] {
                        let at = camera.view(place.point(along, x));
                        uprights.push(coin(at));
                    }
                }
                LaneContent::PowerUp(kind) if !taken => {
                    uprights.push(orb(camera.view(frame(CORNER, x)), powerup_colour(kind)));
                }
                LaneContent::Low | LaneContent::High | LaneContent::Block => {
                    obstacle(&mut uprights, &camera, &frame, *content, x);
                }
                _ => {}
            }
        }
        if !segment.kind.is_junction() {
            for (thing, at) in scenery_of(run.sim.seed, segment.index) {
                let base = camera.view(frame(at.y, at.x));
                match thing {
                    Scenery::Tree {
                        radius,
                        colour,
                        trunk,
                        ..
                    } => uprights.push(tree(base, radius, trunk, colour)),
                    Scenery::Statue => {
                        let frame = &frame;
                        box_parts(
                            &mut uprights,
                            &camera,
                            |a, s| frame(at.y + a, at.x + s),
                            [0.55, 0.55],
                            [0.0, 1.9],
                            STATUE_COLOUR,
                            STATUE_COLOUR.darker(0.12),
                        );
                    }
                }
            }
        }
    }
    // The runner, where its lane change has got to.
    let across = lane_offset(body.lateral_lanes() as f32);
    if let Some((feet, _)) = layout.track_point(body.distance_m, across) {
        let pose = Pose::of(body, clock, scene.ended_at.map(|(at, _)| at));
        let at = camera.view(feet);
        // A glow of each power-up held, blinking in its last seconds.
        let blink_off = (clock * 6.0).fract() < 0.5;
        let auras: Vec<Color> = PowerUp::ALL
            .into_iter()
            .filter(|&kind| {
                let left = body.powerups.left_s(kind);
                left > 0.0 && !(left < AURA_BLINK_S && blink_off)
            })
            .map(powerup_colour)
            .collect();
        uprights.push(Upright {
            // Drawn over whatever stands within a metre ahead of its feet, such as the wall it
            // ran into: it meets obstacles at their faces.
            ahead: at.ahead - 1.0,
            draw: Box::new(move |canvas| {
                for (i, colour) in auras.iter().enumerate() {
                    draw_aura(canvas, at, *colour, i);
                }
                draw_runner(canvas, at, pose, &RUNNER_LOOK);
            }),
        });
    }
    // The ghost of the best run, pale, where its own run has got to.
    if let Some(ghost) = ghost {
        let ghost_body = &ghost.sim.body;
        let across = lane_offset(ghost_body.lateral_lanes() as f32);
        if let Some((feet, _)) = layout.track_point(ghost_body.distance_m, across) {
            let pose = Pose::of(ghost_body, clock, None);
            let at = camera.view(feet);
            uprights.push(Upright {
                ahead: at.ahead,
                draw: Box::new(move |canvas| draw_runner(canvas, at, pose, &GHOST_LOOK)),
            });
        }
    }
    // The temple guardians, close behind after a stumble.
    if let Some(gap) = gap_behind_m(&run) {
        let distance = (body.distance_m - gap).max(0.0);
        let sway = (time.elapsed_secs() * SWAY_RATE).sin() * 0.12;
        for lanes in ACROSS_LANES {
            let across = lane_offset(body.lateral_lanes() as f32 + lanes);
            if let Some((feet, _)) = layout.track_point(distance, across) {
                let at = camera.view(feet);
                let sway = sway * lanes.signum();
                uprights.push(Upright {
                    ahead: at.ahead,
                    draw: Box::new(move |canvas| draw_guardian(canvas, at, sway)),
                });
            }
        }
    }
    for (i, &effect) in scene.effects.iter().enumerate() {
        let at = camera.view(effect.at);
        let age = clock - effect.born;
        uprights.push(Upright {
            ahead: at.ahead,
            draw: Box::new(move |canvas| draw_effect(canvas, at, effect.kind, age, i)),
        });
    }
    // Back to front, and each thing from the distance at which it is readable.
    uprights.sort_by(|a, b| painted_before((0.0, a.ahead), (0.0, b.ahead)));
    let readable = readable_distance_m(LANE_WIDTH);
    for upright in uprights {
        if upright.ahead > 0.0 && upright.ahead < readable {
            (upright.draw)(&mut canvas);
        }
    }
    let speed = run.sim.track.timing().speed_at(body.distance_m);
    let top = run.sim.track.timing().max_speed_mps;
    let strength = ((speed - SPEED_LINES_FROM_MPS) / (top - SPEED_LINES_FROM_MPS)).clamp(0.0, 1.0);
    draw_speed_lines(&mut canvas, strength as f32, clock);
    // The view shakes at a crash, dying away.
    if let Some((_, crashed)) = scene.ended_at {
        let fade = (1.0 - (real - crashed) / SHAKE_S).max(0.0);
        let shake = Vec2::new((real * 67.0).sin(), (real * 53.0).cos()) * SHAKE_PX * fade;
        canvas.shift(shake);
    }
    if let Some(mut mesh) = meshes.get_mut(&scene.mesh) {
        *mesh = canvas.into_mesh();
    }
}

/// Sparks flying up and fading, or dust spreading low and fading.
fn draw_effect(canvas: &mut Canvas, at: Viewed, kind: EffectKind, age: f32, salt: usize) {
    match kind {
        EffectKind::Sparkle(colour) => {
            let t = age / SPARKLE_S;
            for spark in 0..7 {
                let angle = (spark as f32 * 0.9 + salt as f32 * 2.4) % TAU;
                let spread = Viewed {
                    side: at.side + angle.cos() * 0.9 * t,
                    ahead: at.ahead + angle.sin() * 0.3 * t,
                };
                let height = 1.0 + (0.6 + 0.5 * (spark as f32 * 1.3).sin().abs()) * 2.2 * t;
                if let Some((centre, scale)) = spread.project(height) {
                    let size = 0.16 * (1.0 - t) * scale;
                    let faded = colour.with_alpha(1.0 - t);
                    // A four-pointed star.
                    canvas.polygon(
                        &[
                            centre + Vec2::new(0.0, size * 1.8),
                            centre + Vec2::new(-size * 0.45, 0.0),
                            centre + Vec2::new(0.0, -size * 1.8),
                            centre + Vec2::new(size * 0.45, 0.0),
                        ],
                        faded,
                    );
                    canvas.polygon(
                        &[
                            centre + Vec2::new(-size * 1.8, 0.0),
                            centre + Vec2::new(0.0, -size * 0.45),
                            centre + Vec2::new(size * 1.8, 0.0),
                            centre + Vec2::new(0.0, size * 0.45),
                        ],
                        faded,
                    );
                }
            }
        }
        EffectKind::Dust => {
            let t = age / DUST_S;
            for puff in 0..5 {
                let side = (puff as f32 - 2.0) * 0.25 * (0.5 + t);
                let spot = Viewed {
                    side: at.side + side,
                    ahead: at.ahead - 0.2 * t,
                };
                if let Some((centre, scale)) = spot.project(0.15 + 0.3 * t) {
                    let radius = (0.2 + 0.35 * t) * scale;
                    canvas.disc(
                        centre,
                        Vec2::new(radius, radius * 0.7),
                        DUST.with_alpha(0.55 * (1.0 - t)),
                    );
                }
            }
        }
    }
}

/// Streaks along the sides of the window, rushing outward from the horizon's middle, as bright
/// as `strength` (0 to 1) says.
fn draw_speed_lines(canvas: &mut Canvas, strength: f32, clock: f32) {
    if strength <= 0.0 {
        return;
    }
    let centre = Vec2::new(0.0, HORIZON_PX);
    for line in 0..SPEED_LINES {
        // Fixed directions, fanned over the lower and side parts of the window.
        let angle = -FRAC_PI_2
            + (line as f32 / SPEED_LINES as f32 - 0.5) * 2.9
            + (line as f32 * 7.3).sin() * 0.05;
        let direction = Vec2::new(angle.cos(), angle.sin());
        let travel = (clock * 2.4 + line as f32 * 0.618).fract();
        let (from, to) = (420.0 + travel * 600.0, 520.0 + travel * 720.0);
        let across = Vec2::new(-direction.y, direction.x) * 1.6;
        let alpha = 0.28 * strength * (1.0 - travel);
        canvas.polygon(
            &[
                centre + direction * from - across,
                centre + direction * to - across,
                centre + direction * to + across,
                centre + direction * from + across,
            ],
            Color::srgba(1.0, 0.96, 0.88, alpha),
        );
    }
}

/// The sky from the top of the window down to the horizon, hazy where it meets the land, and the
/// far jungle's silhouette, which slides as the view turns.
fn draw_sky(canvas: &mut Canvas, camera: &ChaseCamera) {
    let (half_width, top) = (1400.0, 800.0);
    canvas.shaded(
        &[
            Vec2::new(-half_width, HORIZON_PX),
            Vec2::new(half_width, HORIZON_PX),
            Vec2::new(half_width, top),
            Vec2::new(-half_width, top),
        ],
        &[SKY_HAZE, SKY_HAZE, SKY_TOP, SKY_TOP],
    );
    // The land below the horizon, under everything drawn on it.
    canvas.polygon(
        &[
            Vec2::new(-half_width, -800.0),
            Vec2::new(half_width, -800.0),
            Vec2::new(half_width, HORIZON_PX),
            Vec2::new(-half_width, HORIZON_PX),
        ],
        JUNGLE_FLOOR,
    );
    // Tree tops along the horizon: bumps of a fixed pattern around the compass.
    let bumps = 48;
    let pixels_per_radian = 900.0;
    for i in 0..bumps {
        let angle = i as f32 / bumps as f32 * TAU;
        let mut x = (angle - camera.heading).rem_euclid(TAU);
        if x > std::f32::consts::PI {
            x -= TAU;
        }
        let x = -x * pixels_per_radian;
        if x.abs() > half_width + 100.0 {
            continue;
        }
        let height = 14.0 + 22.0 * ((i as f32 * 2.3).sin() * 0.5 + 0.5);
        let width = 70.0 + 30.0 * ((i as f32 * 1.7).cos() * 0.5 + 0.5);
        canvas.disc(
            Vec2::new(x, HORIZON_PX),
            Vec2::new(width, height),
            FAR_JUNGLE,
        );
    }
}

/// The flat ground of the segments laid from `from` to `to`: kerbs, then the path, then lane
/// lines, each layer from the farthest piece to the nearest.
fn draw_ground(
    canvas: &mut Canvas,
    camera: &ChaseCamera,
    layout: &TrackLayout,
    from: u64,
    to: u64,
) {
    let mut pieces: Vec<(f32, f32, Vec<Vec2>, Color)> = Vec::new();
    for index in from..=to {
        let Some(place) = layout.place_of(index) else {
            continue;
        };
        for (colour, size, centre, angle, layer) in ground_parts(index, place.kind) {
            // The jungle floor: the land under the sky covers it already, and drawing it again
            // piece by piece would cost a whole window of pixels for nothing.
            if colour == JUNGLE_FLOOR {
                continue;
            }
            let turn = Mat2::from_angle(angle);
            let corners: Vec<Viewed> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .into_iter()
                .map(|(sx, sy)| {
                    let local = centre + turn * (Vec2::new(sx, sy) * size / 2.0);
                    camera.view(place.origin + rotation(place.quarter) * local)
                })
                .collect();
            let nearest = corners
                .iter()
                .map(|c| c.ahead)
                .fold(f32::INFINITY, f32::min);
            if nearest > FAR_M {
                continue;
            }
            let projected = project_ground(&corners);
            if projected.len() >= 3 {
                let middle = camera
                    .view(place.origin + rotation(place.quarter) * centre)
                    .ahead;
                pieces.push((layer, middle, projected, colour));
            }
        }
    }
    pieces.sort_by(|a, b| painted_before((a.0, a.1), (b.0, b.1)));
    for (_, _, corners, colour) in pieces {
        canvas.polygon(&corners, colour);
    }
}

/// The planner's route painted on the ground: a band from the runner through the recommended
/// lane at each coming contact point, with a ring at each.
fn draw_route(canvas: &mut Canvas, camera: &ChaseCamera, run: &RunnerRun, layout: &TrackLayout) {
    let Some(points) = route_points(run, layout, SEGMENTS_AHEAD as usize) else {
        return;
    };
    let on_ground = |corners: &[Vec2]| -> Vec<Viewed> {
        corners.iter().map(|&corner| camera.view(corner)).collect()
    };
    for pair in points.windows(2) {
        let along = (pair[1] - pair[0]).normalize_or_zero();
        let side = Vec2::new(-along.y, along.x) * 0.12;
        // Counter-clockwise, as every shape of the canvas.
        let band = [
            pair[0] - side,
            pair[1] - side,
            pair[1] + side,
            pair[0] + side,
        ];
        canvas.polygon(&project_ground(&on_ground(&band)), ROUTE_COLOUR);
    }
    for &point in &points[1..] {
        let ring: Vec<Vec2> = (0..12)
            .map(|i| point + Vec2::from_angle(i as f32 / 12.0 * TAU) * 0.55)
            .collect();
        canvas.polygon(
            &project_ground(&on_ground(&ring)),
            ROUTE_COLOUR.with_alpha(0.5),
        );
    }
}

/// The painting order of two things given as (layer, metres ahead of the camera): lower layers
/// first, and within a layer the farther first, so that what is nearer covers what it hides.
fn painted_before(a: (f32, f32), b: (f32, f32)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearer_things_are_painted_over_farther_ones_and_layers_in_order() {
        let mut things = vec![
            (0.0, 5.0),
            (0.0, 80.0),
            (1.0, 200.0),
            (-1.0, 1.0),
            (0.0, 20.0),
        ];
        things.sort_by(|a, b| painted_before(*a, *b));
        assert_eq!(
            things,
            vec![
                (-1.0, 1.0),
                (0.0, 80.0),
                (0.0, 20.0),
                (0.0, 5.0),
                (1.0, 200.0)
            ]
        );
    }

    #[test]
    fn a_canvas_fans_each_polygon_into_triangles() {
        let mut canvas = Canvas::default();
        canvas.polygon(&[Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], Color::WHITE);
        canvas.polygon(&[Vec2::ZERO, Vec2::X], Color::WHITE);
        canvas.disc(Vec2::ZERO, Vec2::ONE, Color::BLACK);
        assert_eq!(canvas.positions.len(), 4 + 14);
        assert_eq!(canvas.indices.len(), 3 * (2 + 12));
        assert_eq!(&canvas.indices[..6], &[0, 1, 2, 0, 2, 3]);
    }
}
