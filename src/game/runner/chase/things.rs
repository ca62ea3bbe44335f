//! The things that stand on the chase view's track, each an [`Upright`] drawn in its turn:
//! obstacles as boxes drawn face by face, coins, power-up orbs and trees.

use super::Upright;
use crate::game::runner::layout::{CORNER, LANE_WIDTH};
use crate::game::runner::projection::{ChaseCamera, Viewed};
use crate::game::runner::track::{
    BEAM_COLOUR, COIN_COLOUR, COIN_RIM, LOG_COLOUR, LOG_END, PILLAR_COLOUR, POWERUP_CORE, SHADOW,
    WALL_COLOUR, WALL_TOP,
};
use crate::logic::runner::track::LaneContent;
use bevy::prelude::*;

/// Boxes nearer the camera than this are not drawn, in metres.
const BOX_NEAREST_M: f32 = 2.5;
const TRUNK: Color = Color::srgb(0.25, 0.17, 0.10);

/// A box standing on the ground: `size` metres along and across its frame's axes, from
/// `heights[0]` to `heights[1]` above the ground, drawn face by face (only the faces turned to
/// the camera), `side` colouring its top and sides and `front` the rest.
pub(super) fn box_parts(
    uprights: &mut Vec<Upright>,
    camera: &ChaseCamera,
    frame: impl Fn(f32, f32) -> Vec2,
    [along, across]: [f32; 2],
    [low, high]: [f32; 2],
    front: Color,
    side: Color,
) {
    let corner = |a: f32, s: f32| camera.view(frame(a * along / 2.0, s * across / 2.0));
    let base = [
        corner(-1.0, -1.0),
        corner(-1.0, 1.0),
        corner(1.0, 1.0),
        corner(1.0, -1.0),
    ];
    let ahead = base.iter().map(|c| c.ahead).fold(f32::INFINITY, f32::min);
    // A box the camera is about to pass over (a wall in the middle lane the runner went round)
    // would fill the window's bottom with its top for a frame: it goes just before.
    if ahead < BOX_NEAREST_M {
        return;
    }
    uprights.push(Upright {
        ahead,
        draw: Box::new(move |canvas| {
            let project = |viewed: Viewed, height: f32| viewed.project(height).map(|(at, _)| at);
            let (Some(bottom), Some(top)): (Option<Vec<Vec2>>, Option<Vec<Vec2>>) = (
                base.iter().map(|&c| project(c, low)).collect(),
                base.iter().map(|&c| project(c, high)).collect(),
            ) else {
                return;
            };
            // Faces as (corners counter-clockwise seen from outside, colour).
            let mut faces = vec![(vec![top[0], top[1], top[2], top[3]], side)];
            for i in 0..4 {
                let j = (i + 1) % 4;
                let colour = if i == 0 { front } else { side.darker(0.05) };
                faces.push((vec![bottom[i], bottom[j], top[j], top[i]], colour));
            }
            for (corners, colour) in faces {
                if facing(&corners) {
                    canvas.polygon(&corners, colour);
                }
            }
        }),
    });
}

/// Whether a projected face is seen from the front: its corners run counter-clockwise.
pub(super) fn facing(corners: &[Vec2]) -> bool {
    let mut twice_area = 0.0;
    for (i, a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        twice_area += a.x * b.y - b.x * a.y;
    }
    twice_area > 0.0
}

/// A lane's obstacle at the contact point: a log to jump, a beam on two posts to slide under,
/// a wall to go round.
pub(super) fn obstacle(
    uprights: &mut Vec<Upright>,
    camera: &ChaseCamera,
    frame: &impl Fn(f32, f32) -> Vec2,
    content: LaneContent,
    x: f32,
) {
    let at = |along: f32, across: f32| frame(CORNER + along, x + across);
    match content {
        LaneContent::Low => {
            box_parts(
                uprights,
                camera,
                at,
                [0.9, LANE_WIDTH * 0.92],
                [0.0, 0.7],
                LOG_COLOUR,
                LOG_END,
            );
        }
        LaneContent::High => {
            for side in [-1.0, 1.0] {
                let post = |a: f32, s: f32| at(a, side * (LANE_WIDTH / 2.0 - 0.25) + s);
                box_parts(
                    uprights,
                    camera,
                    post,
                    [0.4, 0.4],
                    [0.0, 2.0],
                    PILLAR_COLOUR,
                    PILLAR_COLOUR.lighter(0.08),
                );
            }
            box_parts(
                uprights,
                camera,
                at,
                [0.5, LANE_WIDTH],
                [1.3, 1.9],
                BEAM_COLOUR,
                BEAM_COLOUR.lighter(0.1),
            );
        }
        LaneContent::Block => {
            box_parts(
                uprights,
                camera,
                at,
                [0.8, LANE_WIDTH * 0.96],
                [0.0, 2.8],
                WALL_COLOUR,
                WALL_TOP,
            );
        }
        LaneContent::Empty | LaneContent::Coins | LaneContent::PowerUp(_) => {}
    }
}

/// A coin standing a metre up, rim and face, with its shadow.
pub(super) fn coin(at: Viewed) -> Upright {
    Upright {
        ahead: at.ahead,
        draw: Box::new(move |canvas| {
            let (Some((ground, scale)), Some((centre, _))) = (at.project(0.0), at.project(1.0))
            else {
                return;
            };
            canvas.disc(ground, Vec2::new(0.35, 0.1) * scale, SHADOW);
            canvas.disc(centre, Vec2::new(0.32, 0.4) * scale, COIN_RIM);
            canvas.disc(centre, Vec2::new(0.22, 0.3) * scale, COIN_COLOUR);
        }),
    }
}

/// A power-up: a glowing orb in its colour with a white core, floating a metre up.
pub(super) fn orb(at: Viewed, colour: Color) -> Upright {
    Upright {
        ahead: at.ahead,
        draw: Box::new(move |canvas| {
            let (Some((ground, scale)), Some((centre, _))) = (at.project(0.0), at.project(1.1))
            else {
                return;
            };
            canvas.disc(ground, Vec2::new(0.6, 0.15) * scale, SHADOW);
            canvas.disc(centre, Vec2::splat(0.95 * scale), colour.with_alpha(0.3));
            canvas.disc(centre, Vec2::splat(0.6 * scale), colour);
            canvas.disc(centre, Vec2::splat(0.25 * scale), POWERUP_CORE);
        }),
    }
}

/// A tree: a trunk `trunk_top` metres tall under a round canopy.
pub(super) fn tree(at: Viewed, radius: f32, trunk_top: f32, colour: Color) -> Upright {
    Upright {
        ahead: at.ahead,
        draw: Box::new(move |canvas| {
            let (Some((ground, scale)), Some((crown, _))) =
                (at.project(0.0), at.project(trunk_top + radius * 0.6))
            else {
                return;
            };
            let half = 0.3 * scale;
            let (top, _) = at.project(trunk_top).unwrap_or((ground, scale));
            canvas.polygon(
                &[
                    ground - Vec2::X * half,
                    ground + Vec2::X * half,
                    top + Vec2::X * half,
                    top - Vec2::X * half,
                ],
                TRUNK,
            );
            canvas.disc(crown, Vec2::new(radius * 1.1, radius) * scale, colour);
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_turned_away_are_not_drawn() {
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        assert!(facing(&square));
        let mut away = square;
        away.reverse();
        assert!(!facing(&away));
    }
}
