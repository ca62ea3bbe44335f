//! The player's runner settings: how the run is seen, as the runner's section of the settings
//! page and of `settings.json`.

use crate::game::menu::MenuItem;
use crate::game::menu::rows::{SettingEdit, SettingRow, SettingValue};
use crate::game::settings::{ModeSettings, mode_settings_plugin};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    mode_settings_plugin::<RunnerOptions>(app);
}

/// The view row.
pub const VIEW: MenuItem = MenuItem::Setting("runner.view");

/// How the run is seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunnerView {
    /// From behind and above the runner, the track receding to the horizon.
    #[default]
    Chase,
    /// From straight above, the map-like view.
    TopDown,
}

impl RunnerView {
    /// Both views, the default first.
    pub const ALL: [RunnerView; 2] = [RunnerView::Chase, RunnerView::TopDown];

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            RunnerView::Chase => "Chase",
            RunnerView::TopDown => "Top-down",
        }
    }
}

/// The runner section of `settings.json`.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RunnerOptions {
    /// How the run is seen.
    pub view: RunnerView,
}

impl ModeSettings for RunnerOptions {
    const SECTION: &'static str = "runner";
    const PAGE_TITLE: Option<&'static str> = Some("Runner");

    fn sanitize(&mut self) -> Vec<String> {
        // Every value of the one setting is allowed; an unknown one fails to read and is
        // handled like a damaged section.
        Vec::new()
    }

    fn rows(&self) -> Vec<SettingRow> {
        vec![SettingRow {
            item: VIEW,
            label: "View",
            value: SettingValue::choice(&RunnerView::ALL, self.view, RunnerView::label),
        }]
    }

    fn apply(&mut self, item: MenuItem, edit: SettingEdit) {
        if let (VIEW, SettingEdit::Choice(index)) = (item, edit) {
            self.view = RunnerView::ALL[index];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chase_view_is_the_default_and_the_row_switches_it() {
        let mut options = RunnerOptions::default();
        assert_eq!(options.view, RunnerView::Chase);
        assert_eq!(options.rows()[0].item, VIEW);
        options.apply(VIEW, SettingEdit::Choice(1));
        assert_eq!(options.view, RunnerView::TopDown);
        let text = serde_json::to_string(&options).unwrap();
        assert_eq!(text, r#"{"view":"top_down"}"#);
    }
}
