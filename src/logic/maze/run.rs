//! The rules of walking a maze: the player's cell, the trail, the moves and hints counted, the
//! clock in fixed steps, who is walking, the torch and the cells seen, the guardians and the
//! shrines, and the result at the exit. The game, replays and the tests drive the same rules,
//! one fixed step at a time ([`MazeRun::step_tick`]).
//!
//! Walks follow routes planned once: the system walk and the way back after a catch read a
//! tree of shortest ways made once per maze, and a walk to a clicked cell plans its way when it
//! starts and again only when newly seen cells could shorten it, so a walk costs about its
//! length, not its length times the maze.

use super::challenge::{MazeRules, level_spec, shrine_cells};
use super::guardians::Guardians;
use super::torch::lit_cells;
use super::{Direction, Maze, MazeError, MazeSpec, Region};
use crate::logic::difficulty::Difficulty;
use crate::logic::grid_search::{GridSearch, RouteTree};
use crate::logic::runner::timing::SIMULATION_STEP_S;
use crate::logic::seed::{Fnv1a, fnv1a_64, mix64};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Fixed steps between two steps of the system walk (and of a walk to a clicked cell): 7 of
/// 1/64 s, about 110 ms, brisk yet easy to follow.
pub const SYSTEM_WALK_TICKS: u64 = 7;

/// What decides a maze run: the first level's maze (with the game seed), the difficulty and
/// the level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MazeSetup {
    /// The maze of level 1; later levels grow from it ([`level_spec`]).
    pub first: MazeSpec,
    /// The difficulty.
    pub difficulty: Difficulty,
    /// The level, counted from 1.
    pub level: u32,
}

impl MazeSetup {
    /// Level 1 of `first` at `difficulty`.
    pub fn first_level(first: MazeSpec, difficulty: Difficulty) -> MazeSetup {
        MazeSetup {
            first,
            difficulty,
            level: 1,
        }
    }

    /// The maze of this level.
    pub fn spec(&self) -> MazeSpec {
        level_spec(&self.first, self.level)
    }
}

/// What happened to the player in a fixed step, for the drawing and the sounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MazeEvent {
    /// The player moved from one cell to a neighbour.
    Stepped {
        /// The cell left.
        from: usize,
        /// The cell entered.
        to: usize,
    },
    /// A guardian caught the player, who was taken back to the last shrine along the way the
    /// trail now shows from `trail_from` on.
    Caught {
        /// The cell where it happened.
        at: usize,
        /// The shrine the player is back at.
        shrine: usize,
        /// Where the way back starts in the trail.
        trail_from: usize,
    },
}

/// Something a player does in a maze, taking effect at the start of a fixed step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MazeInput {
    /// A step toward a neighbour (a wall stops it). It also takes control back from the
    /// system walk.
    Step(Direction),
    /// The hint was switched on: counted.
    Hint,
    /// The system walk switched on or off.
    SystemWalk(bool),
    /// Walk to this cell by the shortest way through the cells seen (a cell not yet seen is
    /// ignored). Any step or the system walk takes over from it.
    WalkTo(usize),
}

/// One maze being played.
#[derive(Debug, Clone)]
pub struct MazeRun {
    /// The game, difficulty and level this maze belongs to.
    pub setup: MazeSetup,
    /// What the difficulty makes of it.
    pub rules: MazeRules,
    /// This level's maze as generated.
    pub spec: MazeSpec,
    /// The maze.
    pub maze: Maze,
    /// The player's cell.
    pub player: usize,
    /// Successful steps taken.
    pub moves: u32,
    /// Times the hint was switched on.
    pub hints_used: u32,
    /// Steps of the shortest path from start to exit.
    pub optimal_moves: usize,
    /// Fixed steps played: the clock, which stops at the exit (and does not run while paused,
    /// when no steps run).
    pub ticks: u64,
    /// Fixed steps since the system walk's last step.
    pub since_system_step: u64,
    /// The system is walking the player to the exit.
    pub system_walk: bool,
    /// The system walked at some point: such a run sets no record.
    pub assisted: bool,
    /// The player reached the exit.
    pub finished: bool,
    /// The cell the player is walking to after a click, through cells seen.
    pub walk_target: Option<usize>,
    /// The guardians (none below Hard).
    pub guardians: Guardians,
    /// The shrines: the start and two cells along the way (none below Hard but the start).
    pub shrines: Vec<usize>,
    /// The shrine the player passed last: where a guardian's touch sends them.
    pub last_shrine: usize,
    /// Times a guardian caught the player.
    pub catches: u32,
    /// Every cell walked, in order, starting with the start cell, and a fingerprint of them.
    trail: Vec<usize>,
    /// FNV-1a of the trail's cells in order, kept up as it grows.
    trail_hash: u64,
    /// Per cell: the torch has lit it at some point (all true when the maze is lit).
    seen: Vec<bool>,
    /// How many cells have been seen, and the sum of their scrambled ids: the seen set's share
    /// of a fingerprint, kept up as cells are seen.
    seen_count: usize,
    seen_sum: u64,
    /// The cells the torch lights now, in increasing id order (empty when the maze is lit).
    lit: Vec<usize>,
    /// The walk to a clicked cell's way there, the next cell last, with a fingerprint of it as
    /// planned and the number of cells seen when it was planned.
    click_route: Vec<usize>,
    click_route_hash: u64,
    click_route_seen: usize,
    /// Whether the maze has loops (a braided maze): only then can newly seen cells shorten a
    /// walk's way, since in a perfect maze the way between two cells is unique.
    has_loops: bool,
    /// A fingerprint of the maze's spec and walls, made once.
    maze_fingerprint: u64,
    /// The shortest ways to the exit from every cell, made the first time the system walks.
    exit_routes: OnceLock<RouteTree>,
    /// The shortest ways to each shrine, made the first time a guardian sends the player there.
    shrine_routes: Vec<OnceLock<RouteTree>>,
}

