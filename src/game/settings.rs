//! The player's settings: the shared seed and difficulty, the master, music and effects volumes,
//! fullscreen, ghosts, and each mode's own section, all kept in `settings.json`.
//!
//! This module owns [`GameSeed`] and [`GameDifficulty`]; other plugins only read them. The menu
//! edits [`Settings`] and then writes [`SettingsEdited`]; this plugin derives the shared
//! resources from it and saves the file a moment later, so dragging a slider does not write the
//! file every frame. A mode keeps its settings as a resource of its own type (see
//! [`ModeSettings`]); this module stores them as the mode's section of the same file without
//! knowing their type.

use crate::files::{load_json_checked, write_json_atomic};
use crate::game::screens::AppSystems;
use crate::game::storage::{StorageDir, StorageWarnings};
use crate::logic::difficulty::Difficulty;
use crate::logic::ranges::clamp_into;
use crate::logic::seed::parse_seed;
use bevy::audio::{GlobalVolume, Volume};
use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// The settings file's name inside [`StorageDir::config`].
pub const SETTINGS_FILE: &str = "settings.json";

/// How long after the last edit the settings are written, so a dragged slider saves once.
const SAVE_DELAY: Duration = Duration::from_millis(400);

/// The seed word a new player starts with.
pub const DEFAULT_SEED_TEXT: &str = "temple";

/// Loudest volume of every channel (1.0 is the sounds as recorded).
pub const MAX_VOLUME: f32 = 1.0;

/// The sizes the menus and HUDs can be drawn at, as a multiple of their own size.
pub const UI_SCALES: std::ops::RangeInclusive<f32> = 0.75..=2.0;
/// The steps between UI sizes.
pub const UI_SCALE_STEP: f32 = 0.25;

/// A volume the player sets: the master volume scales the other two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VolumeChannel {
    /// Everything the game plays.
    Master,
    /// The music loops.
    Music,
    /// The sound effects.
    Effects,
}

impl VolumeChannel {
    /// Every channel, in the settings page's order.
    pub const ALL: [VolumeChannel; 3] = [
        VolumeChannel::Master,
        VolumeChannel::Music,
        VolumeChannel::Effects,
    ];

    /// The name shown on the settings page.
    pub const fn label(self) -> &'static str {
        match self {
            VolumeChannel::Master => "Master volume",
            VolumeChannel::Music => "Music volume",
            VolumeChannel::Effects => "Effects volume",
        }
    }

    /// The field's name in `settings.json`.
    pub const fn field(self) -> &'static str {
        match self {
            VolumeChannel::Master => "master_volume",
            VolumeChannel::Music => "music_volume",
            VolumeChannel::Effects => "effects_volume",
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .init_resource::<SettingsSaveState>()
        .init_resource::<ModeSections>()
        .add_message::<SettingsEdited>()
        .insert_resource(GameSeed(Settings::default().seed()))
        .insert_resource(GameDifficulty(Settings::default().difficulty))
        .init_resource::<LaunchOverrides>()
        .add_systems(
            PreStartup,
            (load_settings, apply_launch_overrides)
                .chain()
                .in_set(SettingsLoaded),
        )
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

/// Everything the player sets, as stored in `settings.json`.
///
/// Missing fields take their defaults, so files from older versions still load.
#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Master volume for every sound, 0.0 (silent) to [`MAX_VOLUME`].
    pub master_volume: f32,
    /// Volume of the music, under the master volume, 0.0 to [`MAX_VOLUME`].
    pub music_volume: f32,
    /// Volume of the sound effects, under the master volume, 0.0 to [`MAX_VOLUME`].
    pub effects_volume: f32,
    /// Borderless fullscreen on the current monitor.
    pub fullscreen: bool,
    /// The best run of the seed runs beside the player as a ghost.
    pub ghosts: bool,
    /// Smooth edges with 4x multisampling. Off by default: under software rendering it costs
    /// about half of every frame.
    pub antialiasing: bool,
    /// No screen shake, slow motion or speed lines, for players whom motion on screen troubles.
    pub reduce_motion: bool,
    /// The size of the menus and HUDs, [`UI_SCALES`] times their own.
    pub ui_scale: f32,
    /// HUDs on solid black with light text, instead of a see-through bar with dim names.
    pub high_contrast_hud: bool,
    /// The seed as the player typed it: a number, or a word that is hashed.
    pub seed_text: String,
    /// The difficulty of every mode.
    pub difficulty: Difficulty,
    /// The keys and gamepad buttons the player chose, by section of actions (`"runner"`) and
    /// action (`"jump"`); sections and actions left out keep their defaults. Names the game
    /// does not know are set aside with a warning when the bindings are applied.
    pub controls: BTreeMap<String, BTreeMap<String, SavedBindings>>,
    /// Each mode's own section, by its [`ModeSettings::SECTION`] name, as the mode wrote it.
    #[serde(flatten)]
    pub modes: BTreeMap<String, serde_json::Value>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            master_volume: 0.8,
            music_volume: 0.6,
            effects_volume: 1.0,
            fullscreen: false,
            ghosts: true,
            antialiasing: false,
            reduce_motion: false,
            ui_scale: 1.0,
            high_contrast_hud: false,
            seed_text: DEFAULT_SEED_TEXT.to_owned(),
            difficulty: Difficulty::Normal,
            controls: BTreeMap::new(),
            modes: BTreeMap::new(),
        }
    }
}

