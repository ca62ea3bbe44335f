//! Temple guardians: the wanderers of the wanderers feature, let loose in a maze. Each has a home
//! cell and its own noise offsets ([`Wanderers`]); its target is the cell of its reach nearest
//! the point Perlin noise moves around home, and it walks the maze's corridors there along the
//! A* route inside its reach, slowing as it arrives. Its reach is every cell at most its tether
//! of steps from home, so it never leaves home far behind and never walks through a wall; homes
//! lie far enough off the shortest way from start to exit that no reach touches it, so guardians
//! lurk where a player exploring in the dark goes astray, and never at the start or a shrine.

use super::Maze;
use super::challenge::{GUARDIAN_TETHER, ROUTE_MARGIN};
use super::grid::Region;
use crate::logic::grid_search::{GridGraph, GridSearch, distance_map_from};
use crate::logic::seed::{Fnv1a, Stream, stream_rng};
use crate::logic::wanderers::wander::{WanderParams, Wanderers, arrival_speed};
use rand::seq::SliceRandom;
use std::collections::VecDeque;

/// How guardians wander: within their tether, at 2.5 cells a second, their targets refreshed
/// every 16 fixed steps (a quarter of a second).
pub const GUARDIAN_WANDER: WanderParams = WanderParams {
    wander_max_distance: GUARDIAN_TETHER as f32,
    noise_speed: 0.2,
    movement_strength: 2.5,
    arrive_radius: 1.5,
    refresh_every: 16,
};
/// The slowest a guardian walks while it has somewhere to go, so that it arrives.
const MIN_SPEED: f32 = 0.25;

/// One guardian.
#[derive(Debug, Clone, PartialEq)]
pub struct Guardian {
    /// The cell it wanders around.
    pub home: usize,
    /// The most steps it may stand from home.
    pub tether: u32,
    /// The cell it stands on, or is leaving.
    pub at: usize,
    /// The neighbour it is walking to, through an open passage.
    pub next: Option<usize>,
    /// How far it has come from `at` toward `next`, 0.0..1.0.
    pub progress: f32,
    /// The cells still to walk after `next`, the last first.
    route: Vec<usize>,
    /// A fingerprint of the route as it was planned (it only shrinks from then on).
    route_hash: u64,
    /// Every cell at most `tether` steps from home, in increasing id order.
    reach: Vec<usize>,
}

impl Guardian {
    /// The cell it is in: `at` until it is halfway to `next`.
    pub fn cell(&self) -> usize {
        match self.next {
            Some(next) if self.progress >= 0.5 => next,
            _ => self.at,
        }
    }

    /// Its position in cell coordinates (cell (x, y) at (x, y)), between `at` and `next`.
    pub fn position(&self, maze: &Maze) -> [f32; 2] {
        let (ax, ay) = maze.coords(self.at);
        let (bx, by) = maze.coords(self.next.unwrap_or(self.at));
        let t = self.progress;
        [
            ax as f32 + (bx as f32 - ax as f32) * t,
            ay as f32 + (by as f32 - ay as f32) * t,
        ]
    }

    /// The cells it may walk, in increasing id order.
    pub fn reach(&self) -> &[usize] {
        &self.reach
    }

    /// Cells left to walk to its target, counting the part of the way to `next` still ahead.
    fn distance_left(&self) -> f32 {
        let ahead = if self.next.is_some() {
            1.0 - self.progress
        } else {
            0.0
        };
        self.route.len() as f32 + ahead
    }
}

/// The guardians of one maze.
#[derive(Debug, Clone)]
pub struct Guardians {
    /// Their noise: homes and each one's own offsets.
    wander: Wanderers,
    /// The guardians, in the order they were placed.
    pub guardians: Vec<Guardian>,
    /// Reusable A* buffers.
    search: GridSearch,
}

impl Guardians {
    /// No guardians.
    pub fn none() -> Guardians {
        Guardians {
            wander: Wanderers::new(0, Vec::new()),
            guardians: Vec::new(),
            search: GridSearch::new(),
        }
    }

