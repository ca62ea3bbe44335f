//! The chase view's painter: turns a [`DrawList`] into triangles in window pixels, back to
//! front (the sky over the land, the ground layer by layer, the route, the upright things from
//! the farthest to the nearest, the speed lines), into one [`Canvas`] whose buffers are kept
//! from frame to frame, so that once warm a frame allocates nothing.

use super::draw_list::{DrawList, Thing, Upright};
use super::figures::{paint_aura, paint_guardian, paint_runner};
use super::projection::{HORIZON_PX, Viewed, project_ground};
use super::state::{DUST_S, EffectKind, SPARKLE_S};
use super::things::{paint_box, paint_coin, paint_orb, paint_tree, paint_turn_sign};
use crate::logic::runner::view::palette::{JUNGLE_FLOOR, ROUTE_COLOUR};
use bevy_color::{Alpha, Color, ColorToComponents, LinearRgba};
use bevy_math::Vec2;
use std::f32::consts::{FRAC_PI_2, PI, TAU};

/// The land under everything: the colour the window is cleared to, so that the painter leaves
/// the two thirds of the window below the horizon to the clear instead of covering them with
/// triangles (under software rendering the clear is a fraction of the cost).
pub const LAND: Color = JUNGLE_FLOOR;
/// Sky at the top of the window and at the horizon.
const SKY_TOP: Color = Color::srgb(0.10, 0.12, 0.22);
const SKY_HAZE: Color = Color::srgb(0.78, 0.52, 0.36);
/// The far jungle's silhouette along the horizon.
const FAR_JUNGLE: Color = Color::srgb(0.06, 0.11, 0.07);
const DUST: Color = Color::srgb(0.62, 0.52, 0.38);
/// Streaks along the window's sides, pointing at the horizon.
const SPEED_LINES: usize = 22;
/// Corners of a disc.
const DISC_CORNERS: usize = 14;

/// Triangles in window pixels with a colour per corner, in drawing order: the buffers of the
/// chase view's mesh.
#[derive(Debug, Default, Clone)]
pub struct Canvas {
    /// Corner positions (x, y, 0) in window pixels from the centre, y up.
    pub positions: Vec<[f32; 3]>,
    /// Corner colours, linear RGBA.
    pub colours: Vec<[f32; 4]>,
    /// Three corners per triangle.
    pub indices: Vec<u32>,
}

impl Canvas {
    /// Empties the canvas, keeping its room.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.colours.clear();
        self.indices.clear();
    }

    /// A convex polygon in one colour.
    pub fn polygon(&mut self, corners: &[Vec2], colour: Color) {
        if corners.len() < 3 {
            return;
        }
        let linear = LinearRgba::from(colour).to_f32_array();
        self.fan(corners, |_| linear);
    }

    /// A convex polygon with a colour per corner, blended across it.
    pub fn shaded(&mut self, corners: &[Vec2], colours: &[Color]) {
        if corners.len() < 3 || colours.len() < corners.len() {
            return;
        }
        self.fan(corners, |i| LinearRgba::from(colours[i]).to_f32_array());
    }

    /// The corners of a convex polygon as a fan of triangles, coloured by `colour_of` corner.
    fn fan(&mut self, corners: &[Vec2], colour_of: impl Fn(usize) -> [f32; 4]) {
        let first = self.positions.len() as u32;
        for (i, corner) in corners.iter().enumerate() {
            self.positions.push([corner.x, corner.y, 0.0]);
            self.colours.push(colour_of(i));
        }
        for i in 1..corners.len() as u32 - 1 {
            self.indices.extend([first, first + i, first + i + 1]);
        }
    }

    /// Moves everything drawn so far by `offset` pixels.
    pub fn shift(&mut self, offset: Vec2) {
        for position in &mut self.positions {
            position[0] += offset.x;
            position[1] += offset.y;
        }
    }

    /// An ellipse of `radius` pixels along x and y.
    pub fn disc(&mut self, centre: Vec2, radius: Vec2, colour: Color) {
        let corners: [Vec2; DISC_CORNERS] = std::array::from_fn(|i| {
            let angle = i as f32 / DISC_CORNERS as f32 * TAU;
            centre + Vec2::new(angle.cos(), angle.sin()) * radius
        });
        self.polygon(&corners, colour);
    }
}

/// Paints `list` onto `canvas` (emptied first).
pub fn paint(list: &DrawList, canvas: &mut Canvas) {
    canvas.clear();
    let Some(camera) = list.camera else {
        return;
    };
    paint_sky(canvas, camera.heading);
    for piece in &list.ground {
        let projected = project_ground(&piece.corners);
        canvas.polygon(projected.corners(), piece.colour);
    }
    paint_route(canvas, &list.route);
    for upright in &list.uprights {
        paint_upright(canvas, upright);
    }
    paint_speed_lines(canvas, list.speed_lines, list.clock);
    if list.shake != Vec2::ZERO {
        canvas.shift(list.shake);
    }
}

/// One upright thing.
fn paint_upright(canvas: &mut Canvas, upright: &Upright) {
    let at = upright.at;
    match upright.thing {
        Thing::Box(shape) => paint_box(canvas, &shape),
        Thing::Coin => paint_coin(canvas, at),
        Thing::Orb(colour) => paint_orb(canvas, at, colour),
        Thing::Tree {
            radius,
            trunk,
            colour,
        } => paint_tree(canvas, at, radius, trunk, colour),
        Thing::Runner { pose, look, auras } => {
            for (i, colour) in auras.iter().flatten().enumerate() {
                paint_aura(canvas, at, *colour, i);
            }
            paint_runner(canvas, at, pose, look);
        }
        Thing::Guardian { sway } => paint_guardian(canvas, at, sway),
        Thing::TurnSign { right } => paint_turn_sign(canvas, at, right),
        Thing::Effect { kind, age, salt } => paint_effect(canvas, at, kind, age, salt),
    }
}

