//! The track seen from above: each laid segment's path, kerb and jungle floor as sprites under
//! the segment's transform, its obstacles (a log to jump, a beam to slide under, a wall to
//! avoid) as flat shapes with shadows, its coin lines and power-ups that shine and vanish when
//! taken, a gold arrow at a junction, and the scenery beside it. Segments the world forgets
//! are despawned.

use super::palette::Palette;
use super::{TopDown, drawing, view_lifetime};
use crate::game::runner::rules::{RunnerEvent, RunnerRun};
use crate::game::runner::world::TrackInSight;
use crate::game::screens::AppSystems;
use crate::logic::runner::body::RunEvent;
use crate::logic::runner::planner::PLAN_LOOKAHEAD;
use crate::logic::runner::track::LaneContent;
use crate::logic::runner::view::layout::{CORNER, LANE_WIDTH, lane_offset, quarter_turns};
use crate::logic::runner::view::palette::{
    ARROW_COLOUR, BEAM_COLOUR, COIN_COLOUR, COIN_RIM, KERB_COLOUR, LOG_COLOUR, LOG_END,
    PILLAR_COLOUR, POWERUP_CORE, SHADOW, STATUE_COLOUR, WALL_COLOUR, WALL_TOP, powerup_colour,
};
use crate::logic::runner::view::scenery::Scenery;
use crate::logic::runner::view::world::LaidSegment;
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

/// Segments drawn ahead of the runner's: as far as the planner's route reaches.
const SEGMENTS_AHEAD: u64 = PLAN_LOOKAHEAD as u64;
/// How fast coins shimmer, in radians per second.
const SHINE_RATE: f32 = 7.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SpawnedSegments>().add_systems(
        Update,
        (
            forget_spawned.run_if(resource_added::<TopDown>),
            place_segments,
            take_pickups.run_if(on_message::<RunnerEvent>),
            shine_pickups,
        )
            .chain()
            .in_set(AppSystems::Present)
            .run_if(drawing),
    );
}

/// The last segment spawned, if any.
#[derive(Resource, Debug, Default)]
struct SpawnedSegments(Option<u64>);

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

/// A rectangle of the drawing: colour, size and centre in metres in a segment's frame, its turn
/// in that frame, and its depth.
type Part = (Color, Vec2, Vec2, f32, f32);

/// A new set-up of the view spawns every laid segment again.
fn forget_spawned(mut spawned: ResMut<SpawnedSegments>) {
    spawned.0 = None;
}

/// A rectangle of `size` metres at `centre` in a segment's frame, turned by `angle`.
fn block(colour: Color, size: Vec2, centre: Vec2, angle: f32, z: f32) -> impl Bundle {
    (
        Sprite::from_color(colour, size),
        Transform::from_translation(centre.extend(z)).with_rotation(Quat::from_rotation_z(angle)),
    )
}

/// Draws the segments the world has laid since, and removes those it has forgotten.
fn place_segments(
    mut commands: Commands,
    (run, world): (Res<RunnerRun>, Res<TrackInSight>),
    mut spawned: ResMut<SpawnedSegments>,
    mut palette: Palette,
    visuals: Query<(Entity, &SegmentVisual)>,
) {
    // As far ahead as the planner's route reaches: far past the window's top already.
    let last_wanted = run.sim.track.next().index + SEGMENTS_AHEAD - 1;
    for segment in world.segments() {
        let index = segment.segment.index;
        if index > last_wanted {
            break;
        }
        if spawned.0.is_none_or(|last| index > last) {
            spawn_segment(&mut commands, &mut palette, segment);
            spawned.0 = Some(index);
        }
    }
    let keep_from = world
        .segments()
        .next()
        .map_or(0, |first| first.segment.index);
    for (entity, SegmentVisual(index)) in &visuals {
        if *index < keep_from {
            commands.entity(entity).despawn();
        }
    }
}

fn spawn_segment(commands: &mut Commands, palette: &mut Palette, laid: &LaidSegment) {
    let segment = &laid.segment;
    let place = &laid.place;
    let mut parts: Vec<Part> = laid
        .ground
        .iter()
        .map(|part| (part.colour, part.size, part.centre, part.angle, part.layer))
        .collect();
    for (lane, content) in segment.lanes.iter().enumerate() {
        obstacle_parts(*content, lane_offset(lane as f32), CORNER, &mut parts);
    }
    let mut entity = commands.spawn((
        Name::new(format!("Segment {}", segment.index)),
        SegmentVisual(segment.index),
        Transform::from_translation(place.origin.extend(0.0))
            .with_rotation(Quat::from_rotation_z(place.angle())),
        Visibility::default(),
        view_lifetime(),
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
                Transform::from_translation(Vec2::new(0.0, CORNER).extend(0.3))
                    .with_rotation(Quat::from_rotation_z(turn)),
            ));
        }
        spawn_scenery(parent, palette, &laid.scenery);
        if let Some((lane, kind)) = segment.powerup()
            && !laid.taken[usize::from(lane)]
        {
            // A glowing orb in its kind's colour with a white core, over a ring of light.
            let colour = powerup_colour(kind);
            parent
                .spawn((
                    Pickup(segment.index, lane),
                    palette.circle(1.05, colour.with_alpha(0.35)),
                    Transform::from_xyz(lane_offset(f32::from(lane)), CORNER, 0.5),
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
            if *content != LaneContent::Coins || laid.taken[lane] {
                continue;
            }
            let x = lane_offset(lane as f32);
            for along in [CORNER - 2.2, CORNER, CORNER + 2.2] {
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

/// The scenery of a straight segment, seen from above.
fn spawn_scenery(
    parent: &mut ChildSpawnerCommands,
    palette: &mut Palette,
    scenery: &[(Scenery, Vec2)],
) {
    for &(thing, at) in scenery {
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
