//! The bodies the chase view draws from behind: the runner (and the ghost, in pale colours),
//! posed by its run (a run cycle whose rate follows the speed, a jump over the shadow, a slide
//! crouch, a lean into lane changes, a stumble and a fall), and the temple guardians.

use super::painter::Canvas;
use super::projection::Viewed;
use crate::logic::runner::body::{Posture, RunnerBody};
use crate::logic::runner::timing::{JUMP_S, SLIDE_S};
use crate::logic::runner::view::palette::{
    GUARDIAN_BODY, GUARDIAN_EYES, GUARDIAN_GLOW, GUARDIAN_MASK, SHADOW,
};
use bevy_color::{Alpha, Color};
use bevy_math::{Mat2, Vec2};
use std::f32::consts::{FRAC_PI_2, TAU};

const RUNNER_SHIRT: Color = Color::srgb(0.85, 0.30, 0.18);
const RUNNER_SKIN: Color = Color::srgb(0.93, 0.78, 0.58);
const RUNNER_TROUSERS: Color = Color::srgb(0.30, 0.24, 0.18);
/// Metres run per stride (two steps): the legs cycle at the speed the runner covers ground.
const STRIDE_M: f32 = 2.6;
/// How high a jump lifts the runner at its top, in metres.
const JUMP_HEIGHT_M: f32 = 1.2;
/// How far the runner leans into a lane change, in radians.
const LEAN: f32 = 0.22;
/// How long a fall takes to lay the runner down, in seconds of the view's clock.
const FALL_S: f32 = 0.35;

/// How the runner's body is posed this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Where the stride is, in radians.
    stride: f32,
    /// Height of the feet above the ground, in metres (a jump).
    lift: f32,
    /// 0 standing to 1 fully crouched (a slide).
    crouch: f32,
    /// Lean to the right (negative: to the left), in radians.
    lean: f32,
    /// 0 upright to 1 lying on the ground (a fall).
    fallen: f32,
    /// A stumble's shake, in radians.
    stumble: f32,
}

impl Pose {
    /// The pose of `body` at `clock` (the view's clock); `ended_at` is when its run ended on
    /// that clock, if it did.
    pub fn of(body: &RunnerBody, clock: f32, ended_at: Option<f32>) -> Pose {
        let stride = (body.distance_m as f32 / STRIDE_M).fract() * TAU;
        let (lift, crouch) = match body.posture {
            Posture::Jumping { left_s } => {
                let t = 1.0 - (left_s / JUMP_S) as f32;
                (4.0 * JUMP_HEIGHT_M * t * (1.0 - t), 0.0)
            }
            Posture::Sliding { left_s } => {
                let t = (left_s / SLIDE_S) as f32;
                (0.0, (t * 4.0).min(1.0))
            }
            Posture::Running => (0.0, 0.0),
        };
        let lean = body.change.map_or(0.0, |change| {
            let towards = (f32::from(change.to) - f32::from(body.lane)).signum();
            towards * LEAN
        });
        let fallen = ended_at.map_or(0.0, |at| ((clock - at) / FALL_S).min(1.0));
        let stumble = body.last_stumble_s.map_or(0.0, |at| {
            let since = (body.elapsed_s - at) as f32;
            if since < 0.5 {
                (since * 40.0).sin() * 0.25 * (1.0 - since * 2.0)
            } else {
                0.0
            }
        });
        Pose {
            stride,
            lift,
            crouch,
            lean,
            fallen,
            stumble,
        }
    }
}

/// Whose colours a drawn runner wears.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The player's runner.
    Runner,
    /// The ghost of the best run: pale and see-through.
    Ghost,
}

/// The colours of a drawn runner.
struct Colours {
    shirt: Color,
    skin: Color,
    trousers: Color,
    shadow: Color,
}

impl Look {
    /// Its colours.
    fn colours(self) -> Colours {
        match self {
            Look::Runner => Colours {
                shirt: RUNNER_SHIRT,
                skin: RUNNER_SKIN,
                trousers: RUNNER_TROUSERS,
                shadow: SHADOW,
            },
            Look::Ghost => Colours {
                shirt: Color::srgba(0.75, 0.88, 1.0, 0.45),
                skin: Color::srgba(0.85, 0.92, 1.0, 0.45),
                trousers: Color::srgba(0.65, 0.78, 0.95, 0.45),
                shadow: Color::srgba(0.0, 0.0, 0.0, 0.12),
            },
        }
    }
}

