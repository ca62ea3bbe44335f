//! The first runs' guidance: until a player has met each kind of obstacle, a junction and a
//! power-up once, the guide names the next one coming and the command that meets it, slows time
//! as it comes into reach, and holds the run at the last good moment until the player acts.
//! Which lessons are learned is the player's to keep; what is shown is worked out afresh from
//! the runner and the track at every step, so it needs no state of its own beyond that.

use super::body::{Command, Posture, RunEvent, RunnerBody};
use super::planner::Action;
use super::powerups::PowerUp;
use super::timing::{
    JUMP_S, LANE_CHANGE_S, LANES, REACTION_MARGIN_S, SIMULATION_STEP_S, SLIDE_S, TURN_WINDOW_S,
    contact_distance_m,
};
use super::track::{LaneContent, SegmentKind, Track};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// How far ahead, in seconds of running, the guide names what is coming.
pub const NOTICE_S: f64 = 2.0;
/// Over this many seconds of running before the held moment, time slows from full speed...
pub const SLOWING_S: f64 = 0.6;
/// ...to this fraction of it, then the run holds until the player acts.
pub const SLOWEST: f64 = 0.25;

/// Something a new runner learns once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lesson {
    /// A log across the lane: jump.
    Log,
    /// A beam over the lane: slide.
    Beam,
    /// A wall in the lane: move to another.
    Wall,
    /// A junction: turn its way.
    Junction,
    /// A power-up: run through it.
    PowerUp,
}

impl Lesson {
    /// Every lesson, in the order a run usually meets them.
    pub const ALL: [Lesson; 5] = [
        Lesson::Junction,
        Lesson::Log,
        Lesson::Beam,
        Lesson::Wall,
        Lesson::PowerUp,
    ];
}

/// The lessons a player has learned.
pub type Learned = BTreeSet<Lesson>;

/// What the guide shows: the thing coming, the command that meets it, and when.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prompt {
    /// What is being taught.
    pub lesson: Lesson,
    /// The segment it stands in.
    pub index: u64,
    /// The command that meets it; none for a power-up in the runner's own lane, which is
    /// taken by running on.
    pub command: Option<Command>,
    /// The power-up's kind, for a power-up.
    pub powerup: Option<PowerUp>,
    /// The junction's way, for a junction.
    pub turn: Option<Action>,
    /// Seconds of running until the runner reaches it.
    pub to_contact_s: f64,
    /// The command works from this many seconds before contact (a jump too early lands before
    /// the log; Left and Right turn only in the turn window); infinite when earlier is fine.
    pub reach_s: f64,
    /// The moment, in seconds before contact, at which the run holds if the player has not
    /// acted: late enough that acting then is plainly timed, early enough that it still works.
    pub hold_at_s: f64,
    /// The runner already does what meets it.
    pub met: bool,
}

impl Prompt {
    /// How fast time should run now: full speed until [`SLOWING_S`] before the held moment,
    /// then slower down to [`SLOWEST`]; full speed again once the player has acted.
    pub fn time_scale(&self) -> f64 {
        if self.met || self.command.is_none() {
            return 1.0;
        }
        if self.holds() {
            return SLOWEST;
        }
        let before_hold_s = self.to_contact_s - self.hold_at_s;
        let through = (1.0 - before_hold_s / SLOWING_S).clamp(0.0, 1.0);
        1.0 - (1.0 - SLOWEST) * through
    }

    /// Whether acting now would meet it.
    pub fn in_reach(&self) -> bool {
        self.to_contact_s <= self.reach_s
    }

    /// Whether the run should wait for the player rather than take its next step: the next
    /// step would pass the held moment and the player has not acted.
    pub fn holds(&self) -> bool {
        !self.met
            && self.command.is_some()
            && self.to_contact_s - SIMULATION_STEP_S < self.hold_at_s
    }
}