impl MazeRun {
    /// A new run of `setup` with the player at the start; the system walks from the start when
    /// `system_walk` is set.
    pub fn new(setup: MazeSetup, system_walk: bool) -> Result<MazeRun, MazeError> {
        let spec = setup.spec();
        let rules = MazeRules::of(setup.difficulty);
        let maze = spec.generate()?;
        let route = GridSearch::new()
            .astar(&maze, maze.start(), maze.goal())
            .path
            .ok_or(MazeError::NoWayOut)?;
        let optimal_moves = route.len() - 1;
        let start = maze.start();
        // The setup (with its seed) and the walls it made.
        let maze_fingerprint = fnv1a_64(format!("{setup:?}|{maze:?}").as_bytes());
        let (shrines, guardians) = if rules.guardians {
            let shrines = shrine_cells(&maze, &route);
            let count = rules.guardian_count(maze.cell_count(), setup.level);
            let guardians = Guardians::place(&maze, spec.seed, count, &route);
            (shrines, guardians)
        } else {
            (vec![start], Guardians::none())
        };
        let lit = rules.torch_radius.is_none();
        let cells = maze.cell_count();
        let mut run = MazeRun {
            maze_fingerprint,
            setup,
            rules,
            spec,
            seen: vec![lit; cells],
            seen_count: if lit { cells } else { 0 },
            seen_sum: if lit {
                (0..cells as u64).fold(0, |sum, cell| sum.wrapping_add(mix64(cell)))
            } else {
                0
            },
            lit: Vec::new(),
            walk_target: None,
            click_route: Vec::new(),
            click_route_hash: 0,
            click_route_seen: 0,
            has_loops: maze.passage_count() >= cells,
            exit_routes: OnceLock::new(),
            shrine_routes: shrines.iter().map(|_| OnceLock::new()).collect(),
            guardians,
            shrines,
            last_shrine: start,
            catches: 0,
            maze,
            player: start,
            trail: vec![start],
            trail_hash: Fnv1a::new().u64(start as u64).finish(),
            moves: 0,
            hints_used: 0,
            optimal_moves,
            ticks: 0,
            since_system_step: 0,
            system_walk,
            assisted: system_walk,
            finished: false,
        };
        run.light_torch();
        Ok(run)
    }

    /// Lights the cells around the player and marks them seen.
    fn light_torch(&mut self) {
        if let Some(radius) = self.rules.torch_radius {
            self.lit = lit_cells(&self.maze, self.player, radius);
            for at in 0..self.lit.len() {
                self.see(self.lit[at]);
            }
        }
    }

    /// Marks a cell seen, and counts it into the seen set's fingerprint the first time.
    fn see(&mut self, cell: usize) {
        if !std::mem::replace(&mut self.seen[cell], true) {
            self.seen_count += 1;
            self.seen_sum = self.seen_sum.wrapping_add(mix64(cell as u64));
        }
    }

    /// Every cell walked, in order, starting with the start cell (a catch adds the way back).
    pub fn trail(&self) -> &[usize] {
        &self.trail
    }

    /// Adds cells to the trail and to its fingerprint.
    fn extend_trail(&mut self, cells: &[usize]) {
        let mut hash = Fnv1a::continuing(self.trail_hash);
        for &cell in cells {
            hash.u64(cell as u64);
        }
        self.trail_hash = hash.finish();
        self.trail.extend_from_slice(cells);
    }