/// Sparks flying up and fading, or dust spreading low and fading.
fn paint_effect(canvas: &mut Canvas, at: Viewed, kind: EffectKind, age: f32, salt: usize) {
    match kind {
        EffectKind::Sparkle(colour) => {
            let t = age / SPARKLE_S;
            if t >= 1.0 {
                return;
            }
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
                    let (long, short) = (size * 1.8, size * 0.45);
                    canvas.polygon(
                        &[
                            centre + Vec2::new(0.0, long),
                            centre + Vec2::new(-short, 0.0),
                            centre + Vec2::new(0.0, -long),
                            centre + Vec2::new(short, 0.0),
                        ],
                        faded,
                    );
                    canvas.polygon(
                        &[
                            centre + Vec2::new(-long, 0.0),
                            centre + Vec2::new(0.0, -short),
                            centre + Vec2::new(long, 0.0),
                            centre + Vec2::new(0.0, short),
                        ],
                        faded,
                    );
                }
            }
        }
        EffectKind::Dust => {
            let t = age / DUST_S;
            if t >= 1.0 {
                return;
            }
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
fn paint_speed_lines(canvas: &mut Canvas, strength: f32, clock: f32) {
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

/// The sky from the top of the window down to the horizon, hazy where it meets the land (the
/// window's clear colour, [`LAND`]), and the far jungle's silhouette, which slides as the view
/// turns to `heading`.
fn paint_sky(canvas: &mut Canvas, heading: f32) {
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
    // Tree tops along the horizon: bumps of a fixed pattern around the compass.
    let bumps = 48;
    let pixels_per_radian = 900.0;
    for i in 0..bumps {
        let angle = i as f32 / bumps as f32 * TAU;
        let mut x = (angle - heading).rem_euclid(TAU);
        if x > PI {
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

/// The planner's route painted on the ground: a band from the runner through the recommended
/// lane at each coming contact point (`points`, in the camera's frame), with a ring at each.
fn paint_route(canvas: &mut Canvas, points: &[Viewed]) {
    let flat = |viewed: Viewed| Vec2::new(viewed.side, viewed.ahead);
    let viewed = |point: Vec2| Viewed {
        side: point.x,
        ahead: point.y,
    };
    for pair in points.windows(2) {
        let (a, b) = (flat(pair[0]), flat(pair[1]));
        let along = (b - a).normalize_or_zero();
        let side = Vec2::new(-along.y, along.x) * 0.12;
        // Counter-clockwise, as every shape of the canvas.
        let band = [a - side, b - side, b + side, a + side].map(viewed);
        canvas.polygon(project_ground(&band).corners(), ROUTE_COLOUR);
    }
    for &point in points.iter().skip(1) {
        let centre = flat(point);
        let ring: [Viewed; 12] = std::array::from_fn(|i| {
            viewed(centre + Vec2::from_angle(i as f32 / 12.0 * TAU) * 0.55)
        });
        canvas.polygon(
            project_ground(&ring).corners(),
            ROUTE_COLOUR.with_alpha(0.5),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_canvas_fans_each_polygon_into_triangles_and_keeps_its_room() {
        let mut canvas = Canvas::default();
        canvas.polygon(&[Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y], Color::WHITE);
        canvas.polygon(&[Vec2::ZERO, Vec2::X], Color::WHITE);
        canvas.disc(Vec2::ZERO, Vec2::ONE, Color::BLACK);
        assert_eq!(canvas.positions.len(), 4 + DISC_CORNERS);
        assert_eq!(canvas.indices.len(), 3 * (2 + DISC_CORNERS - 2));
        assert_eq!(&canvas.indices[..6], &[0, 1, 2, 0, 2, 3]);
        let room = canvas.positions.capacity();
        canvas.clear();
        assert!(canvas.positions.is_empty() && canvas.positions.capacity() == room);
    }

    #[test]
    fn a_turn_sign_s_chevrons_point_the_way_to_turn() {
        use crate::logic::runner::view::palette::ARROW_COLOUR;
        let gold = LinearRgba::from(ARROW_COLOUR).to_f32_array();
        // The middle of the gold corners, left or right of the sign's middle.
        let chevrons_at = |right: bool| {
            let mut canvas = Canvas::default();
            let at = Viewed {
                side: 0.0,
                ahead: 12.0,
            };
            paint_turn_sign(&mut canvas, at, right);
            let gold: Vec<f32> = canvas
                .positions
                .iter()
                .zip(&canvas.colours)
                .filter(|(_, colour)| **colour == gold)
                .map(|(position, _)| position[0])
                .collect();
            assert!(!gold.is_empty(), "the chevrons are painted");
            let middle = at.project(0.0).unwrap().0.x;
            gold.iter().sum::<f32>() / gold.len() as f32 - middle
        };
        assert!(chevrons_at(true) > 0.0);
        assert!(chevrons_at(false) < 0.0);
        assert!(
            (chevrons_at(true) + chevrons_at(false)).abs() < 1e-3,
            "mirror images"
        );
    }
}
