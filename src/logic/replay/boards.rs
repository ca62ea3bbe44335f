//! The boards runs are ranked on, named from what decides a run: the mode, the difficulty, the
//! maze's size, algorithm, braid and level, and the day of a daily challenge. The game names the
//! board of a finished run with these functions, and a record read from a board's folder must
//! be a run of that very board ([`check_board`]), so a run copied into another board's folder is
//! never listed there. The world boards of the board server also keep seeds apart
//! ([`world_board_of`]).

use super::{Replay, ReplayError, ReplayKind};

/// What a daily challenge's seed text and board part start with.
const DAILY_PREFIX: &str = "daily-";

/// A date from seconds since 1970, as `YYYY-MM-DD` (UTC), by the civil-from-days algorithm.
pub fn date_of(unix_s: u64) -> String {
    let days = i64::try_from(unix_s / 86_400).unwrap_or(0);
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The seed text of a day's challenge: `daily-YYYY-MM-DD`.
pub fn daily_seed_text(date: &str) -> String {
    format!("{DAILY_PREFIX}{date}")
}

/// The part of a board's name for a detail (a difficulty, a maze's size), on a day's own board
/// when the run is that day's challenge: `daily-YYYY-MM-DD/detail`.
pub fn board_detail(daily_date: Option<&str>, detail: &str) -> String {
    match daily_date {
        Some(date) => format!("{}/{detail}", daily_seed_text(date)),
        None => detail.to_owned(),
    }
}

/// A mode's board for a detail: `mode/detail`.
pub fn board_name(mode: &str, detail: &str) -> String {
    format!("{mode}/{detail}")
}

/// The board a replay's run of `kind` goes on: the day's when `daily_date` is given.
pub fn board_of(
    replay: &Replay,
    kind: &dyn ReplayKind,
    daily_date: Option<&str>,
) -> Result<String, ReplayError> {
    let detail = kind.board_detail(replay)?;
    Ok(board_name(kind.mode(), &board_detail(daily_date, &detail)))
}

/// The day whose challenge a seed text is (`daily-2026-12-02` gives `2026-12-02`), if it is one.
pub fn day_of_seed_text(seed_text: &str) -> Option<&str> {
    seed_text
        .strip_prefix(DAILY_PREFIX)
        .filter(|date| is_day(date))
}

/// A board of the board server, on which only runs of one world are compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldBoard {
    /// Its name: `runner/daily-2026-12-02/normal` or `runner/seed-42/normal`.
    pub name: String,
    /// The day of a daily challenge's board.
    pub day: Option<String>,
}

/// The part of a world board's name for a fixed seed and a detail: `seed-42/normal`.
pub fn seed_board_detail(seed: u64, detail: &str) -> String {
    format!("seed-{seed}/{detail}")
}

/// The world board of a replay's run of `kind`: the day's board when its seed text is a day's
/// challenge, or else its seed's board. A run of one seed is never ranked beside a run of
/// another, whose track or maze may be easier.
pub fn world_board_of(replay: &Replay, kind: &dyn ReplayKind) -> Result<WorldBoard, ReplayError> {
    let day = day_of_seed_text(&replay.seed_text);
    let detail = kind.board_detail(replay)?;
    let name = match day {
        Some(date) => board_name(kind.mode(), &board_detail(Some(date), &detail)),
        None => board_name(kind.mode(), &seed_board_detail(replay.seed, &detail)),
    };
    Ok(WorldBoard {
        name,
        day: day.map(str::to_owned),
    })
}

/// The day of a daily board's name (`runner/daily-2026-11-30/normal` gives `2026-11-30`).
fn daily_date_of(board: &str) -> Option<&str> {
    let (_, rest) = board.split_once('/')?;
    let (part, _) = rest.split_once('/')?;
    part.strip_prefix(DAILY_PREFIX)
}

/// Whether `date` is written `YYYY-MM-DD`, as the daily challenge writes days.
fn is_day(date: &str) -> bool {
    let bytes = date.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(at, &byte)| match at {
            4 | 7 => byte == b'-',
            _ => byte.is_ascii_digit(),
        })
}

