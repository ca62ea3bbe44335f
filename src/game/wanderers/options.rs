//! The player's wanderers settings: how many NPCs, how they wander, their sizes, the stone, and
//! what is drawn, as rows of the side panel and the wanderers' section of `settings.json`. The
//! wandering ranges are the logic's own ([`crate::logic::wanderers::wander`]).

use crate::game::menu::MenuItem;
use crate::game::menu::rows::{NumberSetting, SettingEdit, SettingRow, SettingValue};
use crate::game::menu::settings_page::{SettingsPage, settings_page};
use crate::game::settings::{ModeSettings, mode_settings_plugin};
use crate::logic::ranges::clamp_into;
use crate::logic::wanderers::sandbox::{
    FootprintMix, MAX_DENSITY, PLAN_BUDGET_PER_STEP, RouteUpkeep, SandboxConfig, StepRules,
    field_size_for,
};
use crate::logic::wanderers::smoothing::FarthestSearch;
use crate::logic::wanderers::wander::{
    ARRIVE_RADIUS, MOVEMENT_STRENGTH, NOISE_SPEED, REFRESH_EVERY, WANDER_DISTANCE, WanderParams,
};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

pub(super) fn plugin(app: &mut App) {
    mode_settings_plugin::<WanderersOptions>(app);
    settings_page::<WanderersOptions>(app);
}

/// Most NPCs the sandbox runs.
pub const MAX_COUNT: usize = 20_000;

/// The number of NPCs row.
pub const COUNT: MenuItem = MenuItem::Setting("wanderers.count");
/// The wander distance row.
pub const WANDER: MenuItem = MenuItem::Setting("wanderers.wander_max_distance");
/// The noise speed row.
pub const NOISE: MenuItem = MenuItem::Setting("wanderers.noise_speed");
/// The movement strength row.
pub const STRENGTH: MenuItem = MenuItem::Setting("wanderers.movement_strength");
/// The arrive radius row.
pub const ARRIVE: MenuItem = MenuItem::Setting("wanderers.arrive_radius");
/// The target refresh row.
pub const REFRESH: MenuItem = MenuItem::Setting("wanderers.refresh_every");
/// The stone density row.
pub const DENSITY: MenuItem = MenuItem::Setting("wanderers.density");
/// The body sizes row.
pub const BODIES: MenuItem = MenuItem::Setting("wanderers.footprints");
/// The keeping-apart switch.
pub const AVOID: MenuItem = MenuItem::Setting("wanderers.avoid");
/// The farthest-node search row.
pub const SEARCH: MenuItem = MenuItem::Setting("wanderers.search");
/// The route upkeep row.
pub const ROUTES: MenuItem = MenuItem::Setting("wanderers.routes");
/// The targets and tethers switch.
pub const SHOW_TARGETS: MenuItem = MenuItem::Setting("wanderers.show_targets");
/// The selected NPC's paths switch.
pub const SHOW_PATHS: MenuItem = MenuItem::Setting("wanderers.show_paths");

/// The NPCs the sandbox may run.
const COUNTS: RangeInclusive<usize> = 1..=MAX_COUNT;
/// The stone densities offered.
const DENSITIES: RangeInclusive<f64> = 0.0..=MAX_DENSITY;

/// The wanderers section of `settings.json`.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WanderersOptions {
    /// NPCs, 1 to [`MAX_COUNT`].
    pub count: usize,
    /// How far targets stray from home, in cells (0.5 to 30).
    pub wander_max_distance: f32,
    /// How fast the noise moves targets (0.01 to 2).
    pub noise_speed: f32,
    /// Top speed, in cells per second (0.1 to 20).
    pub movement_strength: f32,
    /// Slowing distance before a target, in cells (0.1 to 5).
    pub arrive_radius: f32,
    /// Steps between target refreshes (1 to 30).
    pub refresh_every: u32,
    /// Body sizes.
    pub footprints: FootprintMix,
    /// How smoothing finds the farthest visible node.
    pub search: FarthestSearch,
    /// Push apart NPCs whose bodies touch.
    pub avoid: bool,
    /// Whether routes are planned again or repaired when targets move.
    pub routes: RouteUpkeep,
    /// Share of the field made stone (0 to [`MAX_DENSITY`]).
    pub density: f64,
    /// Draw each NPC's target and the tether to its home.
    pub show_targets: bool,
    /// Draw the selected NPC's raw and smoothed paths.
    pub show_paths: bool,
}

impl Default for WanderersOptions {
    fn default() -> Self {
        let params = WanderParams::default();
        Self {
            count: 2_000,
            wander_max_distance: params.wander_max_distance,
            noise_speed: params.noise_speed,
            movement_strength: params.movement_strength,
            arrive_radius: params.arrive_radius,
            refresh_every: params.refresh_every,
            footprints: FootprintMix::default(),
            search: FarthestSearch::default(),
            avoid: true,
            routes: RouteUpkeep::default(),
            density: 0.25,
            show_targets: false,
            show_paths: true,
        }
    }
}

