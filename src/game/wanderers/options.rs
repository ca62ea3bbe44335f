//! The player's wanderers settings: how many NPCs, how they wander, their sizes, the stone, and
//! what is drawn.

use crate::logic::sandbox::{FootprintMix, SandboxConfig};
use crate::logic::smoothing::FarthestSearch;
use crate::logic::wander::WanderParams;
use serde::{Deserialize, Serialize};

/// Most NPCs the sandbox runs.
pub const MAX_COUNT: usize = 20_000;
/// Field cells along x.
pub const FIELD_WIDTH: usize = 192;
/// Field cells along y.
pub const FIELD_HEIGHT: usize = 108;
/// The densest stone the sandbox offers (denser fields break into pockets).
pub const MAX_DENSITY: f64 = 0.45;

/// The wanderers section of `settings.json`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
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
            density: 0.25,
            show_targets: false,
            show_paths: true,
        }
    }
}

/// Clamps `value` into `range`, noting the change; a value that is not a number takes `fallback`.
fn clamp_into<T: PartialOrd + Copy + std::fmt::Display>(
    value: &mut T,
    low: T,
    high: T,
    fallback: T,
    name: &str,
    changes: &mut Vec<String>,
) {
    #[expect(clippy::eq_op, reason = "a value unequal to itself is NaN")]
    let is_nan = *value != *value;
    if is_nan || *value < low || *value > high {
        let fixed = if is_nan {
            fallback
        } else if *value < low {
            low
        } else {
            high
        };
        changes.push(format!(
            "wanderers.{name} {value} is outside {low} to {high}; using {fixed}"
        ));
        *value = fixed;
    }
}

impl WanderersOptions {
    /// Replaces out-of-range values with allowed ones and says what was changed.
    pub fn sanitize(&mut self) -> Vec<String> {
        let d = WanderersOptions::default();
        let mut changes = Vec::new();
        let c = &mut changes;
        clamp_into(&mut self.count, 1, MAX_COUNT, d.count, "count", c);
        clamp_into(
            &mut self.wander_max_distance,
            0.5,
            30.0,
            d.wander_max_distance,
            "wander_max_distance",
            c,
        );
        clamp_into(
            &mut self.noise_speed,
            0.01,
            2.0,
            d.noise_speed,
            "noise_speed",
            c,
        );
        clamp_into(
            &mut self.movement_strength,
            0.1,
            20.0,
            d.movement_strength,
            "movement_strength",
            c,
        );
        clamp_into(
            &mut self.arrive_radius,
            0.1,
            5.0,
            d.arrive_radius,
            "arrive_radius",
            c,
        );
        clamp_into(
            &mut self.refresh_every,
            1,
            30,
            d.refresh_every,
            "refresh_every",
            c,
        );
        clamp_into(&mut self.density, 0.0, MAX_DENSITY, d.density, "density", c);
        changes
    }

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

    /// The sandbox these settings make for a seed.
    pub fn config(&self, seed: u64) -> SandboxConfig {
        SandboxConfig {
            seed,
            count: self.count,
            width: FIELD_WIDTH,
            height: FIELD_HEIGHT,
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
        assert_eq!(options.refresh_every, 30);
        assert!(options.sanitize().is_empty());
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
