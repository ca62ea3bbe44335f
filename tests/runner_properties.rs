//! Properties of the runner's logic, checked against oracles written here: an independent
//! survivability check of certified tracks, exhaustive search for the planner, the autopilot's
//! crash count over many seeds, determinism and golden track prefixes.

#[path = "reference/mod.rs"]
mod reference;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::pathfinding_lane_route_cost;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::runner::autopilot::simulate_autopilot;
use temple_trails::logic::runner::body::{Command, Crash, RunEvent, RunnerBody};
use temple_trails::logic::runner::planner::{Planner, route_cost};
use temple_trails::logic::runner::timing::{
    LANE_CHANGE_S, LANES, REACTION_MARGIN_S, SEGMENT_LENGTH_M, SIMULATION_STEP_S, TURN_WINDOW_S,
    Timing, contact_distance_m,
};
use temple_trails::logic::runner::track::{
    BUFFER_SEGMENTS, LaneContent, Segment, SegmentKind, Track, certified_segments,
};

/// Seeds per difficulty for the long properties.
const SEEDS: u64 = 200;
/// Segments per seed for the long properties.
const SEGMENTS: usize = 10_000;

/// Lanes a runner can cross before a segment's contact point, worked out here from the timing
/// constants rather than taken from the certifier.
fn reach_before(timing: &Timing, segment: &Segment) -> usize {
    let speed = timing.speed_at(contact_distance_m(segment.index));
    let mut free_s = SEGMENT_LENGTH_M / speed - REACTION_MARGIN_S;
    if segment.kind != SegmentKind::Straight {
        free_s -= TURN_WINDOW_S;
    }
    let mut moves = 0;
    while moves < LANES - 1 && (moves + 1) as f64 * LANE_CHANGE_S <= free_s {
        moves += 1;
    }
    moves
}

/// A forward dynamic programme over (segment, lane): which lanes a runner that started in the
/// middle lane can be alive in at each contact point. Says where a lane has no way on.
fn check_survivable(segments: &[Segment], timing: &Timing) -> Result<(), String> {
    let mut alive = [false, true, false];
    for segment in segments {
        let reach = reach_before(timing, segment);
        let mut next = [false; LANES];
        for from in (0..LANES).filter(|&lane| alive[lane]) {
            let mut way_on = false;
            for (to, slot) in next.iter_mut().enumerate() {
                if from.abs_diff(to) <= reach && segment.lanes[to] != LaneContent::Block {
                    *slot = true;
                    way_on = true;
                }
            }
            if !way_on {
                return Err(format!(
                    "lane {from} is a dead end at segment {}",
                    segment.index
                ));
            }
        }
        alive = next;
    }
    Ok(())
}

fn certified_tracks_survive_and_the_autopilot_never_crashes(difficulty: Difficulty) {
    let timing = Timing::for_difficulty(difficulty);
    let (mut repairs, mut powerups_on_track, mut powerups_taken) = (0, 0, 0);
    for seed in 0..SEEDS {
        let (segments, repaired) = certified_segments(seed, difficulty, SEGMENTS);
        repairs += repaired;
        if let Err(dead_end) = check_survivable(&segments, &timing) {
            panic!("{difficulty} seed {seed}: {dead_end}");
        }
        let run = simulate_autopilot(seed, difficulty, SEGMENTS as u64);
        assert_eq!(run.crashes, 0, "{difficulty} seed {seed}: {run:?}");
        assert_eq!(run.stumbles, 0, "{difficulty} seed {seed}: {run:?}");
        powerups_on_track += segments.iter().filter(|s| s.powerup().is_some()).count();
        powerups_taken += run.powerups.iter().sum::<u32>() as usize;
        // The run also made the look-ahead beyond its last segment.
        assert!(run.repairs >= repaired);
        assert_eq!(run.max_buffered_segments, BUFFER_SEGMENTS);
        assert!(run.coins > 0);
    }
    println!(
        "{difficulty}: {repairs} repairs, {powerups_taken} of {powerups_on_track} power-ups \
         taken in {SEEDS} x {SEGMENTS} segments"
    );
    // The planner puts a power-up above any number of coins; only one it cannot reach in time
    // from where it runs is left.
    assert!(
        powerups_taken * 10 >= powerups_on_track * 9,
        "{difficulty}: {powerups_taken} of {powerups_on_track}"
    );
}

