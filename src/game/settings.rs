//! The player's settings: the shared seed and difficulty, volume and fullscreen, persisted.
//!
//! This module owns [`GameSeed`] and [`GameDifficulty`]; other plugins only read them. The menu
//! edits [`Settings`] and then writes [`SettingsEdited`]; this plugin derives the shared
//! resources from it and saves the file a moment later, so dragging a slider does not write the
//! file every frame.

use crate::game::maze::options::MazeOptions;
use crate::game::screens::AppSystems;
use crate::game::storage::{StorageDir, StorageWarnings, load_json_or_default, write_json_atomic};
use crate::game::wanderers::options::WanderersOptions;
use crate::logic::difficulty::Difficulty;
use crate::logic::seed::parse_seed;
use bevy::audio::{GlobalVolume, Volume};
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The settings file's name inside [`StorageDir::config`].
pub const SETTINGS_FILE: &str = "settings.json";

/// How long after the last edit the settings are written, so a dragged slider saves once.
const SAVE_DELAY: Duration = Duration::from_millis(400);

/// The seed word a new player starts with.
pub const DEFAULT_SEED_TEXT: &str = "temple";

/// Loudest master volume (1.0 is the sounds as recorded).
pub const MAX_VOLUME: f32 = 1.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .init_resource::<SettingsSaveState>()
        .add_message::<SettingsEdited>()
        .insert_resource(GameSeed(Settings::default().seed()))
        .insert_resource(GameDifficulty(Settings::default().difficulty))
        .init_resource::<LaunchOverrides>()
        .add_systems(PreStartup, (load_settings, apply_launch_overrides).chain())
        .add_systems(
            Update,
            (
                derive_shared_resources.run_if(on_message::<SettingsEdited>),
                save_settings_after_edits
                    .run_if(|state: Res<SettingsSaveState>| state.dirty_since.is_some()),
                apply_fullscreen.run_if(resource_changed::<Settings>),
                apply_volume.run_if(resource_changed::<Settings>),
            )
                .chain()
                .in_set(AppSystems::Present),
        )
        .add_systems(Last, save_settings_on_exit.run_if(on_message::<AppExit>));
}

/// Everything the player sets in the menu, as stored in `settings.json`.
///
/// Missing fields take their defaults, so files from older versions still load; mode settings
/// are added here as the modes arrive.
#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Master volume for every sound, 0.0 (silent) to [`MAX_VOLUME`].
    pub master_volume: f32,
    /// Borderless fullscreen on the current monitor.
    pub fullscreen: bool,
    /// The seed as the player typed it: a number, or a word that is hashed.
    pub seed_text: String,
    /// The difficulty of every mode.
    pub difficulty: Difficulty,
    /// Maze size, algorithm and braid.
    pub maze: MazeOptions,
    /// The wanderers sandbox: NPCs, wandering, sizes, stone and what is drawn.
    pub wanderers: WanderersOptions,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            master_volume: 0.8,
            fullscreen: false,
            seed_text: DEFAULT_SEED_TEXT.to_owned(),
            difficulty: Difficulty::Normal,
            maze: MazeOptions::default(),
            wanderers: WanderersOptions::default(),
        }
    }
}

impl Settings {
    /// The seed that [`Settings::seed_text`] stands for.
    pub fn seed(&self) -> u64 {
        parse_seed(&self.seed_text).unwrap_or_else(|_| {
            parse_seed(DEFAULT_SEED_TEXT).expect("the default seed text is not empty")
        })
    }

    /// Replaces out-of-range values (from a hand-edited file) with allowed ones and says what
    /// was changed, one message per value.
    pub fn sanitize(&mut self) -> Vec<String> {
        let mut changes = Vec::new();
        if !(0.0..=MAX_VOLUME).contains(&self.master_volume) {
            let fixed = if self.master_volume.is_nan() {
                Settings::default().master_volume
            } else {
                self.master_volume.clamp(0.0, MAX_VOLUME)
            };
            changes.push(format!(
                "master_volume {} is outside 0.0 to {MAX_VOLUME}; using {fixed}",
                self.master_volume
            ));
            self.master_volume = fixed;
        }
        if parse_seed(&self.seed_text).is_err() {
            changes.push(format!("seed_text is empty; using \"{DEFAULT_SEED_TEXT}\""));
            self.seed_text = DEFAULT_SEED_TEXT.to_owned();
        }
        changes.extend(self.maze.sanitize());
        changes.extend(self.wanderers.sanitize());
        changes
    }
}

/// The seed every mode generates from. Owned by this module: read it, never write it.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct GameSeed(pub u64);

/// The difficulty every mode plays at. Owned by this module: read it, never write it.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct GameDifficulty(pub Difficulty);

/// Written after [`Settings`] was changed, so the change is applied and saved.
#[derive(Message, Debug, Clone, Copy)]
pub struct SettingsEdited;

/// Seed and difficulty given on the command line: they apply to this session only and are saved
/// only if the player then edits the settings in the menu.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct LaunchOverrides {
    /// The seed text (already checked to be a valid seed).
    pub seed_text: Option<String>,
    /// The difficulty.
    pub difficulty: Option<Difficulty>,
}

