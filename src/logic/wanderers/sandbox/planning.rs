//! The sandbox's planning: waiting NPCs get footprint A* routes, smoothed for their bodies, oldest
//! first within a budget per step, and none waits longer than [`MAX_PLAN_WAIT_S`]. When the rules
//! say so ([`RouteUpkeep::Repair`]), an NPC that already follows a route has it repaired rather
//! than planned again: its end is moved to the target's new cell and, when the NPC was pushed off
//! it or kept from a waypoint, its start is joined back to it, each by a small search from the
//! route's own cells.

use super::{
    MAX_PLAN_WAIT_S, Route, RouteUpkeep, Sandbox, StepRules, TETHER_MARGIN, UNREACHABLE_WAIT_S,
    cell_under,
};
use crate::logic::grid_search::GridSearch;
use crate::logic::wanderers::field::ObstacleField;
use crate::logic::wanderers::reach::Tethered;
use crate::logic::wanderers::smoothing::{FarthestSearch, smooth, visible};
use rayon::prelude::*;

/// Cells at each end of a route from which a repair may leave it: enough to go round the corner
/// a target has moved behind, few enough that the search stays near the end it repairs.
const REPAIR_WINDOW: usize = 12;
/// Cells a repair's search may expand before it gives up and the route is planned afresh.
const REPAIR_BUDGET: usize = 96;
/// A repaired route is planned afresh when it is longer than the fresh plan it came from would
/// make it: more steps than that plan's steps per Manhattan step, times this, times the
/// Manhattan distance it now spans, plus [`REPAIR_SLACK_STEPS`].
const REPAIR_GROWTH: f32 = 1.15;
/// Steps a repaired route may have beyond [`REPAIR_GROWTH`]'s bound: a short route bent round one
/// corner is not yet worth planning again.
const REPAIR_SLACK_STEPS: f32 = 2.0;

/// A route made for a waiting NPC.
struct Planned {
    raw: Vec<usize>,
    kept: Vec<usize>,
    waypoints: Vec<usize>,
    /// Whether it is an NPC's old route repaired.
    repaired: bool,
    /// Steps per Manhattan step of the fresh plan it is or came from.
    detour: f32,
    /// Seconds since it was planned or joined from where its NPC stood: a repair of its end
    /// alone keeps its age, so an NPC kept from its next waypoint rejoins in time.
    age_s: f32,
}

impl Sandbox {
    /// Plans the waiting NPCs, oldest first: the step's budget, and beyond it every NPC that
    /// would otherwise wait longer than [`MAX_PLAN_WAIT_S`]. The plans are made in parallel,
    /// one search per worker, and taken in queue order. Routes keep within `tether` and
    /// [`TETHER_MARGIN`] of home.
    pub(super) fn plan_waiting(&mut self, rules: &StepRules, dt: f32, tether: f32) {
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
        let mut searches = std::mem::take(&mut self.searches);
        let sandbox = &*self;
        let chunk = batch.len().div_ceil(workers);
        let planned: Vec<Option<Planned>> = batch
            .par_chunks(chunk)
            .zip(searches.par_iter_mut())
            .flat_map_iter(|(npcs, grid_search)| {
                npcs.iter()
                    .map(|&(i, _)| sandbox.route_for(i, rules, tether, grid_search))
                    .collect::<Vec<_>>()
            })
            .collect();
        self.searches = searches;
        for (&(i, since), planned) in batch.iter().zip(planned) {
            self.queued[i] = false;
            self.rejoin[i] = false;
            let wait = now - since;
            self.longest_wait_untaken_s = self.longest_wait_untaken_s.max(wait);
            self.stats.longest_plan_wait_s = self.stats.longest_plan_wait_s.max(wait);
            self.stats.plans += 1;
            let Some(planned) = planned else {
                self.routes[i] = None;
                self.cooldown_s[i] = UNREACHABLE_WAIT_S;
                continue;
            };
            let goal = *planned.raw.last().expect("a path has its goal");
            if planned.repaired {
                self.stats.repairs += 1;
            } else {
                self.stats.routes += 1;
            }
            self.stats.raw_waypoints += planned.raw.len() as u64;
            self.stats.smoothed_waypoints += planned.waypoints.len() as u64;
            // The first waypoint is where the NPC stands or the one it was walking to: it
            // steps there before setting off.
            self.routes[i] = Some(Route {
                raw: planned.raw,
                kept: planned.kept,
                waypoints: planned.waypoints,
                next: 0,
                goal,
                detour: planned.detour,
                age_s: planned.age_s,
            });
        }
    }

