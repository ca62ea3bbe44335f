//! Helpers shared by the tests of the built `temple-trails` binary: running it, its output, and
//! the checks every subcommand's tests make.
#![allow(
    dead_code,
    reason = "each test file uses a different part of these helpers"
)]

use std::process::{Command, Output};

/// Runs the binary with `args` and waits for it.
pub fn temple_trails(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_temple-trails"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// What it printed on standard output.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What it printed on standard error.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A usage error: exit code 2 and a short message that names what is allowed.
pub fn assert_usage_error(args: &[&str], must_mention: &[&str]) {
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

/// The runner subcommand's JSON for `args`.
pub fn runner_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["runner", "--format", "json"];
    all.extend_from_slice(args);
    json_of(&all)
}

/// A JSON file the binary wrote.
pub fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the file was written"))
        .expect("the file is JSON")
}

/// Runs the binary, expects success, and parses its output as one JSON object.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    let output = temple_trails(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).expect("one JSON object")
}
