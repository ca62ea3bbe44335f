//! The maze as text: the wall grid drawn with `#` and spaces, with an optional path of `.`, as
//! the command line prints it and the game paints its wall texture from it.

use super::grid::{EAST_OPEN, Maze, SOUTH_OPEN};

impl Maze {
    /// The maze as (2 * height + 1) rows of (2 * width + 1) characters: `#` wall, space open,
    /// cell (x, y) at row 2y + 1, column 2x + 1, with the entrance and exit open. With a path,
    /// its cells and the passages between consecutive cells are marked `.`.
    pub fn ascii_rows(&self, path: Option<&[usize]>) -> Vec<String> {
        let columns = 2 * self.width + 1;
        let mut grid = vec![vec![b'#'; columns]; 2 * self.height + 1];
        for id in 0..self.cells.len() {
            let (x, y) = self.coords(id);
            let (row, column) = (2 * y + 1, 2 * x + 1);
            grid[row][column] = b' ';
            if self.cells[id] & EAST_OPEN != 0 {
                grid[row][column + 1] = b' ';
            }
            if self.cells[id] & SOUTH_OPEN != 0 {
                grid[row + 1][column] = b' ';
            }
        }
        grid[1][0] = b' ';
        grid[2 * self.height - 1][columns - 1] = b' ';
        if let Some(path) = path {
            for (i, &id) in path.iter().enumerate() {
                let (x, y) = self.coords(id);
                grid[2 * y + 1][2 * x + 1] = b'.';
                if let Some(&next) = path.get(i + 1) {
                    let (nx, ny) = self.coords(next);
                    grid[y + ny + 1][x + nx + 1] = b'.';
                }
            }
        }
        grid.into_iter()
            .map(|row| String::from_utf8(row).expect("ASCII only"))
            .collect()
    }

    /// [`Maze::ascii_rows`] joined with newlines, ending in one.
    pub fn to_ascii(&self, path: Option<&[usize]>) -> String {
        let mut text = self.ascii_rows(path).join("\n");
        text.push('\n');
        text
    }
}