    /// Up to `count` guardians for a maze, homes drawn from the seed's guardian stream among the
    /// cells more than a tether and [`ROUTE_MARGIN`] steps from every cell of `keep_clear`
    /// (the shortest way from start to exit), no two homes closer than a tether (counted along
    /// x plus y). A maze with too little room off the way gets fewer.
    pub fn place(maze: &Maze, seed: u64, count: usize, keep_clear: &[usize]) -> Guardians {
        if count == 0 {
            return Guardians::none();
        }
        let tether = GUARDIAN_TETHER;
        let clearance = distance_map_from(maze, keep_clear);
        let mut candidates: Vec<usize> = (0..maze.cell_count())
            .filter(|&cell| clearance[cell].is_none_or(|steps| steps > tether + ROUTE_MARGIN))
            .collect();
        candidates.shuffle(&mut stream_rng(seed, Stream::MazeGuardians));
        let mut homes: Vec<usize> = Vec::with_capacity(count);
        for cell in candidates {
            if homes.len() == count {
                break;
            }
            let (x, y) = maze.coords(cell);
            let spaced = homes.iter().all(|&home| {
                let (hx, hy) = maze.coords(home);
                x.abs_diff(hx) + y.abs_diff(hy) >= tether as usize
            });
            if spaced {
                homes.push(cell);
            }
        }
        let points = homes
            .iter()
            .map(|&home| {
                let (x, y) = maze.coords(home);
                [x as f32, y as f32]
            })
            .collect();
        Guardians {
            wander: Wanderers::new(seed, points),
            guardians: homes
                .into_iter()
                .map(|home| Guardian {
                    home,
                    tether,
                    at: home,
                    next: None,
                    progress: 0.0,
                    route: Vec::new(),
                    route_hash: 0,
                    reach: cells_within(maze, home, tether),
                })
                .collect(),
            search: GridSearch::new(),
        }
    }

    /// Number of guardians.
    pub fn len(&self) -> usize {
        self.guardians.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.guardians.is_empty()
    }

    /// One step of `dt` seconds: targets refreshed when due, then every guardian walks.
    pub fn step(&mut self, maze: &Maze, dt: f32) {
        if self.guardians.is_empty() {
            return;
        }
        let params = GUARDIAN_WANDER;
        let every = self.wander.begin_step(&params, dt);
        for i in 0..self.guardians.len() {
            if self.wander.is_due(i, every) {
                let point = self.wander.target_of(i, &params);
                self.retarget(maze, i, point);
            }
            walk(&mut self.guardians[i], dt);
        }
        self.wander.end_step();
    }

    /// Points guardian `i` at the cell of its reach nearest `point` (the first in id order on a
    /// tie), along the A* route inside its reach from where it stands or is heading.
    fn retarget(&mut self, maze: &Maze, i: usize, [px, py]: [f32; 2]) {
        let guardian = &mut self.guardians[i];
        let squared_distance = |cell: usize| {
            let (x, y) = maze.coords(cell);
            (x as f32 - px).powi(2) + (y as f32 - py).powi(2)
        };
        let target = guardian
            .reach
            .iter()
            .copied()
            .min_by(|&a, &b| squared_distance(a).total_cmp(&squared_distance(b)))
            .unwrap_or(guardian.home);
        let from = guardian.next.unwrap_or(guardian.at);
        let reach = &guardian.reach;
        let region = Region {
            maze,
            allowed: |cell| reach.binary_search(&cell).is_ok(),
        };
        let route = self.search.astar(&region, from, target).path;
        guardian.route = route.unwrap_or_default();
        guardian.route.reverse();
        // The route starts where the guardian stands or is heading.
        guardian.route.pop();
        let mut hash = Fnv1a::new();
        for &cell in &guardian.route {
            hash.u64(cell as u64);
        }
        guardian.route_hash = hash.finish();
    }

    /// Feeds a fingerprint the guardians' share: the noise's clock, and where each stands, is
    /// going and by which route.
    pub fn fingerprint_into(&self, hash: &mut Fnv1a) {
        hash.u64(self.wander.steps())
            .u64(self.wander.noise_time().to_bits())
            .u64(self.guardians.len() as u64);
        for g in &self.guardians {
            hash.u64(g.at as u64)
                .u64(g.next.map_or(u64::MAX, |cell| cell as u64))
                .u64(u64::from(g.progress.to_bits()))
                .u64(g.route.len() as u64)
                .u64(g.route_hash);
        }
    }
}

/// Walks a guardian along its route for `dt` seconds, slowing as it arrives.
fn walk(guardian: &mut Guardian, dt: f32) {
    if guardian.next.is_none() {
        guardian.next = guardian.route.pop();
        guardian.progress = 0.0;
    }
    if guardian.next.is_none() {
        return;
    }
    let speed = arrival_speed(guardian.distance_left(), &GUARDIAN_WANDER).max(MIN_SPEED);
    let mut travel = speed * dt;
    while let Some(next) = guardian.next {
        let left = 1.0 - guardian.progress;
        if travel < left {
            guardian.progress += travel;
            return;
        }
        travel -= left;
        guardian.at = next;
        guardian.next = guardian.route.pop();
        guardian.progress = 0.0;
    }
}

