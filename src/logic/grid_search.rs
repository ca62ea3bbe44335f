//! Shortest paths on 4-connected grids with unit steps: A* with the Manhattan heuristic, and
//! breadth-first search beside it as an oracle and for distance maps.
//!
//! Both run on anything that implements [`GridGraph`] (mazes, obstacle fields). A
//! [`GridSearch`] keeps its buffers between queries and marks them with a generation number,
//! so a query costs what it visits, never a clear of memory proportional to the grid.

use std::collections::VecDeque;

/// A grid of `width` x `height` cells, id `y * width + x`, whose moves are unit steps to some of
/// the four side neighbours.
pub trait GridGraph {
    /// Cells along x.
    fn width(&self) -> usize;
    /// Cells along y.
    fn height(&self) -> usize;
    /// Calls `visit` with every cell one step from `cell`.
    fn for_each_neighbour(&self, cell: usize, visit: impl FnMut(usize));

    /// Number of cells.
    fn cell_count(&self) -> usize {
        self.width() * self.height()
    }
}

/// A found path and what it cost to find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The cells from start to goal inclusive, or `None` when the goal cannot be reached.
    pub path: Option<Vec<usize>>,
    /// How many cells were taken off the open list and expanded.
    pub expanded: usize,
}

impl SearchOutcome {
    /// Steps along the path (cells - 1), if one was found.
    pub fn steps(&self) -> Option<usize> {
        self.path.as_ref().map(|p| p.len() - 1)
    }
}

/// No parent: the start cell.
const NO_PARENT: u32 = u32::MAX;

/// Reusable search state for A* and BFS on grids up to any size (buffers grow on demand).
#[derive(Debug, Default, Clone)]
pub struct GridSearch {
    /// The current query's number; a cell's entries are valid only when stamped with it.
    generation: u32,
    /// Stamp: `g` and `parent` of the cell were set in this query.
    seen: Vec<u32>,
    /// Stamp: the cell was expanded in this query.
    closed: Vec<u32>,
    /// Steps from the start.
    g: Vec<u32>,
    /// The cell this one was reached from.
    parent: Vec<u32>,
    /// A*'s open list as a bucket queue by f = g + h: entries `(g << 32) | cell`.
    buckets: Vec<Vec<u64>>,
    /// BFS's queue.
    queue: VecDeque<u32>,
}

