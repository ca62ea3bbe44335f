//! The chase view's own state, moved on once a frame apart from the drawing: the camera's
//! heading as drawn, the view's clock (which slows down for a moment at a crash), when the run
//! ended, the shake, and the sparkles and puffs of dust still in the air.

use crate::logic::runner::body::{Posture, RunnerBody};
use crate::logic::runner::view::layout::turn_toward;
use bevy_color::Color;
use bevy_math::Vec2;

/// After a crash the view's clock runs this much slower...
const SLOW_MOTION_RATE: f32 = 0.3;
/// ...for this many real seconds.
const SLOW_MOTION_S: f32 = 0.9;
/// How far the view shakes at a crash, in pixels, dying away over...
const SHAKE_PX: f32 = 18.0;
/// ...this many real seconds.
const SHAKE_S: f32 = 0.5;
/// How long a coin's sparkle lasts, in seconds of the view's clock.
pub const SPARKLE_S: f32 = 0.55;
/// How long a puff of dust lasts, in seconds of the view's clock.
pub const DUST_S: f32 = 0.45;

/// A short-lived effect where something happened on the track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    /// What it looks like.
    pub kind: EffectKind,
    /// Where, on the ground, in world metres.
    pub at: Vec2,
    /// When it started, on the view's clock.
    pub born: f32,
}

/// What an effect looks like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EffectKind {
    /// Sparks flying up from a coin or a power-up taken, in this colour.
    Sparkle(Color),
    /// A puff of dust at the runner's feet: a lane change or a landing.
    Dust,
}

/// The clocks of one frame: the game's (which stops under a menu) and the real one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameClock {
    /// Game seconds since the last frame.
    pub game_delta_s: f32,
    /// Real seconds since the last frame.
    pub real_delta_s: f32,
    /// Real seconds since the game started.
    pub real_s: f32,
}

/// The chase view's state between frames.
#[derive(Debug, Clone, Default)]
pub struct ChaseState {
    /// The camera's heading as drawn, in radians counter-clockwise from up.
    pub heading: f32,
    /// The view's own clock, in seconds.
    pub clock: f32,
    /// When the run ended: on the view's clock, and in real seconds.
    pub ended_at: Option<(f32, f32)>,
    /// Sparkles and dust still in the air.
    pub effects: Vec<Effect>,
    /// The player asked for reduced motion: a crash neither slows the clock nor shakes the view.
    pub reduced_motion: bool,
    /// The runner was changing lane, or in the air, in the last frame.
    was_changing: bool,
    was_airborne: bool,
}

impl ChaseState {
    /// A view looking along `heading` (in radians), its clock at zero: a view set up in the
    /// middle of a run starts looking where the runner runs.
    pub fn looking(heading: f32) -> ChaseState {
        ChaseState {
            heading,
            ..ChaseState::default()
        }
    }

    /// Moves the view on by one frame: the camera turns toward `heading`, the clock runs (after
    /// a crash, in slow motion for a moment, on real time since the results menu stops the
    /// game's), dust puffs up at `feet` where a lane change starts or a jump lands, and effects
    /// that have played out go.
    pub fn advance(&mut self, clock: FrameClock, body: &RunnerBody, heading: f32, feet: Vec2) {
        self.heading = turn_toward(self.heading, heading, clock.game_delta_s);
        let (delta, rate) = match self.ended_at {
            Some((_, crashed))
                if clock.real_s - crashed < SLOW_MOTION_S && !self.reduced_motion =>
            {
                (clock.real_delta_s, SLOW_MOTION_RATE)
            }
            Some(_) => (clock.real_delta_s, 1.0),
            None => (clock.game_delta_s, 1.0),
        };
        self.clock += delta * rate;
        if body.crash.is_some() && self.ended_at.is_none() {
            self.ended_at = Some((self.clock, clock.real_s));
        }
        let changing = body.change.is_some();
        let airborne = matches!(body.posture, Posture::Jumping { .. });
        let started_moving = changing && !self.was_changing;
        let landed = self.was_airborne && !airborne;
        (self.was_changing, self.was_airborne) = (changing, airborne);
        if started_moving || landed {
            self.effects.push(Effect {
                kind: EffectKind::Dust,
                at: feet,
                born: self.clock,
            });
        }
        let now = self.clock;
        self.effects
            .retain(|effect| now - effect.born < SPARKLE_S.max(DUST_S));
    }

