//! The runner's track as it comes within sight: each segment's path, kerb and jungle floor,
//! its obstacles (a log to jump, a beam to slide under, a wall to avoid), its coin lines and
//! power-ups that shine and vanish when taken, and scenery placed from the segment's index. Segments well behind
//! the runner are despawned.

use super::layout::{
    CORNER, LANE_WIDTH, SEGMENT, SegmentPlace, TRACK_WIDTH, TrackLayout, lane_offset, local_point,
    quarter_turns,
};
use super::palette::Palette;
use super::rules::{RunnerEvent, RunnerRun, start_run};
use crate::game::screens::{AppSystems, Screen};
use crate::logic::runner::body::RunEvent;
use crate::logic::runner::planner::PLAN_LOOKAHEAD;
use crate::logic::runner::powerups::PowerUp;
use crate::logic::runner::timing::SEGMENT_LENGTH_M;
use crate::logic::runner::track::{LaneContent, Segment, SegmentKind};
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

/// The stone kerb on each side of the track.
const KERB: f32 = 0.8;
/// Segments drawn ahead of the runner: as far as the planner's route reaches.
const SEGMENTS_AHEAD: usize = PLAN_LOOKAHEAD;
/// Segments kept drawn behind the runner.
const SEGMENTS_BEHIND: u64 = 2;
/// How far the jungle floor reaches beside the track, in metres.
const JUNGLE_REACH: f32 = 40.0;
/// How fast coins shimmer, in radians per second.
const SHINE_RATE: f32 = 7.0;

const FLOOR_LIGHT: Color = Color::srgb(0.60, 0.49, 0.34);
const FLOOR_DARK: Color = Color::srgb(0.55, 0.44, 0.30);
const KERB_COLOUR: Color = Color::srgb(0.30, 0.23, 0.16);
const LANE_LINE: Color = Color::srgba(0.25, 0.18, 0.12, 0.45);
pub(super) const LOG_COLOUR: Color = Color::srgb(0.46, 0.26, 0.10);
pub(super) const LOG_END: Color = Color::srgb(0.72, 0.52, 0.30);
pub(super) const BEAM_COLOUR: Color = Color::srgb(0.47, 0.55, 0.66);
pub(super) const PILLAR_COLOUR: Color = Color::srgb(0.28, 0.32, 0.42);
/// Shadows of obstacles (and of the runner).
pub(super) const SHADOW: Color = Color::srgba(0.0, 0.0, 0.0, 0.35);
pub(super) const WALL_COLOUR: Color = Color::srgb(0.20, 0.18, 0.19);
pub(super) const WALL_TOP: Color = Color::srgb(0.42, 0.38, 0.36);
pub(super) const COIN_COLOUR: Color = Color::srgb(1.0, 0.82, 0.22);
pub(super) const COIN_RIM: Color = Color::srgb(0.78, 0.55, 0.08);
/// A power-up's glow, its colour and its core, per kind in the order of [`PowerUp::ALL`]: a lime
/// magnet, a sky-blue shield and a violet multiplier, none of them a colour the track or the
/// runner uses.
const POWERUP_COLOURS: [Color; 3] = [
    Color::srgb(0.55, 0.95, 0.30),
    Color::srgb(0.30, 0.75, 1.0),
    Color::srgb(0.70, 0.35, 0.95),
];
pub(super) const POWERUP_CORE: Color = Color::srgb(1.0, 0.97, 0.90);
const ARROW_COLOUR: Color = Color::srgba(0.95, 0.75, 0.25, 0.85);
pub(super) const JUNGLE_FLOOR: Color = Color::srgb(0.07, 0.13, 0.07);
const CANOPY: [Color; 3] = [
    Color::srgb(0.10, 0.25, 0.10),
    Color::srgb(0.13, 0.31, 0.12),
    Color::srgb(0.08, 0.20, 0.09),
];
pub(super) const STATUE_COLOUR: Color = Color::srgb(0.45, 0.41, 0.35);

pub(super) fn plugin(app: &mut App) {
    if !crate::game::draws(app) {
        return;
    }
    app.init_resource::<super::palette::PaletteCache>()
        .add_systems(OnEnter(Screen::Runner), lay_out_track.after(start_run))
        .add_systems(
            OnExit(Screen::Runner),
            crate::game::camera::end_mode_view::<TrackLayout>,
        )
        .add_systems(
            Update,
            (
                place_segments,
                take_pickups.run_if(on_message::<RunnerEvent>),
                shine_pickups,
            )
                .chain()
                .in_set(AppSystems::Present)
                .run_if(
                    in_state(Screen::Runner)
                        .and_then(resource_exists::<RunnerRun>)
                        .and_then(resource_exists::<TrackLayout>),
                ),
        );
}

