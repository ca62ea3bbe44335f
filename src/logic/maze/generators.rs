//! The ways to carve a perfect maze (every cell reachable, no loops): an iterative depth-first
//! backtracker, randomized Prim, Kruskal over union-find, and Wilson's loop-erased walks.

use super::grid::{Direction, EAST_OPEN, Maze, SOUTH_OPEN};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The ways to carve a maze.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Depth-first recursive backtracker (iterative): long twisting corridors.
    #[default]
    Backtracker,
    /// Randomized Prim: many short dead ends.
    Prim,
    /// Randomized Kruskal with union-find: an even texture.
    Kruskal,
    /// Wilson's loop-erased random walks: a uniform spanning tree.
    Wilson,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Backtracker,
        Algorithm::Prim,
        Algorithm::Kruskal,
        Algorithm::Wilson,
    ];

    /// The lowercase name used in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Backtracker => "backtracker",
            Algorithm::Prim => "prim",
            Algorithm::Kruskal => "kruskal",
            Algorithm::Wilson => "wilson",
        }
    }

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            Algorithm::Backtracker => "Backtracker",
            Algorithm::Prim => "Prim",
            Algorithm::Kruskal => "Kruskal",
            Algorithm::Wilson => "Wilson",
        }
    }

    /// Carves a perfect maze (a spanning tree: every cell reachable, no loops) into `maze`,
    /// which must have every passage closed.
    pub fn carve(self, maze: &mut Maze, rng: &mut ChaCha8Rng) {
        match self {
            Algorithm::Backtracker => carve_backtracker(maze, rng),
            Algorithm::Prim => carve_prim(maze, rng),
            Algorithm::Kruskal => carve_kruskal(maze, rng),
            Algorithm::Wilson => carve_wilson(maze, rng),
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                format!("unknown algorithm '{text}': expected backtracker, prim, kruskal or wilson")
            })
    }
}

/// Up to four cell ids, without allocating.
pub(super) struct SmallSet {
    pub(super) items: [usize; 4],
    pub(super) len: usize,
}

impl SmallSet {
    pub(super) fn new() -> Self {
        Self {
            items: [0; 4],
            len: 0,
        }
    }

    pub(super) fn push(&mut self, id: usize) {
        self.items[self.len] = id;
        self.len += 1;
    }

    pub(super) fn choose(&self, rng: &mut ChaCha8Rng) -> usize {
        self.items[rng.random_range(0..self.len)]
    }
}

/// The in-maze neighbours of `id`, in the fixed order north, east, south, west.
#[inline]
pub(super) fn grid_neighbours(maze: &Maze, id: usize) -> SmallSet {
    let (x, y) = maze.coords(id);
    let mut set = SmallSet::new();
    if y > 0 {
        set.push(id - maze.width);
    }
    if x + 1 < maze.width {
        set.push(id + 1);
    }
    if y + 1 < maze.height {
        set.push(id + maze.width);
    }
    if x > 0 {
        set.push(id - 1);
    }
    set
}

/// Depth-first backtracker with an explicit stack (no recursion: 1000 x 1000 is a million
/// cells deep at worst), choosing uniformly among unvisited neighbours.
///
/// The visited flags live on a grid padded with a border of already-visited cells, so the four
/// neighbour checks need neither bounds checks nor divisions; each stack entry carries both
/// the cell id and its padded id.
fn carve_backtracker(maze: &mut Maze, rng: &mut ChaCha8Rng) {
    let (width, height) = (maze.width, maze.height);
    let padded_width = width + 2;
    let mut visited = vec![true; padded_width * (height + 2)];
    for y in 0..height {
        let row = (y + 1) * padded_width + 1;
        visited[row..row + width].fill(false);
    }
    // Directions as (step in cell ids, step in padded ids), in the order north, east, south,
    // west, so the choice among them is reproducible.
    let steps: [(isize, isize); 4] = [
        (-(width as isize), -(padded_width as isize)),
        (1, 1),
        (width as isize, padded_width as isize),
        (-1, -1),
    ];
    let start = maze.start();
    let start_padded = padded_width + 1;
    visited[start_padded] = true;
    let mut stack: Vec<(u32, u32)> = Vec::with_capacity(maze.cell_count());
    stack.push((start as u32, start_padded as u32));
    while let Some(&(cell, padded)) = stack.last() {
        let (cell, padded) = (cell as usize, padded as usize);
        // Bit d set when the neighbour in direction d (north, east, south, west) is unvisited.
        let open = u8::from(!visited[padded - padded_width])
            | u8::from(!visited[padded + 1]) << 1
            | u8::from(!visited[padded + padded_width]) << 2
            | u8::from(!visited[padded - 1]) << 3;
        if open == 0 {
            stack.pop();
            continue;
        }
        let count = open.count_ones();
        // A single way on needs no random draw.
        let pick = if count == 1 {
            0
        } else {
            rng.random_range(0..count)
        };
        let direction = NTH_SET_BIT[usize::from(open)][pick as usize];
        let (cell_step, padded_step) = steps[direction];
        let next = cell.wrapping_add_signed(cell_step);
        let next_padded = padded.wrapping_add_signed(padded_step);
        // The north or west cell of the pair stores the passage: the new cell when going north
        // or west, else the current one; north and south are SOUTH_OPEN bits.
        let owner = if direction == 0 || direction == 3 {
            next
        } else {
            cell
        };
        let bit = if direction.is_multiple_of(2) {
            SOUTH_OPEN
        } else {
            EAST_OPEN
        };
        maze.cells[owner] |= bit;
        visited[next_padded] = true;
        stack.push((next as u32, next_padded as u32));
    }
}

