//! The wanderers' sandbox: tethered wanderers on an obstacle field. Each NPC's target is the
//! cell its body fits nearest to its Perlin-moved point, within its tether. An NPC walks straight
//! at its target while its whole body can slide there; when stone is in the way it plans a grid A*
//! path its footprint fits through, smooths it for its body, and follows the waypoints. Bodies
//! that touch are pushed apart ([`super::crowd`]), never into stone and never far past the
//! tether. Plans are served oldest first within a budget per step, and no NPC waits longer than
//! [`MAX_PLAN_WAIT_S`]. The parts of a step that are independent per NPC run on every core, with
//! the same result as on one.

mod bodies;
pub use bodies::{FootprintMix, field_size_for};
mod planning;
mod rules;
pub use rules::{RouteUpkeep, StepRules};
mod separation;
mod state;
pub use separation::APPLY_RUN;
pub use state::NpcState;
mod targets;

use super::crowd::{Body, Overlaps, SpatialGrid, measure_overlaps};
use super::field::{Footprint, ObstacleField};
use super::reach::Reach;
use super::smoothing::visible;
use super::wander::{WanderParams, WanderSummary, WanderTally, Wanderers, steer};
use crate::logic::grid_search::GridSearch;
use crate::logic::seed::{Stream, stream_rng};
use rand::RngExt;
use rayon::prelude::*;
use std::collections::VecDeque;

/// A route is planned again when the target has moved this many cells (Manhattan) from the
/// cell it was planned to.
const REPLAN_DRIFT_CELLS: usize = 3;
/// A route older than this is planned again from where its NPC stands, in seconds (when routes
/// are repaired, joined again from there): two NPCs bound for one waypoint can keep each other
/// from it for ever, and one pushed along by others should take the way a fresh plan would.
const ROUTE_LIFETIME_S: f32 = 4.0;
/// An NPC whose target could not be reached waits this long before trying again, in seconds.
const UNREACHABLE_WAIT_S: f32 = 1.0;
/// Distance at which a waypoint counts as reached, in cells.
const WAYPOINT_REACHED: f32 = 0.05;
/// Homes drawn per NPC before giving up on finding one its footprint fits apart from the
/// others' (then the first it fits is taken) or fits at all.
const HOME_DRAWS: usize = 1000;
/// Rows of the field in each strip along which NPCs are numbered (see [`Sandbox::new`]): about
/// the reach of a body's neighbours, a few rows, so a strip's NPCs are read together.
const HOME_STRIP_ROWS: usize = 8;
/// The longest an NPC waits for a plan, in seconds: past the budget, every NPC that would wait
/// longer is planned in the same step.
pub const MAX_PLAN_WAIT_S: f64 = 0.25;
/// Pushes may carry an NPC this far past its wander distance from home, in cells (its own walking
/// never does): room for a crowd at the edge of a tether to make way.
pub const TETHER_MARGIN: f32 = 2.0;
/// Plans per step when none is overdue: at 64 steps a second, a crowd that all needs routes at
/// once is spread over several frames.
pub const PLAN_BUDGET_PER_STEP: usize = 40;
/// The densest stone the sandbox offers (denser fields break into pockets).
pub const MAX_DENSITY: f64 = 0.45;
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
    /// Where each waypoint lies in `raw`.
    pub kept: Vec<usize>,
    /// The smoothed waypoints (cell ids), start first.
    pub waypoints: Vec<usize>,
    /// The waypoint being walked to.
    pub next: usize,
    /// The target cell the route was planned to.
    pub goal: usize,
    /// Steps per Manhattan step of the fresh plan it is or was repaired from: how much the stone
    /// bends the way, which bounds how long repairs may make it.
    pub detour: f32,
    /// Seconds since it was planned, or since its NPC joined it again from where it stood (a
    /// repair of its end alone keeps the age).
    pub age_s: f32,
}

