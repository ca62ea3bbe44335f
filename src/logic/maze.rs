//! Mazes: a grid of cells with the passages between them, stored as two bits per cell, and the
//! generators that carve them (recursive backtracker, Prim, Kruskal, Wilson) plus braiding.
//!
//! Cell (x, y) has id `y * width + x`; (0, 0) is the top-left start, (width - 1, height - 1) the
//! bottom-right goal. The entrance is the outer wall west of the start, the exit the outer wall
//! east of the goal.

use crate::logic::grid_search::GridGraph;
use crate::logic::seed::{Stream, stream_rng};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Fewest cells along a side.
pub const MIN_SIDE: usize = 2;
/// Most cells along a side.
pub const MAX_SIDE: usize = 1000;

/// Bit set when the passage to the east neighbour is open.
const EAST_OPEN: u8 = 1;
/// Bit set when the passage to the south neighbour is open.
const SOUTH_OPEN: u8 = 2;

/// A direction from a cell to one of its four neighbours. Screen convention: north is up (y - 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Up, towards y - 1.
    North,
    /// Right, towards x + 1.
    East,
    /// Down, towards y + 1.
    South,
    /// Left, towards x - 1.
    West,
}

impl Direction {
    /// All four, clockwise from north.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];
}

/// Why a maze could not be made.
#[derive(Debug, Clone, PartialEq)]
pub enum MazeError {
    /// A side is outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    SizeOutOfRange {
        /// The requested width.
        width: usize,
        /// The requested height.
        height: usize,
    },
    /// The braid fraction is outside 0.0..=1.0 (or not a number).
    BraidOutOfRange(f64),
}

impl std::fmt::Display for MazeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MazeError::SizeOutOfRange { width, height } => write!(
                f,
                "maze size {width}x{height} is out of range: each side must be {MIN_SIDE} to {MAX_SIDE} cells"
            ),
            MazeError::BraidOutOfRange(braid) => {
                write!(f, "braid {braid} is out of range: it must be 0.0 to 1.0")
            }
        }
    }
}

impl std::error::Error for MazeError {}

/// Refuses a size with a side outside [`MIN_SIDE`]..=[`MAX_SIDE`].
fn check_size(width: usize, height: usize) -> Result<(), MazeError> {
    let side_ok = |side: usize| (MIN_SIDE..=MAX_SIDE).contains(&side);
    if side_ok(width) && side_ok(height) {
        Ok(())
    } else {
        Err(MazeError::SizeOutOfRange { width, height })
    }
}

/// A rectangular maze: which passages between neighbouring cells are open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maze {
    width: usize,
    height: usize,
    /// Per cell: [`EAST_OPEN`] and [`SOUTH_OPEN`] bits. West and north are read from the
    /// neighbour, so every passage is stored exactly once.
    cells: Vec<u8>,
}

impl Maze {
    /// A maze of `width` x `height` cells with every passage closed.
    pub fn closed(width: usize, height: usize) -> Result<Maze, MazeError> {
        check_size(width, height)?;
        Ok(Maze {
            width,
            height,
            cells: vec![0; width * height],
        })
    }

    /// Cells along x.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Cells along y.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The id of cell (x, y).
    pub fn id(&self, x: usize, y: usize) -> usize {
        debug_assert!(x < self.width && y < self.height);
        y * self.width + x
    }

    /// The (x, y) of a cell id.
    pub fn coords(&self, id: usize) -> (usize, usize) {
        (id % self.width, id / self.width)
    }

    /// The start cell (top left).
    pub fn start(&self) -> usize {
        0
    }

    /// The goal cell (bottom right).
    pub fn goal(&self) -> usize {
        self.cells.len() - 1
    }

    /// The neighbour of `id` in `direction`, if inside the maze.
    pub fn neighbour(&self, id: usize, direction: Direction) -> Option<usize> {
        let (x, y) = self.coords(id);
        match direction {
            Direction::North => (y > 0).then(|| id - self.width),
            Direction::East => (x + 1 < self.width).then(|| id + 1),
            Direction::South => (y + 1 < self.height).then(|| id + self.width),
            Direction::West => (x > 0).then(|| id - 1),
        }
    }

