//! The runner's track: segments made from Perlin noise, certified survivable as they are made,
//! and kept in a bounded look-ahead buffer.

use super::powerups::{PowerUp, PowerUpPlacer};
use super::timing::{CLEAR_START_SEGMENTS, LANES, Timing, contact_distance_m};
use crate::logic::difficulty::Difficulty;
use crate::logic::seed::{Stream, stream_rng};
use noise::{Fbm, MultiFractal, NoiseFn, Perlin};
use rand::{Rng, RngExt};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// How many upcoming segments the track keeps (the seed's buffer of 50).
pub const BUFFER_SEGMENTS: usize = 50;
/// Track-direction noise: lattice units per segment. Low, so turns come in stretches.
const KIND_FREQUENCY: f64 = 0.07;
/// The y coordinate of the track-direction noise. With the default lacunarity (2π/3) neither it
/// nor its octave multiples are whole numbers, so no sample falls on a lattice point.
const KIND_Y: f64 = 0.2917;
/// Track-direction noise beyond plus or minus this makes a junction (the seed's 0.3).
const KIND_THRESHOLD: f64 = 0.3;
/// Octaves of the track-direction noise.
const KIND_OCTAVES: usize = 2;
/// Fewest segments from one junction to the next, so turns never pile up on screen.
const MIN_JUNCTION_SPACING: u64 = 12;
/// Lane noise: lattice units per segment (the seed's 0.1 per metre).
const LANE_FREQUENCY: f64 = 1.0;
/// Lane noise is sampled half a lattice unit off the x lattice...
const LANE_X_OFFSET: f64 = 0.5;
/// ...and each lane on its own row, far enough apart to be unrelated and never on a whole y.
const LANE_ROW_SPACING: f64 = 37.25;
/// The y coordinate of lane 0's row.
const LANE_ROW_OFFSET: f64 = 0.37;
/// Lane noise above this holds a line of coins.
const COIN_THRESHOLD: f64 = 0.42;
/// Obstacle kind draw: below this a Low obstacle (the seed's 50 %)...
const LOW_SHARE: f64 = 0.5;
/// ...below this a High one (30 %), else a Block (20 %).
const LOW_OR_HIGH_SHARE: f64 = 0.8;

/// What one lane of a segment holds at its contact point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LaneContent {
    /// Nothing.
    Empty,
    /// A line of coins, worth 10 points.
    Coins,
    /// A root or log across the lane: jump over it.
    Low,
    /// A beam or arch: slide under it.
    High,
    /// A stone wall: be in another lane.
    Block,
    /// A power-up to take by running through it.
    PowerUp(PowerUp),
}

impl LaneContent {
    /// Every content, in a fixed order.
    pub const ALL: [LaneContent; 8] = [
        LaneContent::Empty,
        LaneContent::Coins,
        LaneContent::Low,
        LaneContent::High,
        LaneContent::Block,
        LaneContent::PowerUp(PowerUp::Magnet),
        LaneContent::PowerUp(PowerUp::Shield),
        LaneContent::PowerUp(PowerUp::Multiplier),
    ];

    /// Whether a runner in this lane can survive it with the right action.
    pub const fn passable(self) -> bool {
        !matches!(self, LaneContent::Block)
    }

    /// Whether this is an obstacle.
    pub const fn is_obstacle(self) -> bool {
        matches!(
            self,
            LaneContent::Low | LaneContent::High | LaneContent::Block
        )
    }

    /// The lowercase name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            LaneContent::Empty => "empty",
            LaneContent::Coins => "coins",
            LaneContent::Low => "low",
            LaneContent::High => "high",
            LaneContent::Block => "block",
            LaneContent::PowerUp(kind) => kind.name(),
        }
    }

    /// The seed's preview symbol: `.` empty, `$` coins, `^` low, `_` high, `#` block, and a
    /// power-up's own letter.
    pub const fn symbol(self) -> char {
        match self {
            LaneContent::Empty => '.',
            LaneContent::Coins => '$',
            LaneContent::Low => '^',
            LaneContent::High => '_',
            LaneContent::Block => '#',
            LaneContent::PowerUp(kind) => kind.symbol(),
        }
    }
}

