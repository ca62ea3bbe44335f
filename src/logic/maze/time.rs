//! A maze run's time as players read it: minutes, seconds and tenths, with what the hints
//! cost at the run's difficulty.

use super::challenge::MazeRules;
use crate::logic::difficulty::Difficulty;
use crate::logic::runner::timing::SIMULATION_STEP_S;

/// Seconds as `mm:ss.t`, as the HUD, the result dialog and the boards show a maze's time.
pub fn clock(seconds: f64) -> String {
    let tenths = (seconds * 10.0).floor() as u64;
    format!(
        "{:02}:{:02}.{}",
        tenths / 600,
        (tenths / 10) % 60,
        tenths % 10
    )
}

/// A maze run's time as players read it: the time that counts, and the hints with their cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MazeTime {
    /// Fixed steps played.
    pub ticks: u64,
    /// Hints used.
    pub hints_used: u32,
    /// What the difficulty charges.
    pub rules: MazeRules,
}

impl MazeTime {
    /// The time of a run of `ticks` fixed steps with `hints_used` hints at `difficulty`.
    pub fn new(ticks: u64, hints_used: u32, difficulty: Difficulty) -> MazeTime {
        MazeTime {
            ticks,
            hints_used,
            rules: MazeRules::of(difficulty),
        }
    }

    /// The time that counts, hints included, as `mm:ss.t`.
    pub fn counted(&self) -> String {
        clock(self.rules.counted_ticks(self.ticks, self.hints_used) as f64 * SIMULATION_STEP_S)
    }

    /// The hints and what they cost: "2 hints, +20 s", "1 hint, free", "no hints".
    pub fn hints(&self) -> String {
        let count = match self.hints_used {
            0 => return "no hints".to_owned(),
            1 => "1 hint".to_owned(),
            n => format!("{n} hints"),
        };
        if self.rules.hint_cost_s == 0 {
            format!("{count}, free")
        } else {
            format!(
                "{count}, +{} s",
                u64::from(self.hints_used) * u64::from(self.rules.hint_cost_s)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_counts_the_hints_at_their_price() {
        let hard = MazeTime::new(64 * 75, 2, Difficulty::Hard);
        assert_eq!(
            (hard.counted(), hard.hints()),
            ("02:15.0".to_owned(), "2 hints, +60 s".to_owned())
        );
        let easy = MazeTime::new(64 * 75, 1, Difficulty::Easy);
        assert_eq!(
            (easy.counted(), easy.hints()),
            ("01:15.0".to_owned(), "1 hint, free".to_owned())
        );
        assert_eq!(MazeTime::new(0, 0, Difficulty::Normal).hints(), "no hints");
    }

    #[test]
    fn clock_shows_minutes_seconds_and_tenths() {
        assert_eq!(clock(0.0), "00:00.0");
        assert_eq!(clock(61.27), "01:01.2");
        assert_eq!(clock(3599.99), "59:59.9");
    }
}
