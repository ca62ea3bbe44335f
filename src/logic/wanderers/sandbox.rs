//! The wanderers' sandbox: tethered wanderers on an obstacle field. An NPC walks straight at its
//! target while its whole body can slide there; when stone is in the way it plans a grid A* path
//! its footprint fits through, smooths it for its body, and follows the waypoints, planning again
//! when the target has drifted or the route is old, within a budget of plans per step.

use super::field::{Footprint, FootprintGraph, ObstacleField};
use super::smoothing::{FarthestSearch, smooth, visible};
use super::wander::{WanderParams, Wanderers, steer};
use crate::logic::grid_search::GridSearch;
use crate::logic::seed::{Stream, stream_rng};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A route is planned again when the target has moved this many cells (Manhattan) from the
/// cell it was planned to.
const REPLAN_DRIFT_CELLS: usize = 3;
/// A route older than this is planned again, in seconds.
const ROUTE_LIFETIME_S: f32 = 4.0;
/// An NPC whose target could not be reached waits this long before trying again, in seconds.
const UNREACHABLE_WAIT_S: f32 = 1.0;
/// Distance at which a waypoint counts as reached, in cells.
const WAYPOINT_REACHED: f32 = 0.05;
/// Homes drawn per NPC before giving up on finding one its footprint fits.
const HOME_DRAWS: usize = 1000;

/// Which body sizes the NPCs get.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FootprintMix {
    /// Every NPC is one cell.
    Points,
    /// One or two cells a side (1x1, 2x1, 1x2, 2x2).
    #[default]
    Small,
    /// One to three cells a side, not only square.
    Mixed,
}

impl FootprintMix {
    /// Every mix, smallest first.
    pub const ALL: [FootprintMix; 3] = [
        FootprintMix::Points,
        FootprintMix::Small,
        FootprintMix::Mixed,
    ];

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            FootprintMix::Points => "1x1 only",
            FootprintMix::Small => "up to 2x2",
            FootprintMix::Mixed => "up to 3x3",
        }
    }

    /// The largest side of the mix, in cells.
    const fn max_side(self) -> usize {
        match self {
            FootprintMix::Points => 1,
            FootprintMix::Small => 2,
            FootprintMix::Mixed => 3,
        }
    }
}

/// Everything that shapes a sandbox.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SandboxConfig {
    /// The seed of the field, homes, sizes and noise.
    pub seed: u64,
    /// NPCs.
    pub count: usize,
    /// Field cells along x.
    pub width: usize,
    /// Field cells along y.
    pub height: usize,
    /// Share of the field made stone (0 to 1) before cut-off pockets are filled.
    pub density: f64,
    /// Body sizes.
    pub footprints: FootprintMix,
}

/// A planned route an NPC is following.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// The A* node path (cell ids).
    pub raw: Vec<usize>,
    /// The smoothed waypoints (cell ids), start first.
    pub waypoints: Vec<usize>,
    /// The waypoint being walked to.
    pub next: usize,
    /// The target cell the route was planned to.
    pub goal: usize,
    /// Seconds since it was planned.
    pub age_s: f32,
}

/// Running totals for the statistics panel.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SandboxStats {
    /// Routes planned (successful A* searches).
    pub routes: u64,
    /// Plans attempted, successful or not.
    pub plans: u64,
    /// A* nodes over all routes.
    pub raw_waypoints: u64,
    /// Smoothed waypoints over all routes.
    pub smoothed_waypoints: u64,
    /// Turns made along routes: each new leg of a route is one turn (the paper's count).
    pub turns: u64,
    /// Seconds simulated.
    pub seconds: f64,
}

/// Wanderers on an obstacle field.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// The field.
    pub field: ObstacleField,
    /// The NPCs' wandering (homes, positions, targets).
    pub crowd: Wanderers,
    /// Each NPC's body.
    pub footprints: Vec<Footprint>,
    /// Each NPC's route, while it follows one.
    pub routes: Vec<Option<Route>>,
    /// Totals since the start.
    pub stats: SandboxStats,
    /// NPCs waiting for a plan, oldest first.
    waiting: VecDeque<usize>,
    queued: Vec<bool>,
    /// Seconds each NPC must wait before asking for a plan again.
    cooldown_s: Vec<f32>,
    /// The last straight-line test of each NPC: (from cell, to cell, clear). NPCs change cell
    /// far less often than they step, so most steps reuse it.
    last_sight: Vec<Option<(usize, usize, bool)>>,
    search: GridSearch,
}

