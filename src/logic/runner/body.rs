//! The runner in motion: distance, lane changes, jumps, slides, turns, stumbles, power-ups and
//! what happens at each contact point, under the timing model. The game moves it every fixed
//! step; the headless simulation moves it the same way.

use super::planner::Action;
use super::powerups::{ActivePowerUps, PowerUp, SCORE_MULTIPLIER};
use super::timing::{
    JUMP_S, LANE_CHANGE_S, LANES, SLIDE_S, STUMBLE_WINDOW_S, TURN_WINDOW_S, contact_distance_m,
};
use super::track::{LaneContent, SegmentKind, Track};
use serde::{Deserialize, Serialize};

/// Points a coin line is worth on top of the metres run, as in the seed.
pub const COIN_LINE_POINTS: u64 = 10;

/// What the runner is doing with its body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Posture {
    /// On its feet.
    Running,
    /// In the air for this many more seconds.
    Jumping {
        /// Seconds until landing.
        left_s: f64,
    },
    /// Sliding for this many more seconds.
    Sliding {
        /// Seconds until standing up.
        left_s: f64,
    },
}

/// A player's (or the autopilot's) input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Left: a lane to the left, or a left turn inside a junction's turn window.
    Left,
    /// Right: a lane to the right, or a right turn inside a junction's turn window.
    Right,
    /// Jump.
    Jump,
    /// Slide (from the air too: the runner drops into the slide).
    Slide,
}

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crash {
    /// Ran into a stone wall.
    Wall,
    /// Clipped a log or a beam a second time within [`STUMBLE_WINDOW_S`] of a stumble, and the
    /// guardians caught up.
    Caught,
    /// Ran straight on at a junction and fell off the temple.
    MissedTurn,
    /// Turned the wrong way at a junction and fell off the temple.
    WrongTurn,
}

impl Crash {
    /// A short sentence for the game-over screen.
    pub const fn describe(self) -> &'static str {
        match self {
            Crash::Wall => "Ran into a stone wall",
            Crash::Caught => "Stumbled twice and the guardians caught you",
            Crash::MissedTurn => "Missed a turn and fell",
            Crash::WrongTurn => "Turned the wrong way and fell",
        }
    }
}

/// Something that happened during [`RunnerBody::advance`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunEvent {
    /// Took the coin line in a lane of a segment.
    Coins {
        /// The segment.
        index: u64,
        /// The lane.
        lane: u8,
    },
    /// Cleared an obstacle or a junction with this action.
    Cleared {
        /// The segment.
        index: u64,
        /// The action that cleared it.
        action: Action,
    },
    /// Clipped a log or a beam and stumbled on; the guardians close in.
    Stumbled {
        /// The segment.
        index: u64,
    },
    /// Took a power-up in a lane of a segment.
    PowerUp {
        /// The segment.
        index: u64,
        /// The lane.
        lane: u8,
        /// Which power-up.
        kind: PowerUp,
    },
    /// The shield absorbed a hit at a segment and is gone.
    Shielded {
        /// The segment.
        index: u64,
    },
    /// The run ended at a segment.
    Crashed {
        /// The segment.
        index: u64,
        /// Why.
        crash: Crash,
    },
}

/// What an obstacle the runner did not clear does to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hit {
    /// A wall: the end of the run.
    Wall,
    /// A log or a beam clipped: a stumble.
    Stumble,
}

/// A lane change under way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaneChange {
    /// The lane being moved into.
    pub to: u8,
    /// Seconds spent moving so far.
    pub elapsed_s: f64,
}

