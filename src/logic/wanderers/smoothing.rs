//! Footprint-aware path smoothing (design §4.5, seed 003): from an A* node path, keep only the
//! nodes an agent of L x W cells must turn at, by jumping each time to the farthest node it can
//! slide to in a straight line without its body touching a blocked cell.

use super::field::{Footprint, ObstacleField};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Slack used when comparing the swept band with cell edges: cells this close to the band
/// count as touched, which keeps the test conservative against rounding.
const EDGE_SLACK: f64 = 1e-9;

/// How the farthest visible node is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FarthestSearch {
    /// The paper's binary search (pass / block / t). Visibility is not monotone along a path,
    /// so it can stop at a nearer node than the farthest visible one.
    #[default]
    Binary,
    /// Every node from the goal backwards until one is visible: the farthest visible node.
    Exact,
}

impl FarthestSearch {
    /// Both methods, binary first.
    pub const ALL: [FarthestSearch; 2] = [FarthestSearch::Binary, FarthestSearch::Exact];

    /// The lowercase name used on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            FarthestSearch::Binary => "binary",
            FarthestSearch::Exact => "exact",
        }
    }
}

/// Why a node path was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathError {
    /// The path has no nodes.
    Empty,
    /// The first node is not the start.
    WrongStart,
    /// The last node is not the goal.
    WrongGoal,
    /// A node lies outside the field.
    OutsideField {
        /// Its position in the path.
        index: usize,
    },
    /// A node is not a side neighbour of the one before it.
    NotAdjacent {
        /// Its position in the path.
        index: usize,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::Empty => f.write_str("the node path is empty"),
            PathError::WrongStart => f.write_str("the node path does not begin at the start"),
            PathError::WrongGoal => f.write_str("the node path does not end at the goal"),
            PathError::OutsideField { index } => {
                write!(f, "node {index} of the path lies outside the field")
            }
            PathError::NotAdjacent { index } => write!(
                f,
                "node {index} of the path is not a side neighbour of node {}",
                index - 1
            ),
        }
    }
}

impl std::error::Error for PathError {}

/// Checks a node path (cell ids): first = `start`, last = `goal`, every node inside the field and
/// a side neighbour of the one before it.
pub fn validate_path(
    field: &ObstacleField,
    path: &[usize],
    start: usize,
    goal: usize,
) -> Result<(), PathError> {
    let (&first, &last) = path.first().zip(path.last()).ok_or(PathError::Empty)?;
    let cells = field.width() * field.height();
    if let Some(index) = path.iter().position(|&cell| cell >= cells) {
        return Err(PathError::OutsideField { index });
    }
    if first != start {
        return Err(PathError::WrongStart);
    }
    if last != goal {
        return Err(PathError::WrongGoal);
    }
    for (index, pair) in path.windows(2).enumerate() {
        let (ax, ay) = field.coords(pair[0]);
        let (bx, by) = field.coords(pair[1]);
        if ax.abs_diff(bx) + ay.abs_diff(by) != 1 {
            return Err(PathError::NotAdjacent { index: index + 1 });
        }
    }
    Ok(())
}