/// A segment's drawing.
#[derive(Component, Debug)]
struct SegmentVisual(u64);

/// Something the runner takes by running through it, a coin or a power-up: segment and lane.
#[derive(Component, Debug)]
struct Pickup(u64, u8);

/// The bright face of a pickup, which swells and shrinks a little so it shines.
#[derive(Component, Debug)]
struct Shine {
    /// Offset of this shimmer, in radians, so neighbouring coins do not pulse together.
    phase: f32,
}

/// The colour a power-up is drawn in.
pub(super) fn powerup_colour(kind: PowerUp) -> Color {
    POWERUP_COLOURS[kind.slot()]
}

/// A rectangle of the drawing: colour, size and centre in metres in a segment's frame, its turn
/// in that frame, and its depth.
pub(super) type Part = (Color, Vec2, Vec2, f32, f32);

fn lay_out_track(mut commands: Commands) {
    commands.insert_resource(TrackLayout::default());
}

/// A rectangle of `size` metres at `centre` in a segment's frame, turned by `angle`.
fn block(colour: Color, size: Vec2, centre: Vec2, angle: f32, z: f32) -> impl Bundle {
    (
        Sprite::from_color(colour, size),
        Transform::from_translation(centre.extend(z)).with_rotation(Quat::from_rotation_z(angle)),
    )
}

/// Draws segments as they come within sight and removes them once well behind.
fn place_segments(
    mut commands: Commands,
    run: Res<RunnerRun>,
    mut layout: ResMut<TrackLayout>,
    mut palette: Palette,
    visuals: Query<(Entity, &SegmentVisual)>,
) {
    for segment in run.sim.track.upcoming().take(SEGMENTS_AHEAD) {
        if let Some(place) = layout.lay(segment.index, segment.kind) {
            spawn_segment(&mut commands, &mut palette, run.sim.seed, segment, &place);
        }
    }
    let current = (run.sim.body.distance_m / SEGMENT_LENGTH_M) as u64;
    let keep_from = current.saturating_sub(SEGMENTS_BEHIND);
    layout.forget_before(keep_from);
    for (entity, SegmentVisual(index)) in &visuals {
        if *index < keep_from {
            commands.entity(entity).despawn();
        }
    }
}

/// The flat rectangles of a segment's ground, in its frame: the jungle floor under and beside
/// it, the kerb, the path and the lane lines, each with its layer (higher lies on top).
pub(super) fn ground_parts(index: u64, kind: SegmentKind) -> Vec<Part> {
    let floor = if index.is_multiple_of(2) {
        FLOOR_LIGHT
    } else {
        FLOOR_DARK
    };
    let (corner, length) = (CORNER, SEGMENT);
    let full = TRACK_WIDTH + 2.0 * KERB;
    let mut parts: Vec<Part> = Vec::new();
    // (colour, size, centre in the segment's frame, angle in that frame, z)
    // The jungle under and beside the path; around a junction a square covers every way out.
    if kind.is_junction() {
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
    if kind.is_junction() {
        let turn = quarter_turns(kind) as f32 * FRAC_PI_2;
        let after = local_point(kind, corner + corner / 2.0, 0.0);
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
    parts
}

fn spawn_segment(
    commands: &mut Commands,
    palette: &mut Palette,
    seed: u64,
    segment: &Segment,
    place: &SegmentPlace,
) {
    let angle = place.angle();
    let corner = CORNER;
    let mut parts = ground_parts(segment.index, segment.kind);
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
                palette.arrow(ARROW_COLOUR),
                Transform::from_translation(Vec2::new(0.0, corner).extend(0.3))
                    .with_rotation(Quat::from_rotation_z(turn)),
            ));
        }
        if !segment.kind.is_junction() {
            spawn_scenery(parent, palette, seed, segment.index);
        }
        if let Some((lane, kind)) = segment.powerup() {
            // A glowing orb in its kind's colour with a white core, over a ring of light.
            let colour = powerup_colour(kind);
            parent
                .spawn((
                    Pickup(segment.index, lane),
                    palette.circle(1.05, colour.with_alpha(0.35)),
                    Transform::from_xyz(lane_offset(f32::from(lane)), corner, 0.5),
                ))
                .with_children(|orb| {
                    orb.spawn((
                        palette.circle(0.7, colour),
                        Transform::from_xyz(0.0, 0.0, 0.01),
                    ));
                    orb.spawn((
                        Shine { phase: 0.0 },
                        palette.circle(0.3, POWERUP_CORE),
                        Transform::from_xyz(0.0, 0.0, 0.02),
                    ));
                });
        }
        for (lane, content) in segment.lanes.iter().enumerate() {
            if *content != LaneContent::Coins {
                continue;
            }
            let x = lane_offset(lane as f32);
            for along in [corner - 2.2, corner, corner + 2.2] {
                parent
                    .spawn((
                        Pickup(segment.index, lane as u8),
                        palette.circle(0.42, COIN_RIM),
                        Transform::from_xyz(x, along, 0.5),
                    ))
                    .with_child((
                        Shine {
                            phase: along * 0.9 + lane as f32 * 2.1,
                        },
                        palette.circle(0.3, COIN_COLOUR),
                        Transform::from_xyz(0.0, 0.0, 0.01),
                    ));
            }
        }
    });
}

