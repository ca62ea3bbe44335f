//! Headless App tests of what survives a restart: settings and best scores, and what happens
//! when their files are damaged.

mod common;

use bevy::prelude::*;
use common::{headless_app, headless_app_with, run_frames};
use temple_trails::game::menu::{MenuInput, MenuItem};
use temple_trails::game::scores::{BestScores, Ranking, SCORES_FILE};
use temple_trails::game::settings::{
    GameDifficulty, GameSeed, LaunchOverrides, SETTINGS_FILE, Settings, VolumeChannel,
};
use temple_trails::game::storage::StorageWarnings;
use temple_trails::logic::difficulty::Difficulty;
use temple_trails::logic::seed::parse_seed;

/// Enough frames for the settings' save delay to pass.
const FRAMES_TO_SAVE: usize = 6;

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn settings_changed_in_the_menu_survive_a_restart() {
    let home = tempfile::tempdir().unwrap();
    {
        let mut app = headless_app(Some(home.path()));
        let world = app.world_mut();
        world.write_message(MenuInput::SeedTyped("banana".into()));
        world.write_message(MenuInput::DifficultyChosen(Difficulty::Hard));
        world.write_message(MenuInput::NumberSet(
            MenuItem::Volume(VolumeChannel::Master),
            0.25,
        ));
        world.write_message(MenuInput::Activated(MenuItem::Fullscreen));
        run_frames(&mut app, FRAMES_TO_SAVE);
    }
    assert_eq!(files_in(home.path()), vec![SETTINGS_FILE.to_owned()]);

    let app = headless_app(Some(home.path()));
    let settings = app.world().resource::<Settings>();
    assert_eq!(settings.seed_text, "banana");
    assert_eq!(settings.difficulty, Difficulty::Hard);
    assert_eq!(settings.master_volume, 0.25);
    assert!(settings.fullscreen);
    assert_eq!(
        app.world().resource::<GameSeed>().0,
        parse_seed("banana").unwrap()
    );
    assert_eq!(app.world().resource::<GameDifficulty>().0, Difficulty::Hard);
    assert!(app.world().resource::<StorageWarnings>().0.is_empty());
}

#[test]
fn pending_settings_are_saved_when_the_game_quits() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app(Some(home.path()));
    app.world_mut()
        .write_message(MenuInput::DifficultyChosen(Difficulty::Easy));
    app.update();
    assert!(
        files_in(home.path()).is_empty(),
        "not yet: the save waits a moment"
    );
    app.world_mut()
        .write_message(MenuInput::Activated(MenuItem::Quit));
    app.update();
    assert_eq!(files_in(home.path()), vec![SETTINGS_FILE.to_owned()]);
    let saved: Settings =
        serde_json::from_slice(&std::fs::read(home.path().join(SETTINGS_FILE)).unwrap()).unwrap();
    assert_eq!(saved.difficulty, Difficulty::Easy);
}

#[test]
fn command_line_seed_is_used_but_not_saved() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app_with(Some(home.path()), |app| {
        app.insert_resource(LaunchOverrides {
            seed_text: Some("lava".into()),
            difficulty: Some(Difficulty::Easy),
        });
    });
    assert_eq!(
        app.world().resource::<GameSeed>().0,
        parse_seed("lava").unwrap()
    );
    assert_eq!(app.world().resource::<GameDifficulty>().0, Difficulty::Easy);
    run_frames(&mut app, FRAMES_TO_SAVE);
    assert!(files_in(home.path()).is_empty());
}

#[test]
fn corrupt_settings_file_is_set_aside_and_the_game_starts_with_defaults() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join(SETTINGS_FILE), b"{\"master_volume\": ").unwrap();
    let mut app = headless_app(Some(home.path()));
    assert_eq!(*app.world().resource::<Settings>(), Settings::default());
    let warnings = &app.world().resource::<StorageWarnings>().0;
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains(SETTINGS_FILE), "{}", warnings[0]);

    let files = files_in(home.path());
    assert_eq!(files.len(), 1);
    assert!(files[0].starts_with("settings.json.corrupt-"), "{files:?}");
    assert_eq!(
        std::fs::read(home.path().join(&files[0])).unwrap(),
        b"{\"master_volume\": ",
        "the damaged file is kept as it was"
    );

    // The game still works and saves fresh settings beside the kept file.
    app.world_mut()
        .write_message(MenuInput::DifficultyChosen(Difficulty::Hard));
    run_frames(&mut app, FRAMES_TO_SAVE);
    assert_eq!(files_in(home.path()).len(), 2);
}

#[test]
fn out_of_range_settings_are_fixed_with_a_warning() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join(SETTINGS_FILE),
        br#"{"master_volume": 7.5, "effects_volume": 3, "seed_text": "", "difficulty": "hard"}"#,
    )
    .unwrap();
    let app = headless_app(Some(home.path()));
    let settings = app.world().resource::<Settings>();
    assert_eq!(settings.master_volume, 1.0);
    assert_eq!(settings.effects_volume, 1.0);
    assert_eq!(settings.seed_text, "temple");
    assert_eq!(
        settings.difficulty,
        Difficulty::Hard,
        "good values are kept"
    );
    let warnings = &app.world().resource::<StorageWarnings>().0;
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("master_volume"), "{}", warnings[0]);
    assert!(warnings[0].contains("effects_volume"), "{}", warnings[0]);
}

#[test]
fn best_scores_survive_a_restart() {
    let home = tempfile::tempdir().unwrap();
    {
        let mut app = headless_app(Some(home.path()));
        let mut scores = app.world_mut().resource_mut::<BestScores>();
        assert!(scores.submit("runner/normal", Ranking::HigherIsBetter, 1234.0, 42));
        app.update();
    }
    assert_eq!(files_in(home.path()), vec![SCORES_FILE.to_owned()]);
    let app = headless_app(Some(home.path()));
    let best = app
        .world()
        .resource::<BestScores>()
        .best("runner/normal")
        .cloned()
        .unwrap();
    assert_eq!((best.value, best.seed), (1234.0, 42));
}

#[test]
fn corrupt_scores_file_is_set_aside_and_the_game_starts() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join(SCORES_FILE), b"\x00\xffnot json").unwrap();
    let mut app = headless_app(Some(home.path()));
    assert!(
        app.world()
            .resource::<BestScores>()
            .book()
            .boards
            .is_empty()
    );
    let warnings = &app.world().resource::<StorageWarnings>().0;
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains(SCORES_FILE), "{}", warnings[0]);
    let files = files_in(home.path());
    assert_eq!(files.len(), 1);
    assert!(files[0].starts_with("scores.json.corrupt-"), "{files:?}");

    // Loading wrote nothing; a new record writes a fresh file beside the kept one.
    app.world_mut().resource_mut::<BestScores>().submit(
        "maze/15x15/backtracker",
        Ranking::LowerIsBetter,
        12.5,
        1,
    );
    app.update();
    assert_eq!(files_in(home.path()).len(), 2);
}

#[test]
fn nothing_is_written_when_nothing_changed() {
    let home = tempfile::tempdir().unwrap();
    let mut app = headless_app(Some(home.path()));
    run_frames(&mut app, FRAMES_TO_SAVE);
    assert!(files_in(home.path()).is_empty());
}
