//! The egui drawing of the menus: title screen, settings page, pause menu and file warnings.
//! Every click becomes a [`MenuInput`]; nothing here changes the game itself.

use super::{MenuCursor, MenuInput, MenuItem, MenuRequests, menu_items};
use crate::game::maze::options::{MAX_BRAID_PERCENT, MazeOptions, MazeSize};
use crate::game::screens::{Menu, Mode, Screen};
use crate::game::settings::{GameSeed, MAX_VOLUME, Settings};
use crate::game::storage::StorageWarnings;
use crate::logic::difficulty::Difficulty;
use crate::logic::maze::{Algorithm, MAX_SIDE, MIN_SIDE};
use crate::logic::seed::parse_seed;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// Headings and the title.
pub(in crate::game) const GOLD: Color32 = Color32::from_rgb(232, 186, 84);
/// Body text on dark panels.
pub(in crate::game) const SAND: Color32 = Color32::from_rgb(226, 210, 178);
/// Hints and secondary text.
pub(in crate::game) const DIM: Color32 = Color32::from_rgb(160, 148, 126);
/// Warnings.
pub(in crate::game) const AMBER: Color32 = Color32::from_rgb(255, 170, 70);
/// Panels drawn over the game or the title background.
pub(in crate::game) const PANEL: Color32 = Color32::from_rgba_premultiplied(16, 12, 9, 242);
/// The width of menu buttons, in points.
const BUTTON_WIDTH: f32 = 300.0;
/// The height of menu buttons, in points.
const BUTTON_HEIGHT: f32 = 38.0;
/// How long a notice (copied seed, refused seed) stays up, in seconds.
const NOTICE_SECONDS: f32 = 3.0;
/// The egui id of the seed text field, so keyboard focus can be sent to it.
const SEED_FIELD_ID: &str = "seed-field";

pub(in crate::game) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            style_egui.run_if(run_once),
            draw_main_menu.run_if(in_state(Menu::Main)),
            draw_settings_page.run_if(in_state(Menu::Settings)),
            draw_pause_menu.run_if(in_state(Menu::Pause)),
            draw_storage_warnings.run_if(|w: Res<StorageWarnings>| !w.0.is_empty()),
            keep_focus_off_buttons,
        )
            .chain(),
    );
}

fn style_egui(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    ctx.set_theme(egui::Theme::Dark);
    ctx.all_styles_mut(|style| {
        use egui::{FontId, TextStyle};
        style.text_styles = [
            (TextStyle::Heading, FontId::proportional(30.0)),
            (TextStyle::Body, FontId::proportional(18.0)),
            (TextStyle::Button, FontId::proportional(20.0)),
            (TextStyle::Small, FontId::proportional(14.0)),
            (TextStyle::Monospace, FontId::monospace(16.0)),
        ]
        .into();
        style.spacing.item_spacing = egui::vec2(10.0, 8.0);
        style.visuals.selection.bg_fill = Color32::from_rgb(150, 104, 30);
        style.visuals.selection.stroke = egui::Stroke::new(1.5, GOLD);
    });
    Ok(())
}

/// Which menu is drawn, on which screen: together they decide the menu's items.
#[derive(Debug, Clone, Copy)]
pub(in crate::game) struct MenuPlace {
    /// The open menu.
    pub menu: Menu,
    /// The screen under it.
    pub screen: Screen,
}

/// A full-width menu button; highlighted when the keyboard cursor is on it, and hovering it with
/// a moving mouse moves the cursor there so keyboard and mouse never disagree.
pub(in crate::game) fn menu_button(
    ui: &mut egui::Ui,
    label: &str,
    item: MenuItem,
    place: MenuPlace,
    cursor: &mut MenuCursor,
    inputs: &mut Vec<MenuInput>,
) {
    let selected = cursor.item(place.menu, place.screen) == Some(item);
    let response = ui.add(
        egui::Button::new(RichText::new(label).color(if selected { GOLD } else { SAND }))
            .min_size(egui::vec2(BUTTON_WIDTH, BUTTON_HEIGHT))
            .selected(selected),
    );
    follow_mouse(ui, &response, item, place, cursor);
    if response.clicked() {
        inputs.push(MenuInput::Activated(item));
    }
}

/// Moves the cursor to `item` when the mouse moves over its widget.
pub(in crate::game) fn follow_mouse(
    ui: &egui::Ui,
    response: &egui::Response,
    item: MenuItem,
    place: MenuPlace,
    cursor: &mut MenuCursor,
) {
    let mouse_moved = ui.input(|input| input.pointer.delta() != egui::Vec2::ZERO);
    if response.hovered()
        && mouse_moved
        && let Some(index) = menu_items(place.menu, place.screen)
            .iter()
            .position(|&i| i == item)
    {
        cursor.0 = index;
    }
}

