//! Sound effects: a fixed set of short WAV files made by `examples/make_sounds.rs`, played on
//! request at the effects volume under the master volume.
//!
//! Any plugin asks for a sound with a [`SoundRequested`] message. Without an asset server (the
//! headless tests) requests are simply dropped; without an audio device Bevy logs one line and
//! the game runs silently.

use crate::game::screens::AppSystems;
use crate::game::settings::Settings;
use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;
use std::collections::HashMap;
use std::time::Duration;

/// Longer than any of our sounds: a sound entity still alive after this is despawned, because
/// without an audio device Bevy never plays (and so never despawns) it.
const SOUND_LIFETIME: Duration = Duration::from_secs(4);

/// At most this many of one sound start in one frame, so a burst of coins does not clip.
const MAX_SAME_SOUND_PER_FRAME: usize = 1;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SoundRequested>()
        .add_systems(Startup, load_sounds)
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

/// Every sound the game has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sound {
    /// The menu cursor moved.
    MenuMove,
    /// A menu item was chosen.
    MenuConfirm,
    /// A coin was picked up.
    Coin,
    /// The runner jumped.
    Jump,
    /// The runner slid.
    Slide,
    /// The runner changed lane.
    LaneChange,
    /// The runner turned at a junction.
    Turn,
    /// A crash or a fall.
    Crash,
    /// One step in the maze.
    Footstep,
    /// A maze was solved.
    Win,
    /// The runner clipped a log or a beam and stumbled on.
    Stumble,
    /// The runner took a power-up.
    PowerUp,
    /// The shield absorbed a hit and broke.
    ShieldBreak,
}

impl Sound {
    /// Every sound, in a fixed order.
    pub const ALL: [Sound; 13] = [
        Sound::MenuMove,
        Sound::MenuConfirm,
        Sound::Coin,
        Sound::Jump,
        Sound::Slide,
        Sound::LaneChange,
        Sound::Turn,
        Sound::Crash,
        Sound::Footstep,
        Sound::Win,
        Sound::Stumble,
        Sound::PowerUp,
        Sound::ShieldBreak,
    ];

    /// The file's name inside `assets/sounds/`.
    pub const fn file_name(self) -> &'static str {
        match self {
            Sound::MenuMove => "menu_move.wav",
            Sound::MenuConfirm => "menu_confirm.wav",
            Sound::Coin => "coin.wav",
            Sound::Jump => "jump.wav",
            Sound::Slide => "slide.wav",
            Sound::LaneChange => "lane_change.wav",
            Sound::Turn => "turn.wav",
            Sound::Crash => "crash.wav",
            Sound::Footstep => "footstep.wav",
            Sound::Win => "win.wav",
            Sound::Stumble => "stumble.wav",
            Sound::PowerUp => "power_up.wav",
            Sound::ShieldBreak => "shield_break.wav",
        }
    }

    /// The asset path, relative to `assets/`.
    pub fn asset_path(self) -> String {
        format!("sounds/{}", self.file_name())
    }
}

/// A request to play a sound once.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoundRequested(pub Sound);

/// Loaded sound handles.
#[derive(Resource)]
struct SoundLibrary(HashMap<Sound, Handle<AudioSource>>);

/// Marks a playing sound effect with the real time it started.
#[derive(Component)]
struct SoundEffect {
    started: Duration,
}

fn load_sounds(mut commands: Commands, assets: Option<Res<AssetServer>>) {
    let Some(assets) = assets else {
        return;
    };
    let library = Sound::ALL
        .into_iter()
        .map(|sound| (sound, assets.load(sound.asset_path())))
        .collect();
    commands.insert_resource(SoundLibrary(library));
}

fn play_requested_sounds(
    mut commands: Commands,
    mut requests: MessageReader<SoundRequested>,
    library: Res<SoundLibrary>,
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
            Name::new(format!("Sound {sound:?}")),
            AudioPlayer(library.0[sound].clone()),
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
