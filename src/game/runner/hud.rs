//! The runner's HUD (distance, coins, score, speed, the power-ups held with their time left,
//! the guardians' warning after a stumble, who is running, what is being played, the keys) and
//! what its result dialog says when a run ends.

use super::controls::RunnerAction;
use super::ghost::RunnerGhost;
use super::rules::RunnerRun;
use crate::game::controls::{LastDevice, hint_line};
use crate::game::records::{WatchAction, Watching, watch_hint};
use crate::game::theme::widgets::{
    hud_alert, hud_badge, hud_bar, hud_figure, hud_figure_popped, hud_identity, keys_hint,
};
use crate::logic::runner::powerups::PowerUp;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::InputMap;

/// The runner's actions reminded along the bottom of the HUD, and what each does.
const REMINDED: [(RunnerAction, &str); 6] = [
    (RunnerAction::Left, "left"),
    (RunnerAction::Right, "right (turn at a junction)"),
    (RunnerAction::Jump, "jump"),
    (RunnerAction::Slide, "slide"),
    (RunnerAction::Route, "route"),
    (RunnerAction::Autopilot, "autopilot"),
];

pub(super) fn plugin(app: &mut App) {
    if crate::game::screens::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_hud.run_if(resource_exists::<RunnerRun>.and_then(in_state(super::SCREEN))),
        );
    }
}

/// How long the coin counter stays popped after a coin, in seconds.
const COIN_POP_S: f32 = 0.35;

/// When the coin counter last changed, and to what.
#[derive(Default)]
struct CoinPop {
    coins: u32,
    at: f32,
}

fn draw_hud(
    mut contexts: EguiContexts,
    time: Res<Time>,
    mut pop: Local<CoinPop>,
    run: Res<RunnerRun>,
    ghost: Option<Res<RunnerGhost>>,
    watching: Option<Res<Watching>>,
    (bindings, watch_bindings, device): (
        Single<&InputMap<RunnerAction>>,
        Single<&InputMap<WatchAction>>,
        Res<LastDevice>,
    ),
) -> Result {
    let speed = run.sim.track.timing().speed_at(run.sim.body.distance_m);
    hud_bar(contexts.ctx_mut()?, "runner-hud", |ui| {
        ui.horizontal(|ui| {
            hud_figure(ui, "Distance", format!("{:.0} m", run.sim.body.distance_m));
            // The counter pops when coins are taken.
            let coins = run.sim.body.coins;
            if coins != pop.coins {
                *pop = CoinPop {
                    coins,
                    at: time.elapsed_secs(),
                };
            }
            let since = time.elapsed_secs() - pop.at;
            let popped = if coins > 0 {
                1.0 - since / COIN_POP_S
            } else {
                0.0
            };
            hud_figure_popped(ui, "Coins", coins.to_string(), popped);
            hud_figure(ui, "Score", run.sim.body.score().to_string());
            hud_figure(ui, "Speed", format!("{speed:.1} m/s"));
            for kind in PowerUp::ALL {
                let left = run.sim.body.powerups.left_s(kind);
                if left > 0.0 {
                    hud_badge(ui, &format!("{} {left:.1} s", kind.label()));
                }
            }
            if let Some(ghost) = &ghost {
                let gap = ghost.gap_m(&run);
                let side = if gap >= 0.0 { "ahead" } else { "behind" };
                hud_figure(ui, "Ghost", format!("{:.0} m {side}", gap.abs()));
            }
            if run.sim.body.pursuit() > 0.0 && run.sim.body.crash.is_none() {
                hud_alert(ui, "GUARDIANS CLOSE: do not stumble again");
            }
            if run.sim.autopilot_on {
                hud_badge(ui, "AUTOPILOT");
            }
            if let Some(watching) = &watching {
                hud_badge(ui, &watching.badge());
            }
            hud_identity(
                ui,
                format!(
                    "seed \"{}\"  ·  {}",
                    run.seed_text,
                    run.sim.difficulty.label()
                ),
            );
        });
        if watching.is_some() {
            keys_hint(ui, &watch_hint(&watch_bindings, **device));
        } else {
            keys_hint(ui, &hint_line(&bindings, **device, &REMINDED));
        }
    });
    Ok(())
}
