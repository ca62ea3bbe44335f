//! How the things standing on the chase view's track are painted: boxes face by face (only the
//! faces turned to the camera), coins, power-up orbs, trees and the signs at junctions.

use super::draw_list::BoxShape;
use super::painter::Canvas;
use super::projection::Viewed;
use crate::logic::runner::view::palette::{
    ARROW_COLOUR, COIN_COLOUR, COIN_RIM, POWERUP_CORE, SHADOW,
};
use bevy_color::{Alpha, Color, Luminance};
use bevy_math::Vec2;

const TRUNK: Color = Color::srgb(0.25, 0.17, 0.10);
/// The stone board of a junction's sign, dark so its gold chevrons stand out.
const SIGN_BOARD: Color = Color::srgb(0.16, 0.12, 0.09);
/// A turn sign's board: its half width, and its bottom and top above the ground, in metres.
const SIGN_HALF_WIDTH_M: f32 = 1.4;
const SIGN_HEIGHTS_M: [f32; 2] = [0.9, 2.3];

/// A junction's sign: a dark board on two posts with two gold chevrons pointing the way to turn,
/// `right` or left, facing the camera.
pub(super) fn paint_turn_sign(canvas: &mut Canvas, at: Viewed, right: bool) {
    let [low, high] = SIGN_HEIGHTS_M;
    let (Some((ground, scale)), Some((bottom, _)), Some((top, _))) =
        (at.project(0.0), at.project(low), at.project(high))
    else {
        return;
    };
    let across = |metres: f32| Vec2::new(metres * scale, 0.0);
    for post in [-0.9, 0.9] {
        let foot = ground + across(post);
        let head = bottom + across(post);
        let half = across(0.12);
        canvas.polygon(&[foot - half, foot + half, head + half, head - half], TRUNK);
    }
    let half_width = across(SIGN_HALF_WIDTH_M);
    canvas.polygon(
        &[
            bottom - half_width,
            bottom + half_width,
            top + half_width,
            top - half_width,
        ],
        SIGN_BOARD,
    );
    // Each chevron is two slanted bars meeting at its tip, which points the way.
    let way = if right { 1.0 } else { -1.0 };
    let middle = (bottom + top) / 2.0;
    let reach = (top.y - bottom.y) * 0.32;
    let (depth, thickness) = (across(0.42 * way), across(0.22 * way));
    for offset in [-0.45, 0.35] {
        let tip = middle + across((offset + 0.2) * way);
        for end in [tip - depth + Vec2::Y * reach, tip - depth - Vec2::Y * reach] {
            canvas.polygon(&[end, end + thickness, tip + thickness, tip], ARROW_COLOUR);
        }
    }
}

/// A box standing on the ground: its top and the sides turned to the camera.
pub(super) fn paint_box(canvas: &mut Canvas, shape: &BoxShape) {
    let [low, high] = shape.heights;
    let project = |viewed: Viewed, height: f32| viewed.project(height).map(|(at, _)| at);
    let mut bottom = [Vec2::ZERO; 4];
    let mut top = [Vec2::ZERO; 4];
    for (i, &corner) in shape.base.iter().enumerate() {
        let (Some(b), Some(t)) = (project(corner, low), project(corner, high)) else {
            return;
        };
        (bottom[i], top[i]) = (b, t);
    }
    // Faces as corners counter-clockwise seen from outside: the top, then the four sides.
    if facing(&top) {
        canvas.polygon(&top, shape.side);
    }
    for i in 0..4 {
        let j = (i + 1) % 4;
        let face = [bottom[i], bottom[j], top[j], top[i]];
        let colour = if i == 0 {
            shape.front
        } else {
            shape.side.darker(0.05)
        };
        if facing(&face) {
            canvas.polygon(&face, colour);
        }
    }
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

/// A coin standing a metre up, rim and face, with its shadow.
pub(super) fn paint_coin(canvas: &mut Canvas, at: Viewed) {
    let (Some((ground, scale)), Some((centre, _))) = (at.project(0.0), at.project(1.0)) else {
        return;
    };
    canvas.disc(ground, Vec2::new(0.35, 0.1) * scale, SHADOW);
    canvas.disc(centre, Vec2::new(0.32, 0.4) * scale, COIN_RIM);
    canvas.disc(centre, Vec2::new(0.22, 0.3) * scale, COIN_COLOUR);
}

/// A power-up: a glowing orb in its colour with a white core, floating a metre up.
pub(super) fn paint_orb(canvas: &mut Canvas, at: Viewed, colour: Color) {
    let (Some((ground, scale)), Some((centre, _))) = (at.project(0.0), at.project(1.1)) else {
        return;
    };
    canvas.disc(ground, Vec2::new(0.6, 0.15) * scale, SHADOW);
    canvas.disc(centre, Vec2::splat(0.95 * scale), colour.with_alpha(0.3));
    canvas.disc(centre, Vec2::splat(0.6 * scale), colour);
    canvas.disc(centre, Vec2::splat(0.25 * scale), POWERUP_CORE);
}

/// A tree: a trunk `trunk_top` metres tall under a round canopy.
pub(super) fn paint_tree(
    canvas: &mut Canvas,
    at: Viewed,
    radius: f32,
    trunk_top: f32,
    colour: Color,
) {
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
