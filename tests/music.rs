//! Headless App tests of the music: each screen has its piece, a menu over a mode ducks it, the
//! Music volume setting sets it, and the runner's music quickens as the runner speeds up; and the
//! loop really played (with an asset server, and a player with no audio device) switches piece
//! and follows the mix's volume and speed.

mod common;

use bevy::audio::AudioSink;
use bevy::prelude::*;
use common::{headless_app, headless_app_with, press, run_frames, state};
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::music::{MENU_DUCK, MusicMix, TITLE_MUSIC};
use temple_trails::game::screens::{Menu, Screen};
use temple_trails::game::session::AutoplayOnStart;
use temple_trails::game::settings::{Settings, VolumeChannel};
use temple_trails::game::{maze, runner};

fn mix(app: &App) -> MusicMix {
    *app.world().resource::<MusicMix>()
}

fn play(app: &mut App, screen: Screen) {
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Play(screen)));
    run_frames(app, 2);
    assert_eq!(state::<Screen>(app), screen);
}

/// Escape, then the pause menu's Main menu.
fn back_to_the_title(app: &mut App) {
    press(app, KeyCode::Escape);
    assert_eq!(state::<Menu>(app), Menu::Pause);
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::MainMenu));
    run_frames(app, 2);
    assert_eq!(state::<Screen>(app), Screen::Title);
}

#[test]
fn each_screen_plays_its_piece_and_a_menu_over_a_mode_ducks_it() {
    let mut app = headless_app(None);
    run_frames(&mut app, 1);
    let full = app.world().resource::<Settings>().music_volume;
    assert_eq!(mix(&app).piece, TITLE_MUSIC);
    assert_eq!(mix(&app).volume, full, "the title's own menu does not duck");
    for (screen, piece) in [(maze::SCREEN, maze::MUSIC), (runner::SCREEN, runner::MUSIC)] {
        play(&mut app, screen);
        assert_eq!(mix(&app).piece, piece);
        assert_eq!(mix(&app).volume, full);
        press(&mut app, KeyCode::Escape);
        assert_eq!(state::<Menu>(&app), Menu::Pause);
        assert_eq!(mix(&app).volume, full * MENU_DUCK);
        assert_eq!(mix(&app).piece, piece, "the same loop goes on, quieter");
        press(&mut app, KeyCode::Escape);
        assert_eq!(mix(&app).volume, full);
        back_to_the_title(&mut app);
        assert_eq!(mix(&app).piece, TITLE_MUSIC);
    }
}

#[test]
fn the_music_volume_setting_sets_the_music_and_not_the_effects() {
    let mut app = headless_app(None);
    let effects = app.world().resource::<Settings>().effects_volume;
    app.world_mut().write_message(MenuInput::NumberSet(
        MenuItem::Volume(VolumeChannel::Music),
        0.2,
    ));
    run_frames(&mut app, 2);
    assert!((mix(&app).volume - 0.2).abs() < 1e-6, "{:?}", mix(&app));
    assert_eq!(app.world().resource::<Settings>().effects_volume, effects);
}

#[test]
fn the_runner_music_quickens_with_speed_and_the_title_music_does_not() {
    let mut app = headless_app_with(None, |app| {
        app.insert_resource(AutoplayOnStart(true));
    });
    run_frames(&mut app, 1);
    assert_eq!(mix(&app).speed, 1.0);
    play(&mut app, runner::SCREEN);
    run_frames(&mut app, 2);
    let start = mix(&app).speed;
    run_frames(&mut app, 600);
    let later = mix(&app).speed;
    assert!((1.0..1.01).contains(&start), "{start}");
    assert!(later > start + 0.02, "{start} then {later}");
    back_to_the_title(&mut app);
    assert_eq!(mix(&app).speed, 1.0, "back to the title's own tempo");
}

/// The music loops being played (not the sound effects): each entity with its asset path.
fn loops_playing(app: &mut App) -> Vec<(Entity, String)> {
    let world = app.world_mut();
    let mut players = world.query::<(Entity, &AudioPlayer<AudioSource>)>();
    let assets = world.resource::<AssetServer>();
    players
        .iter(world)
        .map(|(entity, player)| {
            let path = assets.get_path(player.0.id()).map(|path| path.to_string());
            (entity, path.unwrap_or_default())
        })
        .filter(|(_, path)| path.starts_with("music/"))
        .collect()
}

#[test]
fn the_loop_played_switches_piece_and_follows_the_volume_and_the_speed() {
    let mut app = headless_app_with(None, |app| {
        app.add_plugins(AssetPlugin::default())
            .init_asset::<AudioSource>()
            .insert_resource(AutoplayOnStart(true));
    });
    run_frames(&mut app, 1);
    let title = loops_playing(&mut app);
    assert_eq!(title.len(), 1, "{title:?}");
    assert_eq!(title[0].1, TITLE_MUSIC);

    play(&mut app, runner::SCREEN);
    run_frames(&mut app, 1);
    let running = loops_playing(&mut app);
    assert_eq!(running.len(), 1, "one loop at a time: {running:?}");
    assert_eq!(running[0].1, runner::MUSIC);
    // The sink an audio device would give it: a player that plays nowhere.
    let (player, _output) = rodio::Player::new();
    let loop_entity = running[0].0;
    app.world_mut()
        .entity_mut(loop_entity)
        .insert(AudioSink::new(player));
    let sink = |app: &App| {
        let sink = app.world().entity(loop_entity).get::<AudioSink>().unwrap();
        (sink.speed(), sink.volume().to_linear())
    };
    run_frames(&mut app, 600);
    let (speed, volume) = sink(&app);
    assert!(speed > 1.02, "the loop quickened with the runner: {speed}");
    assert!(
        (speed - mix(&app).speed).abs() < 1e-3,
        "{speed} {:?}",
        mix(&app)
    );
    assert!(
        (volume - mix(&app).volume).abs() < 1e-3,
        "{volume} {:?}",
        mix(&app)
    );
    press(&mut app, KeyCode::Escape);
    let (_, ducked) = sink(&app);
    assert!(
        (ducked - volume * MENU_DUCK).abs() < 1e-3,
        "{ducked} {volume}"
    );
}
