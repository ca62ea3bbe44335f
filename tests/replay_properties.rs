//! Properties of replays over many random input logs per mode: a recorded run survives JSON and
//! plays back to its result; a replay whose seed, result, input tick or input was changed is
//! refused, naming the step where it went another way (worked out here by stepping both runs and
//! comparing their fingerprints after every step). A change that leaves the file unlike any
//! recording (a seed without its seed text, an input moved without its fingerprint) is refused
//! before it is played.

mod oracle;

use oracle::fingerprints;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::maze::replay::MazeKind;
use temple_trails::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use temple_trails::logic::maze::{Algorithm, Direction, MazeSpec};
use temple_trails::logic::replay::{
    self, Check, Replay, ReplayError, ReplayHeader, Timed, record, replay_of,
};
use temple_trails::logic::runner::body::Command;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};
use temple_trails::logic::verify_replay;

/// Random input logs per mode.
const LOGS: u64 = 1_000;
/// The longest a random run is played, in fixed steps.
const MAX_TICKS: u64 = 3_000;

fn header(seed: u64, difficulty: Difficulty) -> ReplayHeader {
    ReplayHeader {
        seed,
        seed_text: format!("{seed}"),
        difficulty,
        game_version: "test".to_owned(),
        recorded_unix_s: 0,
    }
}

fn random_runner_input(rng: &mut ChaCha8Rng) -> RunnerInput {
    match rng.random_range(0..10) {
        0 => RunnerInput::Autopilot(rng.random()),
        1 | 2 => RunnerInput::Command(Command::Left),
        3 | 4 => RunnerInput::Command(Command::Right),
        5 | 6 => RunnerInput::Command(Command::Jump),
        _ => RunnerInput::Command(Command::Slide),
    }
}

fn random_maze_input(rng: &mut ChaCha8Rng, cells: usize) -> MazeInput {
    match rng.random_range(0..20) {
        0 => MazeInput::Hint,
        1 => MazeInput::SystemWalk(rng.random()),
        2 => MazeInput::WalkTo(rng.random_range(0..cells)),
        _ => MazeInput::Step(Direction::ALL[rng.random_range(0..4)]),
    }
}

/// A runner run with random inputs at random steps, recorded.
fn random_runner_replay(rng: &mut ChaCha8Rng) -> Replay {
    let seed = rng.next_u64();
    let difficulty = Difficulty::ALL[rng.random_range(0..3)];
    let mut sim = RunnerSim::new(seed, difficulty);
    let mut draws = ChaCha8Rng::seed_from_u64(rng.next_u64());
    let recorder = record(
        &mut sim,
        |sim| sim.tick >= MAX_TICKS,
        |_, _| {
            if draws.random_range(0..12) == 0 {
                vec![random_runner_input(&mut draws)]
            } else {
                Vec::new()
            }
        },
    );
    replay_of::<RunnerKind>(header(seed, difficulty), &sim, &recorder)
}

/// A maze run with random inputs at random steps, recorded.
fn random_maze_replay(rng: &mut ChaCha8Rng) -> Replay {
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
                vec![random_maze_input(&mut draws, cells)]
            } else {
                Vec::new()
            }
        },
    );
    replay_of::<MazeKind>(header(spec.seed, difficulty), &run, &recorder)
}

