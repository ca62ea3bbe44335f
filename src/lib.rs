//! Temple Trails: a 2D temple run, maze and wanderers game on Bevy, with a headless command line.
//!
//! `logic` holds the pure, seeded algorithms; `game` the Bevy plugins over them; `cli` the
//! command line over both; `files` the safe reading and writing of files that both use;
//! `board_api` what the board server and its clients say to each other, `board_client` the
//! game's side of it and `board_outbox` the runs waiting to be sent (with the `client`
//! feature, which the game's turns on). The game
//! and the command line come with the `game` feature (on by default); the benchmarks build the
//! library without it.

pub mod board_api;
#[cfg(feature = "client")]
pub mod board_client;
#[cfg(feature = "client")]
pub mod board_outbox;
#[cfg(feature = "game")]
pub mod cli;
pub mod files;
#[cfg(feature = "game")]
pub mod game;
pub mod logic;
