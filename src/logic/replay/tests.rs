//! Unit tests of recording, reading and verifying replays.

use super::*;
use crate::logic::maze::Algorithm;
use crate::logic::maze::replay::{MazeKind, MazeOptions, MazeOutcome, MazeReplaySetup};
use crate::logic::maze::run::{MazeInput, MazeRun};
use crate::logic::replay::limits::MAX_INPUTS_PER_TICK;
use crate::logic::runner::body::Command;
use crate::logic::runner::replay::RunnerKind;
use crate::logic::runner::run::{RunnerInput, RunnerSim};

fn verify(replay: &Replay) -> Result<RunResult, ReplayError> {
    match replay.run.mode() {
        "maze" => super::verify(replay, &MazeKind),
        _ => super::verify(replay, &RunnerKind),
    }
}

/// Changes a runner replay's inputs, and nothing else.
fn edit_inputs(replay: &mut Replay, edit: impl FnOnce(&mut Vec<Timed<RunnerInput>>)) {
    let run = &mut replay.run;
    run.edit::<RunnerKind>(|_, inputs| edit(inputs)).unwrap();
}

fn header(seed: u64) -> ReplayHeader {
    ReplayHeader {
        seed,
        seed_text: seed.to_string(),
        difficulty: Difficulty::Normal,
        game_version: "test".to_owned(),
        recorded_unix_s: 0,
    }
}

/// A player who jumps now and then and changes lane: a short run that ends in a crash.
fn recorded_run(seed: u64) -> Replay {
    let mut sim = RunnerSim::new(seed, Difficulty::Normal);
    let recorder = record(
        &mut sim,
        |_| false,
        |tick, _| match tick % 97 {
            10 => vec![RunnerInput::Command(Command::Jump)],
            50 => vec![RunnerInput::Command(Command::Left)],
            80 => vec![RunnerInput::Command(Command::Right)],
            _ => Vec::new(),
        },
    );
    replay_of::<RunnerKind>(header(seed), &sim, &recorder)
}

#[test]
fn a_recorded_run_verifies_and_survives_json() {
    let replay = recorded_run(3);
    assert!(replay.result.ticks > 100);
    let text = serde_json::to_string(&replay).unwrap();
    let read = parse(&text).unwrap();
    assert_eq!(read, replay);
    assert_eq!(verify(&read), Ok(replay.result.clone()));
}

#[test]
fn changes_are_refused_at_the_step_they_take_effect() {
    let replay = recorded_run(3);
    let first = replay.run.inputs::<RunnerKind>().unwrap()[0];

    let mut jump_later = replay.clone();
    edit_inputs(&mut jump_later, |inputs| inputs[0].tick += 1);
    // Its fingerprint is no longer where the recording takes one: no recording did this.
    assert!(
        matches!(verify(&jump_later), Err(ReplayError::Invalid(why)) if why.contains("where the recording takes one"))
    );
    // Moved with it, the fingerprint is out of step: the recorded run jumped a step earlier
    // than the replayed one, which the next fingerprint shows.
    let moved = jump_later
        .checks
        .iter_mut()
        .find(|check| check.tick == first.tick + 1)
        .unwrap();
    moved.tick += 1;
    assert!(
        matches!(verify(&jump_later), Err(ReplayError::Diverged { tick, .. }) if tick == first.tick + 1)
    );

    let mut slide_instead = replay.clone();
    edit_inputs(&mut slide_instead, |inputs| {
        inputs[0].input = RunnerInput::Command(Command::Slide);
    });
    assert!(
        matches!(verify(&slide_instead), Err(ReplayError::Diverged { tick, .. }) if tick == first.tick)
    );

    let mut other_seed = replay.clone();
    other_seed.seed += 1;
    other_seed.seed_text = other_seed.seed.to_string();
    assert!(matches!(
        verify(&other_seed),
        Err(ReplayError::Diverged { tick: 0, .. })
    ));
    // A seed text that does not give the seed is no run of this game.
    let mut other_text = replay.clone();
    other_text.seed += 1;
    assert!(
        matches!(verify(&other_text), Err(ReplayError::Invalid(why)) if why.contains("seed text"))
    );

    let mut better_score = replay.clone();
    better_score
        .result
        .edit::<RunnerKind>(|outcome| outcome.score += 1)
        .unwrap();
    assert!(
        matches!(verify(&better_score), Err(ReplayError::Diverged { tick, .. }) if tick == replay.result.ticks)
    );
    let mut unassisted = replay.clone();
    unassisted.result.assisted = true;
    assert!(
        matches!(verify(&unassisted), Err(ReplayError::Diverged { tick, .. }) if tick == replay.result.ticks)
    );
}

