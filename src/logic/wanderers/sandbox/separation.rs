//! The sandbox's separation: touching bodies pushed apart in a few passes a step, never into
//! stone and never far past the tether, with the crowd sorted into the spatial grid once a step.

use super::{Sandbox, TETHER_MARGIN};
use crate::logic::wanderers::crowd::{
    Body, MAX_PUSH, PushAxis, separation_push, separation_push_noting,
};
use crate::logic::wanderers::field::Footprint;
use crate::logic::wanderers::wander::WanderParams;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Separation passes per step: each later pass settles most of what the one before pushed into
/// others. (Measured with `wander` from 1 500 to 100 000 NPCs: a fourth pass left about
/// as many overlapping pairs as three; two left up to three times as many.)
const SEPARATION_PASSES: usize = 3;

/// Slots per run when a pass's moves are applied on every core.
pub const APPLY_RUN: usize = 4096;

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
    /// bodies that touched someone in the pass before (any two others were apart and neither
    /// moved); a body outside the pass that one of them overlaps is pushed too, its push added
    /// up from their shares ([`Self::pushes_of_reached`]). The crowd moves exactly as if every
    /// pass looked at every body.
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
        let in_pass: Vec<AtomicBool> = (0..self.grid.len())
            .map(|_| AtomicBool::new(false))
            .collect();
        for pass in 0..SEPARATION_PASSES {
            // When every body is in the pass, none is outside it to mark.
            let everyone = candidates.len() == self.grid.len();
            if !everyone {
                candidates
                    .par_iter()
                    .for_each(|&slot| in_pass[slot].store(true, Ordering::Relaxed));
            }
            // Each candidate that touches someone: where it was pushed to if it moved, and
            // whether it overlaps a body outside the pass.
            let touching: Vec<(usize, Option<[f32; 2]>, bool)> = candidates
                .par_iter()
                .filter_map(|&slot| {
                    let mut reaches_outside = false;
                    let push =
                        separation_push_noting(&self.grid, slot, PushAxis::Shallow, |near, _| {
                            reaches_outside |= !everyone && !in_pass[near].load(Ordering::Relaxed);
                        })?;
                    let to = self.pushed_to(slot, &jostled[slot], push, farthest);
                    Some((slot, to, reaches_outside))
                })
                .collect();
            let reached = self.pushes_of_reached(&touching, &in_pass, &jostled, farthest);
            if !everyone {
                candidates
                    .par_iter()
                    .for_each(|&slot| in_pass[slot].store(false, Ordering::Relaxed));
            }
            // The moves, applied on every core: each worker takes runs of slots, and the moves
            // of both lists (each in slot order) that fall in them.
            jostled
                .par_chunks_mut(APPLY_RUN)
                .zip(self.grid.bodies_mut().par_chunks_mut(APPLY_RUN))
                .enumerate()
                .for_each(|(run, (npcs, bodies))| {
                    let slots = run * APPLY_RUN..run * APPLY_RUN + npcs.len();
                    let moves = in_slots(&touching, &slots, |&(slot, to, _)| (slot, to))
                        .chain(in_slots(&reached, &slots, |&(slot, to)| (slot, to)));
                    for (slot, to) in moves {
                        let Some(to) = to else { continue };
                        let npc = &mut npcs[slot - slots.start];
                        npc.position = to;
                        npc.moved = true;
                        bodies[slot - slots.start] = Body::new(npc.footprint, to);
                    }
                });
            if pass + 1 == SEPARATION_PASSES {
                break;
            }
            // Only those who touched someone can touch someone now: two others were apart
            // and neither moved.
            candidates = match looking {
                Looking::AtCandidates => merged_slots(&touching, &reached),
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

    /// The bodies outside a pass that its candidates overlap (a body moved in the pass before
    /// has reached them), in slot order, each with where its push takes it. Everyone they
    /// overlap is in the pass, so each push is the sum of the shares of the candidates in
    /// `touching` that overlap it, added up in slot order as its own look would add them.
    fn pushes_of_reached(
        &self,
        touching: &[(usize, Option<[f32; 2]>, bool)],
        in_pass: &[AtomicBool],
        jostled: &[Jostled],
        farthest: f32,
    ) -> Vec<(usize, Option<[f32; 2]>)> {
        // (reached slot, candidate slot, the candidate's share of its push)
        let mut shares: Vec<(usize, usize, [f32; 2])> = touching
            .par_iter()
            .filter(|&&(_, _, reaches_outside)| reaches_outside)
            .flat_map_iter(|&(slot, _, _)| {
                let mut found = Vec::new();
                separation_push_noting(&self.grid, slot, PushAxis::Shallow, |near, share| {
                    if !in_pass[near].load(Ordering::Relaxed) {
                        found.push((near, slot, share));
                    }
                });
                found
            })
            .collect();
        shares.sort_unstable_by_key(|&(near, from, _)| (near, from));
        shares
            .chunk_by(|a, b| a.0 == b.0)
            .map(|overlapping| {
                let slot = overlapping[0].0;
                let push = overlapping
                    .iter()
                    .fold([0.0f32; 2], |sum, &(_, _, share)| {
                        [sum[0] + share[0], sum[1] + share[1]]
                    })
                    .map(|p| p.clamp(-MAX_PUSH, MAX_PUSH));
                (slot, self.pushed_to(slot, &jostled[slot], push, farthest))
            })
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

/// The entries of `list` (sorted by slot, which `entry` gives with the move) whose slots lie
/// in `slots`, as (slot, move).
fn in_slots<'a, T>(
    list: &'a [T],
    slots: &std::ops::Range<usize>,
    entry: impl Fn(&T) -> (usize, Option<[f32; 2]>) + 'a,
) -> impl Iterator<Item = (usize, Option<[f32; 2]>)> + 'a {
    let from = list.partition_point(|e| entry(e).0 < slots.start);
    let to = list.partition_point(|e| entry(e).0 < slots.end);
    list[from..to].iter().map(entry)
}

/// The slots of those who touched someone in a pass, in slot order: the candidates in
/// `touching` and the bodies outside the pass in `reached`, each list in slot order.
fn merged_slots(
    touching: &[(usize, Option<[f32; 2]>, bool)],
    reached: &[(usize, Option<[f32; 2]>)],
) -> Vec<usize> {
    let mut slots = Vec::with_capacity(touching.len() + reached.len());
    let mut reached = reached.iter().map(|&(slot, _)| slot).peekable();
    for &(slot, _, _) in touching {
        while let Some(before) = reached.next_if(|&other| other < slot) {
            slots.push(before);
        }
        slots.push(slot);
    }
    slots.extend(reached);
    slots
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
