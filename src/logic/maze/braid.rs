//! Braiding: opening an extra wall at a share of the dead ends, so a maze gains loops and more
//! than one way out.

use super::generators::SmallSet;
use super::grid::{Direction, Maze};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

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
