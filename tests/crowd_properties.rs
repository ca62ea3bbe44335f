//! Properties of a crowd in the wanderers' sandbox, checked against oracles written here: bodies
//! kept apart (overlaps counted pair by pair, no body more than a quarter covered), never on stone (the area a body shares with
//! blocked cells, summed cell by cell), targets on cells the body fits within the tether, the
//! tether on open ground, plans that never wait past their bound, and a step on every core that
//! gives the very crowd a step on one core gives.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use temple_trails::logic::grid_search::GridSearch;
use temple_trails::logic::runner::timing::SIMULATION_STEP_S;
use temple_trails::logic::wanderers::crowd::{Body, OVERLAP_TOLERANCE};
use temple_trails::logic::wanderers::field::ObstacleField;
use temple_trails::logic::wanderers::reach::Tethered;
use temple_trails::logic::wanderers::sandbox::{
    FootprintMix, MAX_DENSITY, MAX_PLAN_WAIT_S, RouteUpkeep, SETTLING_S, Sandbox, SandboxConfig,
    StepRules, TETHER_MARGIN, field_size_for,
};
use temple_trails::logic::wanderers::smoothing::{FarthestSearch, smooth};
use temple_trails::logic::wanderers::wander::WanderParams;

/// The game's fixed step.
const STEP_S: f32 = SIMULATION_STEP_S as f32;
/// Largest area a body may share with stone: rounding of positions, in square cells.
const STONE_AREA_SLACK: f32 = 0.01;

/// A sandbox of `count` NPCs sized as the game sizes it.
fn sandbox(seed: u64, count: usize, footprints: FootprintMix, density: f64) -> Sandbox {
    let (width, height) = field_size_for(count, footprints, density);
    Sandbox::new(SandboxConfig {
        seed,
        count,
        width,
        height,
        density,
        footprints,
    })
}

/// The area `body` shares with blocked cells and with the outside of the field, cell by cell.
fn area_on_stone(field: &ObstacleField, body: &Body) -> f32 {
    let [x0, y0] = body.min();
    let [x1, y1] = body.max();
    let mut area = 0.0;
    for y in (y0.floor() as i64)..(y1.ceil() as i64) {
        for x in (x0.floor() as i64)..(x1.ceil() as i64) {
            if field.is_blocked(x, y) {
                let across = (x1.min(x as f32 + 1.0) - x0.max(x as f32)).max(0.0);
                let down = (y1.min(y as f32 + 1.0) - y0.max(y as f32)).max(0.0);
                area += across * down;
            }
        }
    }
    area
}

/// Overlapping pairs by brute force over every pair.
fn overlapping_pairs(bodies: &[Body]) -> usize {
    let mut pairs = 0;
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            if a.shared_area(b) > OVERLAP_TOLERANCE * a.area().min(b.area()) {
                pairs += 1;
            }
        }
    }
    pairs
}

/// The largest share of any body's area that others cover, by brute force over every pair.
fn most_covered(bodies: &[Body]) -> f32 {
    let mut covered = vec![0.0f32; bodies.len()];
    for (i, a) in bodies.iter().enumerate() {
        for (j, b) in bodies.iter().enumerate().skip(i + 1) {
            let shared = a.shared_area(b);
            covered[i] += shared;
            covered[j] += shared;
        }
    }
    bodies
        .iter()
        .zip(&covered)
        .map(|(body, &c)| (c / body.area()).min(1.0))
        .fold(0.0, f32::max)
}

/// The most of a body others may cover once a crowd has settled, on stone as on open ground.
const MOST_COVERED: f32 = 0.25;

