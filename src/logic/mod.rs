//! Pure game logic: seeded generators and solvers with no Bevy ECS, no I/O and no globals.
//!
//! Everything here takes a seed or an `&mut` random number generator and returns plain data, so
//! the game, the headless command line, the tests and the benchmarks all run the same code.

pub mod difficulty;
pub mod grid_search;
pub mod maze;
pub mod ranges;
pub mod replay;
pub mod runner;
pub mod seed;
pub mod title_field;
pub mod wanderers;
