//! Obstacle fields: a grid of blocked cells, agent footprints of L x W cells, and the graph of
//! places a footprint fits, which the one grid A* searches.

use crate::logic::grid_search::GridGraph;
use crate::logic::seed::{Stream, stream_rng};
use noise::{NoiseFn, Perlin};
use rand::Rng;
use std::collections::VecDeque;
use std::fmt;

/// Lattice units per cell of the obstacle noise: blobs of stone a few cells across.
const FIELD_NOISE_SCALE: f64 = 0.13;
/// Offset of the noise samples from the lattice, so no cell samples a lattice point (where
/// Perlin noise is always 0).
const FIELD_NOISE_OFFSET: f64 = 0.37;

/// Largest footprint side, in cells.
pub const MAX_FOOTPRINT_SIDE: usize = 4;

/// A rectangle of `width` x `height` cells, some blocked. Cell id = `y * width + x`; y grows
/// downward (row 0 is the top row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObstacleField {
    width: usize,
    height: usize,
    blocked: Vec<bool>,
}

impl ObstacleField {
    /// An open field.
    pub fn open(width: usize, height: usize) -> ObstacleField {
        ObstacleField {
            width,
            height,
            blocked: vec![false; width * height],
        }
    }

    /// A field of stone blobs from the seed's ObstacleField stream: the `density` share of cells
    /// (0 to 1) with the lowest Perlin noise is blocked, then every open pocket cut off from the
    /// largest open region is filled, so all open cells are connected.
    pub fn from_noise(seed: u64, width: usize, height: usize, density: f64) -> ObstacleField {
        let noise = Perlin::new(stream_rng(seed, Stream::ObstacleField).next_u32());
        let values: Vec<f64> = (0..width * height)
            .map(|id| {
                let (x, y) = (id % width, id / width);
                noise.get([
                    x as f64 * FIELD_NOISE_SCALE + FIELD_NOISE_OFFSET,
                    y as f64 * FIELD_NOISE_SCALE + FIELD_NOISE_OFFSET,
                ])
            })
            .collect();
        let blocked_count = ((width * height) as f64 * density.clamp(0.0, 1.0)).round() as usize;
        let mut field = ObstacleField::open(width, height);
        if blocked_count > 0 {
            let mut order: Vec<usize> = (0..values.len()).collect();
            // Lowest noise first; ties by id, so the same seed always blocks the same cells.
            order.sort_unstable_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
            for &id in &order[..blocked_count.min(order.len())] {
                field.blocked[id] = true;
            }
        }
        field.fill_cut_off_pockets();
        field
    }

    /// Blocks every open cell outside the largest 4-connected open region.
    fn fill_cut_off_pockets(&mut self) {
        let mut region = vec![usize::MAX; self.blocked.len()];
        let mut sizes = Vec::new();
        let mut queue = VecDeque::new();
        for seed in 0..self.blocked.len() {
            if self.blocked[seed] || region[seed] != usize::MAX {
                continue;
            }
            let label = sizes.len();
            region[seed] = label;
            queue.push_back(seed);
            let mut size = 0;
            while let Some(cell) = queue.pop_front() {
                size += 1;
                FootprintGraph {
                    field: self,
                    footprint: Footprint::POINT,
                }
                .for_each_neighbour(cell, |next| {
                    if region[next] == usize::MAX {
                        region[next] = label;
                        queue.push_back(next);
                    }
                });
            }
            sizes.push(size);
        }
        let Some(largest) =
            (0..sizes.len()).max_by_key(|&label| (sizes[label], usize::MAX - label))
        else {
            return;
        };
        for (cell, &label) in region.iter().enumerate() {
            if label != usize::MAX && label != largest {
                self.blocked[cell] = true;
            }
        }
    }

    /// The share of cells blocked, 0 to 1.
    pub fn blocked_share(&self) -> f64 {
        self.blocked.iter().filter(|&&b| b).count() as f64 / self.blocked.len().max(1) as f64
    }

