//! Argument types and parsers the subcommands share: the seed (parsed once), output formats,
//! fractions, sizes, footprints, and the names of difficulties and algorithms.

use crate::logic::difficulty::Difficulty;
use crate::logic::maze::Algorithm;
use crate::logic::seed::parse_seed;
use crate::logic::wanderers::field::Footprint;
use crate::logic::wanderers::sandbox::{FootprintMix, MAX_DENSITY, RouteUpkeep};
use clap::ValueEnum;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use std::ops::RangeInclusive;

/// A seed as given and the number it stands for, parsed once by the argument parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedArg {
    /// The text without surrounding white space.
    pub text: String,
    /// The seed: the number itself, or the FNV-1a hash of a word.
    pub value: u64,
}

/// Accepts any seed text that [`parse_seed`] accepts.
pub fn seed_arg(text: &str) -> Result<SeedArg, String> {
    let value = parse_seed(text).map_err(|err| err.to_string())?;
    Ok(SeedArg {
        text: text.trim().to_owned(),
        value,
    })
}

/// How a subcommand prints its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON object for programs.
    Json,
}

/// A fraction from 0 to 1 (braid, density).
pub fn unit_fraction(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number from 0 to 1"))?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{value} is out of range: it must be from 0 to 1"))
    }
}

/// A share of the field made stone, 0 to the sandbox's [`MAX_DENSITY`].
pub fn density_arg(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number from 0 to {MAX_DENSITY}"))?;
    if (0.0..=MAX_DENSITY).contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{value} is out of range: the stone density must be from 0 to {MAX_DENSITY}"
        ))
    }
}

/// Body sizes by name: `points`, `small` or `mixed`.
pub fn footprint_mix_arg(text: &str) -> Result<FootprintMix, String> {
    let names = FootprintMix::ALL.map(FootprintMix::name);
    FootprintMix::ALL
        .into_iter()
        .find(|mix| mix.name() == text.trim())
        .ok_or_else(|| format!("'{text}' is not a body mix: use {}", names.join(", ")))
}

/// How routes are kept up, by name: `repair` or `replan`.
pub fn route_upkeep_arg(text: &str) -> Result<RouteUpkeep, String> {
    let names = RouteUpkeep::ALL.map(RouteUpkeep::name);
    RouteUpkeep::ALL
        .into_iter()
        .find(|upkeep| upkeep.name() == text.trim())
        .ok_or_else(|| {
            format!(
                "'{text}' is not a way to keep routes: use {}",
                names.join(", ")
            )
        })
}

/// A whole number of cells in `range`, named `what` in the error.
pub fn cells_in(text: &str, range: RangeInclusive<usize>, what: &str) -> Result<usize, String> {
    let (low, high) = (range.start(), range.end());
    let side: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of cells ({low} to {high})"))?;
    if range.contains(&side) {
        Ok(side)
    } else {
        Err(format!(
            "{side} is out of range: {what} is {low} to {high} cells"
        ))
    }
}

/// An agent footprint written `LxW`.
pub fn footprint_arg(text: &str) -> Result<Footprint, String> {
    let not_lxw = || format!("'{text}' is not LxW (for example 2x3)");
    let (length, width) = text.trim().split_once(['x', 'X']).ok_or_else(not_lxw)?;
    let side = |part: &str| part.trim().parse::<usize>().map_err(|_| not_lxw());
    Footprint::new(side(length)?, side(width)?).map_err(|err| err.to_string())
}

/// Difficulty names, listed in `--help` and in the error for a wrong one.
pub fn difficulty_parser() -> impl TypedValueParser<Value = Difficulty> {
    PossibleValuesParser::new(Difficulty::ALL.map(Difficulty::name))
        .try_map(|name| name.parse::<Difficulty>())
}

/// Algorithm names, listed in `--help` and in the error for a wrong one.
pub fn algorithm_parser() -> impl TypedValueParser<Value = Algorithm> {
    PossibleValuesParser::new(Algorithm::ALL.map(Algorithm::name))
        .try_map(|name| name.parse::<Algorithm>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_keep_their_text_and_value() {
        let seed = seed_arg("  temple ").unwrap();
        assert_eq!(seed.text, "temple");
        assert_eq!(seed.value, parse_seed("temple").unwrap());
        assert!(seed_arg(" ").is_err());
    }

    #[test]
    fn cells_outside_the_range_name_it() {
        assert_eq!(cells_in("12", 2..=20, "a side"), Ok(12));
        let err = cells_in("40", 2..=20, "a side").unwrap_err();
        assert!(err.contains("a side is 2 to 20 cells"), "{err}");
        let err = cells_in("many", 2..=20, "a side").unwrap_err();
        assert!(err.contains("2 to 20"), "{err}");
    }

    #[test]
    fn footprints_are_length_by_width() {
        let agent = footprint_arg("2x3").unwrap();
        assert_eq!((agent.length(), agent.width()), (2, 3));
        assert!(footprint_arg("2by3").unwrap_err().contains("LxW"));
        assert!(footprint_arg("9x1").is_err());
    }
}