/// Whether the agent can slide its centre in a straight line from the centre of cell `a` to the
/// centre of cell `b` without its body overlapping a blocked cell (or leaving the field).
///
/// As in the paper: the sweep lies in the bounding rectangle of the footprint at both ends; a
/// horizontal or vertical slide sweeps exactly that rectangle. For a slope `k` the sweep is also
/// between the two lines `y = k x + c ± ...` through the footprint's outermost corners (the
/// paper's m and n: `|k| (right + 0.5) + top + 0.5` and `|k| (left + 0.5) + bottom + 0.5`, mirrored
/// for the other sign), so each column of the rectangle is scanned only between those lines. Every
/// cell the band touches in a column is scanned, so the test never calls a blocked sweep visible.
pub fn visible(field: &ObstacleField, footprint: Footprint, a: usize, b: usize) -> bool {
    let [left, top, right, bottom] = footprint.extents().map(i64::from);
    let (ax, ay) = field.coords(a);
    let (bx, by) = field.coords(b);
    let (ax, ay, bx, by) = (ax as i64, ay as i64, bx as i64, by as i64);
    // The bounding rectangle of the footprint at both ends, in cells.
    let (min_x, max_x) = (ax.min(bx) - left, ax.max(bx) + right);
    let (min_y, max_y) = (ay.min(by) - top, ay.max(by) + bottom);
    let clear = |x: i64, rows: std::ops::RangeInclusive<i64>| {
        rows.into_iter().all(|y| !field.is_blocked(x, y))
    };
    if ax == bx || ay == by {
        return (min_x..=max_x).all(|x| clear(x, min_y..=max_y));
    }
    let slope = (by - ay) as f64 / (bx - ax) as f64;
    // The centre line through both centres: y = slope * x + intercept (centres at cell + 0.5).
    let intercept = (ay as f64 + 0.5) - slope * (ax as f64 + 0.5);
    // The body relative to its centre spans x in [-left-0.5, right+0.5], y in [-top-0.5,
    // bottom+0.5]; its corners reach furthest either side of the line.
    let corners_x = [-(left as f64) - 0.5, right as f64 + 0.5];
    let corners_y = [-(top as f64) - 0.5, bottom as f64 + 0.5];
    let offsets = corners_x
        .iter()
        .flat_map(|&x| corners_y.iter().map(move |&y| y - slope * x));
    let (below, above) = offsets.fold((f64::MAX, f64::MIN), |(lo, hi), o| (lo.min(o), hi.max(o)));
    (min_x..=max_x).all(|x| {
        let (x0, x1) = (x as f64, x as f64 + 1.0);
        let low = (slope * x0).min(slope * x1) + intercept + below;
        let high = (slope * x0).max(slope * x1) + intercept + above;
        let first = ((low - EDGE_SLACK).floor() as i64).max(min_y);
        let last = ((high + EDGE_SLACK).ceil() as i64 - 1).min(max_y);
        first > last || clear(x, first..=last)
    })
}

/// The index of the node of `path` after `from` that the agent slides to next, and how many
/// visibility tests it took.
pub fn farthest_visible(
    field: &ObstacleField,
    footprint: Footprint,
    path: &[usize],
    from: usize,
    search: FarthestSearch,
) -> (usize, usize) {
    let last = path.len() - 1;
    let sees = |t: usize| visible(field, footprint, path[from], path[t]);
    let mut tests = 0;
    let found = match search {
        FarthestSearch::Exact => (from + 1..=last)
            .rev()
            .find(|&t| {
                tests += 1;
                sees(t)
            })
            .unwrap_or(from + 1),
        FarthestSearch::Binary => {
            // The paper's names: pass = farthest node seen so far, block = nearest node found
            // hidden, t = the node being tested.
            let (mut pass, mut block, mut t) = (from, last, last);
            loop {
                tests += 1;
                if sees(t) {
                    if t == last || t + 1 == block {
                        break t;
                    }
                    pass = t;
                } else {
                    block = t;
                }
                t = pass + (block - pass) / 2;
                if t == pass {
                    // Only the hidden block is left past pass.
                    break pass;
                }
            }
        }
    };
    // The next node on a valid path is always reachable; never stand still.
    (found.max(from + 1), tests)
}

/// A smoothed path and the paper's measures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Smoothed {
    /// Indices into the node path of the waypoints kept, start and goal included.
    pub kept: Vec<usize>,
    /// The waypoints (cell ids): S, T1, T2, ..., E.
    pub waypoints: Vec<usize>,
    /// Nodes before smoothing.
    pub raw_nodes: usize,
    /// Turns before smoothing.
    pub raw_turns: usize,
    /// Turns after smoothing.
    pub smoothed_turns: usize,
    /// Visibility tests made.
    pub visibility_tests: usize,
}

/// Smooths a validated node path from `start` to `goal` for an agent with `footprint`.
pub fn smooth(
    field: &ObstacleField,
    footprint: Footprint,
    path: &[usize],
    start: usize,
    goal: usize,
    search: FarthestSearch,
) -> Result<Smoothed, PathError> {
    validate_path(field, path, start, goal)?;
    let mut kept = vec![0];
    let mut visibility_tests = 0;
    let mut at = 0;
    while at + 1 < path.len() {
        let (next, tests) = farthest_visible(field, footprint, path, at, search);
        visibility_tests += tests;
        kept.push(next);
        at = next;
    }
    let waypoints: Vec<usize> = kept.iter().map(|&i| path[i]).collect();
    Ok(Smoothed {
        raw_nodes: path.len(),
        raw_turns: turns(field, path),
        smoothed_turns: turns(field, &waypoints),
        kept,
        waypoints,
        visibility_tests,
    })
}

