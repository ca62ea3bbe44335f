//! Properties of tethered wandering: NPCs stay near home however long they run, different NPCs
//! move differently, and the same seed gives the same crowd.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use temple_trails::logic::wanderers::wander::{WanderParams, Wanderers};

/// Steps of the long tether property.
const LONG_RUN_STEPS: usize = 100_000;

fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

#[test]
fn wanderers_stay_tethered_over_a_hundred_thousand_steps() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for set in 0..12 {
        let params = WanderParams {
            wander_max_distance: rng.random_range(0.5..30.0),
            noise_speed: rng.random_range(0.01..3.0),
            movement_strength: rng.random_range(0.1..20.0),
            arrive_radius: rng.random_range(0.05..5.0),
            refresh_every: rng.random_range(1..8),
        };
        let dt = rng.random_range(0.005..0.1);
        let mut crowd = Wanderers::scattered(set, 16, 500.0, 500.0);
        let mut farthest = 0.0f32;
        for _ in 0..LONG_RUN_STEPS {
            crowd.step(&params, dt);
            for i in 0..crowd.len() {
                farthest = farthest.max(distance(crowd.position[i], crowd.home[i]));
            }
        }
        // The target never leaves the disk and the NPC moves straight toward it without
        // overshooting, so it never leaves the disk either (up to rounding).
        assert!(
            farthest <= params.wander_max_distance * (1.0 + 1e-4) + 1e-4,
            "set {set}: {farthest} from home with {params:?}"
        );
        assert!(
            farthest > params.wander_max_distance * 0.2,
            "set {set} barely moved"
        );
    }
}

/// Mean distance between two NPCs' offsets from their homes over a run.
fn path_difference(a: &[[f32; 2]], b: &[[f32; 2]]) -> f32 {
    a.iter().zip(b).map(|(p, q)| distance(*p, *q)).sum::<f32>() / a.len() as f32
}

#[test]
fn different_npcs_move_differently_even_from_one_home() {
    let params = WanderParams::default();
    // Every NPC starts from the same home: only their own noise offsets tell them apart.
    let mut crowd = Wanderers::new(5, vec![[50.0, 50.0]; 8]);
    let mut offsets = vec![Vec::new(); crowd.len()];
    for _ in 0..2_000 {
        crowd.step(&params, 0.05);
        for (i, trail) in offsets.iter_mut().enumerate() {
            trail.push([crowd.position[i][0] - 50.0, crowd.position[i][1] - 50.0]);
        }
    }
    for i in 0..offsets.len() {
        for j in i + 1..offsets.len() {
            let difference = path_difference(&offsets[i], &offsets[j]);
            assert!(
                difference > 1.0,
                "NPCs {i} and {j} differ by only {difference}"
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_crowd_and_another_seed_another() {
    let params = WanderParams {
        refresh_every: 3,
        ..WanderParams::default()
    };
    let run = |seed: u64| {
        let mut crowd = Wanderers::scattered(seed, 50, 200.0, 200.0);
        for _ in 0..500 {
            crowd.step(&params, 1.0 / 60.0);
        }
        (crowd.home.clone(), crowd.position.clone())
    };
    assert_eq!(run(8), run(8));
    let (homes_a, _) = run(8);
    let (homes_b, _) = run(9);
    assert_ne!(homes_a, homes_b);
}
