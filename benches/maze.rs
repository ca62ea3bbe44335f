//! Maze benchmarks, each beside its peer in the same run: generation against knossos'
//! recursive backtracker, and A* against the `pathfinding` crate's A* and our own BFS.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use knossos::maze::{OrthogonalMazeBuilder, RecursiveBacktracking};
use std::hint::black_box;
use std::time::Duration;
use temple_trails::logic::grid_search::GridSearch;
use temple_trails::logic::maze::{Algorithm, MazeSpec};
use temple_trails_benches::reference::pathfinding_astar_steps;

/// The largest maze players can make.
const SIDE: usize = 1000;
/// knossos' backtracker recurses once per cell of its current path, up to a million deep on a
/// 1000 x 1000 maze, so it runs on a thread with a stack that can hold that.
const KNOSSOS_STACK_BYTES: usize = 4 << 30;

fn spec(side: usize, braid: f64) -> MazeSpec {
    MazeSpec {
        width: side,
        height: side,
        algorithm: Algorithm::Backtracker,
        braid,
        seed: 2024,
    }
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate backtracker 1000x1000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("temple-trails", |b| {
        b.iter(|| spec(SIDE, 0.0).generate().unwrap())
    });
    group.bench_function("knossos", |b| {
        b.iter(|| {
            std::thread::Builder::new()
                .stack_size(KNOSSOS_STACK_BYTES)
                .spawn(|| {
                    OrthogonalMazeBuilder::new()
                        .width(SIDE)
                        .height(SIDE)
                        .seed(Some(2024))
                        .algorithm(Box::new(RecursiveBacktracking))
                        .build()
                })
                .unwrap()
                .join()
                .unwrap()
        })
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    for (name, braid) in [("perfect", 0.0), ("braid 0.1", 0.1)] {
        let maze = spec(SIDE, braid).generate().unwrap();
        let mut group = c.benchmark_group(format!("solve 1000x1000 {name}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(10));
        let mut buffers = GridSearch::new();
        group.bench_function(BenchmarkId::new("temple-trails", "astar"), |b| {
            b.iter(|| {
                buffers
                    .astar(black_box(&maze), maze.start(), maze.goal())
                    .expanded
            })
        });
        group.bench_function(BenchmarkId::new("temple-trails", "bfs"), |b| {
            b.iter(|| {
                buffers
                    .bfs(black_box(&maze), maze.start(), maze.goal())
                    .expanded
            })
        });
        group.bench_function(BenchmarkId::new("pathfinding", "astar"), |b| {
            b.iter(|| pathfinding_astar_steps(black_box(&maze), maze.start(), maze.goal()))
        });
        group.finish();
    }
}

fn hint(c: &mut Criterion) {
    let maze = spec(201, 0.0).generate().unwrap();
    let mut buffers = GridSearch::new();
    c.bench_function("hint 201x201 (astar start to exit)", |b| {
        b.iter(|| {
            buffers
                .astar(black_box(&maze), maze.start(), maze.goal())
                .expanded
        })
    });
}

criterion_group!(benches, generation, search, hint);
criterion_main!(benches);
