//! Wanderers benchmarks: one wander step of 100 000 NPCs (beside the bare Perlin noise it must
//! sample), one sandbox step of 100 000 NPCs keeping apart (beside the same step letting bodies
//! pass through each other, and on one core beside both), one step of 20 000 NPCs on stone with
//! routes repaired (beside routes planned from scratch), one visibility test (beside the
//! brute-force sweep the tests use as an oracle), and smoothing a 1000-node path with the paper's
//! binary search and with the exact scan.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noise::{NoiseFn, Perlin};
use std::hint::black_box;
use temple_trails::logic::grid_search::GridSearch;
use temple_trails::logic::wanderers::field::{Footprint, FootprintGraph, ObstacleField};
use temple_trails::logic::wanderers::sandbox::{
    FootprintMix, RouteUpkeep, Sandbox, SandboxConfig, StepRules, field_size_for,
};
use temple_trails::logic::wanderers::smoothing::{FarthestSearch, smooth, visible};
use temple_trails::logic::wanderers::wander::{WanderParams, Wanderers};
use temple_trails_benches::reference::sweep_is_clear;

/// NPCs in the wander step.
const CROWD: usize = 100_000;
/// Nodes of the smoothed path.
const PATH_NODES: usize = 1000;

fn wander_step(c: &mut Criterion) {
    let params = WanderParams::default();
    let side = (CROWD as f32 * 400.0).sqrt();
    let mut crowd = Wanderers::scattered(1, CROWD, side, side);
    let mut group = c.benchmark_group("wander step, 100000 NPCs");
    group.throughput(Throughput::Elements(CROWD as u64));
    group.bench_function("temple-trails step", |b| {
        b.iter(|| crowd.step(black_box(&params), 1.0 / 60.0))
    });
    let refresh_every_4 = WanderParams {
        refresh_every: 4,
        ..params
    };
    group.bench_function("temple-trails step, targets every 4th step", |b| {
        b.iter(|| crowd.step(black_box(&refresh_every_4), 1.0 / 60.0))
    });
    let noise = Perlin::new(1);
    group.bench_function("bare Perlin, 2 samples per NPC", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for i in 0..CROWD {
                let x = black_box(i as f64 * 0.37);
                sum += noise.get([x]) + noise.get([x + 0.5]);
            }
            sum
        })
    });
    group.finish();
}

/// Steps of 1/64 s a crowd walks before it is measured: bodies drawn on top of each other at
/// their homes have parted.
const SETTLE_STEPS: usize = 64;

fn crowd_step(c: &mut Criterion) {
    let params = WanderParams::default();
    let (width, height) = field_size_for(CROWD, FootprintMix::Small, 0.0);
    let mut crowd = Sandbox::new(SandboxConfig {
        seed: 1,
        count: CROWD,
        width,
        height,
        density: 0.0,
        footprints: FootprintMix::Small,
    });
    let keep_apart = StepRules::default();
    for _ in 0..SETTLE_STEPS {
        crowd.step(&params, 1.0 / 64.0, &keep_apart);
    }
    let pass_through = StepRules {
        avoid: false,
        ..keep_apart
    };
    let one_core = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread");
    let mut group = c.benchmark_group("sandbox step, 100000 NPCs, open plane");
    group.throughput(Throughput::Elements(CROWD as u64));
    group.sample_size(20);
    group.bench_function("keeping apart, every core", |b| {
        b.iter(|| crowd.step(black_box(&params), 1.0 / 64.0, &keep_apart))
    });
    group.bench_function("keeping apart, one core", |b| {
        b.iter(|| one_core.install(|| crowd.step(black_box(&params), 1.0 / 64.0, &keep_apart)))
    });
    group.bench_function("passing through, every core", |b| {
        b.iter(|| crowd.step(black_box(&params), 1.0 / 64.0, &pass_through))
    });
    group.finish();
}

/// NPCs of the crowd on stone.
const STONE_CROWD: usize = 20_000;
/// Its share of stone.
const STONE_DENSITY: f64 = 0.4;

