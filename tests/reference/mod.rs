//! Oracles and peers written once for the property tests and the benchmarks: the `pathfinding`
//! crate's A* on our mazes and on the runner's lane graph, and a brute-force footprint sweep.
#![allow(
    dead_code,
    reason = "each test or bench that includes this uses a different part"
)]

use temple_trails::logic::grid_search::GridGraph;
use temple_trails::logic::maze::{Direction, Maze};
use temple_trails::logic::runner::planner::{MISSED_COIN_COST, route_cost};
use temple_trails::logic::runner::timing::{LANES, Timing};
use temple_trails::logic::runner::track::{LaneContent, Segment};
use temple_trails::logic::wanderers::field::{Footprint, ObstacleField};

/// Steps of the shortest path from `start` to `goal` found by `pathfinding::prelude::astar`
/// with the same Manhattan heuristic as ours, or `None` when unreachable.
pub fn pathfinding_astar_steps(maze: &Maze, start: usize, goal: usize) -> Option<usize> {
    let width = maze.width();
    let (goal_x, goal_y) = (goal % width, goal / width);
    pathfinding::prelude::astar(
        &start,
        |&cell| {
            let mut next = Vec::with_capacity(4);
            maze.for_each_neighbour(cell, |n| next.push((n, 1usize)));
            next
        },
        |&cell| (cell % width).abs_diff(goal_x) + (cell / width).abs_diff(goal_y),
        |&cell| cell == goal,
    )
    .map(|(_, cost)| cost)
}

/// The cost of the best lane route through `window` from `start_lane`, found by
/// `pathfinding::prelude::astar` on the same (segments passed, lane) graph with the same step
/// costs and heuristic as our planner, or `None` when every route meets a wall.
pub fn pathfinding_lane_route_cost(
    timing: &Timing,
    window: &[Segment],
    start_lane: u8,
) -> Option<u32> {
    let reach: Vec<u8> = window
        .iter()
        .map(|s| timing.lane_moves_into(s.index, s.kind.is_junction()))
        .collect();
    // Segments from k on with no coins in any lane: each of them costs at least a missed coin.
    let mut coinless_from = vec![0u32; window.len() + 1];
    for k in (0..window.len()).rev() {
        let coinless = !window[k].lanes.contains(&LaneContent::Coins);
        coinless_from[k] = coinless_from[k + 1] + u32::from(coinless);
    }
    pathfinding::prelude::astar(
        &(0usize, start_lane),
        |&(passed, lane)| {
            let mut next = Vec::with_capacity(LANES);
            if let Some(segment) = window.get(passed) {
                for to in 0..LANES as u8 {
                    let content = segment.lanes[usize::from(to)];
                    if to.abs_diff(lane) <= reach[passed] && content.passable() {
                        next.push(((passed + 1, to), route_cost(lane, [(to, segment)])));
                    }
                }
            }
            next
        },
        |&(passed, _)| MISSED_COIN_COST * coinless_from[passed],
        |&(passed, _)| passed == window.len(),
    )
    .map(|(_, cost)| cost)
}

/// Positions of the footprint sampled per cell of distance along a sweep.
const SAMPLES_PER_CELL: usize = 64;

/// Whether a rectangle of the body, placed with its centre at (cx, cy) in cell units, overlaps a
/// blocked cell (or the outside) with positive area.
fn body_hits(field: &ObstacleField, footprint: Footprint, cx: f64, cy: f64) -> bool {
    let [left, top, right, bottom] = footprint.extents().map(f64::from);
    let (x0, x1) = (cx - left - 0.5, cx + right + 0.5);
    let (y0, y1) = (cy - top - 0.5, cy + bottom + 0.5);
    let cells = |lo: f64, hi: f64| (lo.floor() as i64)..(hi.ceil() as i64);
    cells(y0, y1).any(|y| cells(x0, x1).any(|x| field.is_blocked(x, y)))
}

/// The brute-force oracle: the body slid from centre to centre in many small steps.
pub fn sweep_is_clear(field: &ObstacleField, footprint: Footprint, a: usize, b: usize) -> bool {
    let (ax, ay) = field.coords(a);
    let (bx, by) = field.coords(b);
    let (ax, ay, bx, by) = (
        ax as f64 + 0.5,
        ay as f64 + 0.5,
        bx as f64 + 0.5,
        by as f64 + 0.5,
    );
    let distance = (bx - ax).abs().max((by - ay).abs());
    let samples = (distance as usize + 1) * SAMPLES_PER_CELL;
    (0..=samples).all(|i| {
        let t = i as f64 / samples as f64;
        !body_hits(field, footprint, ax + (bx - ax) * t, ay + (by - ay) * t)
    })
}

/// A point in doubled maze coordinates: cell (x, y) has its centre at (2x + 1, 2y + 1) and its
/// walls on the even lines around it.
type Point = (i64, i64);

/// Every closed wall of `maze` as a segment in doubled coordinates, the outer wall included.
pub fn closed_walls(maze: &Maze) -> Vec<(Point, Point)> {
    let (width, height) = (maze.width() as i64, maze.height() as i64);
    let mut walls = vec![((0, 0), (2 * width, 0)), ((0, 0), (0, 2 * height))];
    for cell in 0..maze.cell_count() {
        let (x, y) = maze.coords(cell);
        let (x, y) = (x as i64, y as i64);
        if !maze.is_open(cell, Direction::East) {
            walls.push(((2 * x + 2, 2 * y), (2 * x + 2, 2 * y + 2)));
        }
        if !maze.is_open(cell, Direction::South) {
            walls.push(((2 * x, 2 * y + 2), (2 * x + 2, 2 * y + 2)));
        }
    }
    walls
}

/// Whether the segment between the centres of cells `a` and `b` touches none of `walls` (an end
/// of a wall counts): every wall is tried, with exact integer orientation tests.
pub fn brute_force_in_sight(maze: &Maze, walls: &[(Point, Point)], a: usize, b: usize) -> bool {
    let centre = |cell: usize| {
        let (x, y) = maze.coords(cell);
        (2 * x as i64 + 1, 2 * y as i64 + 1)
    };
    let (p, q) = (centre(a), centre(b));
    !walls.iter().any(|&(c, d)| segments_touch(p, q, c, d))
}

/// The sign of the turn from `a`→`b` to `a`→`c`.
fn orientation(a: Point, b: Point, c: Point) -> i64 {
    ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).signum()
}

/// Whether `c`, known to be on the line through `a` and `b`, lies between them.
fn within(a: Point, b: Point, c: Point) -> bool {
    c.0 >= a.0.min(b.0) && c.0 <= a.0.max(b.0) && c.1 >= a.1.min(b.1) && c.1 <= a.1.max(b.1)
}

/// Whether the closed segments `p`-`q` and `c`-`d` share a point.
fn segments_touch(p: Point, q: Point, c: Point, d: Point) -> bool {
    let (d1, d2) = (orientation(c, d, p), orientation(c, d, q));
    let (d3, d4) = (orientation(p, q, c), orientation(p, q, d));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && within(c, d, p))
        || (d2 == 0 && within(c, d, q))
        || (d3 == 0 && within(p, q, c))
        || (d4 == 0 && within(p, q, d))
}
