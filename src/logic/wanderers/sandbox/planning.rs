//! The sandbox's planning: waiting NPCs get footprint A* routes, smoothed for their bodies, oldest
//! first within a budget per step, and none waits longer than [`MAX_PLAN_WAIT_S`].

use super::{MAX_PLAN_WAIT_S, Route, Sandbox, StepRules, UNREACHABLE_WAIT_S, cell_under};
use crate::logic::grid_search::GridSearch;
use crate::logic::wanderers::field::FootprintGraph;
use crate::logic::wanderers::smoothing::smooth;
use rayon::prelude::*;

/// A plan made for a waiting NPC.
type Planned = Option<(Vec<usize>, Vec<usize>)>;

impl Sandbox {
    /// Plans the waiting NPCs, oldest first: the step's budget, and beyond it every NPC that
    /// would otherwise wait longer than [`MAX_PLAN_WAIT_S`]. The plans are made in parallel,
    /// one search per worker, and taken in queue order.
    pub(super) fn plan_waiting(&mut self, rules: &StepRules, dt: f32) {
        let now = self.stats.seconds;
        // The queue is oldest first, so the overdue NPCs are at its front.
        let overdue = self
            .waiting
            .iter()
            .take_while(|&&(_, since)| now + f64::from(dt) - since > MAX_PLAN_WAIT_S)
            .count();
        let take = rules.plan_budget.max(overdue).min(self.waiting.len());
        let batch: Vec<(usize, f64)> = self.waiting.drain(..take).collect();
        if batch.is_empty() {
            return;
        }
        let workers = rayon::current_num_threads().clamp(1, batch.len());
        if self.searches.len() < workers {
            self.searches.resize_with(workers, GridSearch::new);
        }
        let Sandbox {
            field,
            crowd,
            footprints,
            searches,
            ..
        } = &mut *self;
        let plan = |i: usize, grid_search: &mut GridSearch| -> Planned {
            let footprint = footprints[i];
            let (start, goal) = (
                cell_under(field, crowd.position[i]),
                cell_under(field, crowd.target[i]),
            );
            if !field.fits(footprint, goal) || start == goal {
                return None;
            }
            let graph = FootprintGraph { field, footprint };
            let raw = grid_search.astar(&graph, start, goal).path?;
            let smoothed = smooth(field, footprint, &raw, start, goal, rules.search)
                .expect("A* paths are valid node paths");
            Some((raw, smoothed.waypoints))
        };
        let chunk = batch.len().div_ceil(workers);
        let planned: Vec<Planned> = batch
            .par_chunks(chunk)
            .zip(searches.par_iter_mut())
            .flat_map_iter(|(npcs, grid_search)| {
                npcs.iter()
                    .map(|&(i, _)| plan(i, grid_search))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (&(i, since), planned) in batch.iter().zip(planned) {
            self.queued[i] = false;
            let wait = now - since;
            self.longest_wait_untaken_s = self.longest_wait_untaken_s.max(wait);
            self.stats.longest_plan_wait_s = self.stats.longest_plan_wait_s.max(wait);
            self.stats.plans += 1;
            let Some((raw, waypoints)) = planned else {
                self.routes[i] = None;
                self.cooldown_s[i] = UNREACHABLE_WAIT_S;
                continue;
            };
            let goal = *raw.last().expect("a path has its goal");
            self.stats.routes += 1;
            self.stats.raw_waypoints += raw.len() as u64;
            self.stats.smoothed_waypoints += waypoints.len() as u64;
            // Setting off on the first leg is the first turn.
            self.stats.turns += 1;
            // The first waypoint is the NPC's own cell: it steps to the centre before setting off.
            self.routes[i] = Some(Route {
                raw,
                waypoints,
                next: 0,
                goal,
                age_s: 0.0,
            });
        }
    }
}
