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
        let taken = run.powerups.iter().sum::<u32>();
        // Exactly as many as the best route through the whole track can take: none skipped
        // that some route takes, none counted twice.
        assert_eq!(
            taken,
            most_powerups(&segments, &timing, RUNNER_START_LANE),
            "{difficulty} seed {seed}"
        );
        powerups_taken += taken as usize;
        // The run also made the look-ahead beyond its last segment.
        assert!(run.repairs >= repaired);
        assert_eq!(run.max_buffered_segments, BUFFER_SEGMENTS);
        assert!(run.coins > 0);
    }
    println!(
        "{difficulty}: {repairs} repairs, {powerups_taken} of {powerups_on_track} power-ups \
         taken in {SEEDS} x {SEGMENTS} segments"
    );
    // Some power-ups are out of every route's reach (behind a wall, or too far across at the
    // speed it is met at): the count above is of those a route can take.
    assert!(powerups_taken > 0, "{difficulty}: no power-up taken");
}

/// The lane a run starts in.
const RUNNER_START_LANE: u8 = 1;

/// The most power-ups any surviving route through the whole track takes from `start_lane`,
/// worked out here by dynamic programming over (segment, lane) with the timing constants'
/// reach: what no planner with a look-ahead can beat.
fn most_powerups(segments: &[Segment], timing: &Timing, start_lane: u8) -> u32 {
    let mut best: [Option<u32>; LANES] = [None; LANES];
    best[usize::from(start_lane)] = Some(0);
    for segment in segments {
        let reach = reach_before(timing, segment);
        let next: [Option<u32>; LANES] = std::array::from_fn(|to| {
            let content = segment.lanes[to];
            if content == LaneContent::Block {
                return None;
            }
            let gained = u32::from(matches!(content, LaneContent::PowerUp(_)));
            (0..LANES)
                .filter(|&from| from.abs_diff(to) <= reach)
                .filter_map(|from| best[from])
                .max()
                .map(|taken| taken + gained)
        });
        best = next;
    }
    best.into_iter().flatten().max().unwrap_or(0)
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

/// What a route takes and spends, counted here from its lanes: the README's order of priorities
/// compares these, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tally {
    powerups: u32,
    coin_lines: u32,
    lanes_moved: u32,
}

impl Tally {
    /// Most power-ups, then most coin lines, then fewest lanes moved: smaller is better.
    fn rank(self) -> (std::cmp::Reverse<u32>, std::cmp::Reverse<u32>, u32) {
        use std::cmp::Reverse;
        (
            Reverse(self.powerups),
            Reverse(self.coin_lines),
            self.lanes_moved,
        )
    }
}

/// The tally of a route through `window` from `start_lane`.
fn tally(start_lane: u8, lanes: &[u8], window: &[Segment]) -> Tally {
    let mut counted = Tally {
        powerups: 0,
        coin_lines: 0,
        lanes_moved: 0,
    };
    let mut previous = start_lane;
    for (&lane, segment) in lanes.iter().zip(window) {
        match segment.lanes[usize::from(lane)] {
            LaneContent::PowerUp(_) => counted.powerups += 1,
            LaneContent::Coins => counted.coin_lines += 1,
            _ => {}
        }
        counted.lanes_moved += u32::from(lane.abs_diff(previous));
        previous = lane;
    }
    counted
}

/// Every lane sequence through the window that survives, as a tally.
fn surviving_routes(timing: &Timing, window: &[Segment], start_lane: u8) -> Vec<Tally> {
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
            Some(tally(start_lane, &lanes, window))
        })
        .collect()
}

/// The best surviving route by the README's order of priorities, found by trying every one.
fn exhaustive_best(timing: &Timing, window: &[Segment], start_lane: u8) -> Option<Tally> {
    surviving_routes(timing, window, start_lane)
        .into_iter()
        .min_by_key(|route| route.rank())
}

