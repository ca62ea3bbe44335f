//! The chase view's geometry: a camera behind and above the runner looking along the track, and
//! the perspective projection of ground points and of points above the ground onto the window,
//! as arcade racers draw their roads. Screen coordinates are window pixels from its centre, y up.
//! Everything here is plain maths, projected on the CPU every frame. Depth is kept by drawing
//! back to front ([`super::draw_list`] sorts what it draws by distance).

use crate::logic::runner::view::world::DRAWN_AHEAD_M;
use bevy_math::{Mat2, Vec2};

/// How high the camera rides above the ground, in metres.
pub const CAMERA_HEIGHT_M: f32 = 4.2;
/// How far behind the runner the camera rides, in metres.
pub const CAMERA_BACK_M: f32 = 6.5;
/// Window pixels one metre covers at one metre ahead of the camera: the focal length.
pub const FOCAL_PX: f32 = 560.0;
/// Where the horizon lies, in pixels above the window's centre.
pub const HORIZON_PX: f32 = 150.0;
/// Nothing nearer the camera than this is drawn, in metres: ground pieces are cut here.
pub const NEAR_M: f32 = 0.8;
/// Nothing farther than this is drawn, in metres.
pub const FAR_M: f32 = DRAWN_AHEAD_M;
/// A lane is readable while it is at least this many pixels wide on screen.
pub const READABLE_LANE_PX: f32 = 12.0;

/// The chase camera: where it stands on the ground and where it looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChaseCamera {
    /// Its place on the ground, in world metres.
    pub position: Vec2,
    /// Its heading in radians, counter-clockwise from up (world +y), as the top-down view uses.
    pub heading: f32,
}

/// A point in the camera's frame: metres to the right of it and ahead of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewed {
    /// Metres to the camera's right.
    pub side: f32,
    /// Metres ahead of the camera.
    pub ahead: f32,
}

impl ChaseCamera {
    /// The camera `back` metres behind `target` along `heading`.
    pub fn behind(target: Vec2, heading: f32, back: f32) -> ChaseCamera {
        let forward = Mat2::from_angle(heading) * Vec2::Y;
        ChaseCamera {
            position: target - forward * back,
            heading,
        }
    }

    /// A world point in the camera's frame.
    pub fn view(&self, world: Vec2) -> Viewed {
        let local = Mat2::from_angle(-self.heading) * (world - self.position);
        Viewed {
            side: local.x,
            ahead: local.y,
        }
    }
}

impl Viewed {
    /// Where this point, `height` metres above the ground, falls on the window, and how many
    /// pixels a metre there covers. `None` when it is too near or behind the camera.
    pub fn project(&self, height: f32) -> Option<(Vec2, f32)> {
        if self.ahead < NEAR_M {
            return None;
        }
        let scale = FOCAL_PX / self.ahead;
        Some((
            Vec2::new(
                self.side * scale,
                HORIZON_PX - (CAMERA_HEIGHT_M - height) * scale,
            ),
            scale,
        ))
    }
}

/// The most corners a projected polygon keeps: a ring of [`MAX_CORNERS`] - 1 cut once by the
/// near plane gains one.
pub const MAX_CORNERS: usize = 16;

/// A convex polygon of at most [`MAX_CORNERS`] corners, kept on the stack: the chase view makes
/// thousands a frame and allocates none.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Polygon {
    corners: [Vec2; MAX_CORNERS],
    len: usize,
}

impl Default for Polygon {
    fn default() -> Polygon {
        Polygon {
            corners: [Vec2::ZERO; MAX_CORNERS],
            len: 0,
        }
    }
}

impl Polygon {
    /// Adds a corner (one past [`MAX_CORNERS`] is dropped).
    pub fn push(&mut self, corner: Vec2) {
        if let Some(slot) = self.corners.get_mut(self.len) {
            *slot = corner;
            self.len += 1;
        }
    }

    /// Its corners, in order.
    pub fn corners(&self) -> &[Vec2] {
        &self.corners[..self.len]
    }
}

/// Projects a ground polygon (its corners in the camera's frame, in order), cutting away what
/// lies nearer than [`NEAR_M`] first, so a piece of ground that passes under the camera still
/// reaches the bottom of the window. Returns the projected corners; fewer than three when
/// nothing is left.
pub fn project_ground(corners: &[Viewed]) -> Polygon {
    let mut projected = Polygon::default();
    let mut keep = |corner: Viewed| {
        if let Some((at, _)) = corner.project(0.0) {
            projected.push(at);
        }
    };
    for (i, &here) in corners.iter().enumerate() {
        let next = corners[(i + 1) % corners.len()];
        let (here_in, next_in) = (here.ahead >= NEAR_M, next.ahead >= NEAR_M);
        if here_in {
            keep(here);
        }
        if here_in != next_in {
            // Where the edge crosses the near plane.
            let t = (NEAR_M - here.ahead) / (next.ahead - here.ahead);
            keep(Viewed {
                side: here.side + (next.side - here.side) * t,
                ahead: NEAR_M,
            });
        }
    }
    projected
}

