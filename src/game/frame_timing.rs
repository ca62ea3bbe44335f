//! `--measure-frames N`: after the `--frames` warm-up, render N more frames with the fixed time
//! step of `--screenshot`, print the mean wall-clock time per frame and exit. The frame-time
//! benchmark (`benches/frames.sh`) reads that line for each scene.

use bevy::prelude::*;
use std::io::Write;
use std::time::Instant;

/// A measurement of frame times to make, and then exit.
#[derive(Resource, Debug, Clone, Copy)]
pub struct FrameTimingPlan {
    /// Frames rendered before timing starts: loading, first uploads, the scene settling.
    pub warmup: u32,
    /// Frames timed.
    pub frames: u32,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, time_frames.run_if(resource_exists::<FrameTimingPlan>));
}

/// The line printed for a measurement: `frame_ms <mean milliseconds per frame>`.
pub fn report_line(mean_ms: f64) -> String {
    format!("frame_ms {mean_ms:.3}")
}

fn time_frames(
    plan: Res<FrameTimingPlan>,
    mut frames_seen: Local<u32>,
    mut started: Local<Option<Instant>>,
    mut exit: MessageWriter<AppExit>,
) {
    *frames_seen += 1;
    if *frames_seen == plan.warmup {
        *started = Some(Instant::now());
    } else if *frames_seen == plan.warmup + plan.frames {
        let Some(start) = *started else {
            return;
        };
        let mean_ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(plan.frames);
        // Nothing is lost if nobody reads it.
        let _ = writeln!(std::io::stdout(), "{}", report_line(mean_ms));
        exit.write(AppExit::Success);
    }
}
