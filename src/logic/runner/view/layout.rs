//! Where the track lies in the world: one world unit is one metre, segments are laid end to end,
//! each with the heading it starts at, and a junction turns the path at its contact point. The
//! track, the runner, the cameras and the route of every view place themselves with these.

use crate::logic::runner::timing::{CONTACT_OFFSET_M, LANES, SEGMENT_LENGTH_M};
use crate::logic::runner::track::SegmentKind;
use bevy_math::{Mat2, Vec2};
use std::collections::VecDeque;
use std::f32::consts::{FRAC_PI_2, PI, TAU};

/// Width of one lane, in metres.
pub const LANE_WIDTH: f32 = 3.4;
/// Width of the walkable track.
pub const TRACK_WIDTH: f32 = LANE_WIDTH * LANES as f32;
/// The stone kerb on each side of the track, in metres.
pub const KERB: f32 = 0.8;
/// How far the jungle floor reaches beside the track, in metres.
pub const JUNGLE_REACH: f32 = 40.0;
/// The contact point's distance into a segment, in metres.
pub const CORNER: f32 = CONTACT_OFFSET_M as f32;
/// A segment's length, in metres.
pub const SEGMENT: f32 = SEGMENT_LENGTH_M as f32;

/// Where one segment lies in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentPlace {
    /// The segment's index along the track.
    pub index: u64,
    /// Straight or a turn.
    pub kind: SegmentKind,
    /// The middle of the segment's start edge.
    pub origin: Vec2,
    /// Heading at the start, in quarter turns counter-clockwise from up.
    pub quarter: i64,
}

impl SegmentPlace {
    /// The world point `along` metres into the segment and `across` metres right of its centre
    /// line, following the turn at a junction.
    pub fn point(&self, along: f32, across: f32) -> Vec2 {
        self.origin + rotation(self.quarter) * local_point(self.kind, along, across)
    }

    /// The segment's start heading, in radians.
    pub fn angle(&self) -> f32 {
        self.quarter as f32 * FRAC_PI_2
    }
}

/// The segments laid so far that are still drawn, and where the next one begins.
#[derive(Debug, Default, Clone)]
pub struct TrackLayout {
    places: VecDeque<SegmentPlace>,
    next_origin: Vec2,
    next_quarter: i64,
    next_index: u64,
}

impl TrackLayout {
    /// Lays the segment `index` of `kind` after the last one, unless it is laid already.
    /// Returns its place when it is new.
    pub fn lay(&mut self, index: u64, kind: SegmentKind) -> Option<SegmentPlace> {
        if index < self.next_index {
            return None;
        }
        let place = SegmentPlace {
            index,
            kind,
            origin: self.next_origin,
            quarter: self.next_quarter,
        };
        self.next_origin = place.point(SEGMENT, 0.0);
        self.next_quarter += quarter_turns(kind);
        self.next_index = index + 1;
        self.places.push_back(place);
        Some(place)
    }

    /// Forgets the segments before `index`.
    pub fn forget_before(&mut self, index: u64) {
        while self.places.front().is_some_and(|p| p.index < index) {
            self.places.pop_front();
        }
    }

    /// Where segment `index` lies, while it is laid.
    pub fn place_of(&self, index: u64) -> Option<&SegmentPlace> {
        let first = self.places.front()?.index;
        self.places
            .get(usize::try_from(index.checked_sub(first)?).ok()?)
    }

    /// The world point `across` metres right of the centre line, `distance_m` metres along the
    /// track, and the heading there in quarter turns.
    pub fn track_point(&self, distance_m: f64, across: f32) -> Option<(Vec2, i64)> {
        let index = (distance_m / SEGMENT_LENGTH_M) as u64;
        let place = self.place_of(index)?;
        let along = (distance_m - index as f64 * SEGMENT_LENGTH_M) as f32;
        let quarter = place.quarter
            + if along > CORNER {
                quarter_turns(place.kind)
            } else {
                0
            };
        Some((place.point(along, across), quarter))
    }
}