/// The glow of a held power-up around the runner: a ring on the ground and a haze behind it,
/// the `nth` held a little wider.
pub(super) fn paint_aura(canvas: &mut Canvas, at: Viewed, colour: Color, nth: usize) {
    let (Some((feet, scale)), Some((middle, _))) = (at.project(0.0), at.project(1.0)) else {
        return;
    };
    let radius = 0.8 + 0.18 * nth as f32;
    canvas.disc(
        middle,
        Vec2::new(radius, radius * 1.35) * scale,
        colour.with_alpha(0.1),
    );
    canvas.disc(
        feet,
        Vec2::new(radius, radius * 0.3) * scale,
        colour.with_alpha(0.6),
    );
}

/// A temple guardian seen from behind: a stone body with a mask and glowing eyes in a red glow,
/// swaying as it runs.
pub(super) fn paint_guardian(canvas: &mut Canvas, at: Viewed, sway: f32) {
    let Some((feet, scale)) = at.project(0.0) else {
        return;
    };
    let turn = Mat2::from_angle(sway);
    let place = |x: f32, y: f32| feet + turn * Vec2::new(x, y) * scale;
    canvas.disc(place(0.0, 1.1), Vec2::new(1.2, 1.4) * scale, GUARDIAN_GLOW);
    canvas.disc(feet, Vec2::new(0.6, 0.18) * scale, SHADOW);
    canvas.polygon(
        &[
            place(-0.45, 0.0),
            place(0.45, 0.0),
            place(0.5, 1.6),
            place(-0.5, 1.6),
        ],
        GUARDIAN_BODY,
    );
    canvas.disc(
        place(0.0, 1.9),
        Vec2::new(0.32, 0.36) * scale,
        GUARDIAN_MASK,
    );
    for side in [-1.0, 1.0] {
        canvas.disc(
            place(side * 0.12, 1.95),
            Vec2::splat(0.06 * scale),
            GUARDIAN_EYES,
        );
    }
}

/// A runner seen from behind in `look`'s colours: shadow, legs, shirt, arms and head, posed.
pub(super) fn paint_runner(canvas: &mut Canvas, at: Viewed, pose: Pose, look: Look) {
    let look = look.colours();
    let Some((feet, scale)) = at.project(0.0) else {
        return;
    };
    // The shadow stays on the ground, smaller as the runner rises.
    let shadow = 0.55 / (1.0 + pose.lift);
    canvas.disc(feet, Vec2::new(shadow, shadow * 0.3) * scale, look.shadow);
    // Body points in metres (x right, y up) from the feet, then leaned, fallen and lifted.
    let tilt = pose.lean + pose.stumble + pose.fallen * FRAC_PI_2;
    let turn = Mat2::from_angle(-tilt);
    let lift = pose.lift * (1.0 - pose.fallen);
    let place = |x: f32, y: f32| feet + (turn * Vec2::new(x, y) + Vec2::new(0.0, lift)) * scale;
    let squash = 1.0 - 0.45 * pose.crouch;
    let hip = 0.95 * squash;
    let shoulder = hip + 0.6 * squash;
    let swing = pose.stride.sin();
    // A limb: a band at `x` from its end at `low` to its root at `high`, half as wide as given.
    let mut limb = |x: f32, (low, low_half): (f32, f32), (high, high_half): (f32, f32), colour| {
        canvas.polygon(
            &[
                place(x - low_half, low),
                place(x + low_half, low),
                place(x + high_half, high),
                place(x - high_half, high),
            ],
            colour,
        );
    };
    for side in [-1.0, 1.0] {
        // Legs: the one in the air swings up, the other pushes back.
        let phase = -side * swing;
        let foot_up = (phase.max(0.0) * 0.35 + pose.crouch * 0.3) * (1.0 - pose.fallen);
        limb(side * 0.14, (foot_up, 0.09), (hip, 0.1), look.trousers);
        // Arms swing against the legs.
        let hand = shoulder - 0.55 + (-phase).max(0.0) * 0.3;
        limb(side * 0.32, (hand, 0.06), (shoulder, 0.06), look.skin);
    }
    canvas.polygon(
        &[
            place(-0.26, hip),
            place(0.26, hip),
            place(0.3, shoulder),
            place(-0.3, shoulder),
        ],
        look.shirt,
    );
    canvas.disc(
        place(0.0, shoulder + 0.2),
        Vec2::splat(0.18 * scale),
        look.skin,
    );
    canvas.disc(
        place(0.0, shoulder + 0.24),
        Vec2::new(0.17, 0.12) * scale,
        look.trousers,
    );
}