    /// Whether the passage from `id` towards `direction` is open (the outer wall never is).
    pub fn is_open(&self, id: usize, direction: Direction) -> bool {
        match direction {
            Direction::East => self.cells[id] & EAST_OPEN != 0,
            Direction::South => self.cells[id] & SOUTH_OPEN != 0,
            Direction::West => self
                .neighbour(id, Direction::West)
                .is_some_and(|west| self.cells[west] & EAST_OPEN != 0),
            Direction::North => self
                .neighbour(id, Direction::North)
                .is_some_and(|north| self.cells[north] & SOUTH_OPEN != 0),
        }
    }

    /// Opens the passage from `id` towards `direction`. Returns false (and changes nothing) at
    /// the outer wall.
    pub fn open(&mut self, id: usize, direction: Direction) -> bool {
        let Some(other) = self.neighbour(id, direction) else {
            return false;
        };
        match direction {
            Direction::East => self.cells[id] |= EAST_OPEN,
            Direction::South => self.cells[id] |= SOUTH_OPEN,
            Direction::West => self.cells[other] |= EAST_OPEN,
            Direction::North => self.cells[other] |= SOUTH_OPEN,
        }
        true
    }

    /// Opens the passage between two neighbouring cells.
    ///
    /// # Panics
    /// If the cells are not neighbours.
    pub fn open_between(&mut self, a: usize, b: usize) {
        let ((ax, ay), (bx, by)) = (self.coords(a), self.coords(b));
        assert!(
            ax.abs_diff(bx) + ay.abs_diff(by) == 1,
            "open_between takes neighbouring cells, not {a} and {b}"
        );
        let (first, second) = (a.min(b), a.max(b));
        // The west or north cell of the pair stores the passage.
        if second == first + 1 {
            self.cells[first] |= EAST_OPEN;
        } else {
            self.cells[first] |= SOUTH_OPEN;
        }
    }

    /// How many passages are open.
    pub fn passage_count(&self) -> usize {
        self.cells
            .iter()
            .map(|&bits| (bits & EAST_OPEN != 0) as usize + (bits & SOUTH_OPEN != 0) as usize)
            .sum()
    }

    /// How many passages leave a cell.
    pub fn degree(&self, id: usize) -> usize {
        Direction::ALL
            .into_iter()
            .filter(|&d| self.is_open(id, d))
            .count()
    }

    /// The maze as (2 * height + 1) rows of (2 * width + 1) characters: `#` wall, space open,
    /// cell (x, y) at row 2y + 1, column 2x + 1, with the entrance and exit open. With a path,
    /// its cells and the passages between consecutive cells are marked `.`.
    pub fn ascii_rows(&self, path: Option<&[usize]>) -> Vec<String> {
        let columns = 2 * self.width + 1;
        let mut grid = vec![vec![b'#'; columns]; 2 * self.height + 1];
        for id in 0..self.cells.len() {
            let (x, y) = self.coords(id);
            let (row, column) = (2 * y + 1, 2 * x + 1);
            grid[row][column] = b' ';
            if self.cells[id] & EAST_OPEN != 0 {
                grid[row][column + 1] = b' ';
            }
            if self.cells[id] & SOUTH_OPEN != 0 {
                grid[row + 1][column] = b' ';
            }
        }
        grid[1][0] = b' ';
        grid[2 * self.height - 1][columns - 1] = b' ';
        if let Some(path) = path {
            for (i, &id) in path.iter().enumerate() {
                let (x, y) = self.coords(id);
                grid[2 * y + 1][2 * x + 1] = b'.';
                if let Some(&next) = path.get(i + 1) {
                    let (nx, ny) = self.coords(next);
                    grid[y + ny + 1][x + nx + 1] = b'.';
                }
            }
        }
        grid.into_iter()
            .map(|row| String::from_utf8(row).expect("ASCII only"))
            .collect()
    }

    /// [`Maze::ascii_rows`] joined with newlines, ending in one.
    pub fn to_ascii(&self, path: Option<&[usize]>) -> String {
        let mut text = self.ascii_rows(path).join("\n");
        text.push('\n');
        text
    }
}

