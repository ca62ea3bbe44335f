//! Keeping a crowd apart: bodies as rectangles, a spatial grid of them rebuilt each step, the
//! pushes that separate bodies that touch, and how much bodies overlap.
//!
//! Separation is a position correction (as in position-based dynamics): each body is pushed out
//! of every neighbour it overlaps, half the overlap each, along the axis where the overlap is
//! smallest. Every push is computed from the same snapshot of positions, so the pushes are
//! independent per NPC and can be computed in parallel with the same result.

use super::field::{Footprint, MAX_FOOTPRINT_SIDE};

/// A pair of bodies overlaps when they share more than this share of the smaller one's area.
pub const OVERLAP_TOLERANCE: f32 = 0.05;
/// The most a body is pushed along each axis in one pass, in cells: a crowded body moves away
/// over several steps instead of jumping.
const MAX_PUSH: f32 = 0.25;
/// Side of a spatial grid bucket, in cells: the widest body, so bodies that overlap are always in
/// the same or neighbouring buckets.
const BUCKET_SIDE: f32 = MAX_FOOTPRINT_SIDE as f32;

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

/// Bodies sorted into square buckets, so each finds its neighbours without looking at everyone.
/// Built afresh each pass: a counting sort, in NPC order within a bucket.
#[derive(Debug, Clone, Default)]
pub struct SpatialGrid {
    columns: usize,
    rows: usize,
    /// Where each bucket's members begin in `members`; one more entry than buckets.
    starts: Vec<u32>,
    /// NPC indices, bucket by bucket.
    members: Vec<u32>,
    /// Each body's bucket, kept between the two passes of a build.
    bucket_of: Vec<u32>,
}

impl SpatialGrid {
    /// Sorts `bodies` on a field of `width` x `height` cells into buckets.
    pub fn build(&mut self, bodies: &[Body], width: usize, height: usize) {
        self.columns = (width as f32 / BUCKET_SIDE).ceil().max(1.0) as usize;
        self.rows = (height as f32 / BUCKET_SIDE).ceil().max(1.0) as usize;
        let buckets = self.columns * self.rows;
        let mut bucket_of = std::mem::take(&mut self.bucket_of);
        bucket_of.clear();
        bucket_of.extend(bodies.iter().map(|body| self.bucket(body.centre) as u32));
        self.bucket_of = bucket_of;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for &bucket in &self.bucket_of {
            self.starts[bucket as usize + 1] += 1;
        }
        for b in 0..buckets {
            self.starts[b + 1] += self.starts[b];
        }
        let mut fill = self.starts[..buckets].to_vec();
        self.members.clear();
        self.members.resize(bodies.len(), 0);
        for (i, &bucket) in self.bucket_of.iter().enumerate() {
            let slot = &mut fill[bucket as usize];
            self.members[*slot as usize] = i as u32;
            *slot += 1;
        }
    }

    fn cell(&self, centre: [f32; 2]) -> (usize, usize) {
        let along = |v: f32, count: usize| ((v / BUCKET_SIDE).max(0.0) as usize).min(count - 1);
        (along(centre[0], self.columns), along(centre[1], self.rows))
    }

    fn bucket(&self, centre: [f32; 2]) -> usize {
        let (x, y) = self.cell(centre);
        y * self.columns + x
    }

