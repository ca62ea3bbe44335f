//! The maze's first-run tips: in a dark maze the torch is pointed out first, then the hint
//! with its key and what it costs at the run's difficulty. A tip stays for the player's first
//! [`TIP_STEPS`] steps with it (the hint's goes as soon as a hint is asked for) and is then kept
//! as seen in the maze's settings. Watched records show none; the settings' row turns them off.

use super::controls::MazeAction;
use super::generation::{CurrentMaze, start_maze};
use super::hint::MazeHint;
use super::options::{MazeLesson, MazeOptions};
use super::view::MazePlayer;
use super::walk::PlayerStepped;
use crate::game::controls::{Device, LastDevice, bindings_named};
use crate::game::records::Watching;
use crate::game::screens::{AppSystems, PausableSystems};
use crate::game::theme::widgets::{TipPlace, hud_tip};
use crate::logic::guidance::Guidance;
use crate::logic::maze::run::MazeRun;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::InputMap;

/// How many steps the player takes with a tip on screen before it counts as seen.
pub const TIP_STEPS: u32 = 25;

pub(super) fn plugin(app: &mut App) {
    let playing = in_state(super::SCREEN).and_then(resource_exists::<CurrentMaze>);
    app.init_resource::<MazeTips>()
        .add_systems(OnEnter(super::SCREEN), start_tips.after(start_maze))
        .add_systems(
            Update,
            follow_tips
                .in_set(AppSystems::Update)
                .in_set(PausableSystems)
                .run_if(playing),
        );
    if crate::game::screens::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_tip.run_if(in_state(super::SCREEN).and_then(resource_exists::<CurrentMaze>)),
        );
    }
}

/// The tip on screen, and the player's steps since it came.
#[derive(Resource, Debug, Default, PartialEq)]
pub struct MazeTips {
    /// The tip shown, if any.
    pub shown: Option<MazeLesson>,
    /// Steps taken while it was shown.
    pub steps: u32,
}

/// The first tip the player has still to see that applies to `run`: the torch only in the dark.
fn next_tip(guidance: &Guidance<MazeLesson>, run: &MazeRun) -> Option<MazeLesson> {
    MazeLesson::ALL.into_iter().find(|&lesson| {
        guidance.teaches(lesson)
            && (lesson != MazeLesson::Torch || run.rules.torch_radius.is_some())
    })
}

fn start_tips(
    mut tips: ResMut<MazeTips>,
    options: Res<MazeOptions>,
    run: Option<Res<CurrentMaze>>,
    watching: Option<Res<Watching>>,
) {
    let shown = run
        .filter(|_| watching.is_none())
        .and_then(|run| next_tip(&options.guidance, &run));
    *tips = MazeTips { shown, steps: 0 };
}

/// Counts the steps taken with the tip; a tip seen long enough (or the hint asked for, or the
/// way out found) is kept as seen, and the next one comes.
fn follow_tips(
    mut tips: ResMut<MazeTips>,
    mut stepped: MessageReader<PlayerStepped>,
    mut options: ResMut<MazeOptions>,
    run: Res<CurrentMaze>,
    hint: Res<MazeHint>,
) {
    let steps = u32::try_from(stepped.read().count()).unwrap_or(u32::MAX);
    let Some(lesson) = tips.shown else {
        return;
    };
    if !options.guidance.teaches(lesson) {
        // Turned off in the pause menu's settings.
        *tips = MazeTips::default();
        return;
    }
    tips.steps = tips.steps.saturating_add(steps);
    let asked_for_hint = lesson == MazeLesson::Hint && hint.shown && !hint.route_only;
    if tips.steps >= TIP_STEPS || asked_for_hint || run.finished {
        options.guidance.learned.insert(lesson);
        let shown = next_tip(&options.guidance, &run);
        *tips = MazeTips { shown, steps: 0 };
    }
}

