//! The A* hint overlay: Space shows or hides the shortest path from where the player stands to
//! the exit (counted as a hint), E the cells A* searched for it. The path is found again only
//! when the player moves while it is shown, and painted on transparent textures over the maze.

use super::controls::MazeAction;
use super::generation::{CurrentMaze, start_maze};
use super::layers::{Layer, MazeLayers, PaintLayers};
use super::view::{CLEAR, blank_image, cell_texel, put, walk_texels};
use super::walk::{MazeTape, PlayerStepped};
use crate::game::records::Watching;
use crate::game::screens::{AppSystems, PausableSystems};
use crate::logic::grid_search::{GridSearch, SearchOutcome};
use crate::logic::maze::run::MazeInput;
use crate::logic::maze::run::MazeRun;
use bevy::prelude::*;
use leafwing_input_manager::common_conditions::action_just_pressed;

/// The hint's colour: bright gold over the floor.
const HINT: [u8; 4] = [255, 214, 64, 235];
/// The searched cells' colour: a see-through blue.
const SEARCHED: [u8; 4] = [70, 140, 255, 105];

pub(super) fn plugin(app: &mut App) {
    let playing = in_state(super::SCREEN).and_then(resource_exists::<CurrentMaze>);
    app.init_resource::<MazeHint>()
        .add_systems(OnEnter(super::SCREEN), reset_hint.after(start_maze))
        .add_systems(
            Update,
            (
                (
                    // Space pauses a watched record instead.
                    toggle_hint.run_if(
                        action_just_pressed(MazeAction::Hint)
                            .and_then(not(resource_exists::<Watching>)),
                    ),
                    toggle_searched_cells.run_if(action_just_pressed(MazeAction::Searched)),
                )
                    .chain()
                    .in_set(AppSystems::RecordInput),
                (
                    hide_route_after_the_walk,
                    refresh_hint.run_if(on_message::<PlayerStepped>),
                )
                    .chain()
                    .in_set(AppSystems::Update),
            )
                .in_set(PausableSystems)
                .run_if(playing),
        );
    if crate::game::screens::draws(app) {
        app.add_systems(
            OnEnter(super::SCREEN),
            spawn_hint_layers.after(reset_hint).in_set(PaintLayers),
        )
        .add_systems(OnExit(super::SCREEN), |mut commands: Commands| {
            commands.remove_resource::<HintLayers>();
        })
        .add_systems(
            Update,
            paint_hint
                .in_set(AppSystems::Present)
                .run_if(in_state(super::SCREEN).and_then(resource_exists::<HintLayers>)),
        );
    }
}

/// The hint: whether it and the searched cells are shown, and the last search.
#[derive(Resource, Debug, Default)]
pub struct MazeHint {
    /// The shortest path is shown.
    pub shown: bool,
    /// It is shown only as the system walk's route, not as a hint the player asked (and paid)
    /// for: it goes when the system stops walking.
    pub route_only: bool,
    /// The cells A* expanded for it are shown.
    pub searched_shown: bool,
    /// The last search: A* from the player's cell at the time to the exit.
    pub outcome: Option<SearchOutcome>,
    /// Counts searches, so the drawing repaints only when the hint changed.
    pub version: u32,
    /// Reusable A* buffers, which also know which cells the last search expanded.
    pub search: GridSearch,
}

impl MazeHint {
    /// Searches again from the player's cell; shown as the system walk's route, the way it
    /// walks instead, so the route shown is the one taken (in a braided maze two ways can be
    /// equally short).
    pub fn recompute(&mut self, run: &MazeRun) {
        self.outcome = Some(if self.route_only {
            SearchOutcome {
                path: run.route_to_exit(),
                expanded: 0,
            }
        } else {
            self.search.astar(&run.maze, run.player, run.maze.goal())
        });
        self.version = self.version.wrapping_add(1);
    }

    /// The cells of the last hint, from the cell it was found at to the exit.
    pub fn path(&self) -> Option<&[usize]> {
        self.outcome.as_ref().and_then(|hint| hint.path.as_deref())
    }

    /// Shows the route the system walk follows (not counted as a hint).
    pub fn show_route(&mut self, run: &MazeRun) {
        if !self.shown {
            self.route_only = true;
        }
        self.shown = true;
        self.recompute(run);
    }
}