/// How far ahead of the camera a lane of `lane_width_m` stays at least [`READABLE_LANE_PX`] wide.
pub fn readable_distance_m(lane_width_m: f32) -> f32 {
    FOCAL_PX * lane_width_m / READABLE_LANE_PX
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::difficulty::Difficulty;
    use crate::logic::runner::timing::{
        JUMP_S, LANE_CHANGE_S, REACTION_MARGIN_S, SEGMENT_LENGTH_M, SLIDE_S, Timing,
    };
    use crate::logic::runner::view::layout::LANE_WIDTH;
    use std::f32::consts::FRAC_PI_2;

    fn camera() -> ChaseCamera {
        ChaseCamera::behind(Vec2::new(0.0, 10.0), 0.0, CAMERA_BACK_M)
    }

    #[test]
    fn the_track_ahead_recedes_to_the_horizon() {
        let camera = camera();
        let mut last_y = f32::NEG_INFINITY;
        let mut last_width = f32::INFINITY;
        for ahead in [2.0, 5.0, 10.0, 40.0, 150.0] {
            let centre = camera.view(camera.position + Vec2::new(0.0, ahead));
            let edge = camera.view(camera.position + Vec2::new(1.7, ahead));
            let (at, _) = centre.project(0.0).unwrap();
            let (edge_at, _) = edge.project(0.0).unwrap();
            assert_eq!(at.x, 0.0, "straight ahead stays in the middle");
            assert!(
                at.y > last_y && at.y < HORIZON_PX,
                "farther is higher, below the horizon"
            );
            let width = edge_at.x - at.x;
            assert!(width < last_width && width > 0.0, "farther is smaller");
            (last_y, last_width) = (at.y, width);
        }
        // Behind the camera and too near: nothing.
        assert!(
            camera
                .view(camera.position - Vec2::Y)
                .project(0.0)
                .is_none()
        );
        assert!(
            camera
                .view(camera.position + Vec2::Y * 0.5)
                .project(0.0)
                .is_none()
        );
    }

    #[test]
    fn the_runner_stands_low_in_the_window_and_heights_rise() {
        let camera = camera();
        let runner = camera.view(Vec2::new(0.0, 10.0));
        assert!((runner.ahead - CAMERA_BACK_M).abs() < 1e-5);
        let (feet, scale) = runner.project(0.0).unwrap();
        let (head, _) = runner.project(1.8).unwrap();
        assert!(feet.y < -200.0 && feet.y > -360.0, "{feet}");
        assert!((head.y - feet.y - 1.8 * scale).abs() < 1e-3);
    }

    #[test]
    fn a_turned_camera_looks_along_its_heading() {
        // Heading a quarter turn left: world -x is ahead.
        let camera = ChaseCamera::behind(Vec2::ZERO, FRAC_PI_2, 5.0);
        assert!((camera.position - Vec2::new(5.0, 0.0)).length() < 1e-5);
        let ahead = camera.view(Vec2::new(-10.0, 0.0));
        assert!((ahead.ahead - 15.0).abs() < 1e-4 && ahead.side.abs() < 1e-4);
        // World +y is then on the camera's right.
        assert!(camera.view(Vec2::new(5.0, 3.0)).side > 0.0);
    }

    #[test]
    fn ground_passing_under_the_camera_is_cut_at_the_near_plane() {
        let corners = [
            Viewed {
                side: -2.0,
                ahead: -3.0,
            },
            Viewed {
                side: 2.0,
                ahead: -3.0,
            },
            Viewed {
                side: 2.0,
                ahead: 20.0,
            },
            Viewed {
                side: -2.0,
                ahead: 20.0,
            },
        ];
        let projected = project_ground(&corners);
        assert_eq!(projected.corners().len(), 4);
        let lowest = projected
            .corners()
            .iter()
            .map(|p| p.y)
            .fold(f32::INFINITY, f32::min);
        let (near_edge, _) = Viewed {
            side: 0.0,
            ahead: NEAR_M,
        }
        .project(0.0)
        .unwrap();
        assert!((lowest - near_edge.y).abs() < 1e-3);
        // Wholly behind: nothing.
        let behind: Vec<Viewed> = corners
            .iter()
            .map(|c| Viewed { ahead: -5.0, ..*c })
            .collect();
        assert!(project_ground(&behind).corners().is_empty());
    }

    #[test]
    fn obstacles_are_readable_earlier_than_the_runner_must_react_at_top_speed() {
        // The longest the timing model lets a runner take to meet an obstacle: two lane changes
        // then a jump or a slide, with its margin.
        let react_s = 2.0 * LANE_CHANGE_S + JUMP_S.max(SLIDE_S) + REACTION_MARGIN_S;
        let top = Timing::for_difficulty(Difficulty::Hard).max_speed_mps;
        let needed_m = (top * react_s) as f32 + CAMERA_BACK_M;
        let readable = readable_distance_m(LANE_WIDTH);
        assert!(
            readable > needed_m,
            "{readable} m readable, {needed_m} m needed"
        );
        assert!(readable <= FAR_M, "the view reaches the readable distance");
        // There a lane's two edges, projected, lie READABLE_LANE_PX apart; nearer, farther.
        let lane_px = |ahead: f32| {
            let edge = |side: f32| Viewed { side, ahead }.project(0.0).unwrap().0.x;
            edge(LANE_WIDTH / 2.0) - edge(-LANE_WIDTH / 2.0)
        };
        assert!((lane_px(readable) - READABLE_LANE_PX).abs() < 1e-3);
        assert!(lane_px(readable - 1.0) > READABLE_LANE_PX);
        assert!(lane_px(readable + 1.0) < READABLE_LANE_PX);
        // A whole planner look-ahead is more than the window shows readably; a few segments
        // past the reaction distance are.
        assert!(readable > needed_m + 5.0 * SEGMENT_LENGTH_M as f32);
    }
}