#[test]
fn crowds_keep_apart_off_stone_with_targets_they_fit() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for case in 0..12 {
        let seed = rng.random_range(0..1_000_000);
        let mix = FootprintMix::ALL[rng.random_range(0..3)];
        let density = rng.random_range(0.0..=MAX_DENSITY);
        let count = rng.random_range(100..400);
        let params = WanderParams {
            wander_max_distance: rng.random_range(2.0..12.0),
            ..WanderParams::default()
        };
        let mut sandbox = sandbox(seed, count, mix, density);
        let context = format!("case {case}: seed {seed}, {mix:?}, {density:.2} stone, {count}");
        for step in 0..400 {
            sandbox.step(&params, STEP_S, &StepRules::default());
            let bodies: Vec<Body> = (0..count).map(|i| sandbox.body(i)).collect();
            for (i, body) in bodies.iter().enumerate() {
                let on_stone = area_on_stone(&sandbox.field, body);
                assert!(
                    on_stone <= STONE_AREA_SLACK,
                    "{context}, step {step}: NPC {i} covers {on_stone} cells of stone"
                );
                let target = sandbox.crowd.target[i];
                let cell = sandbox.cell_at(target);
                assert!(
                    sandbox.field.fits(sandbox.footprints[i], cell)
                        && sandbox.centre(cell) == target,
                    "{context}, step {step}: NPC {i}'s target {target:?} is not a cell it fits"
                );
                let [hx, hy] = sandbox.crowd.home[i];
                assert!(
                    (target[0] - hx).hypot(target[1] - hy) <= params.wander_max_distance,
                    "{context}, step {step}: NPC {i}'s target is off its tether"
                );
            }
            if sandbox.stats.seconds >= SETTLING_S {
                let pairs = overlapping_pairs(&bodies);
                assert!(
                    pairs * 100 < count,
                    "{context}, step {step}: {pairs} overlapping pairs"
                );
                let covered = most_covered(&bodies);
                assert!(
                    covered <= MOST_COVERED,
                    "{context}, step {step}: a body {covered} covered by others"
                );
                let by_grid = sandbox.overlaps();
                assert_eq!(by_grid.pairs, pairs, "the grid's count");
                assert!(
                    (by_grid.max_covered_fraction - covered).abs() < 1e-4,
                    "the grid's cover {} against {covered}",
                    by_grid.max_covered_fraction
                );
            }
        }
        assert!(sandbox.stats.longest_plan_wait_s <= MAX_PLAN_WAIT_S + 1e-9);
    }
}

/// Crowds of thousands, each mix on open ground and on stone up to the densest: once settled, no
/// body is ever more than a quarter covered by others (measured by the grid, which the test above
/// holds to the pair-by-pair oracle). Pushes along the deep axis by half the deep overlap, as they
/// once were, left bodies pressed against stone half covered and fail this.
#[test]
fn no_body_of_a_large_crowd_is_more_than_a_quarter_covered() {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let params = WanderParams::default();
    for case in 0..6 {
        let seed = rng.random_range(0..1_000_000);
        let mix = FootprintMix::ALL[case % 3];
        let density = if case < 3 {
            0.0
        } else {
            rng.random_range(0.25..=MAX_DENSITY)
        };
        let mut sandbox = sandbox(seed, 3_000, mix, density);
        let mut worst = 0.0f32;
        for _ in 0..320 {
            sandbox.step(&params, STEP_S, &StepRules::default());
            if sandbox.stats.seconds >= SETTLING_S {
                worst = worst.max(sandbox.overlaps().max_covered_fraction);
            }
        }
        assert!(
            worst <= MOST_COVERED,
            "case {case}: seed {seed}, {mix:?}, {density:.2} stone: a body {worst} covered"
        );
    }
}

#[test]
fn without_avoidance_bodies_overlap_more() {
    let params = WanderParams::default();
    let mut kept = sandbox(5, 600, FootprintMix::Small, 0.2);
    let mut free = kept.clone();
    let avoid = StepRules::default();
    let walk_through = StepRules {
        avoid: false,
        ..avoid
    };
    let (mut kept_pairs, mut free_pairs) = (0, 0);
    for _ in 0..300 {
        kept.step(&params, STEP_S, &avoid);
        free.step(&params, STEP_S, &walk_through);
        if kept.stats.seconds >= SETTLING_S {
            kept_pairs += kept.overlaps().pairs;
            free_pairs += free.overlaps().pairs;
        }
    }
    assert!(
        free_pairs > 10 * kept_pairs.max(1),
        "{free_pairs} pairs walking through, {kept_pairs} kept apart"
    );
}

#[test]
fn on_open_ground_the_tether_holds_within_its_margin() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for case in 0..8 {
        let params = WanderParams {
            wander_max_distance: rng.random_range(0.5..15.0),
            noise_speed: rng.random_range(0.05..1.5),
            movement_strength: rng.random_range(0.5..12.0),
            ..WanderParams::default()
        };
        let mix = FootprintMix::ALL[case % 3];
        let mut sandbox = sandbox(case as u64, 500, mix, 0.0);
        let mut farthest = 0.0f32;
        for _ in 0..600 {
            sandbox.step(&params, STEP_S, &StepRules::default());
            for i in 0..sandbox.crowd.len() {
                let [px, py] = sandbox.crowd.position[i];
                let [hx, hy] = sandbox.crowd.home[i];
                farthest = farthest.max((px - hx).hypot(py - hy));
            }
        }
        let limit = params.wander_max_distance + TETHER_MARGIN;
        assert!(
            farthest <= limit + 1e-3,
            "case {case}: {farthest} from home, limit {limit} ({params:?})"
        );
        assert_eq!(sandbox.stats.routes, 0, "open ground needs no routes");
    }
}