/// The runner: where it is and what it is doing.
#[derive(Debug, Clone, PartialEq)]
pub struct RunnerBody {
    /// Distance run, in metres.
    pub distance_m: f64,
    /// The lane the runner is in, or is leaving while a change is under way (0 = left).
    pub lane: u8,
    /// The lane change under way, if any.
    pub change: Option<LaneChange>,
    /// One more lane move pressed during a change, made when it ends (-1 left, +1 right).
    pub queued_move: Option<i8>,
    /// Jumping, sliding or running.
    pub posture: Posture,
    /// The turn chosen in the coming junction's turn window.
    pub turn: Option<Action>,
    /// Quarter turns made so far, counter-clockwise positive (left turns add one).
    pub quarter_turns: i64,
    /// Coin lines taken.
    pub coins: u32,
    /// Run time, in seconds.
    pub elapsed_s: f64,
    /// Why the run ended, once it has.
    pub crash: Option<Crash>,
    /// Stumbles so far, the one the guardians caught included.
    pub stumbles: u32,
    /// Run time of the last stumble, in seconds.
    pub last_stumble_s: Option<f64>,
    /// The power-ups held now and their time left.
    pub powerups: ActivePowerUps,
    /// Power-ups taken so far, per kind in the order of [`PowerUp::ALL`].
    pub powerups_taken: [u32; 3],
    /// Metres the multiplier added on top of the metres run.
    pub bonus_m: f64,
    /// Coin lines the multiplier added on top of those taken.
    pub bonus_coins: u32,
}

impl Default for RunnerBody {
    fn default() -> RunnerBody {
        RunnerBody::new()
    }
}

impl RunnerBody {
    /// A runner at the start, in the middle lane.
    pub const fn new() -> RunnerBody {
        RunnerBody {
            distance_m: 0.0,
            lane: 1,
            change: None,
            queued_move: None,
            posture: Posture::Running,
            turn: None,
            quarter_turns: 0,
            coins: 0,
            elapsed_s: 0.0,
            crash: None,
            stumbles: 0,
            last_stumble_s: None,
            powerups: ActivePowerUps::new(),
            powerups_taken: [0; 3],
            bonus_m: 0.0,
            bonus_coins: 0,
        }
    }

    /// The lane the runner will be in once the change under way ends.
    pub fn target_lane(&self) -> u8 {
        self.change.map_or(self.lane, |c| c.to)
    }

    /// Where the runner is across the track, in lanes: 1.0 is the middle lane's centre, and a
    /// change under way is part-way between two lanes.
    pub fn lateral_lanes(&self) -> f64 {
        match self.change {
            Some(change) => {
                let t = (change.elapsed_s / LANE_CHANGE_S).clamp(0.0, 1.0);
                f64::from(self.lane) + (f64::from(change.to) - f64::from(self.lane)) * t
            }
            None => f64::from(self.lane),
        }
    }

    /// The score: whole metres run plus [`COIN_LINE_POINTS`] per coin line, where the metres run
    /// and the coin lines taken under a multiplier count [`SCORE_MULTIPLIER`] times.
    pub fn score(&self) -> u64 {
        (self.distance_m + self.bonus_m).max(0.0) as u64
            + COIN_LINE_POINTS * (u64::from(self.coins) + u64::from(self.bonus_coins))
    }

    /// How close the pursuing guardians are, from 1 (just after a stumble: one more and they
    /// catch the runner) down to 0 (the stumble window has passed, or there was none).
    pub fn pursuit(&self) -> f64 {
        self.last_stumble_s.map_or(0.0, |at| {
            (1.0 - (self.elapsed_s - at) / STUMBLE_WINDOW_S).clamp(0.0, 1.0)
        })
    }

    /// Power-ups taken so far, of every kind.
    pub fn powerups_taken_total(&self) -> u32 {
        self.powerups_taken.iter().sum()
    }

    /// Seconds until the next contact point at the speed there, which is the highest on the way:
    /// never more than the real time left.
    pub fn time_to_contact_s(&self, track: &Track) -> f64 {
        let contact = contact_distance_m(track.next().index);
        (contact - self.distance_m) / track.timing().speed_at(contact)
    }