#[test]
fn easy_tracks_survive_and_the_autopilot_never_crashes() {
    certified_tracks_survive_and_the_autopilot_never_crashes(Difficulty::Easy);
}

#[test]
fn normal_tracks_survive_and_the_autopilot_never_crashes() {
    certified_tracks_survive_and_the_autopilot_never_crashes(Difficulty::Normal);
}

#[test]
fn hard_tracks_survive_and_the_autopilot_never_crashes() {
    certified_tracks_survive_and_the_autopilot_never_crashes(Difficulty::Hard);
}

#[test]
fn the_independent_check_catches_an_unrepaired_track() {
    let timing = Timing::for_difficulty(Difficulty::Hard);
    let far = 1_000_000;
    let walls = [
        Segment {
            index: far,
            kind: SegmentKind::Straight,
            lanes: [LaneContent::Empty, LaneContent::Block, LaneContent::Block],
        },
        Segment {
            index: far + 1,
            kind: SegmentKind::Straight,
            lanes: [LaneContent::Block, LaneContent::Block, LaneContent::Empty],
        },
    ];
    assert_eq!(
        check_survivable(&walls, &timing),
        Err(format!("lane 0 is a dead end at segment {}", far + 1)),
        "two lanes in one gap at top speed are too many"
    );
}

/// Every lane sequence through the window, kept if it survives, scored like the planner.
fn exhaustive_best(timing: &Timing, window: &[Segment], start_lane: u8) -> Option<u32> {
    let combinations = LANES.pow(window.len() as u32);
    (0..combinations)
        .filter_map(|mut code| {
            let mut lanes = Vec::with_capacity(window.len());
            for _ in window {
                lanes.push((code % LANES) as u8);
                code /= LANES;
            }
            let mut previous = start_lane;
            for (segment, &lane) in window.iter().zip(&lanes) {
                let content = segment.lanes[usize::from(lane)];
                let moved = usize::from(lane.abs_diff(previous));
                if content == LaneContent::Block || moved > reach_before(timing, segment) {
                    return None;
                }
                previous = lane;
            }
            Some(route_cost(start_lane, lanes.into_iter().zip(window)))
        })
        .min()
}

fn random_window(rng: &mut ChaCha8Rng, length: usize) -> Vec<Segment> {
    // Indices from the slow start to far past the speed cap, so every reach occurs.
    let first = rng.random_range(0..20_000u64);
    (0..length as u64)
        .map(|offset| {
            let kind = match rng.random_range(0..10) {
                0 => SegmentKind::TurnLeft,
                1 => SegmentKind::TurnRight,
                _ => SegmentKind::Straight,
            };
            // Power-ups one lane in ten, so windows with none, one or several all occur.
            let lanes = std::array::from_fn(|_| {
                if rng.random_range(0..10) == 0 {
                    LaneContent::ALL[rng.random_range(5..LaneContent::ALL.len())]
                } else {
                    LaneContent::ALL[rng.random_range(0..5)]
                }
            });
            Segment {
                index: first + offset,
                kind,
                lanes,
            }
        })
        .collect()
}

#[test]
fn planner_finds_the_exhaustive_optimum_on_random_windows() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut planner = Planner::new();
    let (mut found, mut none, mut with_powerups) = (0, 0, 0);
    for round in 0..3_000 {
        let difficulty = Difficulty::ALL[round % 3];
        let timing = Timing::for_difficulty(difficulty);
        let window = random_window(&mut rng, 8);
        let start_lane = rng.random_range(0..3u8);
        let best = exhaustive_best(&timing, &window, start_lane);
        let plan = planner.plan(&timing, &window, start_lane, None);
        assert_eq!(
            pathfinding_lane_route_cost(&timing, &window, start_lane),
            best,
            "round {round}: the pathfinding crate disagrees with exhaustive search"
        );
        match (best, plan) {
            (None, None) => none += 1,
            (Some(best), Some(plan)) => {
                found += 1;
                with_powerups += usize::from(window.iter().any(|s| s.powerup().is_some()));
                assert_eq!(
                    plan.cost, best,
                    "round {round}: {window:?} from {start_lane}"
                );
                assert_eq!(plan.steps.len(), window.len());
                let lanes = plan.steps.iter().map(|step| step.lane);
                assert_eq!(plan.cost, route_cost(start_lane, lanes.zip(&window)));
                // The route itself survives.
                let mut lane = start_lane;
                for (step, segment) in plan.steps.iter().zip(&window) {
                    assert!(segment.lanes[usize::from(step.lane)].passable());
                    assert!(
                        usize::from(step.lane.abs_diff(lane)) <= reach_before(&timing, segment)
                    );
                    lane = step.lane;
                }
            }
            (best, plan) => panic!("round {round}: exhaustive {best:?} but planner {plan:?}"),
        }
    }
    assert!(found > 500 && none > 100, "found {found}, none {none}");
    assert!(
        with_powerups > 500,
        "{with_powerups} windows held power-ups"
    );
}

