//! The runner's world as every view sees it: the segments laid end to end as far ahead as any
//! view draws, each with its ground pieces and its scenery worked out once, when it is laid, in
//! its own frame (for a view that draws a segment as one thing, turned) and in the world (for a
//! view that projects every corner), and the coins and power-ups taken from it.

use super::layout::{
    CORNER, JUNGLE_REACH, KERB, LANE_WIDTH, SEGMENT, SegmentPlace, TRACK_WIDTH, TrackLayout,
    local_point, quarter_turns, rotation,
};
use super::palette::{FLOOR_DARK, FLOOR_LIGHT, JUNGLE_FLOOR, KERB_COLOUR, LANE_LINE};
use super::scenery::{Scenery, Stretch, Stretches, scenery_of};
use crate::logic::runner::planner::PLAN_LOOKAHEAD;
use crate::logic::runner::timing::{LANES, SEGMENT_LENGTH_M};
use crate::logic::runner::track::{Segment, SegmentKind};
use bevy_color::Color;
use bevy_math::{Mat2, Vec2};
use std::collections::VecDeque;
use std::f32::consts::FRAC_PI_2;

/// How far ahead anything is drawn, in metres: the chase view's horizon.
pub const DRAWN_AHEAD_M: f32 = 200.0;
/// Segments laid ahead of the runner: as far as the chase view draws, and as far as the
/// planner's route reaches.
pub const SEGMENTS_AHEAD: usize = {
    let drawn = (DRAWN_AHEAD_M as f64 / SEGMENT_LENGTH_M) as usize;
    if drawn > PLAN_LOOKAHEAD {
        drawn
    } else {
        PLAN_LOOKAHEAD
    }
};
/// Segments kept behind the runner: the chase camera rides behind it.
pub const SEGMENTS_BEHIND: u64 = 2;

/// What a piece of ground is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroundKind {
    /// The jungle floor under and beside the path.
    Jungle,
    /// The stone kerb along the path.
    Kerb,
    /// The path itself.
    Floor,
    /// A dash between two lanes.
    LaneLine,
}

/// A flat rectangle of a segment's ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundPart {
    /// What it is.
    pub kind: GroundKind,
    /// Its colour.
    pub colour: Color,
    /// Its size along its own axes, in metres.
    pub size: Vec2,
    /// Its centre in the segment's frame.
    pub centre: Vec2,
    /// Its turn in the segment's frame, in radians.
    pub angle: f32,
    /// Its layer: higher lies on top.
    pub layer: f32,
}

/// A ground part placed in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundQuad {
    /// What it is.
    pub kind: GroundKind,
    /// Its colour.
    pub colour: Color,
    /// Its layer: higher lies on top.
    pub layer: f32,
    /// Its centre, in world metres.
    pub centre: Vec2,
    /// Its corners, counter-clockwise, in world metres.
    pub corners: [Vec2; 4],
}

/// A segment as it lies in the world, with what is drawn of it.
#[derive(Debug, Clone)]
pub struct LaidSegment {
    /// The segment: its kind and what each lane holds.
    pub segment: Segment,
    /// Where it lies.
    pub place: SegmentPlace,
    /// The stretch of scenery it lies in.
    pub stretch: Stretch,
    /// Its ground, in its own frame.
    pub ground: Vec<GroundPart>,
    /// Its ground, in the world.
    pub ground_in_world: Vec<GroundQuad>,
    /// What stands beside it, in its own frame (straight segments only).
    pub scenery: Vec<(Scenery, Vec2)>,
    /// The same, in the world.
    pub scenery_in_world: Vec<(Scenery, Vec2)>,
    /// Per lane: its coins or power-up have been taken.
    pub taken: [bool; LANES],
}

impl LaidSegment {
    /// The world point `along` metres into the segment and `across` metres right of its centre
    /// line, in its start frame (not following the turn at a junction), as its things stand.
    pub fn frame_point(&self, along: f32, across: f32) -> Vec2 {
        self.place.origin + rotation(self.place.quarter) * Vec2::new(across, along)
    }
}