/// The prompt to show now, if any: the first segment within [`NOTICE_S`] of running that holds
/// something in the runner's way (or a junction) whose lesson is `wanted` there, with the
/// command that meets it. A run that is over shows nothing.
fn prompt(
    body: &RunnerBody,
    track: &Track,
    wanted: impl Fn(u64, Lesson) -> bool,
) -> Option<Prompt> {
    if body.crash.is_some() {
        return None;
    }
    let speed = track.timing().speed_at(body.distance_m);
    track
        .upcoming()
        .map_while(|segment| {
            let to_contact_s = (contact_distance_m(segment.index) - body.distance_m) / speed;
            (to_contact_s <= NOTICE_S).then_some((segment, to_contact_s))
        })
        .zip(
            track
                .upcoming()
                .skip(1)
                .map(Some)
                .chain(std::iter::once(None)),
        )
        .find_map(|((segment, to_contact_s), then)| {
            let then = then.map(|then| &then.lanes);
            let prompt = lesson_in(body, segment.kind, &segment.lanes, then)?;
            let prompt = Prompt {
                index: segment.index,
                to_contact_s,
                ..prompt
            };
            wanted(prompt.index, prompt.lesson).then_some(prompt)
        })
}

/// The lesson a segment teaches a runner in its lane, the command for it and whether the runner
/// already does it (`then` is the segment after, if known); `index` and `to_contact_s` are left
/// for the caller.
fn lesson_in(
    body: &RunnerBody,
    kind: SegmentKind,
    lanes: &[LaneContent; LANES],
    then: Option<&[LaneContent; LANES]>,
) -> Option<Prompt> {
    let lane = body.target_lane();
    let prompt = |lesson, command, reach_s, hold_at_s, met| Prompt {
        lesson,
        index: 0,
        command,
        powerup: None,
        turn: None,
        to_contact_s: 0.0,
        reach_s,
        hold_at_s,
        met,
    };
    if kind.is_junction() {
        let (command, turn) = if kind == SegmentKind::TurnLeft {
            (Command::Left, Action::TurnLeft)
        } else {
            (Command::Right, Action::TurnRight)
        };
        // A turn already taken, the wrong way too, cannot be changed: nothing to wait for.
        let settled = body.turn.is_some();
        return Some(Prompt {
            turn: Some(turn),
            ..prompt(
                Lesson::Junction,
                Some(command),
                TURN_WINDOW_S,
                TURN_WINDOW_S / 2.0,
                settled,
            )
        });
    }
    match lanes[usize::from(lane)] {
        // In the air (or sliding) at contact: start half the move before it.
        LaneContent::Low => Some(prompt(
            Lesson::Log,
            Some(Command::Jump),
            JUMP_S - REACTION_MARGIN_S,
            JUMP_S / 2.0,
            matches!(body.posture, Posture::Jumping { .. }),
        )),
        LaneContent::High => Some(prompt(
            Lesson::Beam,
            Some(Command::Slide),
            SLIDE_S - REACTION_MARGIN_S,
            SLIDE_S / 2.0,
            matches!(body.posture, Posture::Sliding { .. }),
        )),
        // A lane change must end before contact, so the hold comes before it can no longer.
        LaneContent::Block => {
            let command = free_side(lane, lanes, then)?;
            Some(prompt(
                Lesson::Wall,
                Some(command),
                f64::INFINITY,
                LANE_CHANGE_S + 2.0 * REACTION_MARGIN_S,
                false,
            ))
        }
        LaneContent::PowerUp(kind) => Some(Prompt {
            powerup: Some(kind),
            ..prompt(Lesson::PowerUp, None, f64::INFINITY, 0.0, true)
        }),
        LaneContent::Empty | LaneContent::Coins => {
            // A power-up one lane over, with nothing in the way: step across to take it.
            let (target, kind) = (0u8..)
                .zip(*lanes)
                .find_map(|(at, content)| match content {
                    LaneContent::PowerUp(kind) if at.abs_diff(lane) == 1 => Some((at, kind)),
                    _ => None,
                })?;
            let command = if target < lane {
                Command::Left
            } else {
                Command::Right
            };
            Some(Prompt {
                powerup: Some(kind),
                ..prompt(
                    Lesson::PowerUp,
                    Some(command),
                    f64::INFINITY,
                    LANE_CHANGE_S + 2.0 * REACTION_MARGIN_S,
                    false,
                )
            })
        }
    }
}