/// A framed row that shows the keyboard cursor on a whole line (seed, difficulty, volume).
pub(in crate::game) fn cursor_row<R>(
    ui: &mut egui::Ui,
    highlighted: bool,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let stroke = if highlighted {
        egui::Stroke::new(1.5, GOLD)
    } else {
        egui::Stroke::NONE
    };
    egui::Frame::new()
        .stroke(stroke)
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(8, 4))
        .show(ui, |ui| ui.horizontal(add_contents).inner)
        .inner
}

/// A dark rounded panel in the middle of the window.
pub(in crate::game) fn centered_panel(
    ctx: &egui::Context,
    id: &str,
    add_contents: impl FnOnce(&mut egui::Ui),
) {
    egui::Area::new(egui::Id::new(id))
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 20.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL)
                .stroke(egui::Stroke::new(1.0, Color32::from_rgb(90, 70, 40)))
                .corner_radius(12.0)
                .inner_margin(24.0)
                .show(ui, |ui| {
                    ui.set_min_width(BUTTON_WIDTH + 40.0);
                    ui.vertical_centered(add_contents);
                });
        });
}

/// A centred panel over the dimmed game: pause, game over and win.
pub(in crate::game) fn modal_panel(
    ctx: &egui::Context,
    id: &str,
    add_contents: impl FnOnce(&mut egui::Ui),
) {
    dim_background(ctx);
    centered_panel(ctx, id, add_contents);
}

/// A bar across the top of the window for a mode's HUD.
pub(in crate::game) fn hud_bar(
    ctx: &egui::Context,
    id: &str,
    add_contents: impl FnOnce(&mut egui::Ui),
) {
    let width = ctx.content_rect().width();
    egui::Area::new(egui::Id::new(id))
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL)
                .inner_margin(egui::Margin::symmetric(14, 6))
                .show(ui, |ui| {
                    ui.set_width(width - 28.0);
                    add_contents(ui);
                });
        });
}

/// One figure in a HUD bar: a dim name, then its value.
pub(in crate::game) fn hud_figure(ui: &mut egui::Ui, name: &str, value: String) {
    ui.label(RichText::new(name).size(15.0).color(DIM));
    ui.label(RichText::new(value).size(19.0).color(SAND).strong());
    ui.add_space(10.0);
}

/// A dialog's figures as a two-column table of names and values.
pub(in crate::game) fn results_table(ui: &mut egui::Ui, id: &str, rows: &[(&str, String)]) {
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([24.0, 4.0])
        .show(ui, |ui| {
            for (name, value) in rows {
                ui.label(RichText::new(*name).color(DIM));
                ui.label(RichText::new(value).color(SAND).strong());
                ui.end_row();
            }
        });
}

/// A dialog's buttons: its menu's items, with the labels `label` gives them there.
pub(in crate::game) fn dialog_buttons(
    ui: &mut egui::Ui,
    place: MenuPlace,
    label: impl Fn(MenuItem) -> &'static str,
    cursor: &mut MenuCursor,
    inputs: &mut Vec<MenuInput>,
) {
    for &item in menu_items(place.menu, place.screen) {
        menu_button(ui, label(item), item, place, cursor, inputs);
    }
}

/// Dims whatever is behind a modal panel.
pub(in crate::game) fn dim_background(ctx: &egui::Context) {
    let screen = ctx.content_rect();
    ctx.layer_painter(egui::LayerId::background()).rect_filled(
        screen,
        0.0,
        Color32::from_black_alpha(150),
    );
}

/// The game's name across the top of the title screen and the controls along the bottom.
fn draw_title_and_footer(ctx: &egui::Context, seed_text: &str, seed: u64) {
    egui::Area::new(egui::Id::new("title"))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 28.0))
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                ui.label(
                    RichText::new("TEMPLE TRAILS")
                        .size(60.0)
                        .strong()
                        .color(GOLD),
                );
                ui.label(
                    RichText::new("run the temple  ·  solve the maze  ·  watch the wanderers")
                        .size(18.0)
                        .color(SAND),
                );
            });
        });
    egui::Area::new(egui::Id::new("footer"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -14.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL)
                .corner_radius(8.0)
                .inner_margin(egui::Margin::symmetric(14, 6))
                .show(ui, |ui| {
                    ui.add(egui::Label::new(
                        RichText::new(format!(
                            "Seed \"{seed_text}\" = {seed}     Up/Down choose   Left/Right change   Enter select   Esc back"
                        ))
                        .size(15.0)
                        .color(DIM),
                    )
                    .wrap_mode(egui::TextWrapMode::Extend));
                });
        });
}

