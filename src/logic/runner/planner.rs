//! The route planner: A* over (segment, lane) states, the seed's PathPlanner made correct. It
//! finds the surviving route through the upcoming segments that takes the most power-ups, then
//! the most coins, then makes the fewest lane changes, and the actions that run it.

use super::powerups::PowerUp;
use super::timing::{LANES, Timing};
use super::track::{BUFFER_SEGMENTS, LaneContent, Segment, SegmentKind};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How many segments the autopilot and the overlay look ahead (the seed's 15).
pub const PLAN_LOOKAHEAD: usize = 15;
/// The most segments one plan may cover: the whole look-ahead buffer.
pub const MAX_PLAN_SEGMENTS: usize = BUFFER_SEGMENTS;
/// The cost of passing a segment without taking coins. It is larger than the most lane changes
/// a plan can hold (two per segment), so one more coin always beats any number of lane changes.
pub const MISSED_COIN_COST: u32 = 2 * MAX_PLAN_SEGMENTS as u32 + 1;
/// The cost of passing a segment that holds a power-up without taking it. It is larger than the
/// most a plan can spend on missed coins and lane changes together, so one more power-up beats
/// any number of coins: costs compare as (power-ups missed, coins missed, lane changes). Every
/// step costs zero or more, so A* with the coin-only estimate stays exact.
pub const MISSED_POWERUP_COST: u32 = (MISSED_COIN_COST + 2) * MAX_PLAN_SEGMENTS as u32 + 1;

/// Something the runner does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Move one lane to the left.
    MoveLeft,
    /// Move one lane to the right.
    MoveRight,
    /// Jump (over a Low obstacle).
    Jump,
    /// Slide (under a High obstacle).
    Slide,
    /// Turn left at a junction.
    TurnLeft,
    /// Turn right at a junction.
    TurnRight,
}

impl Action {
    /// What a runner in a lane holding `content` of a segment of `kind` must do at its contact
    /// point, if anything.
    pub const fn at_contact(kind: SegmentKind, content: LaneContent) -> Option<Action> {
        match (kind, content) {
            (SegmentKind::TurnLeft, _) => Some(Action::TurnLeft),
            (SegmentKind::TurnRight, _) => Some(Action::TurnRight),
            (_, LaneContent::Low) => Some(Action::Jump),
            (_, LaneContent::High) => Some(Action::Slide),
            _ => None,
        }
    }
}

/// One segment of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedStep {
    /// The segment.
    pub index: u64,
    /// The lane to be in at its contact point.
    pub lane: u8,
    /// What to do at its contact point.
    pub action: Option<Action>,
    /// Whether the lane holds coins.
    pub coins: bool,
    /// The power-up the lane holds, if any.
    pub powerup: Option<PowerUp>,
}

/// A route through the planned segments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The lane the route starts from.
    pub start_lane: u8,
    /// One step per planned segment, in order.
    pub steps: Vec<PlannedStep>,
    /// Coin lines the route takes.
    pub coins: u32,
    /// Power-ups the route takes.
    pub powerups: u32,
    /// The route's cost in the planner's terms (see [`step_cost`]).
    pub cost: u32,
    /// Lanes moved along the route.
    pub lane_changes: u32,
    /// States A* expanded to find it.
    pub expanded: usize,
}

impl Plan {
    /// Every action of the route in order, each with the segment it belongs to: the lane moves
    /// made before that segment's contact point, then what to do at it.
    pub fn actions(&self) -> Vec<(u64, Action)> {
        let mut actions = Vec::new();
        let mut lane = self.start_lane;
        for step in &self.steps {
            let toward = if step.lane < lane {
                Action::MoveLeft
            } else {
                Action::MoveRight
            };
            for _ in 0..step.lane.abs_diff(lane) {
                actions.push((step.index, toward));
            }
            actions.extend(step.action.map(|a| (step.index, a)));
            lane = step.lane;
        }
        actions
    }
}

/// The planner's cost of moving from lane `from` to be in lane `to` at `segment`'s contact
/// point: the lanes moved, [`MISSED_COIN_COST`] unless the lane holds coins, and
/// [`MISSED_POWERUP_COST`] if the segment holds a power-up in another lane.
pub fn step_cost(from: u8, to: u8, segment: &Segment) -> u32 {
    let content = segment.lanes[usize::from(to)];
    let missed_coins = content != LaneContent::Coins;
    let missed_powerup = segment.powerup().is_some() && !matches!(content, LaneContent::PowerUp(_));
    u32::from(to.abs_diff(from))
        + MISSED_COIN_COST * u32::from(missed_coins)
        + MISSED_POWERUP_COST * u32::from(missed_powerup)
}