/// One action's bindings as saved: keys and gamepad buttons by the names Bevy gives them
/// (`"KeyW"`, `"South"`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedBindings {
    /// The keys.
    pub keys: Vec<String>,
    /// The gamepad buttons.
    pub buttons: Vec<String>,
}

impl Settings {
    /// The seed that [`Settings::seed_text`] stands for.
    pub fn seed(&self) -> u64 {
        parse_seed(&self.seed_text)
            .or_else(|_| parse_seed(DEFAULT_SEED_TEXT))
            .unwrap_or_default()
    }

    /// The volume of `channel`, 0.0 to [`MAX_VOLUME`].
    pub fn volume(&self, channel: VolumeChannel) -> f32 {
        match channel {
            VolumeChannel::Master => self.master_volume,
            VolumeChannel::Music => self.music_volume,
            VolumeChannel::Effects => self.effects_volume,
        }
    }

    /// The volume of `channel`, to change.
    pub fn volume_mut(&mut self, channel: VolumeChannel) -> &mut f32 {
        match channel {
            VolumeChannel::Master => &mut self.master_volume,
            VolumeChannel::Music => &mut self.music_volume,
            VolumeChannel::Effects => &mut self.effects_volume,
        }
    }

    /// Replaces out-of-range values of the shared settings (from a hand-edited file) with allowed
    /// ones and says what was changed, one message per value.
    pub fn sanitize(&mut self) -> Vec<String> {
        let defaults = Settings::default();
        let mut changes: Vec<String> = VolumeChannel::ALL
            .into_iter()
            .filter_map(|channel| {
                clamp_into(
                    self.volume_mut(channel),
                    &(0.0..=MAX_VOLUME),
                    defaults.volume(channel),
                    channel.field(),
                )
            })
            .collect();
        changes.extend(clamp_into(
            &mut self.ui_scale,
            &UI_SCALES,
            defaults.ui_scale,
            "ui_scale",
        ));
        if let Err(err) = parse_seed(&self.seed_text) {
            changes.push(format!("seed_text: {err}; using \"{DEFAULT_SEED_TEXT}\""));
            self.seed_text = DEFAULT_SEED_TEXT.to_owned();
        }
        changes
    }

    /// A mode's settings as stored, or its defaults when the file has no section for them.
    pub fn mode<T: ModeSettings>(&self) -> T {
        self.modes
            .get(T::SECTION)
            .and_then(|value| serde_json::from_value(value.clone()).ok())
            .unwrap_or_default()
    }
}

/// A mode's own settings: a resource the mode reads and edits, kept as the section
/// [`ModeSettings::SECTION`] of `settings.json`. Register it with [`mode_settings_plugin`].
pub trait ModeSettings:
    Resource
    + Component<Mutability = Mutable>
    + Clone
    + PartialEq
    + Default
    + Serialize
    + DeserializeOwned
{
    /// The section's name in the file (`"maze"`).
    const SECTION: &'static str;

    /// Replaces out-of-range values with allowed ones and says what was changed, one message
    /// per value, each naming the value as `section.field`.
    fn sanitize(&mut self) -> Vec<String>;
}

/// Registers a mode's settings `T`: read from their section when the game starts (a section that
/// cannot be read sets the whole file aside, like a damaged file), and written back into
/// [`Settings`] and saved when they change. The menu's
/// [`settings_page`](crate::game::menu::settings_page::settings_page) edits them.
pub fn mode_settings_plugin<T: ModeSettings>(app: &mut App) {
    app.init_resource::<ModeSections>()
        .world_mut()
        .resource_mut::<ModeSections>()
        .0
        .push(ModeSection {
            name: T::SECTION,
            sanitize: sanitize_section::<T>,
        });
    app.init_resource::<T>()
        .add_systems(PreStartup, insert_mode_settings::<T>.after(SettingsLoaded))
        .add_systems(
            Update,
            store_mode_settings::<T>
                .run_if(resource_changed::<T>)
                .before(derive_shared_resources)
                .in_set(AppSystems::Present),
        );
}

/// The settings file has been read (and the command line's overrides applied).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct SettingsLoaded;

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

