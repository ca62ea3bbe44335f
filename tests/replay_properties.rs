//! Properties of replays over many random input logs per mode: a recorded run survives JSON and
//! plays back to its result; a replay whose seed, result, input tick or input was changed is
//! refused, naming the step where it went another way (worked out here by stepping both runs and
//! comparing their fingerprints after every step). A change that leaves the file unlike any
//! recording (a seed without its seed text, an input moved without its fingerprint) is refused
//! before it is played.

mod forgery;
mod oracle;

use forgery::{Forgery, Verdict, forgeries, random_maze_replay, random_runner_replay};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use temple_trails::logic::maze::replay::MazeKind;
use temple_trails::logic::replay::{self, Replay, ReplayError};
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::verify_replay;

/// Random input logs per mode.
const LOGS: u64 = 1_000;

/// Checks the replay and one forgery of each kind of it; counts the inputs moved and changed
/// that were refused where they diverge, the changes that made no difference, and those refused
/// later than their own step.
fn check_replay(replay: &Replay, rng: &mut ChaCha8Rng, counts: &mut [u32; 4]) {
    let text = serde_json::to_string(replay).unwrap();
    let read = replay::parse(&text).unwrap();
    assert_eq!(&read, replay);
    assert_eq!(verify_replay(&read), Ok(replay.result.clone()));
    for Forgery {
        what,
        replay: forged,
        verdict,
    } in forgeries(replay, rng)
    {
        let checked = verify_replay(&forged);
        match (&verdict, &checked) {
            (Verdict::Unreadable, Err(ReplayError::Invalid(_))) => {}
            (Verdict::DivergedAt(at), Err(ReplayError::Diverged { tick, .. })) if tick == at => {
                if what.ends_with("changed") {
                    counts[1] += 1;
                }
            }
            (
                Verdict::DivergedWithinOrSame(first, last),
                Err(ReplayError::Diverged { tick, .. }),
            ) if (first..=last).contains(&tick) => counts[0] += 1,
            (Verdict::DivergedAfterOrSame(at), Err(ReplayError::Diverged { tick, .. }))
                if tick > at =>
            {
                counts[3] += 1;
            }
            (Verdict::DivergedWithinOrSame(..) | Verdict::DivergedAfterOrSame(_), Ok(result))
                if *result == replay.result =>
            {
                counts[2] += 1;
            }
            _ => panic!("{what}: {verdict:?} expected, {checked:?} found"),
        }
    }
}

#[test]
fn random_runner_logs_replay_and_changed_ones_are_refused_where_they_diverge() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut counts = [0; 4];
    let mut crashed = 0;
    for _ in 0..LOGS {
        let replay = random_runner_replay(&mut rng, true);
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
        let replay = random_maze_replay(&mut rng, true);
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
