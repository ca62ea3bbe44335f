//! The player's runner settings: how the run is seen, and the first runs' guidance with what it
//! has taught, as the runner's section of the settings page and of `settings.json`. The view chosen is also a state, and the view shown one computed
//! from it and the screen, so that each view's entities and systems exist only while it is shown
//! and switching the view in the settings works in the middle of a run.

use crate::game::camera::end_mode_view;
use crate::game::menu::MenuItem;
use crate::game::menu::rows::{SettingEdit, SettingRow, SettingValue};
use crate::game::menu::settings_page::{SettingsPage, settings_page};
use crate::game::screens::{AppSystems, Screen};
use crate::game::settings::{ModeSettings, mode_settings_plugin};
use crate::logic::guidance::Guidance;
use crate::logic::runner::guide::Lesson;
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    mode_settings_plugin::<RunnerOptions>(app);
    settings_page::<RunnerOptions>(app);
    app.init_state::<RunnerView>()
        .add_computed_state::<ShownView>()
        .add_systems(
            PreUpdate,
            follow_the_view_setting.run_if(resource_changed::<RunnerOptions>),
        );
}

/// The view row.
pub const VIEW: MenuItem = MenuItem::Setting("runner.view");
/// The first runs' guidance row.
pub const GUIDANCE: MenuItem = MenuItem::Setting("runner.guidance");

/// How the run is seen: a setting, and a state that follows it.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
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

/// The view on screen: the chosen one while the runner's screen is shown, none otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShownView(pub RunnerView);

impl ComputedStates for ShownView {
    type SourceStates = (Screen, RunnerView);

    fn compute((screen, view): (Screen, RunnerView)) -> Option<ShownView> {
        (screen == super::SCREEN).then_some(ShownView(view))
    }
}

/// Adds the life of one view of the run, whose state while it is set up is the resource `V`:
/// `set_up` runs whenever the view is shown and not set up (on entering the runner's screen,
/// after a restart, when the view is chosen in the middle of a run); leaving the view or the
/// screen drops `V` and puts the camera back, and the view's entities, which carry
/// [`view_lifetime`], go.
pub(super) fn add_view<V: Resource, M>(
    app: &mut App,
    view: RunnerView,
    set_up: impl IntoScheduleConfigs<ScheduleSystem, M>,
) {
    let shown = ShownView(view);
    app.add_systems(OnExit(shown), end_mode_view::<V>)
        .add_systems(OnExit(super::SCREEN), end_mode_view::<V>)
        .add_systems(
            Update,
            set_up
                .in_set(AppSystems::Update)
                .run_if(in_state(shown).and_then(not(resource_exists::<V>))),
        );
}

/// What every entity of a view carries: it goes when the view or the screen ends.
pub(super) fn view_lifetime(view: RunnerView) -> (DespawnOnExit<ShownView>, DespawnOnExit<Screen>) {
    (DespawnOnExit(ShownView(view)), DespawnOnExit(super::SCREEN))
}

/// The view state follows the setting, loaded or changed.
fn follow_the_view_setting(
    options: Res<RunnerOptions>,
    view: Res<State<RunnerView>>,
    mut next: ResMut<NextState<RunnerView>>,
) {
    if *view.get() != options.view {
        next.set(options.view);
    }
}

/// The runner section of `settings.json`.
#[derive(Resource, Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RunnerOptions {
    /// How the run is seen.
    pub view: RunnerView,
    /// Until every lesson is learned, runs name what is coming and the key that meets it, and
    /// wait for it (see [`crate::logic::runner::guide`]).
    pub guidance: Guidance<Lesson>,
}

impl ModeSettings for RunnerOptions {
    const SECTION: &'static str = "runner";

    fn sanitize(&mut self) -> Vec<String> {
        // Every value of each setting is allowed; an unknown view or lesson fails to read and
        // is handled like a damaged section.
        Vec::new()
    }
}

impl SettingsPage for RunnerOptions {
    const PAGE_TITLE: Option<&'static str> = Some("Runner");

    fn rows(&self) -> Vec<SettingRow> {
        vec![
            SettingRow {
                item: VIEW,
                label: "View",
                value: SettingValue::choice(&RunnerView::ALL, self.view, RunnerView::label),
            },
            SettingRow {
                item: GUIDANCE,
                label: "First-run guidance",
                value: SettingValue::Toggle(self.guidance.on),
            },
        ]
    }

    fn apply(&mut self, item: MenuItem, edit: SettingEdit) {
        match (item, edit) {
            (VIEW, SettingEdit::Choice(index)) => self.view = RunnerView::ALL[index],
            (GUIDANCE, SettingEdit::Toggle(on)) => self.guidance.switch(on),
            _ => {}
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
        assert_eq!(
            text,
            r#"{"view":"top_down","guidance":{"on":true,"learned":[]}}"#
        );
        let old: RunnerOptions = serde_json::from_str(r#"{"view":"top_down"}"#).unwrap();
        assert_eq!(
            old, options,
            "a section from before the guidance reads as guided"
        );
    }

    #[test]
    fn the_guidance_row_switches_the_runners_guidance() {
        let mut options = RunnerOptions::default();
        assert!(options.guidance.guides(&Lesson::ALL));
        assert_eq!(options.rows()[1].item, GUIDANCE);
        options.apply(GUIDANCE, SettingEdit::Toggle(false));
        assert!(!options.guidance.on);
        let text = r#"{"guidance":{"learned":["log","junction","sword"]}}"#;
        assert!(
            serde_json::from_str::<RunnerOptions>(text).is_err(),
            "an unknown lesson"
        );
    }
}
