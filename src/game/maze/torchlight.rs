//! The maze's darkness: a texture over the maze, a texel per wall-grid square, black where the
//! player has seen nothing, dim over cells seen before, and clear in the torch's light, which
//! fades toward the torch's reach. Sampled smoothly, so the light has soft edges. Only the
//! squares around the cells whose light changed are painted again. Easy has no darkness.

use super::generation::CurrentMaze;
use super::layers::{Layer, MazeLayers, PaintLayers};
use super::view::{blank_image, put};
use super::walk::{PlayerCaught, PlayerStepped};
use crate::game::screens::AppSystems;
use crate::logic::maze::run::MazeRun;
use bevy::image::ImageSampler;
use bevy::prelude::*;

/// The colour of the dark: the walls' stone, near black.
const DARK: [u8; 3] = [8, 6, 5];
/// Opacity over cells never seen.
const UNSEEN_ALPHA: u8 = 255;
/// Opacity over cells seen before but out of the light.
const REMEMBERED_ALPHA: u8 = 165;
/// Opacity at the edge of the torch's reach; the player's own cell is clear.
const LIGHT_EDGE_ALPHA: f32 = 110.0;

pub(super) fn plugin(app: &mut App) {
    if !crate::game::screens::draws(app) {
        return;
    }
    app.add_systems(OnEnter(super::SCREEN), spawn_darkness.in_set(PaintLayers))
        .add_systems(OnExit(super::SCREEN), |mut commands: Commands| {
            commands.remove_resource::<Darkness>();
        })
        .add_systems(
            Update,
            follow_the_torch
                .run_if(on_message::<PlayerStepped>.or_else(on_message::<PlayerCaught>))
                .in_set(AppSystems::Present)
                .run_if(resource_exists::<Darkness>.and_then(resource_exists::<CurrentMaze>)),
        );
}

/// The darkness texture and the cells it last showed lit.
#[derive(Resource)]
struct Darkness {
    image: Handle<Image>,
    lit: Vec<usize>,
}

/// How dark the darkness makes a cell: 0 in full light (or with no torch, on Easy) to 1 where
/// nothing has been seen. What stands on the maze over the darkness (the shrines) is darkened by
/// this much, as the cell's floor is.
pub(super) fn darkness_over(run: &MazeRun, cell: usize) -> f32 {
    run.rules.torch_radius.map_or(0.0, |radius| {
        f32::from(cell_alpha(run, cell, radius)) / 255.0
    })
}

/// The colour of the dark, for what is darkened by [`darkness_over`].
pub(super) fn dark_colour() -> Color {
    let [r, g, b] = DARK;
    Color::srgb_u8(r, g, b)
}

/// How dark the squares of a cell are.
fn cell_alpha(run: &MazeRun, cell: usize, radius: u32) -> u8 {
    if run.is_lit(cell) {
        let (x, y) = run.maze.coords(cell);
        let (px, py) = run.maze.coords(run.player);
        let distance = (x as f32 - px as f32).hypot(y as f32 - py as f32);
        (LIGHT_EDGE_ALPHA * (distance / radius.max(1) as f32).min(1.0)) as u8
    } else if run.is_seen(cell) {
        REMEMBERED_ALPHA
    } else {
        UNSEEN_ALPHA
    }
}

/// The cells whose squares cover wall-grid square (`column`, `row`): one for a cell's own square,
/// two for a wall between cells, four for a corner.
fn cells_touching(run: &MazeRun, (column, row): (usize, usize)) -> impl Iterator<Item = usize> {
    let along = |index: usize, cells: usize| {
        let first = index.saturating_sub(1) / 2;
        let last = (index / 2).min(cells - 1);
        first..=last
    };
    let columns = along(column, run.maze.width());
    along(row, run.maze.height()).flat_map(move |y| columns.clone().map(move |x| run.maze.id(x, y)))
}

