//! Panel fills painted by the scene behind the UI instead of by egui. Under software rendering a
//! pixel egui fills costs several times one the scene's own shader fills, and on the title screen
//! the panels' fills were most of egui's pixels. A scene that offers slots (the title's tile field
//! does) takes each frame's fills and paints them itself, under all of egui; without an offer,
//! egui paints them as usual.

use bevy_egui::egui::{self, Color32};

/// A panel's or a button's fill as egui would have painted it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backdrop {
    /// The filled rectangle, in points.
    pub rect: egui::Rect,
    /// The radius of its corners, in points.
    pub corner_radius: f32,
    /// Its colour (premultiplied, as egui's colours are).
    pub fill: Color32,
    /// The egui layer it belongs to: the scene paints the background layer's fills (a dimming)
    /// before the panels', whatever order they were handed over in, as egui would have.
    pub order: egui::Order,
}

/// What the scene behind has offered and what panels have handed it since it last took them.
#[derive(Debug, Clone, Default)]
struct Offer {
    slots: usize,
    taken: Vec<Backdrop>,
}

fn offer_id() -> egui::Id {
    egui::Id::new("panel backdrops")
}

/// Says that the scene behind the UI paints up to `slots` panel fills each frame from now on (0
/// withdraws the offer).
pub fn offer(ctx: &egui::Context, slots: usize) {
    ctx.data_mut(|data| {
        data.insert_temp(
            offer_id(),
            Offer {
                slots,
                taken: Vec::new(),
            },
        );
    });
}

/// The fills handed over since the last call, in the order the scene paints them this frame.
pub fn take(ctx: &egui::Context) -> Vec<Backdrop> {
    let mut taken = ctx.data_mut(|data| {
        std::mem::take(&mut data.get_temp_mut_or_default::<Offer>(offer_id()).taken)
    });
    // Stable: panels of one layer keep the order they were shown in.
    taken.sort_by_key(|backdrop| backdrop.order);
    taken
}

/// Hands `backdrop` to the scene behind when it has a slot free; false when egui must paint it.
pub fn hand_over(ctx: &egui::Context, backdrop: Backdrop) -> bool {
    reserve(ctx)
        .map(|index| place(ctx, index, backdrop))
        .is_some()
}

/// Takes a slot for a fill whose rectangle is known only once egui has laid it out, so that it
/// keeps its place in the painting order; `None` when no slot is free.
fn reserve(ctx: &egui::Context) -> Option<usize> {
    ctx.data_mut(|data| {
        let offer = data.get_temp_mut_or_default::<Offer>(offer_id());
        (offer.taken.len() < offer.slots).then(|| {
            // Until it is placed, the slot holds a fill of nothing, which paints nothing.
            offer.taken.push(Backdrop {
                rect: egui::Rect::NOTHING,
                corner_radius: 0.0,
                fill: Color32::TRANSPARENT,
                order: egui::Order::Background,
            });
            offer.taken.len() - 1
        })
    })
}

/// Puts `backdrop` in the slot reserved at `index`.
fn place(ctx: &egui::Context, index: usize, backdrop: Backdrop) {
    ctx.data_mut(|data| {
        if let Some(slot) = data
            .get_temp_mut_or_default::<Offer>(offer_id())
            .taken
            .get_mut(index)
        {
            *slot = backdrop;
        }
    });
}

/// A fill egui has yet to lay out: the scene's slot it may go to, and the place under the widget
/// where egui paints it instead when the scene cannot.
struct PendingFill {
    slot: usize,
    under: egui::layers::ShapeIdx,
}

/// Reserves a slot and a place under the widget about to be added, or `None` when the scene
/// has no slot free (then egui paints the fill as usual).
fn reserve_fill(ui: &egui::Ui) -> Option<PendingFill> {
    let slot = reserve(ui.ctx())?;
    Some(PendingFill {
        slot,
        under: ui.painter().add(egui::Shape::Noop),
    })
}

/// Hands `backdrop` over in its slot when it lies wholly in what `ui` shows; a fill that a
/// scrolling page cuts is painted by egui, which clips it, at the place kept under its widget.
fn finish_fill(ui: &egui::Ui, pending: PendingFill, backdrop: Backdrop) {
    if ui.clip_rect().contains_rect(backdrop.rect) {
        place(ui.ctx(), pending.slot, backdrop);
    } else {
        let fill =
            egui::epaint::RectShape::filled(backdrop.rect, backdrop.corner_radius, backdrop.fill);
        ui.painter().set(pending.under, fill);
    }
}