impl GridGraph for Maze {
    fn width(&self) -> usize {
        self.width
    }

    fn height(&self) -> usize {
        self.height
    }

    #[inline]
    fn for_each_neighbour(&self, id: usize, mut visit: impl FnMut(usize)) {
        let bits = self.cells[id];
        if bits & EAST_OPEN != 0 {
            visit(id + 1);
        }
        if bits & SOUTH_OPEN != 0 {
            visit(id + self.width);
        }
        if !id.is_multiple_of(self.width) && self.cells[id - 1] & EAST_OPEN != 0 {
            visit(id - 1);
        }
        if id >= self.width && self.cells[id - self.width] & SOUTH_OPEN != 0 {
            visit(id - self.width);
        }
    }
}

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

/// Everything that decides a maze.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MazeSpec {
    /// Cells along x, [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub width: usize,
    /// Cells along y, [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub height: usize,
    /// The carving algorithm.
    pub algorithm: Algorithm,
    /// The fraction of dead ends given an extra opening, 0.0..=1.0.
    pub braid: f64,
    /// The game seed.
    pub seed: u64,
}

impl MazeSpec {
    /// Checks the size and braid without generating anything.
    pub fn validate(&self) -> Result<(), MazeError> {
        check_size(self.width, self.height)?;
        if !(0.0..=1.0).contains(&self.braid) {
            return Err(MazeError::BraidOutOfRange(self.braid));
        }
        Ok(())
    }

    /// Generates the maze: the same spec always gives the same maze.
    pub fn generate(&self) -> Result<Maze, MazeError> {
        self.validate()?;
        let mut maze = Maze::closed(self.width, self.height)?;
        let mut rng = stream_rng(self.seed, Stream::Maze);
        self.algorithm.carve(&mut maze, &mut rng);
        braid(&mut maze, self.braid, &mut rng);
        Ok(maze)
    }
}

/// Up to four cell ids, without allocating.
struct SmallSet {
    items: [usize; 4],
    len: usize,
}

impl SmallSet {
    fn new() -> Self {
        Self {
            items: [0; 4],
            len: 0,
        }
    }

    fn push(&mut self, id: usize) {
        self.items[self.len] = id;
        self.len += 1;
    }

    fn choose(&self, rng: &mut ChaCha8Rng) -> usize {
        self.items[rng.random_range(0..self.len)]
    }
}

/// The in-maze neighbours of `id`, in the fixed order north, east, south, west.
#[inline]
fn grid_neighbours(maze: &Maze, id: usize) -> SmallSet {
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

/// Gives `fraction` of the dead ends one extra opening, making loops. Dead ends are visited in a
/// seeded random order; one already opened by an earlier step is skipped. An opening goes to a
/// neighbouring dead end when there is one (removing two dead ends at once), else to a random
/// closed neighbour.
pub fn braid(maze: &mut Maze, fraction: f64, rng: &mut ChaCha8Rng) -> usize {
    if fraction <= 0.0 {
        return 0;
    }
    let mut dead_ends: Vec<usize> = (0..maze.cell_count())
        .filter(|&id| maze.degree(id) == 1)
        .collect();
    dead_ends.shuffle(rng);
    let target = (fraction * dead_ends.len() as f64).round() as usize;
    let mut opened = 0;
    for &cell in dead_ends.iter().take(target) {
        if maze.degree(cell) != 1 {
            continue;
        }
        let mut closed = SmallSet::new();
        let mut closed_dead_ends = SmallSet::new();
        for direction in Direction::ALL {
            if let Some(n) = maze.neighbour(cell, direction)
                && !maze.is_open(cell, direction)
            {
                closed.push(n);
                if maze.degree(n) == 1 {
                    closed_dead_ends.push(n);
                }
            }
        }
        let choice = if closed_dead_ends.len > 0 {
            closed_dead_ends.choose(rng)
        } else if closed.len > 0 {
            closed.choose(rng)
        } else {
            continue;
        };
        maze.open_between(cell, choice);
        opened += 1;
    }
    opened
}
