//! The maze's ghost: the best run of this maze (its seed on its board), walked again from its
//! replay step for step with the player, drawn as a faint walker with a faint trail, both under
//! the darkness: the walker shows only in the player's torchlight. The Ghosts setting turns it
//! off; a world board's run the player chose to race ([`RaceGhost`]) takes its place.

use super::generation::{CurrentMaze, start_maze};
use super::layers::{Layer, MazeLayers, PaintLayers};
use super::view::{TEXEL, blank_image, cell_texel, put, texel_position, walk_texels};
use super::walk::step_maze;
use crate::game::replays::{RaceGhost, Records};
use crate::game::scores::BestScores;
use crate::game::screens::{AppSystems, PausableSystems};
use crate::game::session::{PlayReason, PlaySession};
use crate::game::settings::Settings;
use crate::logic::maze::replay::{MazeKind, board_detail};
use crate::logic::maze::run::{MazeInput, MazeRun};
use crate::logic::replay::{RunKind, Timed, play_until};
use bevy::prelude::*;

/// The ghost's trail: a pale blue, fainter than the player's.
const GHOST_TRAIL: [u8; 4] = [120, 170, 230, 110];
/// The ghost walker's colour.
const GHOST_COLOUR: Color = Color::srgba(0.65, 0.8, 1.0, 0.55);
/// Under the player (at 5).
const GHOST_Z: f32 = 4.5;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(super::SCREEN), summon_ghost.after(start_maze))
        .add_systems(OnExit(super::SCREEN), |mut commands: Commands| {
            commands.remove_resource::<MazeGhost>();
        })
        .add_systems(
            FixedUpdate,
            step_ghost
                .after(step_maze)
                .in_set(PausableSystems)
                .run_if(resource_exists::<MazeGhost>.and_then(resource_exists::<CurrentMaze>)),
        );
    if crate::game::screens::draws(app) {
        app.add_systems(
            OnEnter(super::SCREEN),
            spawn_ghost_view.after(summon_ghost).in_set(PaintLayers),
        )
        .add_systems(
            Update,
            draw_ghost
                .in_set(AppSystems::Present)
                .run_if(resource_exists::<MazeGhost>.and_then(resource_exists::<GhostView>)),
        );
    }
}

/// The best run of this maze, being walked again beside the player.
#[derive(Resource, Debug)]
pub struct MazeGhost {
    /// The ghost's run.
    pub run: MazeRun,
    inputs: Vec<Timed<MazeInput>>,
    next: usize,
}

/// The ghost of this maze, when there is one and ghosts are on.
fn summon_ghost(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    (records, race): (Res<Records>, Option<Res<RaceGhost>>),
    settings: Res<Settings>,
    session: Res<PlaySession>,
) {
    let Some(run) = run else {
        return;
    };
    if session.why == PlayReason::Watched {
        return;
    }
    let detail = session.board_detail(&board_detail(&run.setup));
    let board = BestScores::board_name(&super::MODE, &detail);
    let seed = run.setup.first.seed;
    // A ghost the player chose to race comes whatever the Ghosts setting says (the maze was
    // made from its setup).
    let raced = RaceGhost::of(race.as_deref(), MazeKind::MODE, seed, session.difficulty);
    let own = || {
        settings
            .ghosts
            .then(|| records.ghost(&board, seed))
            .flatten()
    };
    let Some(replay) = raced.or_else(own) else {
        return;
    };
    let (Ok(setup), Ok(inputs)) = (
        replay.run.setup::<MazeKind>(),
        replay.run.inputs::<MazeKind>(),
    ) else {
        return;
    };
    let Ok(ghost) = MazeKind::start(&setup, replay.seed, replay.difficulty) else {
        return;
    };
    commands.insert_resource(MazeGhost {
        run: ghost,
        inputs,
        next: 0,
    });
}

/// The ghost takes the steps the player's run took, with its own recorded inputs.
fn step_ghost(run: Res<CurrentMaze>, mut ghost: ResMut<MazeGhost>) {
    let ghost = &mut *ghost;
    play_until(&mut ghost.run, &ghost.inputs, &mut ghost.next, run.ticks);
}

/// The ghost's trail texture, the trail cells painted so far, and its walker.
#[derive(Resource)]
struct GhostView {
    trail: Handle<Image>,
    painted: usize,
}

/// The drawn ghost walker.
#[derive(Component, Debug)]
struct GhostWalker;

fn spawn_ghost_view(
    mut commands: Commands,
    ghost: Option<Res<MazeGhost>>,
    mut images: ResMut<Assets<Image>>,
    mut layers: ResMut<MazeLayers>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.remove_resource::<GhostView>();
    let Some(ghost) = ghost else {
        return;
    };
    let maze = &ghost.run.maze;
    let trail = images.add(blank_image(maze, super::view::CLEAR));
    layers.set(Layer::GhostTrail, trail.clone());
    let at = texel_position(maze, cell_texel(maze, ghost.run.player));
    commands.spawn((
        Name::new("Ghost walker"),
        GhostWalker,
        Mesh2d(meshes.add(Circle::new(TEXEL * 0.55))),
        MeshMaterial2d(materials.add(GHOST_COLOUR)),
        Transform::from_translation(at.extend(GHOST_Z)),
        DespawnOnExit(super::SCREEN),
    ));
    commands.insert_resource(GhostView { trail, painted: 0 });
}

fn draw_ghost(
    ghost: Res<MazeGhost>,
    run: Option<Res<CurrentMaze>>,
    mut view: ResMut<GhostView>,
    mut images: ResMut<Assets<Image>>,
    walker: Single<(&mut Transform, &mut Visibility), With<GhostWalker>>,
) {
    let maze = &ghost.run.maze;
    let trail = ghost.run.trail();
    if view.painted < trail.len() {
        if let Some(mut image) = images.get_mut(&view.trail) {
            // From the last cell painted, so the passage to the next one is painted too.
            let from = view.painted.saturating_sub(1);
            for texel in walk_texels(maze, &trail[from..]) {
                put(&mut image, texel, GHOST_TRAIL);
            }
        }
        view.painted = trail.len();
    }
    let (mut transform, mut visibility) = walker.into_inner();
    let at = texel_position(maze, cell_texel(maze, ghost.run.player));
    transform.translation = at.extend(GHOST_Z);
    // Like a guardian, the ghost shows only in the player's light: in the dark it would show
    // the way.
    let lit = run.is_some_and(|run| run.is_lit(ghost.run.player));
    *visibility = if lit {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
}
