//! Tests of the built `temple-trails` binary: help, bad arguments, seeds, no display, and output
//! into a pipe that closes or a file that cannot be written.

mod binary;

use binary::{assert_usage_error, stderr, stdout, temple_trails};
use std::process::{Command, Output};

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

#[test]
fn autoplay_needs_a_mode() {
    assert_usage_error(&["--autoplay"], &["--mode"]);
}
/// Runs the binary with its output read by `reader`, which then hangs up, as `| head` does.
fn run_into_a_pipe_that_closes(
    args: &[&str],
    reader: impl FnOnce(std::process::ChildStdout),
) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    reader(child.stdout.take().expect("a piped standard output"));
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn a_reader_that_takes_only_the_start_ends_the_output_quietly() {
    use std::io::Read;
    let output = run_into_a_pipe_that_closes(
        &[
            "maze", "--width", "1000", "--height", "1000", "--format", "json",
        ],
        |mut stdout| {
            let mut start = [0u8; 10];
            stdout.read_exact(&mut start).expect("ten bytes of output");
            assert_eq!(&start, b"{\"width\":1");
        },
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "", "nothing on standard error");
}

#[test]
fn every_subcommand_ends_quietly_when_its_reader_has_gone() {
    for args in [
        &["seed", "temple"][..],
        &["seed", "temple", "--format", "json"],
        &["maze", "--width", "300", "--height", "300", "--solve"],
        &["runner", "--segments", "2000", "--preview", "2000"],
        &["runner", "--segments", "200", "--format", "json"],
        &["replay", "tests/golden/runner-replay.json"],
        &["wander", "--count", "20", "--steps", "100"],
        &["smooth", "--pairs", "5"],
        &["smooth", "--pairs", "5", "--format", "json"],
    ] {
        // The reader hangs up before the binary writes anything.
        let output = run_into_a_pipe_that_closes(args, drop);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
        assert_eq!(stderr(&output), "", "{args:?}: nothing on standard error");
    }
}

#[test]
fn an_unwritable_dump_is_one_line_and_exit_code_one() {
    let dir = tempfile::tempdir().unwrap();
    // A folder where the file should be: it cannot be replaced by a file.
    let taken = dir.path().join("taken");
    std::fs::create_dir(&taken).unwrap();
    for args in [
        vec![
            "runner",
            "--segments",
            "20",
            "--dump-track",
            taken.to_str().unwrap(),
        ],
        vec!["smooth", "--pairs", "3", "--dump", taken.to_str().unwrap()],
    ] {
        let output = temple_trails(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let message = stderr(&output);
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(
            message.starts_with("temple-trails: cannot write"),
            "{message}"
        );
        assert!(taken.is_dir(), "the folder in the way is left alone");
    }
}