impl Sandbox {
    /// A sandbox: the field from the seed, then homes drawn on cells each NPC's body fits.
    pub fn new(config: SandboxConfig) -> Sandbox {
        let field =
            ObstacleField::from_noise(config.seed, config.width, config.height, config.density);
        let mut rng = stream_rng(config.seed, Stream::SandboxHomes);
        let side = config.footprints.max_side();
        let mut footprints = Vec::with_capacity(config.count);
        let mut homes = Vec::with_capacity(config.count);
        for _ in 0..config.count {
            let footprint = Footprint::new(rng.random_range(1..=side), rng.random_range(1..=side))
                .expect("mix sides are 1 to 3");
            let home = (0..HOME_DRAWS)
                .map(|_| rng.random_range(0..config.width * config.height))
                .find(|&cell| field.fits(footprint, cell));
            // A field with no room at all for this body gets a one-cell NPC at any open cell.
            let (footprint, home) = match home {
                Some(home) => (footprint, home),
                None => (
                    Footprint::POINT,
                    (0..config.width * config.height)
                        .find(|&c| field.fits(Footprint::POINT, c))
                        .unwrap_or(0),
                ),
            };
            let (x, y) = field.coords(home);
            footprints.push(footprint);
            homes.push([x as f32 + 0.5, y as f32 + 0.5]);
        }
        let count = homes.len();
        Sandbox {
            crowd: Wanderers::new(config.seed, homes),
            footprints,
            routes: vec![None; count],
            stats: SandboxStats::default(),
            waiting: VecDeque::new(),
            queued: vec![false; count],
            cooldown_s: vec![0.0; count],
            last_sight: vec![None; count],
            search: GridSearch::new(),
            field,
        }
    }

    /// The cell under a position, clamped into the field.
    pub fn cell_at(&self, [x, y]: [f32; 2]) -> usize {
        let cx = (x.max(0.0) as usize).min(self.field.width() - 1);
        let cy = (y.max(0.0) as usize).min(self.field.height() - 1);
        self.field.id(cx, cy)
    }

    /// The centre of a cell.
    pub fn centre(&self, cell: usize) -> [f32; 2] {
        let (x, y) = self.field.coords(cell);
        [x as f32 + 0.5, y as f32 + 0.5]
    }

    /// NPCs waiting for a plan.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// One step of `dt` seconds: targets move, NPCs walk or follow routes, and up to
    /// `plan_budget` waiting NPCs get a plan (smoothed with `search`).
    pub fn step(
        &mut self,
        params: &WanderParams,
        dt: f32,
        plan_budget: usize,
        search: FarthestSearch,
    ) {
        self.crowd.refresh_targets(params, dt);
        self.stats.seconds += f64::from(dt);
        for i in 0..self.crowd.len() {
            self.cooldown_s[i] = (self.cooldown_s[i] - dt).max(0.0);
            self.move_npc(i, params, dt);
        }
        for _ in 0..plan_budget {
            let Some(i) = self.waiting.pop_front() else {
                break;
            };
            self.queued[i] = false;
            self.plan(i, search);
        }
    }

    fn ask_for_plan(&mut self, i: usize) {
        if !self.queued[i] && self.cooldown_s[i] <= 0.0 {
            self.queued[i] = true;
            self.waiting.push_back(i);
        }
    }

    fn move_npc(&mut self, i: usize, params: &WanderParams, dt: f32) {
        let footprint = self.footprints[i];
        let here = self.cell_at(self.crowd.position[i]);
        let target_cell = self.cell_at(self.crowd.target[i]);
        if let Some(mut route) = self.routes[i].take() {
            route.age_s += dt;
            let aim = self.centre(route.waypoints[route.next]);
            let (position, speed) = steer(self.crowd.position[i], aim, params, dt);
            self.crowd.position[i] = position;
            self.crowd.speed[i] = speed;
            let (dx, dy) = (aim[0] - position[0], aim[1] - position[1]);
            let mut finished = false;
            if (dx * dx + dy * dy).sqrt() <= WAYPOINT_REACHED {
                self.crowd.position[i] = aim;
                if route.next + 1 < route.waypoints.len() {
                    route.next += 1;
                    // Each new leg after the first is a turn (the first was counted at planning).
                    self.stats.turns += u64::from(route.next > 1);
                } else {
                    finished = true;
                }
            }
            let (gx, gy) = self.field.coords(route.goal);
            let (tx, ty) = self.field.coords(target_cell);
            let drifted = gx.abs_diff(tx) + gy.abs_diff(ty) > REPLAN_DRIFT_CELLS;
            if !finished {
                if drifted || route.age_s > ROUTE_LIFETIME_S {
                    self.ask_for_plan(i);
                }
                self.routes[i] = Some(route);
            }
            return;
        }
        // No route: walk straight at the target while the whole body can slide there.
        if !self.field.fits(footprint, target_cell) {
            // The target is in stone: stay until the noise moves it out.
            self.crowd.speed[i] = 0.0;
            return;
        }
        let clear = match self.last_sight[i] {
            Some((from, to, clear)) if from == here && to == target_cell => clear,
            _ => {
                let clear = visible(&self.field, footprint, here, target_cell);
                self.last_sight[i] = Some((here, target_cell, clear));
                clear
            }
        };
        if clear {
            // Aim inside the field: a target past the edge is walked to the edge.
            let [tx, ty] = self.crowd.target[i];
            let aim = [
                tx.clamp(0.5, self.field.width() as f32 - 0.5),
                ty.clamp(0.5, self.field.height() as f32 - 0.5),
            ];
            let (position, speed) = steer(self.crowd.position[i], aim, params, dt);
            if self.field.fits(footprint, self.cell_at(position)) {
                self.crowd.position[i] = position;
                self.crowd.speed[i] = speed;
                return;
            }
        }
        self.crowd.speed[i] = 0.0;
        self.ask_for_plan(i);
    }