/// One step of 20 000 small NPCs on 40 % stone keeping apart, with routes repaired as targets
/// move beside routes planned again from scratch, each from the same settled crowd.
fn stone_crowd_step(c: &mut Criterion) {
    let params = WanderParams::default();
    let (width, height) = field_size_for(STONE_CROWD, FootprintMix::Small, STONE_DENSITY);
    let mut settled = Sandbox::new(SandboxConfig {
        seed: 42,
        count: STONE_CROWD,
        width,
        height,
        density: STONE_DENSITY,
        footprints: FootprintMix::Small,
    });
    // Two simulated seconds: past the first wave of plans every crowd starts with.
    for _ in 0..2 * SETTLE_STEPS {
        settled.step(&params, 1.0 / 64.0, &StepRules::default());
    }
    let mut group = c.benchmark_group("sandbox step, 20000 NPCs, 40% stone");
    group.throughput(Throughput::Elements(STONE_CROWD as u64));
    group.sample_size(20);
    for routes in RouteUpkeep::ALL {
        let rules = StepRules {
            routes,
            ..StepRules::default()
        };
        let mut crowd = settled.clone();
        group.bench_function(format!("routes: {}", routes.name()), |b| {
            b.iter(|| crowd.step(black_box(&params), 1.0 / 64.0, &rules))
        });
        let stats = crowd.stats;
        println!(
            "routes {}: {} planned, {} repaired in {:.1} s simulated",
            routes.name(),
            stats.routes,
            stats.repairs,
            stats.seconds
        );
    }
    group.finish();
}

/// A 200 x 150 field, 25 % stone, from seed 3.
fn field() -> ObstacleField {
    ObstacleField::from_noise(3, 200, 150, 0.25)
}

fn visibility(c: &mut Criterion) {
    let field = field();
    let agent = Footprint::new(2, 2).unwrap();
    let fitting: Vec<usize> = (0..200 * 150).filter(|&c| field.fits(agent, c)).collect();
    // A long diagonal hop the agent can make, found by walking the fitting cells.
    let (a, b) = fitting
        .iter()
        .flat_map(|&a| fitting.iter().rev().take(400).map(move |&b| (a, b)))
        .find(|&(a, b)| {
            let (ax, ay) = field.coords(a);
            let (bx, by) = field.coords(b);
            ax.abs_diff(bx) >= 20 && ay.abs_diff(by) >= 10 && visible(&field, agent, a, b)
        })
        .expect("a long clear hop");
    let mut group = c.benchmark_group("visible(), 2x2 agent, long diagonal hop");
    group.bench_function(BenchmarkId::new("temple-trails", "swept band"), |bench| {
        bench.iter(|| visible(black_box(&field), agent, a, b))
    });
    group.bench_function(BenchmarkId::new("brute force", "sampled sweep"), |bench| {
        bench.iter(|| sweep_is_clear(black_box(&field), agent, a, b))
    });
    group.finish();
}

fn smoothing(c: &mut Criterion) {
    let (width, height) = (900, 600);
    let field = ObstacleField::from_noise(5, width, height, 0.25);
    let agent = Footprint::new(2, 2).unwrap();
    let graph = FootprintGraph {
        field: &field,
        footprint: agent,
    };
    let fitting: Vec<usize> = (0..width * height)
        .filter(|&c| field.fits(agent, c))
        .collect();
    let mut search = GridSearch::new();
    // From the top-left corner to cells near the bottom-right one: well over 1000 nodes.
    let path = fitting
        .iter()
        .rev()
        .step_by(97)
        .find_map(|&goal| {
            let path = search.astar(&graph, fitting[0], goal).path?;
            (path.len() >= PATH_NODES).then(|| path[..PATH_NODES].to_vec())
        })
        .expect("a path of 1000 nodes");
    let (start, goal) = (path[0], path[PATH_NODES - 1]);
    let mut group = c.benchmark_group("smooth a 1000-node path, 2x2 agent");
    for method in FarthestSearch::ALL {
        let kept = smooth(&field, agent, &path, start, goal, method).unwrap();
        println!(
            "{}: {} -> {} nodes, {} -> {} turns, {} visibility tests",
            method.name(),
            kept.raw_nodes,
            kept.waypoints.len(),
            kept.raw_turns,
            kept.smoothed_turns,
            kept.visibility_tests
        );
        group.bench_function(method.name(), |b| {
            b.iter(|| smooth(black_box(&field), agent, &path, start, goal, method).unwrap())
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    wander_step,
    crowd_step,
    stone_crowd_step,
    visibility,
    smoothing
);
criterion_main!(benches);
