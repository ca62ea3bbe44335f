//! The sandbox's separation: touching bodies pushed apart in a few passes a step, never into
//! stone and never far past the tether, with the crowd sorted into the spatial grid once a step.

use super::{Sandbox, TETHER_MARGIN};
use crate::logic::wanderers::crowd::{Body, MAX_PUSH, PushAxis, separation_push};
use crate::logic::wanderers::field::Footprint;
use crate::logic::wanderers::wander::WanderParams;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Separation passes per step: each later pass settles most of what the one before pushed into
/// others. (Measured with `wander` from 1 500 to 100 000 NPCs: a fourth pass left about
/// as many overlapping pairs as three; two left up to three times as many.)
const SEPARATION_PASSES: usize = 3;

/// Slots per run when a pass's moves are applied on every core.
const APPLY_RUN: usize = 4096;

/// Which bodies a pass after the first looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Looking {
    /// Those that may touch someone: what a step does.
    AtCandidates,
    /// Every body: the oracle that shows the candidates leave no one out.
    #[cfg(test)]
    AtEveryone,
}

/// An NPC as separation sees it, copied out in the spatial grid's order.
#[derive(Debug, Clone, Copy)]
struct Jostled {
    position: [f32; 2],
    home: [f32; 2],
    footprint: Footprint,
    /// Whether a pass has moved it.
    moved: bool,
}

impl Sandbox {
    /// Pushes touching bodies apart in [`SEPARATION_PASSES`] passes. In each, every body is pushed
    /// out of those it overlaps, unless the push would put it in stone or carry it farther from
    /// home than the tether and its margin. The crowd is sorted into the grid once per step, with
    /// room for the passes' pushes, and the NPCs are copied out in the grid's order, so the passes
    /// read memory close to what they have just read. A pass after the first looks only at the
    /// bodies that touched someone in the pass before and those a moved body now touches: any
    /// other body touches no one and would not move.
    pub(super) fn separate(&mut self, params: &WanderParams) {
        self.separate_looking(params, Looking::AtCandidates);
    }

    /// [`Self::separate`], with passes after the first looking at the bodies `looking` says.
    fn separate_looking(&mut self, params: &WanderParams, looking: Looking) {
        let bodies: Vec<Body> = (0..self.crowd.len())
            .into_par_iter()
            .map(|i| self.body(i))
            .collect();
        let drift = MAX_PUSH * (SEPARATION_PASSES - 1) as f32;
        self.grid
            .build(&bodies, self.field.width(), self.field.height(), drift);
        let mut jostled: Vec<Jostled> = (0..self.grid.len())
            .into_par_iter()
            .map(|slot| {
                let i = self.grid.slot(slot).0;
                Jostled {
                    position: self.crowd.position[i],
                    home: self.crowd.home[i],
                    footprint: self.footprints[i],
                    moved: false,
                }
            })
            .collect();
        let farthest = params.wander_max_distance + TETHER_MARGIN;
        let mut candidates: Vec<usize> = (0..self.grid.len()).collect();
        let flagged: Vec<AtomicBool> = (0..self.grid.len())
            .map(|_| AtomicBool::new(false))
            .collect();
        for pass in 0..SEPARATION_PASSES {
            // Each candidate that touches someone, and where it was pushed to if it moved.
            let touching: Vec<(usize, Option<[f32; 2]>)> = candidates
                .par_iter()
                .filter_map(|&slot| {
                    let push = separation_push(&self.grid, slot, PushAxis::Shallow)?;
                    Some((slot, self.pushed_to(slot, &jostled[slot], push, farthest)))
                })
                .collect();
            // The moves, in slot order, applied on every core: each worker takes runs of slots.
            let moved: Vec<(usize, [f32; 2])> = touching
                .iter()
                .filter_map(|&(slot, to)| to.map(|to| (slot, to)))
                .collect();
            jostled
                .par_chunks_mut(APPLY_RUN)
                .zip(self.grid.bodies_mut().par_chunks_mut(APPLY_RUN))
                .enumerate()
                .for_each(|(run, (npcs, bodies))| {
                    let first = run * APPLY_RUN;
                    let within = |end: usize| moved.partition_point(|&(slot, _)| slot < end);
                    for &(slot, to) in &moved[within(first)..within(first + npcs.len())] {
                        let npc = &mut npcs[slot - first];
                        npc.position = to;
                        npc.moved = true;
                        bodies[slot - first] = Body::new(npc.footprint, to);
                    }
                });
            if pass + 1 == SEPARATION_PASSES {
                break;
            }
            candidates = match looking {
                Looking::AtCandidates => self.touched_or_reached(&touching, &flagged),
                #[cfg(test)]
                Looking::AtEveryone => (0..self.grid.len()).collect(),
            };
        }
        // Back in NPC order, on every core: each NPC looks up its slot.
        let grid = &self.grid;
        self.crowd
            .position
            .par_iter_mut()
            .enumerate()
            .for_each(|(i, position)| {
                let npc = &jostled[grid.slot_of(i)];
                if npc.moved {
                    *position = npc.position;
                }
            });
    }