/// Segments of one stretch of scenery: the run passes from one to the next.
const STRETCH_SEGMENTS: u64 = 24;

/// The kinds of stretch a run passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stretch {
    /// Deep jungle: dark, broad trees.
    Jungle,
    /// Temple ruins: statues on both kerbs of every segment, few trees.
    Ruins,
    /// A grove of tall, pale, slender trees.
    Grove,
}

impl Stretch {
    /// The stretch segment `index` of the run of `seed` lies in: the first is always jungle,
    /// the others drawn from the seed, never twice the same in a row.
    pub(super) fn of(seed: u64, index: u64) -> Stretch {
        const KINDS: [Stretch; 3] = [Stretch::Jungle, Stretch::Ruins, Stretch::Grove];
        let stretch = index / STRETCH_SEGMENTS;
        let mut at = 0;
        for n in 1..=stretch {
            let mut bytes = seed.to_le_bytes().to_vec();
            bytes.extend(n.to_le_bytes());
            let step = 1 + (crate::logic::seed::fnv1a_64(&bytes) % 2) as usize;
            at = (at + step) % KINDS.len();
        }
        KINDS[at]
    }

    /// Its canopies' colours.
    fn canopies(self) -> [Color; 3] {
        match self {
            Stretch::Jungle => CANOPY,
            Stretch::Ruins => [
                Color::srgb(0.22, 0.27, 0.12),
                Color::srgb(0.28, 0.31, 0.14),
                Color::srgb(0.18, 0.22, 0.11),
            ],
            Stretch::Grove => [
                Color::srgb(0.30, 0.48, 0.20),
                Color::srgb(0.38, 0.55, 0.24),
                Color::srgb(0.26, 0.42, 0.18),
            ],
        }
    }
}

/// A thing beside the track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Scenery {
    /// A tree: its canopy's radius and colour, its trunk's height, and a sliver of depth so
    /// canopies overlap steadily.
    Tree {
        /// The canopy's radius, in metres.
        radius: f32,
        /// The canopy's colour.
        colour: Color,
        /// The trunk's height, in metres.
        trunk: f32,
        /// Its drawing depth among the trees.
        layer: f32,
    },
    /// A stone statue on the kerb.
    Statue,
}

