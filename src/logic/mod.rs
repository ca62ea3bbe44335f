//! Pure game logic: seeded generators and solvers with no Bevy ECS, no I/O and no globals.
//!
//! Everything here takes a seed or an `&mut` random number generator and returns plain data, so
//! the game, the headless command line, the tests and the benchmarks all run the same code.

pub mod difficulty;
pub mod grid_search;
pub mod guidance;
pub mod maze;
pub mod ranges;
pub mod replay;
pub mod runner;
pub mod seed;
pub mod title_field;
pub mod wanderers;

/// Every mode's kind of replay: what reads replays of any mode without the game (the command
/// line) looks a replay's mode up here. The game's modes bring their own kinds.
pub const REPLAY_KINDS: &[&dyn replay::ReplayKind] =
    &[&runner::replay::RunnerKind, &maze::replay::MazeKind];

/// Plays a replay of any of the game's modes ([`REPLAY_KINDS`]) again and checks that it goes
/// exactly as recorded ([`replay::verify`]).
pub fn verify_replay(replay: &replay::Replay) -> Result<replay::RunResult, replay::ReplayError> {
    replay::verify(replay, replay::kind_of(replay, REPLAY_KINDS)?)
}