    /// Whether the torch lights `cell` now (every cell when the maze is lit).
    pub fn is_lit(&self, cell: usize) -> bool {
        self.rules.torch_radius.is_none() || self.lit.binary_search(&cell).is_ok()
    }

    /// Whether `cell` has been seen (every cell when the maze is lit).
    pub fn is_seen(&self, cell: usize) -> bool {
        self.seen.get(cell).copied().unwrap_or(false)
    }

    /// The cells the torch lights now, in increasing id order (empty when the maze is lit).
    pub fn lit(&self) -> &[usize] {
        &self.lit
    }

    /// The time that counts, in seconds: the play time plus what the hints cost.
    pub fn total_seconds(&self) -> f64 {
        self.rules.counted_ticks(self.ticks, self.hints_used) as f64 * SIMULATION_STEP_S
    }

    /// Moves the player one cell if the passage is open and the run is not over. Returns the
    /// cell left.
    pub fn step(&mut self, direction: Direction) -> Option<usize> {
        if self.finished || !self.maze.is_open(self.player, direction) {
            return None;
        }
        let from = self.player;
        self.player = self.maze.neighbour(from, direction)?;
        self.extend_trail(&[self.player]);
        self.moves += 1;
        if self.shrines.contains(&self.player) {
            self.last_shrine = self.player;
        }
        self.light_torch();
        Some(from)
    }

    /// Moves the player to `cell` if it is a neighbour through an open passage. Returns the cell
    /// left.
    pub fn step_to(&mut self, cell: usize) -> Option<usize> {
        let direction = Direction::ALL
            .into_iter()
            .find(|&d| self.maze.neighbour(self.player, d) == Some(cell))?;
        self.step(direction)
    }

    /// Play time in seconds: the fixed steps played.
    pub fn seconds(&self) -> f64 {
        self.ticks as f64 * SIMULATION_STEP_S
    }

    /// Applies an input now. Returns the cell left when the player stepped.
    pub fn apply(&mut self, input: MazeInput) -> Option<usize> {
        match input {
            MazeInput::Step(direction) => {
                self.system_walk = false;
                self.end_click_walk();
                self.step(direction)
            }
            MazeInput::Hint => {
                self.count_hint();
                None
            }
            MazeInput::SystemWalk(on) => {
                self.set_system_walk(on);
                self.end_click_walk();
                self.since_system_step = 0;
                None
            }
            MazeInput::WalkTo(cell) => {
                if self.is_seen(cell) && cell != self.player {
                    self.walk_target = Some(cell);
                    self.system_walk = false;
                    self.since_system_step = 0;
                    // The way there is planned when its first step is due.
                    self.click_route.clear();
                }
                None
            }
        }
    }

    /// One fixed step: the inputs, the walk's step when one is due (the system's or to a
    /// clicked cell), the guardians, the clock, and the exit. What happened to the player is
    /// added to `events`. Returns true on the step that reached the exit. Nothing happens once
    /// the run is over.
    pub fn step_tick(
        &mut self,
        inputs: impl IntoIterator<Item = MazeInput>,
        events: &mut Vec<MazeEvent>,
    ) -> bool {
        if self.finished {
            return false;
        }
        for input in inputs {
            if let Some(from) = self.apply(input) {
                events.push(MazeEvent::Stepped {
                    from,
                    to: self.player,
                });
                self.catch_if_touched(events);
            }
        }
        if self.system_walk || self.walk_target.is_some() {
            self.since_system_step += 1;
            if self.since_system_step >= SYSTEM_WALK_TICKS {
                self.since_system_step = 0;
                let next = if self.system_walk {
                    self.next_cell_to_exit()
                } else {
                    self.next_cell_to_target()
                };
                if let Some(from) = next.and_then(|next| self.step_to(next)) {
                    events.push(MazeEvent::Stepped {
                        from,
                        to: self.player,
                    });
                }
                if self.walk_target == Some(self.player) || next.is_none() {
                    self.end_click_walk();
                }
                self.catch_if_touched(events);
            }
        }
        self.guardians.step(&self.maze, SIMULATION_STEP_S as f32);
        self.catch_if_touched(events);
        self.ticks += 1;
        self.finish_at_exit()
    }

    /// Sends the player back to the last shrine if a guardian stands in their cell (the exit is
    /// safe). The trail follows the way back.
    fn catch_if_touched(&mut self, events: &mut Vec<MazeEvent>) {
        let at = self.player;
        if at == self.maze.goal() || !self.guardians.guardians.iter().any(|g| g.cell() == at) {
            return;
        }
        let way_back = self.shrine_routes(self.last_shrine).route_from(at);
        let trail_from = self.trail.len() - 1;
        self.extend_trail(way_back.as_deref().map_or(&[], |way| &way[1..]));
        self.player = self.last_shrine;
        self.catches += 1;
        self.end_click_walk();
        self.light_torch();
        events.push(MazeEvent::Caught {
            at,
            shrine: self.player,
            trail_from,
        });
    }

