//! Keeping a crowd apart: bodies as rectangles, a spatial grid of them rebuilt each step, the
//! pushes that separate bodies that touch, and how much bodies overlap.
//!
//! Separation is a position correction (as in position-based dynamics): each body is pushed out
//! of every neighbour it overlaps, half the overlap each, along the axis where the overlap is
//! smallest. Every push is computed from the same snapshot of positions, so the pushes are
//! independent per NPC and can be computed in parallel with the same result.

use super::field::Footprint;
use rayon::prelude::*;

/// A pair of bodies overlaps when they share more than this share of the smaller one's area.
pub const OVERLAP_TOLERANCE: f32 = 0.05;
/// The most a body is pushed along each axis in one pass, in cells: a crowded body moves away
/// over several steps instead of jumping.
pub const MAX_PUSH: f32 = 0.25;

/// A body on the field: the rectangle its footprint covers, in cell units (x right, y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// The rectangle's middle.
    pub centre: [f32; 2],
    /// Half its size along x and y.
    pub half: [f32; 2],
}

impl Body {
    /// The body of `footprint` for an NPC at `position` (the centre of its centre cell when it
    /// stands on one): an even side reaches further right or down (see [`Footprint::extents`]).
    pub fn new(footprint: Footprint, position: [f32; 2]) -> Body {
        let [left, top, right, bottom] = footprint.extents().map(f32::from);
        Body {
            centre: [
                position[0] + (right - left) / 2.0,
                position[1] + (bottom - top) / 2.0,
            ],
            half: [
                footprint.length() as f32 / 2.0,
                footprint.width() as f32 / 2.0,
            ],
        }
    }

    /// The top-left corner.
    pub fn min(&self) -> [f32; 2] {
        [self.centre[0] - self.half[0], self.centre[1] - self.half[1]]
    }

    /// The bottom-right corner.
    pub fn max(&self) -> [f32; 2] {
        [self.centre[0] + self.half[0], self.centre[1] + self.half[1]]
    }

    /// Its area, in square cells.
    pub fn area(&self) -> f32 {
        4.0 * self.half[0] * self.half[1]
    }

    /// How deep the two bodies overlap along x and along y, when they overlap at all.
    pub fn penetration(&self, other: &Body) -> Option<[f32; 2]> {
        let depth = |axis: usize| {
            self.half[axis] + other.half[axis] - (self.centre[axis] - other.centre[axis]).abs()
        };
        let (x, y) = (depth(0), depth(1));
        (x > 0.0 && y > 0.0).then_some([x, y])
    }

    /// The area the two bodies share.
    pub fn shared_area(&self, other: &Body) -> f32 {
        self.penetration(other).map_or(0.0, |[x, y]| {
            x.min(2.0 * self.half[0]).min(2.0 * other.half[0])
                * y.min(2.0 * self.half[1]).min(2.0 * other.half[1])
        })
    }
}

/// Bodies sorted into square buckets, so each finds its neighbours without looking at everyone:
/// a counting sort, in NPC order within a bucket. The grid keeps its own copy of the bodies in
/// bucket order, so the neighbours of a body lie in three runs of memory (one per row of
/// buckets) rather than scattered over the whole crowd. Bodies may be moved a little after the
/// sort ([`SpatialGrid::bodies_mut`]): buckets are made wide enough for the drift allowed at the
/// build.
#[derive(Debug, Clone, Default)]
pub struct SpatialGrid {
    /// Side of a bucket, in cells: the longest side of any body plus the drift allowed, so bodies
    /// that overlap are always in the same or neighbouring buckets of where they were sorted, and
    /// a crowd of small bodies has small buckets.
    side: f32,
    columns: usize,
    rows: usize,
    /// Where each bucket's members begin in `members`; one more entry than buckets.
    starts: Vec<u32>,
    /// NPC indices, bucket by bucket.
    members: Vec<u32>,
    /// The bodies, in the order of `members`.
    sorted: Vec<Body>,
    /// Each NPC's slot in `members`.
    slot_of: Vec<u32>,
    /// Per worker of a build, its bodies per bucket, then the next slot it fills in each.
    run_counts: Vec<Vec<u32>>,
    /// Each body's bucket, kept between the stages of a build.
    bucket_of: Vec<u32>,
}