/// The modes' sections, so loading can check and sanitise them without knowing their types.
#[derive(Resource, Debug, Default)]
struct ModeSections(Vec<ModeSection>);

/// One mode's section.
#[derive(Debug)]
struct ModeSection {
    name: &'static str,
    /// Reads the section as the mode's type and sanitises it in place: the changes made, or why
    /// it cannot be read.
    sanitize: fn(&mut serde_json::Value) -> Result<Vec<String>, String>,
}

fn sanitize_section<T: ModeSettings>(value: &mut serde_json::Value) -> Result<Vec<String>, String> {
    let mut settings: T = serde_json::from_value(value.clone())
        .map_err(|err| format!("its {} section: {err}", T::SECTION))?;
    let changes = settings.sanitize();
    if !changes.is_empty() {
        *value = serde_json::to_value(&settings).map_err(|err| err.to_string())?;
    }
    Ok(changes)
}

fn settings_path(dirs: &StorageDir) -> std::path::PathBuf {
    dirs.config.join(SETTINGS_FILE)
}

/// The settings in `dirs`, read without changing anything on disk (a damaged file gives the
/// defaults and stays where it is): for the bare window of the frame benchmark, which draws as
/// the game would with them.
pub fn read_only(dirs: &StorageDir) -> Settings {
    crate::files::read_plain_file(&settings_path(dirs), crate::files::MAX_JSON_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn load_settings(
    dirs: Option<Res<StorageDir>>,
    sections: Res<ModeSections>,
    mut settings: ResMut<Settings>,
    mut save_state: ResMut<SettingsSaveState>,
    mut warnings: ResMut<StorageWarnings>,
) {
    let Some(dirs) = dirs else {
        info!("No settings folder: settings are kept for this session only");
        return;
    };
    // A mode section the mode cannot read makes the file damaged: it is set aside whole.
    let loaded = load_json_checked::<Settings>(&settings_path(&dirs), |loaded| {
        for section in &sections.0 {
            if let Some(value) = loaded.modes.get(section.name) {
                (section.sanitize)(&mut value.clone())?;
            }
        }
        Ok(())
    });
    let mut loaded_settings = loaded.value;
    if let Some(warning) = loaded.warning {
        warn!("{warning}");
        warnings.0.push(warning);
    }
    let mut fixes = loaded_settings.sanitize();
    for section in &sections.0 {
        if let Some(value) = loaded_settings.modes.get_mut(section.name) {
            fixes.extend((section.sanitize)(value).unwrap_or_default());
        }
    }
    if !fixes.is_empty() {
        let warning = format!("Settings had values out of range: {}.", fixes.join("; "));
        warn!("{warning}");
        warnings.0.push(warning);
    }
    save_state.read_only = !loaded.writable;
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

fn insert_mode_settings<T: ModeSettings>(settings: Res<Settings>, mut commands: Commands) {
    commands.insert_resource(settings.mode::<T>());
}

/// Writes changed mode settings into their section, to be saved.
fn store_mode_settings<T: ModeSettings>(
    mode_settings: Res<T>,
    mut settings: ResMut<Settings>,
    mut edited: MessageWriter<SettingsEdited>,
) {
    if settings.mode::<T>() == *mode_settings {
        return;
    }
    match serde_json::to_value(&*mode_settings) {
        Ok(value) => {
            settings.modes.insert(T::SECTION.to_owned(), value);
            edited.write(SettingsEdited);
        }
        Err(err) => error!("Cannot store the {} settings: {err}", T::SECTION),
    }
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
        assert!(changes[0].contains("0 to 1"), "{}", changes[0]);
    }

    #[test]
    fn sanitize_keeps_the_ui_size_within_its_range() {
        for (stored, kept) in [(5.0, 2.0), (0.1, 0.75), (f32::NAN, 1.0), (1.25, 1.25)] {
            let mut settings = Settings {
                ui_scale: stored,
                ..Settings::default()
            };
            let changes = settings.sanitize();
            assert_eq!(settings.ui_scale, kept);
            assert_eq!(changes.len(), usize::from(stored != kept), "{changes:?}");
            if let Some(change) = changes.first() {
                assert!(
                    change.contains("ui_scale") && change.contains("0.75 to 2"),
                    "{change}"
                );
            }
        }
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

    #[test]
    fn mode_sections_round_trip_as_top_level_keys() {
        let text = r#"{"master_volume":0.5,"maze":{"size":"large"},"future":[1,2]}"#;
        let settings: Settings = serde_json::from_str(text).unwrap();
        assert_eq!(settings.modes["maze"]["size"], "large");
        let written = serde_json::to_value(&settings).unwrap();
        assert_eq!(written["maze"]["size"], "large");
        assert_eq!(
            written["future"],
            serde_json::json!([1, 2]),
            "unknown keys are kept"
        );
        assert_eq!(written["master_volume"], 0.5);
    }
}