/// `frame` around `add_contents`. Its fill goes to the scene behind when that has a slot free, so
/// nothing of egui may lie under the frame: use it for panels side by side, not over each other.
pub fn show_frame<R>(
    ui: &mut egui::Ui,
    frame: egui::Frame,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    // Reserved before the contents, so the fills of buttons on the panel are painted over it.
    let pending = if frame.fill == Color32::TRANSPARENT {
        None
    } else {
        reserve_fill(ui)
    };
    let Some(pending) = pending else {
        return frame.show(ui, add_contents);
    };
    let shown = frame.fill(Color32::TRANSPARENT).show(ui, add_contents);
    let backdrop = Backdrop {
        // The response covers the outer margin too; the fill covers the widget rectangle.
        rect: shown.response.rect - frame.outer_margin,
        corner_radius: f32::from(frame.corner_radius.nw),
        fill: frame.fill,
        order: ui.layer_id().order,
    };
    finish_fill(ui, pending, backdrop);
    shown
}

/// Adds `button`, `selected` or not. Its fill goes to the scene behind when that has a slot
/// free, with the colour, corners and growth egui's button style gives a button in its state.
pub fn button(ui: &mut egui::Ui, button: egui::Button<'_>, selected: bool) -> egui::Response {
    let button = button.selected(selected);
    let Some(pending) = reserve_fill(ui) else {
        return ui.add(button);
    };
    let response = ui.add(button.fill(Color32::TRANSPARENT));
    let visuals = ui.visuals();
    let state = visuals.widgets.state(response.widget_state());
    let backdrop = Backdrop {
        rect: response.rect.expand(state.expansion),
        corner_radius: f32::from(state.corner_radius.nw),
        fill: if selected {
            visuals.selection.bg_fill
        } else {
            state.weak_bg_fill
        },
        order: ui.layer_id().order,
    };
    finish_fill(ui, pending, backdrop);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One frame of a UI with two panels side by side, as the title screen's menu and footer,
    /// after a frame that lays them out (egui shows a new area from its second frame) and whose
    /// fills are dropped.
    fn run_frame(ctx: &egui::Context) -> egui::FullOutput {
        let _ = show_panels(ctx);
        take(ctx);
        show_panels(ctx)
    }

    fn show_panels(ctx: &egui::Context) -> egui::FullOutput {
        ctx.run_ui(egui::RawInput::default(), |ui| {
            let ctx = ui.ctx();
            for (id, y) in [("upper", 10.0), ("lower", 300.0)] {
                egui::Area::new(egui::Id::new(id))
                    .fixed_pos(egui::pos2(20.0, y))
                    .show(ctx, |ui| {
                        let frame = egui::Frame::new()
                            .fill(Color32::from_rgba_premultiplied(16, 12, 9, 242))
                            .corner_radius(12.0)
                            .inner_margin(10.0);
                        show_frame(ui, frame, |ui| ui.label("words"));
                    });
            }
        })
    }

    /// How many filled rectangles egui itself painted.
    fn filled_rects(output: &egui::FullOutput) -> usize {
        output
            .shapes
            .iter()
            .filter(|clipped| {
                matches!(&clipped.shape, egui::Shape::Rect(rect) if rect.fill != Color32::TRANSPARENT)
            })
            .count()
    }

    #[test]
    fn without_an_offer_egui_paints_every_fill() {
        let ctx = egui::Context::default();
        let output = run_frame(&ctx);
        assert_eq!(filled_rects(&output), 2);
        assert!(take(&ctx).is_empty());
    }

    #[test]
    fn offered_slots_take_fills_in_order_and_egui_paints_the_rest() {
        let ctx = egui::Context::default();
        offer(&ctx, 1);
        let output = run_frame(&ctx);
        assert_eq!(filled_rects(&output), 1, "the second panel has no slot");
        let taken = take(&ctx);
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].corner_radius, 12.0);
        assert_eq!(
            taken[0].fill,
            Color32::from_rgba_premultiplied(16, 12, 9, 242)
        );
        assert_eq!(taken[0].rect.min, egui::pos2(20.0, 10.0));
        assert_eq!(taken[0].order, egui::Order::Middle);
        assert!(
            taken[0].rect.height() > 20.0,
            "the margins and a line of text"
        );
        // Taken once: the next frame hands its own over.
        assert!(take(&ctx).is_empty());
        run_frame(&ctx);
        assert_eq!(take(&ctx).len(), 1);
        // A dimming handed over after a panel is still painted under it.
        offer(&ctx, 2);
        run_frame(&ctx);
        let dimming = Backdrop {
            rect: ctx.content_rect(),
            corner_radius: 0.0,
            fill: Color32::from_black_alpha(150),
            order: egui::Order::Background,
        };
        assert!(!hand_over(&ctx, dimming), "both slots are taken");
        offer(&ctx, 3);
        run_frame(&ctx);
        assert!(hand_over(&ctx, dimming));
        let taken = take(&ctx);
        assert_eq!(taken.len(), 3);
        assert_eq!(taken[0], dimming);
        assert!(
            taken[1].rect.min.y < taken[2].rect.min.y,
            "the panels in the order shown"
        );
        offer(&ctx, 0);
        assert_eq!(filled_rects(&run_frame(&ctx)), 2, "a withdrawn offer");
    }

    #[test]
    fn buttons_on_a_panel_hand_over_their_fills_after_the_panel_s() {
        let ctx = egui::Context::default();
        offer(&ctx, 8);
        let show = |ctx: &egui::Context| {
            ctx.run_ui(egui::RawInput::default(), |ui| {
                egui::Area::new(egui::Id::new("menu"))
                    .fixed_pos(egui::pos2(40.0, 40.0))
                    .show(ui.ctx(), |ui| {
                        let frame = egui::Frame::new()
                            .fill(Color32::from_rgb(16, 12, 9))
                            .inner_margin(10.0);
                        show_frame(ui, frame, |ui| {
                            button(ui, egui::Button::new("Chosen"), true);
                            button(ui, egui::Button::new("Other"), false);
                        });
                    });
            })
        };
        let _ = show(&ctx);
        take(&ctx);
        let output = show(&ctx);
        assert_eq!(filled_rects(&output), 0, "egui paints none of the fills");
        let taken = take(&ctx);
        assert_eq!(taken.len(), 3);
        assert_eq!(
            taken[0].fill,
            Color32::from_rgb(16, 12, 9),
            "the panel first"
        );
        let visuals = ctx.style_of(ctx.theme()).visuals.clone();
        assert_eq!(taken[1].fill, visuals.selection.bg_fill);
        assert_eq!(taken[2].fill, visuals.widgets.inactive.weak_bg_fill);
        assert!(taken[0].rect.contains_rect(taken[1].rect));
        assert!(taken[1].rect.max.y <= taken[2].rect.min.y);
    }

    #[test]
    fn a_button_a_scrolling_page_cuts_is_painted_by_egui_which_clips_it() {
        let ctx = egui::Context::default();
        offer(&ctx, 8);
        let show = |ctx: &egui::Context| {
            ctx.run_ui(egui::RawInput::default(), |ui| {
                egui::Area::new(egui::Id::new("page"))
                    .fixed_pos(egui::pos2(40.0, 40.0))
                    .show(ui.ctx(), |ui| {
                        egui::ScrollArea::vertical()
                            .max_height(50.0)
                            .show(ui, |ui| {
                                for label in ["first", "second", "third", "fourth"] {
                                    button(ui, egui::Button::new(label), false);
                                }
                            });
                    });
            })
        };
        let _ = show(&ctx);
        take(&ctx);
        let output = show(&ctx);
        let handed: Vec<Backdrop> = take(&ctx)
            .into_iter()
            .filter(|backdrop| backdrop.fill != Color32::TRANSPARENT)
            .collect();
        assert!(!handed.is_empty(), "the first button is wholly in sight");
        assert!(handed.len() < 4, "the page shows 50 points of four buttons");
        // Every fill is painted once: the ones in sight by the scene, the cut ones by egui.
        assert_eq!(filled_rects(&output), 4 - handed.len());
    }
}
