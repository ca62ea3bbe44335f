//! The seeded field of temple floor tiles that drifts behind the title screen.

use crate::logic::seed::{Stream, stream_rng};
use rand::RngExt;

/// What one floor tile of the title background looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TileKind {
    /// A plain sandstone slab.
    Plain,
    /// A slab with a crack across it.
    Cracked,
    /// A slab overgrown with moss.
    Mossy,
    /// A slab carved with a glyph.
    Glyph,
    /// A rare inlaid gold slab.
    Gold,
}

/// Relative weights of the tile kinds, in the order of [`TileKind`]'s variants: mostly plain
/// stone so the menu stays readable, with a little detail.
const TILE_WEIGHTS: [(TileKind, u32); 5] = [
    (TileKind::Plain, 70),
    (TileKind::Cracked, 12),
    (TileKind::Mossy, 10),
    (TileKind::Glyph, 6),
    (TileKind::Gold, 2),
];

/// A `columns` x `rows` field of tiles for `seed`, row by row from the top left.
///
/// The same seed and size always give the same field.
pub fn title_tiles(seed: u64, columns: usize, rows: usize) -> Vec<TileKind> {
    let total_weight: u32 = TILE_WEIGHTS.iter().map(|(_, w)| w).sum();
    let mut rng = stream_rng(seed, Stream::TitleBackground);
    (0..columns * rows)
        .map(|_| {
            let mut roll = rng.random_range(0..total_weight);
            for (kind, weight) in TILE_WEIGHTS {
                if roll < weight {
                    return kind;
                }
                roll -= weight;
            }
            unreachable!("the roll is below the total weight")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seeds_field_is_golden() {
        // Pins the field a seed gives, so a change to the weights or the stream shows.
        use TileKind::{Cracked as C, Gold as A, Mossy as M, Plain as P};
        let first_row = [P, P, C, P, P, C, M, P, P, M, P, A, M, C, M, M];
        assert_eq!(title_tiles(9, 16, 16)[..16], first_row);
    }

    #[test]
    fn different_seeds_give_different_fields() {
        assert_ne!(title_tiles(1, 16, 16), title_tiles(2, 16, 16));
    }

    #[test]
    fn field_has_the_requested_size_and_is_mostly_plain() {
        let tiles = title_tiles(5, 32, 32);
        assert_eq!(tiles.len(), 32 * 32);
        let plain = tiles.iter().filter(|&&t| t == TileKind::Plain).count();
        // 70 % expected; a ChaCha stream over 1024 tiles lands well inside this band.
        assert!((600..=830).contains(&plain), "{plain} plain tiles");
        for (kind, _) in TILE_WEIGHTS {
            assert!(tiles.contains(&kind), "{kind:?} never appears");
        }
    }
}