    /// Calls `visit` with every NPC whose body may overlap `body` (itself included), in a fixed
    /// order: buckets row by row, NPC order within one.
    pub fn for_each_near(&self, body: &Body, mut visit: impl FnMut(usize)) {
        let (x, y) = self.cell(body.centre);
        for by in y.saturating_sub(1)..=(y + 1).min(self.rows - 1) {
            for bx in x.saturating_sub(1)..=(x + 1).min(self.columns - 1) {
                let bucket = by * self.columns + bx;
                let members = self.starts[bucket] as usize..self.starts[bucket + 1] as usize;
                for &i in &self.members[members] {
                    visit(i as usize);
                }
            }
        }
    }
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

/// The push that moves body `i` out of the neighbours it overlaps: half of each overlap (the
/// neighbour takes the other half) along the chosen axis, away from the neighbour (bodies at the
/// very same place part by their order), at most [`MAX_PUSH`] per axis.
pub fn separation_push(bodies: &[Body], grid: &SpatialGrid, i: usize, along: PushAxis) -> [f32; 2] {
    let me = bodies[i];
    let mut push = [0.0f32; 2];
    grid.for_each_near(&me, |j| {
        if j == i {
            return;
        }
        let other = bodies[j];
        let Some([x, y]) = me.penetration(&other) else {
            return;
        };
        let shallow = usize::from(y < x);
        let axis = match along {
            PushAxis::Shallow => shallow,
            PushAxis::Deep => 1 - shallow,
        };
        let apart = me.centre[axis] - other.centre[axis];
        let away = if apart > 0.0 || (apart == 0.0 && i > j) {
            1.0
        } else {
            -1.0
        };
        push[axis] += away * [x, y][axis] / 2.0;
    });
    push.map(|p| p.clamp(-MAX_PUSH, MAX_PUSH))
}

/// How much a crowd's bodies overlap.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overlaps {
    /// Pairs sharing more than [`OVERLAP_TOLERANCE`] of the smaller body's area.
    pub pairs: usize,
    /// The largest share of any body's area covered by others (0 to 1).
    pub max_covered_fraction: f32,
}

/// Measures the overlaps of `bodies`, sorted into `grid`.
pub fn measure_overlaps(bodies: &[Body], grid: &SpatialGrid) -> Overlaps {
    let mut overlaps = Overlaps::default();
    for (i, me) in bodies.iter().enumerate() {
        let mut covered = 0.0f32;
        grid.for_each_near(me, |j| {
            if j == i {
                return;
            }
            let shared = me.shared_area(&bodies[j]);
            covered += shared;
            if j > i && shared > OVERLAP_TOLERANCE * me.area().min(bodies[j].area()) {
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

    /// Every pair, by brute force: the grid must find each overlapping neighbour.
    #[test]
    fn the_grid_finds_every_overlapping_neighbour() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let bodies: Vec<Body> = (0..400)
            .map(|_| {
                let f = footprint(rng.random_range(1..=4), rng.random_range(1..=4));
                Body::new(
                    f,
                    [rng.random_range(0.0..60.0), rng.random_range(0.0..40.0)],
                )
            })
            .collect();
        let mut grid = SpatialGrid::default();
        grid.build(&bodies, 60, 40);
        for (i, me) in bodies.iter().enumerate() {
            let mut near = Vec::new();
            grid.for_each_near(me, |j| near.push(j));
            for (j, other) in bodies.iter().enumerate() {
                if me.penetration(other).is_some() {
                    assert!(near.contains(&j), "{i} and {j} overlap but were not found");
                }
            }
        }
        let measured = measure_overlaps(&bodies, &grid);
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

    #[test]
    fn two_overlapping_bodies_are_pushed_apart_by_half_each() {
        let bodies = [
            Body::new(Footprint::POINT, [5.0, 5.0]),
            Body::new(Footprint::POINT, [5.6, 5.1]),
        ];
        let mut grid = SpatialGrid::default();
        grid.build(&bodies, 20, 20);
        // They overlap 0.4 along x and 0.9 along y: they part along x, 0.2 each.
        let left = separation_push(&bodies, &grid, 0, PushAxis::Shallow);
        let right = separation_push(&bodies, &grid, 1, PushAxis::Shallow);
        assert!((left[0] + 0.2).abs() < 1e-5 && left[1] == 0.0, "{left:?}");
        assert!(
            (right[0] - 0.2).abs() < 1e-5 && right[1] == 0.0,
            "{right:?}"
        );
        // The deep way out is along y, capped.
        let up = separation_push(&bodies, &grid, 0, PushAxis::Deep);
        assert!(up[0] == 0.0 && up[1] == -MAX_PUSH, "{up:?}");
        // Bodies at the very same place part by their order.
        let same = [bodies[0], bodies[0]];
        grid.build(&same, 20, 20);
        let a = separation_push(&same, &grid, 0, PushAxis::Shallow);
        let b = separation_push(&same, &grid, 1, PushAxis::Shallow);
        assert!(a[0] < 0.0 && b[0] > 0.0 && a[0] == -b[0]);
        assert!(a[0].abs() <= MAX_PUSH);
    }
}
