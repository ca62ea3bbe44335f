//! The `pathfinding` crate's A* on our mazes: the oracle of the property tests and the peer of
//! the benchmarks, written once for both.

use temple_trails::logic::grid_search::GridGraph;
use temple_trails::logic::maze::Maze;

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
