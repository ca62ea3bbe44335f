//! Settings as rows: what a row shows (a list to choose from, a number in a range, an on/off
//! switch, a line of text) and the one rule for what a key or a click does to it. The settings page, a mode's
//! own panel and the headless tests all edit settings through these rows.

use super::{MenuInput, MenuItem};
use std::ops::RangeInclusive;

/// One setting as the menus show it.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingRow {
    /// The menu item that stands for it.
    pub item: MenuItem,
    /// Its name.
    pub label: &'static str,
    /// Its current value and what it may take.
    pub value: SettingValue,
}

/// A setting's current value and what it may take.
#[derive(Debug, Clone, PartialEq)]
pub enum SettingValue {
    /// One of a list.
    Choice {
        /// What each choice is called.
        choices: Vec<&'static str>,
        /// The chosen one.
        selected: usize,
    },
    /// A number in a range.
    Number(NumberSetting),
    /// On or off.
    Toggle(bool),
    /// A line of text, typed into its field (Enter on the row, or a click, puts the keys
    /// there; Enter keeps the text, Esc abandons it).
    Text(TextSetting),
    /// A button showing this text; Enter or a click on it is the feature's to answer (a key
    /// binding to change, the bindings to reset).
    Press(String),
}

/// A text setting: its value, its longest length and what an empty field suggests.
#[derive(Debug, Clone, PartialEq)]
pub struct TextSetting {
    /// The value.
    pub value: String,
    /// The most characters the field takes.
    pub max_chars: usize,
    /// Shown in an empty field.
    pub hint: &'static str,
}

impl SettingValue {
    /// A choice among `all`, each called what `label` says, with `current` chosen.
    pub fn choice<T: Copy + PartialEq>(
        all: &[T],
        current: T,
        label: impl Fn(T) -> &'static str,
    ) -> SettingValue {
        SettingValue::Choice {
            choices: all.iter().map(|&value| label(value)).collect(),
            selected: all.iter().position(|&value| value == current).unwrap_or(0),
        }
    }
}

/// A number setting: its value, range, how far a key press moves it and how it is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberSetting {
    /// The value.
    pub value: f64,
    /// The values allowed.
    pub range: RangeInclusive<f64>,
    /// How far Left or Right moves it; key presses land on whole multiples of it.
    pub key_step: f64,
    /// Decimals shown (0: whole numbers only).
    pub decimals: usize,
    /// What the shown number is multiplied by (100 for a share shown in percent).
    pub display_scale: f64,
    /// Shown after the number.
    pub suffix: &'static str,
    /// A slider that spends more of its length on small values.
    pub logarithmic: bool,
}

impl NumberSetting {
    /// A whole number in `range`, one per key press.
    pub fn whole(value: f64, range: RangeInclusive<f64>) -> NumberSetting {
        NumberSetting {
            value,
            range,
            key_step: 1.0,
            decimals: 0,
            display_scale: 1.0,
            suffix: "",
            logarithmic: false,
        }
    }

    /// A number in `range` shown with `decimals` decimals, moved by `key_step` per key press.
    pub fn decimal(
        value: f64,
        range: RangeInclusive<f64>,
        key_step: f64,
        decimals: usize,
    ) -> NumberSetting {
        NumberSetting {
            key_step,
            decimals,
            ..NumberSetting::whole(value, range)
        }
    }
}

/// What an input does to a setting.
#[derive(Debug, Clone, PartialEq)]
pub enum SettingEdit {
    /// Choose this entry of the list.
    Choice(usize),
    /// Take this number (already in range).
    Number(f64),
    /// Switch on or off.
    Toggle(bool),
    /// Take this text (the setting checks it).
    Text(String),
}

impl SettingRow {
    /// What `input` does to this row, or `None` when it is about another item or does nothing
    /// here. Enter and Right step a list forwards, Left backwards, both wrapping; Left and Right
    /// move a number by its key step (onto whole steps, inside the range); Enter, Left and Right
    /// flip a switch; a click or a slider sets a value directly; a text field's Enter sets its
    /// text.
    pub fn edit(&self, input: &MenuInput) -> Option<SettingEdit> {
        if let MenuInput::TextSet(item, text) = input {
            let text_row = *item == self.item && matches!(self.value, SettingValue::Text(_));
            return text_row.then(|| SettingEdit::Text(text.clone()));
        }
        let (item, action) = match input {
            MenuInput::Activated(item) => (*item, Action::Enter),
            MenuInput::Adjusted(item, step) => (*item, Action::Step(*step)),
            MenuInput::Chosen(item, index) => (*item, Action::Choose(*index)),
            MenuInput::NumberSet(item, value) => (*item, Action::Set(*value)),
            _ => return None,
        };
        if item != self.item {
            return None;
        }
        match (&self.value, action) {
            (SettingValue::Choice { choices, selected }, Action::Enter | Action::Step(_)) => {
                let step = match action {
                    Action::Step(step) if step < 0 => -1,
                    _ => 1,
                };
                let count = choices.len() as isize;
                let next = (*selected as isize + step).rem_euclid(count);
                Some(SettingEdit::Choice(next as usize))
            }
            (SettingValue::Choice { choices, .. }, Action::Choose(index)) => {
                (index < choices.len()).then_some(SettingEdit::Choice(index))
            }
            (SettingValue::Number(number), Action::Step(step)) => {
                let moved = number.value + f64::from(step) * number.key_step;
                // Whole steps, so repeated presses land exactly on the ends and back.
                let on_step = (moved / number.key_step).round() * number.key_step;
                Some(SettingEdit::Number(clamp(on_step, &number.range)))
            }
            (SettingValue::Number(number), Action::Set(value)) if !value.is_nan() => {
                // As precise as it is shown: a slider at "80 %" sets 0.8, not 0.8013.
                let shown = number.display_scale * 10f64.powi(number.decimals as i32);
                let value = (value * shown).round() / shown;
                Some(SettingEdit::Number(clamp(value, &number.range)))
            }
            (SettingValue::Toggle(on), Action::Enter | Action::Step(_)) => {
                Some(SettingEdit::Toggle(!on))
            }
            // Enter on a number has nothing to do; a number is not chosen from a list.
            _ => None,
        }
    }

