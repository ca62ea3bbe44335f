//! Unit tests of the runner's body: stumbles and the guardians' catch, walls and the shield,
//! falls, the magnet and the score multiplier.

use super::*;
use crate::logic::difficulty::Difficulty;
use crate::logic::runner::powerups::{MAGNET_S, MULTIPLIER_S};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::runner::track::Layout;
use LaneContent::{Block, Coins, Empty, High, Low};

const OPEN: Layout = (SegmentKind::Straight, [Empty; LANES]);

/// A track of `layouts` at the given segments (the rest open), and a runner at the start.
fn track_with(at: &[(u64, [LaneContent; LANES])]) -> Track {
    let last = at.iter().map(|a| a.0).max().unwrap_or(0);
    let layouts = (0..=last).map(|index| {
        at.iter()
            .find(|a| a.0 == index)
            .map_or(OPEN, |a| (SegmentKind::Straight, a.1))
    });
    Track::scripted(Difficulty::Normal, layouts)
}

/// Runs in fixed steps until the contact point of segment `index` has been met.
fn run_past(body: &mut RunnerBody, track: &mut Track, index: u64) -> Vec<RunEvent> {
    let mut events = Vec::new();
    while track.next().index <= index && body.crash.is_none() {
        let mut left = SIMULATION_STEP_S;
        while left > 0.0 && body.crash.is_none() {
            left = body.advance(left, track, &mut events);
        }
    }
    events
}

#[test]
fn a_first_clip_is_a_stumble_and_a_second_soon_after_is_caught() {
    // Normal runs about 10 m/s: segments 3 and 5 are about 2 s apart, 3 and 12 about 9 s.
    let mut track = track_with(&[(3, [Low; 3]), (5, [High; 3])]);
    let mut body = RunnerBody::new();
    let events = run_past(&mut body, &mut track, 3);
    assert_eq!(body.crash, None);
    assert!(events.contains(&RunEvent::Stumbled { index: 3 }));
    assert_eq!(body.stumbles, 1);
    assert!(body.pursuit() > 0.9);
    run_past(&mut body, &mut track, 5);
    assert_eq!(body.crash, Some(Crash::Caught));
    assert_eq!(body.stumbles, 2);

    let mut track = track_with(&[(3, [Low; 3]), (12, [High; 3])]);
    let mut body = RunnerBody::new();
    run_past(&mut body, &mut track, 11);
    assert_eq!(body.pursuit(), 0.0, "the window has passed");
    run_past(&mut body, &mut track, 12);
    assert_eq!(body.crash, None, "a stumble after the window is survived");
    assert_eq!(body.stumbles, 2);
}

#[test]
fn a_wall_ends_the_run_unless_a_shield_absorbs_it_once() {
    let mut track = track_with(&[(3, [Block; 3])]);
    let mut body = RunnerBody::new();
    run_past(&mut body, &mut track, 3);
    assert_eq!(body.crash, Some(Crash::Wall));

    let shield = LaneContent::PowerUp(PowerUp::Shield);
    let walls = [Block; 3];
    let mut track = track_with(&[(2, [Empty, shield, Empty]), (4, walls), (6, walls)]);
    let mut body = RunnerBody::new();
    let events = run_past(&mut body, &mut track, 4);
    assert_eq!(body.crash, None);
    assert!(events.contains(&RunEvent::Shielded { index: 4 }));
    assert!(!body.powerups.is_active(PowerUp::Shield), "used up");
    assert_eq!(body.stumbles, 0);
    run_past(&mut body, &mut track, 6);
    assert_eq!(body.crash, Some(Crash::Wall));
}

#[test]
fn a_shield_does_not_stop_a_fall() {
    let shield = LaneContent::PowerUp(PowerUp::Shield);
    let layouts = [
        OPEN,
        OPEN,
        (SegmentKind::Straight, [Empty, shield, Empty]),
        (SegmentKind::TurnLeft, [Empty; 3]),
    ];
    let mut track = Track::scripted(Difficulty::Normal, layouts);
    let mut body = RunnerBody::new();
    run_past(&mut body, &mut track, 3);
    assert!(body.powerups.is_active(PowerUp::Shield));
    assert_eq!(body.crash, Some(Crash::MissedTurn));
}

#[test]
fn the_magnet_takes_coins_from_every_lane_while_it_lasts() {
    let magnet = LaneContent::PowerUp(PowerUp::Magnet);
    let far = [Coins, Empty, Coins];
    // The magnet lasts 10 s, about 100 m at Normal's start: segment 5 is in it, 30 is not.
    let mut track = track_with(&[(2, [Empty, magnet, Empty]), (5, far), (30, far)]);
    let mut body = RunnerBody::new();
    let events = run_past(&mut body, &mut track, 5);
    assert_eq!(body.coins, 2);
    assert!(events.contains(&RunEvent::Coins { index: 5, lane: 0 }));
    run_past(&mut body, &mut track, 30);
    assert!(body.elapsed_s > MAGNET_S);
    assert_eq!(body.coins, 2, "after the magnet, coins in other lanes stay");
    assert_eq!(body.powerups_taken[PowerUp::Magnet.slot()], 1);
}

#[test]
fn the_multiplier_doubles_metres_and_coins_while_active_only() {
    let times_two = LaneContent::PowerUp(PowerUp::Multiplier);
    let coins = [Empty, Coins, Empty];
    let mut plain_track = track_with(&[(4, coins), (40, coins)]);
    let mut plain = RunnerBody::new();
    let mut track = track_with(&[(2, [Empty, times_two, Empty]), (4, coins), (40, coins)]);
    let mut body = RunnerBody::new();
    run_past(&mut plain, &mut plain_track, 4);
    run_past(&mut body, &mut track, 4);
    assert_eq!(body.coins, plain.coins);
    assert_eq!(body.bonus_coins, 1);
    let gained_during = body.score() - plain.score();
    assert!(gained_during >= COIN_LINE_POINTS, "{gained_during}");
    run_past(&mut plain, &mut plain_track, 40);
    run_past(&mut body, &mut track, 40);
    assert!(body.elapsed_s > MULTIPLIER_S + 2.0);
    let bonus = body.score() - plain.score();
    // The whole bonus: the metres run in its 10 s and one coin line, nothing after.
    let expected = body.bonus_m as u64 + COIN_LINE_POINTS;
    assert!(bonus.abs_diff(expected) <= 1, "{bonus} vs {expected}");
    let speed_then = Track::scripted(Difficulty::Normal, [])
        .timing()
        .speed_at(100.0);
    assert!(
        (body.bonus_m - speed_then * MULTIPLIER_S).abs() < 5.0,
        "{}",
        body.bonus_m
    );
}