/// Turns along a polyline of cell centres, counted as the paper does: setting off counts as the
/// first turn, then every change of direction (so a straight line has 1, an L has 2).
pub fn turns(field: &ObstacleField, points: &[usize]) -> usize {
    let mut turns = 0;
    let mut heading: Option<(i64, i64)> = None;
    for pair in points.windows(2) {
        let (ax, ay) = field.coords(pair[0]);
        let (bx, by) = field.coords(pair[1]);
        let step = (bx as i64 - ax as i64, by as i64 - ay as i64);
        let same = heading
            .is_some_and(|(hx, hy)| hx * step.1 == hy * step.0 && hx * step.0 + hy * step.1 > 0);
        if !same {
            turns += 1;
        }
        heading = Some(step);
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(field: &ObstacleField, points: &[(usize, usize)]) -> Vec<usize> {
        points.iter().map(|&(x, y)| field.id(x, y)).collect()
    }

    #[test]
    fn invalid_node_paths_are_refused_with_the_reason() {
        let field = ObstacleField::open(4, 4);
        let path = cells(&field, &[(0, 0), (1, 0), (1, 1)]);
        let (s, g) = (path[0], path[2]);
        assert_eq!(validate_path(&field, &path, s, g), Ok(()));
        assert_eq!(validate_path(&field, &[], s, g), Err(PathError::Empty));
        assert_eq!(
            validate_path(&field, &path, g, g),
            Err(PathError::WrongStart)
        );
        assert_eq!(
            validate_path(&field, &path, s, s),
            Err(PathError::WrongGoal)
        );
        let jump = cells(&field, &[(0, 0), (1, 1)]);
        assert_eq!(
            validate_path(&field, &jump, jump[0], jump[1]),
            Err(PathError::NotAdjacent { index: 1 })
        );
        // Ids 3 and 4 differ by one but are on different rows.
        assert_eq!(
            validate_path(&field, &[3, 4], 3, 4),
            Err(PathError::NotAdjacent { index: 1 })
        );
        assert_eq!(
            validate_path(&field, &[0, 99], 0, 99),
            Err(PathError::OutsideField { index: 1 })
        );
        assert!(
            PathError::NotAdjacent { index: 4 }
                .to_string()
                .contains("node 3")
        );
    }

    #[test]
    fn turns_count_setting_off_and_every_change() {
        let field = ObstacleField::open(5, 5);
        assert_eq!(turns(&field, &cells(&field, &[(0, 0)])), 0);
        assert_eq!(turns(&field, &cells(&field, &[(0, 0), (1, 0), (2, 0)])), 1);
        assert_eq!(turns(&field, &cells(&field, &[(0, 0), (1, 0), (1, 1)])), 2);
        assert_eq!(turns(&field, &cells(&field, &[(0, 0), (2, 1), (4, 2)])), 1);
        assert_eq!(turns(&field, &cells(&field, &[(2, 0), (3, 0), (2, 0)])), 2);
    }

    #[test]
    fn a_wall_beside_a_diagonal_hides_it_from_a_wide_agent_only() {
        let field = ObstacleField::from_rows(&[
            "..........",
            "......#...",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ])
        .unwrap();
        let wide = Footprint::new(3, 3).unwrap();
        // The hop passes below the wall: a point's unit square stays clear of it by 0.4 cells,
        // a 3x3 body reaches across it.
        let (a, b) = (field.id(1, 5), field.id(8, 2));
        assert!(field.fits(wide, a) && field.fits(wide, b));
        assert!(visible(&field, Footprint::POINT, a, b));
        assert!(visible(&field, Footprint::POINT, b, a));
        assert!(!visible(&field, wide, a, b));
        assert!(!visible(&field, wide, b, a));
        // Along the row under the wall: clear for a point, not for a body three cells wide.
        let (c, d) = (field.id(0, 2), field.id(9, 2));
        assert!(visible(&field, Footprint::POINT, c, d));
        assert!(!visible(&field, Footprint::new(1, 3).unwrap(), c, d));
    }
}
