//! Keeps the two layers apart: nothing under `src/logic/` may use Bevy beyond `bevy::math`.

use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The lines of `source` that reach into Bevy other than through `bevy::math`.
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
                // `bevy::…`: only the math module is allowed.
                !path.starts_with("math")
            } else if let Some(tail) = after.strip_prefix('_') {
                // `bevy_…`: a crate path such as `bevy_ecs::…`; `bevy_math` is allowed.
                let word_end = tail
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                tail[word_end..].starts_with("::") && &tail[..word_end] != "math"
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

#[test]
fn logic_uses_bevy_only_for_math() {
    let logic = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/logic");
    let files = rust_files(&logic);
    assert!(!files.is_empty(), "src/logic has no Rust files");
    let mut problems = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        for line in bevy_uses_outside_math(&source) {
            problems.push(format!("{}: {line}", file.display()));
        }
    }
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