/// `NTH_SET_BIT[mask][k]`: the index of the k-th set bit of a 4-bit mask, so picking the k-th
/// open direction needs no loop.
const NTH_SET_BIT: [[usize; 4]; 16] = {
    let mut table = [[0; 4]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut bit, mut found) = (0, 0);
        while bit < 4 {
            if mask & (1 << bit) != 0 {
                table[mask][found] = bit;
                found += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
};

/// Randomized Prim: grow from the start, opening a random frontier wall each step.
fn carve_prim(maze: &mut Maze, rng: &mut ChaCha8Rng) {
    let mut in_maze = vec![false; maze.cell_count()];
    // Frontier walls as (inside cell, outside cell).
    let mut frontier: Vec<(usize, usize)> = Vec::new();
    let add = |cell: usize, maze: &Maze, in_maze: &[bool], frontier: &mut Vec<(usize, usize)>| {
        let neighbours = grid_neighbours(maze, cell);
        for &n in &neighbours.items[..neighbours.len] {
            if !in_maze[n] {
                frontier.push((cell, n));
            }
        }
    };
    let start = maze.start();
    in_maze[start] = true;
    add(start, maze, &in_maze, &mut frontier);
    while !frontier.is_empty() {
        let pick = rng.random_range(0..frontier.len());
        let (inside, outside) = frontier.swap_remove(pick);
        if in_maze[outside] {
            continue;
        }
        maze.open_between(inside, outside);
        in_maze[outside] = true;
        add(outside, maze, &in_maze, &mut frontier);
    }
}

/// Union-find over cell ids with path halving and union by size.
struct DisjointSets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl DisjointSets {
    fn new(count: usize) -> Self {
        Self {
            parent: (0..count as u32).collect(),
            size: vec![1; count],
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grandparent = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }

    /// Joins the sets of `a` and `b`; false if they were already one.
    fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
        true
    }
}

/// Randomized Kruskal: every inner wall in random order, opened when it joins two regions.
fn carve_kruskal(maze: &mut Maze, rng: &mut ChaCha8Rng) {
    let mut walls: Vec<(u32, Direction)> = Vec::with_capacity(2 * maze.cell_count());
    for id in 0..maze.cell_count() {
        for direction in [Direction::East, Direction::South] {
            if maze.neighbour(id, direction).is_some() {
                walls.push((id as u32, direction));
            }
        }
    }
    walls.shuffle(rng);
    let mut sets = DisjointSets::new(maze.cell_count());
    let mut joined = 1;
    for (id, direction) in walls {
        let other = maze
            .neighbour(id as usize, direction)
            .expect("only inner walls were listed") as u32;
        if sets.union(id, other) {
            maze.open(id as usize, direction);
            joined += 1;
            if joined == maze.cell_count() {
                break;
            }
        }
    }
}

/// Wilson: loop-erased random walks from each cell not yet in the maze until they hit it,
/// giving a uniformly random spanning tree.
fn carve_wilson(maze: &mut Maze, rng: &mut ChaCha8Rng) {
    let count = maze.cell_count();
    let mut in_maze = vec![false; count];
    // During a walk: the neighbour the walk last left each cell towards. Loops erase themselves
    // because a revisit overwrites the exit.
    let mut next_step = vec![u32::MAX; count];
    in_maze[maze.start()] = true;
    for first in 0..count {
        if in_maze[first] {
            continue;
        }
        let mut cell = first;
        while !in_maze[cell] {
            let step = grid_neighbours(maze, cell).choose(rng);
            next_step[cell] = step as u32;
            cell = step;
        }
        let mut cell = first;
        while !in_maze[cell] {
            let step = next_step[cell] as usize;
            maze.open_between(cell, step);
            in_maze[cell] = true;
            cell = step;
        }
    }
}
