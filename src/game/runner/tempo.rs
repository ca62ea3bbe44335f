//! The runner's music quickens as the runner speeds up: from as composed at the start speed to
//! [`TOP_SPEED_TEMPO`] at the difficulty's top speed.

use super::rules::RunnerRun;
use crate::game::music::MusicTempo;
use crate::game::screens::AppSystems;
use crate::logic::runner::timing::Timing;
use bevy::prelude::*;

/// The music's playback speed at the top speed (1.0 at the start speed).
pub const TOP_SPEED_TEMPO: f32 = 1.12;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        follow_speed
            .in_set(AppSystems::Update)
            .run_if(in_state(super::SCREEN).and_then(resource_exists::<RunnerRun>)),
    );
}

/// The music's tempo at `distance_m` metres into a run under `timing`.
pub fn tempo_at(timing: &Timing, distance_m: f64) -> f32 {
    let span = timing.max_speed_mps - timing.start_speed_mps;
    let gained = (timing.speed_at(distance_m) - timing.start_speed_mps) / span;
    1.0 + (TOP_SPEED_TEMPO - 1.0) * gained.clamp(0.0, 1.0) as f32
}

fn follow_speed(run: Res<RunnerRun>, mut tempo: ResMut<MusicTempo>) {
    tempo.set_if_neq(MusicTempo(tempo_at(
        run.sim.track.timing(),
        run.sim.body.distance_m,
    )));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::difficulty::Difficulty;

    #[test]
    fn the_tempo_rises_with_speed_from_one_to_the_top() {
        for difficulty in Difficulty::ALL {
            let timing = Timing::for_difficulty(difficulty);
            assert_eq!(tempo_at(&timing, 0.0), 1.0);
            let halfway = tempo_at(&timing, 500.0);
            assert!(halfway > 1.0 && halfway < TOP_SPEED_TEMPO, "{halfway}");
            assert_eq!(tempo_at(&timing, 1.0e7), TOP_SPEED_TEMPO);
        }
    }
}
