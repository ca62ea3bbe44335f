//! The egui drawing of the menus: the title screen, the settings page (the core's rows and each
//! mode's section), the pause menu and file warnings. Every click becomes a [`MenuInput`];
//! nothing here changes the game itself.

use super::controls::{MenuAction, menu_keys};
use super::rows::{SettingRow, SettingValue};
use super::{
    MenuContributions, MenuCursor, MenuInput, MenuItem, MenuRequests, OpenMenuItems,
    core_setting_rows, daily_items, difficulty_note, item_label,
};
use crate::game::controls::LastDevice;
use crate::game::menu::widgets::{
    MenuFocus, TextDrafts, menu_button, setting_widget, small_buttons, text_field_id,
};
use crate::game::scores::{BestScores, unix_now_s};
use crate::game::screens::{Menu, Modes, Screen};
use crate::game::session::PlaySession;
use crate::game::settings::{GameSeed, Settings};
use crate::game::storage::StorageWarnings;
use crate::game::theme::backdrops::{button, show_frame};
use crate::game::theme::widgets::{
    centered_panel, cursor_row, dim_background, modal_panel, note, panel_below_title,
    section_label, styled, warning,
};
use crate::game::theme::{AMBER, DIM, GOLD, PANEL, SAND, text};
use crate::logic::difficulty::Difficulty;
use crate::logic::replay::boards::date_of;
use crate::logic::seed::{MAX_SEED_TEXT_CHARS, parse_seed};
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use leafwing_input_manager::prelude::InputMap;

/// How long a notice (copied seed, refused seed) stays up, in seconds.
const NOTICE_SECONDS: f32 = 3.0;
/// How many file warnings the warning panel lists; the rest are counted.
const WARNINGS_SHOWN: usize = 4;
/// The egui id of the seed text field, so keyboard focus can be sent to it.
const SEED_FIELD_ID: &str = "seed-field";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            draw_main_menu.run_if(in_state(Menu::Main)),
            draw_settings_page.run_if(in_state(Menu::Settings)),
            draw_pause_menu.run_if(in_state(Menu::Pause)),
            draw_storage_warnings.run_if(|w: Res<StorageWarnings>| !w.0.is_empty()),
            keep_focus_off_buttons,
        )
            .chain(),
    );
}

/// The game's name across the top of the title screen and the controls along the bottom.
fn draw_title_and_footer(
    ctx: &egui::Context,
    (seed_text, seed): (&str, u64),
    coins_banked: u64,
    keys: &str,
) {
    draw_heading(ctx, coins_banked);
    draw_footer(ctx, seed_text, seed, keys);
}

/// The game's name, its motto and the coins banked, across the top of the title screen.
fn draw_heading(ctx: &egui::Context, coins_banked: u64) {
    egui::Area::new(egui::Id::new("title"))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 28.0))
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                ui.label(styled("TEMPLE TRAILS", text::TITLE, GOLD.egui()).strong());
                ui.label(styled(
                    "run the temple  ·  solve the maze  ·  watch the wanderers",
                    text::BODY,
                    SAND.egui(),
                ));
                ui.label(styled(
                    format!("{coins_banked} coins banked"),
                    text::NOTE,
                    GOLD.egui(),
                ));
            });
        });
}