/// The flat rectangles of a segment's ground, in its frame: the jungle floor under and beside
/// it, the kerb, the path and the lane lines, each with its layer (higher lies on top).
pub fn ground_parts(index: u64, kind: SegmentKind) -> Vec<GroundPart> {
    let floor = if index.is_multiple_of(2) {
        FLOOR_LIGHT
    } else {
        FLOOR_DARK
    };
    let part = |kind, colour, size, centre, angle, layer| GroundPart {
        kind,
        colour,
        size,
        centre,
        angle,
        layer,
    };
    let (corner, length) = (CORNER, SEGMENT);
    let full = TRACK_WIDTH + 2.0 * KERB;
    let mut parts = Vec::new();
    // The jungle under and beside the path; around a junction a square covers every way out.
    if kind.is_junction() {
        let side = 2.0 * JUNGLE_REACH + TRACK_WIDTH;
        let centre = Vec2::new(0.0, corner);
        parts.push(part(
            GroundKind::Jungle,
            JUNGLE_FLOOR,
            Vec2::splat(side),
            centre,
            0.0,
            -1.0,
        ));
    } else {
        let size = Vec2::new(2.0 * JUNGLE_REACH + TRACK_WIDTH, length);
        let centre = Vec2::new(0.0, length / 2.0);
        parts.push(part(
            GroundKind::Jungle,
            JUNGLE_FLOOR,
            size,
            centre,
            0.0,
            -1.0,
        ));
    }
    let layers = [
        (GroundKind::Kerb, KERB_COLOUR, full, 0.0),
        (GroundKind::Floor, floor, TRACK_WIDTH, 0.1),
    ];
    if kind.is_junction() {
        let turn = quarter_turns(kind) as f32 * FRAC_PI_2;
        let after = local_point(kind, corner + corner / 2.0, 0.0);
        let corner_point = Vec2::new(0.0, corner);
        let half = corner / 2.0;
        // Round a corner the kerb lies under the floor: the same three pieces, wider and
        // lower.
        for (ground, colour, width, z) in layers {
            let half_piece = Vec2::new(width, corner);
            parts.push(part(
                ground,
                colour,
                half_piece,
                Vec2::new(0.0, half),
                0.0,
                z,
            ));
            parts.push(part(
                ground,
                colour,
                Vec2::splat(width),
                corner_point,
                0.0,
                z,
            ));
            parts.push(part(ground, colour, half_piece, after, turn, z));
        }
    } else {
        // A kerb on each side of the path rather than one under it: the same look, and each
        // pixel of the path is painted once, not twice.
        for side in [-1.0, 1.0] {
            let centre = Vec2::new(side * (TRACK_WIDTH + KERB) / 2.0, length / 2.0);
            let size = Vec2::new(KERB, length);
            parts.push(part(GroundKind::Kerb, KERB_COLOUR, size, centre, 0.0, 0.0));
        }
        let (ground, colour, width, z) = layers[1];
        let centre = Vec2::new(0.0, length / 2.0);
        parts.push(part(
            ground,
            colour,
            Vec2::new(width, length),
            centre,
            0.0,
            z,
        ));
        for divider in [-0.5, 0.5] {
            let x = divider * LANE_WIDTH;
            let dash = Vec2::new(0.12, length * 0.55);
            let centre = Vec2::new(x, length / 2.0);
            parts.push(part(
                GroundKind::LaneLine,
                LANE_LINE,
                dash,
                centre,
                0.0,
                0.2,
            ));
        }
    }
    parts
}

/// A ground part of a segment placed at `place`, in the world.
fn in_world(place: &SegmentPlace, part: &GroundPart) -> GroundQuad {
    let turn = Mat2::from_angle(part.angle);
    let to_world = |local: Vec2| place.origin + rotation(place.quarter) * local;
    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(sx, sy)| to_world(part.centre + turn * (Vec2::new(sx, sy) * part.size / 2.0)));
    GroundQuad {
        kind: part.kind,
        colour: part.colour,
        layer: part.layer,
        centre: to_world(part.centre),
        corners,
    }
}

/// The world of one run: the segments in sight, laid as the track comes.
#[derive(Debug, Clone)]
pub struct RunnerWorld {
    seed: u64,
    layout: TrackLayout,
    laid: VecDeque<LaidSegment>,
    stretches: Stretches,
}

impl RunnerWorld {
    /// The world of the run of `seed`, nothing laid yet.
    pub fn new(seed: u64) -> RunnerWorld {
        RunnerWorld {
            seed,
            layout: TrackLayout::default(),
            laid: VecDeque::new(),
            stretches: Stretches::new(seed),
        }
    }

