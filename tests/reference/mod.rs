//! The `pathfinding` crate's A* on our mazes and on the runner's lane graph: oracles of the
//! property tests and peers of the benchmarks, written once for both.
#![allow(
    dead_code,
    reason = "each test or bench that includes this uses a different part"
)]

use temple_trails::logic::grid_search::GridGraph;
use temple_trails::logic::maze::Maze;
use temple_trails::logic::runner::planner::route_cost;
use temple_trails::logic::runner::timing::{LANES, Timing};
use temple_trails::logic::runner::track::{LaneContent, Segment};

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
    let missed_coins_cost = route_cost(0, [(0, false)]);
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
                        let coins = content == LaneContent::Coins;
                        next.push(((passed + 1, to), route_cost(lane, [(to, coins)])));
                    }
                }
            }
            next
        },
        |&(passed, _)| missed_coins_cost * coinless_from[passed],
        |&(passed, _)| passed == window.len(),
    )
    .map(|(_, cost)| cost)
}