/// The seed and the menu keys, along the bottom of the title screen.
/// The seed and the menus' `keys` (see [`menu_keys`]) along the bottom of the title screen.
fn draw_footer(ctx: &egui::Context, seed_text: &str, seed: u64, keys: &str) {
    egui::Area::new(egui::Id::new("footer"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -14.0))
        .show(ctx, |ui| {
            let frame = egui::Frame::new()
                .fill(PANEL)
                .corner_radius(8.0)
                .inner_margin(egui::Margin::symmetric(14, 6));
            show_frame(ui, frame, |ui| {
                ui.add(
                    egui::Label::new(styled(
                        format!("Seed \"{seed_text}\" = {seed}     {keys}"),
                        text::NOTE,
                        DIM.egui(),
                    ))
                    .wrap_mode(egui::TextWrapMode::Extend),
                );
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
    reason = "the main menu shows the modes, the seed, the difficulty and notices"
)]
fn draw_main_menu(
    mut contexts: EguiContexts,
    (settings, seed, modes): (Res<Settings>, Res<GameSeed>, Res<Modes>),
    items: Res<OpenMenuItems>,
    mut cursor: ResMut<MenuCursor>,
    mut requests: ResMut<MenuRequests>,
    time: Res<Time<Real>>,
    scores: Res<BestScores>,
    (mut field, mut last_cursor): (Local<SeedField>, Local<Option<usize>>),
    mut writer: MessageWriter<MenuInput>,
    (bindings, device): (Single<&InputMap<MenuAction>>, Res<LastDevice>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let keys = menu_keys(&bindings, **device);
    draw_title_and_footer(
        ctx,
        (&settings.seed_text, seed.0),
        scores.coins_banked(),
        &keys,
    );
    let mut focus = MenuFocus::scrolling(&items.0, &mut cursor, &mut last_cursor);
    let mut inputs = Vec::new();
    let seed_id = egui::Id::new(SEED_FIELD_ID);
    let seed_has_focus = ctx.memory(|m| m.has_focus(seed_id));
    if !seed_has_focus {
        field.draft.clone_from(&settings.seed_text);
    }
    panel_below_title(ctx, "main-menu", |ui| {
        for mode in modes.iter() {
            menu_button(
                ui,
                mode.label,
                MenuItem::Play(mode.screen()),
                &mut focus,
                &mut inputs,
            );
        }
        let blurb = modes
            .iter()
            .find(|mode| focus.is_on(MenuItem::Play(mode.screen())))
            .map_or("Choose a mode with the arrow keys or the mouse.", |mode| {
                mode.blurb
            });
        ui.label(styled(blurb, text::NOTE, DIM.egui()));
        ui.add_space(6.0);
        let dailies = daily_items(&modes);
        cursor_row(ui, focus.is_on_any(&dailies), |ui| {
            let today = date_of(unix_now_s());
            ui.label(RichText::new(format!("Daily {today}")).color(SAND.egui()));
            small_buttons(ui, &dailies, &mut focus, &mut inputs);
        });
        ui.add_space(6.0);

        let seed_items = [MenuItem::Seed, MenuItem::RandomizeSeed, MenuItem::CopySeed];
        cursor_row(ui, focus.is_on_any(&seed_items), |ui| {
            ui.label(RichText::new("Seed").color(SAND.egui()));
            let edit = ui.add(
                egui::TextEdit::singleline(&mut field.draft)
                    .id(seed_id)
                    .desired_width(150.0)
                    .char_limit(MAX_SEED_TEXT_CHARS)
                    .hint_text("number or word"),
            );
            focus.follow_mouse(ui, &edit, MenuItem::Seed);
            focus.keep_in_sight(&edit, MenuItem::Seed);
            if edit.lost_focus() {
                if ui.input(|input| input.key_pressed(egui::Key::Escape)) {
                    // Esc abandons the edit; Enter or clicking elsewhere keeps it.
                    field.draft.clone_from(&settings.seed_text);
                } else {
                    inputs.push(MenuInput::SeedTyped(field.draft.clone()));
                }
            }
            small_buttons(
                ui,
                &[MenuItem::RandomizeSeed, MenuItem::CopySeed],
                &mut focus,
                &mut inputs,
            );
            if std::mem::take(&mut requests.focus_seed_field) {
                edit.request_focus();
            }
        });
        if seed_has_focus {
            let preview = match parse_seed(&field.draft) {
                Ok(value) => format!("= {value}   (Enter keeps it, Esc cancels)"),
                Err(err) => format!("{err}"),
            };
            note(ui, preview);
        }

        cursor_row(ui, focus.is_on(MenuItem::Difficulty), |ui| {
            ui.label(RichText::new("Difficulty").color(SAND.egui()));
            for difficulty in Difficulty::ALL {
                let response = button(
                    ui,
                    egui::Button::new(difficulty.label()),
                    settings.difficulty == difficulty,
                );
                focus.follow_mouse(ui, &response, MenuItem::Difficulty);
                focus.keep_in_sight(&response, MenuItem::Difficulty);
                if response.clicked() {
                    inputs.push(MenuInput::DifficultyChosen(difficulty));
                }
            }
        });
        note(ui, difficulty_note(modes.iter()));
        ui.add_space(6.0);
        for item in [MenuItem::Records, MenuItem::Settings, MenuItem::Quit] {
            menu_button(ui, item_label(item), item, &mut focus, &mut inputs);
        }
        if let Some((words, posted)) = &requests.notice
            && time.elapsed_secs() - posted < NOTICE_SECONDS
        {
            warning(ui, words.clone());
        }
    });
    if let Some(words) = requests.copy_to_clipboard.take() {
        ctx.copy_text(words);
    }
    writer.write_batch(inputs);
    Ok(())
}

/// One row of the settings page, framed while the keyboard cursor is on it.
fn page_row(
    ui: &mut egui::Ui,
    row: &SettingRow,
    (focus, focus_text): (&mut MenuFocus, &mut Option<MenuItem>),
    (inputs, drafts): (&mut Vec<MenuInput>, &mut TextDrafts),
) {
    let shown = ui.scope(|ui| {
        cursor_row(ui, focus.is_on(row.item), |ui| {
            let response = setting_widget(ui, row, inputs, drafts);
            if *focus_text == Some(row.item) {
                response.request_focus();
                *focus_text = None;
            }
            focus.follow_mouse(ui, &response, row.item);
        });
    });
    focus.keep_in_sight(&shown.response, row.item);
}

/// What the settings page keeps of the window's height besides its rows, in points: the
/// heading, the Back button, the panel's margins and the footer under it.
const SETTINGS_PAGE_FRAME: f32 = 290.0;
/// The least height the settings page's rows scroll in, in points: a few rows, however small the
/// window.
const LEAST_SETTINGS_ROWS: f32 = 120.0;

/// The height of the settings page's scrolling rows.
fn settings_rows_height(ctx: &egui::Context) -> f32 {
    (ctx.content_rect().height() - SETTINGS_PAGE_FRAME).max(LEAST_SETTINGS_ROWS)
}

#[expect(
    clippy::too_many_arguments,
    reason = "the page shows the core's settings and every mode's section"
)]
fn draw_settings_page(
    mut contexts: EguiContexts,
    screen: Res<State<Screen>>,
    settings: Res<Settings>,
    seed: Res<GameSeed>,
    contributions: Res<MenuContributions>,
    items: Res<OpenMenuItems>,
    mut cursor: ResMut<MenuCursor>,
    mut requests: ResMut<MenuRequests>,
    (mut drafts, mut last_cursor): (Local<TextDrafts>, Local<Option<usize>>),
    mut writer: MessageWriter<MenuInput>,
    (bindings, device): (Single<&InputMap<MenuAction>>, Res<LastDevice>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The page is taller than the room below the title's heading, which goes under the dimming.
    dim_background(ctx);
    if *screen.get() == Screen::Title {
        let keys = menu_keys(&bindings, **device);
        draw_footer(ctx, &settings.seed_text, seed.0, &keys);
    }
    let mut focus = MenuFocus::scrolling(&items.0, &mut cursor, &mut last_cursor);
    let mut inputs = Vec::new();
    let rows_height = settings_rows_height(ctx);
    centered_panel(ctx, "settings", |ui| {
        ui.heading(RichText::new("Settings").color(GOLD.egui()));
        ui.add_space(8.0);
        // More rows than a small window holds: they scroll, the heading and Back stay.
        egui::ScrollArea::vertical()
            .max_height(rows_height)
            .show(ui, |ui| {
                section_label(ui, "Sound and display");
                let focus_text = &mut requests.focus_text_setting;
                for row in core_setting_rows(&settings) {
                    page_row(
                        ui,
                        &row,
                        (&mut focus, focus_text),
                        (&mut inputs, &mut drafts),
                    );
                }
                ui.add_space(4.0);
                for section in contributions.settings_sections() {
                    section_label(ui, section.title);
                    for row in &section.rows {
                        page_row(
                            ui,
                            row,
                            (&mut focus, focus_text),
                            (&mut inputs, &mut drafts),
                        );
                    }
                }
            });
        ui.add_space(10.0);
        menu_button(
            ui,
            item_label(MenuItem::Back),
            MenuItem::Back,
            &mut focus,
            &mut inputs,
        );
    });
    writer.write_batch(inputs);
    Ok(())
}

fn draw_pause_menu(
    mut contexts: EguiContexts,
    screen: Res<State<Screen>>,
    session: Option<Res<PlaySession>>,
    contributions: Res<MenuContributions>,
    items: Res<OpenMenuItems>,
    mut cursor: ResMut<MenuCursor>,
    mut writer: MessageWriter<MenuInput>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut focus = MenuFocus::new(&items.0, &mut cursor);
    let mut inputs = Vec::new();
    let label = |item: MenuItem| {
        contributions
            .pause_actions(*screen.get())
            .find(|&(action, _)| action == item)
            .map_or_else(|| item_label(item), |(_, label)| label)
    };
    modal_panel(ctx, "pause", |ui| {
        ui.heading(RichText::new("Paused").color(GOLD.egui()));
        if let (Some(mode), Some(session)) = (screen.mode(), session.as_deref()) {
            ui.label(styled(
                format!("{}  ·  seed {}", mode.label, session.seed),
                text::NOTE,
                DIM.egui(),
            ));
        }
        ui.add_space(8.0);
        for &item in &items.0 {
            menu_button(ui, label(item), item, &mut focus, &mut inputs);
        }
        note(ui, "Esc resumes");
    });
    writer.write_batch(inputs);
    Ok(())
}

fn draw_storage_warnings(
    mut contexts: EguiContexts,
    mut warnings: ResMut<StorageWarnings>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut dismissed = false;
    egui::Area::new(egui::Id::new("storage-warnings"))
        // Bottom right: clear of the title, the menu and the controls line, and above any page.
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -64.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(PANEL)
                .stroke(egui::Stroke::new(1.5, AMBER.egui()))
                .corner_radius(8.0)
                .inner_margin(12.0)
                .show(ui, |ui| {
                    // Narrow enough to sit beside the main menu and the records page in a
                    // 1280-pixel window, and fixed, so its lines wrap the same every frame.
                    ui.set_width(300.0);
                    ui.label(
                        RichText::new("⚠ Problem with your saved files")
                            .color(AMBER.egui())
                            .strong(),
                    );
                    for words in warnings.0.iter().take(WARNINGS_SHOWN) {
                        ui.label(styled(words, text::SMALL, SAND.egui()));
                    }
                    if warnings.0.len() > WARNINGS_SHOWN {
                        // Every one is in the log as well.
                        note(
                            ui,
                            format!(
                                "and {} more (every one is in the log)",
                                warnings.0.len() - WARNINGS_SHOWN
                            ),
                        );
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
/// as well as our own keyboard handling. Only text fields may hold focus: the seed's and the
/// text settings'.
fn keep_focus_off_buttons(
    mut contexts: EguiContexts,
    contributions: Res<MenuContributions>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let seed_id = egui::Id::new(SEED_FIELD_ID);
    let is_text_field = |id: egui::Id| {
        id == seed_id
            || contributions.settings_sections().iter().any(|section| {
                section.rows.iter().any(|row| {
                    matches!(row.value, SettingValue::Text(_)) && text_field_id(row.item) == id
                })
            })
    };
    ctx.memory_mut(|memory| {
        if let Some(focused) = memory.focused()
            && !is_text_field(focused)
        {
            memory.surrender_focus(focused);
        }
    });
    Ok(())
}