    /// Sparks fly where a coin or a power-up was taken.
    pub fn sparkle(&mut self, at: Vec2, colour: Color) {
        self.effects.push(Effect {
            kind: EffectKind::Sparkle(colour),
            at,
            born: self.clock,
        });
    }

    /// Where the shake moves the view at real time `real_s`, in pixels: nothing until a crash,
    /// then a shake dying away (nothing at all with reduced motion).
    pub fn shake(&self, real_s: f32) -> Vec2 {
        let Some((_, crashed)) = self.ended_at.filter(|_| !self.reduced_motion) else {
            return Vec2::ZERO;
        };
        let fade = (1.0 - (real_s - crashed) / SHAKE_S).max(0.0);
        Vec2::new((real_s * 67.0).sin(), (real_s * 53.0).cos()) * SHAKE_PX * fade
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::runner::body::Crash;

    fn frame(real_s: f32) -> FrameClock {
        FrameClock {
            game_delta_s: 0.1,
            real_delta_s: 0.1,
            real_s,
        }
    }

    #[test]
    fn a_crash_slows_the_clock_for_a_moment_and_shakes_the_view_dying_away() {
        let mut state = ChaseState::default();
        let mut body = RunnerBody::new();
        state.advance(frame(1.0), &body, 0.0, Vec2::ZERO);
        assert!((state.clock - 0.1).abs() < 1e-6);
        assert_eq!(state.shake(1.0), Vec2::ZERO, "no shake before a crash");
        body.crash = Some(Crash::Wall);
        state.advance(frame(1.1), &body, 0.0, Vec2::ZERO);
        assert!((state.clock - 0.2).abs() < 1e-6);
        assert_eq!(state.ended_at, Some((state.clock, 1.1)));
        let before = state.clock;
        state.advance(frame(1.2), &body, 0.0, Vec2::ZERO);
        assert!(
            (state.clock - before - 0.1 * SLOW_MOTION_RATE).abs() < 1e-6,
            "slow motion"
        );
        assert!(state.shake(1.15).length() > 0.0);
        assert_eq!(
            state.shake(1.1 + SHAKE_S),
            Vec2::ZERO,
            "the shake has died away"
        );
        state.advance(frame(1.1 + SLOW_MOTION_S + 0.1), &body, 0.0, Vec2::ZERO);
        assert!(
            (state.clock - before - 0.03 - 0.1).abs() < 1e-5,
            "real speed again"
        );
    }

    #[test]
    fn dust_puffs_where_a_lane_change_starts_and_effects_play_out() {
        let mut state = ChaseState::default();
        let mut body = RunnerBody::new();
        let track =
            crate::logic::runner::track::Track::new(1, crate::logic::difficulty::Difficulty::Easy);
        body.command(crate::logic::runner::body::Command::Left, &track);
        assert!(body.change.is_some());
        state.advance(frame(0.0), &body, 0.0, Vec2::new(1.0, 2.0));
        assert_eq!(state.effects.len(), 1);
        assert_eq!(state.effects[0].kind, EffectKind::Dust);
        assert_eq!(state.effects[0].at, Vec2::new(1.0, 2.0));
        state.advance(frame(0.1), &body, 0.0, Vec2::ZERO);
        assert_eq!(state.effects.len(), 1, "one puff for one change");
        state.sparkle(Vec2::ONE, Color::WHITE);
        for n in 0..6 {
            state.advance(frame(0.2 + n as f32 * 0.1), &body, 0.0, Vec2::ZERO);
        }
        assert!(state.effects.is_empty(), "{:?}", state.effects);
    }

    #[test]
    fn with_reduced_motion_a_crash_neither_slows_the_clock_nor_shakes_the_view() {
        let mut state = ChaseState {
            reduced_motion: true,
            ..ChaseState::default()
        };
        let mut body = RunnerBody::new();
        state.advance(frame(1.0), &body, 0.0, Vec2::ZERO);
        body.crash = Some(Crash::Wall);
        state.advance(frame(1.1), &body, 0.0, Vec2::ZERO);
        let before = state.clock;
        state.advance(frame(1.2), &body, 0.0, Vec2::ZERO);
        assert!(
            (state.clock - before - 0.1).abs() < 1e-6,
            "the clock at full speed"
        );
        for real_s in [1.15, 1.3, 1.6] {
            assert_eq!(state.shake(real_s), Vec2::ZERO);
        }
        // Turned off again, the same moment shakes.
        state.reduced_motion = false;
        assert!(state.shake(1.15).length() > 0.0);
    }
}