/// A new maze starts without a hint, unless the system walks it (then its route shows).
fn reset_hint(run: Option<Res<CurrentMaze>>, mut hint: ResMut<MazeHint>) {
    let search = std::mem::take(&mut hint.search);
    *hint = MazeHint {
        search,
        ..MazeHint::default()
    };
    if let Some(run) = run
        && run.system_walk
    {
        hint.show_route(&run);
    }
}

/// Space shows or hides the hint; showing it is an input of the run, counted at the next step.
fn toggle_hint(run: Res<CurrentMaze>, mut hint: ResMut<MazeHint>, tape: Option<ResMut<MazeTape>>) {
    hint.shown = !hint.shown;
    hint.route_only = false;
    if hint.shown {
        if let Some(mut tape) = tape {
            tape.pending.push(MazeInput::Hint);
        }
        hint.recompute(&run);
    }
}

fn toggle_searched_cells(run: Res<CurrentMaze>, mut hint: ResMut<MazeHint>) {
    hint.searched_shown = !hint.searched_shown;
    if hint.searched_shown && hint.outcome.is_none() {
        hint.recompute(&run);
    }
}

/// The system walk's route goes when the system stops walking (a key, a click or Enter took
/// control back), so it never lights the way for free in the dark.
fn hide_route_after_the_walk(
    run: Res<CurrentMaze>,
    tape: Option<Res<MazeTape>>,
    mut hint: ResMut<MazeHint>,
) {
    // With the inputs still waiting for the next step: Enter may have just started the walk.
    let walking = tape.map_or(run.system_walk, |tape| tape.system_walk_wanted(&run));
    if hint.route_only && !walking {
        hint.shown = false;
        hint.route_only = false;
    }
}

/// The hint is found again only when the player moved while it (or its search) is shown.
fn refresh_hint(run: Res<CurrentMaze>, mut hint: ResMut<MazeHint>) {
    if hint.shown || hint.searched_shown {
        hint.recompute(&run);
    }
}

/// The hint's two textures and what is painted on them.
#[derive(Resource)]
struct HintLayers {
    path: Handle<Image>,
    searched: Handle<Image>,
    /// The texels the path covers now, to clear them when it changes.
    path_texels: Vec<(usize, usize)>,
    /// The hint version and visibility last painted.
    painted: Option<(u32, bool, bool)>,
}

fn spawn_hint_layers(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    mut images: ResMut<Assets<Image>>,
    mut maze_layers: ResMut<MazeLayers>,
) {
    let Some(run) = run else {
        return;
    };
    let layers = HintLayers {
        path: images.add(blank_image(&run.maze, CLEAR)),
        searched: images.add(blank_image(&run.maze, CLEAR)),
        path_texels: Vec::new(),
        painted: None,
    };
    maze_layers.set(Layer::Searched, layers.searched.clone());
    maze_layers.set(Layer::Hint, layers.path.clone());
    commands.insert_resource(layers);
}

/// Repaints the hint path and the searched cells when the hint or its visibility changed.
fn paint_hint(
    run: Res<CurrentMaze>,
    hint: Res<MazeHint>,
    mut layers: ResMut<HintLayers>,
    mut images: ResMut<Assets<Image>>,
) {
    let state = (hint.version, hint.shown, hint.searched_shown);
    if layers.painted == Some(state) {
        return;
    }
    let searched_before = layers.painted.is_some_and(|(_, _, shown)| shown);
    layers.painted = Some(state);
    let layers = &mut *layers;
    if let Some(mut path) = images.get_mut(&layers.path) {
        for texel in layers.path_texels.drain(..) {
            put(&mut path, texel, CLEAR);
        }
        if hint.shown
            && let Some(cells) = hint.path()
        {
            layers.path_texels = walk_texels(&run.maze, cells);
            for &texel in &layers.path_texels {
                put(&mut path, texel, HINT);
            }
        }
    }
    if (hint.searched_shown || searched_before)
        && let Some(mut searched) = images.get_mut(&layers.searched)
    {
        if let Some(data) = searched.data.as_mut() {
            data.fill(0);
        }
        if hint.searched_shown {
            for cell in 0..run.maze.cell_count() {
                if hint.search.was_expanded(cell) {
                    put(&mut searched, cell_texel(&run.maze, cell), SEARCHED);
                }
            }
        }
    }
}
