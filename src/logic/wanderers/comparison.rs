//! Comparing the two farthest-node searches of path smoothing over many A* paths: drawing
//! start and goal pairs an agent can travel between, checking every smoothing, and totalling the
//! paper's measures per search. The `smooth` subcommand reports these totals.

use super::field::{Footprint, FootprintGraph, ObstacleField};
use super::smoothing::{Smoothed, visible};
use crate::logic::grid_search::GridSearch;
use crate::logic::seed::{Stream, stream_rng};
use rand::RngExt;
use std::fmt;

/// A* node paths between `wanted` random start and goal cells that `agent` fits and can travel
/// between, drawn from the seed's smoothing-pairs stream; at most `max_draws` pairs are drawn
/// before giving up, so fewer paths come back when the field leaves the agent little room.
pub fn travel_paths(
    field: &ObstacleField,
    agent: Footprint,
    seed: u64,
    wanted: usize,
    max_draws: usize,
) -> Vec<Vec<usize>> {
    let graph = FootprintGraph {
        field,
        footprint: agent,
    };
    let fitting: Vec<usize> = (0..field.width() * field.height())
        .filter(|&cell| field.fits(agent, cell))
        .collect();
    let mut rng = stream_rng(seed, Stream::SmoothingPairs);
    let mut search = GridSearch::new();
    let mut paths = Vec::with_capacity(wanted);
    let mut draws = 0;
    while paths.len() < wanted && !fitting.is_empty() && draws < max_draws {
        draws += 1;
        let start = fitting[rng.random_range(0..fitting.len())];
        let goal = fitting[rng.random_range(0..fitting.len())];
        if start == goal {
            continue;
        }
        if let Some(path) = search.astar(&graph, start, goal).path {
            paths.push(path);
        }
    }
    paths
}

/// What is wrong with a smoothed path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmoothingDefect {
    /// The waypoints do not begin at the path's start and end at its goal.
    EndsMoved,
    /// There are more waypoints than nodes.
    NodesAdded,
    /// The agent's body would touch stone on the hop that ends at this waypoint.
    HopBlocked {
        /// The waypoint's position in the smoothed path.
        index: usize,
    },
}

impl fmt::Display for SmoothingDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmoothingDefect::EndsMoved => f.write_str("the smoothed path lost its start or goal"),
            SmoothingDefect::NodesAdded => f.write_str("the smoothed path has more nodes"),
            SmoothingDefect::HopBlocked { index } => {
                write!(f, "the hop to waypoint {index} is not clear for the agent")
            }
        }
    }
}

impl std::error::Error for SmoothingDefect {}

/// Checks a smoothing of the node path `raw`: the ends are kept, no node is added, and every hop
/// is clear for the agent's whole body.
pub fn check_smoothing(
    field: &ObstacleField,
    agent: Footprint,
    raw: &[usize],
    waypoints: &[usize],
) -> Result<(), SmoothingDefect> {
    if waypoints.first() != raw.first() || waypoints.last() != raw.last() {
        return Err(SmoothingDefect::EndsMoved);
    }
    if waypoints.len() > raw.len() {
        return Err(SmoothingDefect::NodesAdded);
    }
    match waypoints
        .windows(2)
        .position(|hop| !visible(field, agent, hop[0], hop[1]))
    {
        Some(hop) => Err(SmoothingDefect::HopBlocked { index: hop + 1 }),
        None => Ok(()),
    }
}

/// The paper's measures summed over many smoothed paths.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SmoothingTotals {
    /// Paths added.
    pub paths: usize,
    /// A* nodes before smoothing.
    pub raw_nodes: usize,
    /// Waypoints after smoothing.
    pub smoothed_nodes: usize,
    /// Turns before smoothing.
    pub raw_turns: usize,
    /// Turns after smoothing.
    pub smoothed_turns: usize,
}

impl SmoothingTotals {
    /// Adds one smoothed path.
    pub fn add(&mut self, smoothed: &Smoothed) {
        self.paths += 1;
        self.raw_nodes += smoothed.raw_nodes;
        self.smoothed_nodes += smoothed.waypoints.len();
        self.raw_turns += smoothed.raw_turns;
        self.smoothed_turns += smoothed.smoothed_turns;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::wanderers::smoothing::{FarthestSearch, smooth};

    fn field() -> ObstacleField {
        ObstacleField::from_rows(&[
            "..........",
            "..####....",
            "..........",
            "......##..",
            "..........",
        ])
        .unwrap()
    }

    #[test]
    fn travel_paths_join_cells_the_agent_fits_and_are_reproducible() {
        let field = field();
        let agent = Footprint::POINT;
        let paths = travel_paths(&field, agent, 3, 25, 5_000);
        assert_eq!(paths.len(), 25);
        for path in &paths {
            assert!(path.len() >= 2);
            assert!(path.iter().all(|&cell| field.fits(agent, cell)));
        }
        assert_eq!(paths, travel_paths(&field, agent, 3, 25, 5_000));
    }

    #[test]
    fn no_room_gives_no_paths() {
        let wide = Footprint::new(4, 4).unwrap();
        let narrow = ObstacleField::from_rows(&["...", "...", "..."]).unwrap();
        assert!(travel_paths(&narrow, wide, 1, 5, 100).is_empty());
    }

    #[test]
    fn smoothings_pass_the_check_and_defects_are_named() {
        let field = field();
        let agent = Footprint::POINT;
        let mut totals = SmoothingTotals::default();
        for raw in travel_paths(&field, agent, 8, 20, 5_000) {
            let (start, goal) = (raw[0], raw[raw.len() - 1]);
            let smoothed = smooth(&field, agent, &raw, start, goal, FarthestSearch::Exact).unwrap();
            assert_eq!(
                check_smoothing(&field, agent, &raw, &smoothed.waypoints),
                Ok(())
            );
            totals.add(&smoothed);
        }
        assert_eq!(totals.paths, 20);
        assert!(totals.smoothed_nodes <= totals.raw_nodes);

        let (left, right) = (field.id(0, 2), field.id(9, 2));
        let row: Vec<usize> = (0..10).map(|x| field.id(x, 2)).collect();
        assert_eq!(check_smoothing(&field, agent, &row, &[left, right]), Ok(()));
        assert_eq!(
            check_smoothing(&field, agent, &row, &[left, field.id(9, 1)]),
            Err(SmoothingDefect::EndsMoved)
        );
        // Cutting across the wall in row 1: blocked.
        let bent: Vec<usize> = [
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
        ]
        .map(|(x, y)| field.id(x, y))
        .to_vec();
        let shortcut = [field.id(0, 0), field.id(5, 2)];
        assert_eq!(
            check_smoothing(&field, agent, &bent, &shortcut),
            Err(SmoothingDefect::HopBlocked { index: 1 })
        );
        let too_many = [row[0], row[1], row[0], row[1]];
        assert_eq!(
            check_smoothing(&field, agent, &row[..2], &too_many),
            Err(SmoothingDefect::NodesAdded)
        );
    }
}
