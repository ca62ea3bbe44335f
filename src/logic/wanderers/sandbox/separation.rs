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
            // The next candidates: those that touched, and those a moved body now touches, marked
            // on every core (marks only ever go on, so the order of marking does not matter).
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
            candidates = (0..flagged.len())
                .into_par_iter()
                .filter(|&slot| flagged[slot].swap(false, Ordering::Relaxed))
                .collect();
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