/// Refuses a replay that is not a run of `board`: another mode, difficulty, maze or level, or,
/// on a day's board, a run of another seed than that day's. `kind` is the replay's mode's.
pub fn check_board(replay: &Replay, kind: &dyn ReplayKind, board: &str) -> Result<(), String> {
    let daily = daily_date_of(board);
    if let Some(date) = daily {
        if !is_day(date) {
            return Err(format!("the board {board:?} names no day"));
        }
        let wanted = daily_seed_text(date);
        if replay.seed_text != wanted {
            return Err(format!(
                "it is a run of the seed {:?}, not of the day's seed {wanted:?}",
                replay.seed_text
            ));
        }
    }
    let own = board_of(replay, kind, daily).map_err(|err| err.to_string())?;
    if own == board {
        Ok(())
    } else {
        Err(format!(
            "it is a run of the board {own:?}, not of {board:?}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates_in_utc() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(951_782_400), "2000-02-29");
        assert_eq!(date_of(1_796_068_494), "2026-11-30");
        assert_eq!(date_of(4_107_542_399), "2100-02-28");
    }
    #[test]
    fn daily_boards_put_the_day_before_the_detail() {
        assert_eq!(
            board_name("maze", &board_detail(Some("2026-11-30"), "15x9/prim/easy")),
            "maze/daily-2026-11-30/15x9/prim/easy"
        );
        assert_eq!(
            board_name("runner", &board_detail(None, "hard")),
            "runner/hard"
        );
    }

    #[test]
    fn world_boards_keep_days_and_seeds_apart() {
        use crate::logic::difficulty::Difficulty;
        use crate::logic::replay::{ReplayHeader, record, replay_of};
        use crate::logic::runner::replay::RunnerKind;
        use crate::logic::runner::run::RunnerSim;
        use crate::logic::seed::parse_seed;
        let run_of = |seed_text: &str| {
            let seed = parse_seed(seed_text).unwrap();
            let mut sim = RunnerSim::new(seed, Difficulty::Hard);
            let recorder = record(&mut sim, |sim| sim.tick >= 10, |_, _| Vec::new());
            let head = ReplayHeader::new(seed, seed_text.to_owned(), Difficulty::Hard, 0);
            replay_of::<RunnerKind>(head, &sim, &recorder)
        };
        let daily = world_board_of(&run_of("daily-2026-12-02"), &RunnerKind).unwrap();
        assert_eq!(daily.name, "runner/daily-2026-12-02/hard");
        assert_eq!(daily.day.as_deref(), Some("2026-12-02"));
        assert_eq!(
            check_board(&run_of("daily-2026-12-02"), &RunnerKind, &daily.name),
            Ok(())
        );
        let fixed = world_board_of(&run_of("42"), &RunnerKind).unwrap();
        assert_eq!(
            fixed,
            WorldBoard {
                name: "runner/seed-42/hard".to_owned(),
                day: None
            }
        );
        // A seed text that only looks like a day's is a fixed seed's.
        let not_a_day = run_of("daily-2026-1-2");
        let board = world_board_of(&not_a_day, &RunnerKind).unwrap();
        assert_eq!(board.name, format!("runner/seed-{}/hard", not_a_day.seed));
        assert_eq!(board.day, None);
    }

    #[test]
    fn days_are_read_off_daily_boards_only() {
        assert_eq!(
            daily_date_of("runner/daily-2026-11-30/normal"),
            Some("2026-11-30")
        );
        assert_eq!(daily_date_of("runner/normal"), None);
        assert_eq!(daily_date_of("maze/15x9/prim/normal"), None);
        assert!(is_day("2026-11-30"));
        for not_a_day in [
            "2026-1-30",
            "2026/11/30",
            "20261130xx",
            "",
            "2026-11-3\u{0}",
        ] {
            assert!(!is_day(not_a_day), "{not_a_day:?}");
        }
    }
}