    /// Lays the coming segments of `upcoming` (the track's buffer, the next segment first) up to
    /// [`SEGMENTS_AHEAD`], and forgets those more than [`SEGMENTS_BEHIND`] behind the runner at
    /// `distance_m`. Returns how many segments it laid.
    pub fn lay<'a>(
        &mut self,
        upcoming: impl IntoIterator<Item = &'a Segment>,
        distance_m: f64,
    ) -> usize {
        let mut laid = 0;
        for segment in upcoming.into_iter().take(SEGMENTS_AHEAD) {
            let Some(place) = self.layout.lay(segment.index, segment.kind) else {
                continue;
            };
            let stretch = self.stretches.of(segment.index);
            let ground = ground_parts(segment.index, segment.kind);
            let ground_in_world = ground.iter().map(|part| in_world(&place, part)).collect();
            let scenery = if segment.kind.is_junction() {
                Vec::new()
            } else {
                scenery_of(self.seed, segment.index, stretch)
            };
            let frame = |at: Vec2| place.origin + rotation(place.quarter) * at;
            let scenery_in_world = scenery
                .iter()
                .map(|&(thing, at)| (thing, frame(at)))
                .collect();
            self.laid.push_back(LaidSegment {
                segment: *segment,
                place,
                stretch,
                ground,
                ground_in_world,
                scenery,
                scenery_in_world,
                taken: [false; LANES],
            });
            laid += 1;
        }
        let current = (distance_m / SEGMENT_LENGTH_M) as u64;
        let keep_from = current.saturating_sub(SEGMENTS_BEHIND);
        self.layout.forget_before(keep_from);
        while self
            .laid
            .front()
            .is_some_and(|s| s.segment.index < keep_from)
        {
            self.laid.pop_front();
        }
        laid
    }

    /// Where the segments lie.
    pub fn layout(&self) -> &TrackLayout {
        &self.layout
    }

    /// The segments laid, nearest first.
    pub fn segments(&self) -> impl ExactSizeIterator<Item = &LaidSegment> + Clone {
        self.laid.iter()
    }

    /// The segment `index`, while it is laid.
    pub fn segment(&self, index: u64) -> Option<&LaidSegment> {
        let first = self.laid.front()?.segment.index;
        self.laid
            .get(usize::try_from(index.checked_sub(first)?).ok()?)
    }

    /// Notes that the coins or power-up of `lane` of segment `index` were taken.
    pub fn take(&mut self, index: u64, lane: u8) {
        let first = self.laid.front().map_or(0, |s| s.segment.index);
        let at = index
            .checked_sub(first)
            .and_then(|at| usize::try_from(at).ok());
        if let Some(segment) = at.and_then(|at| self.laid.get_mut(at))
            && let Some(taken) = segment.taken.get_mut(usize::from(lane))
        {
            *taken = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::difficulty::Difficulty;
    use crate::logic::runner::track::Track;

    #[test]
    fn the_world_lays_as_far_as_any_view_draws_and_forgets_what_is_behind() {
        const { assert!(SEGMENTS_AHEAD >= PLAN_LOOKAHEAD) };
        assert!(SEGMENTS_AHEAD as f64 * SEGMENT_LENGTH_M >= f64::from(DRAWN_AHEAD_M));
        let mut track = Track::new(42, Difficulty::Normal);
        let mut world = RunnerWorld::new(42);
        assert_eq!(world.lay(track.upcoming(), 0.0), SEGMENTS_AHEAD);
        assert_eq!(world.lay(track.upcoming(), 0.0), 0, "laid once");
        for _ in 0..10 {
            track.advance();
        }
        world.lay(track.upcoming(), 10.0 * SEGMENT_LENGTH_M + 1.0);
        let indices: Vec<u64> = world.segments().map(|s| s.segment.index).collect();
        assert_eq!(indices.first(), Some(&8), "two behind the runner's segment");
        assert_eq!(indices.last(), Some(&(10 + SEGMENTS_AHEAD as u64 - 1)));
        assert!(indices.windows(2).all(|pair| pair[1] == pair[0] + 1));
        // What is worked out once matches its segment.
        let segment = world.segment(12).unwrap();
        assert_eq!(segment.ground.len(), segment.ground_in_world.len());
        assert_eq!(segment.scenery.len(), segment.scenery_in_world.len());
        assert_eq!(segment.stretch, Stretch::of(42, 12));
        let part = segment.ground[1];
        let quad = segment.ground_in_world[1];
        let centre = segment.frame_point(part.centre.y, part.centre.x);
        assert!(
            quad.centre.abs_diff_eq(centre, 1e-4),
            "{} {centre}",
            quad.centre
        );
        world.take(12, 1);
        world.take(12, 9);
        world.take(3, 0);
        assert_eq!(world.segment(12).unwrap().taken, [false, true, false]);
    }
}
