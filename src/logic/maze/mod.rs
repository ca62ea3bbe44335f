//! Mazes: the grid and its passages, the generators that carve it, braiding, the text form, and
//! the rules of walking one (design §4.1).

mod braid;
pub mod challenge;
mod generators;
mod grid;
pub mod guardians;
pub mod replay;
pub mod run;
mod text;
pub mod time;
pub mod torch;

pub use braid::braid;
pub use generators::Algorithm;
pub use grid::{Direction, MAX_SIDE, MIN_SIDE, Maze, MazeError, Region};

use crate::logic::seed::{Stream, stream_rng};
use grid::check_size;

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