/// Running totals for the statistics panel.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SandboxStats {
    /// Routes planned from scratch (successful A* searches).
    pub routes: u64,
    /// Routes repaired rather than planned again.
    pub repairs: u64,
    /// Plans and repairs attempted, successful or not.
    pub plans: u64,
    /// A* nodes over all routes planned and repaired.
    pub raw_waypoints: u64,
    /// Smoothed waypoints over all routes planned and repaired.
    pub smoothed_waypoints: u64,
    /// Turns made along routes: each new leg of a route is one turn, setting off included (the
    /// paper's count).
    pub turns: u64,
    /// Seconds simulated.
    pub seconds: f64,
    /// The longest any NPC has waited for a plan, in seconds.
    pub longest_plan_wait_s: f64,
}

/// What one NPC does in a step, worked out from the sandbox as it was before the step.
#[derive(Debug, Clone, Copy)]
struct Move {
    position: [f32; 2],
    speed: f32,
    route: RouteProgress,
    /// The straight-line test made, to be remembered.
    sight: Option<(usize, usize, bool)>,
    /// A new leg of the route was begun.
    turned: bool,
    wants_plan: bool,
    /// It should join its route again from where it stands: pushed against stone off the way to
    /// its next waypoint, or on the route so long that others may have kept it from a waypoint.
    rejoin: bool,
}

/// What became of an NPC's route in a step.
#[derive(Debug, Clone, Copy)]
enum RouteProgress {
    /// It had none.
    Without,
    /// It walks on toward waypoint `next`.
    Following { next: usize, age_s: f32 },
    /// It reached the last waypoint.
    Finished,
}

/// Wanderers on an obstacle field.
#[derive(Debug, Clone)]
pub struct Sandbox {
    /// The field.
    pub field: ObstacleField,
    /// The NPCs' wandering (homes, positions, targets on the map).
    pub crowd: Wanderers,
    /// Each NPC's body, as drawn when the sandbox was made (its planning and targets follow
    /// the body it was made with).
    pub footprints: Vec<Footprint>,
    /// Where each body shape of the crowd fits and can walk, one per shape.
    reaches: Vec<Reach>,
    /// Each NPC's entry in `reaches`.
    reach_of: Vec<u8>,
    /// Each NPC's route, while it follows one.
    pub routes: Vec<Option<Route>>,
    /// Totals since the start.
    pub stats: SandboxStats,
    /// The longest wait of the plans made since it was last taken, in seconds.
    longest_wait_untaken_s: f64,
    /// NPCs waiting for a plan, oldest first, with the time they asked (in sandbox seconds).
    waiting: VecDeque<(usize, f64)>,
    queued: Vec<bool>,
    /// NPCs that should join their route again from where they stand ([`Move::rejoin`]), until
    /// it is repaired or planned again.
    rejoin: Vec<bool>,
    /// Seconds each NPC must wait before asking for a plan again.
    cooldown_s: Vec<f32>,
    /// The last straight-line test of each NPC: (from cell, to cell, clear). NPCs change cell
    /// far less often than they step, so most steps reuse it.
    last_sight: Vec<Option<(usize, usize, bool)>>,
    /// The cell (x, y) of each NPC's noise point when its target was last put on the map, and
    /// the wander distance it was put there with: the target changes only when they do.
    noise_cell: Vec<Option<[i64; 2]>>,
    noise_cells_for_distance: f32,
    /// One search per worker of the parallel planning.
    searches: Vec<GridSearch>,
    grid: SpatialGrid,
}