/// The tally of the planner's route through `window`, or `None` when it finds none.
fn planned(planner: &mut Planner, timing: &Timing, window: &[Segment], start: u8) -> Option<Tally> {
    let plan = planner.plan(timing, window, start, None)?;
    let lanes: Vec<u8> = plan.steps.iter().map(|step| step.lane).collect();
    Some(tally(start, &lanes, window))
}

/// A window where a power-up waits in an outer lane with no coins, the middle lane is walled for
/// up to four segments before it, and coin lines fill the rest: a runner in the far lane who
/// wants it must cross early and leave as many coin lines as the wall is long, and more.
fn contested_window(rng: &mut ChaCha8Rng, length: usize) -> Vec<Segment> {
    let first = rng.random_range(0..20_000u64);
    let powerup_lane = if rng.random() { 0 } else { 2 };
    let at = rng.random_range(4..length);
    let wall_from = at - rng.random_range(0..=4usize);
    (0..length)
        .map(|offset| Segment {
            index: first + offset as u64,
            kind: SegmentKind::Straight,
            lanes: std::array::from_fn(|lane| {
                if lane == powerup_lane {
                    if offset == at {
                        LaneContent::ALL[rng.random_range(5..LaneContent::ALL.len())]
                    } else {
                        LaneContent::Empty
                    }
                } else if lane == 1 && (wall_from..at).contains(&offset) {
                    LaneContent::Block
                } else if rng.random_range(0..10) == 0 {
                    LaneContent::Empty
                } else {
                    LaneContent::Coins
                }
            }),
        })
        .collect()
}

#[test]
fn a_power_up_is_taken_over_any_number_of_coin_lines_then_coins_over_lane_changes() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut planner = Planner::new();
    // How many coin lines the best route left to take its power-up, window by window.
    let mut coins_left_for_it = [0u32; 9];
    for round in 0..2_000 {
        let timing = Timing::for_difficulty(Difficulty::ALL[round % 3]);
        let window = contested_window(&mut rng, 8);
        let start_lane = rng.random_range(0..3u8);
        let routes = surviving_routes(&timing, &window, start_lane);
        let best = routes.iter().copied().min_by_key(|route| route.rank());
        assert_eq!(
            planned(&mut planner, &timing, &window, start_lane),
            best,
            "round {round}: {window:?} from lane {start_lane}"
        );
        let most_coins_without = (routes.iter())
            .filter(|route| route.powerups == 0)
            .map(|route| route.coin_lines)
            .max();
        if let (Some(best), Some(without)) = (best, most_coins_without)
            && best.powerups > 0
        {
            let left = without.saturating_sub(best.coin_lines) as usize;
            coins_left_for_it[left.min(8)] += 1;
        }
    }
    println!("coin lines left to take the power-up (0, 1, ... 8 or more): {coins_left_for_it:?}");
    let many: u32 = coins_left_for_it[3..].iter().sum();
    assert!(
        many >= 100,
        "the power-up cost three or more coin lines in only {many} windows"
    );
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
        // The pathfinding crate's A* finds the same cheapest route under the planner's costs.
        assert_eq!(
            pathfinding_lane_route_cost(&timing, &window, start_lane),
            plan.as_ref().map(|plan| plan.cost),
            "round {round}: the pathfinding crate disagrees with the planner"
        );
        match (best, plan) {
            (None, None) => none += 1,
            (Some(best), Some(plan)) => {
                found += 1;
                with_powerups += usize::from(window.iter().any(|s| s.powerup().is_some()));
                assert_eq!(plan.steps.len(), window.len());
                let lanes: Vec<u8> = plan.steps.iter().map(|step| step.lane).collect();
                assert_eq!(
                    tally(start_lane, &lanes, &window),
                    best,
                    "round {round}: {window:?} from {start_lane}"
                );
                assert_eq!(
                    plan.cost,
                    route_cost(start_lane, lanes.iter().copied().zip(&window))
                );
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
    println!("{found} windows with a route, {none} without, {with_powerups} with power-ups");
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