/// Whether settings wait to be written, and whether they may be.
#[derive(Resource, Debug, Default)]
struct SettingsSaveState {
    /// Real time of the first edit not yet saved.
    dirty_since: Option<Duration>,
    /// False when a damaged file could not be moved aside, so it must not be overwritten.
    read_only: bool,
}

fn settings_path(dirs: &StorageDir) -> std::path::PathBuf {
    dirs.config.join(SETTINGS_FILE)
}

fn load_settings(
    dirs: Option<Res<StorageDir>>,
    mut settings: ResMut<Settings>,
    mut save_state: ResMut<SettingsSaveState>,
    mut warnings: ResMut<StorageWarnings>,
    mut seed: ResMut<GameSeed>,
    mut difficulty: ResMut<GameDifficulty>,
) {
    let Some(dirs) = dirs else {
        info!("No settings folder: settings are kept for this session only");
        return;
    };
    let path = settings_path(&dirs);
    let loaded = load_json_or_default::<Settings>(&path);
    let mut loaded_settings = loaded.value;
    if let Some(warning) = loaded.warning {
        warn!("{warning}");
        warnings.0.push(warning);
    }
    let fixes = loaded_settings.sanitize();
    if !fixes.is_empty() {
        let warning = format!("Settings had values out of range: {}.", fixes.join("; "));
        warn!("{warning}");
        warnings.0.push(warning);
    }
    save_state.read_only = !loaded.writable;
    seed.0 = loaded_settings.seed();
    difficulty.0 = loaded_settings.difficulty;
    *settings = loaded_settings;
}

fn apply_launch_overrides(
    overrides: Res<LaunchOverrides>,
    mut settings: ResMut<Settings>,
    mut seed: ResMut<GameSeed>,
    mut difficulty: ResMut<GameDifficulty>,
) {
    if let Some(text) = &overrides.seed_text
        && parse_seed(text).is_ok()
    {
        settings.seed_text = text.trim().to_owned();
    }
    if let Some(chosen) = overrides.difficulty {
        settings.difficulty = chosen;
    }
    seed.0 = settings.seed();
    difficulty.0 = settings.difficulty;
}

fn derive_shared_resources(
    settings: Res<Settings>,
    mut seed: ResMut<GameSeed>,
    mut difficulty: ResMut<GameDifficulty>,
    mut save_state: ResMut<SettingsSaveState>,
    time: Res<Time<Real>>,
) {
    seed.set_if_neq(GameSeed(settings.seed()));
    difficulty.set_if_neq(GameDifficulty(settings.difficulty));
    save_state.dirty_since.get_or_insert(time.elapsed());
}

fn save_settings_after_edits(
    dirs: Option<Res<StorageDir>>,
    settings: Res<Settings>,
    mut save_state: ResMut<SettingsSaveState>,
    time: Res<Time<Real>>,
) {
    let Some(since) = save_state.dirty_since else {
        return;
    };
    if time.elapsed().saturating_sub(since) >= SAVE_DELAY {
        save_now(dirs.as_deref(), &settings, &mut save_state);
    }
}

fn save_settings_on_exit(
    dirs: Option<Res<StorageDir>>,
    settings: Res<Settings>,
    mut save_state: ResMut<SettingsSaveState>,
) {
    if save_state.dirty_since.is_some() {
        save_now(dirs.as_deref(), &settings, &mut save_state);
    }
}

fn save_now(dirs: Option<&StorageDir>, settings: &Settings, save_state: &mut SettingsSaveState) {
    save_state.dirty_since = None;
    let Some(dirs) = dirs else {
        return;
    };
    if save_state.read_only {
        warn!("Settings not saved: the damaged settings file could not be moved aside");
        return;
    }
    if let Err(err) = write_json_atomic(&settings_path(dirs), settings) {
        error!("Could not save settings: {err}");
    }
}

fn apply_fullscreen(
    settings: Res<Settings>,
    window: Option<Single<&mut Window, With<PrimaryWindow>>>,
) {
    let Some(mut window) = window else {
        return;
    };
    let wanted = if settings.fullscreen {
        WindowMode::BorderlessFullscreen(MonitorSelection::Current)
    } else {
        WindowMode::Windowed
    };
    if window.mode != wanted {
        window.mode = wanted;
    }
}

fn apply_volume(settings: Res<Settings>, volume: Option<ResMut<GlobalVolume>>) {
    if let Some(mut volume) = volume {
        volume.volume = Volume::Linear(settings.master_volume);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_clamps_volume_and_restores_seed() {
        let mut settings = Settings {
            master_volume: 4.0,
            seed_text: "  ".into(),
            ..Settings::default()
        };
        let changes = settings.sanitize();
        assert_eq!(settings.master_volume, MAX_VOLUME);
        assert_eq!(settings.seed_text, DEFAULT_SEED_TEXT);
        assert_eq!(changes.len(), 2);
        assert!(changes[0].contains("0.0 to 1"), "{}", changes[0]);
    }

    #[test]
    fn sanitize_leaves_good_settings_alone() {
        let mut settings = Settings::default();
        assert!(settings.sanitize().is_empty());
        assert_eq!(settings, Settings::default());
    }

    #[test]
    fn missing_fields_take_defaults() {
        let settings: Settings = serde_json::from_str(r#"{"fullscreen": true}"#).unwrap();
        assert!(settings.fullscreen);
        assert_eq!(settings.seed_text, DEFAULT_SEED_TEXT);
    }
}