/// The rotation of a heading: 0 up, 1 left, 2 down, 3 right.
pub fn rotation(quarter: i64) -> Mat2 {
    Mat2::from_angle(quarter.rem_euclid(4) as f32 * FRAC_PI_2)
}

/// A point of a segment in its own frame (start edge centre at the origin, heading up, right
/// along +x). At a junction the part past the contact point runs along the new heading.
pub fn local_point(kind: SegmentKind, along: f32, across: f32) -> Vec2 {
    let turn = match kind {
        SegmentKind::TurnLeft if along > CORNER => 1,
        SegmentKind::TurnRight if along > CORNER => -1,
        _ => return Vec2::new(across, along),
    };
    Vec2::new(0.0, CORNER) + rotation(turn) * Vec2::new(across, along - CORNER)
}

/// How many quarter turns a segment adds to the heading.
pub fn quarter_turns(kind: SegmentKind) -> i64 {
    match kind {
        SegmentKind::Straight => 0,
        SegmentKind::TurnLeft => 1,
        SegmentKind::TurnRight => -1,
    }
}

/// The centre of a lane (0 left to 2 right, fractions between), in metres right of the centre
/// line.
pub fn lane_offset(lane: f32) -> f32 {
    (lane - 1.0) * LANE_WIDTH
}

/// How fast a camera turns toward the runner's heading, per second (exponential approach).
const CAMERA_TURN_RATE: f32 = 9.0;

/// The angle `current` moves to, turning the short way round toward `target` at a camera's
/// rate for `dt` seconds, and landing exactly on it once close: how both views' cameras swing
/// round at a junction.
pub fn turn_toward(current: f32, target: f32, dt: f32) -> f32 {
    let gap = (target - current + PI).rem_euclid(TAU) - PI;
    if gap.abs() < 1e-3 {
        return target;
    }
    current + gap * (1.0 - (-CAMERA_TURN_RATE * dt).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junction_points_follow_the_turn() {
        let left = local_point(SegmentKind::TurnLeft, CORNER + 2.0, 0.0);
        assert!(left.abs_diff_eq(Vec2::new(-2.0, CORNER), 1e-5), "{left}");
        let right = local_point(SegmentKind::TurnRight, CORNER + 2.0, 1.0);
        // Heading right, "right of the centre line" is down.
        assert!(
            right.abs_diff_eq(Vec2::new(2.0, CORNER - 1.0), 1e-5),
            "{right}"
        );
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
    fn the_camera_turns_the_short_way_and_settles() {
        // From just left of straight up to a right turn: clockwise, not all the way round.
        let turned = turn_toward(0.0, -FRAC_PI_2, 0.05);
        assert!(turned < 0.0 && turned > -FRAC_PI_2, "{turned}");
        // From three quarter turns to a full turn (the same heading as zero): the short way.
        let wrapped = turn_toward(3.0 * FRAC_PI_2, 0.0, 0.05);
        assert!(wrapped > 3.0 * FRAC_PI_2, "{wrapped}");
        assert_eq!(turn_toward(1.0, 1.0005, 0.01), 1.0005);
    }

    #[test]
    fn segments_chain_end_to_start() {
        let mut layout = TrackLayout::default();
        layout.lay(0, SegmentKind::Straight).unwrap();
        let turn = layout.lay(1, SegmentKind::TurnLeft).unwrap();
        assert_eq!(turn.origin, Vec2::new(0.0, SEGMENT));
        let after = layout.lay(2, SegmentKind::Straight).unwrap();
        assert!(
            after.origin.abs_diff_eq(Vec2::new(-5.0, 15.0), 1e-5),
            "{}",
            after.origin
        );
        assert_eq!(after.quarter, 1);
        assert_eq!(layout.lay(1, SegmentKind::Straight), None, "laid once");
        layout.forget_before(2);
        assert!(layout.place_of(1).is_none());
        let (point, quarter) = layout.track_point(25.0, 0.0).unwrap();
        assert!(point.abs_diff_eq(Vec2::new(-10.0, 15.0), 1e-5), "{point}");
        assert_eq!(quarter, 1);
    }
}
