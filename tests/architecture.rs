//! Keeps the layers apart: nothing under `src/logic/` may use Bevy beyond its maths and colours
//! (`bevy::math`, `bevy::color`, or those crates), reach up into the game, the command line or
//! file handling, or touch the file system, the network or other processes. Every path a file
//! names is read with `syn` (use trees with groups, paths inside code, `super::` paths, tests
//! too), so no form of import slips past.

mod sources;

use sources::{PathsNamed, module_of, rust_files};
use std::path::Path;

/// The parts of Bevy the logic may use: plain maths and colours, no engine.
const ALLOWED: [&str; 2] = ["math", "color"];
/// The layers `src/logic/` must not reach: the Bevy game, the command line, and file I/O.
const LAYERS_ABOVE_LOGIC: [&str; 3] = ["game", "cli", "files"];
/// What of the standard library the logic must not use: it does no I/O of its own.
const STD_OUTSIDE_LOGIC: [&str; 3] = ["fs", "net", "process"];

/// Every path the file of module `me` names, `crate::`, `super::` and `self::` paths made
/// absolute (`crate::logic::…`), others as written.
fn paths_in(source: &str, me: &[String]) -> Vec<Vec<String>> {
    let syntax = syn::parse_file(source).unwrap_or_else(|err| panic!("does not parse: {err}"));
    PathsNamed::of(&syntax, true)
        .paths
        .into_iter()
        .map(|path| {
            let (mut base, rest): (Vec<String>, &[String]) = match path.first().map(String::as_str)
            {
                Some("super") => {
                    let mut base = me.to_vec();
                    let mut rest = &path[..];
                    while rest.first().is_some_and(|segment| segment == "super") {
                        base.pop();
                        rest = &rest[1..];
                    }
                    (base, rest)
                }
                Some("self") => (me.to_vec(), &path[1..]),
                Some("crate") => (Vec::new(), &path[1..]),
                _ => return path,
            };
            base.extend_from_slice(rest);
            std::iter::once("crate".to_owned()).chain(base).collect()
        })
        .collect()
}

/// What is wrong with a path named in the logic, if anything.
fn wrong_in_logic(path: &[String]) -> Option<&'static str> {
    let segment = |at: usize| path.get(at).map(String::as_str);
    match (segment(0), segment(1)) {
        (Some("crate"), Some(layer)) if LAYERS_ABOVE_LOGIC.contains(&layer) => {
            Some("reaches above the logic")
        }
        (Some("bevy"), second) if !second.is_some_and(|module| ALLOWED.contains(&module)) => {
            Some("uses Bevy beyond its maths and colours")
        }
        (Some(krate), Some(_))
            if krate
                .strip_prefix("bevy_")
                .is_some_and(|name| !ALLOWED.contains(&name)) =>
        {
            Some("uses a Bevy crate beyond its maths and colours")
        }
        (Some("std"), Some(module)) if STD_OUTSIDE_LOGIC.contains(&module) => {
            Some("does I/O of its own")
        }
        _ => None,
    }
}

/// What is wrong with the paths a file of module `me` names.
fn problems_in(source: &str, me: &[String]) -> Vec<String> {
    paths_in(source, me)
        .iter()
        .filter_map(|path| wrong_in_logic(path).map(|why| format!("{} {why}", path.join("::"))))
        .collect()
}

/// Every problem of every file under `src/logic/`, with its file.
fn logic_problems() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src.join("logic"));
    assert!(!files.is_empty(), "src/logic has no Rust files");
    let mut problems = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let me = module_of(file.strip_prefix(&src).unwrap());
        for problem in problems_in(&source, &me) {
            problems.push(format!("{}: {problem}", file.display()));
        }
    }
    problems
}

/// The problems of one snippet, as if it were `src/logic/runner/track.rs`.
fn snippet_problems(source: &str) -> Vec<String> {
    problems_in(
        source,
        &["logic".to_owned(), "runner".to_owned(), "track".to_owned()],
    )
}

#[test]
fn logic_stays_below_the_game_the_command_line_files_and_bevy() {
    let problems = logic_problems();
    assert!(
        problems.is_empty(),
        "src/logic must not use the game, the command line, files, I/O or Bevy beyond its \
         maths:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_check_catches_every_form_of_a_path_that_leaves_the_logic() {
    for bad in [
        "use crate::game::settings::Settings;",
        "use crate::cli::Format;",
        "fn f() { crate::files::write_json_atomic(p, v) }",
        "use crate::game;",
        "use crate::{logic::maze::Maze, game::screens::Screen};",
        "use super::super::super::game::menu::MenuItem;",
        "use bevy::prelude::*;",
        "use bevy::ecs::component::Component;",
        "use bevy_ecs::prelude::*;",
        "extern crate bevy;",
        "fn f(w: &mut bevy::ecs::world::World) {}",
        "use bevy;",
        "use bevy::{math::Vec2, ecs::system::Res};",
        "fn load() { let _ = std::fs::read(\"x\"); }",
        "use std::{collections::HashMap, fs::File};",
        "use std::net::TcpStream;",
        "#[cfg(test)] mod tests { use crate::game::screens::Screen; }",
    ] {
        assert_eq!(snippet_problems(bad).len(), 1, "missed: {bad}");
    }
}

#[test]
fn the_check_allows_the_logic_maths_colours_and_prose() {
    for good in [
        "use crate::logic::maze::Maze;",
        "use super::timing::Timing;",
        "use super::super::maze::Maze;",
        "// crate::game is above us; we avoid bevy::prelude and std::fs here on purpose",
        "use crate::gameplay::Thing;",
        "use bevy::math::Vec2;",
        "use bevy::math::{IVec2, Vec2};",
        "use bevy_math::Vec2;",
        "use bevy_color::Color;",
        "fn f() { let bevy_free = 3; let my_bevy = bevy_free + 1; }",
        "use std::collections::HashMap;",
    ] {
        assert!(
            snippet_problems(good).is_empty(),
            "flagged: {good}: {:?}",
            snippet_problems(good)
        );
    }
}
