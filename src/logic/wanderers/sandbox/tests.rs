//! Unit tests of the sandbox: homes, stone, the field's size, plans and their budget.

use super::*;
use crate::logic::wanderers::smoothing::FarthestSearch;
use bodies::OPEN_CELLS_PER_BODY_CELL;

fn rules(plan_budget: usize, search: FarthestSearch) -> StepRules {
    StepRules {
        plan_budget,
        search,
        avoid: true,
        routes: RouteUpkeep::Repair,
    }
}

fn config(count: usize, density: f64) -> SandboxConfig {
    SandboxConfig {
        seed: 21,
        count,
        width: 80,
        height: 60,
        density,
        footprints: FootprintMix::Small,
    }
}

/// Homes are drawn so that no two bodies overlap while there is room (a sandbox's field has
/// six open cells per body cell); on a field too small for that, every NPC still gets a
/// home its body fits. (Drawing homes without looking at the others fails the first part.)
#[test]
fn homes_are_drawn_apart_while_there_is_room() {
    for footprints in [FootprintMix::Small, FootprintMix::Mixed] {
        for density in [0.0, 0.3] {
            let count = 2_000;
            let (width, height) = field_size_for(count, footprints, density);
            let sandbox = Sandbox::new(SandboxConfig {
                seed: 8,
                count,
                width,
                height,
                density,
                footprints,
            });
            let mut grid = SpatialGrid::default();
            let homes: Vec<Body> = (0..count)
                .map(|i| Body::new(sandbox.footprints[i], sandbox.crowd.home[i]))
                .collect();
            grid.build(&homes, width, height, 0.0);
            let overlaps = measure_overlaps(&grid);
            assert_eq!(
                overlaps.max_covered_fraction, 0.0,
                "{footprints:?} on {density} stone"
            );
        }
    }
    // Too many for the field: homes overlap, but each body fits its home.
    let crowded = Sandbox::new(config(3_000, 0.3));
    assert!((0..crowded.crowd.len()).all(|i| {
        let home = crowded.cell_at(crowded.crowd.home[i]);
        crowded.field.fits(crowded.footprints[i], home)
    }));
}

#[test]
fn npcs_start_where_they_fit_and_never_stand_in_stone() {
    let params = WanderParams::default();
    let mut sandbox = Sandbox::new(config(300, 0.3));
    for step in 0..2_000 {
        sandbox.step(&params, 1.0 / 30.0, &rules(20, FarthestSearch::Binary));
        for i in 0..sandbox.crowd.len() {
            let cell = sandbox.cell_at(sandbox.crowd.position[i]);
            assert!(
                sandbox.field.fits(sandbox.footprints[i], cell),
                "step {step}: NPC {i} ({:?}) stands in stone at {:?}",
                sandbox.footprints[i],
                sandbox.field.coords(cell)
            );
        }
    }
    let stats = sandbox.stats;
    assert!(stats.routes > 50, "{stats:?}");
    assert!(stats.smoothed_waypoints < stats.raw_waypoints, "{stats:?}");
}

#[test]
fn plans_past_the_budget_are_only_for_npcs_that_would_wait_too_long() {
    let params = WanderParams::default();
    let dt = 1.0 / 30.0;
    let mut sandbox = Sandbox::new(config(500, 0.35));
    let mut before = 0;
    let mut over_budget = 0;
    for _ in 0..300 {
        sandbox.step(&params, dt, &rules(3, FarthestSearch::Exact));
        let made = sandbox.stats.plans - before;
        let longest = sandbox.take_longest_plan_wait();
        if made > 3 {
            over_budget += 1;
            // Only NPCs whose next step would take them past the bound.
            assert!(
                longest + f64::from(dt) > MAX_PLAN_WAIT_S,
                "{made} plans, longest wait {longest}"
            );
        }
        before = sandbox.stats.plans;
    }
    assert!(sandbox.stats.plans > 0);
    assert!(over_budget > 0, "three plans a step should not keep up");
    assert!(sandbox.stats.longest_plan_wait_s <= MAX_PLAN_WAIT_S + 1e-9);
}

#[test]
fn the_field_grows_with_the_crowd_its_bodies_and_the_stone() {
    assert_eq!(
        field_size_for(1, FootprintMix::Mixed, MAX_DENSITY),
        (192, 108)
    );
    assert_eq!(field_size_for(1_000, FootprintMix::Small, 0.0), (192, 108));
    for (mix, density) in [
        (FootprintMix::Points, 0.0),
        (FootprintMix::Small, 0.4),
        (FootprintMix::Mixed, 0.2),
    ] {
        let (width, height) = field_size_for(20_000, mix, density);
        let open = (width * height) as f64 * (1.0 - density);
        let bodies = 20_000.0 * mix.mean_area();
        let ratio = open / bodies;
        assert!(
            (OPEN_CELLS_PER_BODY_CELL..OPEN_CELLS_PER_BODY_CELL * 1.01).contains(&ratio),
            "{mix:?} at {density}: {width} x {height}, {ratio} open cells per body cell"
        );
        let shape = width as f64 / height as f64;
        assert!((shape - 192.0 / 108.0).abs() < 0.01, "{width} x {height}");
    }
    assert_eq!(FootprintMix::Small.mean_area(), 2.25);
}

#[test]
fn on_an_open_field_nobody_needs_a_plan() {
    let params = WanderParams::default();
    let mut sandbox = Sandbox::new(config(100, 0.0));
    for _ in 0..1_000 {
        sandbox.step(&params, 1.0 / 30.0, &rules(10, FarthestSearch::Binary));
    }
    assert_eq!(sandbox.stats.routes, 0, "{:?}", sandbox.stats);
    let moved = (0..100)
        .filter(|&i| sandbox.crowd.position[i] != sandbox.crowd.home[i])
        .count();
    assert!(moved > 90);
}
