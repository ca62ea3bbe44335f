//! `temple-trails runner`: the autopilot over a generated track without a window, in the game's
//! own fixed steps and timing model, with an optional preview and dump of the track.

use super::args::{Format, SeedArg, difficulty_parser, seed_arg};
use super::{CliError, render, write_dump, write_replay};
use crate::game::scores::unix_now_s;
use crate::logic::difficulty::Difficulty;
use crate::logic::replay::limits::MAX_RUN_TICKS;
use crate::logic::replay::{Replay, ReplayHeader, record_computer_play, replay_of};
use crate::logic::runner::autopilot::simulate_autopilot;
use crate::logic::runner::powerups::PowerUp;
use crate::logic::runner::replay::RunnerKind;
use crate::logic::runner::run::{RunnerInput, RunnerSim};
use crate::logic::runner::timing::{Timing, contact_distance_m};
use crate::logic::runner::track::{LaneContent, Segment, certified_segments};
use serde::Serialize;
use std::path::PathBuf;

/// Most segments `temple-trails runner` simulates (about 40 s of computing).
const MAX_RUNNER_SEGMENTS: u64 = 10_000_000;
/// Most segments `--preview` prints.
const MAX_PREVIEW_SEGMENTS: u64 = 100_000;
/// The legend of the preview's symbols.
const PREVIEW_LEGEND: &str = "preview (lanes left to right: . empty, $ coins, ^ jump, _ slide, # wall, \
     M magnet, S shield, x multiplier):";

/// Arguments of `temple-trails runner`.
#[derive(Debug, clap::Args)]
pub struct RunnerArgs {
    /// The seed: a whole number, or any word (hashed with FNV-1a).
    #[arg(long, default_value = "0", value_parser = seed_arg)]
    pub seed: SeedArg,
    /// Speed, ramp and obstacle density.
    #[arg(long, default_value = "normal", value_parser = difficulty_parser())]
    pub difficulty: Difficulty,
    /// Segments (10 m each) to run (1 to 10000000).
    #[arg(
        long,
        default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(1..=MAX_RUNNER_SEGMENTS)
    )]
    pub segments: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also show the first K segments, one line each (1 to 100000).
    #[arg(
        long,
        value_name = "K",
        value_parser = clap::value_parser!(u64).range(1..=MAX_PREVIEW_SEGMENTS)
    )]
    pub preview: Option<u64>,
    /// Write the run's segments as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub dump_track: Option<PathBuf>,
    /// Write the autopilot's run as a replay to FILE (check it with `temple-trails replay`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

/// What `runner` prints.
#[derive(Debug, Serialize)]
struct RunnerReport {
    seed: u64,
    difficulty: &'static str,
    segments: u64,
    /// Metres, to one decimal.
    distance_m: f64,
    coins: u32,
    score: u64,
    crashes: u64,
    stumbles: u32,
    /// Power-ups taken, by kind.
    powerups: PowerUpsTaken,
    repairs: u64,
    max_speed_mps: f64,
    max_buffered_segments: usize,
    /// One line per segment; only with `--preview`.
    #[serde(skip_serializing_if = "Option::is_none")]
    preview: Option<Vec<String>>,
}

/// Power-ups taken, by kind, in the JSON's names.
#[derive(Debug, Serialize)]
struct PowerUpsTaken {
    magnet: u32,
    shield: u32,
    multiplier: u32,
}

impl PowerUpsTaken {
    fn new(taken: [u32; 3]) -> PowerUpsTaken {
        let [magnet, shield, multiplier] = PowerUp::ALL.map(|kind| taken[kind.slot()]);
        PowerUpsTaken {
            magnet,
            shield,
            multiplier,
        }
    }
}

/// The file `--dump-track` writes.
#[derive(Debug, Serialize)]
struct TrackDump {
    seed: u64,
    difficulty: &'static str,
    segments: Vec<DumpedSegment>,
}

