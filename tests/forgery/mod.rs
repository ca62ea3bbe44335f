//! Real recordings of random input logs, and forgeries of them as a cheat would make them: the
//! seed, the result, an input or its tick changed, each with what a checker must say of it,
//! worked out here by stepping the runs and comparing their fingerprints after every step
//! ([`oracle`](super::oracle)). The replay properties check the game's checker against these;
//! the board server's tests send the same files to the server.

use super::oracle::fingerprints;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::maze::replay::MazeKind;
use temple_trails::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use temple_trails::logic::maze::{Algorithm, Direction, MazeSpec};
use temple_trails::logic::replay::{self, Check, Replay, ReplayHeader, Timed, record, replay_of};
use temple_trails::logic::runner::body::Command;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};

/// The longest a random run is played, in fixed steps.
pub const MAX_TICKS: u64 = 3_000;

fn header(seed: u64, difficulty: Difficulty) -> ReplayHeader {
    ReplayHeader {
        seed,
        seed_text: format!("{seed}"),
        difficulty,
        game_version: "test".to_owned(),
        recorded_unix_s: 0,
    }
}

fn random_runner_input(rng: &mut ChaCha8Rng, autopilot: bool) -> RunnerInput {
    match rng.random_range(0..10) {
        0 if autopilot => RunnerInput::Autopilot(rng.random()),
        0..=2 => RunnerInput::Command(Command::Left),
        3 | 4 => RunnerInput::Command(Command::Right),
        5 | 6 => RunnerInput::Command(Command::Jump),
        _ => RunnerInput::Command(Command::Slide),
    }
}

fn random_maze_input(rng: &mut ChaCha8Rng, cells: usize, system_walk: bool) -> MazeInput {
    match rng.random_range(0..20) {
        0 => MazeInput::Hint,
        1 if system_walk => MazeInput::SystemWalk(rng.random()),
        2 => MazeInput::WalkTo(rng.random_range(0..cells)),
        _ => MazeInput::Step(Direction::ALL[rng.random_range(0..4)]),
    }
}

/// A runner run with random inputs at random steps, recorded; with `assists`, the autopilot
/// is among the inputs.
pub fn random_runner_replay(rng: &mut ChaCha8Rng, assists: bool) -> Replay {
    let seed = rng.next_u64();
    let difficulty = Difficulty::ALL[rng.random_range(0..3)];
    let mut sim = RunnerSim::new(seed, difficulty);
    let mut draws = ChaCha8Rng::seed_from_u64(rng.next_u64());
    let recorder = record(
        &mut sim,
        |sim| sim.tick >= MAX_TICKS,
        |_, _| {
            if draws.random_range(0..12) == 0 {
                vec![random_runner_input(&mut draws, assists)]
            } else {
                Vec::new()
            }
        },
    );
    replay_of::<RunnerKind>(header(seed, difficulty), &sim, &recorder)
}

/// A maze run with random inputs at random steps, recorded; with `assists`, the system walk is
/// among the inputs.
pub fn random_maze_replay(rng: &mut ChaCha8Rng, assists: bool) -> Replay {
    let spec = MazeSpec {
        width: rng.random_range(2..20),
        height: rng.random_range(2..20),
        algorithm: Algorithm::ALL[rng.random_range(0..Algorithm::ALL.len())],
        braid: if rng.random() { 0.0 } else { rng.random() },
        seed: rng.next_u64(),
    };
    let difficulty = Difficulty::ALL[rng.random_range(0..3)];
    let setup = MazeSetup {
        first: spec,
        difficulty,
        level: rng.random_range(1..4),
    };
    let mut run = MazeRun::new(setup, false).unwrap();
    let cells = run.maze.cell_count();
    let mut draws = ChaCha8Rng::seed_from_u64(rng.next_u64());
    let recorder = record(
        &mut run,
        |run| run.ticks >= MAX_TICKS,
        |_, _| {
            if draws.random_range(0..4) == 0 {
                vec![random_maze_input(&mut draws, cells, assists)]
            } else {
                Vec::new()
            }
        },
    );
    replay_of::<MazeKind>(header(spec.seed, difficulty), &run, &recorder)
}

/// The fixed steps of `replay`'s inputs, in order.
pub fn input_ticks(replay: &Replay) -> Vec<u64> {
    fn ticks<I>(inputs: Vec<Timed<I>>) -> Vec<u64> {
        inputs.iter().map(|t| t.tick).collect()
    }
    match replay.run.mode() {
        "runner" => ticks(replay.run.inputs::<RunnerKind>().unwrap()),
        _ => ticks(replay.run.inputs::<MazeKind>().unwrap()),
    }
}

/// Whether the run with the changed input is in another state right after the changed step.
fn differs_after(original: &Replay, changed: &Replay, tick: u64) -> bool {
    let ticks = original.result.ticks;
    // Index t + 1 is the state after step t.
    let after = usize::try_from(tick).unwrap() + 1;
    let prints = |replay: &Replay| match replay.run.mode() {
        "runner" => {
            let mut sim = RunnerSim::new(replay.seed, replay.difficulty);
            let inputs = replay.run.inputs::<RunnerKind>().unwrap();
            fingerprints(&mut sim, &inputs, ticks).0
        }
        _ => {
            let maze = replay.run.setup::<MazeKind>().unwrap().maze;
            let mut run = MazeRun::new(maze.setup(replay.seed, replay.difficulty), false).unwrap();
            let inputs = replay.run.inputs::<MazeKind>().unwrap();
            fingerprints(&mut run, &inputs, ticks).0
        }
    };
    prints(original).get(after) != prints(changed).get(after)
}