#[test]
fn same_seed_same_track_and_seeds_differ() {
    for difficulty in Difficulty::ALL {
        let (a, _) = certified_segments(99, difficulty, 2_000);
        let (b, _) = certified_segments(99, difficulty, 2_000);
        let (c, _) = certified_segments(100, difficulty, 2_000);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut track = Track::new(99, difficulty);
        for segment in &a {
            assert_eq!(track.advance(), *segment, "the buffer gives the same track");
        }
    }
}

fn preview(seed: u64, difficulty: Difficulty, count: usize) -> String {
    certified_segments(seed, difficulty, count)
        .0
        .iter()
        .map(|s| s.preview_line() + "\n")
        .collect()
}

#[test]
fn golden_prefixes_do_not_drift() {
    let golden = [
        (Difficulty::Easy, include_str!("golden/runner_easy_42.txt")),
        (
            Difficulty::Normal,
            include_str!("golden/runner_normal_42.txt"),
        ),
        (Difficulty::Hard, include_str!("golden/runner_hard_42.txt")),
    ];
    for (difficulty, expected) in golden {
        assert_eq!(preview(42, difficulty, 40), expected, "{difficulty}");
    }
}

/// Runs the body in fixed steps with the given commands at the given times (seconds) until it
/// passes `segments` contact points or crashes.
fn run_body(track: &mut Track, commands: &[(f64, Command)], segments: u64) -> RunnerBody {
    let mut body = RunnerBody::new();
    let mut events: Vec<RunEvent> = Vec::new();
    let mut pending = commands.to_vec();
    while track.next().index < segments && body.crash.is_none() {
        while let Some(&(at, command)) = pending.first()
            && at <= body.elapsed_s
        {
            body.command(command, track);
            pending.remove(0);
        }
        let mut left = SIMULATION_STEP_S;
        while left > 0.0 && body.crash.is_none() {
            left = body.advance(left, track, &mut events);
        }
    }
    body
}

#[test]
fn a_lane_change_occupies_both_lanes_until_it_ends() {
    use LaneContent::{Block, Empty};
    let difficulty = Difficulty::Easy;
    let timing = Timing::for_difficulty(difficulty);
    // A wall in the left lane of segment 1: moving left just before it hits it.
    let layouts = [
        (SegmentKind::Straight, [Empty; 3]),
        (SegmentKind::Straight, [Block, Empty, Empty]),
    ];
    let contact_s = contact_distance_m(1) / timing.start_speed_mps;
    let mut late = Track::scripted(difficulty, layouts);
    let body = run_body(
        &mut late,
        &[(contact_s - LANE_CHANGE_S / 2.0, Command::Left)],
        3,
    );
    assert_eq!(body.crash, Some(Crash::Wall));
    // Moving away from the middle just before a wall in the middle is too late as well.
    let layouts = [
        (SegmentKind::Straight, [Empty; 3]),
        (SegmentKind::Straight, [Empty, Block, Empty]),
    ];
    let mut leaving = Track::scripted(difficulty, layouts);
    let body = run_body(
        &mut leaving,
        &[(contact_s - LANE_CHANGE_S / 2.0, Command::Left)],
        3,
    );
    assert_eq!(body.crash, Some(Crash::Wall));
    // In time, it clears.
    let mut early = Track::scripted(difficulty, layouts);
    let body = run_body(
        &mut early,
        &[(contact_s - 2.0 * LANE_CHANGE_S, Command::Left)],
        3,
    );
    assert_eq!(body.crash, None);
    assert_eq!(body.lane, 0);
}
