//! Benchmarks of seed handling: deriving a feature's random stream, against plain ChaCha8
//! seeding as the baseline, and hashing seed words.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use temple_trails::logic::seed::{Stream, fnv1a_64, parse_seed, stream_rng};
use temple_trails::logic::title_field::title_tiles;

fn stream_derivation(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream_rng");
    group.bench_function("ours: seed + set_stream + first word", |b| {
        b.iter(|| stream_rng(black_box(42), Stream::Maze).next_u64())
    });
    group.bench_function("baseline: ChaCha8Rng::seed_from_u64 + first word", |b| {
        b.iter(|| ChaCha8Rng::seed_from_u64(black_box(42)).next_u64())
    });
    group.finish();
}

fn seed_words(c: &mut Criterion) {
    let mut group = c.benchmark_group("seed_text");
    group.bench_function("parse_seed(word)", |b| {
        b.iter(|| parse_seed(black_box("the lost temple of the golden sun")))
    });
    group.bench_function("fnv1a_64(word)", |b| {
        b.iter(|| fnv1a_64(black_box(b"the lost temple of the golden sun")))
    });
    group.finish();
}

fn title_field(c: &mut Criterion) {
    c.bench_function("title_tiles 32x32", |b| {
        b.iter(|| title_tiles(black_box(7), 32, 32))
    });
}

criterion_group!(benches, stream_derivation, seed_words, title_field);
criterion_main!(benches);