/// The length of a polyline through cell centres, in cells.
fn length_through(sandbox: &Sandbox, cells: &[usize]) -> f32 {
    cells
        .windows(2)
        .map(|pair| {
            let ([ax, ay], [bx, by]) = (sandbox.centre(pair[0]), sandbox.centre(pair[1]));
            (ax - bx).hypot(ay - by)
        })
        .sum()
}

/// On stone as on open ground, with routes planned afresh or repaired: no NPC strays farther
/// from home than its wander distance and the margin, and every route is a side-step path its
/// body fits all along, inside that distance, smoothed onto its own cells, ending at the cell
/// it was made for, which lies near the NPC's target unless the NPC waits for a new one.
/// (Routes searched without the tether, or repairs that splice a path badly, fail it.)
#[test]
fn on_stone_the_tether_holds_and_every_route_is_walkable() {
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    for case in 0..12 {
        let seed = rng.random_range(0..1_000_000);
        let mix = FootprintMix::ALL[case % 3];
        let density = rng.random_range(0.2..=MAX_DENSITY);
        let routes = RouteUpkeep::ALL[case % 2];
        let params = WanderParams {
            wander_max_distance: rng.random_range(3.0..14.0),
            ..WanderParams::default()
        };
        let rules = StepRules {
            routes,
            ..StepRules::default()
        };
        let context = format!("case {case}: seed {seed}, {mix:?}, {density:.2} stone, {routes:?}");
        let mut sandbox = sandbox(seed, 600, mix, density);
        let limit = params.wander_max_distance + TETHER_MARGIN;
        let field = sandbox.field.clone();
        for step in 0..500 {
            sandbox.step(&params, STEP_S, &rules);
            for i in 0..sandbox.crowd.len() {
                let npc = sandbox.npc(i);
                let [hx, hy] = npc.home;
                let [px, py] = npc.position;
                assert!(
                    (px - hx).hypot(py - hy) <= limit + 1e-3,
                    "{context}, step {step}: NPC {i} strayed to {:?}",
                    npc.position
                );
                let Some(route) = npc.route else { continue };
                for pair in route.raw.windows(2) {
                    let ((ax, ay), (bx, by)) = (field.coords(pair[0]), field.coords(pair[1]));
                    assert_eq!(ax.abs_diff(bx) + ay.abs_diff(by), 1, "{context}: NPC {i}");
                }
                for &cell in &route.raw[1..] {
                    let [cx, cy] = sandbox.centre(cell);
                    assert!(
                        field.fits(npc.footprint, cell),
                        "{context}: NPC {i} on stone"
                    );
                    assert!(
                        (cx - hx).hypot(cy - hy) <= limit,
                        "{context}: NPC {i} off tether"
                    );
                }
                assert_eq!(route.raw.last(), Some(&route.goal), "{context}: NPC {i}");
                let on_own_cells: Vec<usize> = route.kept.iter().map(|&k| route.raw[k]).collect();
                assert_eq!(on_own_cells, route.waypoints, "{context}: NPC {i}");
                let ((gx, gy), (tx, ty)) = (
                    field.coords(route.goal),
                    field.coords(sandbox.cell_at(npc.target)),
                );
                assert!(
                    npc.queued || gx.abs_diff(tx) + gy.abs_diff(ty) <= 3,
                    "{context}, step {step}: NPC {i}'s route ends far from its target"
                );
            }
        }
        let stats = sandbox.stats;
        assert!(stats.routes > 0, "{context}: {stats:?}");
        assert_eq!(
            stats.repairs > 0,
            routes == RouteUpkeep::Repair,
            "{context}"
        );
    }
}

