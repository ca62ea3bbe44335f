//! Helpers of the runner's headless App tests: entering the runner, a track scripted segment by
//! segment, waiting for the run, and pressing a key when the test segment is due.

use super::{headless_app, press, run_frames, set_runner_guidance, state};
use bevy::prelude::*;
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::runner::{self, RunnerRun};
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::game::settings::GameSeed;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::runner::track::{LaneContent, Layout, SegmentKind, Track};

/// Most frames any test waits for something (a minute of game time).
pub const PATIENCE: usize = 600;
/// The segment at which the scripted tests put their obstacle or junction.
pub const TEST_SEGMENT: u64 = 3;

/// Plays the runner from the title screen, unguided, and waits until it runs. The first-run
/// guide waits for the player at everything new: tests of the rules play as a player who has
/// turned it off, and the guide's own tests use [`play_runner`].
pub fn enter_runner(app: &mut App) {
    set_runner_guidance(app, false);
    play_runner(app);
}

/// Plays the runner from the title screen with the guidance as it is, and waits until it runs.
pub fn play_runner(app: &mut App) {
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(runner::SCREEN)));
    run_frames(app, 2);
    assert_eq!(state::<Screen>(app), runner::SCREEN);
    assert_eq!(state::<Menu>(app), Menu::None);
}

/// A headless app running the runner.
pub fn runner_app() -> App {
    let mut app = headless_app(None);
    enter_runner(&mut app);
    app
}

/// An open straight segment.
pub const OPEN: Layout = (SegmentKind::Straight, [LaneContent::Empty; 3]);

/// A runner app whose track is three empty segments, then `layout`, then empty track.
pub fn scripted_app(layout: Layout) -> App {
    scripted_app_from([OPEN, OPEN, OPEN, layout])
}

/// A runner app whose track is `layouts` from the start, then empty track.
pub fn scripted_app_from(layouts: impl IntoIterator<Item = Layout>) -> App {
    let mut app = runner_app();
    let track = Track::scripted(Difficulty::Normal, layouts);
    let seed = app.world().resource::<GameSeed>().0;
    app.world_mut()
        .insert_resource(RunnerRun::new(seed, Difficulty::Normal, track, false));
    app
}

/// The run being played.
pub fn run(app: &App) -> &RunnerRun {
    app.world().resource::<RunnerRun>()
}

/// Runs frames until `done` holds; fails after [`PATIENCE`] frames.
pub fn run_until(app: &mut App, what: &str, done: impl Fn(&RunnerRun) -> bool) {
    for _ in 0..PATIENCE {
        if done(run(app)) {
            return;
        }
        app.update();
    }
    panic!("waited too long for {what}");
}

/// Seconds to the test segment's contact point, while it is still ahead.
pub fn seconds_to_test_segment(run: &RunnerRun) -> Option<f64> {
    (run.sim.track.next().index == TEST_SEGMENT)
        .then(|| run.sim.body.time_to_contact_s(&run.sim.track))
}

/// Waits until the test segment is between `earliest` and `latest` seconds away, then presses.
/// A key pressed now acts one frame (0.1 s) later, at the next fixed step after the frame that
/// reads it.
pub fn press_when_due(app: &mut App, key: KeyCode, latest: f64, earliest: f64) {
    run_until(app, "the moment to press", |run| {
        seconds_to_test_segment(run).is_some_and(|s| s <= latest && s > earliest)
    });
    press(app, key);
}

/// Runs until the runner is past the test segment (or has crashed).
pub fn pass_the_test_segment(app: &mut App) {
    run_until(app, "the test segment to pass", |run| {
        run.sim.track.next().index > TEST_SEGMENT || run.sim.body.crash.is_some()
    });
    run_frames(app, 2);
}