/// Which way the track goes at the end of a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SegmentKind {
    /// Straight on.
    Straight,
    /// A junction turning left at the contact point.
    TurnLeft,
    /// A junction turning right at the contact point.
    TurnRight,
}

impl SegmentKind {
    /// Whether the runner must turn here.
    pub const fn is_junction(self) -> bool {
        !matches!(self, SegmentKind::Straight)
    }

    /// The name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            SegmentKind::Straight => "straight",
            SegmentKind::TurnLeft => "turn_left",
            SegmentKind::TurnRight => "turn_right",
        }
    }
}

/// Ten metres of track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Segment {
    /// Position in the run: segment 0 starts at distance 0.
    pub index: u64,
    /// Straight or a junction.
    pub kind: SegmentKind,
    /// What each lane holds, left to right.
    pub lanes: [LaneContent; LANES],
}

impl Segment {
    /// The lane holding a power-up and its kind, if the segment holds one.
    pub fn powerup(&self) -> Option<(u8, PowerUp)> {
        (0u8..)
            .zip(self.lanes)
            .find_map(|(lane, content)| match content {
                LaneContent::PowerUp(kind) => Some((lane, kind)),
                _ => None,
            })
    }

    /// The seed's preview line: the three lane symbols and the kind, e.g. `. ^ $  straight`.
    pub fn preview_line(&self) -> String {
        let [a, b, c] = self.lanes.map(LaneContent::symbol);
        format!("{a} {b} {c}  {}", self.kind.name())
    }
}

/// Makes segments from noise, in order. Deterministic: the same seed and difficulty give the
/// same segments.
#[derive(Debug, Clone)]
pub struct TrackGenerator {
    timing: Timing,
    kind_noise: Fbm<Perlin>,
    lane_noise: Perlin,
    obstacle_draws: ChaCha8Rng,
    next_index: u64,
    last_junction: Option<u64>,
    /// Set for a scripted track: these layouts come first, then empty straight segments.
    script: Option<VecDeque<Layout>>,
}

/// A segment's kind and lane contents, without its place in the run.
pub type Layout = (SegmentKind, [LaneContent; LANES]);

impl TrackGenerator {
    /// A generator for a seed at a difficulty.
    pub fn new(seed: u64, difficulty: Difficulty) -> TrackGenerator {
        let mut noise_seeds = stream_rng(seed, Stream::Track);
        let kind_noise = Fbm::<Perlin>::new(noise_seeds.next_u32())
            .set_octaves(KIND_OCTAVES)
            .set_persistence(0.5);
        TrackGenerator {
            timing: Timing::for_difficulty(difficulty),
            kind_noise,
            lane_noise: Perlin::new(noise_seeds.next_u32()),
            obstacle_draws: stream_rng(seed, Stream::Obstacles),
            next_index: 0,
            last_junction: None,
            script: None,
        }
    }

    /// A generator that gives `layouts` in order and then empty straight segments: for tests
    /// and demonstrations that need a known obstacle in a known place.
    pub fn scripted(difficulty: Difficulty, layouts: impl IntoIterator<Item = Layout>) -> Self {
        let mut generator = TrackGenerator::new(0, difficulty);
        generator.script = Some(layouts.into_iter().collect());
        generator
    }

    /// The timing model of the generator's difficulty.
    pub fn timing(&self) -> &Timing {
        &self.timing
    }

    /// The next segment, uncertified.
    pub fn next_segment(&mut self) -> Segment {
        let index = self.next_index;
        self.next_index += 1;
        if let Some(script) = &mut self.script {
            let (kind, lanes) = script
                .pop_front()
                .unwrap_or((SegmentKind::Straight, [LaneContent::Empty; LANES]));
            return Segment { index, kind, lanes };
        }
        let kind = self.kind_at(index);
        let lanes = if index < CLEAR_START_SEGMENTS || kind.is_junction() {
            [LaneContent::Empty; LANES]
        } else {
            let threshold = self.timing.obstacle_threshold_at(contact_distance_m(index));
            std::array::from_fn(|lane| self.lane_content(index, lane, threshold))
        };
        Segment { index, kind, lanes }
    }