/// Every cell at most `steps` steps from `from` along open passages, in increasing id order.
pub fn cells_within(maze: &Maze, from: usize, steps: u32) -> Vec<usize> {
    let mut found = vec![from];
    let mut frontier = VecDeque::from([(from, 0)]);
    while let Some((cell, distance)) = frontier.pop_front() {
        if distance == steps {
            continue;
        }
        maze.for_each_neighbour(cell, |next| {
            if !found.contains(&next) {
                found.push(next);
                frontier.push_back((next, distance + 1));
            }
        });
    }
    found.sort_unstable();
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::grid_search::distance_map;
    use crate::logic::maze::{Algorithm, MazeSpec};

    fn maze(side: usize, seed: u64) -> Maze {
        MazeSpec {
            width: side,
            height: side,
            algorithm: Algorithm::Backtracker,
            braid: 0.0,
            seed,
        }
        .generate()
        .unwrap()
    }

    #[test]
    fn a_reach_is_every_cell_within_the_tether() {
        let maze = maze(12, 3);
        let home = maze.id(6, 6);
        let distance = distance_map(&maze, home);
        let expected: Vec<usize> = (0..maze.cell_count())
            .filter(|&c| distance[c].is_some_and(|d| d <= 4))
            .collect();
        assert_eq!(cells_within(&maze, home, 4), expected);
        assert_eq!(cells_within(&maze, home, 0), vec![home]);
    }

    #[test]
    fn guardians_keep_clear_of_the_start_and_apart() {
        let maze = maze(20, 5);
        let guardians = Guardians::place(&maze, 5, 4, &[maze.start()]);
        assert_eq!(guardians.len(), 4);
        let from_start = distance_map(&maze, maze.start());
        for g in &guardians.guardians {
            assert!(from_start[g.home].unwrap() > GUARDIAN_TETHER + ROUTE_MARGIN);
            assert!(!g.reach().contains(&maze.start()));
        }
        // A tiny maze has no room for any.
        let tiny = self::maze(2, 5);
        assert!(Guardians::place(&tiny, 5, 3, &[tiny.start()]).is_empty());
    }

    #[test]
    fn a_guardian_walks_to_its_target_and_slows_before_it() {
        let maze = maze(20, 8);
        let mut guardians = Guardians::place(&maze, 8, 1, &[maze.start()]);
        let far = *guardians.guardians[0]
            .reach()
            .iter()
            .max_by_key(|&&c| distance_map(&maze, guardians.guardians[0].home)[c])
            .unwrap();
        let (fx, fy) = maze.coords(far);
        guardians.retarget(&maze, 0, [fx as f32, fy as f32]);
        let dt = 1.0 / 64.0;
        let mut speeds = Vec::new();
        for _ in 0..64 * 20 {
            let before = guardians.guardians[0].distance_left();
            walk(&mut guardians.guardians[0], dt);
            speeds.push((before - guardians.guardians[0].distance_left()) / dt);
        }
        let g = &guardians.guardians[0];
        assert_eq!((g.at, g.next), (far, None), "it arrived");
        assert!((speeds[0] - GUARDIAN_WANDER.movement_strength).abs() < 1e-3);
        let last_moving = speeds.iter().rposition(|&s| s > 0.0).unwrap();
        assert!(speeds[last_moving] < GUARDIAN_WANDER.movement_strength / 2.0);
    }

    #[test]
    fn every_part_of_a_guardian_moves_the_fingerprint() {
        let maze = maze(20, 5);
        let mut guardians = Guardians::place(&maze, 5, 2, &[maze.start()]);
        // Walk until the first guardian has a route ahead of it.
        while guardians.guardians[0].route.len() < 2 {
            guardians.step(&maze, 1.0 / 64.0);
        }
        let print = |guardians: &Guardians| {
            let mut hash = Fnv1a::new();
            guardians.fingerprint_into(&mut hash);
            hash.finish()
        };
        type Change = (&'static str, fn(&mut Guardians));
        let changes: [Change; 7] = [
            ("the steps", |g| g.wander.end_step()),
            ("the noise clock", |g| {
                g.wander.begin_step(&GUARDIAN_WANDER, 1.0);
            }),
            ("where one stands", |g| {
                g.guardians[1].at = g.guardians[1].reach()[1]
            }),
            ("where one heads", |g| g.guardians[0].next = None),
            ("how far it has come", |g| g.guardians[0].progress += 0.25),
            ("how much of its route is left", |g| {
                g.guardians[0].route.pop();
            }),
            ("which route it took", |g| g.guardians[0].route_hash ^= 1),
        ];
        let mut prints = vec![print(&guardians)];
        for (part, change) in changes {
            let mut changed = guardians.clone();
            change(&mut changed);
            let changed = print(&changed);
            assert!(
                !prints.contains(&changed),
                "changing {part} left the fingerprint"
            );
            prints.push(changed);
        }
    }
}