    /// NPC `i`'s route to its target within `tether` and the margin of home: its old one
    /// repaired when the rules say so and a repair works, else a fresh plan; `None` when the
    /// target cannot be reached.
    fn route_for(
        &self,
        i: usize,
        rules: &StepRules,
        tether: f32,
        grid_search: &mut GridSearch,
    ) -> Option<Planned> {
        let field = &self.field;
        let reach = self.reach(i);
        let graph = Tethered {
            reach,
            home: self.crowd.home[i],
            radius: tether + TETHER_MARGIN,
        };
        let (here, goal) = (
            cell_under(field, self.crowd.position[i]),
            cell_under(field, self.crowd.target[i]),
        );
        // A goal in another region would be searched for over the whole region in vain.
        if !reach.connects(here, goal) || here == goal {
            return None;
        }
        if rules.routes == RouteUpkeep::Repair
            && let Some(route) = &self.routes[i]
            && let Some((raw, rejoined)) =
                self.repaired(&graph, route, self.rejoin[i], here, goal, grid_search)
        {
            let age_s = if rejoined { 0.0 } else { route.age_s };
            return Some(self.smoothed(i, raw, true, route.detour, age_s, rules.search));
        }
        let raw = grid_search.astar(&graph, here, goal).path?;
        let detour = (raw.len() - 1) as f32 / manhattan(field, here, goal).max(1) as f32;
        Some(self.smoothed(i, raw, false, detour, 0.0, rules.search))
    }

    /// An NPC's `route` on `graph` repaired to run from where it stands at `here` to `goal`, as
    /// a node path, and whether it was joined again from `here`; `None` when a repair's search
    /// gives up or the route would grow past its bound. A `rejoin` NPC joins the route again from
    /// where it stands.
    fn repaired(
        &self,
        graph: &Tethered,
        route: &Route,
        rejoin: bool,
        here: usize,
        goal: usize,
        grid_search: &mut GridSearch,
    ) -> Option<(Vec<usize>, bool)> {
        let field = &self.field;
        // The rest of the route, from the waypoint the NPC walks to.
        let rest = &route.raw[route.kept[route.next]..];
        let on_its_way =
            here == rest[0] || (!rejoin && visible(field, graph.reach.footprint(), here, rest[0]));
        let mut raw = if on_its_way {
            rest.to_vec()
        } else {
            // Pushed off the way, or kept from the waypoint: join the route again from here, at
            // whichever of its first cells leaves the fewest steps to walk.
            let last = rest.len() - 1;
            let seeds: Vec<(usize, u32)> = (0..rest.len().min(REPAIR_WINDOW))
                .map(|k| (rest[k], (last - k) as u32))
                .collect();
            let back = grid_search
                .astar_from_seeds(graph, &seeds, here, REPAIR_BUDGET)
                .path?;
            let joined = rest
                .iter()
                .position(|&cell| cell == back[0])
                .expect("the search starts from a seed");
            back.iter()
                .rev()
                .chain(&rest[joined + 1..])
                .copied()
                .collect()
        };
        if *raw.last().expect("a route has cells") != goal {
            // The target has moved: leave the route near its end for the target's new cell.
            let last = raw.len() - 1;
            let from = last.saturating_sub(REPAIR_WINDOW - 1);
            let seeds: Vec<(usize, u32)> = (from..=last).map(|k| (raw[k], k as u32)).collect();
            let tail = grid_search
                .astar_from_seeds(graph, &seeds, goal, REPAIR_BUDGET)
                .path?;
            let left = from
                + raw[from..]
                    .iter()
                    .position(|&cell| cell == tail[0])
                    .expect("the search starts from a seed");
            raw.truncate(left);
            raw.extend_from_slice(&tail);
        }
        let raw = without_loops(raw);
        let bound = route.detour * REPAIR_GROWTH * manhattan(field, raw[0], goal) as f32
            + REPAIR_SLACK_STEPS;
        ((raw.len() - 1) as f32 <= bound).then_some((raw, !on_its_way))
    }

    /// `raw` smoothed for NPC `i`'s body, as a route `age_s` old.
    fn smoothed(
        &self,
        i: usize,
        raw: Vec<usize>,
        repaired: bool,
        detour: f32,
        age_s: f32,
        search: FarthestSearch,
    ) -> Planned {
        let (start, goal) = (raw[0], raw[raw.len() - 1]);
        let smoothed = smooth(&self.field, self.footprints[i], &raw, start, goal, search)
            .expect("searched and repaired paths are valid node paths");
        Planned {
            raw,
            kept: smoothed.kept,
            waypoints: smoothed.waypoints,
            repaired,
            detour,
            age_s,
        }
    }
}

/// Steps between two cells along x and y.
fn manhattan(field: &ObstacleField, a: usize, b: usize) -> usize {
    let ((ax, ay), (bx, by)) = (field.coords(a), field.coords(b));
    ax.abs_diff(bx) + ay.abs_diff(by)
}

/// A node path with every loop cut out: where a cell comes again, the steps between its two
/// visits are dropped (a repair's new end may cross the old route it left).
pub(super) fn without_loops(path: Vec<usize>) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::with_capacity(path.len());
    for cell in path {
        if let Some(seen) = kept.iter().rposition(|&c| c == cell) {
            kept.truncate(seen + 1);
        } else {
            kept.push(cell);
        }
    }
    kept
}