impl Sandbox {
    /// A sandbox: the field from the seed, then homes drawn on cells each NPC's body fits, the
    /// NPCs numbered by where their homes lie.
    pub fn new(config: SandboxConfig) -> Sandbox {
        let field =
            ObstacleField::from_noise(config.seed, config.width, config.height, config.density);
        let mut rng = stream_rng(config.seed, Stream::SandboxHomes);
        let side = config.footprints.max_side();
        let mut npcs: Vec<(Footprint, (usize, usize))> = Vec::with_capacity(config.count);
        // The cells covered by the bodies of the homes drawn so far, as stone: a home is drawn
        // where its body covers neither stone nor another home's body while there is room, so
        // a crowd starts apart rather than squeezed into pockets it cannot leave.
        let mut claimed = ObstacleField::open(config.width, config.height);
        for _ in 0..config.count {
            let footprint = Footprint::new(rng.random_range(1..=side), rng.random_range(1..=side))
                .expect("mix sides are 1 to 3");
            let (mut apart, mut fitting) = (None, None);
            for _ in 0..HOME_DRAWS {
                let cell = rng.random_range(0..config.width * config.height);
                if !field.fits(footprint, cell) {
                    continue;
                }
                if claimed.fits(footprint, cell) {
                    apart = Some(cell);
                    break;
                }
                fitting.get_or_insert(cell);
            }
            // A field with no room at all for this body gets a one-cell NPC at any open cell.
            let (footprint, home) = match apart.or(fitting) {
                Some(home) => (footprint, home),
                None => (
                    Footprint::POINT,
                    (0..config.width * config.height)
                        .find(|&c| field.fits(Footprint::POINT, c))
                        .unwrap_or(0),
                ),
            };
            claim(&mut claimed, footprint, home);
            npcs.push((footprint, field.coords(home)));
        }
        // NPCs are numbered along strips of the field, so the data of neighbours lies close
        // together in memory: each step's pass over the crowd in spatial order then reads it
        // almost in sequence rather than all over the place.
        npcs.sort_by_key(|&(_, (x, y))| (y / HOME_STRIP_ROWS, x, y));
        let (footprints, homes): (Vec<Footprint>, Vec<[f32; 2]>) = npcs
            .into_iter()
            .map(|(footprint, (x, y))| (footprint, [x as f32 + 0.5, y as f32 + 0.5]))
            .unzip();
        let count = homes.len();
        let mut shapes: Vec<Footprint> = footprints.clone();
        shapes.sort_unstable_by_key(|f| (f.length(), f.width()));
        shapes.dedup();
        let reaches: Vec<Reach> = shapes
            .par_iter()
            .map(|&shape| Reach::new(&field, shape))
            .collect();
        let reach_of = footprints
            .iter()
            .map(|f| {
                shapes
                    .iter()
                    .position(|s| s == f)
                    .expect("every shape has a reach") as u8
            })
            .collect();
        Sandbox {
            reaches,
            reach_of,
            crowd: Wanderers::new(config.seed, homes),
            footprints,
            routes: vec![None; count],
            stats: SandboxStats::default(),
            longest_wait_untaken_s: 0.0,
            waiting: VecDeque::new(),
            queued: vec![false; count],
            rejoin: vec![false; count],
            cooldown_s: vec![0.0; count],
            last_sight: vec![None; count],
            noise_cell: vec![None; count],
            noise_cells_for_distance: f32::NAN,
            searches: Vec::new(),
            grid: SpatialGrid::default(),
            field,
        }
    }

    /// The cell under a position, clamped into the field.
    pub fn cell_at(&self, position: [f32; 2]) -> usize {
        cell_under(&self.field, position)
    }

    /// The centre of a cell.
    pub fn centre(&self, cell: usize) -> [f32; 2] {
        let (x, y) = self.field.coords(cell);
        [x as f32 + 0.5, y as f32 + 0.5]
    }

    /// Where NPC `i`'s body fits and can walk.
    pub fn reach(&self, i: usize) -> &Reach {
        &self.reaches[usize::from(self.reach_of[i])]
    }

    /// NPC `i`'s body where it stands.
    pub fn body(&self, i: usize) -> Body {
        Body::new(self.footprints[i], self.crowd.position[i])
    }

    /// NPCs waiting for a plan.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The longest any NPC waited for the plans made since the last call, in seconds: for a
    /// reader that looks less often than the sandbox steps.
    pub fn take_longest_plan_wait(&mut self) -> f64 {
        std::mem::take(&mut self.longest_wait_untaken_s)
    }

    /// How much the bodies overlap now.
    pub fn overlaps(&mut self) -> Overlaps {
        let bodies: Vec<Body> = (0..self.crowd.len()).map(|i| self.body(i)).collect();
        self.grid
            .build(&bodies, self.field.width(), self.field.height(), 0.0);
        measure_overlaps(&self.grid)
    }