    fn kind_at(&mut self, index: u64) -> SegmentKind {
        let spaced = self
            .last_junction
            .is_none_or(|last| index >= last + MIN_JUNCTION_SPACING);
        if index < CLEAR_START_SEGMENTS || !spaced {
            return SegmentKind::Straight;
        }
        let value = self
            .kind_noise
            .get(kind_noise_point(index, KIND_FREQUENCY, KIND_Y));
        let kind = if value < -KIND_THRESHOLD {
            SegmentKind::TurnLeft
        } else if value > KIND_THRESHOLD {
            SegmentKind::TurnRight
        } else {
            SegmentKind::Straight
        };
        if kind.is_junction() {
            self.last_junction = Some(index);
        }
        kind
    }

    fn lane_content(&mut self, index: u64, lane: usize, threshold: f64) -> LaneContent {
        let value = self.lane_noise.get(lane_noise_point(index, lane));
        if value < threshold {
            let draw: f64 = self.obstacle_draws.random();
            if draw < LOW_SHARE {
                LaneContent::Low
            } else if draw < LOW_OR_HIGH_SHARE {
                LaneContent::High
            } else {
                LaneContent::Block
            }
        } else if value > COIN_THRESHOLD {
            LaneContent::Coins
        } else {
            LaneContent::Empty
        }
    }
}

/// Where the track-direction noise is sampled for a segment.
fn kind_noise_point(index: u64, frequency: f64, y: f64) -> [f64; 2] {
    [index as f64 * frequency, y]
}

/// Where the lane noise is sampled for a lane of a segment: never on a lattice point, because
/// Perlin noise is 0 there (the seed sampled whole numbers and got only zeros).
fn lane_noise_point(index: u64, lane: usize) -> [f64; 2] {
    [
        index as f64 * LANE_FREQUENCY + LANE_X_OFFSET,
        lane as f64 * LANE_ROW_SPACING + LANE_ROW_OFFSET,
    ]
}

/// Checks each new segment against the timing model and repairs it when needed, so that from
/// every lane the runner can be alive in there is a way on.
#[derive(Debug, Clone)]
pub struct Certifier {
    timing: Timing,
    /// Lanes in which a runner can be alive at the last segment's contact point.
    alive: [bool; LANES],
    repairs: u64,
}

impl Certifier {
    /// A certifier for a run that starts in the middle lane.
    pub fn new(timing: Timing) -> Certifier {
        Certifier {
            timing,
            alive: [false, true, false],
            repairs: 0,
        }
    }

    /// Segments changed so far.
    pub fn repairs(&self) -> u64 {
        self.repairs
    }

    /// Lanes a runner can be alive in at the last certified contact point.
    pub fn alive_lanes(&self) -> [bool; LANES] {
        self.alive
    }

    /// Makes `segment` survivable from every lane alive before it, then records which lanes are
    /// alive at it. A lane from which no passable lane is in reach must hold a wall (else the
    /// runner could stay in it), and the repair turns that wall into a log to jump: the same
    /// segment always gets the same repair. Returns whether the segment was changed.
    pub fn certify(&mut self, segment: &mut Segment) -> bool {
        let reach = usize::from(
            self.timing
                .lane_moves_into(segment.index, segment.kind.is_junction()),
        );
        let reachable = |from: usize| from.saturating_sub(reach)..=(from + reach).min(LANES - 1);
        let alive_before = (0..LANES).filter(|&lane| self.alive[lane]);
        let mut repaired = false;
        for from in alive_before.clone() {
            if !reachable(from).any(|to| segment.lanes[to].passable()) {
                segment.lanes[from] = LaneContent::Low;
                repaired = true;
            }
        }
        // Computed after every repair, so a lane a repair opened counts from every lane.
        let mut next_alive = [false; LANES];
        for from in alive_before {
            for to in reachable(from) {
                next_alive[to] |= segment.lanes[to].passable();
            }
        }
        self.alive = next_alive;
        self.repairs += u64::from(repaired);
        repaired
    }
}

