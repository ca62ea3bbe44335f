//! The runner's timing model: speed by distance, lane changes, jumps, slides, where obstacles
//! stand and the turn window. The game, the certifier, the planner and the command line all use
//! these numbers, so what the certifier calls survivable is exactly what the game lets a player
//! survive.

use crate::logic::difficulty::Difficulty;

/// Length of one track segment, in metres.
pub const SEGMENT_LENGTH_M: f64 = 10.0;
/// Number of lanes.
pub const LANES: usize = 3;
/// How far into a segment its obstacles and coins stand (its contact point), in metres. At a
/// junction segment this is where the track turns.
pub const CONTACT_OFFSET_M: f64 = 5.0;
/// Time to move one lane sideways, in seconds. While moving the runner occupies both lanes.
pub const LANE_CHANGE_S: f64 = 0.24;
/// Time in the air after a jump, in seconds. A Low obstacle is cleared if the runner is in the
/// air when it reaches it.
pub const JUMP_S: f64 = 0.42;
/// Time sliding after a slide, in seconds. A High obstacle is cleared if the runner is sliding
/// when it reaches it.
pub const SLIDE_S: f64 = 0.42;
/// The turn window: in this last stretch of time before a junction, Left and Right turn instead
/// of changing lanes, in seconds.
pub const TURN_WINDOW_S: f64 = 0.5;
/// Time the model keeps free before each contact point, in seconds: room for a reaction that
/// comes a moment late (the autopilot acts within one fixed step of 1/64 s).
pub const REACTION_MARGIN_S: f64 = 0.05;
/// A stumble (clipping a log or a beam) is survived, but a second one less than this many
/// seconds after it lets the pursuing guardians catch the runner.
pub const STUMBLE_WINDOW_S: f64 = 5.0;
/// Segments at the start of a run that carry nothing, so the player can find the keys.
pub const CLEAR_START_SEGMENTS: u64 = 6;
/// The fixed simulation step of the game and the headless simulation, in seconds (Bevy's
/// default fixed rate of 64 Hz).
pub const SIMULATION_STEP_S: f64 = 1.0 / 64.0;
/// Distance at which the track reaches its full density, as in the seed:
/// `ramp = min(1, distance_m * 0.001)`.
pub const FULL_DENSITY_DISTANCE_M: f64 = 1000.0;

/// The numbers one difficulty plays with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// Which preset these numbers are.
    pub difficulty: Difficulty,
    /// Speed at distance 0, in metres per second.
    pub start_speed_mps: f64,
    /// Speed gained per metre run, in metres per second per metre.
    pub ramp_mps_per_m: f64,
    /// The speed cap, in metres per second.
    pub max_speed_mps: f64,
    /// Lane noise below this makes an obstacle at the start of the run...
    pub obstacle_threshold_start: f64,
    /// ...and this much higher once the run reaches full density.
    pub obstacle_threshold_rise: f64,
}

impl Timing {
    /// The preset for a difficulty.
    pub const fn for_difficulty(difficulty: Difficulty) -> Timing {
        match difficulty {
            Difficulty::Easy => Timing {
                difficulty,
                start_speed_mps: 8.0,
                ramp_mps_per_m: 0.003,
                max_speed_mps: 15.0,
                obstacle_threshold_start: -0.75,
                obstacle_threshold_rise: 0.40,
            },
            Difficulty::Normal => Timing {
                difficulty,
                start_speed_mps: 10.0,
                ramp_mps_per_m: 0.004,
                max_speed_mps: 18.0,
                obstacle_threshold_start: -0.70,
                obstacle_threshold_rise: 0.50,
            },
            Difficulty::Hard => Timing {
                difficulty,
                start_speed_mps: 12.0,
                ramp_mps_per_m: 0.005,
                max_speed_mps: 21.0,
                obstacle_threshold_start: -0.60,
                obstacle_threshold_rise: 0.55,
            },
        }
    }

