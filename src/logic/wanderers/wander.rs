//! Tethered wandering (design §4.4, seed 002): each NPC steers toward a target that Perlin noise
//! moves around its home, so it roams naturally yet never leaves home behind.
//!
//! NPCs are stored as parallel arrays, so one step over a hundred thousand of them streams
//! through memory.

use crate::logic::ranges::clamp_into;
use crate::logic::seed::{Stream, stream_rng};
use noise::{NoiseFn, Perlin};
use rand::{Rng, RngExt};
use std::ops::RangeInclusive;

/// The range of each NPC's own noise offsets; wide, so two NPCs never share a stretch of noise.
const NOISE_OFFSET_RANGE: f64 = 10_000.0;

/// How NPCs wander. Distances are in world units (cells), times in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WanderParams {
    /// How far the target may stray from home.
    pub wander_max_distance: f32,
    /// How fast the noise moves the target: noise time advances by `dt * noise_speed`.
    pub noise_speed: f32,
    /// Top speed toward the target, in units per second.
    pub movement_strength: f32,
    /// Inside this distance of the target the NPC slows in proportion, so it settles instead of
    /// jittering around it.
    pub arrive_radius: f32,
    /// The target is recomputed every this many steps (1 = every step), NPCs staggered.
    pub refresh_every: u32,
}

impl Default for WanderParams {
    fn default() -> WanderParams {
        WanderParams {
            wander_max_distance: 8.0,
            noise_speed: 0.25,
            movement_strength: 3.0,
            arrive_radius: 1.5,
            refresh_every: 1,
        }
    }
}

/// How far a target may stray from home, in cells.
pub const WANDER_DISTANCE: RangeInclusive<f32> = 0.5..=30.0;
/// How fast the noise moves targets (noise time per second).
pub const NOISE_SPEED: RangeInclusive<f32> = 0.01..=2.0;
/// Top speed, in cells per second.
pub const MOVEMENT_STRENGTH: RangeInclusive<f32> = 0.1..=20.0;
/// Slowing distance before a target, in cells.
pub const ARRIVE_RADIUS: RangeInclusive<f32> = 0.1..=5.0;
/// Steps between target refreshes.
pub const REFRESH_EVERY: RangeInclusive<u32> = 1..=30;