/// The side to step to from a wall in `lane`: of the neighbouring lanes that can be passed, the
/// one with the least to meet, where a log or a beam here (whose own prompt follows the step)
/// counts less than a wall in that lane at the segment after (`then`); the left one first.
/// None when neither neighbour can be passed at all.
fn free_side(
    lane: u8,
    lanes: &[LaneContent; LANES],
    then: Option<&[LaneContent; LANES]>,
) -> Option<Command> {
    [(Command::Left, -1), (Command::Right, 1)]
        .into_iter()
        .filter_map(|(command, step)| {
            let to = usize::from(lane.checked_add_signed(step)?);
            let here = *lanes.get(to)?;
            let walled_after = then.is_some_and(|then| then[to] == LaneContent::Block);
            let trouble = u8::from(here.is_obstacle()) + 2 * u8::from(walled_after);
            here.passable().then_some((trouble, command))
        })
        .min_by_key(|&(trouble, _)| trouble)
        .map(|(_, command)| command)
}

/// The guide of one run: the player's lessons, the prompt shown now, and the segments prompts
/// were shown for that the runner has not passed yet (a prompt goes from the screen once the
/// player acts, but its lesson is learned only when the runner gets past).
#[derive(Debug, Clone, Default)]
pub struct Guide {
    learned: Learned,
    current: Option<Prompt>,
    waiting: BTreeSet<(u64, Lesson)>,
}

impl Guide {
    /// A guide for a player who has learned `learned`, looking at the start of a run.
    pub fn new(learned: Learned, body: &RunnerBody, track: &Track) -> Guide {
        let mut guide = Guide {
            learned,
            ..Guide::default()
        };
        guide.follow(body, track, &[]);
        guide
    }

    /// The prompt to show now.
    pub fn current(&self) -> Option<&Prompt> {
        self.current.as_ref()
    }

    /// Every lesson learned, before this run and in it.
    pub fn learned(&self) -> &Learned {
        &self.learned
    }

    /// Catches up with a step that just ran (`events` are what happened in it): the lessons of
    /// the segments passed in it that the runner met, which it returns, and the prompt now.
    pub fn follow(&mut self, body: &RunnerBody, track: &Track, events: &[RunEvent]) -> Vec<Lesson> {
        let next = track.next().index;
        let passed: Vec<(u64, Lesson)> = self
            .waiting
            .iter()
            .copied()
            .take_while(|&(index, _)| index < next)
            .collect();
        let mut taught = Vec::new();
        for (index, lesson) in passed {
            self.waiting.remove(&(index, lesson));
            if met_when_passed(lesson, index, events) && self.learned.insert(lesson) {
                taught.push(lesson);
            }
        }
        // A lesson learned while another of its kind was already on screen keeps that one there
        // until it is passed, rather than taking it away as the player acts.
        let (learned, waiting) = (&self.learned, &self.waiting);
        self.current = prompt(body, track, |index, lesson| {
            !learned.contains(&lesson) || waiting.contains(&(index, lesson))
        });
        if let Some(shown) = &self.current {
            self.waiting.insert((shown.index, shown.lesson));
        }
        taught
    }
}

/// Whether the runner met `lesson` at segment `at` in the step that passed it, from what
/// happened in that step: cleared the log, beam or junction, took the power-up, or got past
/// the wall untouched (which leaves no event of its own).
fn met_when_passed(lesson: Lesson, at: u64, events: &[RunEvent]) -> bool {
    let at_segment = |index: u64| index == at;
    match lesson {
        Lesson::Log | Lesson::Beam | Lesson::Junction => events.iter().any(|event| {
            matches!(*event, RunEvent::Cleared { index, action } if at_segment(index) && match lesson {
                Lesson::Log => action == Action::Jump,
                Lesson::Beam => action == Action::Slide,
                _ => matches!(action, Action::TurnLeft | Action::TurnRight),
            })
        }),
        Lesson::PowerUp => events
            .iter()
            .any(|event| matches!(*event, RunEvent::PowerUp { index, .. } if at_segment(index))),
        Lesson::Wall => !events.iter().any(|event| {
            matches!(*event,
                RunEvent::Crashed { index, .. } | RunEvent::Shielded { index } if at_segment(index))
        }),
    }
}

#[cfg(test)]
mod tests;