    /// Whether Left and Right move this row by small steps (a number) rather than choosing.
    pub fn is_number(&self) -> bool {
        matches!(self.value, SettingValue::Number(_))
    }
}

/// What kind of input reached a row.
#[derive(Debug, Clone, Copy)]
enum Action {
    /// Enter, or a click.
    Enter,
    /// Left (-1) or Right (+1).
    Step(i8),
    /// A list entry picked with the mouse.
    Choose(usize),
    /// A number set with the mouse.
    Set(f64),
}

fn clamp(value: f64, range: &RangeInclusive<f64>) -> f64 {
    value.clamp(*range.start(), *range.end())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ITEM: MenuItem = MenuItem::Setting("test.row");

    #[test]
    fn a_text_row_takes_its_field_s_text_and_nothing_else() {
        let row = SettingRow {
            item: ITEM,
            label: "Text",
            value: SettingValue::Text(TextSetting {
                value: "old".to_owned(),
                max_chars: 10,
                hint: "",
            }),
        };
        let typed = MenuInput::TextSet(ITEM, "new".to_owned());
        assert_eq!(row.edit(&typed), Some(SettingEdit::Text("new".to_owned())));
        let elsewhere = MenuInput::TextSet(MenuItem::Setting("other"), "new".to_owned());
        assert_eq!(row.edit(&elsewhere), None);
        for key in [MenuInput::Activated(ITEM), MenuInput::Adjusted(ITEM, 1)] {
            assert_eq!(row.edit(&key), None, "{key:?}: keys go into the field");
        }
        // A number row is not edited by text.
        let number = SettingRow {
            value: SettingValue::Number(NumberSetting::whole(1.0, 0.0..=5.0)),
            ..row
        };
        assert_eq!(number.edit(&typed), None);
    }

    fn choice(selected: usize) -> SettingRow {
        SettingRow {
            item: ITEM,
            label: "Choice",
            value: SettingValue::Choice {
                choices: vec!["a", "b", "c"],
                selected,
            },
        }
    }

    fn number(value: f64) -> SettingRow {
        SettingRow {
            item: ITEM,
            label: "Number",
            value: SettingValue::Number(NumberSetting::decimal(value, 0.0..=1.0, 0.05, 2)),
        }
    }

    #[test]
    fn lists_wrap_both_ways_and_enter_steps_forwards() {
        assert_eq!(
            choice(2).edit(&MenuInput::Adjusted(ITEM, 1)),
            Some(SettingEdit::Choice(0))
        );
        assert_eq!(
            choice(0).edit(&MenuInput::Adjusted(ITEM, -1)),
            Some(SettingEdit::Choice(2))
        );
        assert_eq!(
            choice(1).edit(&MenuInput::Activated(ITEM)),
            Some(SettingEdit::Choice(2))
        );
        assert_eq!(
            choice(1).edit(&MenuInput::Chosen(ITEM, 0)),
            Some(SettingEdit::Choice(0))
        );
        assert_eq!(choice(1).edit(&MenuInput::Chosen(ITEM, 3)), None);
    }

    #[test]
    fn numbers_step_onto_whole_steps_and_stay_in_range() {
        assert_eq!(
            number(0.8).edit(&MenuInput::Adjusted(ITEM, -1)),
            Some(SettingEdit::Number(0.75))
        );
        // Off-step values snap onto a step; the ends hold.
        let Some(SettingEdit::Number(snapped)) = number(0.33).edit(&MenuInput::Adjusted(ITEM, 1))
        else {
            panic!("a number edit");
        };
        assert!((snapped - 0.4).abs() < 1e-9, "{snapped}");
        assert_eq!(
            number(1.0).edit(&MenuInput::Adjusted(ITEM, 1)),
            Some(SettingEdit::Number(1.0))
        );
        assert_eq!(
            number(0.5).edit(&MenuInput::NumberSet(ITEM, 3.0)),
            Some(SettingEdit::Number(1.0))
        );
        assert_eq!(
            number(0.5).edit(&MenuInput::NumberSet(ITEM, f64::NAN)),
            None
        );
        assert_eq!(number(0.5).edit(&MenuInput::Activated(ITEM)), None);
    }

    #[test]
    fn switches_flip_and_other_items_are_ignored() {
        let switch = SettingRow {
            item: ITEM,
            label: "Switch",
            value: SettingValue::Toggle(false),
        };
        assert_eq!(
            switch.edit(&MenuInput::Activated(ITEM)),
            Some(SettingEdit::Toggle(true))
        );
        assert_eq!(
            switch.edit(&MenuInput::Adjusted(ITEM, -1)),
            Some(SettingEdit::Toggle(true))
        );
        assert_eq!(switch.edit(&MenuInput::Activated(MenuItem::Back)), None);
    }
}