#[test]
fn other_files_are_not_replays() {
    assert!(matches!(parse("{"), Err(ReplayError::Invalid(_))));
    assert!(matches!(
        parse("{\"format\":\"x\"}"),
        Err(ReplayError::Invalid(_))
    ));
    let text = serde_json::to_string(&recorded_run(1)).unwrap();
    let newer = text.replace("\"version\":2", "\"version\":99");
    assert!(matches!(parse(&newer), Err(ReplayError::Invalid(why)) if why.contains("99")));
    assert!(matches!(
        parse(&text[..text.len() / 2]),
        Err(ReplayError::Invalid(_))
    ));
}

/// The reason `verify` refuses `replay` without playing it, if it does.
fn refusal(replay: &Replay) -> String {
    match verify(replay) {
        Err(ReplayError::Invalid(why)) => why,
        other => panic!("refused as invalid: {other:?}"),
    }
}

#[test]
fn what_no_run_can_record_is_refused_before_it_is_played() {
    let replay = recorded_run(3);
    assert!(replay.run.inputs::<RunnerKind>().unwrap().len() >= 3);

    let mut swapped = replay.clone();
    edit_inputs(&mut swapped, |inputs| inputs.swap(0, 1));
    assert!(refusal(&swapped).contains("before the input ahead of it"));

    let mut crowded = replay.clone();
    edit_inputs(&mut crowded, |inputs| {
        let first = inputs[0];
        inputs.splice(0..1, [first; MAX_INPUTS_PER_TICK + 1]);
    });
    assert!(refusal(&crowded).contains("more than 8 inputs"));

    let mut late = replay.clone();
    let end = late.result.ticks;
    edit_inputs(&mut late, |inputs| inputs.last_mut().unwrap().tick = end);
    assert!(refusal(&late).contains("at or after the end"));

    let mut endless = replay.clone();
    endless.result.ticks = u64::MAX;
    assert!(refusal(&endless).contains("at most 1382400"));

    // Fewer fingerprints than the recording takes: one dropped, or a long run with none.
    let mut thinned = replay.clone();
    thinned.checks.remove(1);
    assert!(refusal(&thinned).contains("where the recording takes one"));
    let mut unchecked = replay.clone();
    unchecked.checks.truncate(1);
    unchecked.result.ticks = limits::MAX_RUN_TICKS;
    edit_inputs(&mut unchecked, Vec::clear);
    assert!(refusal(&unchecked).contains("fingerprints where the recording takes"));

    let mut too_many = replay.clone();
    edit_inputs(&mut too_many, |inputs| {
        let input = inputs[0].input;
        *inputs = (0..limits::max_inputs(replay.result.ticks) + 1)
            .map(|tick| Timed {
                tick: tick / 8,
                input,
            })
            .collect();
    });
    assert!(refusal(&too_many).contains("holds at most"));

    let mut shouting = replay.clone();
    shouting.game_version = "0.1\u{1b}[31m".to_owned();
    assert!(refusal(&shouting).contains("control characters"));

    let mut mixed = replay.clone();
    mixed.result = RunResult::of::<MazeKind>(
        replay.result.ticks,
        false,
        &MazeOutcome {
            moves: 0,
            hints_used: 0,
            finished: false,
        },
    );
    assert!(refusal(&mixed).contains("runner run with a maze result"));
}

