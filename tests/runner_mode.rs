//! Headless App tests of the runner mode: keys move, jump, slide and turn the runner exactly as
//! the timing model says, a clipped log or beam is a stumble and a second one soon after is
//! caught, walls and falls end the run, power-ups do what they say, and only unassisted runs set
//! best scores.

mod common;

use bevy::ecs::message::Messages;
use bevy::prelude::*;
use common::runner::{
    OPEN, PATIENCE, TEST_SEGMENT, enter_runner, pass_the_test_segment, press_when_due, run,
    run_until, runner_app, scripted_app, scripted_app_from,
};
use common::{headless_app, headless_app_with, press, run_frames, state};
use temple_trails::game::audio::{Sound, SoundRequested};
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::runner::ghost::RunnerGhost;
use temple_trails::game::runner::{self, sounds};
use temple_trails::game::runner::{RunnerResult, RunnerRun};
use temple_trails::game::scores::BestScores;
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::game::session::AutoplayOnStart;
use temple_trails::game::settings::GameSeed;
use temple_trails::game::settings::Settings;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::replay;
use temple_trails::logic::runner::body::{COIN_LINE_POINTS, Crash};
use temple_trails::logic::runner::planner::PLAN_LOOKAHEAD;
use temple_trails::logic::runner::powerups::PowerUp;
use temple_trails::logic::runner::replay::RunnerKind;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};
use temple_trails::logic::runner::timing::{Timing, contact_distance_m};
use temple_trails::logic::runner::track::{LaneContent, Layout, SegmentKind, Track};
use temple_trails::logic::verify_replay;

#[test]
fn the_runner_starts_in_the_middle_lane_and_runs() {
    let mut app = runner_app();
    assert_eq!(run(&app).sim.body.lane, 1);
    assert_eq!(run(&app).sim.body.distance_m, 0.0);
    let frames = 20;
    run_frames(&mut app, frames);
    let distance = run(&app).sim.body.distance_m;
    // Two seconds at the start speed of Normal, give or take the ramp and the last fixed step.
    let seconds = frames as f64 * common::FRAME.as_secs_f64();
    let expected = Timing::for_difficulty(Difficulty::Normal).start_speed_mps * seconds;
    assert!(
        (distance - expected).abs() < 0.05 * expected,
        "{distance} m, not {expected} m"
    );
    assert!(run(&app).sim.body.crash.is_none());
}

#[test]
fn left_moves_one_lane_and_right_two_moves_two() {
    let mut app = runner_app();
    press(&mut app, KeyCode::ArrowLeft);
    run_frames(&mut app, 3);
    assert_eq!(run(&app).sim.body.lane, 0);
    assert_eq!(run(&app).sim.body.change, None);
    press(&mut app, KeyCode::ArrowLeft);
    run_frames(&mut app, 3);
    assert_eq!(run(&app).sim.body.lane, 0, "no lane beyond the edge");
    press(&mut app, KeyCode::KeyD);
    press(&mut app, KeyCode::KeyD);
    run_frames(&mut app, 3);
    assert_eq!(run(&app).sim.body.lane, 2);
}

#[test]
fn a_jump_clears_a_low_obstacle() {
    let mut app = scripted_app((SegmentKind::Straight, [LaneContent::Low; 3]));
    press_when_due(&mut app, KeyCode::ArrowUp, 0.4, 0.15);
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, None);
    assert_eq!(state::<Menu>(&app), Menu::None);
}

