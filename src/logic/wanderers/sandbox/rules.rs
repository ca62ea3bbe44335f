//! How a sandbox steps: the rules of a step, which may change between steps, and what becomes of
//! a route when its target moves.

use super::PLAN_BUDGET_PER_STEP;
use crate::logic::wanderers::smoothing::FarthestSearch;
use serde::{Deserialize, Serialize};

/// How a sandbox steps; all of it may change between steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepRules {
    /// Plans per step when none is overdue.
    pub plan_budget: usize,
    /// How smoothing finds the farthest visible node.
    pub search: FarthestSearch,
    /// Whether bodies that touch are pushed apart.
    pub avoid: bool,
    /// How routes are kept up as targets move.
    pub routes: RouteUpkeep,
}

impl Default for StepRules {
    fn default() -> StepRules {
        StepRules {
            plan_budget: PLAN_BUDGET_PER_STEP,
            search: FarthestSearch::default(),
            avoid: true,
            routes: RouteUpkeep::default(),
        }
    }
}

/// What becomes of a route when its target moves away from its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RouteUpkeep {
    /// It is planned again from scratch: measured the faster on the sandbox's crowds, whose
    /// targets lie within a tether of a few cells, so fresh routes are short (see the README).
    #[default]
    Replan,
    /// Its end is searched over to the target's new cell (and its start back to the NPC when
    /// pushed off it or kept from a waypoint); planned afresh only when that fails or makes it
    /// too long.
    Repair,
}

impl RouteUpkeep {
    /// Both, the default first.
    pub const ALL: [RouteUpkeep; 2] = [RouteUpkeep::Replan, RouteUpkeep::Repair];

    /// The name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            RouteUpkeep::Repair => "repair",
            RouteUpkeep::Replan => "replan",
        }
    }
}