/// What a tip says, on `run`, naming the player's bindings on `device`.
pub fn tip_words(
    lesson: MazeLesson,
    run: &MazeRun,
    bindings: &InputMap<MazeAction>,
    device: Device,
) -> (String, String) {
    match lesson {
        MazeLesson::Torch => (
            "By torchlight".to_owned(),
            "Your torch lights only the cells near you; those you have seen stay dimly lit"
                .to_owned(),
        ),
        MazeLesson::Hint => {
            let cost = match run.rules.hint_cost_s {
                0 => "free at this difficulty".to_owned(),
                seconds => format!("each adds {seconds} s to your time"),
            };
            (
                "Lost?".to_owned(),
                format!(
                    "{} shows the shortest way out from where you stand: {cost}",
                    bindings_named(bindings, &MazeAction::Hint, device)
                ),
            )
        }
    }
}

/// Draws the tip in the half of the window the player is not in, so it never hides the cells
/// the torch lights.
fn draw_tip(
    mut contexts: EguiContexts,
    tips: Res<MazeTips>,
    run: Res<CurrentMaze>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera2d>>,
    player: Single<&GlobalTransform, With<MazePlayer>>,
    (bindings, device): (Single<&InputMap<MazeAction>>, Res<LastDevice>),
) -> Result {
    let Some(lesson) = tips.shown else {
        return Ok(());
    };
    let (camera, seen_from) = *camera;
    let player_on_screen = camera.world_to_viewport(seen_from, player.translation());
    let height = camera.logical_viewport_size().map_or(0.0, |size| size.y);
    let place = match player_on_screen {
        Ok(at) if at.y < height / 2.0 => TipPlace::Bottom,
        _ => TipPlace::Top,
    };
    let (heading, instruction) = tip_words(lesson, &run, &bindings, **device);
    hud_tip(
        contexts.ctx_mut()?,
        "maze-tip",
        place,
        (&heading, &instruction),
        false,
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::controls::Controls;
    use crate::logic::difficulty::Difficulty;
    use crate::logic::maze::run::MazeSetup;

    fn run_at(difficulty: Difficulty) -> MazeRun {
        let spec = MazeOptions::default().spec(7);
        MazeRun::new(MazeSetup::first_level(spec, difficulty), false).unwrap()
    }

    #[test]
    fn the_torch_is_pointed_out_only_in_the_dark_and_each_tip_only_until_seen() {
        let mut guidance = Guidance::new();
        let (easy, normal) = (run_at(Difficulty::Easy), run_at(Difficulty::Normal));
        assert_eq!(next_tip(&guidance, &easy), Some(MazeLesson::Hint));
        assert_eq!(next_tip(&guidance, &normal), Some(MazeLesson::Torch));
        guidance.learned.insert(MazeLesson::Torch);
        assert_eq!(next_tip(&guidance, &normal), Some(MazeLesson::Hint));
        guidance.learned.insert(MazeLesson::Hint);
        assert_eq!(next_tip(&guidance, &normal), None);
        guidance.switch(false);
        guidance.switch(true);
        assert_eq!(next_tip(&guidance, &normal), Some(MazeLesson::Torch));
        guidance.switch(false);
        assert_eq!(next_tip(&guidance, &easy), None);
    }

    #[test]
    fn the_hints_tip_names_its_key_and_its_price_at_the_runs_difficulty() {
        let bindings = MazeAction::default_bindings();
        let words = |difficulty| {
            tip_words(
                MazeLesson::Hint,
                &run_at(difficulty),
                &bindings,
                Device::Keyboard,
            )
            .1
        };
        assert!(words(Difficulty::Easy).starts_with("Space shows"));
        assert!(words(Difficulty::Easy).ends_with("free at this difficulty"));
        assert!(words(Difficulty::Normal).ends_with("each adds 10 s to your time"));
        assert!(words(Difficulty::Hard).ends_with("each adds 30 s to your time"));
    }
}
