//! Keeps the layers apart: nothing under `src/logic/` may use Bevy beyond its maths and colours
//! (`bevy::math`, `bevy::color`, or those crates), nor reach up into the game, the command line
//! or file handling.

mod sources;

use sources::rust_files;
use std::path::Path;

/// The parts of Bevy the logic may use: plain maths and colours, no engine.
const ALLOWED: [&str; 2] = ["math", "color"];

/// The lines of `source` that reach into Bevy other than through its maths and colours.
fn bevy_uses_outside_math(source: &str) -> Vec<String> {
    let mut offending = Vec::new();
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("bevy") {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + "bevy".len()..];
            rest = after;
            // Only whole identifiers: `bevy` itself or a `bevy_*` crate.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let reaches_bevy = if let Some(path) = after.strip_prefix("::") {
                // `bevy::…`: only the math and colour modules are allowed.
                !ALLOWED.iter().any(|module| path.starts_with(module))
            } else if let Some(tail) = after.strip_prefix('_') {
                // `bevy_…`: a crate path such as `bevy_ecs::…`; `bevy_math` and `bevy_color`
                // are allowed.
                let word_end = tail
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                tail[word_end..].starts_with("::") && !ALLOWED.contains(&&tail[..word_end])
            } else {
                // `use bevy;` or `extern crate bevy` brings in the whole engine.
                after.trim_start().starts_with(';') || after.trim().is_empty()
            };
            if reaches_bevy {
                offending.push(line.trim().to_owned());
                break;
            }
        }
    }
    offending
}

/// The layers `src/logic/` must not reach: the Bevy game, the command line, and file I/O.
const LAYERS_ABOVE_LOGIC: [&str; 3] = ["crate::game", "crate::cli", "crate::files"];

/// The lines of `source` that reach into a layer above the logic.
fn reaches_above_logic(source: &str) -> Vec<String> {
    source
        .lines()
        .filter(|line| {
            let code = line.split("//").next().unwrap_or("");
            LAYERS_ABOVE_LOGIC.iter().any(|layer| {
                code.match_indices(layer).any(|(at, _)| {
                    // Only the whole path segment: `crate::gameplay` would be another module.
                    let after = code[at + layer.len()..].chars().next();
                    !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
        })
        .map(|line| line.trim().to_owned())
        .collect()
}

/// Every line of every file under `src/logic/` that `check` finds, with its file.
fn logic_lines_failing(check: impl Fn(&str) -> Vec<String>) -> Vec<String> {
    let logic = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/logic");
    let files = rust_files(&logic);
    assert!(!files.is_empty(), "src/logic has no Rust files");
    let mut problems = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        for line in check(&source) {
            problems.push(format!("{}: {line}", file.display()));
        }
    }
    problems
}

#[test]
fn logic_stays_below_the_game_the_command_line_and_files() {
    let problems = logic_lines_failing(reaches_above_logic);
    assert!(
        problems.is_empty(),
        "src/logic must not use the game, the command line or files:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_layer_check_catches_upward_paths() {
    for bad in [
        "use crate::game::settings::Settings;",
        "use crate::cli::Format;",
        "fn f() { crate::files::write_json_atomic(p, v) }",
        "use crate::game;",
    ] {
        assert_eq!(reaches_above_logic(bad).len(), 1, "missed: {bad}");
    }
    for good in [
        "use crate::logic::maze::Maze;",
        "// crate::game is above us",
        "use crate::gameplay::Thing;",
    ] {
        assert!(reaches_above_logic(good).is_empty(), "flagged: {good}");
    }
}

#[test]
fn logic_uses_bevy_only_for_math() {
    let problems = logic_lines_failing(bevy_uses_outside_math);
    assert!(
        problems.is_empty(),
        "src/logic must stay free of Bevy outside bevy::math:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_check_catches_bevy_imports() {
    for bad in [
        "use bevy::prelude::*;",
        "use bevy::ecs::component::Component;",
        "use bevy_ecs::prelude::*;",
        "extern crate bevy",
        "fn f(w: &mut bevy::ecs::world::World) {}",
        "use bevy;",
        "use bevy::{math::Vec2, ecs::system::Res};",
    ] {
        assert_eq!(bevy_uses_outside_math(bad).len(), 1, "missed: {bad}");
    }
}

#[test]
fn the_check_allows_math_and_prose() {
    for good in [
        "use bevy::math::Vec2;",
        "use bevy::math::{IVec2, Vec2};",
        "use bevy_math::Vec2;",
        "// we avoid bevy::prelude here on purpose",
        "let bevy_free = 3;",
        "let my_bevy = 1;",
    ] {
        assert!(bevy_uses_outside_math(good).is_empty(), "flagged: {good}");
    }
}