/// Trees on both sides of a straight segment, and stone statues on the kerbs, each with its
/// place in the segment's frame, as the segment's [`Stretch`] has them: broad dark trees and a
/// statue every third segment in the jungle, statues on every segment and few trees in the
/// ruins, tall slender pale trees in a grove. Placed by a hash of the seed and the segment
/// index, so the same track always looks the same.
pub(super) fn scenery_of(seed: u64, index: u64) -> Vec<(Scenery, Vec2)> {
    let stretch = Stretch::of(seed, index);
    let mut bytes = seed.to_le_bytes().to_vec();
    bytes.extend(index.to_le_bytes());
    let mut bits = crate::logic::seed::fnv1a_64(&bytes);
    let mut next = |range: f32| {
        bits = bits.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (bits >> 40) as f32 / (1u64 << 24) as f32 * range
    };
    let mut things = Vec::new();
    let (trees, statue_every) = match stretch {
        Stretch::Jungle => (2, 3),
        Stretch::Ruins => (1, 1),
        Stretch::Grove => (3, 6),
    };
    let canopies = stretch.canopies();
    for side in [-1.0, 1.0] {
        for _ in 0..trees {
            let across = side * (TRACK_WIDTH / 2.0 + KERB + 1.6 + next(JUNGLE_REACH - 8.0));
            let along = next(SEGMENT);
            let (radius, trunk) = match stretch {
                Stretch::Grove => (0.9 + next(0.9), 4.0 + next(3.0)),
                Stretch::Jungle | Stretch::Ruins => {
                    let radius = 1.4 + next(2.2);
                    (radius, radius * 1.2 + 1.0)
                }
            };
            let colour = canopies[(next(3.0) as usize).min(canopies.len() - 1)];
            let layer = -0.9 + next(0.1);
            things.push((
                Scenery::Tree {
                    radius,
                    colour,
                    trunk,
                    layer,
                },
                Vec2::new(across, along),
            ));
        }
    }
    if index.is_multiple_of(statue_every) {
        for side in [-1.0, 1.0] {
            let at = Vec2::new(side * (TRACK_WIDTH / 2.0 + KERB / 2.0), 1.0);
            things.push((Scenery::Statue, at));
        }
    }
    things
}

/// The scenery of a straight segment, seen from above.
fn spawn_scenery(parent: &mut ChildSpawnerCommands, palette: &mut Palette, seed: u64, index: u64) {
    for (thing, at) in scenery_of(seed, index) {
        match thing {
            Scenery::Tree {
                radius,
                colour,
                layer,
                ..
            } => {
                parent.spawn((
                    palette.circle(radius, colour),
                    Transform::from_translation(at.extend(layer)),
                ));
            }
            Scenery::Statue => {
                parent.spawn(block(STATUE_COLOUR, Vec2::splat(1.1), at, 0.0, 0.3));
                parent.spawn(block(KERB_COLOUR, Vec2::splat(0.6), at, 0.0, 0.31));
            }
        }
    }
}

/// The rectangles of one lane's obstacle at the contact point, in the segment's frame.
fn obstacle_parts(content: LaneContent, x: f32, along: f32, parts: &mut Vec<Part>) {
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
        LaneContent::Empty | LaneContent::Coins | LaneContent::PowerUp(_) => {}
    }
}

/// Coins and power-ups vanish as they are taken.
fn take_pickups(
    mut commands: Commands,
    mut events: MessageReader<RunnerEvent>,
    pickups: Query<(Entity, &Pickup)>,
) {
    for RunnerEvent(event) in events.read() {
        let (RunEvent::Coins { index, lane } | RunEvent::PowerUp { index, lane, .. }) = *event
        else {
            continue;
        };
        for (entity, pickup) in &pickups {
            if pickup.0 == index && pickup.1 == lane {
                commands.entity(entity).despawn();
            }
        }
    }
}

fn shine_pickups(time: Res<Time>, mut coins: Query<(&mut Transform, &Shine)>) {
    let t = time.elapsed_secs();
    for (mut transform, shine) in &mut coins {
        transform.scale = Vec3::splat(1.0 + 0.18 * (t * SHINE_RATE + shine.phase).sin());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_passes_through_stretches_of_scenery_drawn_from_the_seed() {
        let stretches = |seed: u64| -> Vec<Stretch> {
            (0..12)
                .map(|n| Stretch::of(seed, n * STRETCH_SEGMENTS))
                .collect()
        };
        let first = stretches(42);
        assert_eq!(first[0], Stretch::Jungle, "every run starts in the jungle");
        assert!(first.windows(2).all(|pair| pair[0] != pair[1]), "{first:?}");
        assert_eq!(stretches(42), first, "the same seed, the same scenery");
        assert!((0..20).any(|seed| stretches(seed) != first), "seeds differ");
        // Within a stretch nothing changes.
        assert_eq!(Stretch::of(42, 0), Stretch::of(42, STRETCH_SEGMENTS - 1));
        // Ruins have statues on every straight segment; the scenery is the same every time.
        let ruins = (0..2000)
            .find(|&i| Stretch::of(42, i) == Stretch::Ruins)
            .unwrap();
        let statues = |index| {
            scenery_of(42, index)
                .iter()
                .filter(|(thing, _)| *thing == Scenery::Statue)
                .count()
        };
        assert_eq!(statues(ruins + 1), 2);
        assert_eq!(scenery_of(42, ruins + 1), scenery_of(42, ruins + 1));
    }
}