impl SpatialGrid {
    /// Sorts `bodies` on a field of `width` x `height` cells into buckets, ready for each body to
    /// be moved up to `drift` cells along each axis before the next build. The sort runs on
    /// every core: each worker counts and places one run of NPCs, so the order within a bucket
    /// is still NPC order.
    pub fn build(&mut self, bodies: &[Body], width: usize, height: usize, drift: f32) {
        let longest_side = bodies
            .par_iter()
            .map(|body| 2.0 * body.half[0].max(body.half[1]))
            .reduce(|| 1.0, f32::max);
        self.side = longest_side + drift.max(0.0);
        self.columns = (width as f32 / self.side).ceil().max(1.0) as usize;
        self.rows = (height as f32 / self.side).ceil().max(1.0) as usize;
        let buckets = self.columns * self.rows;
        let (side, columns, rows) = (self.side, self.columns, self.rows);
        self.bucket_of.clear();
        self.bucket_of.par_extend(
            bodies
                .par_iter()
                .map(|body| bucket_at(body.centre, side, columns, rows) as u32),
        );
        let run = bodies.len().div_ceil(rayon::current_num_threads()).max(1);
        let runs = bodies.len().div_ceil(run);
        self.run_counts.resize_with(runs, Vec::new);
        self.run_counts.truncate(runs);
        self.run_counts
            .par_iter_mut()
            .zip(self.bucket_of.par_chunks(run))
            .for_each(|(counts, part)| {
                counts.clear();
                counts.resize(buckets, 0);
                for &bucket in part {
                    counts[bucket as usize] += 1;
                }
            });
        // Each run's count becomes the first slot it fills in that bucket.
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        let mut next = 0;
        for bucket in 0..buckets {
            self.starts[bucket] = next;
            for counts in &mut self.run_counts {
                let count = counts[bucket];
                counts[bucket] = next;
                next += count;
            }
        }
        self.starts[buckets] = next;
        self.slot_of.resize(bodies.len(), 0);
        self.slot_of
            .par_chunks_mut(run)
            .zip(self.bucket_of.par_chunks(run))
            .zip(self.run_counts.par_iter_mut())
            .for_each(|((slots, part), free)| {
                for (slot, &bucket) in slots.iter_mut().zip(part) {
                    *slot = free[bucket as usize];
                    free[bucket as usize] += 1;
                }
            });
        self.members.resize(bodies.len(), 0);
        for (i, &slot) in self.slot_of.iter().enumerate() {
            self.members[slot as usize] = i as u32;
        }
        self.sorted.clear();
        self.sorted
            .par_extend(self.members.par_iter().map(|&i| bodies[i as usize]));
    }

    /// Bodies in the grid.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the grid holds no body.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The NPC in `slot` of the bucket order (0 to [`Self::len`]) and its body: walking the
    /// crowd in this order visits neighbours one after another.
    pub fn slot(&self, slot: usize) -> (usize, Body) {
        (self.members[slot] as usize, self.sorted[slot])
    }

    /// Where NPC `npc` was sorted: the inverse of [`Self::slot`].
    pub fn slot_of(&self, npc: usize) -> usize {
        self.slot_of[npc] as usize
    }

    /// The bodies in slot order, to be moved: each must stay within the drift allowed at the
    /// build (along each axis) of where it was sorted, so its neighbours are still found without
    /// sorting the crowd again.
    pub fn bodies_mut(&mut self) -> &mut [Body] {
        &mut self.sorted
    }

    fn cell(&self, centre: [f32; 2]) -> (usize, usize) {
        cell_at(centre, self.side, self.columns, self.rows)
    }

    /// Calls `visit` with the slot of every body that may overlap `body` (itself included) and
    /// that body, in slot order (buckets row by row, NPC order within one). Only the bodies are
    /// read, not who they are: a neighbour's NPC is [`Self::slot`] away.
    pub fn for_each_near(&self, body: &Body, mut visit: impl FnMut(usize, &Body)) {
        self.for_each_run_near(body, |run| {
            for (slot, other) in run.clone().zip(&self.sorted[run]) {
                visit(slot, other);
            }
        });
    }