/// Repaired routes are nearly as short as fresh ones: over every route a repairing crowd
/// follows after a few seconds, the smoothed length from its first waypoint is within 3 % of a
/// fresh plan's between the same cells, on the same tethered graph, in total.
#[test]
fn repaired_routes_are_within_three_percent_of_fresh_ones() {
    let params = WanderParams::default();
    let rules = StepRules {
        routes: RouteUpkeep::Repair,
        ..StepRules::default()
    };
    let mut search = GridSearch::new();
    let (mut repaired_length, mut fresh_length, mut compared) = (0.0, 0.0, 0);
    for (seed, mix) in [(4, FootprintMix::Small), (5, FootprintMix::Mixed)] {
        let mut sandbox = sandbox(seed, 3_000, mix, 0.4);
        for step in 0..640 {
            sandbox.step(&params, STEP_S, &rules);
            if step % 64 != 63 {
                continue;
            }
            for i in 0..sandbox.crowd.len() {
                let Some(route) = sandbox.npc(i).route else {
                    continue;
                };
                let (start, goal) = (route.waypoints[0], route.goal);
                let graph = Tethered {
                    reach: sandbox.reach(i),
                    home: sandbox.crowd.home[i],
                    radius: params.wander_max_distance + TETHER_MARGIN,
                };
                let fresh = search
                    .astar(&graph, start, goal)
                    .path
                    .expect("it was reached");
                let footprint = sandbox.footprints[i];
                let fresh = smooth(
                    &sandbox.field,
                    footprint,
                    &fresh,
                    start,
                    goal,
                    FarthestSearch::Binary,
                )
                .unwrap();
                repaired_length += length_through(&sandbox, &route.waypoints);
                fresh_length += length_through(&sandbox, &fresh.waypoints);
                compared += 1;
            }
        }
        assert!(
            sandbox.stats.repairs > sandbox.stats.routes,
            "{:?}",
            sandbox.stats
        );
    }
    let ratio = repaired_length / fresh_length;
    println!(
        "{compared} routes: repaired {repaired_length:.0}, fresh {fresh_length:.0}, {ratio:.4}"
    );
    assert!(compared > 1_000, "{compared}");
    assert!(
        ratio <= 1.03,
        "repaired routes are {ratio} times as long as fresh ones"
    );
}

#[test]
fn a_dense_crowd_on_dense_stone_waits_at_most_the_bound_for_plans() {
    let params = WanderParams::default();
    let mut sandbox = sandbox(8, 3_000, FootprintMix::Small, 0.4);
    let rules = StepRules {
        plan_budget: 4,
        ..StepRules::default()
    };
    for _ in 0..320 {
        sandbox.step(&params, STEP_S, &rules);
    }
    let stats = sandbox.stats;
    assert!(
        stats.plans > 4 * 320,
        "the bound, not the budget, set the pace: {stats:?}"
    );
    assert!(
        stats.longest_plan_wait_s <= MAX_PLAN_WAIT_S + 1e-9,
        "{stats:?}"
    );
    assert!(
        stats.longest_plan_wait_s > MAX_PLAN_WAIT_S / 2.0,
        "{stats:?}"
    );
}

/// NPCs in the crowds stepped on one core and on four: several times the run of bodies the
/// separation applies its pushes in, so every run after the first is compared too.
const MANY_NPCS: usize = 20_000;

#[test]
fn every_core_and_one_core_step_the_same_crowd() {
    let params = WanderParams::default();
    let runs_of_pushes = MANY_NPCS / temple_trails::logic::wanderers::sandbox::APPLY_RUN;
    assert!(runs_of_pushes >= 4, "{runs_of_pushes} runs of pushes");
    for (seed, mix, density, routes) in [
        (1, FootprintMix::Small, 0.0, RouteUpkeep::Replan),
        (2, FootprintMix::Mixed, 0.4, RouteUpkeep::Replan),
        (3, FootprintMix::Points, 0.45, RouteUpkeep::Repair),
    ] {
        let rules = StepRules {
            routes,
            ..StepRules::default()
        };
        let start = sandbox(seed, MANY_NPCS, mix, density);
        let run_on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut crowd = start.clone();
            pool.install(|| {
                for _ in 0..40 {
                    crowd.step(&params, STEP_S, &rules);
                }
            });
            crowd
        };
        let one = run_on(1);
        let four = run_on(4);
        for npc in 0..MANY_NPCS {
            assert_eq!(one.npc(npc), four.npc(npc), "seed {seed}: NPC {npc}");
        }
        assert!(one.plan_queue().eq(four.plan_queue()), "seed {seed}");
        assert_eq!(one.stats, four.stats, "seed {seed}");
        // The crowd moved and pushed: the comparison is of a crowd at work.
        let moved = (0..MANY_NPCS)
            .filter(|&npc| one.npc(npc).position != start.npc(npc).position)
            .count();
        assert!(moved > MANY_NPCS / 2, "seed {seed}: {moved} moved");
        assert!(
            one.stats.routes > 0 || density == 0.0,
            "seed {seed}: {:?}",
            one.stats
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_crowd() {
    let params = WanderParams::default();
    let mut a = sandbox(77, 400, FootprintMix::Mixed, 0.3);
    let mut b = sandbox(77, 400, FootprintMix::Mixed, 0.3);
    let mut other = sandbox(78, 400, FootprintMix::Mixed, 0.3);
    for _ in 0..200 {
        for s in [&mut a, &mut b, &mut other] {
            s.step(&params, STEP_S, &StepRules::default());
        }
    }
    assert_eq!(a.crowd.position, b.crowd.position);
    assert_ne!(a.crowd.position, other.crowd.position);
}
