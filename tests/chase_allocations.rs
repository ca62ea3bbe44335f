//! The chase view's painter allocates nothing once warm: a counting allocator (this test
//! binary's own) watches the listing and painting of thousands of frames along a long Hard run
//! on autopilot, after a warm-up, and sees at most the odd growth of a buffer for a frame busier
//! than any before it.

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::runner::chase::draw_list::{DrawList, Scene};
use temple_trails::logic::runner::chase::painter::{Canvas, paint};
use temple_trails::logic::runner::chase::state::ChaseState;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};
use temple_trails::logic::runner::timing::SIMULATION_STEP_S;
use temple_trails::logic::runner::view::world::RunnerWorld;

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Frames listed and painted to warm the buffers up, and frames watched after.
const WARM_FRAMES: usize = 3_000;
const WATCHED_FRAMES: usize = 12_000;

#[test]
fn a_warm_frame_of_the_chase_view_allocates_nothing() {
    let mut sim = RunnerSim::new(42, Difficulty::Hard);
    sim.apply(RunnerInput::Autopilot(true));
    let mut world = RunnerWorld::new(42);
    let state = ChaseState::default();
    let (mut list, mut canvas) = (DrawList::default(), Canvas::default());
    let mut painted = 0;
    let mut allocations = 0;
    for frame in 0..WARM_FRAMES + WATCHED_FRAMES {
        // The run and the world move on outside the watch: laying a segment works out its
        // parts once, which is allowed to allocate.
        sim.step([]);
        world.lay(sim.track.upcoming(), sim.body.distance_m);
        let scene = Scene {
            elapsed_s: (frame as f64 * SIMULATION_STEP_S) as f32,
            speed_lines: 1.0,
            ..Scene::of(&world, &state, &sim.body)
        };
        let region = Region::new(ALLOCATOR);
        list.build(&scene);
        paint(&list, &mut canvas);
        let stats = region.change();
        if frame >= WARM_FRAMES {
            allocations += stats.allocations + stats.reallocations;
            painted += canvas.indices.len() / 3;
        }
    }
    println!(
        "{WATCHED_FRAMES} warm frames, {painted} triangles, {allocations} allocations; the run \
         reached {:.0} m",
        sim.body.distance_m
    );
    assert!(sim.body.distance_m > 2_000.0);
    assert!(painted > WATCHED_FRAMES * 500, "frames were painted");
    assert!(
        allocations <= 8,
        "{allocations} allocations in {WATCHED_FRAMES} frames"
    );
}
