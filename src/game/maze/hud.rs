//! The maze's HUD (time, moves, the optimal moves, hints, what is being played, the keys) and
//! what its result dialog says when the way out is found.

use super::generation::CurrentMaze;
use super::walk::{MazeTape, MazeWin};
use crate::game::menu::{MenuItem, item_label};
use crate::game::records::{WATCH_KEYS, Watching};
use crate::game::screens::Screen;
use crate::game::theme::dialog::{DialogNote, ResultDialog};
use crate::game::theme::widgets::{hud_badge, hud_bar, hud_figure, hud_identity, keys_hint};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// The maze's keys, along the bottom of the HUD.
const KEYS: &str = "Arrows/WASD move   Space hint   E searched cells   Enter system walk   \
                    wheel or +/- zoom   Esc pause";

pub(super) fn plugin(app: &mut App) {
    if crate::game::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_hud.run_if(in_state(Screen::Maze).and_then(resource_exists::<CurrentMaze>)),
        );
    }
}

/// `mm:ss.t`, for the HUD and the result dialog.
fn clock(seconds: f64) -> String {
    let tenths = (seconds * 10.0).floor() as u64;
    format!(
        "{:02}:{:02}.{}",
        tenths / 600,
        (tenths / 10) % 60,
        tenths % 10
    )
}

fn draw_hud(
    mut contexts: EguiContexts,
    run: Res<CurrentMaze>,
    tape: Option<Res<MazeTape>>,
    watching: Option<Res<Watching>>,
) -> Result {
    // The seed as the run was started with it (a record's, the day's or the player's).
    let seed_text = tape.map_or_else(|| run.spec.seed.to_string(), |tape| tape.seed_text.clone());
    hud_bar(contexts.ctx_mut()?, "maze-hud", |ui| {
        ui.horizontal(|ui| {
            hud_figure(ui, "Time", clock(run.seconds()));
            hud_figure(ui, "Moves", run.moves.to_string());
            hud_figure(ui, "Optimal", run.optimal_moves.to_string());
            hud_figure(ui, "Hints", run.hints_used.to_string());
            if run.system_walk {
                hud_badge(ui, "SYSTEM WALK");
            }
            if let Some(watching) = &watching {
                hud_badge(ui, &watching.badge());
            }
            hud_identity(
                ui,
                format!(
                    "seed \"{}\"  ·  {}x{}  ·  {}  ·  braid {} %",
                    seed_text,
                    run.spec.width,
                    run.spec.height,
                    run.spec.algorithm.label(),
                    (run.spec.braid * 100.0).round()
                ),
            );
        });
        keys_hint(ui, if watching.is_some() { WATCH_KEYS } else { KEYS });
    });
    Ok(())
}

/// The result dialog of a solved maze.
pub(super) fn result_dialog(win: &MazeWin) -> ResultDialog {
    let best = win
        .best
        .as_ref()
        .map_or_else(|| "none yet".to_owned(), |b| clock(b.value));
    let note = if win.assisted {
        Some(DialogNote::NotRecorded(
            "The system walked: this time is not recorded.".to_owned(),
        ))
    } else {
        win.new_record
            .then(|| DialogNote::Record("New best time!".to_owned()))
    };
    ResultDialog {
        title: "You found the way out!".to_owned(),
        subtitle: None,
        figures: vec![
            ("Time".to_owned(), clock(win.seconds)),
            ("Moves".to_owned(), win.moves.to_string()),
            ("Optimal".to_owned(), win.optimal_moves.to_string()),
            (
                "Efficiency".to_owned(),
                format!("{:.0} %", win.efficiency_percent),
            ),
            ("Hints used".to_owned(), win.hints_used.to_string()),
            ("Best time".to_owned(), best),
        ],
        note,
        buttons: vec![
            (
                MenuItem::PlayAgainNewSeed,
                item_label(MenuItem::PlayAgainNewSeed),
            ),
            (MenuItem::Restart, "Same maze again"),
            (MenuItem::MainMenu, item_label(MenuItem::MainMenu)),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_shows_minutes_seconds_and_tenths() {
        assert_eq!(clock(0.0), "00:00.0");
        assert_eq!(clock(61.27), "01:01.2");
        assert_eq!(clock(3599.99), "59:59.9");
    }
}
