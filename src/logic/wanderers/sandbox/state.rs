//! What a sandbox keeps of each NPC from one step to the next, read out whole: two sandboxes in
//! the same state agree on every NPC's and on the queue of plans (the tests step one crowd on one
//! core and on several and compare them so).

use super::{Route, Sandbox};
use crate::logic::wanderers::field::Footprint;

/// What the sandbox keeps of one NPC between steps ([`Sandbox::npc`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NpcState<'a> {
    /// Its home.
    pub home: [f32; 2],
    /// Where it is.
    pub position: [f32; 2],
    /// Where it is going.
    pub target: [f32; 2],
    /// Its speed in the last step, in units per second.
    pub speed: f32,
    /// Its own noise offsets.
    pub noise_offset: [f64; 2],
    /// Its body.
    pub footprint: Footprint,
    /// The route it follows, if any.
    pub route: Option<&'a Route>,
    /// Whether it waits for a plan.
    pub queued: bool,
    /// Whether it waits to join its route again from where it stands.
    pub rejoin: bool,
    /// Seconds before it may ask for a plan again.
    pub cooldown_s: f32,
    /// What it last saw: (from cell, to cell, clear).
    pub last_sight: Option<(usize, usize, bool)>,
    /// The cell of its noise point when its target was last put on the map.
    pub noise_cell: Option<[i64; 2]>,
}

impl Sandbox {
    /// Everything the sandbox keeps of NPC `i` from one step to the next: two sandboxes in the
    /// same state agree on every NPC's, and on the queue of plans ([`Sandbox::plan_queue`]).
    pub fn npc(&self, i: usize) -> NpcState<'_> {
        let crowd = &self.crowd;
        NpcState {
            home: crowd.home[i],
            position: crowd.position[i],
            target: crowd.target[i],
            speed: crowd.speed[i],
            noise_offset: crowd.noise_offset[i],
            footprint: self.footprints[i],
            route: self.routes[i].as_ref(),
            queued: self.queued[i],
            rejoin: self.rejoin[i],
            cooldown_s: self.cooldown_s[i],
            last_sight: self.last_sight[i],
            noise_cell: self.noise_cell[i],
        }
    }

    /// The NPCs waiting for a plan, oldest first, with the time each asked, in sandbox seconds.
    pub fn plan_queue(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.waiting.iter().copied()
    }
}