    /// Calls `visit` with the runs of slots (one per row of buckets) that may hold a body
    /// overlapping `body`.
    fn for_each_run_near(&self, body: &Body, mut visit: impl FnMut(std::ops::Range<usize>)) {
        let (x, y) = self.cell(body.centre);
        let (left, right) = (x.saturating_sub(1), (x + 1).min(self.columns - 1));
        for by in y.saturating_sub(1)..=(y + 1).min(self.rows - 1) {
            // The three buckets of a row are neighbours in the sorted order too.
            let row = by * self.columns;
            visit(self.starts[row + left] as usize..self.starts[row + right + 1] as usize);
        }
    }
}

/// The bucket column and row of a body centred at `centre`, in a grid of `columns` x `rows`
/// buckets of `side` cells (clamped into the grid).
fn cell_at(centre: [f32; 2], side: f32, columns: usize, rows: usize) -> (usize, usize) {
    let along = |v: f32, count: usize| ((v / side).max(0.0) as usize).min(count - 1);
    (along(centre[0], columns), along(centre[1], rows))
}

/// The bucket of a body centred at `centre` (see [`cell_at`]), numbered row by row.
fn bucket_at(centre: [f32; 2], side: f32, columns: usize, rows: usize) -> usize {
    let (x, y) = cell_at(centre, side, columns, rows);
    y * columns + x
}

/// Along which axis a body is pushed out of a neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushAxis {
    /// Where the overlap is smallest: the shortest way out.
    Shallow,
    /// The other axis: the way out when stone blocks the shortest one (two bodies side by side
    /// in a corridor part along it).
    Deep,
}

/// The push that moves the body in grid `slot` out of the neighbours it overlaps: half of each
/// overlap (the neighbour takes the other half) along the chosen axis, away from the neighbour
/// (bodies at the very same place part by their order in the grid), at most [`MAX_PUSH`] per
/// axis. Along the deep axis the push is half the shallow overlap, not half the deep one. `None` when it overlaps no one (pushes from both sides
/// may also add up to nothing).
pub fn separation_push(grid: &SpatialGrid, slot: usize, along: PushAxis) -> Option<[f32; 2]> {
    separation_push_noting(grid, slot, along, |_, _| {})
}

/// [`separation_push`], also calling `overlapping(near, share)` for each neighbour the body
/// overlaps, in slot order, with `share`: what this body adds to that neighbour's own push (the
/// part of its own push that neighbour gave, reversed). The neighbour's push is the sum of the
/// shares of all it overlaps, in slot order, clamped: exactly what its own call would give.
pub fn separation_push_noting(
    grid: &SpatialGrid,
    slot: usize,
    along: PushAxis,
    mut overlapping: impl FnMut(usize, [f32; 2]),
) -> Option<[f32; 2]> {
    let me = grid.sorted[slot];
    let mut push = [0.0f32; 2];
    let mut touches = false;
    grid.for_each_near(&me, |near, other| {
        if near == slot {
            return;
        }
        let Some([x, y]) = me.penetration(other) else {
            return;
        };
        touches = true;
        let shallow = usize::from(y < x);
        let axis = match along {
            PushAxis::Shallow => shallow,
            PushAxis::Deep => 1 - shallow,
        };
        let apart = me.centre[axis] - other.centre[axis];
        let away = if apart > 0.0 || (apart == 0.0 && slot > near) {
            1.0
        } else {
            -1.0
        };
        // Half the overlap along the shallow axis; along the deep one, no more than half the
        // shallow overlap: a body that only grazes another, pressed against stone, sidesteps by
        // the graze rather than jumping half the other's length into whoever stands beyond.
        let part = away * [x, y][shallow] / 2.0;
        push[axis] += part;
        // The neighbour finds the same overlap, the other way round: its part is this one
        // negated, which is exact in floating point.
        let mut share = [0.0; 2];
        share[axis] = -part;
        overlapping(near, share);
    });
    touches.then(|| push.map(|p| p.clamp(-MAX_PUSH, MAX_PUSH)))
}

/// How much a crowd's bodies overlap.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overlaps {
    /// Pairs sharing more than [`OVERLAP_TOLERANCE`] of the smaller body's area.
    pub pairs: usize,
    /// The largest share of any body's area covered by others (0 to 1).
    pub max_covered_fraction: f32,
}