/// A level-2 Hard maze of 9x7 cells at level 1 (15x13 at level 2).
const SMALL_MAZE: MazeOptions = MazeOptions {
    width: 9,
    height: 7,
    algorithm: Algorithm::Kruskal,
    braid: 0.0,
    level: 2,
};

fn maze_replay_of(options: MazeOptions) -> Replay {
    let setup = options.setup(5, Difficulty::Hard);
    let mut run = MazeRun::new(setup, false).unwrap();
    let recorder = record_computer_play(&mut run, |run| run.ticks >= 300, MazeInput::Hint);
    let header = ReplayHeader {
        difficulty: Difficulty::Hard,
        ..header(5)
    };
    replay_of::<MazeKind>(header, &run, &recorder)
}

#[test]
fn maze_options_out_of_range_are_refused_before_any_arithmetic() {
    let replay = maze_replay_of(SMALL_MAZE);
    assert_eq!(verify(&replay).map(|r| r.ticks), Ok(300));
    let inputs = replay.run.inputs::<MazeKind>().unwrap();
    let with = |change: &dyn Fn(&mut MazeOptions)| {
        let mut changed = replay.clone();
        let mut maze = SMALL_MAZE;
        change(&mut maze);
        changed.run = ModeRun::of::<MazeKind>(&MazeReplaySetup { maze }, &inputs);
        refusal(&changed)
    };
    assert!(with(&|maze| maze.width = usize::MAX).contains("each side is 2 to 1000"));
    assert!(with(&|maze| maze.height = 1).contains("each side is 2 to 1000"));
    assert!(with(&|maze| maze.level = 0).contains("level 0 is not 1 to 1000"));
    assert!(with(&|maze| maze.level = u32::MAX).contains("is not 1 to 1000"));
    assert!(with(&|maze| maze.braid = 1.5).contains("braid"));
    let mut far = replay.clone();
    let mut walk_far = inputs.clone();
    walk_far[0].input = MazeInput::WalkTo(usize::MAX);
    far.run = ModeRun::of::<MazeKind>(&MazeReplaySetup { maze: SMALL_MAZE }, &walk_far);
    assert!(refusal(&far).contains("of a maze of 195 cells"));
}

#[test]
fn a_record_fits_only_the_board_of_its_own_run() {
    let runner = recorded_run(3);
    assert_eq!(
        boards::board_of(&runner, &RunnerKind, None).unwrap(),
        "runner/normal"
    );
    assert_eq!(
        boards::check_board(&runner, &RunnerKind, "runner/normal"),
        Ok(())
    );
    for other in [
        "runner/hard",
        "maze/normal",
        "runner/daily-2026-11-30/normal",
    ] {
        assert!(
            boards::check_board(&runner, &RunnerKind, other).is_err(),
            "{other}"
        );
    }
    let maze = maze_replay_of(SMALL_MAZE);
    assert_eq!(
        boards::board_of(&maze, &MazeKind, None).unwrap(),
        "maze/9x7/kruskal/hard/level2"
    );
    assert!(boards::check_board(&maze, &MazeKind, "maze/9x7/kruskal/hard/level2").is_ok());
    assert!(boards::check_board(&maze, &MazeKind, "maze/9x7/kruskal/hard").is_err());
    // A day's board takes only runs of that day's seed.
    let mut daily = recorded_run(3);
    daily.seed_text = boards::daily_seed_text("2026-11-30");
    daily.seed = crate::logic::seed::parse_seed(&daily.seed_text).unwrap();
    assert!(boards::check_board(&daily, &RunnerKind, "runner/daily-2026-11-30/normal").is_ok());
    assert!(boards::check_board(&daily, &RunnerKind, "runner/daily-2026-12-01/normal").is_err());
    assert!(boards::check_board(&runner, &RunnerKind, "runner/daily-2026-11-30/normal").is_err());
}

