//! Property tests of the maze's challenge over random mazes, sizes and seeds: the torch against
//! a brute-force line of sight through every wall, and the guardians' walks against the maze's
//! passages, their tethers and the start.

mod reference;

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{brute_force_in_sight, closed_walls};
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::grid_search::distance_map;
use temple_trails::logic::grid_search::{GridSearch, distance_map_from};
use temple_trails::logic::maze::challenge::{GUARDIAN_TETHER, ROUTE_MARGIN};
use temple_trails::logic::maze::run::{MazeInput, MazeRun, MazeSetup};
use temple_trails::logic::maze::torch::lit_cells;
use temple_trails::logic::maze::{Algorithm, Direction, Maze, MazeSpec};

/// A random maze spec: any algorithm, sides 2 to `max_side`, loops or none.
fn random_spec(rng: &mut ChaCha8Rng, max_side: usize) -> MazeSpec {
    MazeSpec {
        width: rng.random_range(2..=max_side),
        height: rng.random_range(2..=max_side),
        algorithm: Algorithm::ALL[rng.random_range(0..Algorithm::ALL.len())],
        braid: if rng.random() { 0.0 } else { rng.random() },
        seed: rng.next_u64(),
    }
}

/// Whether `a` and `b` are neighbours joined by an open passage.
fn joined(maze: &Maze, a: usize, b: usize) -> bool {
    Direction::ALL
        .into_iter()
        .any(|d| maze.neighbour(a, d) == Some(b) && maze.is_open(a, d))
}

#[test]
fn the_torch_lights_exactly_the_cells_in_reach_and_in_sight() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let (mut lit, mut hidden) = (0usize, 0usize);
    for _ in 0..800 {
        let maze = random_spec(&mut rng, 14).generate().unwrap();
        let walls = closed_walls(&maze);
        let from = rng.random_range(0..maze.cell_count());
        let radius = rng.random_range(1..=6u32);
        let (fx, fy) = maze.coords(from);
        let expected: Vec<usize> = (0..maze.cell_count())
            .filter(|&cell| {
                let (x, y) = maze.coords(cell);
                let (dx, dy) = (x as i64 - fx as i64, y as i64 - fy as i64);
                let near = dx * dx + dy * dy <= i64::from(radius * radius);
                if near && !brute_force_in_sight(&maze, &walls, from, cell) {
                    hidden += 1;
                }
                near && brute_force_in_sight(&maze, &walls, from, cell)
            })
            .collect();
        assert_eq!(
            lit_cells(&maze, from, radius),
            expected,
            "{maze:?} from {from}"
        );
        lit += expected.len();
    }
    println!("torch: {lit} cells lit, {hidden} in reach but hidden");
    // Both sides of the test were exercised many times.
    assert!(lit > 3_000 && hidden > 3_000, "{lit} {hidden}");
}

#[test]
fn guardians_walk_open_passages_within_their_tethers_and_never_reach_the_start() {
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let (mut guardians_seen, mut moves_seen) = (0usize, 0usize);
    for _ in 0..60 {
        let setup = MazeSetup {
            first: random_spec(&mut rng, 30),
            difficulty: Difficulty::Hard,
            level: rng.random_range(1..=3),
        };
        let mut run = MazeRun::new(setup, false).unwrap();
        let maze = run.maze.clone();
        let from_home: Vec<Vec<Option<u32>>> = run
            .guardians
            .guardians
            .iter()
            .map(|g| distance_map(&maze, g.home))
            .collect();
        // The shortest way from start to exit, with the start and the shrines on it.
        let route = GridSearch::new()
            .astar(&maze, maze.start(), maze.goal())
            .path
            .unwrap();
        assert!(run.shrines.iter().all(|shrine| route.contains(shrine)));
        let off_route = distance_map_from(&maze, &route);
        for g in &run.guardians.guardians {
            let home_clearance = off_route[g.home].unwrap();
            assert!(
                home_clearance > GUARDIAN_TETHER + ROUTE_MARGIN,
                "a home near the way"
            );
            assert_eq!(g.tether, GUARDIAN_TETHER);
        }
        guardians_seen += run.guardians.len();
        let mut cells: Vec<usize> = run.guardians.guardians.iter().map(|g| g.cell()).collect();
        let mut draws = ChaCha8Rng::seed_from_u64(rng.next_u64());
        for _ in 0..1_500 {
            let inputs = if draws.random_range(0..6) == 0 {
                vec![MazeInput::Step(Direction::ALL[draws.random_range(0..4)])]
            } else {
                Vec::new()
            };
            run.step_tick(inputs, &mut Vec::new());
            for ((g, distance), last) in run
                .guardians
                .guardians
                .iter()
                .zip(&from_home)
                .zip(&mut cells)
            {
                if let Some(next) = g.next {
                    assert!(joined(&maze, g.at, next), "walking through a wall");
                }
                let cell = g.cell();
                assert!(cell < maze.cell_count());
                assert!(distance[cell].unwrap() <= g.tether, "past the tether");
                assert_ne!(cell, maze.start(), "a guardian at the start");
                assert!(
                    off_route[cell].unwrap() > ROUTE_MARGIN,
                    "a guardian on the way"
                );
                if cell != *last {
                    assert!(joined(&maze, *last, cell), "a jump from {last} to {cell}");
                    moves_seen += 1;
                }
                *last = cell;
            }
        }
    }
    println!("guardians: {guardians_seen} placed, {moves_seen} cell changes checked");
    assert!(guardians_seen > 100 && moves_seen > 10_000);
}

#[test]
fn the_same_seed_gives_the_same_guardians_and_the_same_walk() {
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let mut differ = 0;
    for _ in 0..30 {
        let setup = MazeSetup {
            first: random_spec(&mut rng, 30),
            difficulty: Difficulty::Hard,
            level: rng.random_range(1..=3),
        };
        let (mut one, mut two) = (
            MazeRun::new(setup, true).unwrap(),
            MazeRun::new(setup, true).unwrap(),
        );
        for _ in 0..2_000 {
            one.step_tick([], &mut Vec::new());
            two.step_tick([], &mut Vec::new());
            assert_eq!(one.guardians.guardians, two.guardians.guardians);
            assert_eq!(one.fingerprint(), two.fingerprint());
        }
        assert_eq!(one.trail(), two.trail());
        // Another seed places them elsewhere.
        let other = MazeSetup {
            first: MazeSpec {
                seed: setup.first.seed ^ 1,
                ..setup.first
            },
            ..setup
        };
        let homes = |run: &MazeRun| -> Vec<usize> {
            run.guardians.guardians.iter().map(|g| g.home).collect()
        };
        if homes(&MazeRun::new(other, false).unwrap()) != homes(&one) {
            differ += 1;
        }
    }
    assert!(differ > 20, "{differ}");
}
