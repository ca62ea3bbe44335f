//! Power-ups: a coin magnet, a shield and a score multiplier. They are placed on the track from
//! its own random stream, only in lanes a runner can be alive in, and a runner that takes one
//! holds it for a few seconds.

use super::timing::{CLEAR_START_SEGMENTS, LANES};
use super::track::{LaneContent, Segment};
use crate::logic::seed::{Stream, stream_rng};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Seconds a coin magnet lasts: every coin line of a segment is taken, whatever the lane.
pub const MAGNET_S: f64 = 10.0;
/// Seconds a shield lasts unless a hit uses it first: it absorbs one wall, log or beam, never
/// a fall at a junction.
pub const SHIELD_S: f64 = 15.0;
/// Seconds a score multiplier lasts.
pub const MULTIPLIER_S: f64 = 10.0;
/// While a multiplier is held, metres run and coin lines taken count this many times.
pub const SCORE_MULTIPLIER: u32 = 2;
/// No power-up comes before this segment: the first stretch teaches the obstacles.
pub const FIRST_POWERUP_SEGMENT: u64 = CLEAR_START_SEGMENTS + 14;
/// Fewest segments from one power-up to the next.
pub const MIN_POWERUP_SPACING: u64 = 20;
/// The chance that a segment which may hold a power-up does.
pub const POWERUP_CHANCE: f64 = 0.1;

/// A power-up's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PowerUp {
    /// Takes the coins of every lane.
    Magnet,
    /// Absorbs one hit.
    Shield,
    /// Doubles metres and coins.
    Multiplier,
}

impl PowerUp {
    /// Every kind, in a fixed order (the order of [`ActivePowerUps`]' timers).
    pub const ALL: [PowerUp; 3] = [PowerUp::Magnet, PowerUp::Shield, PowerUp::Multiplier];

    /// The lowercase name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            PowerUp::Magnet => "magnet",
            PowerUp::Shield => "shield",
            PowerUp::Multiplier => "multiplier",
        }
    }

    /// The name shown to the player.
    pub const fn label(self) -> &'static str {
        match self {
            PowerUp::Magnet => "Magnet",
            PowerUp::Shield => "Shield",
            PowerUp::Multiplier => "Score x2",
        }
    }

    /// Seconds it lasts once taken.
    pub const fn duration_s(self) -> f64 {
        match self {
            PowerUp::Magnet => MAGNET_S,
            PowerUp::Shield => SHIELD_S,
            PowerUp::Multiplier => MULTIPLIER_S,
        }
    }

    /// The preview symbol: `M` magnet, `S` shield, `x` multiplier.
    pub const fn symbol(self) -> char {
        match self {
            PowerUp::Magnet => 'M',
            PowerUp::Shield => 'S',
            PowerUp::Multiplier => 'x',
        }
    }

    /// Its place in [`PowerUp::ALL`], for counts kept per kind.
    pub const fn slot(self) -> usize {
        match self {
            PowerUp::Magnet => 0,
            PowerUp::Shield => 1,
            PowerUp::Multiplier => 2,
        }
    }
}

/// Puts power-ups on certified segments. Every segment takes the same three draws whether or not
/// it gets one, so where power-ups stand depends on the seed and the segment alone.
#[derive(Debug, Clone)]
pub struct PowerUpPlacer {
    draws: ChaCha8Rng,
    last: Option<u64>,
}

impl PowerUpPlacer {
    /// A placer for a seed's track.
    pub fn new(seed: u64) -> PowerUpPlacer {
        PowerUpPlacer {
            draws: stream_rng(seed, Stream::PowerUps),
            last: None,
        }
    }

    /// Perhaps puts a power-up in an empty lane of a certified straight `segment`, chosen among
    /// the lanes in `alive` (where a runner can be alive at its contact point, so some route
    /// takes it, and the certifier keeps a way on from there). Returns the kind placed.
    pub fn place(&mut self, segment: &mut Segment, alive: [bool; LANES]) -> Option<PowerUp> {
        let [chance, lane_draw, kind_draw]: [f64; 3] = std::array::from_fn(|_| self.draws.random());
        let spaced = self
            .last
            .is_none_or(|last| segment.index >= last + MIN_POWERUP_SPACING);
        if segment.kind.is_junction()
            || segment.index < FIRST_POWERUP_SEGMENT
            || !spaced
            || chance >= POWERUP_CHANCE
        {
            return None;
        }
        let open: Vec<usize> = (0..LANES)
            .filter(|&lane| alive[lane] && segment.lanes[lane] == LaneContent::Empty)
            .collect();
        let lane = *open.get(pick(lane_draw, open.len())?)?;
        let kind = PowerUp::ALL[pick(kind_draw, PowerUp::ALL.len())?];
        segment.lanes[lane] = LaneContent::PowerUp(kind);
        self.last = Some(segment.index);
        Some(kind)
    }
}

