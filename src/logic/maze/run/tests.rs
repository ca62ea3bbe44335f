//! Unit tests of a maze run: walls and the trail, efficiency, the system walk, the torch, hints,
//! clicks, guardians and shrines, the fingerprint and walks planned once.

use super::*;
use crate::logic::maze::Algorithm;

fn small_run() -> MazeRun {
    let spec = MazeSpec {
        width: 6,
        height: 4,
        algorithm: Algorithm::Prim,
        braid: 0.0,
        seed: 11,
    };
    MazeRun::new(MazeSetup::first_level(spec, Difficulty::Easy), false).unwrap()
}

/// Every cell from the start to the exit along the shortest path.
fn shortest_path(run: &MazeRun) -> Vec<usize> {
    GridSearch::new()
        .astar(&run.maze, run.maze.start(), run.maze.goal())
        .path
        .unwrap()
}

#[test]
fn walls_stop_the_player_and_open_passages_grow_the_trail() {
    let mut run = small_run();
    for direction in Direction::ALL {
        let open = run.maze.is_open(run.player, direction);
        let left = run.step(direction);
        assert_eq!(left.is_some(), open, "{direction:?}");
        if open {
            break;
        }
    }
    assert_eq!(run.moves, 1);
    assert_eq!(run.trail.len(), 2);
    assert_ne!(run.player, run.maze.start());
    // The north and west of the start are the outer wall.
    let mut at_start = small_run();
    assert_eq!(at_start.step(Direction::North), None);
    assert_eq!(at_start.step(Direction::West), None);
    assert_eq!(at_start.moves, 0);
}

#[test]
fn walking_the_shortest_path_finishes_once_at_full_efficiency() {
    let mut run = small_run();
    let path = shortest_path(&run);
    assert_eq!(path.len() - 1, run.optimal_moves);
    for &cell in &path[1..] {
        assert!(!run.finish_at_exit(), "not at the exit yet");
        let left = run.player;
        assert_eq!(run.step_to(cell), Some(left));
    }
    assert!(run.finish_at_exit());
    assert!(!run.finish_at_exit(), "a run finishes once");
    assert!((run.efficiency_percent() - 100.0).abs() < 1e-9);
    // After the exit nothing moves and the clock stands still.
    let back = path[path.len() - 2];
    assert_eq!(run.step_to(back), None);
    assert!(!run.step_tick([MazeInput::Step(Direction::North)], &mut Vec::new()));
    assert_eq!(run.ticks, 0);
}

#[test]
fn the_system_walk_steps_every_few_ticks_to_the_exit_and_the_clock_counts_ticks() {
    let mut run = small_run();
    let mut stepped = Vec::new();
    let mut won_at = None;
    let mut tick = 0;
    while won_at.is_none() && tick < 10_000 {
        let inputs = if tick == 0 {
            vec![MazeInput::SystemWalk(true)]
        } else {
            Vec::new()
        };
        if run.step_tick(inputs, &mut stepped) {
            won_at = Some(run.ticks);
        }
        tick += 1;
    }
    assert_eq!(won_at, Some(SYSTEM_WALK_TICKS * run.optimal_moves as u64));
    assert_eq!(stepped.len(), run.optimal_moves);
    assert_eq!(
        stepped.last(),
        Some(&MazeEvent::Stepped {
            from: shortest_path(&run)[run.optimal_moves - 1],
            to: run.maze.goal()
        })
    );
    assert!(run.assisted && run.finished);
    assert_eq!(run.seconds(), run.ticks as f64 / 64.0);
}

#[test]
fn a_step_input_takes_control_back_and_hints_are_counted() {
    let mut run = small_run();
    let open = Direction::ALL
        .into_iter()
        .find(|&d| run.maze.is_open(run.player, d))
        .unwrap();
    let mut stepped = Vec::new();
    run.step_tick([MazeInput::SystemWalk(true), MazeInput::Hint], &mut stepped);
    run.step_tick([MazeInput::Step(open)], &mut stepped);
    assert!(!run.system_walk && run.assisted);
    assert_eq!((run.hints_used, run.moves, stepped.len()), (1, 1, 1));
}

#[test]
fn detours_lower_the_efficiency() {
    let mut run = small_run();
    let first = shortest_path(&run)[1];
    run.step_to(first).unwrap();
    run.step_to(run.maze.start()).unwrap();
    // Two moves wasted on top of the optimal route.
    let expected = 100.0 * run.optimal_moves as f64 / (run.optimal_moves + 2) as f64;
    run.moves += run.optimal_moves as u32;
    assert!((run.efficiency_percent() - expected).abs() < 1e-9);
}

#[test]
fn a_system_walk_makes_the_run_assisted_for_good() {
    let mut run = small_run();
    assert!(!run.assisted);
    run.set_system_walk(true);
    run.set_system_walk(false);
    assert!(run.assisted && !run.system_walk);
    assert!(MazeRun::new(run.setup, true).unwrap().assisted);
}

