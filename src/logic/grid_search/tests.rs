//! Unit tests of the grid searches: A*, seeded A*, breadth-first search, distance maps and route
//! trees, on small grids drawn in text and on random ones.

use super::*;

/// An open grid with some cells blocked, for tests independent of mazes.
struct Field {
    width: usize,
    height: usize,
    blocked: Vec<bool>,
}

impl Field {
    fn parse(rows: &[&str]) -> Field {
        Field {
            width: rows[0].len(),
            height: rows.len(),
            blocked: rows
                .iter()
                .flat_map(|r| r.bytes().map(|b| b == b'#'))
                .collect(),
        }
    }
}

impl GridGraph for Field {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.height
    }
    fn for_each_neighbour(&self, cell: usize, mut visit: impl FnMut(usize)) {
        let (x, y) = (cell % self.width, cell / self.width);
        let mut try_visit = |n: usize| {
            if !self.blocked[n] {
                visit(n);
            }
        };
        if y > 0 {
            try_visit(cell - self.width);
        }
        if x + 1 < self.width {
            try_visit(cell + 1);
        }
        if y + 1 < self.height {
            try_visit(cell + self.width);
        }
        if x > 0 {
            try_visit(cell - 1);
        }
    }
}

#[test]
fn astar_goes_around_a_wall() {
    let field = Field::parse(&["....", ".##.", ".#..", "...."]);
    let mut search = GridSearch::new();
    let outcome = search.astar(&field, 0, 15);
    assert_eq!(outcome.steps(), Some(6));
    let bfs = search.bfs(&field, 0, 15);
    assert_eq!(bfs.steps(), Some(6));
}

#[test]
fn unreachable_goal_gives_no_path() {
    let field = Field::parse(&["..#.", "..#.", "###."]);
    let mut search = GridSearch::new();
    assert_eq!(search.astar(&field, 0, 3).path, None);
    assert_eq!(search.bfs(&field, 0, 3).path, None);
    // The buffers still work afterwards.
    assert_eq!(search.astar(&field, 0, 5).steps(), Some(2));
}

#[test]
fn start_equal_to_goal_is_a_one_cell_path() {
    let field = Field::parse(&["...", "..."]);
    let outcome = GridSearch::new().astar(&field, 4, 4);
    assert_eq!(outcome.path, Some(vec![4]));
    assert_eq!(outcome.expanded, 1);
}

#[test]
fn astar_on_open_ground_expands_only_the_straight_band() {
    // With ties broken towards larger g, A* walks straight at the goal on open ground.
    let field = Field::parse(&[".........."; 10]);
    let outcome = GridSearch::new().astar(&field, 0, 99);
    assert_eq!(outcome.steps(), Some(18));
    assert_eq!(outcome.expanded, 19);
}

/// Seeded searches against the oracle of distances from the goal: the path found starts at a
/// seed, steps cell to cell to the goal, and costs the least seed `g` plus steps there is;
/// a budget too small gives up rather than returning a worse path.
#[test]
fn a_search_from_seeds_finds_the_cheapest_seed_and_way() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let mut search = GridSearch::new();
    for case in 0..300 {
        let (width, height) = (rng.random_range(3..14), rng.random_range(3..14));
        let blocked: Vec<bool> = (0..width * height).map(|_| rng.random_bool(0.3)).collect();
        let field = Field {
            width,
            height,
            blocked,
        };
        let open: Vec<usize> = (0..width * height).filter(|&c| !field.blocked[c]).collect();
        if open.len() < 2 {
            continue;
        }
        let goal = open[rng.random_range(0..open.len())];
        let seeds: Vec<(usize, u32)> = (0..rng.random_range(1..5))
            .map(|_| {
                (
                    open[rng.random_range(0..open.len())],
                    rng.random_range(0..6),
                )
            })
            .collect();
        let from_goal = distance_map(&field, goal);
        let best = seeds
            .iter()
            .filter_map(|&(seed, g)| from_goal[seed].map(|d| d + g))
            .min();
        let outcome = search.astar_from_seeds(&field, &seeds, goal, usize::MAX);
        let Some(path) = outcome.path else {
            assert_eq!(best, None, "case {case}: a reachable goal was missed");
            continue;
        };
        let (first, last) = (path[0], *path.last().unwrap());
        assert_eq!(last, goal, "case {case}");
        let g = seeds
            .iter()
            .filter(|&&(seed, _)| seed == first)
            .map(|&(_, g)| g)
            .min()
            .expect("the path starts at a seed");
        assert_eq!(Some(g + (path.len() - 1) as u32), best, "case {case}");
        for pair in path.windows(2) {
            let mut neighbours = Vec::new();
            field.for_each_neighbour(pair[0], |n| neighbours.push(n));
            assert!(neighbours.contains(&pair[1]), "case {case}: a jump");
        }
        if outcome.expanded > 0 {
            let cut = outcome.expanded - 1;
            let short = search.astar_from_seeds(&field, &seeds, goal, cut);
            assert_eq!(short.path, None, "case {case}: the budget was overrun");
        }
    }
}

#[test]
fn buffers_survive_a_generation_wrap() {
    let field = Field::parse(&["....", ".##.", "...."]);
    let mut search = GridSearch::new();
    search.astar(&field, 0, 11);
    search.generation = u32::MAX - 1;
    for _ in 0..3 {
        assert_eq!(search.astar(&field, 0, 11).steps(), Some(5));
        assert_eq!(search.bfs(&field, 11, 0).steps(), Some(5));
    }
}

#[test]
fn distance_map_matches_bfs() {
    let field = Field::parse(&["....#", ".##.#", "....#", "#####"]);
    let map = distance_map(&field, 0);
    let mut search = GridSearch::new();
    for (cell, &distance) in map.iter().enumerate() {
        let steps = search.bfs(&field, 0, cell).steps().map(|s| s as u32);
        assert_eq!(distance, steps, "cell {cell}");
    }
}

#[test]
fn a_route_tree_gives_shortest_routes_from_everywhere() {
    let grid = Field::parse(&[
        "......#...",
        ".####.#.#.",
        ".#....#.#.",
        ".#.####.#.",
        "...#......",
        ".#...####.",
    ]);
    let goal = grid.width * 2 + 3;
    let tree = RouteTree::toward(&grid, goal);
    let distance = distance_map(&grid, goal);
    let mut search = GridSearch::new();
    for (cell, &steps) in distance.iter().enumerate() {
        let route = tree.route_from(cell);
        assert_eq!(
            route.as_ref().map(|r| r.len() as u32 - 1),
            steps,
            "cell {cell}"
        );
        let Some(route) = route else { continue };
        assert_eq!((route[0], *route.last().unwrap()), (cell, goal));
        for pair in route.windows(2) {
            let mut neighbours = Vec::new();
            grid.for_each_neighbour(pair[0], |n| neighbours.push(n));
            assert!(neighbours.contains(&pair[1]), "{pair:?}");
        }
        assert_eq!(
            search.astar(&grid, cell, goal).steps(),
            Some(route.len() - 1)
        );
    }
    assert_eq!(tree.next_from(goal), None);
    assert_eq!(tree.next_from(usize::MAX), None);
}
