//! The crowd's body sizes, and the field a crowd of them gets: large enough that it has room to
//! keep apart.

use super::MAX_DENSITY;
use serde::{Deserialize, Serialize};

/// The smallest sandbox field, in cells: a small crowd gets this; a larger one a larger field of
/// the same shape.
const BASE_FIELD: (usize, usize) = (192, 108);
/// Open cells per cell of body once the crowd outgrows the base field: a crowd covers at most
/// about a sixth of the open ground, so it has room to keep apart.
pub(super) const OPEN_CELLS_PER_BODY_CELL: f64 = 6.0;

/// The field a sandbox of `count` NPCs of the `footprints` mix gets on stone of `density`: the
/// base 192 x 108 cells, scaled up in both directions until the open ground is at least
/// [`OPEN_CELLS_PER_BODY_CELL`] times the crowd's mean body area.
pub fn field_size_for(count: usize, footprints: FootprintMix, density: f64) -> (usize, usize) {
    let (width, height) = BASE_FIELD;
    let open_share = (1.0 - density.clamp(0.0, MAX_DENSITY)).max(f64::EPSILON);
    let cells = count as f64 * footprints.mean_area() * OPEN_CELLS_PER_BODY_CELL / open_share;
    let scale = (cells / (width * height) as f64).sqrt().max(1.0);
    // Rounded up, so the open ground is never short of the share asked.
    (
        (width as f64 * scale).ceil() as usize,
        (height as f64 * scale).ceil() as usize,
    )
}

/// Which body sizes the NPCs get.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FootprintMix {
    /// Every NPC is one cell.
    Points,
    /// One or two cells a side (1x1, 2x1, 1x2, 2x2).
    #[default]
    Small,
    /// One to three cells a side, not only square.
    Mixed,
}

impl FootprintMix {
    /// Every mix, smallest first.
    pub const ALL: [FootprintMix; 3] = [
        FootprintMix::Points,
        FootprintMix::Small,
        FootprintMix::Mixed,
    ];

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            FootprintMix::Points => "1x1 only",
            FootprintMix::Small => "up to 2x2",
            FootprintMix::Mixed => "up to 3x3",
        }
    }

    /// The name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            FootprintMix::Points => "points",
            FootprintMix::Small => "small",
            FootprintMix::Mixed => "mixed",
        }
    }

    /// The mean body area of the mix, in cells: each side is drawn evenly from 1 to the largest.
    pub fn mean_area(self) -> f64 {
        let mean_side = (1.0 + self.max_side() as f64) / 2.0;
        mean_side * mean_side
    }

    /// The largest side of the mix, in cells.
    pub(super) const fn max_side(self) -> usize {
        match self {
            FootprintMix::Points => 1,
            FootprintMix::Small => 2,
            FootprintMix::Mixed => 3,
        }
    }
}