/// One segment of the dump.
#[derive(Debug, Serialize)]
struct DumpedSegment {
    index: u64,
    kind: &'static str,
    lanes: [&'static str; 3],
    /// The speed at its contact point.
    speed_mps: f64,
}

impl DumpedSegment {
    fn new(segment: &Segment, timing: &Timing) -> DumpedSegment {
        DumpedSegment {
            index: segment.index,
            kind: segment.kind.name(),
            lanes: segment.lanes.map(LaneContent::name),
            speed_mps: timing.speed_at(contact_distance_m(segment.index)),
        }
    }
}

/// The autopilot's run, the preview and the dump, as asked.
pub fn run(args: &RunnerArgs) -> Result<String, CliError> {
    let seed = args.seed.value;
    let summary = simulate_autopilot(seed, args.difficulty, args.segments);
    if let Some(path) = &args.dump_track {
        let timing = Timing::for_difficulty(args.difficulty);
        let (segments, _) = certified_segments(seed, args.difficulty, segment_count(args.segments));
        let dump = TrackDump {
            seed,
            difficulty: args.difficulty.name(),
            segments: segments
                .iter()
                .map(|segment| DumpedSegment::new(segment, &timing))
                .collect(),
        };
        write_dump(path, "track", &dump)?;
    }
    if let Some(path) = &args.record {
        write_replay(path, &record_autopilot(args)?)?;
    }
    let preview = args.preview.map(|count| {
        let (segments, _) = certified_segments(seed, args.difficulty, segment_count(count));
        segments
            .iter()
            .map(|segment| format!("{:>5}  {}", segment.index, segment.preview_line()))
            .collect()
    });
    let report = RunnerReport {
        seed,
        difficulty: summary.difficulty.name(),
        segments: summary.segments,
        distance_m: (summary.distance_m * 10.0).round() / 10.0,
        coins: summary.coins,
        score: summary.score,
        crashes: summary.crashes,
        stumbles: summary.stumbles,
        powerups: PowerUpsTaken::new(summary.powerups),
        repairs: summary.repairs,
        max_speed_mps: summary.max_speed_mps,
        max_buffered_segments: summary.max_buffered_segments,
        preview,
    };
    render(args.format, &report, |report| {
        let mut out = format!(
            "seed: {}\ndifficulty: {}\nsegments: {}\ndistance: {} m\ncoins: {}\nscore: {}\n\
             crashes: {}\nstumbles: {}\npower-ups: {} magnet, {} shield, {} multiplier\n\
             repairs: {}\nmax speed: {} m/s\nmax buffered segments: {}\n",
            report.seed,
            report.difficulty,
            report.segments,
            report.distance_m,
            report.coins,
            report.score,
            report.crashes,
            report.stumbles,
            report.powerups.magnet,
            report.powerups.shield,
            report.powerups.multiplier,
            report.repairs,
            report.max_speed_mps,
            report.max_buffered_segments,
        );
        if let Some(lines) = &report.preview {
            out.push_str(PREVIEW_LEGEND);
            out.push('\n');
            for line in lines {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    })
}

/// The autopilot's run over the asked segments, recorded as a replay: the same run the report
/// describes, stepped the way the game steps it. A run longer than a replay holds is refused.
fn record_autopilot(args: &RunnerArgs) -> Result<Replay, CliError> {
    let mut sim = RunnerSim::new(args.seed.value, args.difficulty);
    let segments = args.segments;
    let recorder = record_computer_play(
        &mut sim,
        |sim| sim.track.next().index >= segments || sim.tick >= MAX_RUN_TICKS,
        RunnerInput::Autopilot(true),
    );
    if sim.track.next().index < segments {
        return Err(CliError::usage(format!(
            "--record keeps runs of up to six hours of play ({MAX_RUN_TICKS} fixed steps); \
             {segments} segments take longer: ask for fewer"
        )));
    }
    let header = ReplayHeader::new(
        args.seed.value,
        args.seed.text.clone(),
        args.difficulty,
        unix_now_s(),
    );
    Ok(replay_of::<RunnerKind>(header, &sim, &recorder))
}

/// A segment count the argument parser has bounded, as a length.
fn segment_count(count: u64) -> usize {
    usize::try_from(count).unwrap_or(usize::MAX)
}