/// Paints the squares of `cells` (each cell's own and the walls and corners around it) with the
/// lightest of the cells touching each square.
fn paint(image: &mut Image, run: &MazeRun, radius: u32, cells: impl Iterator<Item = usize>) {
    for cell in cells {
        let (x, y) = run.maze.coords(cell);
        for row in 2 * y..=2 * y + 2 {
            for column in 2 * x..=2 * x + 2 {
                let alpha = cells_touching(run, (column, row))
                    .map(|touching| cell_alpha(run, touching, radius))
                    .min()
                    .unwrap_or(UNSEEN_ALPHA);
                let [r, g, b] = DARK;
                put(image, (column, row), [r, g, b, alpha]);
            }
        }
    }
}

fn spawn_darkness(
    mut commands: Commands,
    run: Option<Res<CurrentMaze>>,
    mut images: ResMut<Assets<Image>>,
    mut layers: ResMut<MazeLayers>,
) {
    let Some(run) = run else {
        return;
    };
    let Some(radius) = run.rules.torch_radius else {
        return;
    };
    let [r, g, b] = DARK;
    let mut image = blank_image(&run.maze, [r, g, b, UNSEEN_ALPHA]);
    // Soft edges: the light fades between squares instead of stepping.
    image.sampler = ImageSampler::linear();
    let seen = (0..run.maze.cell_count()).filter(|&cell| run.is_seen(cell));
    paint(&mut image, &run, radius, seen);
    let image = images.add(image);
    layers.set(Layer::Darkness, image.clone());
    commands.insert_resource(Darkness {
        image,
        lit: run.lit().to_vec(),
    });
}

/// The player moved: the cells that left the light and those that came into it are painted again.
fn follow_the_torch(
    run: Res<CurrentMaze>,
    mut darkness: ResMut<Darkness>,
    mut images: ResMut<Assets<Image>>,
    (mut stepped, mut caught): (MessageReader<PlayerStepped>, MessageReader<PlayerCaught>),
) {
    stepped.clear();
    caught.clear();
    let Some(radius) = run.rules.torch_radius else {
        return;
    };
    let Some(mut image) = images.get_mut(&darkness.image) else {
        return;
    };
    let before = std::mem::take(&mut darkness.lit);
    paint(
        &mut image,
        &run,
        radius,
        before.into_iter().chain(run.lit().iter().copied()),
    );
    darkness.lit = run.lit().to_vec();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::difficulty::Difficulty;
    use crate::logic::maze::run::MazeSetup;
    use crate::logic::maze::{Algorithm, MazeSpec};

    #[test]
    fn a_square_is_covered_by_the_cells_around_it() {
        let spec = MazeSpec {
            width: 4,
            height: 3,
            algorithm: Algorithm::Prim,
            braid: 0.0,
            seed: 1,
        };
        let run = MazeRun::new(MazeSetup::first_level(spec, Difficulty::Normal), false).unwrap();
        let touching = |square| cells_touching(&run, square).collect::<Vec<_>>();
        assert_eq!(touching((1, 1)), vec![0], "a cell's own square");
        assert_eq!(touching((2, 1)), vec![0, 1], "the wall between two cells");
        assert_eq!(touching((2, 2)), vec![0, 1, 4, 5], "a corner");
        assert_eq!(touching((0, 0)), vec![0], "the outer corner");
        assert_eq!(touching((8, 6)), vec![11], "the far outer corner");
    }

    #[test]
    fn the_light_fades_to_the_torchs_reach_and_seen_cells_stay_dim() {
        let spec = MazeSpec {
            width: 15,
            height: 15,
            algorithm: Algorithm::Backtracker,
            braid: 0.0,
            seed: 3,
        };
        let run = MazeRun::new(MazeSetup::first_level(spec, Difficulty::Normal), false).unwrap();
        assert_eq!(cell_alpha(&run, run.player, 5), 0);
        let farthest = *run
            .lit()
            .iter()
            .max_by_key(|&&c| run.maze.coords(c).0 + run.maze.coords(c).1)
            .unwrap();
        let edge = cell_alpha(&run, farthest, 5);
        assert!(edge > 0 && f32::from(edge) <= LIGHT_EDGE_ALPHA);
        assert_eq!(cell_alpha(&run, run.maze.goal(), 5), UNSEEN_ALPHA);
    }
}