impl WanderParams {
    /// Brings every value into its range ([`WANDER_DISTANCE`] and the others; a value that is not
    /// a number takes the default) and says what was changed, one message per value. The
    /// settings sliders offer exactly these ranges.
    pub fn sanitize(&mut self) -> Vec<String> {
        let d = WanderParams::default();
        [
            clamp_into(
                &mut self.wander_max_distance,
                &WANDER_DISTANCE,
                d.wander_max_distance,
                "wander_max_distance",
            ),
            clamp_into(
                &mut self.noise_speed,
                &NOISE_SPEED,
                d.noise_speed,
                "noise_speed",
            ),
            clamp_into(
                &mut self.movement_strength,
                &MOVEMENT_STRENGTH,
                d.movement_strength,
                "movement_strength",
            ),
            clamp_into(
                &mut self.arrive_radius,
                &ARRIVE_RADIUS,
                d.arrive_radius,
                "arrive_radius",
            ),
            clamp_into(
                &mut self.refresh_every,
                &REFRESH_EVERY,
                d.refresh_every,
                "refresh_every",
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// A crowd of wandering NPCs.
#[derive(Debug, Clone)]
pub struct Wanderers {
    noise: Perlin,
    /// Noise time, shared by all: each NPC's own offsets make its noise its own.
    noise_time: f64,
    steps: u64,
    /// Homes (spawn points).
    pub home: Vec<[f32; 2]>,
    /// Current positions.
    pub position: Vec<[f32; 2]>,
    /// Current targets.
    pub target: Vec<[f32; 2]>,
    /// Each NPC's own noise offsets for x and y.
    pub noise_offset: Vec<[f64; 2]>,
    /// Speed in the last step, in units per second.
    pub speed: Vec<f32>,
}

impl Wanderers {
    /// NPCs at the given homes, each with its own noise offsets drawn from the seed's
    /// Wanderers stream. They start at home with the target at home.
    pub fn new(seed: u64, homes: Vec<[f32; 2]>) -> Wanderers {
        let mut rng = stream_rng(seed, Stream::Wanderers);
        let noise = Perlin::new(rng.next_u32());
        let noise_offset = homes
            .iter()
            .map(|_| {
                [
                    rng.random_range(0.0..NOISE_OFFSET_RANGE),
                    rng.random_range(0.0..NOISE_OFFSET_RANGE),
                ]
            })
            .collect();
        Wanderers {
            noise,
            noise_time: 0.0,
            steps: 0,
            position: homes.clone(),
            target: homes.clone(),
            speed: vec![0.0; homes.len()],
            home: homes,
            noise_offset,
        }
    }

    /// `count` NPCs with homes drawn uniformly in a `width` x `height` area from the seed.
    pub fn scattered(seed: u64, count: usize, width: f32, height: f32) -> Wanderers {
        let mut rng = stream_rng(seed, Stream::ScatteredHomes);
        let homes = (0..count)
            .map(|_| [rng.random_range(0.0..width), rng.random_range(0.0..height)])
            .collect();
        Wanderers::new(seed, homes)
    }

    /// Number of NPCs.
    pub fn len(&self) -> usize {
        self.home.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.home.is_empty()
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The noise time now, shared by all.
    pub fn noise_time(&self) -> f64 {
        self.noise_time
    }

    /// The target of NPC `i` at the current noise time: home plus the two noise values scaled
    /// by the wander distance, pulled in to that distance if the pair of values reaches past it.
    pub fn target_of(&self, i: usize, params: &WanderParams) -> [f32; 2] {
        let [hx, hy] = self.home[i];
        let [sx, sy] = self.noise_offset[i];
        let t = self.noise_time;
        let nx = self.noise.get([f64::from(hx) + sx + t]) as f32;
        let ny = self.noise.get([f64::from(hy) + sy + t]) as f32;
        let length = (nx * nx + ny * ny).sqrt();
        // Each value is within [-1, 1]; together they could reach sqrt(2): keep the disk.
        let scale = params.wander_max_distance / length.max(1.0);
        [hx + nx * scale, hy + ny * scale]
    }

    /// One step of `dt` seconds for every NPC: refresh due targets, then steer toward them.
    pub fn step(&mut self, params: &WanderParams, dt: f32) {
        let every = self.begin_step(params, dt);
        for i in 0..self.len() {
            self.refresh_if_due(i, every, params);
            let (position, speed) = steer(self.position[i], self.target[i], params, dt);
            self.position[i] = position;
            self.speed[i] = speed;
        }
        self.end_step();
    }

    /// Moves the noise time on for a step whose moves the caller makes itself (around
    /// obstacles); returns how many steps apart targets are refreshed. [`Wanderers::end_step`]
    /// ends it.
    pub fn begin_step(&mut self, params: &WanderParams, dt: f32) -> u64 {
        self.noise_time += f64::from(dt) * f64::from(params.noise_speed);
        u64::from(params.refresh_every.max(1))
    }

    /// Whether NPC `i`'s target is recomputed in this step, refreshing every `every` steps:
    /// NPCs are staggered, so a crowd's work is spread evenly over the steps.
    pub fn is_due(&self, i: usize, every: u64) -> bool {
        (self.steps + i as u64).is_multiple_of(every)
    }

    /// Ends a step begun with [`Wanderers::begin_step`].
    pub fn end_step(&mut self) {
        self.steps += 1;
    }

    /// Recomputes NPC `i`'s target if this step is its turn.
    fn refresh_if_due(&mut self, i: usize, every: u64, params: &WanderParams) {
        if self.is_due(i, every) {
            self.target[i] = self.target_of(i, params);
        }
    }
}

/// What a run of tethered wandering shows: how far NPCs strayed from home, how fast they moved,
/// and how differently they moved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WanderSummary {
    /// The farthest any NPC stood from its home after a step, in cells.
    pub max_distance_from_home: f32,
    /// Mean speed over every NPC and step, in cells per second (0 without steps).
    pub mean_speed: f64,
    /// Each NPC is compared with the next in the crowd by the mean distance between their offsets
    /// from home; this is the smallest such mean (`None` with fewer than two NPCs or no steps).
    pub min_pairwise_path_difference: Option<f64>,
}

/// Tallies a run step by step into a [`WanderSummary`]: the one measure of the open plane and of
/// the sandbox.
#[derive(Debug, Clone, Default)]
pub struct WanderTally {
    steps: u64,
    samples: u64,
    farthest: f32,
    speed_sum: f64,
    /// Per NPC but the last: the summed distance between its offset from home and the next one's.
    pair_difference: Vec<f64>,
    offsets: Vec<[f32; 2]>,
}

impl WanderTally {
    /// Records the crowd after one step.
    pub fn record(&mut self, home: &[[f32; 2]], position: &[[f32; 2]], speed: &[f32]) {
        self.steps += 1;
        self.samples += speed.len() as u64;
        self.offsets.clear();
        self.offsets.extend(
            position
                .iter()
                .zip(home)
                .map(|(&[px, py], &[hx, hy])| [px - hx, py - hy]),
        );
        for (&[dx, dy], &speed) in self.offsets.iter().zip(speed) {
            self.farthest = self.farthest.max((dx * dx + dy * dy).sqrt());
            self.speed_sum += f64::from(speed);
        }
        self.pair_difference
            .resize(self.offsets.len().saturating_sub(1), 0.0);
        for (sum, pair) in self.pair_difference.iter_mut().zip(self.offsets.windows(2)) {
            let ([dx, dy], [ex, ey]) = (pair[0], pair[1]);
            *sum += f64::from(((dx - ex).powi(2) + (dy - ey).powi(2)).sqrt());
        }
    }

    /// What the recorded steps show.
    pub fn summary(&self) -> WanderSummary {
        let steps = self.steps as f64;
        WanderSummary {
            max_distance_from_home: self.farthest,
            mean_speed: if self.samples > 0 {
                self.speed_sum / self.samples as f64
            } else {
                0.0
            },
            min_pairwise_path_difference: if self.steps > 0 {
                self.pair_difference
                    .iter()
                    .map(|sum| sum / steps)
                    .min_by(f64::total_cmp)
            } else {
                None
            },
        }
    }
}

impl Wanderers {
    /// Runs `steps` steps of `dt` seconds and sums up what happened.
    pub fn run_and_summarize(
        &mut self,
        params: &WanderParams,
        dt: f32,
        steps: u64,
    ) -> WanderSummary {
        let mut tally = WanderTally::default();
        for _ in 0..steps {
            self.step(params, dt);
            tally.record(&self.home, &self.position, &self.speed);
        }
        tally.summary()
    }
}

/// The speed of an NPC `distance` from its target: full speed outside the arrive radius,
/// slowing in proportion inside it, so it settles instead of jittering round the target.
pub fn arrival_speed(distance: f32, params: &WanderParams) -> f32 {
    params.movement_strength * (distance / params.arrive_radius).min(1.0)
}

/// Moves from `position` toward `target` for `dt` seconds: full speed outside the arrive
/// radius, proportionally slower inside it, never past the target. Returns the new position and
/// the speed used.
pub fn steer(
    position: [f32; 2],
    target: [f32; 2],
    params: &WanderParams,
    dt: f32,
) -> ([f32; 2], f32) {
    let dx = target[0] - position[0];
    let dy = target[1] - position[1];
    let distance = (dx * dx + dy * dy).sqrt();
    if distance <= f32::EPSILON {
        return (target, 0.0);
    }
    let speed = arrival_speed(distance, params);
    let travel = (speed * dt).min(distance);
    let k = travel / distance;
    (
        [position[0] + dx * k, position[1] + dy * k],
        travel / dt.max(f32::EPSILON),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steering_slows_inside_the_arrive_radius_and_never_overshoots() {
        let params = WanderParams::default();
        let (far, fast) = steer([0.0, 0.0], [10.0, 0.0], &params, 0.1);
        assert!((far[0] - 0.3).abs() < 1e-6 && fast == params.movement_strength);
        let (_, slow) = steer([0.0, 0.0], [0.75, 0.0], &params, 0.1);
        assert!((slow - params.movement_strength / 2.0).abs() < 1e-5);
        let (there, _) = steer([0.0, 0.0], [0.01, 0.0], &params, 10.0);
        assert_eq!(there, [0.01, 0.0]);
    }

    #[test]
    fn parameters_outside_their_ranges_are_fixed_and_named() {
        let mut params = WanderParams {
            wander_max_distance: -1.0,
            noise_speed: f32::NAN,
            movement_strength: 2.0,
            arrive_radius: 0.0,
            refresh_every: 0,
        };
        let fixed = params.sanitize();
        let names: Vec<&str> = fixed
            .iter()
            .map(|message| message.split(' ').next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "wander_max_distance",
                "noise_speed",
                "arrive_radius",
                "refresh_every"
            ]
        );
        assert_eq!(params.wander_max_distance, *WANDER_DISTANCE.start());
        assert_eq!(params.noise_speed, WanderParams::default().noise_speed);
        assert_eq!(params.arrive_radius, *ARRIVE_RADIUS.start());
        assert_eq!(params.refresh_every, *REFRESH_EVERY.start());
        assert!(params.sanitize().is_empty());
    }

    #[test]
    fn the_defaults_lie_inside_the_ranges() {
        let mut params = WanderParams::default();
        assert!(params.sanitize().is_empty());
    }

    #[test]
    fn targets_stay_on_the_home_disk() {
        let params = WanderParams::default();
        let mut crowd = Wanderers::scattered(9, 200, 100.0, 100.0);
        for _ in 0..500 {
            crowd.step(&params, 0.05);
            for i in 0..crowd.len() {
                let [hx, hy] = crowd.home[i];
                let [tx, ty] = crowd.target[i];
                let d = ((tx - hx).powi(2) + (ty - hy).powi(2)).sqrt();
                assert!(d <= params.wander_max_distance * (1.0 + 1e-5));
            }
        }
    }

    #[test]
    fn a_summary_measures_what_the_steps_did() {
        let params = WanderParams::default();
        let dt = 0.05;
        let mut crowd = Wanderers::scattered(4, 30, 200.0, 200.0);
        let mut copy = crowd.clone();
        let summary = crowd.run_and_summarize(&params, dt, 400);
        // The same steps by hand, measured independently.
        let mut farthest = 0.0f32;
        let mut speeds = Vec::new();
        for _ in 0..400 {
            copy.step(&params, dt);
            for i in 0..copy.len() {
                let [px, py] = copy.position[i];
                let [hx, hy] = copy.home[i];
                farthest = farthest.max((px - hx).hypot(py - hy));
                speeds.push(f64::from(copy.speed[i]));
            }
        }
        assert_eq!(summary.max_distance_from_home, farthest);
        let mean = speeds.iter().sum::<f64>() / speeds.len() as f64;
        assert!((summary.mean_speed - mean).abs() < 1e-9);
        assert!(summary.max_distance_from_home <= params.wander_max_distance + 1e-4);
        assert!(summary.min_pairwise_path_difference.unwrap() > 0.0);
        let lone = Wanderers::scattered(4, 1, 10.0, 10.0).run_and_summarize(&params, dt, 10);
        assert_eq!(lone.min_pairwise_path_difference, None);
    }
}