/// Makes a track's segments in order: generated, certified, then given their power-ups.
#[derive(Debug, Clone)]
pub struct CertifiedSegments {
    generator: TrackGenerator,
    certifier: Certifier,
    /// `None` on a scripted track, whose layouts say where power-ups are.
    powerups: Option<PowerUpPlacer>,
}

impl CertifiedSegments {
    /// The segments of a seed's track at a difficulty.
    pub fn new(seed: u64, difficulty: Difficulty) -> CertifiedSegments {
        let generator = TrackGenerator::new(seed, difficulty);
        CertifiedSegments {
            certifier: Certifier::new(*generator.timing()),
            generator,
            powerups: Some(PowerUpPlacer::new(seed)),
        }
    }

    /// The given layouts (certified like any other), then empty straight segments.
    pub fn scripted(difficulty: Difficulty, layouts: impl IntoIterator<Item = Layout>) -> Self {
        let generator = TrackGenerator::scripted(difficulty, layouts);
        CertifiedSegments {
            certifier: Certifier::new(*generator.timing()),
            generator,
            powerups: None,
        }
    }

    /// The timing model of the track's difficulty.
    pub fn timing(&self) -> &Timing {
        self.generator.timing()
    }

    /// Segments the certifier changed so far.
    pub fn repairs(&self) -> u64 {
        self.certifier.repairs()
    }
}

impl Iterator for CertifiedSegments {
    type Item = Segment;

    fn next(&mut self) -> Option<Segment> {
        let mut segment = self.generator.next_segment();
        self.certifier.certify(&mut segment);
        if let Some(placer) = &mut self.powerups {
            placer.place(&mut segment, self.certifier.alive_lanes());
        }
        Some(segment)
    }
}

/// The upcoming track: the next [`BUFFER_SEGMENTS`] certified segments, the first being the one
/// whose contact point the runner reaches next. Memory stays the same however long the run.
#[derive(Debug, Clone)]
pub struct Track {
    source: CertifiedSegments,
    upcoming: VecDeque<Segment>,
    max_buffered: usize,
}

impl Track {
    /// A full buffer of certified segments for a seed and difficulty.
    pub fn new(seed: u64, difficulty: Difficulty) -> Track {
        Track::from_source(CertifiedSegments::new(seed, difficulty))
    }

    /// A track of the given layouts (certified like any other), then empty straight segments.
    pub fn scripted(difficulty: Difficulty, layouts: impl IntoIterator<Item = Layout>) -> Track {
        Track::from_source(CertifiedSegments::scripted(difficulty, layouts))
    }

    fn from_source(source: CertifiedSegments) -> Track {
        let mut track = Track {
            source,
            upcoming: VecDeque::with_capacity(BUFFER_SEGMENTS),
            max_buffered: 0,
        };
        while track.upcoming.len() < BUFFER_SEGMENTS {
            track.append();
        }
        track
    }

    fn append(&mut self) {
        let segment = self.source.next().expect("the segments never end");
        self.upcoming.push_back(segment);
        self.max_buffered = self.max_buffered.max(self.upcoming.len());
    }

    /// The timing model of this track's difficulty.
    pub fn timing(&self) -> &Timing {
        self.source.timing()
    }

    /// The segment whose contact point comes next.
    pub fn next(&self) -> &Segment {
        self.upcoming.front().expect("the buffer is never empty")
    }

    /// The upcoming segments in order, the next one first.
    pub fn upcoming(&self) -> impl ExactSizeIterator<Item = &Segment> + Clone {
        self.upcoming.iter()
    }

    /// Drops the segment just passed and makes one more at the far end.
    pub fn advance(&mut self) -> Segment {
        let passed = self
            .upcoming
            .pop_front()
            .expect("the buffer is never empty");
        self.append();
        passed
    }

    /// Segments the certifier changed so far.
    pub fn repairs(&self) -> u64 {
        self.source.repairs()
    }

    /// The most segments ever held at once.
    pub fn max_buffered(&self) -> usize {
        self.max_buffered
    }
}

