//! Music: a looping piece for the title and one for each mode that asks for its own, made by
//! `examples/make_sounds.rs` and played at the music volume. It is quieter while a menu is open
//! over a mode, and a mode may quicken it (the runner does as it speeds up).
//!
//! What should be heard is worked out every frame into [`MusicMix`], with or without an audio
//! device, so headless tests can check it; a second system makes the loop playing match it
//! whenever an asset server is present.

use crate::game::screens::{AppSystems, Menu, Screen};
use crate::game::settings::Settings;
use bevy::asset::LoadedFolder;
use bevy::audio::Volume;
use bevy::audio::{AudioPlayer, AudioSink, AudioSinkPlayback, AudioSource, PlaybackSettings};
use bevy::prelude::*;

/// The share of the music volume heard while a menu is open over a mode.
pub const MENU_DUCK: f32 = 0.35;
/// Changes of volume or speed smaller than this are not passed to the playing loop.
const MIX_TOLERANCE: f32 = 1e-3;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MusicMix>()
        .init_resource::<MusicTempo>()
        .add_systems(Startup, start_library)
        .add_systems(
            Update,
            (
                reset_tempo.run_if(state_changed::<Screen>),
                mix_music,
                play_music.run_if(resource_exists::<MusicLibrary>),
            )
                .chain()
                .in_set(AppSystems::Present),
        );
}

/// The title screen's loop, slow pads and bells: also any mode's that asks for none of its own.
pub const TITLE_MUSIC: &str = "music/title.wav";

/// The loop of a screen (an asset path): the title's, or the one its mode asks for.
pub fn music_of(screen: Screen) -> &'static str {
    screen
        .mode()
        .and_then(|mode| mode.music)
        .unwrap_or(TITLE_MUSIC)
}

/// How fast the current mode wants its music: 1.0 as composed. Set back to 1.0 whenever the
/// screen changes, so only the mode playing sets it.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MusicTempo(pub f32);

impl Default for MusicTempo {
    fn default() -> Self {
        MusicTempo(1.0)
    }
}

/// What should be heard now.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MusicMix {
    /// The loop, as an asset path.
    pub piece: &'static str,
    /// Its volume under the master volume, 0.0 to 1.0.
    pub volume: f32,
    /// Its playback speed: 1.0 as composed.
    pub speed: f32,
}

impl Default for MusicMix {
    fn default() -> Self {
        MusicMix {
            piece: TITLE_MUSIC,
            volume: Settings::default().music_volume,
            speed: 1.0,
        }
    }
}

/// The music's volume for a setting of `music_volume`: ducked to [`MENU_DUCK`] of it while a
/// menu is open over a mode (the title screen's own menu is where its music belongs).
pub fn music_volume(music_volume: f32, screen: Screen, menu: Menu) -> f32 {
    let over_a_mode = screen != Screen::Title && menu != Menu::None;
    music_volume * if over_a_mode { MENU_DUCK } else { 1.0 }
}

/// The whole `music/` folder, loading from the start and kept loaded, so a screen's loop is
/// ready when it is first wanted, whichever mode names it: asking the asset server for its path
/// gives the handle already loaded.
#[derive(Resource)]
struct MusicLibrary(
    #[expect(dead_code, reason = "held only to keep the folder loaded")] Handle<LoadedFolder>,
);

/// The entity playing a loop, and which.
#[derive(Component, Debug)]
struct PlayingPiece(&'static str);

/// With an asset server (a window), loops are played; without one (the headless tests) only
/// the mix is worked out.
fn start_library(mut commands: Commands, assets: Option<Res<AssetServer>>) {
    if let Some(assets) = assets {
        commands.insert_resource(MusicLibrary(assets.load_folder("music")));
    }
}

fn reset_tempo(mut tempo: ResMut<MusicTempo>) {
    *tempo = MusicTempo::default();
}

fn mix_music(
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    settings: Res<Settings>,
    tempo: Res<MusicTempo>,
    mut mix: ResMut<MusicMix>,
) {
    let wanted = MusicMix {
        piece: music_of(**screen),
        volume: music_volume(settings.music_volume, **screen, **menu),
        speed: tempo.0,
    };
    // Only a real change marks the mix changed, so the player is touched only then.
    mix.set_if_neq(wanted);
}

/// Starts the wanted loop when the piece changes, and follows the mix's volume and speed.
/// Without an audio device the loop's entity is spawned but never gets a sink, which is fine.
fn play_music(
    mut commands: Commands,
    mix: Res<MusicMix>,
    assets: Res<AssetServer>,
    mut playing: Query<(Entity, &PlayingPiece, Option<&mut AudioSink>)>,
) {
    let mut wanted_is_playing = false;
    for (entity, piece, sink) in &mut playing {
        if piece.0 != mix.piece {
            commands.entity(entity).despawn();
            continue;
        }
        wanted_is_playing = true;
        if let Some(mut sink) = sink {
            if (sink.volume().to_linear() - mix.volume).abs() > MIX_TOLERANCE {
                sink.set_volume(Volume::Linear(mix.volume));
            }
            if (sink.speed() - mix.speed).abs() > MIX_TOLERANCE {
                sink.set_speed(mix.speed);
            }
        }
    }
    if !wanted_is_playing {
        commands.spawn((
            Name::new(format!("Music {}", mix.piece)),
            PlayingPiece(mix.piece),
            AudioPlayer::<AudioSource>(assets.load(mix.piece)),
            PlaybackSettings::LOOP
                .with_volume(Volume::Linear(mix.volume))
                .with_speed(mix.speed),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::screens::{Mode, ModeInfo};

    const QUIET: ModeInfo = ModeInfo {
        name: "quiet",
        label: "Quiet",
        blurb: "",
        music: None,
        difficulty_shapes: None,
        daily: false,
        records: None,
        plugin: |_| {},
    };
    const LOUD: ModeInfo = ModeInfo {
        name: "loud",
        music: Some("music/loud.wav"),
        ..QUIET
    };

    #[test]
    fn music_is_ducked_only_under_a_menu_over_a_mode() {
        let loud = Screen::Mode(Mode(&LOUD));
        assert_eq!(music_volume(0.5, Screen::Title, Menu::Main), 0.5);
        assert_eq!(music_volume(0.5, loud, Menu::None), 0.5);
        assert_eq!(music_volume(0.5, loud, Menu::Pause), 0.5 * MENU_DUCK);
        assert_eq!(music_volume(0.5, loud, Menu::Results), 0.5 * MENU_DUCK);
        assert_eq!(music_volume(0.0, loud, Menu::None), 0.0);
    }

    #[test]
    fn every_screen_has_a_piece_and_a_mode_its_own() {
        assert_eq!(music_of(Screen::Title), TITLE_MUSIC);
        assert_eq!(music_of(Screen::Mode(Mode(&LOUD))), "music/loud.wav");
        assert_eq!(music_of(Screen::Mode(Mode(&QUIET))), TITLE_MUSIC);
    }
}