    /// Running speed at a distance along the track, in metres per second. Never decreases.
    pub fn speed_at(&self, distance_m: f64) -> f64 {
        (self.start_speed_mps + self.ramp_mps_per_m * distance_m.max(0.0)).min(self.max_speed_mps)
    }

    /// Lane noise below this value holds an obstacle at this distance; rises with the distance.
    pub fn obstacle_threshold_at(&self, distance_m: f64) -> f64 {
        let ramp = (distance_m / FULL_DENSITY_DISTANCE_M).clamp(0.0, 1.0);
        self.obstacle_threshold_start + self.obstacle_threshold_rise * ramp
    }

    /// How many lanes the runner can move between the contact point of the segment before
    /// `index` and the contact point of `index` (0, 1 or 2).
    ///
    /// The time between the two contact points is taken at the speed at the later one, the
    /// highest on the way, so the real gap is never shorter. Before a junction the turn window
    /// is not free for lane changes, and every gap keeps [`REACTION_MARGIN_S`] in hand.
    pub fn lane_moves_into(&self, index: u64, is_junction: bool) -> u8 {
        let speed = self.speed_at(contact_distance_m(index));
        let window = if is_junction { TURN_WINDOW_S } else { 0.0 };
        let free_s = SEGMENT_LENGTH_M / speed - window - REACTION_MARGIN_S;
        lane_moves_in(free_s)
    }
}

/// Whole lane changes that fit in `free_s` seconds, at most the two a three-lane track needs.
pub fn lane_moves_in(free_s: f64) -> u8 {
    if free_s < LANE_CHANGE_S {
        0
    } else if free_s < 2.0 * LANE_CHANGE_S {
        1
    } else {
        2
    }
}

/// Distance from the start of the run to the contact point of segment `index`, in metres.
pub fn contact_distance_m(index: u64) -> f64 {
    index as f64 * SEGMENT_LENGTH_M + CONTACT_OFFSET_M
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_starts_ramps_and_caps() {
        for difficulty in Difficulty::ALL {
            let timing = Timing::for_difficulty(difficulty);
            assert_eq!(timing.speed_at(0.0), timing.start_speed_mps);
            assert!(timing.speed_at(500.0) > timing.start_speed_mps);
            assert_eq!(timing.speed_at(1.0e9), timing.max_speed_mps);
        }
    }

    #[test]
    fn harder_presets_are_faster_and_denser() {
        let [easy, normal, hard] = Difficulty::ALL.map(Timing::for_difficulty);
        for (a, b) in [(easy, normal), (normal, hard)] {
            assert!(a.start_speed_mps < b.start_speed_mps);
            assert!(a.max_speed_mps < b.max_speed_mps);
            assert!(a.obstacle_threshold_at(5000.0) < b.obstacle_threshold_at(5000.0));
        }
    }

    /// The planner and certifier treat each contact point on its own; that holds only if a jump
    /// or slide fits between two contact points at the highest speed, so one never has to
    /// last over two obstacles.
    #[test]
    fn a_jump_or_slide_fits_between_contact_points_at_top_speed() {
        let fastest = Timing::for_difficulty(Difficulty::Hard).max_speed_mps;
        let shortest_gap_s = SEGMENT_LENGTH_M / fastest;
        assert!(JUMP_S.max(SLIDE_S) < shortest_gap_s);
        const { assert!(SIMULATION_STEP_S < REACTION_MARGIN_S) };
    }

    #[test]
    fn lane_moves_fall_with_speed_and_before_junctions() {
        let hard = Timing::for_difficulty(Difficulty::Hard);
        assert_eq!(hard.lane_moves_into(1, false), 2);
        // At the cap of 21 m/s the gap is 0.476 s: one move of 0.24 s fits, two do not.
        assert_eq!(hard.lane_moves_into(1_000_000, false), 1);
        assert_eq!(hard.lane_moves_into(1_000_000, true), 0);
        assert_eq!(lane_moves_in(-1.0), 0);
        assert_eq!(lane_moves_in(0.3), 1);
        assert_eq!(lane_moves_in(10.0), 2);
    }
}
