//! Maze levels: after a win, Next level plays a larger maze from the same seed's level stream
//! (with more guardians on Hard). The run's time adds up over its levels; the best level
//! reached, and the best run time to each level, are kept per difficulty.

use super::walk::MazeWin;
use crate::game::menu::{MenuInput, MenuItem};
use crate::game::scores::{BestScores, Ranking};
use crate::game::screens::{AppSystems, Menu, Screen};
use crate::game::session::PlaySession;
use crate::logic::difficulty::Difficulty;
use crate::logic::maze::MazeSpec;
use crate::logic::maze::run::MazeSetup;
use bevy::prelude::*;

/// The win dialog's button that plays the next level.
pub const NEXT_LEVEL: MenuItem = MenuItem::Action("maze.next_level");

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MazeLevel>()
        .add_systems(OnEnter(Screen::Title), forget_the_run)
        .add_systems(
            Update,
            next_level
                .run_if(on_message::<MenuInput>.and_then(resource_exists::<MazeWin>))
                .in_set(AppSystems::Update)
                .run_if(in_state(super::SCREEN)),
        );
}

/// The run of levels being played: which level comes next and what the levels won so far took.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct MazeLevel {
    /// The level to play, from 1.
    pub level: u32,
    /// The counted seconds of the levels won before it in this run.
    pub earlier_seconds: f64,
    /// The system walked in a level won before it.
    pub earlier_assisted: bool,
    /// The first maze and the difficulty of this run: any other starts again at level 1.
    run_of: Option<(MazeSpec, Difficulty)>,
}

impl Default for MazeLevel {
    fn default() -> MazeLevel {
        MazeLevel {
            level: 1,
            earlier_seconds: 0.0,
            earlier_assisted: false,
            run_of: None,
        }
    }
}

impl MazeLevel {
    /// The setup of the level to play in a run that starts with `first` at `difficulty`. A run
    /// of another maze or difficulty starts at level 1.
    pub fn setup(&mut self, first: MazeSpec, difficulty: Difficulty) -> MazeSetup {
        if self.run_of != Some((first, difficulty)) {
            *self = MazeLevel {
                run_of: Some((first, difficulty)),
                ..MazeLevel::default()
            };
        }
        MazeSetup {
            first,
            difficulty,
            level: self.level,
        }
    }
}

/// The name of the board of the best level reached at a difficulty.
pub fn levels_board(difficulty: Difficulty) -> String {
    format!("levels/{}", difficulty.name())
}

/// Records a won level of an unassisted run: the level reached at its difficulty, and the run's
/// time to it. Returns the best level reached at that difficulty.
pub fn submit_level(
    scores: &mut BestScores,
    session: &PlaySession,
    setup: &MazeSetup,
    run_seconds: f64,
) -> Option<u32> {
    let levels = BestScores::board_name(
        &super::MODE,
        &session.board_detail(&levels_board(setup.difficulty)),
    );
    let seed = setup.first.seed;
    scores.submit(
        &levels,
        Ranking::HigherIsBetter,
        f64::from(setup.level),
        seed,
    );
    let run_time = format!("{levels}/level{}", setup.level);
    scores.submit(&run_time, Ranking::LowerIsBetter, run_seconds, seed);
    scores.best(&levels).map(|best| best.value as u32)
}

/// A new visit to the maze from the title starts at level 1.
fn forget_the_run(mut level: ResMut<MazeLevel>) {
    *level = MazeLevel::default();
}

/// Next level: the run goes on with the next level's maze, the time won so far carried over.
fn next_level(
    mut inputs: MessageReader<MenuInput>,
    win: Res<MazeWin>,
    mut level: ResMut<MazeLevel>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
) {
    if !inputs
        .read()
        .any(|input| *input == MenuInput::Activated(NEXT_LEVEL))
    {
        return;
    }
    level.level = win.level.saturating_add(1);
    level.earlier_seconds = win.run_seconds;
    level.earlier_assisted |= win.assisted;
    // `set` runs the screen's exit and enter schedules: the next level's maze is made.
    next_screen.set(super::SCREEN);
    next_menu.set(Menu::None);
}