#[test]
fn a_clipped_log_is_a_stumble_and_a_second_soon_after_is_caught() {
    let low = (SegmentKind::Straight, [LaneContent::Low; 3]);
    // At Normal's 10 m/s segment 5 comes 2 s after segment 3: inside the stumble window.
    let mut app = scripted_app_from([OPEN, OPEN, OPEN, low, OPEN, low]);
    run_until(&mut app, "the first log to pass", |run| {
        run.sim.track.next().index > TEST_SEGMENT
    });
    assert_eq!(run(&app).sim.body.crash, None, "the first is survived");
    assert_eq!(run(&app).sim.body.stumbles, 1);
    assert!(
        run(&app).sim.body.pursuit() > 0.5,
        "the guardians are close"
    );
    assert!(recent_sounds(&app).contains(&sounds::STUMBLE));
    assert_eq!(state::<Menu>(&app), Menu::None);
    run_until(&mut app, "the second log", |run| {
        run.sim.body.crash.is_some()
    });
    run_frames(&mut app, 2);
    assert_eq!(state::<Menu>(&app), Menu::Results);
    let result = app.world().resource::<RunnerResult>();
    assert_eq!(result.crash, Crash::Caught);
    assert_eq!(result.stumbles, 2);
    assert!((54.0..56.0).contains(&result.distance_m));

    // A second stumble after the window is survived too.
    let mut app = scripted_app_from(
        [OPEN, OPEN, OPEN, low]
            .into_iter()
            .chain([OPEN; 9])
            .chain([low]),
    );
    run_until(&mut app, "segment 13 to pass", |run| {
        run.sim.track.next().index > 13 || run.sim.body.crash.is_some()
    });
    assert_eq!(run(&app).sim.body.crash, None);
    assert_eq!(run(&app).sim.body.stumbles, 2);
}

#[test]
fn a_slide_clears_a_high_obstacle_and_a_jump_does_not() {
    let mut app = scripted_app((SegmentKind::Straight, [LaneContent::High; 3]));
    press_when_due(&mut app, KeyCode::ArrowDown, 0.4, 0.15);
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, None);

    let mut app = scripted_app((SegmentKind::Straight, [LaneContent::High; 3]));
    press_when_due(&mut app, KeyCode::Space, 0.4, 0.15);
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, None);
    assert_eq!(run(&app).sim.body.stumbles, 1, "the beam was clipped");
}

#[test]
fn a_jump_too_early_lands_before_the_obstacle() {
    let mut app = scripted_app((SegmentKind::Straight, [LaneContent::Low; 3]));
    press_when_due(&mut app, KeyCode::ArrowUp, 1.0, 0.7);
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.stumbles, 1);
}

#[test]
fn a_wall_is_dodged_by_changing_lane() {
    let walls = [LaneContent::Empty, LaneContent::Block, LaneContent::Block];
    let mut app = scripted_app((SegmentKind::Straight, walls));
    press(&mut app, KeyCode::ArrowLeft);
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, None);

    let mut app = scripted_app((SegmentKind::Straight, walls));
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, Some(Crash::Wall));
}

#[test]
fn turning_inside_the_window_follows_the_junction() {
    let mut app = scripted_app((SegmentKind::TurnRight, [LaneContent::Empty; 3]));
    press_when_due(&mut app, KeyCode::ArrowRight, 0.45, 0.2);
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, None);
    assert_eq!(run(&app).sim.body.quarter_turns, -1);
    assert_eq!(
        run(&app).sim.body.lane,
        1,
        "Right turned instead of changing lane"
    );
}

#[test]
fn a_missed_or_wrong_turn_falls() {
    let mut app = scripted_app((SegmentKind::TurnLeft, [LaneContent::Empty; 3]));
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, Some(Crash::MissedTurn));

    let mut app = scripted_app((SegmentKind::TurnLeft, [LaneContent::Empty; 3]));
    press_when_due(&mut app, KeyCode::ArrowRight, 0.45, 0.2);
    pass_the_test_segment(&mut app);
    assert_eq!(run(&app).sim.body.crash, Some(Crash::WrongTurn));
}

