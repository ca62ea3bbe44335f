//! `--screenshot FILE --frames N`: render N frames with a fixed time step, save the window as a
//! PNG and exit. This is how tests, reviewers and developers see the game without a player.

use crate::game::menu::PauseOnFocusLoss;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use std::path::PathBuf;

/// Frames to wait after the capture was asked for before giving up (the GPU answers in a few).
const CAPTURE_TIMEOUT_FRAMES: u32 = 600;

/// A screenshot to take, and then exit.
#[derive(Resource, Debug, Clone)]
pub struct ScreenshotPlan {
    /// Where to write the PNG.
    pub path: PathBuf,
    /// How many frames to render first.
    pub frames: u32,
}

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    app.add_systems(
        Startup,
        // Nobody is there to come back to a pause menu.
        (|mut pause: ResMut<PauseOnFocusLoss>| pause.0 = false)
            .run_if(resource_exists::<ScreenshotPlan>),
    )
    .add_systems(
        Last,
        count_frames_and_capture.run_if(resource_exists::<ScreenshotPlan>),
    );
}

fn count_frames_and_capture(
    mut commands: Commands,
    plan: Res<ScreenshotPlan>,
    mut frames_rendered: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    *frames_rendered += 1;
    if *frames_rendered == plan.frames {
        let path = plan.path.clone();
        commands
            .spawn((Name::new("Screenshot"), Screenshot::primary_window()))
            .observe(
                move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                    exit.write(save_png(&captured.image, &path));
                },
            );
    } else if *frames_rendered == plan.frames + CAPTURE_TIMEOUT_FRAMES {
        error!("The screenshot was never captured");
        exit.write(AppExit::error());
    }
}

/// Writes the captured frame as an RGB PNG and says how the app should exit.
fn save_png(image: &Image, path: &std::path::Path) -> AppExit {
    let rgb = match image.clone().try_into_dynamic() {
        Ok(dynamic) => dynamic.to_rgb8(),
        Err(err) => {
            error!("Cannot convert the screenshot: {err}");
            return AppExit::error();
        }
    };
    match rgb.save_with_format(path, image::ImageFormat::Png) {
        Ok(()) => {
            info!("Screenshot saved to {}", path.display());
            AppExit::Success
        }
        Err(err) => {
            error!("Cannot save the screenshot to {}: {err}", path.display());
            AppExit::error()
        }
    }
}
