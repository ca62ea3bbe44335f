//! The maze itself: a grid of cells and which passages between neighbours are open, stored as
//! two bits per cell, and the moves it allows for the grid search.
//!
//! Cell (x, y) has id `y * width + x`; (0, 0) is the top-left start, (width - 1, height - 1) the
//! bottom-right goal. The entrance is the outer wall west of the start, the exit the outer wall
//! east of the goal.

use crate::logic::grid_search::GridGraph;

/// Fewest cells along a side.
pub const MIN_SIDE: usize = 2;
/// Most cells along a side.
pub const MAX_SIDE: usize = 1000;

/// Bit set when the passage to the east neighbour is open.
pub(super) const EAST_OPEN: u8 = 1;
/// Bit set when the passage to the south neighbour is open.
pub(super) const SOUTH_OPEN: u8 = 2;

/// A direction from a cell to one of its four neighbours. Screen convention: north is up (y - 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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
    /// No path leads from the start to the exit (never so for a generated maze).
    NoWayOut,
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
            MazeError::NoWayOut => write!(f, "the maze has no way from the start to the exit"),
        }
    }
}

impl std::error::Error for MazeError {}

/// Refuses a size with a side outside [`MIN_SIDE`]..=[`MAX_SIDE`].
pub(super) fn check_size(width: usize, height: usize) -> Result<(), MazeError> {
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
    pub(super) width: usize,
    pub(super) height: usize,
    /// Per cell: [`EAST_OPEN`] and [`SOUTH_OPEN`] bits. West and north are read from the
    /// neighbour, so every passage is stored exactly once.
    pub(super) cells: Vec<u8>,
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

/// A maze whose moves stay among the cells `allowed` accepts: for searches that must keep to a
/// region, such as a guardian's reach or the cells a player has seen.
pub struct Region<'a, F: Fn(usize) -> bool> {
    /// The maze.
    pub maze: &'a Maze,
    /// Whether a cell belongs to the region.
    pub allowed: F,
}

impl<F: Fn(usize) -> bool> GridGraph for Region<'_, F> {
    fn width(&self) -> usize {
        self.maze.width
    }

    fn height(&self) -> usize {
        self.maze.height
    }

    #[inline]
    fn for_each_neighbour(&self, id: usize, mut visit: impl FnMut(usize)) {
        self.maze.for_each_neighbour(id, |next| {
            if (self.allowed)(next) {
                visit(next);
            }
        });
    }
}
