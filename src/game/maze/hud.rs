//! The maze's HUD (level, time with the hints' cost, moves, the optimal moves, hints, catches,
//! what is being played, the keys) and what its result dialog says when the way out is found.

use super::controls::MazeAction;
use super::generation::CurrentMaze;
use super::levels::NEXT_LEVEL;
use super::walk::{MazeTape, MazeWin};
use crate::game::controls::{LastDevice, first_bindings, hint_line};
use crate::game::menu::dialog::{DialogNote, ResultDialog};
use crate::game::menu::{MenuItem, item_label};
use crate::game::records::{WatchAction, Watching, watch_hint};
use crate::game::theme::widgets::{hud_badge, hud_bar, hud_figure, hud_identity, keys_hint};
use crate::logic::maze::replay::MazeKind;
use crate::logic::maze::time::{MazeTime, clock};
use crate::logic::replay::Replay;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::InputMap;

/// The maze's actions reminded along the bottom of the HUD after the steps, and what each does.
const REMINDED: [(MazeAction, &str); 5] = [
    (MazeAction::Hint, "hint"),
    (MazeAction::Searched, "searched cells"),
    (MazeAction::SystemWalk, "system walk"),
    (MazeAction::ZoomIn, "closer"),
    (MazeAction::ZoomOut, "further (or the wheel)"),
];

pub(super) fn plugin(app: &mut App) {
    if crate::game::screens::draws(app) {
        app.add_systems(
            EguiPrimaryContextPass,
            draw_hud.run_if(in_state(super::SCREEN).and_then(resource_exists::<CurrentMaze>)),
        );
    }
}

fn draw_hud(
    mut contexts: EguiContexts,
    run: Res<CurrentMaze>,
    tape: Option<Res<MazeTape>>,
    watching: Option<Res<Watching>>,
    (bindings, watch_bindings, device): (
        Single<&InputMap<MazeAction>>,
        Single<&InputMap<WatchAction>>,
        Res<LastDevice>,
    ),
) -> Result {
    // The seed as the run was started with it (a record's, the day's or the player's).
    let seed_text = tape.map_or_else(|| run.spec.seed.to_string(), |tape| tape.seed_text.clone());
    let time = MazeTime {
        ticks: run.ticks,
        hints_used: run.hints_used,
        rules: run.rules,
    };
    hud_bar(contexts.ctx_mut()?, "maze-hud", |ui| {
        ui.horizontal(|ui| {
            hud_figure(ui, "Level", run.setup.level.to_string());
            hud_figure(ui, "Time", time.counted());
            hud_figure(ui, "Moves", run.moves.to_string());
            hud_figure(ui, "Optimal", run.optimal_moves.to_string());
            hud_figure(ui, "Hints", time.hints());
            if run.rules.guardians {
                hud_figure(ui, "Caught", run.catches.to_string());
            }
            if run.system_walk {
                hud_badge(ui, "SYSTEM WALK");
            }
            if let Some(watching) = &watching {
                hud_badge(ui, &watching.badge());
            }
            hud_identity(
                ui,
                format!(
                    "seed \"{}\"  ·  {}  ·  {}x{}  ·  {}  ·  braid {} %",
                    seed_text,
                    run.setup.difficulty.label(),
                    run.spec.width,
                    run.spec.height,
                    run.spec.algorithm.label(),
                    (run.spec.braid * 100.0).round()
                ),
            );
        });
        if watching.is_some() {
            keys_hint(ui, &watch_hint(&watch_bindings, **device));
        } else {
            let steps = MazeAction::STEPS.map(|(action, _)| action);
            let keys = format!(
                "{} move   click a seen cell to walk there   {}",
                first_bindings(&bindings, **device, &steps),
                hint_line(&bindings, **device, &REMINDED)
            );
            keys_hint(ui, &keys);
        }
    });
    Ok(())
}

/// The figures of the dialog at the end of watching a recorded run.
pub fn replay_figures(replay: &Replay) -> Vec<(String, String)> {
    let Ok(outcome) = replay.result.outcome::<MazeKind>() else {
        return Vec::new();
    };
    let time = MazeTime::new(replay.result.ticks, outcome.hints_used, replay.difficulty);
    vec![
        ("Time".to_owned(), time.counted()),
        ("Moves".to_owned(), outcome.moves.to_string()),
        ("Hints".to_owned(), time.hints()),
    ]
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
    let hint_cost = u64::from(win.hints_used) * u64::from(win.hint_cost_s);
    let hints = match (win.hints_used, win.hint_cost_s) {
        (0, _) => "none".to_owned(),
        (used, 0) => format!("{used}, free"),
        (used, each) => format!("{used} x {each} s = +{hint_cost} s"),
    };
    let mut figures = vec![
        ("Time".to_owned(), clock(win.seconds)),
        ("Play time".to_owned(), clock(win.play_seconds)),
        ("Hints".to_owned(), hints),
        (
            "Moves".to_owned(),
            format!("{} (optimal {})", win.moves, win.optimal_moves),
        ),
        (
            "Efficiency".to_owned(),
            format!("{:.0} %", win.efficiency_percent),
        ),
    ];
    if win.catches > 0 {
        figures.push(("Caught".to_owned(), win.catches.to_string()));
    }
    if win.level > 1 {
        figures.push((
            format!("Run, levels 1-{}", win.level),
            clock(win.run_seconds),
        ));
    }
    figures.push(("Best time".to_owned(), best));
    if let Some(best_level) = win.best_level {
        figures.push(("Best level".to_owned(), best_level.to_string()));
    }
    ResultDialog {
        title: format!("Level {} cleared!", win.level),
        subtitle: Some("You found the way out.".to_owned()),
        figures,
        note,
        buttons: vec![
            (NEXT_LEVEL, "Next level"),
            (MenuItem::Restart, "Same maze again"),
            (
                MenuItem::PlayAgainNewSeed,
                item_label(MenuItem::PlayAgainNewSeed),
            ),
            (MenuItem::MainMenu, item_label(MenuItem::MainMenu)),
        ],
    }
}
