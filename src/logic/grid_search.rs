//! Shortest paths on 4-connected grids with unit steps: A* with the Manhattan heuristic, and
//! breadth-first search beside it as an oracle and for distance maps.
//!
//! Both run on anything that implements [`GridGraph`] (mazes, obstacle fields). A
//! [`GridSearch`] keeps its buffers between queries and marks them with a generation number,
//! so a query costs what it visits, never a clear of memory proportional to the grid.

use std::collections::VecDeque;

/// A grid of `width` x `height` cells, id `y * width + x`, whose moves are unit steps to some of
/// the four side neighbours (ids differing by 1 in the same row, or by `width`). A* relies on
/// this: with the Manhattan heuristic every step changes f by 0 or 2.
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

/// What one query knows about one cell. Kept together so that visiting a cell touches one
/// cache line, not four arrays.
#[derive(Debug, Default, Clone, Copy)]
struct CellState {
    /// Stamp: `g` and `parent` were set in this query.
    seen: u32,
    /// Stamp: the cell was expanded in this query.
    closed: u32,
    /// Steps from the start.
    g: u32,
    /// The cell this one was reached from.
    parent: u32,
}

/// Records that `child` is `g` steps from the start through `parent`, unless this query has
/// already expanded it or reached it as cheaply; returns whether it did.
fn improve(child: &mut CellState, generation: u32, g: u32, parent: usize) -> bool {
    if child.closed == generation || (child.seen == generation && child.g <= g) {
        return false;
    }
    *child = CellState {
        seen: generation,
        closed: 0,
        g,
        parent: parent as u32,
    };
    true
}

/// An open-list entry: `(g << 32) | cell`, so sorting orders by g, then by cell.
fn entry(g: u32, cell: usize) -> u64 {
    (u64::from(g) << 32) | cell as u64
}

/// Reusable search state for A* and BFS on grids up to any size (buffers grow on demand).
#[derive(Debug, Default, Clone)]
pub struct GridSearch {
    /// The current query's number; a cell's state is valid only when stamped with it.
    generation: u32,
    /// Per-cell state, indexed by cell id.
    cells: Vec<CellState>,
    /// A*'s open entries with the current f, largest g on top.
    open_now: Vec<u64>,
    /// A*'s open entries with f + 2: with unit steps and the Manhattan heuristic a child's f is
    /// its parent's f (a step towards the goal) or f + 2 (a step away), so two buckets suffice.
    open_later: Vec<u64>,
    /// BFS's queue.
    queue: VecDeque<u32>,
}

impl GridSearch {
    /// Empty buffers; they grow to the grid on the first query.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query from `start` to `goal` on a grid of `cells` cells and returns its
    /// generation stamp.
    fn begin(&mut self, cells: usize, start: usize, goal: usize) -> u32 {
        assert!(
            start < cells && goal < cells,
            "start and goal must be cells of the grid"
        );
        if self.cells.len() < cells {
            self.cells.resize(cells, CellState::default());
        }
        if self.generation == u32::MAX {
            // Once every four billion queries: stamps would repeat, so start them afresh.
            self.cells.fill(CellState::default());
            self.generation = 0;
        }
        self.generation += 1;
        self.generation
    }

