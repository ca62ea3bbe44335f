//! Properties of footprint-aware path smoothing (seed 003), checked against a brute-force sweep:
//! every accepted hop is clear, smoothing never adds nodes and ends at the goal, bad node paths
//! are refused, and a drawn map reproduces the paper's figure (19 -> 5 nodes, 10 -> 4 turns).

#[path = "reference/mod.rs"]
mod reference;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::sweep_is_clear;
use temple_trails::logic::grid_search::GridSearch;
use temple_trails::logic::wanderers::field::{Footprint, FootprintGraph, ObstacleField};
use temple_trails::logic::wanderers::smoothing::{
    FarthestSearch, PathError, smooth, turns, validate_path, visible,
};

fn random_field(rng: &mut ChaCha8Rng, width: usize, height: usize, density: f64) -> ObstacleField {
    let mut field = ObstacleField::open(width, height);
    for y in 0..height {
        for x in 0..width {
            field.set_blocked(x, y, rng.random_bool(density));
        }
    }
    field
}

fn random_footprint(rng: &mut ChaCha8Rng) -> Footprint {
    Footprint::new(rng.random_range(1..=4), rng.random_range(1..=4)).unwrap()
}

#[test]
fn visibility_never_accepts_a_sweep_the_brute_force_finds_blocked() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (mut visible_count, mut stricter, mut axis_pairs) = (0, 0, 0);
    for _ in 0..300 {
        let field = random_field(&mut rng, 20, 16, 0.08);
        let footprint = random_footprint(&mut rng);
        let fitting: Vec<usize> = (0..20 * 16).filter(|&c| field.fits(footprint, c)).collect();
        if fitting.len() < 2 {
            continue;
        }
        for _ in 0..40 {
            let a = fitting[rng.random_range(0..fitting.len())];
            let b = fitting[rng.random_range(0..fitting.len())];
            let ours = visible(&field, footprint, a, b);
            let oracle = sweep_is_clear(&field, footprint, a, b);
            assert!(
                !ours || oracle,
                "{footprint:?} {:?} -> {:?} accepted through a blocked cell\n{}",
                field.coords(a),
                field.coords(b),
                field.to_rows().join("\n")
            );
            assert_eq!(ours, visible(&field, footprint, b, a), "symmetric");
            let (ax, ay) = field.coords(a);
            let (bx, by) = field.coords(b);
            if ax == bx || ay == by {
                axis_pairs += 1;
                assert_eq!(ours, oracle, "straight slides are tested exactly");
            }
            visible_count += usize::from(ours);
            stricter += usize::from(oracle && !ours);
        }
    }
    assert!(
        visible_count > 1000 && axis_pairs > 50,
        "{visible_count} {axis_pairs}"
    );
    println!("visible {visible_count}, refused though the sampled sweep was clear {stricter}");
}

#[test]
fn smoothing_keeps_clear_hops_never_adds_nodes_and_ends_at_the_goal() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut search = GridSearch::new();
    let mut totals = [[0usize; 4]; 2];
    let mut paths = 0;
    while paths < 300 {
        let field = random_field(&mut rng, 40, 30, 0.18);
        let footprint = random_footprint(&mut rng);
        let graph = FootprintGraph {
            field: &field,
            footprint,
        };
        let start = rng.random_range(0..40 * 30);
        let goal = rng.random_range(0..40 * 30);
        let Some(path) = search.astar(&graph, start, goal).path else {
            continue;
        };
        if path.len() < 10 {
            continue;
        }
        paths += 1;
        for (m, method) in FarthestSearch::ALL.into_iter().enumerate() {
            let smoothed = smooth(&field, footprint, &path, start, goal, method).unwrap();
            assert_eq!(smoothed.waypoints.first(), Some(&start));
            assert_eq!(smoothed.waypoints.last(), Some(&goal));
            assert!(smoothed.waypoints.len() <= path.len());
            assert!(smoothed.smoothed_turns <= smoothed.raw_turns);
            assert!(smoothed.kept.windows(2).all(|k| k[0] < k[1]));
            for hop in smoothed.waypoints.windows(2) {
                assert!(
                    sweep_is_clear(&field, footprint, hop[0], hop[1]),
                    "{method:?} {footprint:?} hop {:?} -> {:?} is not clear",
                    field.coords(hop[0]),
                    field.coords(hop[1])
                );
            }
            let row = &mut totals[m];
            row[0] += smoothed.raw_nodes;
            row[1] += smoothed.waypoints.len();
            row[2] += smoothed.raw_turns;
            row[3] += smoothed.smoothed_turns;
        }
    }
    // The exact search jumps at least as far each time, so it keeps fewer or as many nodes in sum.
    assert!(totals[1][1] <= totals[0][1], "{totals:?}");
    println!("binary [raw nodes, kept, raw turns, turns] {:?}", totals[0]);
    println!("exact  [raw nodes, kept, raw turns, turns] {:?}", totals[1]);
}

