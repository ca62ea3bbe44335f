//! Runner benchmarks: track generation with certification (beside generation alone, to show
//! what certifying costs), one 50-segment plan beside the `pathfinding` crate's A* on the same
//! graph, and a 100 000-segment autopilot run.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::runner::autopilot::simulate_autopilot;
use temple_trails::logic::runner::planner::{MAX_PLAN_SEGMENTS, Planner};
use temple_trails::logic::runner::track::{
    CertifiedSegments, Certifier, Segment, TrackGenerator, certified_segments,
};
use temple_trails_benches::reference::pathfinding_lane_route_cost;

/// Segments made per measured batch.
const BATCH: u64 = 10_000;
/// Segments of the autopilot run.
const RUN_SEGMENTS: u64 = 100_000;

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("track segments (Hard)");
    group.throughput(Throughput::Elements(BATCH));
    group.bench_function("generate + certify", |b| {
        b.iter(|| {
            let mut generator = TrackGenerator::new(black_box(7), Difficulty::Hard);
            let mut certifier = Certifier::new(*generator.timing());
            for _ in 0..BATCH {
                let mut segment = generator.next_segment();
                certifier.certify(&mut segment);
                black_box(segment);
            }
            certifier.repairs()
        })
    });
    // What the game's track does: generate, certify and place power-ups.
    group.bench_function("generate + certify + power-ups", |b| {
        b.iter(|| {
            let mut segments = CertifiedSegments::new(black_box(7), Difficulty::Hard);
            for segment in segments.by_ref().take(BATCH as usize) {
                black_box(segment);
            }
            segments.repairs()
        })
    });
    group.bench_function("generate only", |b| {
        b.iter(|| {
            let mut generator = TrackGenerator::new(black_box(7), Difficulty::Hard);
            for _ in 0..BATCH {
                black_box(generator.next_segment());
            }
        })
    });
    group.finish();
}

/// A 50-segment window from deep in a Hard run, where the track is densest and fastest.
fn window() -> Vec<Segment> {
    let (segments, _) = certified_segments(11, Difficulty::Hard, 5_000);
    segments[4_000..4_000 + MAX_PLAN_SEGMENTS].to_vec()
}

fn planning(c: &mut Criterion) {
    let window = window();
    let timing = *TrackGenerator::new(11, Difficulty::Hard).timing();
    let mut planner = Planner::new();
    let ours = planner.plan(&timing, &window, 1, None).map(|p| p.cost);
    assert_eq!(ours, pathfinding_lane_route_cost(&timing, &window, 1));
    let mut group = c.benchmark_group("plan 50 segments");
    group.bench_function(BenchmarkId::new("temple-trails", "astar"), |b| {
        b.iter(|| {
            planner
                .plan(&timing, black_box(&window), 1, None)
                .map(|p| p.cost)
        })
    });
    group.bench_function(BenchmarkId::new("pathfinding", "astar"), |b| {
        b.iter(|| pathfinding_lane_route_cost(&timing, black_box(&window), 1))
    });
    group.finish();
}

fn autopilot(c: &mut Criterion) {
    let mut group = c.benchmark_group("autopilot run");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(RUN_SEGMENTS));
    group.bench_function("100000 segments (Hard)", |b| {
        b.iter(|| simulate_autopilot(black_box(3), Difficulty::Hard, RUN_SEGMENTS).crashes)
    });
    group.finish();
}

criterion_group!(benches, generation, planning, autopilot);
criterion_main!(benches);