#[test]
fn step_to_refuses_cells_that_are_not_open_neighbours() {
    let mut run = small_run();
    let far = run.maze.goal();
    assert_eq!(run.step_to(far), None);
    assert_eq!(run.moves, 0);
}

fn run_at(difficulty: Difficulty, side: usize, seed: u64) -> MazeRun {
    let spec = MazeSpec {
        width: side,
        height: side,
        algorithm: Algorithm::Backtracker,
        braid: 0.0,
        seed,
    };
    MazeRun::new(MazeSetup::first_level(spec, difficulty), false).unwrap()
}

#[test]
fn the_torch_lights_around_the_player_and_the_seen_cells_stay_seen() {
    let easy = run_at(Difficulty::Easy, 15, 3);
    assert!((0..easy.maze.cell_count()).all(|c| easy.is_lit(c) && easy.is_seen(c)));
    let mut run = run_at(Difficulty::Normal, 15, 3);
    assert!(run.is_lit(run.player) && run.is_seen(run.player));
    assert!(
        !run.is_seen(run.maze.goal()),
        "the exit is far out of the torch's reach"
    );
    let lit_at_start = run.lit().to_vec();
    for &cell in &shortest_path(&run)[1..8] {
        run.step_to(cell).unwrap();
    }
    assert!(lit_at_start.iter().all(|&c| run.is_seen(c)));
    assert!(
        lit_at_start.iter().any(|&c| !run.is_lit(c)),
        "the torch moved on"
    );
}

#[test]
fn hints_cost_time_by_difficulty() {
    for (difficulty, cost) in [
        (Difficulty::Easy, 0.0),
        (Difficulty::Normal, 10.0),
        (Difficulty::Hard, 30.0),
    ] {
        let mut run = run_at(difficulty, 8, 1);
        for _ in 0..64 {
            run.step_tick([MazeInput::Hint], &mut Vec::new());
        }
        assert_eq!(run.hints_used, 64);
        assert_eq!(run.total_seconds(), 1.0 + 64.0 * cost, "{difficulty:?}");
    }
}

#[test]
fn a_click_walks_through_seen_cells_and_unseen_cells_are_ignored() {
    let mut run = run_at(Difficulty::Normal, 15, 3);
    let goal = run.maze.goal();
    run.step_tick([MazeInput::WalkTo(goal)], &mut Vec::new());
    assert_eq!(run.walk_target, None, "the exit has not been seen");
    let target = *run
        .lit()
        .iter()
        .max_by_key(|&&c| run.maze.coords(c))
        .unwrap();
    let mut events = Vec::new();
    run.step_tick([MazeInput::WalkTo(target)], &mut events);
    for _ in 0..64 * 20 {
        run.step_tick([], &mut events);
    }
    assert_eq!((run.player, run.walk_target), (target, None));
    assert!(run.trail.iter().all(|&c| run.is_seen(c)));
    assert!(
        !run.assisted,
        "walking to a clicked cell is the player's own walk"
    );
    // A key takes control back at once.
    let mut run = run_at(Difficulty::Normal, 15, 3);
    run.step_tick([MazeInput::WalkTo(target)], &mut Vec::new());
    run.step_tick([MazeInput::Hint], &mut Vec::new());
    let back = Direction::ALL
        .into_iter()
        .find(|&d| run.maze.is_open(run.player, d))
        .unwrap();
    run.step_tick([MazeInput::Step(back)], &mut Vec::new());
    assert_eq!(run.walk_target, None);
}

#[test]
fn a_guardians_touch_sends_the_player_back_to_the_last_shrine() {
    let mut run = run_at(Difficulty::Hard, 21, 4);
    assert!(!run.guardians.is_empty() && run.shrines.len() == 3);
    let path = shortest_path(&run);
    let second_shrine = path.iter().position(|&c| c == run.shrines[1]).unwrap();
    for &cell in &path[1..=second_shrine + 2] {
        run.step_to(cell).unwrap();
    }
    assert_eq!(run.last_shrine, run.shrines[1]);
    // A guardian steps into the player's way.
    let ahead = path[second_shrine + 3];
    let guardian = &mut run.guardians.guardians[0];
    (guardian.at, guardian.next, guardian.progress) = (ahead, None, 0.0);
    let direction = Direction::ALL
        .into_iter()
        .find(|&d| run.maze.neighbour(run.player, d) == Some(ahead))
        .unwrap();
    let trail_before = run.trail.len();
    let mut events = Vec::new();
    run.step_tick([MazeInput::Step(direction)], &mut events);
    assert_eq!(run.player, run.shrines[1]);
    assert_eq!(run.catches, 1);
    assert!(events.contains(&MazeEvent::Caught {
        at: ahead,
        shrine: run.shrines[1],
        trail_from: trail_before,
    }));
    // The trail shows where it happened and the way back, three steps along the route.
    assert_eq!(
        &run.trail[trail_before..],
        &path[second_shrine..=second_shrine + 3]
            .iter()
            .rev()
            .copied()
            .collect::<Vec<_>>()[..]
    );
}