    /// Plans NPC `i` from its cell to its target's cell.
    fn plan(&mut self, i: usize, search: FarthestSearch) {
        self.stats.plans += 1;
        let footprint = self.footprints[i];
        let start = self.cell_at(self.crowd.position[i]);
        let goal = self.cell_at(self.crowd.target[i]);
        let graph = FootprintGraph {
            field: &self.field,
            footprint,
        };
        let path = if self.field.fits(footprint, goal) && start != goal {
            self.search.astar(&graph, start, goal).path
        } else {
            None
        };
        let Some(raw) = path else {
            self.routes[i] = None;
            self.cooldown_s[i] = UNREACHABLE_WAIT_S;
            return;
        };
        let smoothed = smooth(&self.field, footprint, &raw, start, goal, search)
            .expect("A* paths are valid node paths");
        self.stats.routes += 1;
        self.stats.raw_waypoints += raw.len() as u64;
        self.stats.smoothed_waypoints += smoothed.waypoints.len() as u64;
        // Setting off on the first leg is the first turn.
        self.stats.turns += 1;
        // The first waypoint is the NPC's own cell: it steps to the centre before setting off.
        self.routes[i] = Some(Route {
            raw,
            waypoints: smoothed.waypoints,
            next: 0,
            goal,
            age_s: 0.0,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(count: usize, density: f64) -> SandboxConfig {
        SandboxConfig {
            seed: 21,
            count,
            width: 80,
            height: 60,
            density,
            footprints: FootprintMix::Small,
        }
    }

    #[test]
    fn npcs_start_where_they_fit_and_never_stand_in_stone() {
        let params = WanderParams::default();
        let mut sandbox = Sandbox::new(config(300, 0.3));
        for step in 0..2_000 {
            sandbox.step(&params, 1.0 / 30.0, 20, FarthestSearch::Binary);
            for i in 0..sandbox.crowd.len() {
                let cell = sandbox.cell_at(sandbox.crowd.position[i]);
                assert!(
                    sandbox.field.fits(sandbox.footprints[i], cell),
                    "step {step}: NPC {i} ({:?}) stands in stone at {:?}",
                    sandbox.footprints[i],
                    sandbox.field.coords(cell)
                );
            }
        }
        let stats = sandbox.stats;
        assert!(stats.routes > 50, "{stats:?}");
        assert!(stats.smoothed_waypoints < stats.raw_waypoints, "{stats:?}");
    }

    #[test]
    fn the_plan_budget_caps_plans_per_step() {
        let params = WanderParams::default();
        let mut sandbox = Sandbox::new(config(500, 0.35));
        let mut before = 0;
        for _ in 0..300 {
            sandbox.step(&params, 1.0 / 30.0, 3, FarthestSearch::Exact);
            assert!(sandbox.stats.plans - before <= 3);
            before = sandbox.stats.plans;
        }
        assert!(sandbox.stats.plans > 0);
    }

    #[test]
    fn on_an_open_field_nobody_needs_a_plan() {
        let params = WanderParams::default();
        let mut sandbox = Sandbox::new(config(100, 0.0));
        for _ in 0..1_000 {
            sandbox.step(&params, 1.0 / 30.0, 10, FarthestSearch::Binary);
        }
        assert_eq!(sandbox.stats.routes, 0, "{:?}", sandbox.stats);
        let moved = (0..100)
            .filter(|&i| sandbox.crowd.position[i] != sandbox.crowd.home[i])
            .count();
        assert!(moved > 90);
    }
}