    fn path_to(&self, goal: usize) -> Vec<usize> {
        let mut path = vec![goal];
        let mut cell = goal;
        while self.cells[cell].parent != NO_PARENT {
            cell = self.cells[cell].parent as usize;
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
        let generation = self.begin(grid.cell_count(), start, goal);
        let width = grid.width();
        let (goal_x, goal_y) = (goal % width, goal / width);
        self.cells[start] = CellState {
            seen: generation,
            closed: 0,
            g: 0,
            parent: NO_PARENT,
        };
        self.open_now.clear();
        self.open_later.clear();
        self.open_now.push(entry(0, start));
        let mut expanded = 0;
        let mut found = false;
        loop {
            let Some(top) = self.open_now.pop() else {
                if self.open_later.is_empty() {
                    break;
                }
                // Move on to f + 2. Its entries arrived in no particular g order; sorting them
                // once makes pops come out largest g first. Every later push into the current
                // bucket has a larger g than all it holds, so it stays sorted.
                std::mem::swap(&mut self.open_now, &mut self.open_later);
                self.open_now.sort_unstable();
                continue;
            };
            let cell = (top & 0xFFFF_FFFF) as usize;
            let g = (top >> 32) as u32;
            let state = &mut self.cells[cell];
            if state.closed == generation || state.g != g {
                continue; // Already expanded, or a better entry exists.
            }
            state.closed = generation;
            expanded += 1;
            if cell == goal {
                found = true;
                break;
            }
            let (x, y) = (cell % width, cell / width);
            let child_g = g + 1;
            let (cells, open_now, open_later) =
                (&mut self.cells, &mut self.open_now, &mut self.open_later);
            grid.for_each_neighbour(cell, |next| {
                if !improve(&mut cells[next], generation, child_g, cell) {
                    return;
                }
                let towards_goal = if next == cell + 1 {
                    x < goal_x
                } else if next + 1 == cell {
                    x > goal_x
                } else if next > cell {
                    y < goal_y
                } else {
                    y > goal_y
                };
                if towards_goal {
                    open_now.push(entry(child_g, next));
                } else {
                    open_later.push(entry(child_g, next));
                }
            });
        }
        SearchOutcome {
            path: found.then(|| self.path_to(goal)),
            expanded,
        }
    }

    /// A* to `goal` from several cells at once, each already `g` steps along (a route being
    /// repaired: the cells of its corridor, at their distance along it), expanding at most
    /// `budget` cells. The path found runs from one of the seeds to the goal and is the cheapest
    /// over every seed's `g` plus its steps; `None` when the goal cannot be reached or the budget
    /// runs out first. Ties go as in [`Self::astar`]: larger g, then larger cell id.
    ///
    /// # Panics
    /// If `goal` or a seed is not a cell of `grid`.
    pub fn astar_from_seeds(
        &mut self,
        grid: &impl GridGraph,
        seeds: &[(usize, u32)],
        goal: usize,
        budget: usize,
    ) -> SearchOutcome {
        let cells = grid.cell_count();
        let generation = self.begin(cells, goal, goal);
        let width = grid.width();
        let (goal_x, goal_y) = (goal % width, goal / width);
        let manhattan = |cell: usize| {
            let (x, y) = (cell % width, cell / width);
            (x.abs_diff(goal_x) + y.abs_diff(goal_y)) as u32
        };
        // Seeds have f values of their own, so the two buckets of `astar` do not apply: a heap
        // ordered by f, then larger g, then larger cell.
        let mut open = std::collections::BinaryHeap::new();
        for &(seed, g) in seeds {
            assert!(seed < cells, "seeds must be cells of the grid");
            let state = &mut self.cells[seed];
            if state.seen == generation && state.g <= g {
                continue;
            }
            *state = CellState {
                seen: generation,
                closed: 0,
                g,
                parent: NO_PARENT,
            };
            open.push((std::cmp::Reverse(g + manhattan(seed)), g, seed));
        }
        let mut expanded = 0;
        let mut found = false;
        while let Some((_, g, cell)) = open.pop() {
            let state = &mut self.cells[cell];
            if state.closed == generation || state.g != g {
                continue;
            }
            if cell == goal {
                found = true;
                break;
            }
            if expanded == budget {
                break;
            }
            state.closed = generation;
            expanded += 1;
            let child_g = g + 1;
            let cells = &mut self.cells;
            grid.for_each_neighbour(cell, |next| {
                if !improve(&mut cells[next], generation, child_g, cell) {
                    return;
                }
                open.push((std::cmp::Reverse(child_g + manhattan(next)), child_g, next));
            });
        }
        SearchOutcome {
            path: found.then(|| self.path_to(goal)),
            expanded,
        }
    }

    /// Whether `cell` was expanded by the last query (false for cells outside its grid).
    pub fn was_expanded(&self, cell: usize) -> bool {
        self.generation != 0 && self.cells.get(cell).map(|c| c.closed) == Some(self.generation)
    }

    /// Breadth-first search from `start` to `goal`, stopping when the goal is dequeued.
    ///
    /// # Panics
    /// If `start` or `goal` is not a cell of `grid`.
    pub fn bfs(&mut self, grid: &impl GridGraph, start: usize, goal: usize) -> SearchOutcome {
        let generation = self.begin(grid.cell_count(), start, goal);
        self.queue.clear();
        self.cells[start].seen = generation;
        self.cells[start].parent = NO_PARENT;
        self.queue.push_back(start as u32);
        let mut expanded = 0;
        let mut found = false;
        while let Some(cell) = self.queue.pop_front() {
            let cell = cell as usize;
            self.cells[cell].closed = generation;
            expanded += 1;
            if cell == goal {
                found = true;
                break;
            }
            let (cells, queue) = (&mut self.cells, &mut self.queue);
            grid.for_each_neighbour(cell, |next| {
                let child = &mut cells[next];
                if child.seen != generation {
                    child.seen = generation;
                    child.parent = cell as u32;
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
    distance_map_from(grid, &[start])
}

/// Steps from the nearest of `starts` to every cell (`None` where unreachable), by one
/// breadth-first search from all of them at once.
pub fn distance_map_from(grid: &impl GridGraph, starts: &[usize]) -> Vec<Option<u32>> {
    let mut distance = vec![None; grid.cell_count()];
    let mut queue = VecDeque::with_capacity(starts.len());
    for &start in starts {
        if distance[start].is_none() {
            distance[start] = Some(0);
            queue.push_back(start);
        }
    }
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

/// Every cell's next step toward one cell (the root) along a shortest way, found by one
/// breadth-first search from the root: a route to the root from anywhere then costs only its own
/// length, however often it is asked for. Ties between equally short ways go to the neighbour
/// the search reached first, so the routes are the same on every run.
#[derive(Clone)]
pub struct RouteTree {
    root: usize,
    /// Per cell, the next cell toward the root; [`NO_PARENT`] at the root and where the root
    /// cannot be reached.
    next: Vec<u32>,
}

impl RouteTree {
    /// The tree of ways to `root` on `grid`.
    ///
    /// # Panics
    /// If `root` is not a cell of `grid`.
    pub fn toward(grid: &impl GridGraph, root: usize) -> RouteTree {
        let mut next = vec![NO_PARENT; grid.cell_count()];
        let mut reached = vec![false; grid.cell_count()];
        reached[root] = true;
        let mut queue = VecDeque::from([root]);
        while let Some(cell) = queue.pop_front() {
            grid.for_each_neighbour(cell, |neighbour| {
                if !reached[neighbour] {
                    reached[neighbour] = true;
                    next[neighbour] = cell as u32;
                    queue.push_back(neighbour);
                }
            });
        }
        RouteTree { root, next }
    }

    /// The cell the tree leads to.
    pub fn root(&self) -> usize {
        self.root
    }

    /// The next cell from `cell` toward the root (`None` at the root, where it cannot be
    /// reached, and outside the grid).
    pub fn next_from(&self, cell: usize) -> Option<usize> {
        self.next
            .get(cell)
            .filter(|&&next| next != NO_PARENT)
            .map(|&next| next as usize)
    }

    /// The cells from `cell` to the root, both included (`None` when it cannot be reached).
    pub fn route_from(&self, cell: usize) -> Option<Vec<usize>> {
        if cell == self.root {
            return Some(vec![cell]);
        }
        self.next_from(cell)?;
        let mut route = vec![cell];
        let mut at = cell;
        while let Some(next) = self.next_from(at) {
            route.push(next);
            at = next;
        }
        Some(route)
    }
}

impl std::fmt::Debug for RouteTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A cell per entry would swamp any message it is part of.
        f.debug_struct("RouteTree")
            .field("root", &self.root)
            .field("cells", &self.next.len())
            .finish()
    }
}

#[cfg(test)]
mod tests;