/// The index a draw in [0, 1) picks among `count` choices, if there are any.
fn pick(draw: f64, count: usize) -> Option<usize> {
    (count > 0).then(|| ((draw * count as f64) as usize).min(count - 1))
}

/// Seconds left on each power-up a runner holds.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ActivePowerUps {
    left_s: [f64; 3],
}

impl ActivePowerUps {
    /// None held.
    pub const fn new() -> ActivePowerUps {
        ActivePowerUps { left_s: [0.0; 3] }
    }

    /// Whether `kind` is held now.
    pub fn is_active(&self, kind: PowerUp) -> bool {
        self.left_s[kind.slot()] > 0.0
    }

    /// Seconds left on `kind` (0 when not held).
    pub fn left_s(&self, kind: PowerUp) -> f64 {
        self.left_s[kind.slot()]
    }

    /// Takes `kind`: its full time again, even if it was already held.
    pub fn grant(&mut self, kind: PowerUp) {
        self.left_s[kind.slot()] = kind.duration_s();
    }

    /// Ends `kind` at once (a shield that absorbed a hit).
    pub fn use_up(&mut self, kind: PowerUp) {
        self.left_s[kind.slot()] = 0.0;
    }

    /// Seconds of `step_s` during which `kind` was held, then runs every timer down.
    pub fn run(&mut self, step_s: f64) -> [f64; 3] {
        let held = self.left_s.map(|left| left.min(step_s).max(0.0));
        for left in &mut self.left_s {
            *left = (*left - step_s).max(0.0);
        }
        held
    }

    /// Seconds of the last [`ActivePowerUps::run`] result during which `kind` was held.
    pub fn held_in(held: [f64; 3], kind: PowerUp) -> f64 {
        held[kind.slot()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::runner::track::SegmentKind;

    fn open_segment(index: u64) -> Segment {
        Segment {
            index,
            kind: SegmentKind::Straight,
            lanes: [LaneContent::Empty; LANES],
        }
    }

    #[test]
    fn power_ups_stand_only_in_alive_empty_lanes_spaced_apart() {
        let mut placer = PowerUpPlacer::new(3);
        let alive = [true, false, true];
        let mut placed = Vec::new();
        for index in 0..20_000 {
            let mut segment = open_segment(index);
            segment.lanes[2] = LaneContent::Coins;
            if let Some(kind) = placer.place(&mut segment, alive) {
                assert_eq!(segment.lanes[0], LaneContent::PowerUp(kind), "{index}");
                assert_eq!(segment.lanes[1..], [LaneContent::Empty, LaneContent::Coins]);
                placed.push((index, kind));
            }
        }
        assert!(placed[0].0 >= FIRST_POWERUP_SEGMENT);
        for pair in placed.windows(2) {
            assert!(pair[1].0 - pair[0].0 >= MIN_POWERUP_SPACING);
        }
        for kind in PowerUp::ALL {
            let share = placed.iter().filter(|p| p.1 == kind).count() as f64 / placed.len() as f64;
            assert!((0.25..0.42).contains(&share), "{kind:?}: {share}");
        }
        // About one segment in MIN_POWERUP_SPACING + 1 / POWERUP_CHANCE.
        assert!((500..800).contains(&placed.len()), "{}", placed.len());
    }

    #[test]
    fn no_power_up_on_a_junction_or_without_an_open_lane() {
        let mut placer = PowerUpPlacer::new(3);
        for index in 0..5_000 {
            let mut junction = open_segment(index);
            junction.kind = SegmentKind::TurnLeft;
            assert_eq!(placer.place(&mut junction, [true; LANES]), None);
            let mut closed = open_segment(index);
            assert_eq!(placer.place(&mut closed, [false; LANES]), None);
        }
    }

    #[test]
    fn timers_run_down_and_report_the_time_held() {
        let mut active = ActivePowerUps::default();
        active.grant(PowerUp::Multiplier);
        let held = active.run(MULTIPLIER_S - 0.25);
        assert_eq!(
            ActivePowerUps::held_in(held, PowerUp::Multiplier),
            MULTIPLIER_S - 0.25
        );
        assert_eq!(ActivePowerUps::held_in(held, PowerUp::Magnet), 0.0);
        let held = active.run(1.0);
        assert_eq!(ActivePowerUps::held_in(held, PowerUp::Multiplier), 0.25);
        assert!(!active.is_active(PowerUp::Multiplier));
        active.grant(PowerUp::Shield);
        active.use_up(PowerUp::Shield);
        assert_eq!(active.left_s(PowerUp::Shield), 0.0);
    }
}