    /// One step of `dt` seconds: targets move, NPCs walk or follow routes, touching bodies are
    /// pushed apart, and waiting NPCs get plans.
    pub fn step(&mut self, params: &WanderParams, dt: f32, rules: &StepRules) {
        self.stats.seconds += f64::from(dt);
        self.refresh_targets(params, dt);
        let moves: Vec<Move> = (0..self.crowd.len())
            .into_par_iter()
            .map(|i| self.intended_move(i, params, dt))
            .collect();
        // Each NPC's own state on every core; then the queue, in NPC order.
        self.stats.turns += self
            .cooldown_s
            .par_iter_mut()
            .zip(self.crowd.position.par_iter_mut())
            .zip(self.crowd.speed.par_iter_mut())
            .zip(self.last_sight.par_iter_mut())
            .zip(self.routes.par_iter_mut())
            .zip(moves.par_iter())
            .map(|(((((cooldown, position), speed), sight), route), step)| {
                *cooldown = (*cooldown - dt).max(0.0);
                *position = step.position;
                *speed = step.speed;
                if step.sight.is_some() {
                    *sight = step.sight;
                }
                match step.route {
                    RouteProgress::Without => {}
                    RouteProgress::Finished => *route = None,
                    RouteProgress::Following { next, age_s } => {
                        if let Some(route) = route {
                            route.next = next;
                            route.age_s = age_s;
                        }
                    }
                }
                u64::from(step.turned)
            })
            .sum::<u64>();
        for (i, step) in moves.iter().enumerate() {
            self.rejoin[i] |= step.rejoin;
            if step.wants_plan && !self.queued[i] && self.cooldown_s[i] <= 0.0 {
                self.queued[i] = true;
                self.waiting.push_back((i, self.stats.seconds));
            }
        }
        if rules.avoid {
            self.separate(params);
        }
        self.plan_waiting(rules, dt, params.wander_max_distance);
    }

    /// Runs `steps` steps of `dt` seconds and sums up what happened: the wandering, and from the
    /// first simulated second on, the worst overlap of bodies.
    pub fn run_and_summarize(
        &mut self,
        params: &WanderParams,
        dt: f32,
        steps: u64,
        rules: &StepRules,
    ) -> SandboxSummary {
        let mut tally = WanderTally::default();
        let mut worst = Overlaps::default();
        for _ in 0..steps {
            self.step(params, dt, rules);
            tally.record(&self.crowd.home, &self.crowd.position, &self.crowd.speed);
            if self.stats.seconds >= SETTLING_S {
                let now = self.overlaps();
                worst.pairs = worst.pairs.max(now.pairs);
                worst.max_covered_fraction =
                    worst.max_covered_fraction.max(now.max_covered_fraction);
            }
        }
        SandboxSummary {
            wander: tally.summary(),
            overlaps: worst,
            stats: self.stats,
        }
    }

    /// The farthest of `to`, `to` along x only and `to` along y only at which a body of
    /// `footprint` covers no stone: a body slides along a wall rather than stopping dead. `None`
    /// when none.
    fn slide(&self, footprint: Footprint, from: [f32; 2], to: [f32; 2]) -> Option<[f32; 2]> {
        let open = |p: [f32; 2]| {
            let body = Body::new(footprint, p);
            self.field.area_is_open(body.min(), body.max())
        };
        [to, [to[0], from[1]], [from[0], to[1]]]
            .into_iter()
            .find(|&p| open(p))
    }

