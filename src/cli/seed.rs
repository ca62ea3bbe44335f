//! `temple-trails seed VALUE`: the number a seed text stands for, and the first word of each
//! feature's random stream.

use super::args::{Format, SeedArg, seed_arg};
use super::{CliError, render};
use crate::logic::seed::{Stream, stream_rng};
use rand::Rng;
use serde::Serialize;
use std::collections::BTreeMap;

/// Arguments of `temple-trails seed`.
#[derive(Debug, clap::Args)]
pub struct SeedArgs {
    /// A whole number, or any word.
    #[arg(value_parser = seed_arg)]
    pub text: SeedArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// What `seed` prints.
#[derive(Debug, Serialize)]
struct SeedReport<'a> {
    /// The seed as given.
    text: &'a str,
    /// The number it stands for.
    seed: u64,
    /// The first word of each feature's stream, by the stream's name.
    streams: BTreeMap<String, u64>,
}

/// The seed and the first word of every feature's stream.
pub fn run(args: &SeedArgs) -> Result<String, CliError> {
    let seed = args.text.value;
    let report = SeedReport {
        text: &args.text.text,
        seed,
        streams: Stream::ALL
            .iter()
            .map(|&stream| (format!("{stream:?}"), stream_rng(seed, stream).next_u64()))
            .collect(),
    };
    render(args.format, &report, |report| {
        let mut out = format!("text: {}\nseed: {}\n", report.text, report.seed);
        // Listed in stream order, as the game numbers them.
        for stream in Stream::ALL {
            let name = format!("{stream:?}");
            out.push_str(&format!(
                "stream {name}: first word {}\n",
                report.streams[&name]
            ));
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::seed::parse_seed;

    fn describe(text: &str, format: Format) -> String {
        run(&SeedArgs {
            text: seed_arg(text).unwrap(),
            format,
        })
        .unwrap()
    }

    #[test]
    fn seed_description_lists_every_stream() {
        let text = describe("42", Format::Text);
        assert!(text.starts_with("text: 42\nseed: 42\n"), "{text}");
        assert_eq!(text.lines().count(), 2 + Stream::ALL.len());
        let json: serde_json::Value =
            serde_json::from_str(&describe("temple", Format::Json)).unwrap();
        assert_eq!(json["seed"], parse_seed("temple").unwrap());
        assert_eq!(
            json["streams"].as_object().unwrap().len(),
            Stream::ALL.len()
        );
        let maze = stream_rng(json["seed"].as_u64().unwrap(), Stream::Maze).next_u64();
        assert_eq!(json["streams"]["Maze"], maze);
    }
}