impl WanderersOptions {
    /// The wandering parameters.
    pub fn params(&self) -> WanderParams {
        WanderParams {
            wander_max_distance: self.wander_max_distance,
            noise_speed: self.noise_speed,
            movement_strength: self.movement_strength,
            arrive_radius: self.arrive_radius,
            refresh_every: self.refresh_every,
        }
    }

    /// Takes the wandering parameters.
    fn set_params(&mut self, params: WanderParams) {
        self.wander_max_distance = params.wander_max_distance;
        self.noise_speed = params.noise_speed;
        self.movement_strength = params.movement_strength;
        self.arrive_radius = params.arrive_radius;
        self.refresh_every = params.refresh_every;
    }

    /// How the sandbox steps with these settings.
    pub fn rules(&self) -> StepRules {
        StepRules {
            plan_budget: PLAN_BUDGET_PER_STEP,
            search: self.search,
            avoid: self.avoid,
            routes: self.routes,
        }
    }

    /// The sandbox these settings make for a seed: the field grows with the crowd.
    pub fn config(&self, seed: u64) -> SandboxConfig {
        let (width, height) = field_size_for(self.count, self.footprints, self.density);
        SandboxConfig {
            seed,
            count: self.count,
            width,
            height,
            density: self.density,
            footprints: self.footprints,
        }
    }

    /// Whether going from `self` to `other` needs new NPCs or a new field (not just new
    /// wandering parameters).
    pub fn needs_respawn(&self, other: &WanderersOptions) -> bool {
        self.count != other.count
            || self.footprints != other.footprints
            || self.density != other.density
    }
}

/// A number row of the panel.
fn number_row(
    item: MenuItem,
    label: &'static str,
    value: f64,
    range: RangeInclusive<f64>,
    key_step: f64,
    decimals: usize,
) -> SettingRow {
    SettingRow {
        item,
        label,
        value: SettingValue::Number(NumberSetting::decimal(value, range, key_step, decimals)),
    }
}

/// A range of `f32` settings as the rows' `f64`.
fn wide(range: &RangeInclusive<f32>) -> RangeInclusive<f64> {
    f64::from(*range.start())..=f64::from(*range.end())
}

impl ModeSettings for WanderersOptions {
    const SECTION: &'static str = "wanderers";

    fn sanitize(&mut self) -> Vec<String> {
        let d = WanderersOptions::default();
        let mut params = self.params();
        let mut changes: Vec<String> = params
            .sanitize()
            .into_iter()
            .map(|change| format!("wanderers.{change}"))
            .collect();
        self.set_params(params);
        changes.extend(clamp_into(
            &mut self.count,
            &COUNTS,
            d.count,
            "wanderers.count",
        ));
        changes.extend(clamp_into(
            &mut self.density,
            &DENSITIES,
            d.density,
            "wanderers.density",
        ));
        changes
    }
}

impl SettingsPage for WanderersOptions {
    // The sandbox shows its settings in its own side panel, beside the NPCs they move.
    const PAGE_TITLE: Option<&'static str> = None;

    fn rows(&self) -> Vec<SettingRow> {
        vec![
            SettingRow {
                item: COUNT,
                label: "NPCs",
                value: SettingValue::Number(NumberSetting {
                    logarithmic: true,
                    ..NumberSetting::whole(
                        self.count as f64,
                        *COUNTS.start() as f64..=*COUNTS.end() as f64,
                    )
                }),
            },
            number_row(
                WANDER,
                "wander distance",
                f64::from(self.wander_max_distance),
                wide(&WANDER_DISTANCE),
                0.5,
                1,
            ),
            number_row(
                NOISE,
                "noise speed",
                f64::from(self.noise_speed),
                wide(&NOISE_SPEED),
                0.01,
                2,
            ),
            number_row(
                STRENGTH,
                "movement strength",
                f64::from(self.movement_strength),
                wide(&MOVEMENT_STRENGTH),
                0.1,
                1,
            ),
            number_row(
                ARRIVE,
                "arrive radius",
                f64::from(self.arrive_radius),
                wide(&ARRIVE_RADIUS),
                0.1,
                1,
            ),
            number_row(
                REFRESH,
                "refresh every (steps)",
                f64::from(self.refresh_every),
                f64::from(*REFRESH_EVERY.start())..=f64::from(*REFRESH_EVERY.end()),
                1.0,
                0,
            ),
            number_row(DENSITY, "stone density", self.density, DENSITIES, 0.01, 2),
            SettingRow {
                item: BODIES,
                label: "body sizes",
                value: SettingValue::choice(
                    &FootprintMix::ALL,
                    self.footprints,
                    FootprintMix::label,
                ),
            },
            SettingRow {
                item: AVOID,
                label: "keep apart",
                value: SettingValue::Toggle(self.avoid),
            },
            SettingRow {
                item: SEARCH,
                label: "farthest node",
                value: SettingValue::choice(
                    &FarthestSearch::ALL,
                    self.search,
                    FarthestSearch::name,
                ),
            },
            SettingRow {
                item: ROUTES,
                label: "when targets move",
                value: SettingValue::choice(&RouteUpkeep::ALL, self.routes, RouteUpkeep::name),
            },
            SettingRow {
                item: SHOW_TARGETS,
                label: "show targets and tethers (T)",
                value: SettingValue::Toggle(self.show_targets),
            },
            SettingRow {
                item: SHOW_PATHS,
                label: "show the selected NPC's paths",
                value: SettingValue::Toggle(self.show_paths),
            },
        ]
    }

