//! What stands beside the track: stretches of scenery drawn from the seed (deep jungle, temple
//! ruins, groves), and the trees and statues of each straight segment, placed by a hash of the
//! seed and the segment's index, so the same track always looks the same in every view.

use super::layout::{JUNGLE_REACH, KERB, SEGMENT, TRACK_WIDTH};
use super::palette::{CANOPY, GROVE_CANOPY, RUINS_CANOPY};
use crate::logic::seed::fnv1a_64;
use bevy_color::Color;
use bevy_math::Vec2;

/// Segments of one stretch of scenery: the run passes from one to the next.
pub const STRETCH_SEGMENTS: u64 = 24;

/// The kinds of stretch a run passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stretch {
    /// Deep jungle: dark, broad trees.
    Jungle,
    /// Temple ruins: statues on both kerbs of every segment, few trees.
    Ruins,
    /// A grove of tall, pale, slender trees.
    Grove,
}

/// Every kind, in the order stretches step through them.
const KINDS: [Stretch; 3] = [Stretch::Jungle, Stretch::Ruins, Stretch::Grove];

impl Stretch {
    /// The stretch segment `index` of the run of `seed` lies in: the first is always jungle,
    /// the others drawn from the seed, never twice the same in a row. (A walk from the start:
    /// [`Stretches`] keeps its place for a run that goes on.)
    pub fn of(seed: u64, index: u64) -> Stretch {
        Stretches::new(seed).of(index)
    }

    /// Its canopies' colours.
    fn canopies(self) -> [Color; 3] {
        match self {
            Stretch::Jungle => CANOPY,
            Stretch::Ruins => RUINS_CANOPY,
            Stretch::Grove => GROVE_CANOPY,
        }
    }
}

/// The stretches of one run, walked forward as the run goes on: finding the stretch of a
/// segment past the last one asked for costs only the stretches between, so a run of any
/// length costs the same per segment.
#[derive(Debug, Clone)]
pub struct Stretches {
    seed: u64,
    /// The stretch number reached, and the index into [`KINDS`] of its kind.
    stretch: u64,
    at: usize,
}

impl Stretches {
    /// The stretches of the run of `seed`, from its first.
    pub fn new(seed: u64) -> Stretches {
        Stretches {
            seed,
            stretch: 0,
            at: 0,
        }
    }

    /// The stretch segment `index` lies in. Asked for an earlier one than last time, it walks
    /// again from the start.
    pub fn of(&mut self, index: u64) -> Stretch {
        let wanted = index / STRETCH_SEGMENTS;
        if wanted < self.stretch {
            *self = Stretches::new(self.seed);
        }
        while self.stretch < wanted {
            self.stretch += 1;
            let mut bytes = self.seed.to_le_bytes().to_vec();
            bytes.extend(self.stretch.to_le_bytes());
            let step = 1 + (fnv1a_64(&bytes) % 2) as usize;
            self.at = (self.at + step) % KINDS.len();
        }
        KINDS[self.at]
    }
}

/// A thing beside the track.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scenery {
    /// A tree: its canopy's radius and colour, its trunk's height, and a sliver of depth so
    /// canopies overlap steadily.
    Tree {
        /// The canopy's radius, in metres.
        radius: f32,
        /// The canopy's colour.
        colour: Color,
        /// The trunk's height, in metres.
        trunk: f32,
        /// Its drawing depth among the trees seen from above.
        layer: f32,
    },
    /// A stone statue on the kerb.
    Statue,
}

/// Trees on both sides of a straight segment, and stone statues on the kerbs, each with its
/// place in the segment's frame, as its `stretch` has them: broad dark trees and a statue every
/// third segment in the jungle, statues on every segment and few trees in the ruins, tall
/// slender pale trees in a grove. Placed by a hash of the seed and the segment index.
pub fn scenery_of(seed: u64, index: u64, stretch: Stretch) -> Vec<(Scenery, Vec2)> {
    let mut bytes = seed.to_le_bytes().to_vec();
    bytes.extend(index.to_le_bytes());
    let mut bits = fnv1a_64(&bytes);
    let mut next = |range: f32| {
        bits = bits.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (bits >> 40) as f32 / (1u64 << 24) as f32 * range
    };
    let mut things = Vec::new();
    let (trees, statue_every) = match stretch {
        Stretch::Jungle => (2, 3),
        Stretch::Ruins => (1, 1),
        Stretch::Grove => (3, 6),
    };
    let canopies = stretch.canopies();
    for side in [-1.0, 1.0] {
        for _ in 0..trees {
            let across = side * (TRACK_WIDTH / 2.0 + KERB + 1.6 + next(JUNGLE_REACH - 8.0));
            let along = next(SEGMENT);
            let (radius, trunk) = match stretch {
                Stretch::Grove => (0.9 + next(0.9), 4.0 + next(3.0)),
                Stretch::Jungle | Stretch::Ruins => {
                    let radius = 1.4 + next(2.2);
                    (radius, radius * 1.2 + 1.0)
                }
            };
            let colour = canopies[(next(3.0) as usize).min(canopies.len() - 1)];
            let layer = -0.9 + next(0.1);
            things.push((
                Scenery::Tree {
                    radius,
                    colour,
                    trunk,
                    layer,
                },
                Vec2::new(across, along),
            ));
        }
    }
    if index.is_multiple_of(statue_every) {
        for side in [-1.0, 1.0] {
            let at = Vec2::new(side * (TRACK_WIDTH / 2.0 + KERB / 2.0), 1.0);
            things.push((Scenery::Statue, at));
        }
    }
    things
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_passes_through_stretches_of_scenery_drawn_from_the_seed() {
        let stretches = |seed: u64| -> Vec<Stretch> {
            (0..12)
                .map(|n| Stretch::of(seed, n * STRETCH_SEGMENTS))
                .collect()
        };
        let first = stretches(42);
        assert_eq!(first[0], Stretch::Jungle, "every run starts in the jungle");
        assert!(first.windows(2).all(|pair| pair[0] != pair[1]), "{first:?}");
        assert_eq!(stretches(42), first, "the same seed, the same scenery");
        assert!((0..20).any(|seed| stretches(seed) != first), "seeds differ");
        // Within a stretch nothing changes.
        assert_eq!(Stretch::of(42, 0), Stretch::of(42, STRETCH_SEGMENTS - 1));
        // Ruins have statues on every straight segment; the scenery is the same every time.
        let ruins = (0..2000)
            .find(|&i| Stretch::of(42, i) == Stretch::Ruins)
            .unwrap();
        let statues = |index| {
            scenery_of(42, index, Stretch::Ruins)
                .iter()
                .filter(|(thing, _)| *thing == Scenery::Statue)
                .count()
        };
        assert_eq!(statues(ruins + 1), 2);
        assert_eq!(
            scenery_of(42, ruins + 1, Stretch::Ruins),
            scenery_of(42, ruins + 1, Stretch::Ruins)
        );
    }

    #[test]
    fn walking_forward_finds_the_stretches_a_walk_from_the_start_finds() {
        let mut walk = Stretches::new(7);
        for index in (0..5_000).step_by(7) {
            assert_eq!(walk.of(index), Stretch::of(7, index), "segment {index}");
        }
        // Back to an earlier one: walked again from the start.
        assert_eq!(walk.of(3), Stretch::Jungle);
    }
}
