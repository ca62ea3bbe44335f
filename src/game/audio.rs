//! Sound effects: short WAV files made by `examples/make_sounds.rs`, played on request at the
//! effects volume under the master volume. Each mode names its own sounds; the menus' are here.
//!
//! Any plugin asks for a sound with a [`SoundRequested`] message. Without an asset server (the
//! headless tests) requests are simply dropped; without an audio device Bevy logs one line and
//! the game runs silently.

use crate::game::screens::AppSystems;
use crate::game::settings::Settings;
use bevy::asset::LoadedFolder;
use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;
use std::time::Duration;

/// Longer than any of our sounds: a sound entity still alive after this is despawned, because
/// without an audio device Bevy never plays (and so never despawns) it.
const SOUND_LIFETIME: Duration = Duration::from_secs(4);

/// At most this many of one sound start in one frame, so a burst of coins does not clip.
const MAX_SAME_SOUND_PER_FRAME: usize = 1;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SoundRequested>()
        .add_systems(Startup, start_library)
        .add_systems(
            Update,
            (
                play_requested_sounds.run_if(
                    resource_exists::<SoundLibrary>.and_eager(on_message::<SoundRequested>),
                ),
                despawn_finished_sounds.run_if(any_with_component::<SoundEffect>),
            )
                .in_set(AppSystems::Present),
        );
}

/// A sound effect: its file's name inside `assets/sounds/`. The menus' sounds are here; each
/// mode names its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sound(pub &'static str);

impl Sound {
    /// The menu cursor moved.
    pub const MENU_MOVE: Sound = Sound("menu_move.wav");
    /// A menu item was chosen.
    pub const MENU_CONFIRM: Sound = Sound("menu_confirm.wav");

    /// The asset path, relative to `assets/`.
    pub fn asset_path(self) -> String {
        format!("sounds/{}", self.0)
    }
}

/// A request to play a sound once.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoundRequested(pub Sound);

/// The whole `sounds/` folder, loading from the start and kept loaded, so a sound asked for the
/// first time plays at once whichever mode names it: asking the asset server for its path gives
/// the handle already loaded.
#[derive(Resource)]
struct SoundLibrary(
    #[expect(dead_code, reason = "held only to keep the folder loaded")] Handle<LoadedFolder>,
);

/// Marks a playing sound effect with the real time it started.
#[derive(Component)]
struct SoundEffect {
    started: Duration,
}

/// With an asset server (a window), sounds are played; without one (the headless tests)
/// requests are dropped.
fn start_library(mut commands: Commands, assets: Option<Res<AssetServer>>) {
    if let Some(assets) = assets {
        commands.insert_resource(SoundLibrary(assets.load_folder("sounds")));
    }
}

fn play_requested_sounds(
    mut commands: Commands,
    mut requests: MessageReader<SoundRequested>,
    assets: Res<AssetServer>,
    settings: Res<Settings>,
    time: Res<Time<Real>>,
) {
    let mut started: Vec<Sound> = Vec::new();
    for SoundRequested(sound) in requests.read() {
        if started.iter().filter(|&&s| s == *sound).count() >= MAX_SAME_SOUND_PER_FRAME {
            continue;
        }
        started.push(*sound);
        // The master volume is Bevy's `GlobalVolume`, which the settings plugin keeps in step;
        // it scales this one.
        commands.spawn((
            Name::new(format!("Sound {}", sound.0)),
            AudioPlayer::<AudioSource>(assets.load(sound.asset_path())),
            PlaybackSettings::DESPAWN.with_volume(Volume::Linear(settings.effects_volume)),
            SoundEffect {
                started: time.elapsed(),
            },
        ));
    }
}

fn despawn_finished_sounds(
    mut commands: Commands,
    sounds: Query<(Entity, &SoundEffect)>,
    time: Res<Time<Real>>,
) {
    for (entity, effect) in &sounds {
        if time.elapsed().saturating_sub(effect.started) > SOUND_LIFETIME {
            commands.entity(entity).despawn();
        }
    }
}

/// Panics unless every one of `sounds` has its file in `assets/sounds/`: each mode's test of its
/// own sounds.
#[cfg(test)]
pub(crate) fn assert_sound_files_exist(sounds: &[Sound]) {
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    for sound in sounds {
        let path = assets.join(sound.asset_path());
        assert!(path.is_file(), "{} is missing", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_of_the_menus_has_its_file() {
        assert_sound_files_exist(&[Sound::MENU_MOVE, Sound::MENU_CONFIRM]);
    }

    #[test]
    #[should_panic(expected = "is missing")]
    fn a_sound_without_its_file_is_found_out() {
        assert_sound_files_exist(&[Sound("no_such_sound.wav")]);
    }
}