/// Moves the fingerprint taken after an input's step from tick `from` to `to`, keeping its value
/// as a forger who cannot compute the right one would. A fingerprint the recording takes there
/// for another reason (the end, or every 1024 steps) stays, and the moved one is added.
fn move_fingerprint(replay: &mut Replay, from: u64, to: u64, ticks: u64) {
    let at = replay.checks.iter().position(|c| c.tick == from).unwrap();
    let fingerprint = replay.checks[at].fingerprint;
    if from != ticks && !from.is_multiple_of(replay::CHECK_INTERVAL_TICKS) {
        replay.checks.remove(at);
    }
    if !replay.checks.iter().any(|c| c.tick == to) {
        replay.checks.push(Check {
            tick: to,
            fingerprint,
        });
        replay.checks.sort_by_key(|check| check.tick);
    }
}

/// Changes one input of the replay to another of its mode (the computer's help among them), or
/// shifts its tick by `shift`.
fn change_input(replay: &mut Replay, index: usize, shift: Option<u64>, rng: &mut ChaCha8Rng) {
    let (seed, difficulty) = (replay.seed, replay.difficulty);
    let edited = match replay.run.mode() {
        "runner" => replay.run.edit::<RunnerKind>(|_, inputs| match shift {
            Some(tick) => inputs[index].tick = tick,
            None => inputs[index].input = random_runner_input(rng, true),
        }),
        _ => replay.run.edit::<MazeKind>(|setup, inputs| match shift {
            Some(tick) => inputs[index].tick = tick,
            None => {
                let cells = setup.maze.setup(seed, difficulty).spec();
                inputs[index].input = random_maze_input(rng, cells.width * cells.height, true);
            }
        }),
    };
    edited.unwrap();
}

/// What a checker must say of a forgery.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// It is refused before a step is played: no recording could have written it.
    Unreadable,
    /// It is played and refused at this step.
    DivergedAt(u64),
    /// It is played and refused at a step in this range, or, when the change made no
    /// difference a fingerprint can see, it plays back to the original's result.
    DivergedWithinOrSame(u64, u64),
    /// It is played and refused after this step, or plays back to the original's result: the
    /// change made no difference at its own step, and may never make one.
    DivergedAfterOrSame(u64),
}

/// A changed replay and what a checker must say of it.
#[derive(Debug, Clone)]
pub struct Forgery {
    /// What was changed.
    pub what: String,
    /// The changed file.
    pub replay: Replay,
    /// What a checker must say.
    pub verdict: Verdict,
}

/// One forgery of each kind of `replay`: its seed changed without and with its seed text, its
/// result changed, an input moved without and with its fingerprint, and an input changed.
pub fn forgeries(replay: &Replay, rng: &mut ChaCha8Rng) -> Vec<Forgery> {
    let ticks = replay.result.ticks;
    let mut forged = Vec::new();

    let mut other_seed = replay.clone();
    other_seed.seed = other_seed.seed.wrapping_add(1);
    // The seed text says which seed it is: changed alone, the seed is no run of the game.
    forged.push(Forgery {
        what: "another seed, the text kept".to_owned(),
        replay: other_seed.clone(),
        verdict: Verdict::Unreadable,
    });
    other_seed.seed_text = other_seed.seed.to_string();
    forged.push(Forgery {
        what: "another seed".to_owned(),
        replay: other_seed,
        verdict: Verdict::DivergedAt(0),
    });

    let mut other_result = replay.clone();
    let edited = match other_result.result.mode() {
        "runner" => (other_result.result).edit::<RunnerKind>(|outcome| outcome.score += 1),
        _ => (other_result.result).edit::<MazeKind>(|outcome| outcome.moves += 1),
    };
    edited.unwrap();
    forged.push(Forgery {
        what: "another result".to_owned(),
        replay: other_result,
        verdict: Verdict::DivergedAt(ticks),
    });

    let at = input_ticks(replay);
    if at.is_empty() {
        return forged;
    }
    let index = rng.random_range(0..at.len());
    // Another tick strictly between its neighbours' and before the end, when there is room.
    let low = if index == 0 { 0 } else { at[index - 1] + 1 };
    let high = at.get(index + 1).copied().unwrap_or(ticks).min(ticks);
    let moved_to = (low..high)
        .filter(|&t| t != at[index])
        .nth(rng.random_range(0..4));
    if let Some(tick) = moved_to {
        let mut moved = replay.clone();
        change_input(&mut moved, index, Some(tick), rng);
        // Its fingerprint is no longer where the recording takes one: no recording did that.
        forged.push(Forgery {
            what: format!("input {index} moved alone from {} to {tick}", at[index]),
            replay: moved.clone(),
            verdict: Verdict::Unreadable,
        });
        // Moved with its fingerprint (which a forger cannot compute), it is played and refused
        // where it diverges. Both runs are the same up to the earlier tick; the input may do
        // nothing at one of the two ticks, but the fingerprint after the later one, which
        // counts the steps, differs. Only when the input did nothing at either tick and no
        // fingerprint counts the steps between them is it the same run.
        move_fingerprint(&mut moved, at[index] + 1, tick + 1, ticks);
        forged.push(Forgery {
            what: format!("input {index} moved from {} to {tick}", at[index]),
            replay: moved,
            verdict: Verdict::DivergedWithinOrSame(tick.min(at[index]), tick.max(at[index])),
        });
    }

    let mut changed = replay.clone();
    change_input(&mut changed, index, None, rng);
    if changed != *replay {
        let verdict = if differs_after(replay, &changed, at[index]) {
            Verdict::DivergedAt(at[index])
        } else {
            Verdict::DivergedAfterOrSame(at[index])
        };
        forged.push(Forgery {
            what: format!("input {index} changed"),
            replay: changed,
            verdict,
        });
    }
    forged
}