    /// Whether the next contact point is a junction and the runner is inside its turn window.
    pub fn in_turn_window(&self, track: &Track) -> bool {
        track.next().kind.is_junction() && self.time_to_contact_s(track) <= TURN_WINDOW_S
    }

    /// Applies a command now. Returns whether it did anything.
    pub fn command(&mut self, command: Command, track: &Track) -> bool {
        if self.crash.is_some() {
            return false;
        }
        match command {
            Command::Left | Command::Right if self.in_turn_window(track) => {
                if self.turn.is_some() {
                    return false;
                }
                self.turn = Some(if command == Command::Left {
                    Action::TurnLeft
                } else {
                    Action::TurnRight
                });
                true
            }
            Command::Left => self.move_lane(-1),
            Command::Right => self.move_lane(1),
            Command::Jump => {
                if matches!(self.posture, Posture::Jumping { .. }) {
                    return false;
                }
                self.posture = Posture::Jumping { left_s: JUMP_S };
                true
            }
            Command::Slide => {
                if matches!(self.posture, Posture::Sliding { .. }) {
                    return false;
                }
                self.posture = Posture::Sliding { left_s: SLIDE_S };
                true
            }
        }
    }

    fn move_lane(&mut self, step: i8) -> bool {
        let Some(to) = self.target_lane().checked_add_signed(step) else {
            return false;
        };
        if usize::from(to) >= LANES {
            return false;
        }
        if self.change.is_some() {
            self.queued_move = Some(step);
        } else {
            self.change = Some(LaneChange { to, elapsed_s: 0.0 });
        }
        true
    }

    /// Runs for up to `dt_s` seconds, stopping early at the next contact point. Returns the
    /// seconds not yet run (non-zero only when it stopped at a contact point), so a caller can
    /// decide again at exactly that moment. The track advances past each contact point.
    pub fn advance(&mut self, dt_s: f64, track: &mut Track, events: &mut Vec<RunEvent>) -> f64 {
        if self.crash.is_some() || dt_s <= 0.0 {
            return 0.0;
        }
        let contact = contact_distance_m(track.next().index);
        // Constant speed within the step, at the speed where it starts: never faster than the
        // timing model assumes for this gap.
        let speed = track.timing().speed_at(self.distance_m);
        let to_contact_s = (contact - self.distance_m).max(0.0) / speed;
        let reaches_contact = to_contact_s <= dt_s;
        let step_s = if reaches_contact { to_contact_s } else { dt_s };
        self.distance_m = if reaches_contact {
            contact
        } else {
            self.distance_m + speed * step_s
        };
        self.elapsed_s += step_s;
        let held = self.powerups.run(step_s);
        let multiplied_s = ActivePowerUps::held_in(held, PowerUp::Multiplier);
        self.bonus_m += speed * multiplied_s * f64::from(SCORE_MULTIPLIER - 1);
        self.run_timers(step_s);
        if !reaches_contact {
            return 0.0;
        }
        self.meet_contact(track, events);
        dt_s - step_s
    }

    fn run_timers(&mut self, step_s: f64) {
        self.posture = match self.posture {
            Posture::Jumping { left_s } if left_s > step_s => Posture::Jumping {
                left_s: left_s - step_s,
            },
            Posture::Sliding { left_s } if left_s > step_s => Posture::Sliding {
                left_s: left_s - step_s,
            },
            _ => Posture::Running,
        };
        let mut time_s = step_s;
        while let Some(mut change) = self.change {
            change.elapsed_s += time_s;
            if change.elapsed_s < LANE_CHANGE_S {
                self.change = Some(change);
                break;
            }
            // The change ends inside this step; a queued move starts at that moment.
            time_s = change.elapsed_s - LANE_CHANGE_S;
            self.lane = change.to;
            self.change = None;
            if let Some(step) = self.queued_move.take() {
                self.move_lane(step);
            }
        }
    }