/// The seed field's text while the player types, kept apart from the saved seed until confirmed.
#[derive(Default)]
struct SeedField {
    draft: String,
}

#[expect(
    clippy::too_many_arguments,
    reason = "the main menu shows most of the settings"
)]
fn draw_main_menu(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    seed: Res<GameSeed>,
    mut cursor: ResMut<MenuCursor>,
    mut requests: ResMut<MenuRequests>,
    time: Res<Time<Real>>,
    mut field: Local<SeedField>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    draw_title_and_footer(ctx, &settings.seed_text, seed.0);
    let place = MenuPlace {
        menu: Menu::Main,
        screen: Screen::Title,
    };
    let mut inputs = Vec::new();
    let seed_id = egui::Id::new(SEED_FIELD_ID);
    let seed_has_focus = ctx.memory(|m| m.has_focus(seed_id));
    if !seed_has_focus {
        field.draft.clone_from(&settings.seed_text);
    }
    centered_panel(ctx, "main-menu", |ui| {
        for mode in Mode::ALL {
            menu_button(
                ui,
                mode.label(),
                MenuItem::Play(mode),
                place,
                &mut cursor,
                &mut inputs,
            );
        }
        let blurb = match cursor.item(place.menu, place.screen) {
            Some(MenuItem::Play(mode)) => mode.blurb(),
            _ => "Choose a mode with the arrow keys or the mouse.",
        };
        ui.label(RichText::new(blurb).size(15.0).color(DIM));
        ui.add_space(6.0);

        let on_seed_row = matches!(
            cursor.item(place.menu, place.screen),
            Some(MenuItem::Seed | MenuItem::RandomizeSeed | MenuItem::CopySeed)
        );
        cursor_row(ui, on_seed_row, |ui| {
            ui.label(RichText::new("Seed").color(SAND));
            let edit = ui.add(
                egui::TextEdit::singleline(&mut field.draft)
                    .id(seed_id)
                    .desired_width(150.0)
                    .hint_text("number or word"),
            );
            follow_mouse(ui, &edit, MenuItem::Seed, place, &mut cursor);
            if edit.lost_focus() {
                if ui.input(|input| input.key_pressed(egui::Key::Escape)) {
                    // Esc abandons the edit; Enter or clicking elsewhere keeps it.
                    field.draft.clone_from(&settings.seed_text);
                } else {
                    inputs.push(MenuInput::SeedTyped(field.draft.clone()));
                }
            }
            for (label, item) in [
                ("Random", MenuItem::RandomizeSeed),
                ("Copy", MenuItem::CopySeed),
            ] {
                let selected = cursor.item(place.menu, place.screen) == Some(item);
                let response = ui.add(egui::Button::new(label).selected(selected));
                follow_mouse(ui, &response, item, place, &mut cursor);
                if response.clicked() {
                    inputs.push(MenuInput::Activated(item));
                }
            }
            if std::mem::take(&mut requests.focus_seed_field) {
                edit.request_focus();
            }
        });
        if seed_has_focus {
            let preview = match parse_seed(&field.draft) {
                Ok(value) => format!("= {value}   (Enter keeps it, Esc cancels)"),
                Err(err) => format!("{err}"),
            };
            ui.label(RichText::new(preview).size(14.0).color(DIM));
        }

        let on_difficulty = cursor.item(place.menu, place.screen) == Some(MenuItem::Difficulty);
        cursor_row(ui, on_difficulty, |ui| {
            ui.label(RichText::new("Difficulty").color(SAND));
            for difficulty in Difficulty::ALL {
                let response = ui.add(
                    egui::Button::new(difficulty.label())
                        .selected(settings.difficulty == difficulty),
                );
                follow_mouse(ui, &response, MenuItem::Difficulty, place, &mut cursor);
                if response.clicked() {
                    inputs.push(MenuInput::DifficultyChosen(difficulty));
                }
            }
        });
        ui.add_space(6.0);
        menu_button(
            ui,
            "Settings",
            MenuItem::Settings,
            place,
            &mut cursor,
            &mut inputs,
        );
        menu_button(ui, "Quit", MenuItem::Quit, place, &mut cursor, &mut inputs);
        draw_notice(ui, &requests, time.elapsed_secs());
    });
    if let Some(text) = requests.copy_to_clipboard.take() {
        ctx.copy_text(text);
    }
    writer.write_batch(inputs);
    Ok(())
}

