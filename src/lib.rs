//! Temple Trails: a 2D temple run, maze and wanderers game on Bevy, with a headless command line.
//!
//! `logic` holds the pure, seeded algorithms; `game` the Bevy plugins over them; `cli` the
//! command line over both.

pub mod cli;
pub mod game;
pub mod logic;
