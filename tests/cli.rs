//! Tests of the built `temple-trails` binary: help, bad arguments, seeds, and no display.

use std::process::{Command, Output};

fn temple_trails(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn help_lists_the_options_and_subcommands() {
    let output = temple_trails(&["--help"]);
    assert!(output.status.success());
    let help = stdout(&output);
    for expected in [
        "--mode",
        "--seed",
        "--difficulty",
        "--screenshot",
        "--frames",
        "runner",
        "maze",
        "wanderers",
        "seed",
    ] {
        assert!(help.contains(expected), "--help lacks {expected}:\n{help}");
    }
}

/// A usage error: exit code 2 and a short message that names what is allowed.
fn assert_usage_error(args: &[&str], must_mention: &[&str]) {
    let output = temple_trails(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stderr(&output)
    );
    let message = stderr(&output);
    assert!(message.starts_with("error:"), "{args:?}: {message}");
    assert!(
        message.lines().count() <= 8,
        "{args:?}: too long:\n{message}"
    );
    for text in must_mention {
        assert!(
            message.contains(text),
            "{args:?} should mention {text}: {message}"
        );
    }
    assert!(stdout(&output).is_empty());
}

#[test]
fn unknown_mode_is_refused_with_the_allowed_values() {
    assert_usage_error(&["--mode", "racing"], &["runner", "maze", "wanderers"]);
}

#[test]
fn unknown_difficulty_is_refused_with_the_allowed_values() {
    assert_usage_error(&["--difficulty", "nightmare"], &["easy", "normal", "hard"]);
}

#[test]
fn frames_out_of_range_are_refused() {
    assert_usage_error(&["--screenshot", "x.png", "--frames", "0"], &["1..=100000"]);
    assert_usage_error(&["--screenshot", "x.png", "--frames", "-3"], &[]);
    assert_usage_error(&["--screenshot", "x.png", "--frames", "many"], &[]);
}

#[test]
fn frames_without_a_screenshot_are_refused() {
    assert_usage_error(&["--frames", "10"], &["--screenshot"]);
}

#[test]
fn empty_seed_is_refused() {
    assert_usage_error(&["--seed", "  "], &["seed"]);
    assert_usage_error(&["seed", ""], &["seed"]);
}

#[test]
fn unknown_subcommand_and_flag_are_refused() {
    assert_usage_error(&["fly"], &[]);
    assert_usage_error(&["--speed", "9"], &[]);
}

#[test]
fn seed_words_hash_to_a_stable_value() {
    let output = temple_trails(&["seed", "temple"]);
    assert!(output.status.success());
    let text = stdout(&output);
    // FNV-1a of "temple": a change here changes every world players have shared.
    assert!(text.contains("seed: 4646669004503201372\n"), "{text}");

    let output = temple_trails(&["seed", "12345", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["seed"], 12345);
    assert_eq!(json["text"], "12345");
}

#[test]
fn without_a_display_the_game_explains_and_fails_cleanly() {
    let output = Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env(
            "TEMPLE_TRAILS_HOME",
            std::env::temp_dir().join("tt-no-display"),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("DISPLAY"), "{message}");
    assert!(message.contains("subcommands"), "{message}");
    assert!(!message.contains("panicked"), "{message}");
}