/// The planner's cost of a route given as (lane, segment) pairs after `start_lane`: public so
/// tests can score routes they find another way.
pub fn route_cost<'a>(start_lane: u8, route: impl IntoIterator<Item = (u8, &'a Segment)>) -> u32 {
    let mut lane = start_lane;
    route
        .into_iter()
        .map(|(next, segment)| {
            let cost = step_cost(lane, next, segment);
            lane = next;
            cost
        })
        .sum()
}

/// What the planner knows of one segment.
#[derive(Debug, Clone, Copy)]
struct Layer {
    segment: Segment,
    /// Lanes that can be moved before this segment's contact point.
    reach: u8,
}

/// Reusable buffers for planning; plan as often as needed without allocating.
#[derive(Debug, Default, Clone)]
pub struct Planner {
    layers: Vec<Layer>,
    /// Cost of the cheapest known way to each state, `u32::MAX` if none yet.
    best: Vec<u32>,
    parent: Vec<u8>,
    closed: Vec<bool>,
    /// Admissible estimate from each layer to the end: segments after it without any coins.
    coinless_after: Vec<u32>,
    /// Open states as (f, deeper first, lane); the smallest comes out first.
    open: BinaryHeap<Reverse<(u32, Reverse<usize>, u8)>>,
}

impl Planner {
    /// An empty planner.
    pub fn new() -> Planner {
        Planner::default()
    }