/// The latest short notice, while it is fresh.
fn draw_notice(ui: &mut egui::Ui, requests: &MenuRequests, now: f32) {
    if let Some((text, posted)) = &requests.notice
        && now - posted < NOTICE_SECONDS
    {
        ui.label(RichText::new(text).size(15.0).color(AMBER));
    }
}

fn draw_settings_page(
    mut contexts: EguiContexts,
    screen: Res<State<Screen>>,
    settings: Res<Settings>,
    seed: Res<GameSeed>,
    mut cursor: ResMut<MenuCursor>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if *screen.get() == Screen::Title {
        draw_title_and_footer(ctx, &settings.seed_text, seed.0);
    } else {
        dim_background(ctx);
    }
    let place = MenuPlace {
        menu: Menu::Settings,
        screen: *screen.get(),
    };
    let mut inputs = Vec::new();
    centered_panel(ctx, "settings", |ui| {
        ui.heading(RichText::new("Settings").color(GOLD));
        ui.add_space(8.0);
        ui.label(RichText::new("Sound").size(15.0).color(DIM));
        let on_volume = cursor.item(place.menu, place.screen) == Some(MenuItem::Volume);
        cursor_row(ui, on_volume, |ui| {
            ui.label(RichText::new("Master volume").color(SAND));
            let mut volume = settings.master_volume;
            let response = ui.add(
                egui::Slider::new(&mut volume, 0.0..=MAX_VOLUME)
                    .custom_formatter(|v, _| format!("{:.0} %", v * 100.0))
                    .custom_parser(|text| {
                        text.trim_end_matches('%')
                            .trim()
                            .parse::<f64>()
                            .ok()
                            .map(|v| v / 100.0)
                    }),
            );
            follow_mouse(ui, &response, MenuItem::Volume, place, &mut cursor);
            if response.changed() {
                inputs.push(MenuInput::VolumeSet(volume));
            }
        });
        ui.add_space(4.0);
        ui.label(RichText::new("Display").size(15.0).color(DIM));
        let on_fullscreen = cursor.item(place.menu, place.screen) == Some(MenuItem::Fullscreen);
        cursor_row(ui, on_fullscreen, |ui| {
            let mut fullscreen = settings.fullscreen;
            let response = ui.checkbox(&mut fullscreen, RichText::new("Fullscreen").color(SAND));
            follow_mouse(ui, &response, MenuItem::Fullscreen, place, &mut cursor);
            if response.changed() {
                inputs.push(MenuInput::Activated(MenuItem::Fullscreen));
            }
        });
        ui.add_space(4.0);
        draw_maze_settings(ui, &settings.maze, place, &mut cursor, &mut inputs);
        ui.add_space(10.0);
        menu_button(ui, "Back", MenuItem::Back, place, &mut cursor, &mut inputs);
    });
    writer.write_batch(inputs);
    Ok(())
}

/// The maze section of the settings page: size (with a custom width and height), algorithm and
/// braid. Changes go out as one [`MenuInput::MazeOptionsSet`].
fn draw_maze_settings(
    ui: &mut egui::Ui,
    current: &MazeOptions,
    place: MenuPlace,
    cursor: &mut MenuCursor,
    inputs: &mut Vec<MenuInput>,
) {
    ui.label(RichText::new("Maze").size(15.0).color(DIM));
    let mut options = *current;
    let on = |item| cursor.item(place.menu, place.screen) == Some(item);
    let (on_size, on_algorithm, on_braid) = (
        on(MenuItem::MazeSize),
        on(MenuItem::MazeAlgorithm),
        on(MenuItem::MazeBraid),
    );
    cursor_row(ui, on_size, |ui| {
        ui.label(RichText::new("Size").color(SAND));
        let response = egui::ComboBox::from_id_salt("maze-size")
            .selected_text(options.size.label())
            .show_ui(ui, |ui| {
                for size in MazeSize::ALL {
                    ui.selectable_value(&mut options.size, size, size.label());
                }
            })
            .response;
        follow_mouse(ui, &response, MenuItem::MazeSize, place, cursor);
    });
    if options.size == MazeSize::Custom {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Custom").color(SAND));
            ui.add(
                egui::DragValue::new(&mut options.custom_width)
                    .range(MIN_SIDE..=MAX_SIDE)
                    .suffix(" wide"),
            );
            ui.add(
                egui::DragValue::new(&mut options.custom_height)
                    .range(MIN_SIDE..=MAX_SIDE)
                    .suffix(" high"),
            );
        });
        ui.label(
            RichText::new(format!("each side {MIN_SIDE} to {MAX_SIDE} cells"))
                .size(13.0)
                .color(DIM),
        );
    }
    cursor_row(ui, on_algorithm, |ui| {
        ui.label(RichText::new("Algorithm").color(SAND));
        let response = egui::ComboBox::from_id_salt("maze-algorithm")
            .selected_text(options.algorithm.label())
            .show_ui(ui, |ui| {
                for algorithm in Algorithm::ALL {
                    ui.selectable_value(&mut options.algorithm, algorithm, algorithm.label());
                }
            })
            .response;
        follow_mouse(ui, &response, MenuItem::MazeAlgorithm, place, cursor);
    });
    cursor_row(ui, on_braid, |ui| {
        ui.label(RichText::new("Braid (loops)").color(SAND));
        let response = ui
            .add(egui::Slider::new(&mut options.braid_percent, 0..=MAX_BRAID_PERCENT).suffix(" %"));
        follow_mouse(ui, &response, MenuItem::MazeBraid, place, cursor);
    });
    if options != *current {
        inputs.push(MenuInput::MazeOptionsSet(options));
    }
}