#[test]
fn the_game_over_stores_a_best_score() {
    let home = tempfile::tempdir().unwrap();
    let result = run_one_coin_line(home.path(), false);
    // The run ends at the wall's contact point, with one coin line taken.
    let metres = contact_distance_m(TEST_SEGMENT) as u64;
    assert_eq!(result.score, metres + COIN_LINE_POINTS);
    assert!(result.new_record && !result.assisted);
    let best = result.best.expect("a best score");
    assert_eq!((best.value, best.seed), (result.score as f64, 5));
    let saved = std::fs::read_to_string(home.path().join("scores.json")).unwrap();
    assert!(saved.contains("runner/normal"), "{saved}");
}

/// Runs a track with one coin line before a row of walls, in an app keeping its files in `home`, to the
/// game over; with `autopilot`, O is pressed twice first. Returns the result.
fn run_one_coin_line(home: &std::path::Path, autopilot: bool) -> RunnerResult {
    let mut app = headless_app(Some(home));
    enter_runner(&mut app);
    let empty = (SegmentKind::Straight, [LaneContent::Empty; 3]);
    let coins = (SegmentKind::Straight, [LaneContent::Coins; 3]);
    let walls = (SegmentKind::Straight, [LaneContent::Block; 3]);
    let track = Track::scripted(Difficulty::Normal, [empty, coins, empty, walls]);
    app.world_mut()
        .insert_resource(RunnerRun::new(5, Difficulty::Normal, track, false));
    if autopilot {
        press(&mut app, KeyCode::KeyO);
        press(&mut app, KeyCode::KeyO);
    }
    pass_the_test_segment(&mut app);
    run_frames(&mut app, 2);
    let result = app.world().resource::<RunnerResult>().clone();
    assert_eq!(result.coins, 1);
    assert_eq!(
        app.world().resource::<BestScores>().coins_banked(),
        result.coins_banked
    );
    result
}

#[test]
fn coins_are_banked_across_runs_and_sessions_but_not_from_the_autopilot() {
    let home = tempfile::tempdir().unwrap();
    assert_eq!(run_one_coin_line(home.path(), false).coins_banked, 1);
    let saved = std::fs::read_to_string(home.path().join("scores.json")).unwrap();
    assert!(saved.contains("\"coins_banked\": 1"), "{saved}");
    // A new session loads the bank and adds to it.
    assert_eq!(run_one_coin_line(home.path(), false).coins_banked, 2);
    let assisted = run_one_coin_line(home.path(), true);
    assert!(assisted.assisted);
    assert_eq!(
        assisted.coins_banked, 2,
        "the autopilot's coins are not banked"
    );
}

#[test]
fn a_run_the_autopilot_touched_stores_no_score() {
    let mut app = scripted_app((SegmentKind::Straight, [LaneContent::Block; 3]));
    press(&mut app, KeyCode::KeyO);
    assert!(run(&app).sim.autopilot_on);
    press(&mut app, KeyCode::KeyO);
    assert!(!run(&app).sim.autopilot_on);
    pass_the_test_segment(&mut app);
    let result = app.world().resource::<RunnerResult>();
    assert!(result.assisted && !result.new_record);
    assert!(
        app.world()
            .resource::<BestScores>()
            .best("runner/normal")
            .is_none()
    );
}