    /// Plans from `start_lane` through `segments` (at most [`MAX_PLAN_SEGMENTS`] are used).
    /// `first_reach` overrides how many lanes can be moved before the first contact point (for
    /// a runner already part-way there); otherwise the timing model decides. `None` if no
    /// surviving route exists.
    pub fn plan<'a>(
        &mut self,
        timing: &Timing,
        segments: impl IntoIterator<Item = &'a Segment>,
        start_lane: u8,
        first_reach: Option<u8>,
    ) -> Option<Plan> {
        self.layers.clear();
        self.layers.extend(
            segments
                .into_iter()
                .take(MAX_PLAN_SEGMENTS)
                .map(|&segment| Layer {
                    segment,
                    reach: timing.lane_moves_into(segment.index, segment.kind.is_junction()),
                }),
        );
        if let (Some(first), Some(reach)) = (self.layers.first_mut(), first_reach) {
            first.reach = reach;
        }
        let layers = self.layers.len();
        if layers == 0 || usize::from(start_lane) >= LANES {
            return None;
        }
        let states = layers * LANES;
        self.best.clear();
        self.best.resize(states, u32::MAX);
        self.parent.clear();
        self.parent.resize(states, 0);
        self.closed.clear();
        self.closed.resize(states, false);
        self.coinless_after.clear();
        self.coinless_after.resize(layers, 0);
        for layer in (0..layers - 1).rev() {
            let next_has_coins = self.layers[layer + 1]
                .segment
                .lanes
                .contains(&LaneContent::Coins);
            self.coinless_after[layer] =
                self.coinless_after[layer + 1] + u32::from(!next_has_coins);
        }
        self.open.clear();
        let mut expanded = 0;
        self.relax(usize::MAX, start_lane, 0);
        while let Some(Reverse((_, Reverse(layer), lane))) = self.open.pop() {
            let state = layer * LANES + usize::from(lane);
            if self.closed[state] {
                continue;
            }
            self.closed[state] = true;
            expanded += 1;
            if layer + 1 == layers {
                return Some(self.route_to(lane, start_lane, self.best[state], expanded));
            }
            self.relax(layer, lane, self.best[state]);
        }
        None
    }

    /// Offers every move from `lane` at `layer` (`usize::MAX` = before the first) into the next.
    fn relax(&mut self, layer: usize, lane: u8, cost: u32) {
        let next = layer.wrapping_add(1);
        let Layer { segment, reach } = self.layers[next];
        let lowest = lane.saturating_sub(reach);
        let highest = (lane + reach).min(LANES as u8 - 1);
        for to in lowest..=highest {
            let content = segment.lanes[usize::from(to)];
            if !content.passable() {
                continue;
            }
            let step = step_cost(lane, to, &segment);
            let state = next * LANES + usize::from(to);
            let through = cost + step;
            if through < self.best[state] {
                self.best[state] = through;
                self.parent[state] = lane;
                let estimate = through + MISSED_COIN_COST * self.coinless_after[next];
                self.open.push(Reverse((estimate, Reverse(next), to)));
            }
        }
    }

    fn route_to(&self, last_lane: u8, start_lane: u8, cost: u32, expanded: usize) -> Plan {
        let mut lanes = vec![0u8; self.layers.len()];
        let mut lane = last_lane;
        for layer in (0..self.layers.len()).rev() {
            lanes[layer] = lane;
            lane = self.parent[layer * LANES + usize::from(lane)];
        }
        let steps: Vec<PlannedStep> = self
            .layers
            .iter()
            .zip(&lanes)
            .map(|(layer, &lane)| {
                let content = layer.segment.lanes[usize::from(lane)];
                PlannedStep {
                    index: layer.segment.index,
                    lane,
                    action: Action::at_contact(layer.segment.kind, content),
                    coins: content == LaneContent::Coins,
                    powerup: match content {
                        LaneContent::PowerUp(kind) => Some(kind),
                        _ => None,
                    },
                }
            })
            .collect();
        let mut previous = start_lane;
        let lane_changes = steps
            .iter()
            .map(|step| {
                let moved = u32::from(step.lane.abs_diff(previous));
                previous = step.lane;
                moved
            })
            .sum();
        Plan {
            start_lane,
            coins: steps.iter().filter(|s| s.coins).count() as u32,
            powerups: steps.iter().filter(|s| s.powerup.is_some()).count() as u32,
            cost,
            lane_changes,
            steps,
            expanded,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::difficulty::Difficulty;
    use LaneContent::{Block, Coins, Empty, High, Low};

    fn segment(index: u64, lanes: [LaneContent; LANES]) -> Segment {
        Segment {
            index,
            kind: SegmentKind::Straight,
            lanes,
        }
    }

    #[test]
    fn dodges_walls_and_takes_coins() {
        let timing = Timing::for_difficulty(Difficulty::Easy);
        let segments = [
            segment(10, [Empty, Block, Empty]),
            segment(11, [Coins, Block, Low]),
            segment(12, [High, Empty, Block]),
        ];
        let plan = Planner::new()
            .plan(&timing, &segments, 1, None)
            .expect("a route exists");
        let lanes: Vec<u8> = plan.steps.iter().map(|s| s.lane).collect();
        assert_eq!(lanes, [0, 0, 0]);
        assert_eq!(plan.coins, 1);
        assert_eq!(plan.lane_changes, 1);
        assert_eq!(
            plan.actions(),
            [(10, Action::MoveLeft), (12, Action::Slide)]
        );
    }

    #[test]
    fn a_coin_is_worth_any_detour_and_ties_keep_the_lane() {
        let timing = Timing::for_difficulty(Difficulty::Easy);
        let segments = [segment(10, [Coins, Empty, Empty]), segment(11, [Empty; 3])];
        let plan = Planner::new().plan(&timing, &segments, 2, None).unwrap();
        assert_eq!(plan.steps[0].lane, 0);
        assert_eq!(plan.steps[1].lane, 0, "no needless move after the coins");
        assert_eq!(plan.lane_changes, 2);
    }

    #[test]
    fn a_power_up_is_worth_any_number_of_coins() {
        let timing = Timing::for_difficulty(Difficulty::Easy);
        let shield = LaneContent::PowerUp(crate::logic::runner::powerups::PowerUp::Shield);
        let segments = [
            segment(10, [shield, Empty, Coins]),
            segment(11, [Empty, Empty, Coins]),
            segment(12, [Empty, Empty, Coins]),
        ];
        let plan = Planner::new().plan(&timing, &segments, 2, None).unwrap();
        assert_eq!(plan.steps[0].lane, 0);
        assert_eq!(plan.powerups, 1);
        assert_eq!(plan.coins, 2, "back to the coins after the power-up");
        assert_eq!(
            plan.cost,
            route_cost(2, plan.steps.iter().map(|s| s.lane).zip(&segments))
        );
    }

    #[test]
    fn no_route_through_a_row_of_walls() {
        let timing = Timing::for_difficulty(Difficulty::Easy);
        let segments = [segment(10, [Block; 3])];
        assert_eq!(Planner::new().plan(&timing, &segments, 1, None), None);
        assert_eq!(Planner::new().plan(&timing, &[], 1, None), None);
    }

    #[test]
    fn the_first_reach_limits_the_first_move() {
        let timing = Timing::for_difficulty(Difficulty::Easy);
        let segments = [segment(10, [Empty, Empty, Block]), segment(11, [Empty; 3])];
        assert!(
            Planner::new()
                .plan(&timing, &segments, 2, Some(0))
                .is_none()
        );
        let plan = Planner::new().plan(&timing, &segments, 2, Some(1)).unwrap();
        assert_eq!(plan.steps[0].lane, 1);
    }
}