/// Measures the overlaps of the bodies sorted into `grid`.
pub fn measure_overlaps(grid: &SpatialGrid) -> Overlaps {
    let mut overlaps = Overlaps::default();
    for slot in 0..grid.len() {
        let me = grid.sorted[slot];
        let mut covered = 0.0f32;
        grid.for_each_near(&me, |near, other| {
            if near == slot {
                return;
            }
            let shared = me.shared_area(other);
            covered += shared;
            // Each pair counted once, from its first slot.
            if near > slot && shared > OVERLAP_TOLERANCE * me.area().min(other.area()) {
                overlaps.pairs += 1;
            }
        });
        overlaps.max_covered_fraction = overlaps
            .max_covered_fraction
            .max((covered / me.area()).min(1.0));
    }
    overlaps
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn footprint(length: usize, width: usize) -> Footprint {
        Footprint::new(length, width).unwrap()
    }

    #[test]
    fn a_body_covers_its_footprint_cells() {
        // A 2x2 body at the centre of cell (3, 5) covers cells 3..=4 and 5..=6.
        let body = Body::new(footprint(2, 2), [3.5, 5.5]);
        assert_eq!(body.min(), [3.0, 5.0]);
        assert_eq!(body.max(), [5.0, 7.0]);
        assert_eq!(body.area(), 4.0);
        let point = Body::new(Footprint::POINT, [0.5, 0.5]);
        assert_eq!((point.min(), point.max()), ([0.0, 0.0], [1.0, 1.0]));
    }

    #[test]
    fn shared_area_and_penetration_agree_with_the_rectangles() {
        let a = Body::new(footprint(2, 1), [1.5, 0.5]); // x 1..3, y 0..1
        let b = Body::new(footprint(1, 1), [2.8, 0.9]); // x 2.3..3.3, y 0.4..1.4
        assert!((a.shared_area(&b) - 0.7 * 0.6).abs() < 1e-5);
        assert_eq!(a.shared_area(&b), b.shared_area(&a));
        let apart = Body::new(Footprint::POINT, [3.5, 0.5]);
        assert_eq!(a.penetration(&apart), None, "touching edges do not overlap");
        // A small body inside a large one shares all of its own area.
        let big = Body::new(footprint(3, 3), [5.5, 5.5]);
        let inside = Body::new(Footprint::POINT, [5.5, 5.5]);
        assert_eq!(big.shared_area(&inside), 1.0);
    }

    /// Every pair, by brute force: the grid must find each overlapping neighbour, for crowds of
    /// small and of large bodies, sorted where they stand or moved after the sort as far as the
    /// build allowed.
    #[test]
    fn the_grid_finds_every_overlapping_neighbour() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (longest_side, drift) in [(2, 0.0), (4, 0.0), (2, 0.75), (4, 0.75)] {
            let mut bodies: Vec<Body> = (0..400)
                .map(|_| {
                    let f = footprint(
                        rng.random_range(1..=longest_side),
                        rng.random_range(1..=longest_side),
                    );
                    Body::new(
                        f,
                        [rng.random_range(0.0..60.0), rng.random_range(0.0..40.0)],
                    )
                })
                .collect();
            let mut grid = SpatialGrid::default();
            grid.build(&bodies, 60, 40, drift);
            for slot in 0..grid.len() {
                let (i, body) = grid.slot(slot);
                // Every body as far as it may go, in a random direction along each axis.
                let sign = |rng: &mut ChaCha8Rng| if rng.random() { drift } else { -drift };
                bodies[i].centre = [
                    body.centre[0] + sign(&mut rng),
                    body.centre[1] + sign(&mut rng),
                ];
                grid.bodies_mut()[slot] = bodies[i];
            }
            for (i, me) in bodies.iter().enumerate() {
                let mut near = Vec::new();
                grid.for_each_near(me, |slot, body| {
                    let j = grid.slot(slot).0;
                    assert_eq!(*body, bodies[j], "the grid hands out NPC {j}'s own body");
                    near.push(j);
                });
                for (j, other) in bodies.iter().enumerate() {
                    if me.penetration(other).is_some() {
                        assert!(
                            near.contains(&j),
                            "sides to {longest_side}, drift {drift}: {i} and {j} overlap but were \
                             not found"
                        );
                    }
                }
            }
            let measured = measure_overlaps(&grid);
            let pairs = (0..bodies.len())
                .flat_map(|i| (i + 1..bodies.len()).map(move |j| (i, j)))
                .filter(|&(i, j)| {
                    let shared = bodies[i].shared_area(&bodies[j]);
                    shared > OVERLAP_TOLERANCE * bodies[i].area().min(bodies[j].area())
                })
                .count();
            assert_eq!(measured.pairs, pairs);
            assert!(measured.pairs > 0 && measured.max_covered_fraction > 0.0);
        }
    }

    /// The grid sorts by bucket, then NPC, whatever the number of workers that built it.
    #[test]
    fn the_sort_is_by_bucket_then_npc_on_any_number_of_workers() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let bodies: Vec<Body> = (0..5_000)
            .map(|_| {
                let f = footprint(rng.random_range(1..=3), rng.random_range(1..=3));
                Body::new(
                    f,
                    [rng.random_range(0.0..90.0), rng.random_range(0.0..50.0)],
                )
            })
            .collect();
        let build_on = |workers: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(workers)
                .build()
                .unwrap();
            let mut grid = SpatialGrid::default();
            pool.install(|| grid.build(&bodies, 90, 50, 0.5));
            grid
        };
        let one = build_on(1);
        let key = |grid: &SpatialGrid, slot: usize| {
            let (npc, body) = grid.slot(slot);
            (grid.cell(body.centre).1, grid.cell(body.centre).0, npc)
        };
        for slot in 1..one.len() {
            assert!(
                key(&one, slot - 1) < key(&one, slot),
                "slot {slot} out of order"
            );
        }
        for slot in 0..one.len() {
            assert_eq!(one.slot_of(one.slot(slot).0), slot, "slot {slot}");
        }
        for workers in [2, 3, 7] {
            let many = build_on(workers);
            assert_eq!(many.members, one.members, "{workers} workers");
            assert_eq!(many.starts, one.starts, "{workers} workers");
            assert_eq!(many.sorted, one.sorted, "{workers} workers");
        }
    }

    /// The push of NPC `npc`, wherever the grid sorted it.
    fn push_of(grid: &SpatialGrid, npc: usize, along: PushAxis) -> [f32; 2] {
        let slot = (0..grid.len()).find(|&k| grid.slot(k).0 == npc).unwrap();
        separation_push(grid, slot, along).expect("it touches a neighbour")
    }

    #[test]
    fn two_overlapping_bodies_are_pushed_apart_by_half_each() {
        let bodies = [
            Body::new(Footprint::POINT, [5.0, 5.0]),
            Body::new(Footprint::POINT, [5.6, 5.1]),
        ];
        let mut grid = SpatialGrid::default();
        grid.build(&bodies, 20, 20, 0.0);
        // They overlap 0.4 along x and 0.9 along y: they part along x, 0.2 each.
        let left = push_of(&grid, 0, PushAxis::Shallow);
        let right = push_of(&grid, 1, PushAxis::Shallow);
        assert!((left[0] + 0.2).abs() < 1e-5 && left[1] == 0.0, "{left:?}");
        assert!(
            (right[0] - 0.2).abs() < 1e-5 && right[1] == 0.0,
            "{right:?}"
        );
        // The deep way out is along y, by half the shallow overlap: a sidestep, not half a body
        // (which, pushed into whoever stood beyond, left bodies half covered on stone).
        let up = push_of(&grid, 0, PushAxis::Deep);
        assert!(up[0] == 0.0 && (up[1] + 0.2).abs() < 1e-5, "{up:?}");
        // A graze: the sidestep is the graze's half, however deep the other overlap.
        let grazing = [bodies[0], Body::new(Footprint::POINT, [5.98, 5.3])];
        grid.build(&grazing, 20, 20, 0.0);
        let aside = push_of(&grid, 0, PushAxis::Deep);
        assert!(
            aside[0] == 0.0 && (aside[1] + 0.01).abs() < 1e-5,
            "{aside:?}"
        );
        // Bodies at the very same place part by their order.
        let same = [bodies[0], bodies[0]];
        grid.build(&same, 20, 20, 0.0);
        let a = push_of(&grid, 0, PushAxis::Shallow);
        let b = push_of(&grid, 1, PushAxis::Shallow);
        assert!(a[0] < 0.0 && b[0] > 0.0 && a[0] == -b[0]);
        assert!(a[0].abs() <= MAX_PUSH);
        // A body that touches no one is not pushed at all.
        let lone = [bodies[0], Body::new(Footprint::POINT, [7.0, 5.0])];
        grid.build(&lone, 20, 20, 0.0);
        assert_eq!(separation_push(&grid, 0, PushAxis::Shallow), None);
    }
}