#[test]
fn the_autopilot_runs_a_real_track_without_crashing() {
    let mut app = headless_app_with(None, |app| {
        app.insert_resource(AutoplayOnStart(true));
    });
    enter_runner(&mut app);
    assert!(
        run(&app).sim.autopilot_on,
        "--autoplay starts with the autopilot on"
    );
    run_frames(&mut app, 600);
    let body = &run(&app).sim.body;
    assert_eq!(body.crash, None);
    assert_eq!(body.stumbles, 0);
    assert!(body.distance_m > 600.0, "{}", body.distance_m);
    assert!(body.coins > 0, "{body:?}");
    // The game ran exactly the headless run of its seed with the autopilot on from the first
    // step: the same track, turns, coins and body, step for step.
    let game = &run(&app).sim;
    let mut headless = RunnerSim::new(game.seed, game.difficulty);
    headless.step([RunnerInput::Autopilot(true)]);
    while headless.tick < game.tick {
        headless.step([]);
    }
    assert_eq!(headless.fingerprint(), game.fingerprint());
    assert_eq!(headless.body.quarter_turns, game.body.quarter_turns);
    assert_eq!(headless.body.coins, game.body.coins);
    // The run so far plays back as a replay, and its one input is the headless run's: the
    // autopilot, at the first step (an autopilot switched on a step late ends in the same world
    // but not in the same replay).
    let so_far = run(&app).replay(0);
    assert_eq!(verify_replay(&so_far), Ok(so_far.result.clone()));
    assert_eq!(
        so_far.run.inputs::<RunnerKind>(),
        Ok(vec![replay::Timed {
            tick: 0,
            input: RunnerInput::Autopilot(true)
        }])
    );
    // A key gives control back to the player.
    press(&mut app, KeyCode::ArrowLeft);
    assert!(!run(&app).sim.autopilot_on);
    assert!(run(&app).sim.assisted);
}

#[test]
fn p_shows_the_planned_route_for_the_next_segments() {
    let mut app = runner_app();
    assert!(run(&app).plan().is_none());
    press(&mut app, KeyCode::KeyP);
    assert!(run(&app).overlay_shown);
    let plan = run(&app)
        .plan()
        .expect("a route while the overlay is shown");
    assert_eq!(plan.steps.len(), PLAN_LOOKAHEAD);
    assert_eq!(plan.steps[0].index, run(&app).sim.track.next().index);
    press(&mut app, KeyCode::KeyP);
    assert!(!run(&app).overlay_shown);
}

#[test]
fn the_pause_menu_toggles_the_autopilot_and_pausing_stops_the_run() {
    let mut app = runner_app();
    press(&mut app, KeyCode::Escape);
    assert_eq!(state::<Menu>(&app), Menu::Pause);
    let distance = run(&app).sim.body.distance_m;
    run_frames(&mut app, 10);
    assert_eq!(run(&app).sim.body.distance_m, distance, "paused");
    app.world_mut()
        .write_message(MenuInput::Activated(temple_trails::game::runner::AUTOPILOT));
    run_frames(&mut app, 2);
    assert_eq!(state::<Menu>(&app), Menu::None);
    assert!(run(&app).autopilot_wanted());
    // It takes over at the next fixed step, like every input.
    run_frames(&mut app, 2);
    assert!(run(&app).sim.autopilot_on);
}

#[test]
fn retry_keeps_the_seed_and_new_run_changes_it() {
    let mut app = scripted_app((SegmentKind::Straight, [LaneContent::Block; 3]));
    pass_the_test_segment(&mut app);
    assert_eq!(state::<Menu>(&app), Menu::Results);
    let seed = app.world().resource::<GameSeed>().0;
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Restart));
    run_frames(&mut app, 3);
    assert_eq!(state::<Menu>(&app), Menu::None);
    assert_eq!(run(&app).sim.seed, seed);
    assert!(run(&app).sim.body.crash.is_none());
    assert!(!app.world().contains_resource::<RunnerResult>());

    let mut app = scripted_app((SegmentKind::Straight, [LaneContent::Low; 3]));
    pass_the_test_segment(&mut app);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::PlayAgainNewSeed));
    run_frames(&mut app, 3);
    assert_eq!(state::<Screen>(&app), runner::SCREEN);
    assert_ne!(run(&app).sim.seed, seed);
}

/// The sounds asked for in the last two frames (messages live that long).
fn recent_sounds(app: &App) -> Vec<Sound> {
    let messages = app.world().resource::<Messages<SoundRequested>>();
    messages
        .get_cursor()
        .read(messages)
        .map(|request| request.0)
        .collect()
}

