//! The tests' own account of a replayed run, apart from the game's checker: a run stepped one
//! fixed step at a time with its inputs fed exactly at their ticks, and its fingerprint noted
//! before the first step and after every step.

use temple_trails::logic::replay::{Simulation, Timed};

/// The fingerprints of `sim` fed `inputs` exactly at their ticks, for `ticks` steps or until
/// the run ends: at index 0 before the first step, at index `t` after `t` steps. Also how many
/// of the inputs were fed (an input out of order or after the end is never fed).
pub fn fingerprints<S: Simulation>(
    sim: &mut S,
    inputs: &[Timed<S::Input>],
    ticks: u64,
) -> (Vec<u64>, usize) {
    let mut prints = vec![sim.fingerprint()];
    let mut next = 0;
    while sim.tick() < ticks && !sim.is_over() {
        let tick = sim.tick();
        let mut now = Vec::new();
        while inputs.get(next).is_some_and(|timed| timed.tick == tick) {
            now.push(inputs[next].input);
            next += 1;
        }
        sim.step_with(&now);
        prints.push(sim.fingerprint());
    }
    (prints, next)
}
