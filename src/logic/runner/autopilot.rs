//! The autopilot: runs the planner's route with the same commands a player has, replanning as
//! segments arrive; and the headless simulation of a whole run that the command line reports.

use super::body::{Command, Posture, RunEvent, RunnerBody};
use super::planner::{Action, PLAN_LOOKAHEAD, Plan, Planner};
use super::run::{RunnerInput, RunnerSim};
use super::timing::{
    JUMP_S, LANE_CHANGE_S, REACTION_MARGIN_S, SLIDE_S, TURN_WINDOW_S, lane_moves_in,
};
use super::track::Track;
use crate::logic::difficulty::Difficulty;
use crate::logic::seed::Fnv1a;

/// Drives a [`RunnerBody`] along the planned route.
#[derive(Debug, Default, Clone)]
pub struct Autopilot {
    planner: Planner,
    plan: Option<Plan>,
    /// The segment that was next when the current plan was made.
    planned_next: Option<u64>,
    /// A fingerprint of the current plan, made when it was made.
    plan_hash: u64,
    replans: u64,
}

impl Autopilot {
    /// An autopilot with no plan yet.
    pub fn new() -> Autopilot {
        Autopilot::default()
    }

    /// The current plan, if one was found.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    /// Plans made so far.
    pub fn replans(&self) -> u64 {
        self.replans
    }

    /// Drops the current plan, so the next steer plans afresh from where the runner is: what
    /// switching the autopilot on does, so that a plan left from earlier never steers.
    pub fn forget_plan(&mut self) {
        self.plan = None;
        self.planned_next = None;
        self.plan_hash = 0;
    }

    /// Feeds a fingerprint the autopilot's share: the plan it follows and when it made it.
    pub fn fingerprint_into(&self, hash: &mut Fnv1a) {
        hash.u64(self.planned_next.map_or(u64::MAX, |next| next))
            .u64(self.plan_hash);
    }

    /// Plans again when a segment was passed, or when the runner is heading for a lane the
    /// plan does not expect (the player moved before the autopilot took over).
    pub fn refresh_plan(&mut self, body: &RunnerBody, track: &Track) {
        let next = track.next().index;
        let lane = body.target_lane();
        let on_plan = self.plan.as_ref().is_some_and(|plan| {
            plan.start_lane == lane || plan.steps.first().is_some_and(|step| step.lane == lane)
        });
        if self.planned_next == Some(next) && on_plan {
            return;
        }
        self.planned_next = Some(next);
        self.replans += 1;
        // Lanes that can still be moved before the next contact point, from where the runner
        // is now: what is left of the gap, less the turn window, the margin and the change
        // under way.
        let window_s = if track.next().kind.is_junction() {
            TURN_WINDOW_S
        } else {
            0.0
        };
        let change_left_s = body
            .change
            .map_or(0.0, |change| LANE_CHANGE_S - change.elapsed_s);
        let free_s = body.time_to_contact_s(track) - window_s - REACTION_MARGIN_S - change_left_s;
        let first_reach = lane_moves_in(free_s);
        self.plan = self.planner.plan(
            track.timing(),
            track.upcoming().take(PLAN_LOOKAHEAD),
            lane,
            Some(first_reach),
        );
        // Once per plan, so a fingerprint of the run costs nothing extra for it: the route's
        // lanes, which are all the autopilot steers by.
        let mut hash = Fnv1a::new();
        if let Some(plan) = &self.plan {
            hash.u64(u64::from(plan.start_lane))
                .u64(u64::from(plan.cost));
            for step in &plan.steps {
                hash.u64(step.index).u64(u64::from(step.lane));
            }
        }
        self.plan_hash = hash.finish();
    }