    /// The next pass's candidates: the slots of the bodies that touched someone in this one (in
    /// `touching`, with where each moved to) and of those a moved body now touches, in slot
    /// order. They are marked in `flagged` on every core (marks only ever go on, so the order
    /// of marking does not matter), and the marks are cleared again.
    fn touched_or_reached(
        &self,
        touching: &[(usize, Option<[f32; 2]>)],
        flagged: &[AtomicBool],
    ) -> Vec<usize> {
        touching.par_iter().for_each(|&(slot, to)| {
            flagged[slot].store(true, Ordering::Relaxed);
            if to.is_some() {
                let moved = self.grid.slot(slot).1;
                self.grid.for_each_slot_near(&moved, |near| {
                    if self.grid.slot(near).1.penetration(&moved).is_some() {
                        flagged[near].store(true, Ordering::Relaxed);
                    }
                });
            }
        });
        (0..flagged.len())
            .into_par_iter()
            .filter(|&slot| flagged[slot].swap(false, Ordering::Relaxed))
            .collect()
    }

    /// Where the body in grid `slot` goes when pushed by `push` (along the shortest way out):
    /// there when it can slide there and stays within `farthest` of home (or comes closer);
    /// when stone or the tether blocks that, along the other axis; `None` when it stays put.
    fn pushed_to(
        &self,
        slot: usize,
        npc: &Jostled,
        push: [f32; 2],
        farthest: f32,
    ) -> Option<[f32; 2]> {
        let (from, home) = (npc.position, npc.home);
        // Squared distances: they order the same as distances.
        let away = |p: [f32; 2]| (p[0] - home[0]).powi(2) + (p[1] - home[1]).powi(2);
        let farthest = farthest * farthest;
        let deep = || separation_push(&self.grid, slot, PushAxis::Deep).unwrap_or([0.0; 2]);
        for [px, py] in std::iter::once(push).chain(std::iter::once_with(deep)) {
            if px == 0.0 && py == 0.0 {
                return None;
            }
            let Some(to) = self.slide(npc.footprint, from, [from[0] + px, from[1] + py]) else {
                continue;
            };
            if to != from && !(away(to) > farthest && away(to) > away(from)) {
                return Some(to);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::wanderers::sandbox::{FootprintMix, SandboxConfig, StepRules};

    /// Looking only at the candidates must move every body exactly as looking at every body
    /// does: crowds of each mix on open and stony fields, at many moments of their wandering.
    /// (Leaving out the bodies a moved body now touches makes this fail.)
    #[test]
    fn passes_that_look_at_candidates_move_the_crowd_as_looking_at_everyone() {
        let params = WanderParams::default();
        let rules = StepRules::default();
        let mixes = [
            FootprintMix::Points,
            FootprintMix::Small,
            FootprintMix::Mixed,
        ];
        for (seed, (footprints, density)) in
            (0..).zip(mixes.into_iter().flat_map(|mix| [(mix, 0.0), (mix, 0.3)]))
        {
            let mut sandbox = Sandbox::new(SandboxConfig {
                seed,
                count: 1_500,
                width: 90,
                height: 70,
                density,
                footprints,
            });
            let mut moves_seen = 0;
            for step in 0..40 {
                sandbox.step(&params, 1.0 / 64.0, &rules);
                let mut by_candidates = sandbox.clone();
                let mut by_everyone = sandbox.clone();
                by_candidates.separate_looking(&params, Looking::AtCandidates);
                by_everyone.separate_looking(&params, Looking::AtEveryone);
                assert_eq!(
                    by_candidates.crowd.position, by_everyone.crowd.position,
                    "seed {seed}, {footprints:?} on {density} stone, step {step}"
                );
                moves_seen += (0..sandbox.crowd.len())
                    .filter(|&i| by_everyone.crowd.position[i] != sandbox.crowd.position[i])
                    .count();
            }
            assert!(
                moves_seen > 1_000,
                "the crowd must be crowded: {moves_seen} moves"
            );
        }
    }
}