#[test]
fn jumps_slides_and_lane_changes_sound_when_they_start() {
    let mut app = runner_app();
    for (key, sound) in [
        (KeyCode::ArrowUp, sounds::JUMP),
        (KeyCode::ArrowDown, sounds::SLIDE),
        (KeyCode::ArrowLeft, sounds::LANE_CHANGE),
    ] {
        run_frames(&mut app, 10);
        press(&mut app, key);
        assert!(recent_sounds(&app).contains(&sound), "{key:?}");
    }
}

/// A straight segment with `kind` in the middle lane.
fn power_up_in_the_middle(kind: PowerUp) -> Layout {
    let lanes = [
        LaneContent::Empty,
        LaneContent::PowerUp(kind),
        LaneContent::Empty,
    ];
    (SegmentKind::Straight, lanes)
}

#[test]
fn a_wall_ends_the_run_but_a_shield_absorbs_one() {
    let walls = (SegmentKind::Straight, [LaneContent::Block; 3]);
    let shield = power_up_in_the_middle(PowerUp::Shield);
    let mut app = scripted_app_from([OPEN, OPEN, shield, OPEN, walls, OPEN, walls]);
    run_until(&mut app, "the shield", |run| {
        run.sim.body.powerups.is_active(PowerUp::Shield)
    });
    run_until(&mut app, "the first wall to pass", |run| {
        run.sim.track.next().index > 4 || run.sim.body.crash.is_some()
    });
    assert_eq!(
        run(&app).sim.body.crash,
        None,
        "the shield absorbed the wall"
    );
    assert!(!run(&app).sim.body.powerups.is_active(PowerUp::Shield));
    run_frames(&mut app, 1);
    assert!(recent_sounds(&app).contains(&sounds::SHIELD_BREAK));
    run_until(&mut app, "the second wall", |run| {
        run.sim.body.crash.is_some()
    });
    run_frames(&mut app, 2);
    assert_eq!(state::<Menu>(&app), Menu::Results);
    let result = app.world().resource::<RunnerResult>();
    assert_eq!((result.crash, result.powerups), (Crash::Wall, 1));
}

#[test]
fn the_magnet_takes_coins_from_the_other_lanes() {
    let sides = (
        SegmentKind::Straight,
        [LaneContent::Coins, LaneContent::Empty, LaneContent::Coins],
    );
    let magnet = power_up_in_the_middle(PowerUp::Magnet);
    let mut app = scripted_app_from([OPEN, OPEN, OPEN, sides, OPEN, magnet, OPEN, sides]);
    run_until(&mut app, "segment 7 to pass", |run| {
        run.sim.track.next().index > 7
    });
    let body = &run(&app).sim.body;
    assert_eq!(body.crash, None);
    assert_eq!(
        body.coins, 2,
        "none from segment 3, both lines of segment 7"
    );
}

/// The score and the distance after a frame.
fn score_and_distance(app: &mut App) -> (f64, f64) {
    app.update();
    let body = &run(app).sim.body;
    (body.score() as f64, body.distance_m)
}

#[test]
fn the_multiplier_doubles_the_score_while_it_lasts_and_not_after() {
    let times_two = power_up_in_the_middle(PowerUp::Multiplier);
    let mut app = scripted_app_from([OPEN, OPEN, times_two]);
    // Points per metre over one second of frames.
    let rate = |app: &mut App| {
        let (score_before, metres_before) = score_and_distance(app);
        run_frames(app, 9);
        let (score_after, metres_after) = score_and_distance(app);
        (score_after - score_before) / (metres_after - metres_before)
    };
    let before = rate(&mut app);
    run_until(&mut app, "the multiplier", |run| {
        run.sim.body.powerups.is_active(PowerUp::Multiplier)
    });
    let during = rate(&mut app);
    run_until(&mut app, "the multiplier to end", |run| {
        !run.sim.body.powerups.is_active(PowerUp::Multiplier)
    });
    let after = rate(&mut app);
    assert!((before - 1.0).abs() < 0.1, "{before} points a metre before");
    assert!((during - 2.0).abs() < 0.1, "{during} points a metre during");
    assert!((after - 1.0).abs() < 0.1, "{after} points a metre after");
}

