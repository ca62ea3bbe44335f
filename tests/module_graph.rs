//! Keeps the source in shape: the game's files form no knot (every cycle of imports stays inside
//! one folder under `src/game/`: one mode, or one shared feature such as the menu), the theme
//! knows nothing of the menus, nothing in the game reaches into the game's root module, and no
//! source file grows past 600 lines.
//!
//! Imports are read with `syn`, so every form counts: `use` trees with groups and renames,
//! `super::` and `self::` paths, paths written inside code, and `use` lines of a child module.
//! Test modules (`#[cfg(test)]`) are left out: they may reach anything they test.

mod sources;

use sources::{PathsNamed, module_of, rust_files};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The most lines a source file may have.
const MAX_LINES: usize = 600;

/// The crate's modules: each module's path and its file, as `src/`-relative text.
type Modules = BTreeMap<Vec<String>, String>;

/// The file a path names from the module `me`, if it names one of the crate's modules (the
/// longest module the path starts with).
fn file_named(path: &[String], me: &[String], modules: &Modules) -> Option<String> {
    let absolute: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => path[1..].to_vec(),
        Some("super") => {
            let mut base = me[..me.len().saturating_sub(1)].to_vec();
            let mut rest = &path[1..];
            while rest.first().is_some_and(|segment| segment == "super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend_from_slice(rest);
            base
        }
        Some("self") => me.iter().chain(&path[1..]).cloned().collect(),
        // A child module named without `self::`, as `use rules::Thing;` in `mod.rs` does.
        Some(first) if modules.contains_key(&[me, &[first.to_owned()]].concat()) => {
            me.iter().chain(path).cloned().collect()
        }
        _ => return None,
    };
    (1..=absolute.len())
        .rev()
        .find_map(|length| modules.get(&absolute[..length]))
        .cloned()
}

/// Which files each file of the crate imports, from its sources (`src/`-relative file name to
/// source text).
fn imports(sources: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let modules: Modules = sources
        .keys()
        .map(|file| (module_of(Path::new(file)), file.clone()))
        .collect();
    sources
        .iter()
        .map(|(file, source)| {
            let syntax = syn::parse_file(source)
                .unwrap_or_else(|err| panic!("{file} does not parse: {err}"));
            let named = PathsNamed::of(&syntax, false);
            let me = module_of(Path::new(file));
            let targets = named
                .paths
                .iter()
                .filter_map(|path| file_named(path, &me, &modules))
                .filter(|target| target != file)
                .collect();
            (file.clone(), targets)
        })
        .collect()
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Search<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let at = self.index.len();
            self.index.insert(node, at);
            self.low.insert(node, at);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flatten() {
                if !self.index.contains_key(next.as_str()) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next.as_str()]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next.as_str()) {
                    let low = self.low[node].min(self.index[next.as_str()]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    component.push(top.to_owned());
                    if top == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !search.index.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.found
}

/// The unit a game file belongs to: its folder under `src/game/` (a mode, or a shared feature
/// such as `menu`), or the file itself when it sits in `src/game/`.
fn unit_of(file: &str) -> &str {
    let below = file.strip_prefix("game/").unwrap_or(file);
    match below.split_once('/') {
        Some((folder, _)) => folder,
        None => below,
    }
}

/// The crate's sources, keyed by their path below `src/`.
fn crate_sources() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    rust_files(&src)
        .into_iter()
        .map(|path| {
            let relative = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (relative, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

/// The cycles of imports among `sources` that leave one unit.
fn knots(sources: &BTreeMap<String, String>) -> Vec<Vec<String>> {
    let game: BTreeMap<String, BTreeSet<String>> = imports(sources)
        .into_iter()
        .filter(|(file, _)| file.starts_with("game/"))
        .map(|(file, targets)| {
            let within = targets
                .into_iter()
                .filter(|t| t.starts_with("game/"))
                .collect();
            (file, within)
        })
        .collect();
    cycles(&game)
        .into_iter()
        .filter(|cycle| cycle.iter().any(|file| unit_of(file) != unit_of(&cycle[0])))
        .collect()
}

#[test]
fn the_game_files_form_no_knot() {
    let knots = knots(&crate_sources());
    assert!(
        knots.is_empty(),
        "files of different folders import each other, in a circle: {knots:#?}"
    );
}

#[test]
fn the_knot_check_finds_circles_through_every_form_of_path() {
    let sources = |menu: &str| -> BTreeMap<String, String> {
        [
            ("lib.rs", "pub mod game;"),
            (
                "game/mod.rs",
                "pub mod menu; pub mod theme; pub mod runner;",
            ),
            ("game/menu/mod.rs", menu),
            (
                "game/menu/rows.rs",
                "use super::Item; pub(super) struct Row;",
            ),
            ("game/theme/mod.rs", "pub mod widgets;"),
            (
                "game/theme/widgets.rs",
                "use crate::game::{menu::rows::Row, x};",
            ),
            (
                "game/runner/mod.rs",
                "fn f() { crate::game::theme::widgets::g(); }",
            ),
        ]
        .into_iter()
        .map(|(file, source)| (file.to_owned(), source.to_owned()))
        .collect()
    };
    // The menu and its child import each other: one unit, no knot.
    assert!(knots(&sources("pub mod rows; use rows::Row; pub struct Item;")).is_empty());
    // A grouped `use` in the theme closes a circle with the menu.
    let knotted = knots(&sources(
        "pub mod rows; use crate::game::theme::widgets as w;",
    ));
    assert_eq!(knotted.len(), 1, "{knotted:?}");
    // A path inside code does too, and a test module does not.
    let in_code = "pub mod rows; fn f() { super::theme::widgets::g(); }";
    assert_eq!(knots(&sources(in_code)).len(), 1);
    let in_tests = "pub mod rows; #[cfg(test)] mod tests { use crate::game::theme::widgets; }";
    assert!(knots(&sources(in_tests)).is_empty());
}

#[test]
fn the_theme_knows_nothing_of_the_menus_and_nothing_reaches_into_the_game_root() {
    let sources = crate_sources();
    let graph = imports(&sources);
    let mut problems = Vec::new();
    for (file, targets) in &graph {
        if file.starts_with("game/theme/") && targets.iter().any(|t| t.starts_with("game/menu/")) {
            problems.push(format!("{file} imports the menu"));
        }
        if file.starts_with("game/") && file != "game/mod.rs" && targets.contains("game/mod.rs") {
            problems.push(format!("{file} imports the game's root module"));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn no_source_file_is_over_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut long = Vec::new();
    for folder in ["src", "tests", "benches", "examples"] {
        for file in rust_files(&root.join(folder)) {
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            if lines > MAX_LINES {
                long.push(format!("{}: {lines} lines", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:#?}");
}