/// The first `count` certified segments of a seed's track, without the buffer (for previews,
/// dumps and tests). Returns the segments and the number of repairs among them.
pub fn certified_segments(seed: u64, difficulty: Difficulty, count: usize) -> (Vec<Segment>, u64) {
    let mut source = CertifiedSegments::new(seed, difficulty);
    let segments = source.by_ref().take(count).collect();
    (segments, source.repairs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_lattice(value: f64) -> bool {
        value.fract() == 0.0
    }

    #[test]
    fn noise_is_never_sampled_on_a_lattice_point() {
        let lacunarity = Fbm::<Perlin>::DEFAULT_LACUNARITY;
        for index in 0..100_000 {
            for octave in 0..KIND_OCTAVES as i32 {
                let scale = lacunarity.powi(octave);
                let [x, y] = kind_noise_point(index, KIND_FREQUENCY, KIND_Y);
                assert!(!(is_lattice(x * scale) && is_lattice(y * scale)));
            }
            for lane in 0..LANES {
                let [_, y] = lane_noise_point(index, lane);
                assert!(!is_lattice(y), "lane {lane} row is on the lattice");
            }
        }
    }

    #[test]
    fn the_start_is_clear_and_junctions_carry_nothing() {
        for difficulty in Difficulty::ALL {
            let (segments, _) = certified_segments(7, difficulty, 5_000);
            for segment in &segments[..CLEAR_START_SEGMENTS as usize] {
                assert_eq!(segment.kind, SegmentKind::Straight);
                assert_eq!(segment.lanes, [LaneContent::Empty; LANES]);
            }
            let junctions: Vec<_> = segments.iter().filter(|s| s.kind.is_junction()).collect();
            assert!(
                junctions.len() > 50,
                "too few junctions: {}",
                junctions.len()
            );
            for junction in &junctions {
                assert_eq!(junction.lanes, [LaneContent::Empty; LANES]);
            }
            for pair in junctions.windows(2) {
                assert!(pair[1].index - pair[0].index >= MIN_JUNCTION_SPACING);
            }
        }
    }

    #[test]
    fn every_content_and_both_turns_appear() {
        let (segments, _) = certified_segments(11, Difficulty::Normal, 5_000);
        for content in LaneContent::ALL {
            assert!(
                segments.iter().any(|s| s.lanes.contains(&content)),
                "{content:?}"
            );
        }
        for kind in [SegmentKind::TurnLeft, SegmentKind::TurnRight] {
            assert!(segments.iter().any(|s| s.kind == kind), "{kind:?}");
        }
    }

    #[test]
    fn obstacles_grow_denser_with_distance() {
        // The first 1000 m ramp up; after them the density stays at its full value.
        let (mut early, mut late) = (0, 0);
        for seed in 0..20 {
            let (segments, _) = certified_segments(seed, Difficulty::Normal, 300);
            let obstacles = |range: std::ops::Range<usize>| {
                segments[range]
                    .iter()
                    .flat_map(|s| s.lanes)
                    .filter(|c| c.is_obstacle())
                    .count()
            };
            early += obstacles(0..100);
            late += obstacles(200..300);
        }
        assert!(early * 3 < late * 2, "early {early}, late {late}");
    }

    #[test]
    fn the_buffer_stays_bounded() {
        let mut track = Track::new(5, Difficulty::Hard);
        for expected in 0..10_000 {
            assert_eq!(track.next().index, expected);
            track.advance();
            assert_eq!(track.upcoming().len(), BUFFER_SEGMENTS);
        }
        assert_eq!(track.max_buffered(), BUFFER_SEGMENTS);
    }

    #[test]
    fn certifying_repairs_a_row_of_walls() {
        let timing = Timing::for_difficulty(Difficulty::Normal);
        let mut certifier = Certifier::new(timing);
        let mut walls = Segment {
            index: 10,
            kind: SegmentKind::Straight,
            lanes: [LaneContent::Block; LANES],
        };
        assert!(certifier.certify(&mut walls));
        assert_eq!(
            walls.lanes,
            [LaneContent::Block, LaneContent::Low, LaneContent::Block]
        );
        assert_eq!(certifier.repairs(), 1);
        assert_eq!(certifier.alive_lanes(), [false, true, false]);
    }
}
