//! Maze generation: entering the maze screen makes the maze of the level being played from the
//! player's maze settings, the shared seed and the difficulty (the system walking from the start
//! with `--autoplay`); leaving drops it.

use super::levels::MazeLevel;
use super::options::MazeOptions;
use crate::game::menu::dialog::ResultDialog;
use crate::game::records::Watching;
use crate::game::replays::RaceGhost;
use crate::game::screens::enter_mode;
use crate::game::session::AutoplayOnStart;
use crate::game::session::{PlayReason, PlaySession};
use crate::logic::maze::replay::MazeKind;
use crate::logic::maze::run::MazeRun;
use crate::logic::replay::RunKind;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(super::SCREEN), start_maze.after(enter_mode))
        .add_systems(OnExit(super::SCREEN), end_maze);
}

/// The maze being played: its rules and state.
#[derive(Resource, Debug, Deref, DerefMut)]
pub struct CurrentMaze(pub MazeRun);

/// Makes the maze; the other maze plugins set themselves up after this.
pub(super) fn start_maze(
    mut commands: Commands,
    (options, session): (Res<MazeOptions>, Res<PlaySession>),
    mut level: ResMut<MazeLevel>,
    autoplay: Option<Res<AutoplayOnStart>>,
    watching: Option<ResMut<Watching>>,
    race: Option<Res<RaceGhost>>,
) {
    let system_walk = autoplay.is_some_and(|a| a.0);
    // A record being watched walks its own maze from its first input.
    let watched = watching.and_then(|mut watching| {
        watching.rewind();
        let replay = &watching.replay;
        let setup = replay.run.setup::<MazeKind>().ok()?;
        Some(setup.maze.setup(replay.seed, replay.difficulty))
    });
    let (seed, difficulty) = (session.seed, session.difficulty);
    // A world board's run raced as a ghost: the maze it walked, at its level.
    let raced =
        RaceGhost::of(race.as_deref(), MazeKind::MODE, seed, difficulty).and_then(|ghost| {
            let setup = ghost.run.setup::<MazeKind>().ok()?;
            Some(setup.maze.setup(ghost.seed, ghost.difficulty))
        });
    let (setup, system_walk) = match (watched, raced, &session.why) {
        (Some(setup), _, _) => (setup, false),
        (None, Some(setup), _) => (setup, system_walk),
        // The day's maze is the same for everyone: the default maze settings.
        (None, None, PlayReason::Daily { .. }) => (
            level.setup(MazeOptions::default().spec(seed), difficulty),
            system_walk,
        ),
        (None, None, _) => (level.setup(options.spec(seed), difficulty), system_walk),
    };
    match MazeRun::new(setup, system_walk) {
        Ok(run) => {
            commands.remove_resource::<super::MazeWin>();
            commands.remove_resource::<ResultDialog>();
            commands.insert_resource(CurrentMaze(run));
        }
        // Settings are sanitized when loaded and edited, so this means a bug; say so clearly.
        Err(err) => error!("Cannot start the maze: {err}"),
    }
}

fn end_maze(mut commands: Commands) {
    commands.remove_resource::<CurrentMaze>();
}