    /// The shortest ways to the exit from every cell, made on first use.
    fn exit_routes(&self) -> &RouteTree {
        self.exit_routes
            .get_or_init(|| RouteTree::toward(&self.maze, self.maze.goal()))
    }

    /// The shortest ways to `shrine` (one of the shrines) from every cell, made on first use.
    fn shrine_routes(&self, shrine: usize) -> RouteTree {
        let at = self.shrines.iter().position(|&s| s == shrine);
        match at.and_then(|at| self.shrine_routes.get(at)) {
            Some(routes) => routes
                .get_or_init(|| RouteTree::toward(&self.maze, shrine))
                .clone(),
            None => RouteTree::toward(&self.maze, shrine),
        }
    }

    /// The next cell of the shortest way from the player to the exit: where the system walk
    /// goes.
    pub fn next_cell_to_exit(&self) -> Option<usize> {
        self.exit_routes().next_from(self.player)
    }

    /// The cells of the way the system walk takes from the player to the exit, both included.
    pub fn route_to_exit(&self) -> Option<Vec<usize>> {
        self.exit_routes().route_from(self.player)
    }

    /// The next cell of the way through seen cells to the clicked cell: planned when the walk
    /// starts, and again when cells seen since could make it shorter (only in a maze with
    /// loops). Removed from the way, as the player steps there.
    fn next_cell_to_target(&mut self) -> Option<usize> {
        let target = self.walk_target?;
        let stale = self.has_loops && self.click_route_seen != self.seen_count;
        if self.click_route.is_empty() || stale {
            let seen = Region {
                maze: &self.maze,
                allowed: |cell| self.is_seen(cell),
            };
            let mut way = GridSearch::new().astar(&seen, self.player, target).path?;
            way.reverse();
            way.pop();
            let mut hash = Fnv1a::new();
            for &cell in &way {
                hash.u64(cell as u64);
            }
            self.click_route_hash = hash.finish();
            self.click_route = way;
            self.click_route_seen = self.seen_count;
        }
        self.click_route.pop()
    }

    /// A fingerprint of what the rest of the run depends on: the maze, where the player is, the
    /// trail and the cells seen, what was counted, who walks and where to, and the guardians.
    /// Each part is kept up as it changes, so a fingerprint costs the same however long the run.
    pub fn fingerprint(&self) -> u64 {
        let mut hash = Fnv1a::new();
        let walk_target = self.walk_target.map_or(u64::MAX, |cell| cell as u64);
        for part in [
            self.maze_fingerprint,
            self.player as u64,
            self.trail.len() as u64,
            self.trail_hash,
            self.seen_count as u64,
            self.seen_sum,
            u64::from(self.moves),
            u64::from(self.hints_used),
            self.ticks,
            self.since_system_step,
            u64::from(self.system_walk),
            u64::from(self.assisted),
            u64::from(self.finished),
            walk_target,
            self.click_route.len() as u64,
            self.click_route_hash,
            self.click_route_seen as u64,
            self.last_shrine as u64,
            u64::from(self.catches),
        ] {
            hash.u64(part);
        }
        self.guardians.fingerprint_into(&mut hash);
        hash.finish()
    }

    /// Ends a walk to a clicked cell, if one is under way, and forgets its way.
    fn end_click_walk(&mut self) {
        self.walk_target = None;
        self.click_route.clear();
        self.click_route_hash = 0;
        self.click_route_seen = 0;
    }

    /// Starts or stops the system walk; a run it ever walked is assisted.
    pub fn set_system_walk(&mut self, on: bool) {
        self.system_walk = on;
        self.assisted |= on;
    }

    /// Counts one more use of the hint.
    pub fn count_hint(&mut self) {
        self.hints_used += 1;
    }

    /// Ends the run if the player stands at the exit: true once, on the step that got there.
    pub fn finish_at_exit(&mut self) -> bool {
        if self.finished || self.player != self.maze.goal() {
            return false;
        }
        self.finished = true;
        self.system_walk = false;
        self.end_click_walk();
        true
    }

    /// Optimal moves per move made, as a percentage (100 % = the shortest route).
    pub fn efficiency_percent(&self) -> f64 {
        if self.moves == 0 {
            return 100.0;
        }
        100.0 * self.optimal_moves as f64 / f64::from(self.moves)
    }
}

#[cfg(test)]
mod tests;