    /// The commands to give now, in order: a lane move toward the planned lane, and the jump,
    /// slide or turn the next contact point needs once it is close enough.
    pub fn steer(&mut self, body: &RunnerBody, track: &Track, mut act: impl FnMut(Command)) {
        if body.crash.is_some() {
            return;
        }
        self.refresh_plan(body, track);
        let next = track.next();
        let in_window = body.in_turn_window(track);
        let wanted_lane = self
            .plan
            .as_ref()
            .and_then(|plan| plan.steps.first())
            .map_or(body.target_lane(), |step| step.lane);
        if !in_window && body.queued_move.is_none() && wanted_lane != body.target_lane() {
            act(if wanted_lane < body.target_lane() {
                Command::Left
            } else {
                Command::Right
            });
        }
        let to_contact_s = body.time_to_contact_s(track);
        match Action::at_contact(next.kind, next.lanes[usize::from(body.target_lane())]) {
            Some(Action::TurnLeft) if in_window && body.turn.is_none() => act(Command::Left),
            Some(Action::TurnRight) if in_window && body.turn.is_none() => act(Command::Right),
            // Leave the ground half the air time before the obstacle, so the air time is
            // centred on it.
            Some(Action::Jump)
                if to_contact_s <= JUMP_S / 2.0
                    && !matches!(body.posture, Posture::Jumping { .. }) =>
            {
                act(Command::Jump)
            }
            Some(Action::Slide)
                if to_contact_s <= SLIDE_S / 2.0
                    && !matches!(body.posture, Posture::Sliding { .. }) =>
            {
                act(Command::Slide)
            }
            _ => {}
        }
    }

    /// Steers and runs the body for `dt_s` seconds, deciding again at every contact point.
    /// Events are appended to `events`.
    pub fn drive(
        &mut self,
        body: &mut RunnerBody,
        track: &mut Track,
        dt_s: f64,
        events: &mut Vec<RunEvent>,
    ) {
        let mut left_s = dt_s;
        while left_s > 0.0 && body.crash.is_none() {
            let mut commands = [None; 2];
            let mut given = 0;
            self.steer(body, track, |command| {
                commands[given] = Some(command);
                given += 1;
            });
            for command in commands.into_iter().flatten() {
                body.command(command, track);
            }
            left_s = body.advance(left_s, track, events);
        }
    }
}

/// What a headless autopilot run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// The seed.
    pub seed: u64,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// Segments run (contact points passed).
    pub segments: u64,
    /// Distance run, in metres.
    pub distance_m: f64,
    /// Coin lines taken.
    pub coins: u32,
    /// The run's score (see [`RunnerBody::score`]).
    pub score: u64,
    /// Crashes; the simulation runs on through them so they can be counted.
    pub crashes: u64,
    /// Stumbles (clipped logs and beams), the ones that ended the run included.
    pub stumbles: u32,
    /// Power-ups taken, per kind in the order of
    /// [`PowerUp::ALL`](super::powerups::PowerUp::ALL).
    pub powerups: [u32; 3],
    /// Segments the certifier repaired.
    pub repairs: u64,
    /// The highest speed reached, in metres per second.
    pub max_speed_mps: f64,
    /// The most segments the look-ahead buffer held.
    pub max_buffered_segments: usize,
    /// Plans made.
    pub replans: u64,
}

/// Runs the autopilot for `segments` segments in fixed steps of
/// [`SIMULATION_STEP_S`](super::timing::SIMULATION_STEP_S), exactly as
/// the game does, and reports the run.
pub fn simulate_autopilot(seed: u64, difficulty: Difficulty, segments: u64) -> RunSummary {
    let mut sim = RunnerSim::new(seed, difficulty);
    sim.apply(RunnerInput::Autopilot(true));
    let mut crashes = 0;
    // A step covers well under one segment, so the run stops exactly at the last contact point.
    while sim.track.next().index < segments {
        sim.step([]);
        if sim.body.crash.take().is_some() {
            crashes += 1;
        }
    }
    let timing = *sim.track.timing();
    RunSummary {
        seed,
        difficulty,
        segments,
        distance_m: sim.body.distance_m,
        coins: sim.body.coins,
        score: sim.body.score(),
        crashes,
        stumbles: sim.body.stumbles,
        powerups: sim.body.powerups_taken,
        repairs: sim.track.repairs(),
        max_speed_mps: timing.speed_at(sim.body.distance_m),
        max_buffered_segments: sim.track.max_buffered(),
        replans: sim.autopilot.replans(),
    }
}
