//! Where a body of one footprint fits on an obstacle field, and which of those places it can walk
//! between: the field flooded once per body shape. A search then never sets out for a goal its
//! body cannot reach (such a search visits the whole region before it gives up), and asking
//! whether a body fits a cell is one read.

use super::field::{Footprint, ObstacleField, side_neighbours};
use crate::logic::grid_search::GridGraph;
use rayon::prelude::*;

/// The places one footprint fits on a field, numbered by the region they belong to: two cells are
/// in the same region when the body can slide from one to the other in side steps, fitting all
/// the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    width: usize,
    height: usize,
    footprint: Footprint,
    /// Per cell: 0 where the body does not fit, else its region's number, from 1.
    region: Vec<u32>,
}

impl Reach {
    /// Floods `field` for `footprint`.
    pub fn new(field: &ObstacleField, footprint: Footprint) -> Reach {
        let (width, height) = (field.width(), field.height());
        let fits: Vec<bool> = (0..width * height)
            .into_par_iter()
            .map(|cell| field.fits(footprint, cell))
            .collect();
        let mut region = vec![0u32; width * height];
        let mut next_region = 0u32;
        let mut stack = Vec::new();
        for seed in 0..width * height {
            if !fits[seed] || region[seed] != 0 {
                continue;
            }
            next_region += 1;
            region[seed] = next_region;
            stack.push(seed);
            while let Some(cell) = stack.pop() {
                for next in side_neighbours(width, height, cell) {
                    if fits[next] && region[next] == 0 {
                        region[next] = next_region;
                        stack.push(next);
                    }
                }
            }
        }
        Reach {
            width,
            height,
            footprint,
            region,
        }
    }

    /// The body this reach is for.
    pub fn footprint(&self) -> Footprint {
        self.footprint
    }

    /// Whether the body fits with its centre on `cell` (false outside the field).
    pub fn fits(&self, cell: usize) -> bool {
        self.region.get(cell).is_some_and(|&r| r != 0)
    }

    /// The region of `cell`, or `None` where the body does not fit.
    pub fn region(&self, cell: usize) -> Option<u32> {
        self.region.get(cell).copied().filter(|&r| r != 0)
    }

    /// Whether the body can walk from `a` to `b`: it fits both, and they share a region.
    pub fn connects(&self, a: usize, b: usize) -> bool {
        self.region(a).is_some_and(|r| self.region(b) == Some(r))
    }

    /// How many regions the body's places fall into.
    pub fn regions(&self) -> u32 {
        self.region.iter().copied().max().unwrap_or(0)
    }
}

/// The same moves as [`super::field::FootprintGraph`]: a side step between two places the body
/// fits, each looked up rather than tested cell by cell.
impl GridGraph for Reach {
    fn width(&self) -> usize {
        self.width
    }

    fn height(&self) -> usize {
        self.height
    }

    fn for_each_neighbour(&self, cell: usize, mut visit: impl FnMut(usize)) {
        if !self.fits(cell) {
            return;
        }
        for next in side_neighbours(self.width, self.height, cell) {
            if self.region[next] != 0 {
                visit(next);
            }
        }
    }
}

/// A body's places within `radius` of its home: the graph an NPC's routes are searched on, so
/// that no route leads it farther from home than its tether and margin allow.
#[derive(Debug, Clone, Copy)]
pub struct Tethered<'a> {
    /// Where the body fits.
    pub reach: &'a Reach,
    /// Its home, in cell units.
    pub home: [f32; 2],
    /// How far from home a cell's centre may lie, in cells.
    pub radius: f32,
}

impl GridGraph for Tethered<'_> {
    fn width(&self) -> usize {
        self.reach.width
    }

    fn height(&self) -> usize {
        self.reach.height
    }

    fn for_each_neighbour(&self, cell: usize, mut visit: impl FnMut(usize)) {
        let width = self.reach.width;
        self.reach.for_each_neighbour(cell, |next| {
            let (x, y) = ((next % width) as f32 + 0.5, (next / width) as f32 + 0.5);
            if (x - self.home[0]).hypot(y - self.home[1]) <= self.radius {
                visit(next);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::grid_search::{GridSearch, distance_map};
    use crate::logic::wanderers::field::FootprintGraph;

    #[test]
    fn regions_are_exactly_what_a_search_can_reach() {
        // A wall with a gap one cell wide: points pass it, a 2x2 body does not.
        let field =
            ObstacleField::from_rows(&["........", "........", "####.###", "........", "........"])
                .unwrap();
        let point = Reach::new(&field, Footprint::POINT);
        let wide = Reach::new(&field, Footprint::new(2, 2).unwrap());
        assert_eq!(point.regions(), 1);
        assert_eq!(wide.regions(), 2);
        let (top, bottom) = (field.id(1, 0), field.id(1, 4));
        assert!(point.connects(top, bottom));
        assert!(!wide.connects(top, bottom));
        assert!(
            !wide.connects(field.id(4, 2), top),
            "no 2x2 body fits the gap"
        );
        assert_eq!(wide.region(field.id(4, 2)), None);
    }

    #[test]
    fn the_reach_graph_and_its_regions_agree_with_the_footprint_graph_on_noise_fields() {
        let mut search = GridSearch::new();
        for seed in 0..6u64 {
            let field = ObstacleField::from_noise(seed, 40, 30, 0.45);
            for footprint in [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3)] {
                let footprint = Footprint::new(footprint.0, footprint.1).unwrap();
                let reach = Reach::new(&field, footprint);
                let graph = FootprintGraph {
                    field: &field,
                    footprint,
                };
                let start = (0..40 * 30).find(|&c| reach.fits(c)).unwrap();
                // The oracle: breadth-first distances on the cell-by-cell graph.
                let distance = distance_map(&graph, start);
                for (cell, reached) in distance.iter().enumerate() {
                    assert_eq!(reach.fits(cell), field.fits(footprint, cell));
                    assert_eq!(
                        reach.connects(start, cell),
                        reached.is_some(),
                        "seed {seed}, {footprint:?}, cell {cell}"
                    );
                    let mut theirs = Vec::new();
                    let mut ours = Vec::new();
                    graph.for_each_neighbour(cell, |n| theirs.push(n));
                    reach.for_each_neighbour(cell, |n| ours.push(n));
                    assert_eq!(ours, theirs);
                }
                let goal = (0..40 * 30).rev().find(|&c| reach.fits(c)).unwrap();
                assert_eq!(
                    search.astar(&reach, start, goal).steps(),
                    distance[goal].map(|d| d as usize)
                );
            }
        }
    }
}
