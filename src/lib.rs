//! Temple Trails: a 2D temple run, maze and wanderers game on Bevy, with a headless command line.
//!
//! `logic` holds the pure, seeded algorithms; `game` the Bevy plugins over them; `cli` the
//! command line over both; `files` the safe reading and writing of files that both use. The game
//! and the command line come with the `game` feature (on by default); the benchmarks build the
//! library without it.

#[cfg(feature = "game")]
pub mod cli;
pub mod files;
#[cfg(feature = "game")]
pub mod game;
pub mod logic;