/// The fixed steps of `replay` and its inputs, as (tick, index into the inputs).
fn input_ticks(replay: &Replay) -> Vec<u64> {
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

/// Whether `verify` refuses `replay` as no run of the game, without playing it.
fn invalid(replay: &Replay) -> bool {
    matches!(verify_replay(replay), Err(ReplayError::Invalid(_)))
}

fn diverged_at(replay: &Replay) -> Option<u64> {
    match verify_replay(replay) {
        Err(ReplayError::Diverged { tick, .. }) => Some(tick),
        _ => None,
    }
}

/// Changes one input of the replay to another of its mode, or shifts its tick by `shift`.
fn change_input(replay: &mut Replay, index: usize, shift: Option<u64>, rng: &mut ChaCha8Rng) {
    let (seed, difficulty) = (replay.seed, replay.difficulty);
    let edited = match replay.run.mode() {
        "runner" => replay.run.edit::<RunnerKind>(|_, inputs| match shift {
            Some(tick) => inputs[index].tick = tick,
            None => inputs[index].input = random_runner_input(rng),
        }),
        _ => replay.run.edit::<MazeKind>(|setup, inputs| match shift {
            Some(tick) => inputs[index].tick = tick,
            None => {
                let cells = setup.maze.setup(seed, difficulty).spec();
                inputs[index].input = random_maze_input(rng, cells.width * cells.height);
            }
        }),
    };
    edited.unwrap();
}

/// Checks the replay and one change of each kind to it.
fn check_replay(replay: &Replay, rng: &mut ChaCha8Rng, counts: &mut [u32; 4]) {
    let text = serde_json::to_string(replay).unwrap();
    let read = replay::parse(&text).unwrap();
    assert_eq!(&read, replay);
    assert_eq!(verify_replay(&read), Ok(replay.result.clone()));
    let ticks = replay.result.ticks;

    let mut other_seed = replay.clone();
    other_seed.seed = other_seed.seed.wrapping_add(1);
    // The seed text says which seed it is: changed alone, the seed is no run of the game.
    assert!(invalid(&other_seed), "another seed, the text kept");
    other_seed.seed_text = other_seed.seed.to_string();
    assert_eq!(diverged_at(&other_seed), Some(0), "another seed");

    let mut other_result = replay.clone();
    let edited = match other_result.result.mode() {
        "runner" => (other_result.result).edit::<RunnerKind>(|outcome| outcome.score += 1),
        _ => (other_result.result).edit::<MazeKind>(|outcome| outcome.moves += 1),
    };
    edited.unwrap();
    assert_eq!(diverged_at(&other_result), Some(ticks), "another result");

    let at = input_ticks(replay);
    if at.is_empty() {
        return;
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
        assert!(invalid(&moved), "input {index} moved alone");
        // Moved with its fingerprint (which a forger cannot compute), it is played and refused
        // where it diverges. Both runs are the same up to the earlier tick; the input may do
        // nothing at one of the two ticks, but the fingerprint after the later one, which
        // counts the steps, differs.
        move_fingerprint(&mut moved, at[index] + 1, tick + 1, ticks);
        let (first, last) = (tick.min(at[index]), tick.max(at[index]));
        match verify_replay(&moved) {
            Err(ReplayError::Diverged { tick: found, .. }) if (first..=last).contains(&found) => {
                counts[0] += 1;
            }
            // The input did nothing at either tick, and no fingerprint counts the steps between
            // them (the moved one fell on one taken anyway): the same run, played back.
            Ok(result) if result == replay.result => counts[2] += 1,
            other => panic!(
                "input {index} moved from {} to {tick}: {other:?}",
                at[index]
            ),
        }
    }

    let mut changed = replay.clone();
    change_input(&mut changed, index, None, rng);
    if changed == *replay {
        return;
    }
    if differs_after(replay, &changed, at[index]) {
        assert_eq!(
            diverged_at(&changed),
            Some(at[index]),
            "input {index} changed"
        );
        counts[1] += 1;
    } else {
        // The change made no difference at its step: it may never make one.
        match verify_replay(&changed) {
            Ok(result) => {
                assert_eq!(result, replay.result);
                counts[2] += 1;
            }
            Err(ReplayError::Diverged { tick, .. }) => {
                assert!(tick > at[index], "{tick}");
                counts[3] += 1;
            }
            Err(err) => panic!("{err}"),
        }
    }
}

#[test]
fn random_runner_logs_replay_and_changed_ones_are_refused_where_they_diverge() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut counts = [0; 4];
    let mut crashed = 0;
    for _ in 0..LOGS {
        let replay = random_runner_replay(&mut rng);
        if replay
            .result
            .outcome::<RunnerKind>()
            .unwrap()
            .crash
            .is_some()
        {
            crashed += 1;
        }
        check_replay(&replay, &mut rng, &mut counts);
    }
    println!("runner: {crashed} crashed; moved, changed, harmless, later: {counts:?}");
    assert!(
        crashed > LOGS / 2 && counts[0] > 500 && counts[1] > 300,
        "{counts:?}"
    );
}

#[test]
fn random_maze_logs_replay_and_changed_ones_are_refused_where_they_diverge() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut counts = [0; 4];
    let mut solved = 0;
    for _ in 0..LOGS {
        let replay = random_maze_replay(&mut rng);
        if replay.result.outcome::<MazeKind>().unwrap().finished {
            solved += 1;
        }
        check_replay(&replay, &mut rng, &mut counts);
    }
    println!("maze: {solved} solved; moved, changed, harmless, later: {counts:?}");
    assert!(
        solved > 50 && counts[0] > 500 && counts[1] > 300,
        "{counts:?}"
    );
}