/// The seen cell farthest from the player through seen cells, and how far it is.
fn farthest_seen_cell(run: &MazeRun) -> (usize, usize) {
    let seen = Region {
        maze: &run.maze,
        allowed: |cell| run.is_seen(cell),
    };
    let mut search = GridSearch::new();
    (0..run.maze.cell_count())
        .filter(|&cell| run.is_seen(cell))
        .filter_map(|cell| Some((cell, search.astar(&seen, run.player, cell).steps()?)))
        .max_by_key(|&(cell, steps)| (steps, cell))
        .unwrap()
}

#[test]
fn every_part_of_the_state_moves_the_fingerprint() {
    let mut run = run_at(Difficulty::Hard, 21, 4);
    // Eight steps along the way out, then a click back to the start.
    for &cell in &shortest_path(&run)[1..9] {
        run.step_to(cell).unwrap();
    }
    run.step_tick([MazeInput::WalkTo(run.maze.start())], &mut Vec::new());
    for _ in 0..SYSTEM_WALK_TICKS {
        run.step_tick([], &mut Vec::new());
    }
    assert!(run.walk_target.is_some() && !run.click_route.is_empty());
    let unseen = (0..run.maze.cell_count())
        .find(|&c| !run.is_seen(c))
        .unwrap();
    type Change = (&'static str, fn(&mut MazeRun, usize));
    let changes: [Change; 20] = [
        ("the maze", |run, _| run.maze_fingerprint ^= 1),
        ("the player", |run, _| run.player = run.maze.goal()),
        ("the trail", |run, _| run.extend_trail(&[run.player])),
        ("one cell of the trail", |run, _| {
            // The same length, another cell: only the cells' fingerprint tells.
            let last = *run.trail.last().unwrap();
            let cells = run.trail.clone();
            run.trail.clear();
            run.trail_hash = Fnv1a::new().finish();
            run.extend_trail(&cells[..cells.len() - 1]);
            run.extend_trail(&[last ^ 1]);
        }),
        ("a cell seen", |run, unseen| run.see(unseen)),
        ("the moves", |run, _| run.moves += 1),
        ("the hints", |run, _| run.hints_used += 1),
        ("the clock", |run, _| run.ticks += 1),
        ("the walk's pace", |run, _| run.since_system_step += 1),
        ("the system walk", |run, _| run.system_walk = true),
        ("the help taken", |run, _| run.assisted = true),
        ("the exit reached", |run, _| run.finished = true),
        ("the clicked cell", |run, _| {
            run.walk_target = Some(run.maze.goal())
        }),
        ("the way to it", |run, _| {
            run.click_route.pop();
        }),
        ("the way's plan", |run, _| run.click_route_hash ^= 1),
        ("when it was planned", |run, _| run.click_route_seen += 1),
        ("the last shrine", |run, _| run.last_shrine = run.shrines[1]),
        ("the catches", |run, _| run.catches += 1),
        ("a guardian's cell", |run, _| {
            let guardian = &mut run.guardians.guardians[0];
            guardian.at = guardian.reach()[1];
        }),
        ("a guardian's pace", |run, _| {
            run.guardians.guardians[0].progress += 0.125;
        }),
    ];
    let mut prints = vec![run.fingerprint()];
    for (part, change) in changes {
        let mut changed = run.clone();
        change(&mut changed, unseen);
        let print = changed.fingerprint();
        assert!(
            !prints.contains(&print),
            "changing {part} left the fingerprint"
        );
        prints.push(print);
    }
}

#[test]
fn walks_follow_a_way_planned_once() {
    // A 200x200 perfect maze walked by the system from the start: its way is planned once,
    // and every step follows it to the exit along the shortest route.
    let mut run = run_at(Difficulty::Normal, 200, 9);
    let route = run.route_to_exit().unwrap();
    assert_eq!(route.len() - 1, run.optimal_moves);
    run.step_tick([MazeInput::SystemWalk(true)], &mut Vec::new());
    while !run.finished {
        run.step_tick([], &mut Vec::new());
    }
    assert_eq!(run.trail(), &route[..]);
    // In a braided maze the click walk takes a way through seen cells that is as short as
    // any, planned again as more cells are seen.
    let spec = MazeSpec {
        width: 30,
        height: 30,
        algorithm: Algorithm::Backtracker,
        braid: 1.0,
        seed: 5,
    };
    let mut run = MazeRun::new(MazeSetup::first_level(spec, Difficulty::Normal), false).unwrap();
    assert!(run.has_loops);
    let (target, shortest) = farthest_seen_cell(&run);
    run.step_tick([MazeInput::WalkTo(target)], &mut Vec::new());
    while run.walk_target.is_some() {
        run.step_tick([], &mut Vec::new());
    }
    assert_eq!(run.player, target);
    assert!(run.moves as usize <= shortest, "{} > {shortest}", run.moves);
}
