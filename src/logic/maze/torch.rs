//! Torchlight: the cells a torch in the player's cell lights, which are those within its radius
//! that the player can see, the straight line between the two cells' centres touching no closed
//! wall.
//!
//! Walls are thin segments between cells. The maths is exact: in doubled coordinates a cell's
//! centre is at odd integers and every wall lies on even ones, so each crossing of a grid line
//! is a rational number compared without rounding. A line through a corner where walls meet is
//! blocked if any wall touches that corner.

use super::{Direction, Maze};

/// Whether the straight line between the centres of cells `a` and `b` touches no closed wall.
pub fn in_sight(maze: &Maze, a: usize, b: usize) -> bool {
    let (ax, ay) = maze.coords(a);
    let (bx, by) = maze.coords(b);
    let p = (2 * ax as i64 + 1, 2 * ay as i64 + 1);
    let q = (2 * bx as i64 + 1, 2 * by as i64 + 1);
    // Vertical grid lines x = 2k between the two centres: each crossing passes an east wall of
    // column k - 1 or a corner.
    let vertical = (ax.min(bx) + 1..=ax.max(bx)).all(|k| match crossing(p, q, 2 * k as i64) {
        Crossing::Corner(row) => corner_open(maze, k, row),
        Crossing::Through(row) => maze.is_open(maze.id(k - 1, row), Direction::East),
    });
    // Horizontal grid lines y = 2m, the same with the axes swapped.
    vertical
        && (ay.min(by) + 1..=ay.max(by)).all(|m| {
            match crossing((p.1, p.0), (q.1, q.0), 2 * m as i64) {
                Crossing::Corner(column) => corner_open(maze, column, m),
                Crossing::Through(column) => maze.is_open(maze.id(column, m - 1), Direction::South),
            }
        })
}

/// Where a line crosses a grid line.
enum Crossing {
    /// At the corner point with this index along the grid line (coordinate / 2).
    Corner(usize),
    /// Between corners, beside the cell with this index along the grid line.
    Through(usize),
}

/// Where the line from `p` to `q` (doubled coordinates, `p.0 != q.0`) crosses the line
/// `x = line`, measured along y.
fn crossing(p: (i64, i64), q: (i64, i64), line: i64) -> Crossing {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    // y = p.1 + dy * (line - p.0) / dx, kept as the fraction numerator / denominator.
    let (mut numerator, mut denominator) = (p.1 * dx + dy * (line - p.0), dx);
    if denominator < 0 {
        numerator = -numerator;
        denominator = -denominator;
    }
    // The crossing lies inside the maze, so y >= 0 and integer division floors.
    if numerator % (2 * denominator) == 0 {
        Crossing::Corner((numerator / (2 * denominator)) as usize)
    } else {
        Crossing::Through((numerator / (2 * denominator)) as usize)
    }
}

/// Whether no wall touches the inner corner at the top left of cell (`column`, `row`): the four
/// passages around it are all open.
fn corner_open(maze: &Maze, column: usize, row: usize) -> bool {
    let (above_left, below_right) = (maze.id(column - 1, row - 1), maze.id(column, row));
    maze.is_open(above_left, Direction::East)
        && maze.is_open(above_left, Direction::South)
        && maze.is_open(below_right, Direction::West)
        && maze.is_open(below_right, Direction::North)
}

/// Every cell a torch of `radius` cells in cell `from` lights: the cells whose centres are at
/// most `radius` from its centre and in sight of it, in increasing id order.
pub fn lit_cells(maze: &Maze, from: usize, radius: u32) -> Vec<usize> {
    let (fx, fy) = maze.coords(from);
    let r = radius as usize;
    let reach = i64::from(radius).pow(2);
    let mut lit = Vec::new();
    for y in fy.saturating_sub(r)..=(fy + r).min(maze.height() - 1) {
        for x in fx.saturating_sub(r)..=(fx + r).min(maze.width() - 1) {
            let (dx, dy) = (x as i64 - fx as i64, y as i64 - fy as i64);
            let cell = maze.id(x, y);
            if dx * dx + dy * dy <= reach && in_sight(maze, from, cell) {
                lit.push(cell);
            }
        }
    }
    lit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid with every passage open: one big room.
    fn open_grid(width: usize, height: usize) -> Maze {
        let mut maze = Maze::closed(width, height).unwrap();
        for cell in 0..maze.cell_count() {
            maze.open(cell, Direction::East);
            maze.open(cell, Direction::South);
        }
        maze
    }

    #[test]
    fn an_open_room_is_lit_as_a_disc() {
        let maze = open_grid(9, 9);
        let centre = maze.id(4, 4);
        let lit = lit_cells(&maze, centre, 2);
        // 13 cells lie within 2 of a cell: the disc of radius 2 on the grid.
        assert_eq!(lit.len(), 13);
        assert!(lit.contains(&maze.id(4, 2)) && lit.contains(&maze.id(5, 5)));
        assert!(!lit.contains(&maze.id(6, 6)));
    }

    #[test]
    fn a_wall_hides_what_is_behind_it() {
        // Row 0 is a corridor of two cells; every other passage is closed.
        let mut maze = Maze::closed(3, 2).unwrap();
        maze.open(0, Direction::East);
        assert!(in_sight(&maze, 0, 1));
        assert!(!in_sight(&maze, 0, 2), "the wall between 1 and 2 is closed");
        assert!(!in_sight(&maze, 0, 3), "the wall below the start is closed");
        assert_eq!(lit_cells(&maze, 0, 5), vec![0, 1]);
    }

    #[test]
    fn a_corner_blocks_when_any_wall_touches_it() {
        let mut maze = open_grid(2, 2);
        assert!(
            in_sight(&maze, 0, 3),
            "all four passages round the corner are open"
        );
        // Closing one passage puts a wall on the corner: the diagonal is hidden.
        maze.cells[0] &= !super::super::grid::EAST_OPEN;
        assert!(!in_sight(&maze, 0, 3));
        assert!(!in_sight(&maze, 1, 2));
    }
}