    fn apply(&mut self, item: MenuItem, edit: SettingEdit) {
        // Rows hand over values already in their ranges.
        match (item, edit) {
            (COUNT, SettingEdit::Number(count)) => self.count = count as usize,
            (WANDER, SettingEdit::Number(cells)) => self.wander_max_distance = cells as f32,
            (NOISE, SettingEdit::Number(speed)) => self.noise_speed = speed as f32,
            (STRENGTH, SettingEdit::Number(speed)) => self.movement_strength = speed as f32,
            (ARRIVE, SettingEdit::Number(cells)) => self.arrive_radius = cells as f32,
            (REFRESH, SettingEdit::Number(steps)) => self.refresh_every = steps as u32,
            (DENSITY, SettingEdit::Number(share)) => self.density = share,
            (BODIES, SettingEdit::Choice(index)) => self.footprints = FootprintMix::ALL[index],
            (SEARCH, SettingEdit::Choice(index)) => self.search = FarthestSearch::ALL[index],
            (ROUTES, SettingEdit::Choice(index)) => self.routes = RouteUpkeep::ALL[index],
            (AVOID, SettingEdit::Toggle(on)) => self.avoid = on,
            (SHOW_TARGETS, SettingEdit::Toggle(on)) => self.show_targets = on,
            (SHOW_PATHS, SettingEdit::Toggle(on)) => self.show_paths = on,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_clamped_with_a_message_each() {
        let mut options = WanderersOptions {
            count: 0,
            wander_max_distance: f32::NAN,
            density: 0.9,
            refresh_every: 99,
            ..WanderersOptions::default()
        };
        let changes = options.sanitize();
        assert_eq!(changes.len(), 4, "{changes:?}");
        assert_eq!(options.count, 1);
        assert_eq!(
            options.wander_max_distance,
            WanderersOptions::default().wander_max_distance
        );
        assert_eq!(options.density, MAX_DENSITY);
        assert_eq!(options.refresh_every, *REFRESH_EVERY.end());
        assert!(
            changes[0].starts_with("wanderers.wander_max_distance"),
            "{changes:?}"
        );
        assert!(options.sanitize().is_empty());
    }

    #[test]
    fn the_rows_offer_the_ranges_the_logic_allows() {
        let options = WanderersOptions::default();
        let rows = options.rows();
        let range_of = |item| {
            rows.iter()
                .find(|row| row.item == item)
                .and_then(|row| match &row.value {
                    SettingValue::Number(number) => Some(number.range.clone()),
                    _ => None,
                })
                .unwrap()
        };
        assert_eq!(range_of(WANDER), wide(&WANDER_DISTANCE));
        assert_eq!(range_of(STRENGTH), wide(&MOVEMENT_STRENGTH));
        assert_eq!(range_of(DENSITY), DENSITIES);
        // Every row's edit lands in the options.
        let mut edited = options;
        for row in &rows {
            let edit = match &row.value {
                SettingValue::Number(number) => SettingEdit::Number(*number.range.end()),
                SettingValue::Choice { choices, .. } => SettingEdit::Choice(choices.len() - 1),
                SettingValue::Toggle(on) => SettingEdit::Toggle(!on),
                SettingValue::Text(text) => SettingEdit::Text(text.value.clone()),
                SettingValue::Press(words) => panic!("the panel has no button row: {words}"),
            };
            edited.apply(row.item, edit);
        }
        assert_eq!(edited.count, MAX_COUNT);
        assert_eq!(edited.wander_max_distance, *WANDER_DISTANCE.end());
        assert_eq!(edited.refresh_every, *REFRESH_EVERY.end());
        assert_eq!(edited.density, MAX_DENSITY);
        assert_eq!(edited.search, FarthestSearch::Exact);
        assert!(edited.show_targets && !edited.show_paths && !edited.avoid);
        let mut checked = edited;
        assert!(checked.sanitize().is_empty());
    }

    #[test]
    fn only_count_sizes_and_stone_need_new_npcs() {
        let a = WanderersOptions::default();
        let faster = WanderersOptions {
            movement_strength: 9.0,
            ..a
        };
        assert!(!a.needs_respawn(&faster));
        assert!(a.needs_respawn(&WanderersOptions { count: 10, ..a }));
        assert!(a.needs_respawn(&WanderersOptions { density: 0.1, ..a }));
    }
}
