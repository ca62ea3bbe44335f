//! One run in fixed steps: the track, the runner, the autopilot and the step count, moved one
//! fixed step at a time with the inputs that take effect at that step. The game, the headless
//! autopilot run, replays and their verification all step runs through [`RunnerSim::step`], so a
//! run replays exactly.

use super::autopilot::Autopilot;
use super::body::{Command, RunEvent, RunnerBody};
use super::timing::SIMULATION_STEP_S;
use super::track::Track;
use crate::logic::difficulty::Difficulty;
use crate::logic::seed::Fnv1a;
use serde::{Deserialize, Serialize};

/// Something a player does to a run, taking effect at the start of a fixed step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunnerInput {
    /// A key: a lane change or turn, a jump or a slide. It also takes the run back from the
    /// autopilot.
    Command(Command),
    /// The autopilot switched on or off.
    Autopilot(bool),
}

/// A run being played.
#[derive(Debug, Clone)]
pub struct RunnerSim {
    /// The seed the track was made from.
    pub seed: u64,
    /// The difficulty it is played at.
    pub difficulty: Difficulty,
    /// The upcoming track.
    pub track: Track,
    /// The runner.
    pub body: RunnerBody,
    /// The planner and the autopilot that runs its route.
    pub autopilot: Autopilot,
    /// Whether the autopilot is running the runner.
    pub autopilot_on: bool,
    /// The autopilot ran at some point.
    pub assisted: bool,
    /// Fixed steps run so far.
    pub tick: u64,
    /// What happened during the last step.
    pub events: Vec<RunEvent>,
}

impl RunnerSim {
    /// A run of the seed's track.
    pub fn new(seed: u64, difficulty: Difficulty) -> RunnerSim {
        RunnerSim::on_track(seed, difficulty, Track::new(seed, difficulty))
    }

    /// A run on a given track (a scripted one in tests).
    pub fn on_track(seed: u64, difficulty: Difficulty, track: Track) -> RunnerSim {
        RunnerSim {
            seed,
            difficulty,
            track,
            body: RunnerBody::new(),
            autopilot: Autopilot::new(),
            autopilot_on: false,
            assisted: false,
            tick: 0,
            events: Vec::new(),
        }
    }

    /// Whether the run is over.
    pub fn is_over(&self) -> bool {
        self.body.crash.is_some()
    }

    /// Applies an input now (at the start of the coming step).
    pub fn apply(&mut self, input: RunnerInput) {
        match input {
            RunnerInput::Command(command) => {
                self.autopilot_on = false;
                self.body.command(command, &self.track);
            }
            RunnerInput::Autopilot(on) => {
                if on {
                    self.autopilot.forget_plan();
                }
                self.autopilot_on = on;
                self.assisted |= on;
            }
        }
    }

    /// One fixed step of [`SIMULATION_STEP_S`]: the inputs, then the autopilot's commands (when
    /// it runs) and motion. Returns what happened.
    pub fn step(&mut self, inputs: impl IntoIterator<Item = RunnerInput>) -> &[RunEvent] {
        self.events.clear();
        if self.is_over() {
            return &self.events;
        }
        for input in inputs {
            self.apply(input);
        }
        if self.autopilot_on {
            self.autopilot.drive(
                &mut self.body,
                &mut self.track,
                SIMULATION_STEP_S,
                &mut self.events,
            );
        } else {
            let mut left = SIMULATION_STEP_S;
            while left > 0.0 && !self.is_over() {
                left = self.body.advance(left, &mut self.track, &mut self.events);
            }
        }
        self.tick += 1;
        &self.events
    }

    /// A fingerprint of what the rest of the run depends on: the seed and difficulty (which
    /// make the track), the runner, the next segment, who runs, and the plan the autopilot
    /// follows.
    pub fn fingerprint(&self) -> u64 {
        let state = format!(
            "{}|{:?}|{:?}|{:?}|{}|{}|{}",
            self.seed,
            self.difficulty,
            self.body,
            self.track.next(),
            self.autopilot_on,
            self.assisted,
            self.tick
        );
        let mut hash = Fnv1a::new();
        hash.bytes(state.as_bytes());
        self.autopilot.fingerprint_into(&mut hash);
        hash.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::runner::body::Crash;

    #[test]
    fn a_step_applies_the_inputs_then_moves_one_fixed_step() {
        let mut sim = RunnerSim::new(4, Difficulty::Normal);
        sim.step([RunnerInput::Command(Command::Left)]);
        assert_eq!(sim.tick, 1);
        assert_eq!(sim.body.target_lane(), 0);
        let expected = sim.track.timing().speed_at(0.0) * SIMULATION_STEP_S;
        assert!((sim.body.distance_m - expected).abs() < 1e-12);
    }

    #[test]
    fn a_command_takes_the_run_back_from_the_autopilot() {
        let mut sim = RunnerSim::new(4, Difficulty::Normal);
        sim.step([RunnerInput::Autopilot(true)]);
        assert!(sim.autopilot_on && sim.assisted);
        sim.step([RunnerInput::Command(Command::Jump)]);
        assert!(!sim.autopilot_on && sim.assisted);
    }

    #[test]
    fn switching_the_autopilot_on_plans_afresh_and_the_plan_is_in_the_fingerprint() {
        let mut sim = RunnerSim::new(4, Difficulty::Normal);
        for _ in 0..40 {
            sim.step([]);
        }
        // A plan made earlier (as a preview would make one) is in the fingerprint...
        let before = sim.fingerprint();
        let mut planned = sim.clone();
        planned
            .autopilot
            .refresh_plan(&planned.body, &planned.track);
        assert!(planned.autopilot.plan().is_some());
        assert_ne!(planned.fingerprint(), before);
        // ...and never steers: switched on, both runs go the same way.
        let mut fresh = sim.clone();
        for run in [&mut planned, &mut fresh] {
            run.step([RunnerInput::Autopilot(true)]);
            for _ in 0..300 {
                run.step([]);
            }
        }
        assert_eq!(planned.fingerprint(), fresh.fingerprint());
        assert_eq!(planned.body, fresh.body);
    }

    #[test]
    fn a_run_left_alone_ends_and_then_stands_still() {
        // Seed 42 on Normal has a wall in the middle lane at segment 6.
        let mut sim = RunnerSim::new(42, Difficulty::Normal);
        while !sim.is_over() {
            sim.step([]);
        }
        assert_eq!(sim.body.crash, Some(Crash::Wall));
        let (tick, fingerprint) = (sim.tick, sim.fingerprint());
        sim.step([RunnerInput::Command(Command::Left)]);
        assert_eq!((sim.tick, sim.fingerprint()), (tick, fingerprint));
    }
}