impl GridSearch {
    /// Empty buffers; they grow to the grid on the first query.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query on a grid of `cells` cells.
    fn begin(&mut self, cells: usize) {
        if self.seen.len() < cells {
            self.seen.resize(cells, 0);
            self.closed.resize(cells, 0);
            self.g.resize(cells, 0);
            self.parent.resize(cells, NO_PARENT);
        }
        if self.generation == u32::MAX {
            // Once every four billion queries: stamps would repeat, so start them afresh.
            self.seen.fill(0);
            self.closed.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    fn path_to(&self, goal: usize) -> Vec<usize> {
        let mut path = vec![goal];
        let mut cell = goal;
        while self.parent[cell] != NO_PARENT {
            cell = self.parent[cell] as usize;
            path.push(cell);
        }
        path.reverse();
        path
    }

    /// A* from `start` to `goal`: unit steps, Manhattan heuristic (admissible and consistent),
    /// ties between equal f broken towards larger g, then larger cell id, so results are
    /// deterministic.
    ///
    /// # Panics
    /// If `start` or `goal` is not a cell of `grid`.
    pub fn astar(&mut self, grid: &impl GridGraph, start: usize, goal: usize) -> SearchOutcome {
        let cells = grid.cell_count();
        assert!(
            start < cells && goal < cells,
            "start and goal must be cells of the grid"
        );
        self.begin(cells);
        let generation = self.generation;
        let width = grid.width() as u32;
        let (goal_x, goal_y) = (goal as u32 % width, goal as u32 / width);
        let heuristic =
            |cell: u32| (cell % width).abs_diff(goal_x) + (cell / width).abs_diff(goal_y);

        let start_f = heuristic(start as u32) as usize;
        self.seen[start] = generation;
        self.g[start] = 0;
        self.parent[start] = NO_PARENT;
        let mut current_f = start_f;
        let mut highest_f = start_f;
        if self.buckets.len() <= start_f {
            self.buckets.resize_with(start_f + 1, Vec::new);
        }
        self.buckets[start_f].push(start as u64);
        let mut expanded = 0;
        let mut found = false;

        'search: loop {
            let entry = loop {
                if let Some(entry) = self.buckets[current_f].pop() {
                    break entry;
                }
                if current_f >= highest_f {
                    break 'search;
                }
                current_f += 1;
                // Entries arrive in a future bucket in no particular g order; sorting it once
                // when it becomes current makes pops come out largest g first. Every push into
                // the current bucket then has a larger g than all it holds, so it stays sorted.
                self.buckets[current_f].sort_unstable();
            };
            let cell = (entry & 0xFFFF_FFFF) as usize;
            let entry_g = (entry >> 32) as u32;
            if self.closed[cell] == generation || entry_g != self.g[cell] {
                continue; // Already expanded, or a better entry exists.
            }
            self.closed[cell] = generation;
            expanded += 1;
            if cell == goal {
                found = true;
                break;
            }
            let child_g = entry_g + 1;
            let buckets = &mut self.buckets;
            let (seen, closed, g, parent) =
                (&mut self.seen, &self.closed, &mut self.g, &mut self.parent);
            grid.for_each_neighbour(cell, |next| {
                if closed[next] == generation {
                    return;
                }
                if seen[next] == generation && g[next] <= child_g {
                    return;
                }
                seen[next] = generation;
                g[next] = child_g;
                parent[next] = cell as u32;
                let f = (child_g + heuristic(next as u32)) as usize;
                if buckets.len() <= f {
                    buckets.resize_with(f + 1, Vec::new);
                }
                buckets[f].push((u64::from(child_g) << 32) | next as u64);
                highest_f = highest_f.max(f);
            });
        }
        // Leave every bucket empty for the next query: only the ones this query touched.
        for bucket in &mut self.buckets[current_f..=highest_f] {
            bucket.clear();
        }
        SearchOutcome {
            path: found.then(|| self.path_to(goal)),
            expanded,
        }
    }

    /// Whether `cell` was expanded by the last query (false for cells outside its grid).
    pub fn was_expanded(&self, cell: usize) -> bool {
        self.generation != 0 && self.closed.get(cell) == Some(&self.generation)
    }

    /// Breadth-first search from `start` to `goal`, stopping when the goal is dequeued.
    ///
    /// # Panics
    /// If `start` or `goal` is not a cell of `grid`.
    pub fn bfs(&mut self, grid: &impl GridGraph, start: usize, goal: usize) -> SearchOutcome {
        let cells = grid.cell_count();
        assert!(
            start < cells && goal < cells,
            "start and goal must be cells of the grid"
        );
        self.begin(cells);
        let generation = self.generation;
        self.queue.clear();
        self.seen[start] = generation;
        self.parent[start] = NO_PARENT;
        self.queue.push_back(start as u32);
        let mut expanded = 0;
        let mut found = false;
        while let Some(cell) = self.queue.pop_front() {
            let cell = cell as usize;
            self.closed[cell] = generation;
            expanded += 1;
            if cell == goal {
                found = true;
                break;
            }
            let (seen, parent, queue) = (&mut self.seen, &mut self.parent, &mut self.queue);
            grid.for_each_neighbour(cell, |next| {
                if seen[next] != generation {
                    seen[next] = generation;
                    parent[next] = cell as u32;
                    queue.push_back(next as u32);
                }
            });
        }
        SearchOutcome {
            path: found.then(|| self.path_to(goal)),
            expanded,
        }
    }
}

/// Steps from `start` to every cell (`None` where unreachable), by breadth-first search.
pub fn distance_map(grid: &impl GridGraph, start: usize) -> Vec<Option<u32>> {
    let mut distance = vec![None; grid.cell_count()];
    let mut queue = VecDeque::from([start]);
    distance[start] = Some(0);
    while let Some(cell) = queue.pop_front() {
        let next_distance = distance[cell].map(|d| d + 1);
        grid.for_each_neighbour(cell, |next| {
            if distance[next].is_none() {
                distance[next] = next_distance;
                queue.push_back(next);
            }
        });
    }
    distance
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An open grid with some cells blocked, for tests independent of mazes.
    struct Field {
        width: usize,
        height: usize,
        blocked: Vec<bool>,
    }

    impl Field {
        fn parse(rows: &[&str]) -> Field {
            Field {
                width: rows[0].len(),
                height: rows.len(),
                blocked: rows
                    .iter()
                    .flat_map(|r| r.bytes().map(|b| b == b'#'))
                    .collect(),
            }
        }
    }

    impl GridGraph for Field {
        fn width(&self) -> usize {
            self.width
        }
        fn height(&self) -> usize {
            self.height
        }
        fn for_each_neighbour(&self, cell: usize, mut visit: impl FnMut(usize)) {
            let (x, y) = (cell % self.width, cell / self.width);
            let mut try_visit = |n: usize| {
                if !self.blocked[n] {
                    visit(n);
                }
            };
            if y > 0 {
                try_visit(cell - self.width);
            }
            if x + 1 < self.width {
                try_visit(cell + 1);
            }
            if y + 1 < self.height {
                try_visit(cell + self.width);
            }
            if x > 0 {
                try_visit(cell - 1);
            }
        }
    }

    #[test]
    fn astar_goes_around_a_wall() {
        let field = Field::parse(&["....", ".##.", ".#..", "...."]);
        let mut search = GridSearch::new();
        let outcome = search.astar(&field, 0, 15);
        assert_eq!(outcome.steps(), Some(6));
        let bfs = search.bfs(&field, 0, 15);
        assert_eq!(bfs.steps(), Some(6));
    }

    #[test]
    fn unreachable_goal_gives_no_path() {
        let field = Field::parse(&["..#.", "..#.", "###."]);
        let mut search = GridSearch::new();
        assert_eq!(search.astar(&field, 0, 3).path, None);
        assert_eq!(search.bfs(&field, 0, 3).path, None);
        // The buffers still work afterwards.
        assert_eq!(search.astar(&field, 0, 5).steps(), Some(2));
    }

    #[test]
    fn start_equal_to_goal_is_a_one_cell_path() {
        let field = Field::parse(&["...", "..."]);
        let outcome = GridSearch::new().astar(&field, 4, 4);
        assert_eq!(outcome.path, Some(vec![4]));
        assert_eq!(outcome.expanded, 1);
    }

    #[test]
    fn astar_on_open_ground_expands_only_the_straight_band() {
        // With ties broken towards larger g, A* walks straight at the goal on open ground.
        let field = Field::parse(&[".........."; 10]);
        let outcome = GridSearch::new().astar(&field, 0, 99);
        assert_eq!(outcome.steps(), Some(18));
        assert_eq!(outcome.expanded, 19);
    }

    #[test]
    fn buffers_survive_a_generation_wrap() {
        let field = Field::parse(&["....", ".##.", "...."]);
        let mut search = GridSearch::new();
        search.astar(&field, 0, 11);
        search.generation = u32::MAX - 1;
        for _ in 0..3 {
            assert_eq!(search.astar(&field, 0, 11).steps(), Some(5));
            assert_eq!(search.bfs(&field, 11, 0).steps(), Some(5));
        }
    }

    #[test]
    fn distance_map_matches_bfs() {
        let field = Field::parse(&["....#", ".##.#", "....#", "#####"]);
        let map = distance_map(&field, 0);
        let mut search = GridSearch::new();
        for (cell, &distance) in map.iter().enumerate() {
            let steps = search.bfs(&field, 0, cell).steps().map(|s| s as u32);
            assert_eq!(distance, steps, "cell {cell}");
        }
    }
}
