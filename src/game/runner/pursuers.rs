//! The temple guardians who chase the runner: unseen while the runner runs clean, close behind
//! just after a stumble and falling back as the stumble window runs out, and on the runner when
//! a second stumble lets them catch it.

use super::layout::{TrackLayout, lane_offset};
use super::palette::Palette;
use super::rules::{RunnerRun, start_run};
use crate::game::screens::{AppSystems, Screen};
use crate::logic::runner::body::Crash;
use bevy::prelude::*;
use std::f32::consts::FRAC_PI_2;

/// How far behind the runner the guardians are just after a stumble, in metres: on the runner's
/// heels, well inside the view (the camera shows about 4.5 m behind the runner).
const NEAR_GAP_M: f64 = 1.5;
/// How far behind they are as the stumble window ends, in metres: dropping out of the view.
const FAR_GAP_M: f64 = 6.0;
/// How far behind they are once they have caught the runner, in metres.
const CAUGHT_GAP_M: f64 = 0.6;
/// Where each guardian runs across the track, in lanes from the runner.
pub(super) const ACROSS_LANES: [f32; 2] = [-0.45, 0.45];
/// How fast the guardians' bodies sway as they run, in radians per second.
pub(super) const SWAY_RATE: f32 = 11.0;
/// A red glow around each guardian, so they stand out on the path and the jungle alike.
pub(super) const GUARDIAN_GLOW: Color = Color::srgba(0.85, 0.15, 0.08, 0.35);
pub(super) const GUARDIAN_BODY: Color = Color::srgb(0.32, 0.30, 0.27);
pub(super) const GUARDIAN_MASK: Color = Color::srgb(0.55, 0.47, 0.30);
pub(super) const GUARDIAN_EYES: Color = Color::srgb(1.0, 0.55, 0.10);
/// Under the runner (at 5), above the track and its obstacles.
const GUARDIAN_Z: f32 = 4.5;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::draws(app) {
        return;
    }
    app.add_systems(OnEnter(Screen::Runner), spawn_guardians.after(start_run))
        .add_systems(
            Update,
            chase.in_set(AppSystems::Present).run_if(
                in_state(Screen::Runner)
                    .and_then(resource_exists::<RunnerRun>)
                    .and_then(resource_exists::<TrackLayout>),
            ),
        );
}

/// One drawn guardian, with its place across the track in lanes from the runner.
#[derive(Component, Debug)]
struct Guardian {
    across_lanes: f32,
}

fn spawn_guardians(mut commands: Commands, mut palette: Palette) {
    for across_lanes in ACROSS_LANES {
        commands.spawn((
            Name::new("Guardian"),
            Guardian { across_lanes },
            Transform::from_xyz(0.0, 0.0, GUARDIAN_Z),
            Visibility::Hidden,
            DespawnOnExit(Screen::Runner),
            children![
                (
                    palette.circle(1.5, GUARDIAN_GLOW),
                    Transform::from_xyz(0.0, 0.0, -0.1),
                ),
                (palette.circle(1.0, GUARDIAN_BODY), Transform::default()),
                (
                    palette.circle(0.55, GUARDIAN_MASK),
                    Transform::from_xyz(0.0, 0.3, 0.1),
                ),
                (
                    palette.circle(0.16, GUARDIAN_EYES),
                    Transform::from_xyz(-0.22, 0.45, 0.2),
                ),
                (
                    palette.circle(0.16, GUARDIAN_EYES),
                    Transform::from_xyz(0.22, 0.45, 0.2),
                ),
            ],
        ));
    }
}

/// How far behind the runner the guardians are drawn, in metres, or `None` when they are out of
/// sight.
pub(super) fn gap_behind_m(run: &RunnerRun) -> Option<f64> {
    if run.sim.body.crash == Some(Crash::Caught) {
        return Some(CAUGHT_GAP_M);
    }
    let pursuit = run.sim.body.pursuit();
    (pursuit > 0.0).then_some(FAR_GAP_M + (NEAR_GAP_M - FAR_GAP_M) * pursuit)
}

fn chase(
    time: Res<Time>,
    run: Res<RunnerRun>,
    layout: Res<TrackLayout>,
    mut guardians: Query<(&mut Transform, &mut Visibility, &Guardian)>,
) {
    let gap = gap_behind_m(&run);
    let sway = (time.elapsed_secs() * SWAY_RATE).sin() * 0.12;
    for (mut transform, mut visibility, guardian) in &mut guardians {
        let lanes = run.sim.body.lateral_lanes() as f32 + guardian.across_lanes;
        let place = gap.and_then(|gap| {
            let distance = (run.sim.body.distance_m - gap).max(0.0);
            layout.track_point(distance, lane_offset(lanes))
        });
        let Some((point, quarter)) = place else {
            *visibility = Visibility::Hidden;
            continue;
        };
        *visibility = Visibility::Inherited;
        transform.translation = point.extend(GUARDIAN_Z);
        let heading = quarter as f32 * FRAC_PI_2;
        transform.rotation = Quat::from_rotation_z(heading + sway * guardian.across_lanes.signum());
    }
}