#[test]
fn an_invalid_node_path_is_refused() {
    let field = ObstacleField::open(6, 6);
    let gap = [field.id(0, 0), field.id(2, 0)];
    for method in FarthestSearch::ALL {
        assert_eq!(
            smooth(&field, Footprint::POINT, &gap, gap[0], gap[1], method),
            Err(PathError::NotAdjacent { index: 1 })
        );
        assert_eq!(
            smooth(&field, Footprint::POINT, &gap[..1], gap[0], gap[1], method),
            Err(PathError::WrongGoal)
        );
    }
    assert_eq!(validate_path(&field, &[], 0, 0), Err(PathError::Empty));
}

/// The paper's figure redrawn: `o` marks the A* node path (19 nodes, 10 turns), `#` the walls.
const PAPER_LIKE_MAP: [&str; 11] = [
    "ooo........",
    "..oo#......",
    "...oooo....",
    "......o....",
    "....#.oo...",
    ".......ooo.",
    ".........o.",
    ".......#.o.",
    ".........o.",
    ".........o.",
    "...........",
];
/// The node path's steps from the top-left corner: Right and Down.
const PAPER_LIKE_STEPS: &str = "RRDRDRRRDDRDRRDDDD";

#[test]
fn the_drawn_map_smooths_19_nodes_to_5_and_10_turns_to_4() {
    let field = ObstacleField::from_rows(&PAPER_LIKE_MAP).unwrap();
    let mut at = (0, 0);
    let mut path = vec![field.id(0, 0)];
    for step in PAPER_LIKE_STEPS.chars() {
        at = if step == 'R' {
            (at.0 + 1, at.1)
        } else {
            (at.0, at.1 + 1)
        };
        path.push(field.id(at.0, at.1));
    }
    let marked: usize = PAPER_LIKE_MAP
        .iter()
        .map(|row| row.matches('o').count())
        .sum();
    assert_eq!(marked, path.len(), "the drawing marks the same path");
    for &cell in &path {
        let (x, y) = field.coords(cell);
        assert_eq!(PAPER_LIKE_MAP[y].as_bytes()[x], b'o');
    }
    let (start, goal) = (path[0], path[18]);
    for method in FarthestSearch::ALL {
        let smoothed = smooth(&field, Footprint::POINT, &path, start, goal, method).unwrap();
        assert_eq!(
            (smoothed.raw_nodes, smoothed.waypoints.len()),
            (19, 5),
            "{method:?}"
        );
        assert_eq!(
            (smoothed.raw_turns, smoothed.smoothed_turns),
            (10, 4),
            "{method:?}"
        );
        let corners: Vec<_> = smoothed
            .waypoints
            .iter()
            .map(|&c| field.coords(c))
            .collect();
        assert_eq!(corners, [(0, 0), (3, 2), (6, 3), (9, 7), (9, 9)]);
    }
    assert_eq!(turns(&field, &path), 10);
    // Without the walls the goal is in sight from the start.
    let open = ObstacleField::open(11, 11);
    let direct = smooth(
        &open,
        Footprint::POINT,
        &path,
        start,
        goal,
        FarthestSearch::Exact,
    )
    .unwrap();
    assert_eq!(direct.waypoints, [start, goal]);
}
