//! A mode's first-run guidance as the player keeps it: whether it is on, and which of the mode's
//! lessons its guide has taught. Each mode names its own lessons; the rules of switching and
//! learning are the same for all.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Whether a mode's first runs are guided, and what its guide has taught, of lessons `L`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Guidance<L: Ord> {
    /// The player wants the guide.
    pub on: bool,
    /// What the guide has taught; a lesson is taught once.
    pub learned: BTreeSet<L>,
}

impl<L: Ord> Guidance<L> {
    /// On, with nothing learned: a new player's.
    pub const fn new() -> Self {
        Guidance {
            on: true,
            learned: BTreeSet::new(),
        }
    }
}

impl<L: Ord> Default for Guidance<L> {
    /// As [`Guidance::new`].
    fn default() -> Self {
        Guidance::new()
    }
}

impl<L: Ord + Copy> Guidance<L> {
    /// Whether a run started now is guided: the guidance is on and some of `all` is left.
    pub fn guides(&self, all: &[L]) -> bool {
        self.on && all.iter().any(|lesson| !self.learned.contains(lesson))
    }

    /// Whether the guide still teaches `lesson`.
    pub fn teaches(&self, lesson: L) -> bool {
        self.on && !self.learned.contains(&lesson)
    }

    /// Switches the guidance on or off. Switched on again, it teaches again from the start.
    pub fn switch(&mut self, on: bool) {
        if on && !self.on {
            self.learned.clear();
        }
        self.on = on;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switched_on_again_it_teaches_from_the_start_and_one_who_learned_all_is_not_guided() {
        let all = [1, 2, 3];
        let mut guidance = Guidance {
            on: true,
            learned: BTreeSet::from(all),
        };
        assert!(!guidance.guides(&all) && !guidance.teaches(2));
        guidance.switch(true);
        assert_eq!(guidance.learned.len(), 3, "already on: kept");
        guidance.switch(false);
        assert!(!guidance.guides(&all));
        guidance.switch(true);
        assert!(guidance.learned.is_empty() && guidance.guides(&all) && guidance.teaches(2));
        guidance.learned.insert(2);
        assert!(guidance.guides(&all) && !guidance.teaches(2));
    }

    #[test]
    fn it_reads_with_defaults_and_refuses_an_unknown_lesson() {
        let read: Guidance<bool> = serde_json::from_str(r#"{"learned":[true]}"#).unwrap();
        assert!(read.on && read.learned.contains(&true));
        assert!(serde_json::from_str::<Guidance<bool>>(r#"{"learned":["sword"]}"#).is_err());
    }
}
