//! Recording a run as it is played, and playing recorded inputs again: the [`Simulation`] a
//! replay drives (each mode's run is one), the [`Recorder`] that keeps its inputs and
//! fingerprints, and the loops that feed a run its inputs step by step.

use super::limits::MAX_INPUTS_PER_TICK;
use super::{CHECK_INTERVAL_TICKS, Check, Timed};

/// A run that moves in fixed steps with timed inputs: what recording and verification need.
pub trait Simulation {
    /// What a player does to it.
    type Input: Copy;
    /// Fixed steps run so far.
    fn tick(&self) -> u64;
    /// Whether the run is over (then steps change nothing).
    fn is_over(&self) -> bool;
    /// One fixed step with these inputs applied at its start.
    fn step_with(&mut self, inputs: &[Self::Input]);
    /// A fingerprint of the state the rest of the run depends on.
    fn fingerprint(&self) -> u64;
    /// Whether the computer played at some point (the autopilot, the system walk).
    fn assisted(&self) -> bool;
}

/// Records a run's inputs and fingerprints as it is played.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorder<I> {
    inputs: Vec<Timed<I>>,
    checks: Vec<Check>,
}

impl<I: Copy> Recorder<I> {
    /// A recording that starts with the run's fingerprint before its first step.
    pub fn start(fingerprint: u64) -> Recorder<I> {
        Recorder {
            inputs: Vec::new(),
            checks: vec![Check {
                tick: 0,
                fingerprint,
            }],
        }
    }

    /// Notes a step: the inputs applied at its start (`tick` is the step's number, counted from
    /// 0) and, when one is due, the fingerprint after it.
    pub fn step(&mut self, tick: u64, inputs: &[I], fingerprint: impl FnOnce() -> u64) {
        self.inputs
            .extend(inputs.iter().map(|&input| Timed { tick, input }));
        let after = tick + 1;
        if !inputs.is_empty() || after.is_multiple_of(CHECK_INTERVAL_TICKS) {
            self.checks.push(Check {
                tick: after,
                fingerprint: fingerprint(),
            });
        }
    }

    /// The inputs and fingerprints of a recording that ends after `ticks` steps, with the
    /// run's last fingerprint.
    pub fn finish(&self, ticks: u64, fingerprint: u64) -> (Vec<Timed<I>>, Vec<Check>) {
        let mut checks = self.checks.clone();
        if checks.last().is_none_or(|check| check.tick != ticks) {
            checks.push(Check {
                tick: ticks,
                fingerprint,
            });
        }
        (self.inputs.clone(), checks)
    }
}

/// Records the computer playing a run on its own: `first` at step 0 (the autopilot or the system
/// walk switched on), then no input until `done` says so or the run ends.
pub fn record_computer_play<S: Simulation>(
    sim: &mut S,
    done: impl FnMut(&S) -> bool,
    first: S::Input,
) -> Recorder<S::Input> {
    record(
        sim,
        done,
        |tick, _| if tick == 0 { vec![first] } else { Vec::new() },
    )
}

/// The inputs of step `tick`, taken from `inputs` from `next` on (which moves past them): what
/// a replay feeds its run at each step, when it is verified, watched or raced as a ghost.
/// Inputs left behind an earlier step are taken too, so none is lost.
pub fn inputs_due<I: Copy>(inputs: &[Timed<I>], next: &mut usize, tick: u64) -> Vec<I> {
    let start = *next;
    while inputs.get(*next).is_some_and(|timed| timed.tick <= tick) {
        *next += 1;
    }
    inputs[start..*next]
        .iter()
        .map(|timed| timed.input)
        .collect()
}

/// The inputs for the coming step, taken from the front of `pending`: at most
/// [`MAX_INPUTS_PER_TICK`], and any more wait for the next step, so a run never records more
/// inputs on a step than a replay may hold.
pub fn take_step_inputs<I>(pending: &mut Vec<I>) -> Vec<I> {
    let now = pending.len().min(MAX_INPUTS_PER_TICK);
    pending.drain(..now).collect()
}

/// Steps `sim` with its recorded inputs (from `next` on) until it has run `tick` steps or its run
/// ends: a ghost keeping step with the player.
pub fn play_until<S: Simulation>(
    sim: &mut S,
    inputs: &[Timed<S::Input>],
    next: &mut usize,
    tick: u64,
) {
    while sim.tick() < tick && !sim.is_over() {
        let now = inputs_due(inputs, next, sim.tick());
        sim.step_with(&now);
    }
}

/// Plays inputs on `sim` until `done` says so or the run ends, and records them: the one loop
/// behind a recording made without a window, the verification of a replay and the tests.
/// `inputs_at(tick, sim)` gives the inputs of a step.
pub fn record<S: Simulation>(
    sim: &mut S,
    mut done: impl FnMut(&S) -> bool,
    mut inputs_at: impl FnMut(u64, &S) -> Vec<S::Input>,
) -> Recorder<S::Input> {
    let mut recorder = Recorder::start(sim.fingerprint());
    while !done(sim) && !sim.is_over() {
        let tick = sim.tick();
        let inputs = inputs_at(tick, sim);
        sim.step_with(&inputs);
        recorder.step(tick, &inputs, || sim.fingerprint());
    }
    recorder
}