fn draw_pause_menu(
    mut contexts: EguiContexts,
    screen: Res<State<Screen>>,
    seed: Res<GameSeed>,
    mut cursor: ResMut<MenuCursor>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let place = MenuPlace {
        menu: Menu::Pause,
        screen: *screen.get(),
    };
    let mut inputs = Vec::new();
    modal_panel(ctx, "pause", |ui| {
        ui.heading(RichText::new("Paused").color(GOLD));
        if let Some(mode) = screen.mode() {
            ui.label(
                RichText::new(format!("{}  ·  seed {}", mode.label(), seed.0))
                    .size(15.0)
                    .color(DIM),
            );
        }
        ui.add_space(8.0);
        for &item in menu_items(place.menu, place.screen) {
            menu_button(ui, item_label(item), item, place, &mut cursor, &mut inputs);
        }
        ui.label(RichText::new("Esc resumes").size(14.0).color(DIM));
    });
    writer.write_batch(inputs);
    Ok(())
}

/// The label of a plain menu button.
pub(in crate::game) fn item_label(item: MenuItem) -> &'static str {
    match item {
        MenuItem::Play(mode) => mode.label(),
        MenuItem::Seed => "Seed",
        MenuItem::RandomizeSeed => "Random",
        MenuItem::CopySeed => "Copy",
        MenuItem::Difficulty => "Difficulty",
        MenuItem::Settings => "Settings",
        MenuItem::Quit => "Quit",
        MenuItem::Volume => "Master volume",
        MenuItem::Fullscreen => "Fullscreen",
        MenuItem::Back => "Back",
        MenuItem::Resume => "Resume",
        MenuItem::Restart => "Restart",
        MenuItem::MainMenu => "Main menu",
        MenuItem::PlayAgainNewSeed => "Play again (new seed)",
        MenuItem::SystemWalk => "System walk on/off",
        MenuItem::Autopilot => "Autopilot on/off",
        MenuItem::MazeSize => "Maze size",
        MenuItem::MazeAlgorithm => "Maze algorithm",
        MenuItem::MazeBraid => "Maze braid",
    }
}

fn draw_storage_warnings(
    mut contexts: EguiContexts,
    mut warnings: ResMut<StorageWarnings>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut dismissed = false;
    egui::Area::new(egui::Id::new("storage-warnings"))
        // Bottom right: clear of the title, the menu and the controls line.
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -64.0))
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL)
                .stroke(egui::Stroke::new(1.5, AMBER))
                .corner_radius(8.0)
                .inner_margin(12.0)
                .show(ui, |ui| {
                    ui.set_max_width(420.0);
                    ui.label(
                        RichText::new("⚠ Problem with your saved files")
                            .color(AMBER)
                            .strong(),
                    );
                    for warning in &warnings.0 {
                        ui.label(RichText::new(warning).size(14.0).color(SAND));
                    }
                    dismissed = ui.button("Dismiss").clicked();
                });
        });
    if dismissed {
        warnings.0.clear();
    }
    Ok(())
}

/// Clicked buttons keep egui's keyboard focus, and egui would then press them again on Enter
/// as well as our own keyboard handling. Only the seed field may hold focus.
fn keep_focus_off_buttons(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    let seed_id = egui::Id::new(SEED_FIELD_ID);
    ctx.memory_mut(|memory| {
        if let Some(focused) = memory.focused()
            && focused != seed_id
        {
            memory.surrender_focus(focused);
        }
    });
    Ok(())
}