    /// A field drawn as rows of text, `#` blocked and anything else open. Rows must be equally
    /// long; `None` otherwise.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Option<ObstacleField> {
        let width = rows.first()?.as_ref().chars().count();
        if width == 0 || rows.iter().any(|r| r.as_ref().chars().count() != width) {
            return None;
        }
        let blocked = rows
            .iter()
            .flat_map(|r| r.as_ref().chars().map(|c| c == '#'))
            .collect();
        Some(ObstacleField {
            width,
            height: rows.len(),
            blocked,
        })
    }

    /// The field as rows of text, `#` blocked and `.` open.
    pub fn to_rows(&self) -> Vec<String> {
        self.blocked
            .chunks(self.width)
            .map(|row| row.iter().map(|&b| if b { '#' } else { '.' }).collect())
            .collect()
    }

    /// Cells along x.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Cells along y.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The id of cell (x, y).
    pub fn id(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// The (x, y) of a cell id.
    pub fn coords(&self, id: usize) -> (usize, usize) {
        (id % self.width, id / self.width)
    }

    /// Whether (x, y) is blocked; everything outside the field counts as blocked.
    pub fn is_blocked(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return true;
        }
        self.blocked[y as usize * self.width + x as usize]
    }

    /// Blocks or opens (x, y).
    pub fn set_blocked(&mut self, x: usize, y: usize, blocked: bool) {
        let id = self.id(x, y);
        self.blocked[id] = blocked;
    }

    /// Whether a footprint whose centre cell is `id` covers only open cells inside the field.
    pub fn fits(&self, footprint: Footprint, id: usize) -> bool {
        let (x, y) = self.coords(id);
        let (x, y) = (x as i64, y as i64);
        let [left, top, right, bottom] = footprint.extents().map(i64::from);
        (y - top..=y + bottom).all(|cy| (x - left..=x + right).all(|cx| !self.is_blocked(cx, cy)))
    }

    /// Whether the rectangle from `min` to `max` (in cell units, x right, y down) covers no
    /// blocked cell and nothing outside the field. Touching a blocked cell's edge is allowed:
    /// only cells it overlaps by more than [`EDGE_TOUCH`] along both axes count.
    pub fn area_is_open(&self, min: [f32; 2], max: [f32; 2]) -> bool {
        let first = |low: f32| floor_to_int(low + EDGE_TOUCH);
        let last = |high: f32| ceil_to_int(high - EDGE_TOUCH) - 1;
        let (x0, x1) = (first(min[0]), last(max[0]));
        let (y0, y1) = (first(min[1]), last(max[1]));
        (y0..=y1).all(|y| (x0..=x1).all(|x| !self.is_blocked(x, y)))
    }
}

/// `v.floor() as i64`, without a call into the maths library: the crowd's pushes ask this of
/// every body that moves, several times a step, and the baseline x86-64 has no rounding
/// instruction.
fn floor_to_int(v: f32) -> i64 {
    let truncated = v as i64;
    truncated - i64::from(v < truncated as f32)
}

/// `v.ceil() as i64`, like [`floor_to_int`].
fn ceil_to_int(v: f32) -> i64 {
    let truncated = v as i64;
    truncated + i64::from(v > truncated as f32)
}

/// How far, in cells, a rectangle may reach into a cell without covering it: rounding of the
/// positions, far below anything a player could see.
pub const EDGE_TOUCH: f32 = 1e-3;

/// Why a footprint size was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FootprintError {
    /// The length asked for.
    pub length: usize,
    /// The width asked for.
    pub width: usize,
}

impl fmt::Display for FootprintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "an agent of {}x{} cells is not allowed: length and width are each 1 to {MAX_FOOTPRINT_SIDE}",
            self.length, self.width
        )
    }
}

impl std::error::Error for FootprintError {}

/// An agent's body on the grid: `length` cells along x by `width` cells along y, placed by its
/// centre cell. The centre is the middle cell, or the one left of / above the middle when the
/// side is even, so `left + 1 + right = length` and `top + 1 + bottom = width`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Footprint {
    length: u8,
    width: u8,
}

impl Footprint {
    /// One cell.
    pub const POINT: Footprint = Footprint {
        length: 1,
        width: 1,
    };

    /// A footprint of `length` x `width` cells, each 1 to [`MAX_FOOTPRINT_SIDE`].
    pub fn new(length: usize, width: usize) -> Result<Footprint, FootprintError> {
        let side = 1..=MAX_FOOTPRINT_SIDE;
        if side.contains(&length) && side.contains(&width) {
            Ok(Footprint {
                length: length as u8,
                width: width as u8,
            })
        } else {
            Err(FootprintError { length, width })
        }
    }

    /// Cells along x.
    pub fn length(self) -> usize {
        usize::from(self.length)
    }

    /// Cells along y.
    pub fn width(self) -> usize {
        usize::from(self.width)
    }

    /// Cells from the centre cell to the edges: `[left, top, right, bottom]` (top = toward row 0).
    pub fn extents(self) -> [u8; 4] {
        let left = (self.length - 1) / 2;
        let top = (self.width - 1) / 2;
        [left, top, self.length - 1 - left, self.width - 1 - top]
    }
}

/// The places an agent's footprint fits, as a graph for the grid A*: a move to a side neighbour
/// is allowed when the footprint fits at both ends (a unit slide between two such places sweeps
/// only their union).
#[derive(Debug, Clone, Copy)]
pub struct FootprintGraph<'a> {
    /// The field.
    pub field: &'a ObstacleField,
    /// The agent's body.
    pub footprint: Footprint,
}

impl GridGraph for FootprintGraph<'_> {
    fn width(&self) -> usize {
        self.field.width
    }

    fn height(&self) -> usize {
        self.field.height
    }

    fn for_each_neighbour(&self, cell: usize, mut visit: impl FnMut(usize)) {
        if !self.field.fits(self.footprint, cell) {
            return;
        }
        for next in side_neighbours(self.field.width, self.field.height, cell) {
            if self.field.fits(self.footprint, next) {
                visit(next);
            }
        }
    }
}