    /// What happens at the contact point of the track's next segment.
    fn meet_contact(&mut self, track: &mut Track, events: &mut Vec<RunEvent>) {
        let segment = track.advance();
        let index = segment.index;
        let crash = match segment.kind {
            SegmentKind::Straight => {
                let hit = self.meet_lanes(index, &segment.lanes, events);
                hit.and_then(|hit| self.take_hit(index, hit, events))
            }
            SegmentKind::TurnLeft | SegmentKind::TurnRight => {
                let needed = if segment.kind == SegmentKind::TurnLeft {
                    Action::TurnLeft
                } else {
                    Action::TurnRight
                };
                match self.turn.take() {
                    Some(turn) if turn == needed => {
                        self.quarter_turns += if needed == Action::TurnLeft { 1 } else { -1 };
                        events.push(RunEvent::Cleared {
                            index,
                            action: needed,
                        });
                        None
                    }
                    Some(_) => Some(Crash::WrongTurn),
                    None => Some(Crash::MissedTurn),
                }
            }
        };
        if let Some(crash) = crash {
            self.crash = Some(crash);
            events.push(RunEvent::Crashed { index, crash });
        }
    }

    /// Meets the lanes of a straight segment: takes coins and power-ups, clears what the posture
    /// clears, and returns the worst hit left (a wall before a stumble).
    fn meet_lanes(
        &mut self,
        index: u64,
        lanes: &[LaneContent; LANES],
        events: &mut Vec<RunEvent>,
    ) -> Option<Hit> {
        let occupied = [Some(self.lane), self.change.map(|c| c.to)];
        let magnet = self.powerups.is_active(PowerUp::Magnet);
        let multiplied = self.powerups.is_active(PowerUp::Multiplier);
        let mut hit = None;
        for (lane, content) in (0u8..).zip(*lanes) {
            let in_lane = occupied.contains(&Some(lane));
            match content {
                LaneContent::Coins if in_lane || magnet => {
                    self.coins += 1;
                    self.bonus_coins += u32::from(multiplied) * (SCORE_MULTIPLIER - 1);
                    events.push(RunEvent::Coins { index, lane });
                }
                _ if !in_lane => {}
                LaneContent::Block => hit = Some(Hit::Wall),
                LaneContent::Low | LaneContent::High => {
                    let (cleared, action) = if content == LaneContent::Low {
                        (
                            matches!(self.posture, Posture::Jumping { .. }),
                            Action::Jump,
                        )
                    } else {
                        (
                            matches!(self.posture, Posture::Sliding { .. }),
                            Action::Slide,
                        )
                    };
                    if cleared {
                        events.push(RunEvent::Cleared { index, action });
                    } else {
                        hit = hit.or(Some(Hit::Stumble));
                    }
                }
                LaneContent::PowerUp(kind) => {
                    self.powerups.grant(kind);
                    self.powerups_taken[kind.slot()] += 1;
                    events.push(RunEvent::PowerUp { index, lane, kind });
                }
                LaneContent::Coins | LaneContent::Empty => {}
            }
        }
        hit
    }

    /// A hit at a segment: the shield absorbs it if held; else a wall ends the run, and a
    /// stumble is survived unless it comes within [`STUMBLE_WINDOW_S`] of the last one.
    fn take_hit(&mut self, index: u64, hit: Hit, events: &mut Vec<RunEvent>) -> Option<Crash> {
        if self.powerups.is_active(PowerUp::Shield) {
            self.powerups.use_up(PowerUp::Shield);
            events.push(RunEvent::Shielded { index });
            return None;
        }
        match hit {
            Hit::Wall => Some(Crash::Wall),
            Hit::Stumble => {
                self.stumbles += 1;
                let caught = self.pursuit() > 0.0;
                self.last_stumble_s = Some(self.elapsed_s);
                if caught {
                    Some(Crash::Caught)
                } else {
                    events.push(RunEvent::Stumbled { index });
                    None
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