#[test]
fn a_finished_run_writes_its_replay_which_plays_back_to_the_same_result() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app(Some(home.path()));
    enter_runner(&mut app);
    // A jump and a lane change on the way, then the run goes on untouched until it ends.
    run_frames(&mut app, 5);
    press(&mut app, KeyCode::ArrowUp);
    run_frames(&mut app, 5);
    press(&mut app, KeyCode::ArrowLeft);
    run_until(&mut app, "the end of the run", |run| run.sim.is_over());
    run_frames(&mut app, 3);
    let result = app.world().resource::<RunnerResult>().clone();
    assert!(result.new_record);
    // On the board, and as the ghost of its seed.
    let board = home.path().join("replays").join("runner+normal");
    let seed = run(&app).sim.seed;
    // The ghost's file is named for its seed and its contents.
    let ghosts: Vec<_> = std::fs::read_dir(board.join("ghosts"))
        .expect("the ghosts' folder")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    assert_eq!(ghosts.len(), 1, "{ghosts:?}");
    let ghost_name = ghosts[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(ghost_name.starts_with(&format!("{seed}-")), "{ghost_name}");
    let text = std::fs::read_to_string(&ghosts[0]).expect("the record's replay is saved");
    let on_board = std::fs::read_dir(&board).unwrap().filter_map(Result::ok);
    let files: Vec<_> = on_board.filter(|e| e.path().is_file()).collect();
    assert_eq!(files.len(), 1);
    assert_eq!(std::fs::read_to_string(files[0].path()).unwrap(), text);
    let replay = replay::parse(&text).unwrap();
    let inputs = replay.run.inputs::<RunnerKind>().expect("a runner replay");
    assert_eq!(inputs.len(), 2, "{inputs:?}");
    let played = verify_replay(&replay).expect("it plays back");
    let outcome = played.outcome::<RunnerKind>().unwrap();
    assert_eq!(outcome.score, result.score);
}

#[test]
fn the_best_run_of_the_seed_runs_again_as_a_ghost_unless_ghosts_are_off() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app(Some(home.path()));
    enter_runner(&mut app);
    assert!(
        !app.world().contains_resource::<RunnerGhost>(),
        "no record yet"
    );
    press(&mut app, KeyCode::ArrowLeft);
    run_until(&mut app, "the end of the first run", |run| {
        run.sim.is_over()
    });
    let first = run(&app).sim.body.clone();
    let first_ticks = run(&app).sim.tick;
    run_frames(&mut app, 2);

    // Retry: the same seed, the first run beside it. The autopilot runs this one, so it outlasts
    // the ghost, which is then seen to its end.
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Restart));
    run_frames(&mut app, 3);
    press(&mut app, KeyCode::KeyO);
    assert!(run(&app).sim.autopilot_on);
    let ghost = |app: &App| app.world().resource::<RunnerGhost>().sim.clone();
    assert_eq!(
        ghost(&app).tick,
        run(&app).sim.tick,
        "in step with the player"
    );
    for _ in 0..PATIENCE {
        if ghost(&app).is_over() {
            break;
        }
        assert!(!run(&app).sim.is_over(), "the autopilot's run ended first");
        app.update();
        assert_eq!(
            ghost(&app).tick.min(first_ticks),
            run(&app).sim.tick.min(first_ticks)
        );
    }
    // The ghost ran the first run exactly: its lane change, its end, its step.
    assert!(ghost(&app).is_over());
    assert_eq!(ghost(&app).body, first);
    assert_eq!(ghost(&app).tick, first_ticks);

    // With ghosts off, no ghost.
    app.world_mut().resource_mut::<Settings>().ghosts = false;
    press(&mut app, KeyCode::Escape);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Restart));
    run_frames(&mut app, 3);
    assert_eq!(state::<Screen>(&app), runner::SCREEN);
    assert!(!app.world().contains_resource::<RunnerGhost>());
}