/// The cells one side step from `cell` on a `width` x `height` grid: left, right, up, down.
pub(super) fn side_neighbours(
    width: usize,
    height: usize,
    cell: usize,
) -> impl Iterator<Item = usize> {
    let (x, y) = (cell % width, cell / width);
    [
        (x > 0).then(|| cell - 1),
        (x + 1 < width).then(|| cell + 1),
        (y > 0).then(|| cell - width),
        (y + 1 < height).then(|| cell + width),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_cell_rounding_matches_the_maths_library() {
        let mut v = -6.0f32;
        while v <= 6.0 {
            for x in [v, v + 1e-3, v - 1e-3, v + 0.5] {
                assert_eq!(floor_to_int(x), x.floor() as i64, "floor of {x}");
                assert_eq!(ceil_to_int(x), x.ceil() as i64, "ceil of {x}");
            }
            v += 0.25;
        }
        for x in [-0.0f32, 1e-9, -1e-9, 1234567.5, -1234567.5] {
            assert_eq!(floor_to_int(x), x.floor() as i64, "floor of {x}");
            assert_eq!(ceil_to_int(x), x.ceil() as i64, "ceil of {x}");
        }
    }
    use crate::logic::grid_search::{GridSearch, distance_map};

    #[test]
    fn footprints_have_their_centre_left_of_and_above_the_middle() {
        assert_eq!(Footprint::POINT.extents(), [0, 0, 0, 0]);
        assert_eq!(Footprint::new(3, 3).unwrap().extents(), [1, 1, 1, 1]);
        assert_eq!(Footprint::new(4, 2).unwrap().extents(), [1, 0, 2, 1]);
        assert_eq!(Footprint::new(1, 4).unwrap().extents(), [0, 1, 0, 2]);
        let refused = Footprint::new(5, 1).unwrap_err();
        assert!(refused.to_string().contains("1 to 4"), "{refused}");
        assert!(Footprint::new(0, 2).is_err());
    }

    #[test]
    fn noise_fields_have_the_density_asked_and_one_open_region() {
        for (seed, density) in [(1, 0.0), (2, 0.2), (3, 0.35), (4, 0.5)] {
            let field = ObstacleField::from_noise(seed, 60, 40, density);
            assert_eq!(field, ObstacleField::from_noise(seed, 60, 40, density));
            let share = field.blocked_share();
            assert!(share >= density - 1e-9, "{density}: {share}");
            // Below about 40 % the stone rarely cuts pockets off; denser fields lose more open
            // cells to filling (at 50 % the open cells no longer percolate).
            if density <= 0.35 {
                assert!(share < density + 0.1, "{density}: {share}");
            }
            let open: Vec<usize> = (0..60 * 40).filter(|&c| !field.blocked[c]).collect();
            let reached = distance_map(
                &FootprintGraph {
                    field: &field,
                    footprint: Footprint::POINT,
                },
                open[0],
            );
            assert!(
                open.iter().all(|&c| reached[c].is_some()),
                "seed {seed} is split"
            );
        }
        assert_ne!(
            ObstacleField::from_noise(1, 30, 30, 0.3),
            ObstacleField::from_noise(2, 30, 30, 0.3)
        );
    }

    #[test]
    fn rows_round_trip_and_the_outside_is_blocked() {
        let rows = ["..#", "#..", "..."];
        let field = ObstacleField::from_rows(&rows).unwrap();
        assert_eq!(field.to_rows(), rows);
        assert!(field.is_blocked(2, 0) && field.is_blocked(0, 1));
        assert!(!field.is_blocked(1, 1));
        assert!(field.is_blocked(-1, 0) && field.is_blocked(3, 0) && field.is_blocked(0, 3));
        assert!(ObstacleField::from_rows(&["..", "."]).is_none());
    }

    #[test]
    fn a_wide_agent_takes_the_wide_way_round() {
        // A one-cell gap and a three-cell gap in the middle wall.
        let field = ObstacleField::from_rows(&[
            ".........",
            ".........",
            "####.#...",
            ".........",
            ".........",
        ])
        .unwrap();
        let (start, goal) = (field.id(4, 0), field.id(4, 4));
        let mut search = GridSearch::new();
        let point = FootprintGraph {
            field: &field,
            footprint: Footprint::POINT,
        };
        assert_eq!(search.astar(&point, start, goal).steps(), Some(4));
        let wide = FootprintGraph {
            field: &field,
            footprint: Footprint::new(3, 1).unwrap(),
        };
        let path = search
            .astar(&wide, start, goal)
            .path
            .expect("round by the wide gap");
        // Over to x = 7, down four rows, back to x = 4.
        assert_eq!(path.len() - 1, 3 + 4 + 3);
        assert!(path.iter().all(|&cell| field.fits(wide.footprint, cell)));
        let blocked_start = FootprintGraph {
            field: &field,
            footprint: Footprint::new(1, 4).unwrap(),
        };
        assert_eq!(search.astar(&blocked_start, start, goal).path, None);
    }
}