#[test]
fn inputs_beyond_a_step_share_wait_for_the_next() {
    let mut pending: Vec<u32> = (0..11).collect();
    assert_eq!(take_step_inputs(&mut pending), (0..8).collect::<Vec<_>>());
    assert_eq!(take_step_inputs(&mut pending), vec![8, 9, 10]);
    assert!(take_step_inputs(&mut pending).is_empty());
}

#[test]
fn texts_from_files_are_shown_escaped_and_cut() {
    assert_eq!(printable("temple 寺", 20), "temple 寺");
    assert_eq!(
        printable("a\nscore: 999\u{1b}[2J", 40),
        "a\\nscore: 999\\u{1b}[2J"
    );
    assert_eq!(printable("abcdef", 3), "abc…");
    // A parser's message that quotes a hostile string stays one short line.
    let text = serde_json::to_string(&recorded_run(1)).unwrap();
    let mode = format!(r#""mode":"x\n{}""#, "y".repeat(10_000));
    let hostile = text.replace(r#""mode":"runner""#, &mode);
    assert_ne!(hostile, text);
    let Err(ReplayError::Invalid(why)) = parse(&hostile) else {
        panic!("refused");
    };
    assert!(!why.contains('\n') && why.chars().count() <= 201, "{why}");
}

#[test]
fn replay_files_are_written_byte_for_byte_as_before_the_modes_brought_their_own_parts() {
    // Written by the game before each mode read its own parts: read and written again, the
    // same bytes, the shared fields and the mode's own in their places.
    let replay = parse(GOLDEN_REPLAY).unwrap();
    assert_eq!(String::from_utf8(to_bytes(&replay)).unwrap(), GOLDEN_REPLAY);
    assert_eq!(replay.run.mode(), "runner");
}

/// A runner replay the game wrote, kept as a file of the tests.
const GOLDEN_REPLAY: &str = include_str!("../../../tests/golden/runner-replay.json");

#[test]
fn the_golden_replay_verifies_to_the_result_it_records() {
    let replay = parse(GOLDEN_REPLAY).unwrap();
    // Played again from its inputs, it reaches every fingerprint and the very result it records.
    assert_eq!(verify(&replay), Ok(replay.result.clone()));
}

#[test]
fn a_replay_of_a_mode_the_game_lacks_is_refused_by_name() {
    let text = serde_json::to_string(&recorded_run(2)).unwrap();
    let kite = text.replace(r#""mode":"runner""#, r#""mode":"kite""#);
    let replay = parse(&kite).unwrap();
    let refused = crate::logic::verify_replay(&replay);
    assert!(
        matches!(&refused, Err(ReplayError::Invalid(why)) if why.contains("\"kite\", which this game does not have")),
        "{refused:?}"
    );
    // A mode's name is a short plain word: anything else is not read at all.
    for name in ["", "Runner", "kite/../x", &"k".repeat(33)] {
        let odd = text.replace(r#""mode":"runner""#, &format!(r#""mode":{name:?}"#));
        assert!(
            matches!(parse(&odd), Err(ReplayError::Invalid(why)) if why.contains("not a mode's name")),
            "{name:?}"
        );
    }
}

#[test]
fn objects_with_more_fields_than_a_replay_has_or_a_field_twice_are_refused() {
    let text = serde_json::to_string(&recorded_run(2)).unwrap();
    let padding: String = (0..super::parts::MAX_FIELDS)
        .map(|i| format!(r#""extra{i}":0,"#))
        .collect();
    let crowded = text.replacen('{', &format!("{{{padding}"), 1);
    assert!(
        matches!(parse(&crowded), Err(ReplayError::Invalid(why)) if why.contains("more than 64 fields"))
    );
    // A few unknown fields are kept with the mode's own, and the run still verifies.
    let extra = text.replacen('{', r#"{"note":"hand-made","#, 1);
    assert!(verify(&parse(&extra).unwrap()).is_ok());
    let twice = text.replacen('{', r#"{"seed":1,"#, 1);
    assert!(
        matches!(parse(&twice), Err(ReplayError::Invalid(why)) if why.contains("\"seed\" is there twice"))
    );
}