    /// Where NPC `i` walks in this step and what becomes of its route.
    fn intended_move(&self, i: usize, params: &WanderParams, dt: f32) -> Move {
        let here_at = self.crowd.position[i];
        let standing = Move {
            position: here_at,
            speed: 0.0,
            route: RouteProgress::Without,
            sight: None,
            turned: false,
            wants_plan: false,
            rejoin: false,
        };
        let footprint = self.footprints[i];
        let target_cell = self.cell_at(self.crowd.target[i]);
        if let Some(route) = &self.routes[i] {
            let age_s = route.age_s + dt;
            let aim = self.centre(route.waypoints[route.next]);
            let (stepped, speed) = steer(here_at, aim, params, dt);
            let Some(position) = self.slide(footprint, here_at, stepped) else {
                // Pushed off its route against stone: it needs a new one.
                return Move {
                    route: RouteProgress::Following {
                        next: route.next,
                        age_s,
                    },
                    wants_plan: true,
                    rejoin: true,
                    ..standing
                };
            };
            let (mut next, mut turned, mut finished) = (route.next, false, false);
            let mut position = position;
            let (dx, dy) = (aim[0] - position[0], aim[1] - position[1]);
            if (dx * dx + dy * dy).sqrt() <= WAYPOINT_REACHED {
                position = aim;
                if next + 1 < route.waypoints.len() {
                    next += 1;
                    // Each new leg is a turn: leaving the first waypoint (the NPC's own cell, or
                    // the waypoint a repaired route was being walked to) is setting off.
                    turned = true;
                } else {
                    finished = true;
                }
            }
            let (gx, gy) = self.field.coords(route.goal);
            let (tx, ty) = self.field.coords(target_cell);
            let drifted = gx.abs_diff(tx) + gy.abs_diff(ty) > REPLAN_DRIFT_CELLS;
            return Move {
                position,
                speed,
                route: if finished {
                    RouteProgress::Finished
                } else {
                    RouteProgress::Following { next, age_s }
                },
                sight: None,
                turned,
                rejoin: !finished && age_s > ROUTE_LIFETIME_S,
                wants_plan: !finished && (drifted || age_s > ROUTE_LIFETIME_S),
            };
        }
        // No route: walk straight at the target while the whole body can slide there.
        let here = self.cell_at(here_at);
        let (clear, sight) = match self.last_sight[i] {
            Some((from, to, clear)) if from == here && to == target_cell => (clear, None),
            _ => {
                let clear = self.reach(i).fits(target_cell)
                    && visible(&self.field, footprint, here, target_cell);
                (clear, Some((here, target_cell, clear)))
            }
        };
        if clear {
            let (stepped, speed) = steer(here_at, self.crowd.target[i], params, dt);
            if let Some(position) = self.slide(footprint, here_at, stepped) {
                let moved = position != here_at;
                return Move {
                    position,
                    speed: if moved { speed } else { 0.0 },
                    sight,
                    wants_plan: !moved && speed > 0.0,
                    ..standing
                };
            }
        }
        Move {
            sight,
            wants_plan: true,
            ..standing
        }
    }
}

/// Marks the cells a body of `footprint` covers around `cell` as stone in `claimed` (those
/// inside the field).
fn claim(claimed: &mut ObstacleField, footprint: Footprint, cell: usize) {
    let (x, y) = claimed.coords(cell);
    let [left, top, right, bottom] = footprint.extents().map(usize::from);
    for cy in y.saturating_sub(top)..=(y + bottom).min(claimed.height() - 1) {
        for cx in x.saturating_sub(left)..=(x + right).min(claimed.width() - 1) {
            claimed.set_blocked(cx, cy, true);
        }
    }
}

/// The cell of `field` under a position, clamped into the field.
fn cell_under(field: &ObstacleField, [x, y]: [f32; 2]) -> usize {
    let cx = (x.max(0.0) as usize).min(field.width() - 1);
    let cy = (y.max(0.0) as usize).min(field.height() - 1);
    field.id(cx, cy)
}

/// A crowd with too little room to draw every home apart overlaps from the start, and any crowd
/// jostles as it first sets off; overlaps are measured from this many seconds on, when it has
/// had time to part.
pub const SETTLING_S: f64 = 1.0;

/// What a sandbox run shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SandboxSummary {
    /// How far NPCs strayed, how fast and how differently they moved.
    pub wander: WanderSummary,
    /// The worst overlap of bodies from [`SETTLING_S`] on: the most pairs at once, and the largest
    /// share of one body covered.
    pub overlaps: Overlaps,
    /// The totals at the end.
    pub stats: SandboxStats,
}

#[cfg(test)]
mod tests;
