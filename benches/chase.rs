//! The chase view's painter alone: listing one frame of a Hard run on autopilot and painting it
//! into triangles, at the start of the run and far along it (its cost must not grow with the
//! distance run), and the two halves apart (listing, painting) to show where a frame's time
//! goes.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::runner::chase::draw_list::{DrawList, Scene};
use temple_trails::logic::runner::chase::painter::{Canvas, paint};
use temple_trails::logic::runner::chase::state::ChaseState;
use temple_trails::logic::runner::run::{RunnerInput, RunnerSim};
use temple_trails::logic::runner::view::world::RunnerWorld;

/// The distances along the run at which a frame is measured, in metres.
const DISTANCES_M: [f64; 3] = [200.0, 20_000.0, 200_000.0];

/// A Hard run on autopilot run on to `distance_m`, and its world laid there.
fn run_to(distance_m: f64) -> (RunnerSim, RunnerWorld) {
    let mut sim = RunnerSim::new(42, Difficulty::Hard);
    sim.apply(RunnerInput::Autopilot(true));
    while sim.body.distance_m < distance_m {
        sim.step([]);
    }
    let mut world = RunnerWorld::new(42);
    world.lay(sim.track.upcoming(), sim.body.distance_m);
    (sim, world)
}

fn frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("chase frame (Hard, autopilot)");
    for distance_m in DISTANCES_M {
        let (sim, world) = run_to(distance_m);
        let state = ChaseState::default();
        let scene = Scene {
            elapsed_s: 10.0,
            speed_lines: 1.0,
            ..Scene::of(&world, &state, &sim.body)
        };
        let (mut list, mut canvas) = (DrawList::default(), Canvas::default());
        let km = format!("{:.1} km", distance_m / 1000.0);
        group.bench_with_input(BenchmarkId::new("list + paint", &km), &scene, |b, scene| {
            b.iter(|| {
                list.build(black_box(scene));
                paint(&list, &mut canvas);
                canvas.indices.len()
            })
        });
        group.bench_with_input(BenchmarkId::new("list", &km), &scene, |b, scene| {
            b.iter(|| {
                list.build(black_box(scene));
                list.uprights.len()
            })
        });
        list.build(&scene);
        group.bench_with_input(BenchmarkId::new("paint", &km), &list, |b, list| {
            b.iter(|| {
                paint(black_box(list), &mut canvas);
                canvas.indices.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
