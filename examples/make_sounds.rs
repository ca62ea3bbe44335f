//! Synthesizes the game's sound effects and its music loops (a title, a runner and a maze piece
//! composed from seeded random walks over fixed chords) and writes them to `assets/sounds/` and
//! `assets/music/` as WAV files.
//!
//! Run once with `cargo run --example make_sounds`; the output is committed. The synthesis is
//! seeded, so running it again writes the same bytes.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::TAU;
use std::path::Path;
use temple_trails::game::audio::Sound;
use temple_trails::game::music::TITLE_MUSIC;
use temple_trails::game::{maze, runner};

/// Samples per second: plenty for short effects, and small files.
const SAMPLE_RATE: u32 = 22_050;
/// Peak level of every effect and loop, leaving headroom below full scale.
const PEAK: f32 = 0.7;

/// A sound being built, as samples from -1 to 1. A looped voice (a music loop) wraps what runs
/// past its end round to its start, so the loop has no seam.
struct Voice {
    samples: Vec<f32>,
    looped: bool,
}

impl Voice {
    fn silence(seconds: f32) -> Self {
        Self {
            samples: vec![0.0; (seconds * SAMPLE_RATE as f32) as usize],
            looped: false,
        }
    }

    fn looped(seconds: f32) -> Self {
        Self {
            looped: true,
            ..Voice::silence(seconds)
        }
    }

    /// The sample at `index`, wrapped round in a looped voice; `None` past the end otherwise.
    fn sample_at(&mut self, index: usize) -> Option<&mut f32> {
        let index = if self.looped {
            index % self.samples.len().max(1)
        } else {
            index
        };
        self.samples.get_mut(index)
    }

    /// Adds a tone whose frequency glides from `from_hz` to `to_hz`, starting at `start` seconds,
    /// with a quick attack and an exponential decay. `shape` blends sine (0) into square (1).
    fn tone(
        self,
        start: f32,
        seconds: f32,
        from_hz: f32,
        to_hz: f32,
        shape: f32,
        level: f32,
    ) -> Self {
        let shaped = move |t: f32| envelope(t, seconds);
        self.shaped_tone(start, seconds, [from_hz, to_hz], shape, level, shaped)
    }

    /// [`Voice::tone`] with any envelope: a function of the time through the tone, 0 to 1.
    fn shaped_tone(
        mut self,
        start: f32,
        seconds: f32,
        [from_hz, to_hz]: [f32; 2],
        shape: f32,
        level: f32,
        envelope: impl Fn(f32) -> f32,
    ) -> Self {
        let first = (start * SAMPLE_RATE as f32) as usize;
        let count = (seconds * SAMPLE_RATE as f32) as usize;
        let mut phase = 0.0f32;
        for i in 0..count {
            let Some(sample) = self.sample_at(first + i) else {
                break;
            };
            let t = i as f32 / count as f32;
            let hz = from_hz + (to_hz - from_hz) * t;
            phase = (phase + hz / SAMPLE_RATE as f32).fract();
            let sine = (phase * TAU).sin();
            let square = if phase < 0.5 { 1.0 } else { -1.0 };
            let wave = sine * (1.0 - shape) + square * shape;
            *sample += wave * envelope(t) * level;
        }
        self
    }

    /// Adds noise low-passed by `smoothing` (0 = white, near 1 = a dull rumble).
    fn noise(
        mut self,
        rng: &mut ChaCha8Rng,
        start: f32,
        seconds: f32,
        smoothing: f32,
        level: f32,
    ) -> Self {
        let first = (start * SAMPLE_RATE as f32) as usize;
        let count = (seconds * SAMPLE_RATE as f32) as usize;
        let mut filtered = 0.0f32;
        for i in 0..count {
            let Some(sample) = self.sample_at(first + i) else {
                break;
            };
            let white: f32 = rng.random_range(-1.0..1.0);
            filtered = filtered * smoothing + white * (1.0 - smoothing);
            let t = i as f32 / count as f32;
            // Low-passing quietens noise; scale it back up so `level` means the same for all.
            let gain = 1.0 / (1.0 - smoothing).sqrt();
            *sample += filtered * gain * envelope(t, seconds) * level;
        }
        self
    }

    /// Scales to [`PEAK`] and converts to 16-bit samples.
    fn finish(self) -> Vec<i16> {
        let loudest = self.samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        let scale = if loudest > 0.0 { PEAK / loudest } else { 0.0 };
        self.samples
            .iter()
            .map(|s| (s * scale * f32::from(i16::MAX)) as i16)
            .collect()
    }
}

/// A 5 ms attack (no click) then an exponential decay to silence at the end.
fn envelope(t: f32, seconds: f32) -> f32 {
    let attack = (t * seconds / 0.005).min(1.0);
    let decay = (-4.0 * t).exp() * (1.0 - t);
    attack * decay
}

/// Every sound, in the order of their seeds.
const SOUNDS: [Sound; 13] = [
    Sound::MENU_MOVE,
    Sound::MENU_CONFIRM,
    runner::sounds::COIN,
    runner::sounds::JUMP,
    runner::sounds::SLIDE,
    runner::sounds::LANE_CHANGE,
    runner::sounds::TURN,
    runner::sounds::CRASH,
    maze::sounds::FOOTSTEP,
    maze::sounds::WIN,
    runner::sounds::STUMBLE,
    runner::sounds::POWER_UP,
    runner::sounds::SHIELD_BREAK,
];

fn synthesize(sound: Sound, rng: &mut ChaCha8Rng) -> Voice {
    match sound {
        Sound::MENU_MOVE => Voice::silence(0.06).tone(0.0, 0.06, 880.0, 880.0, 0.3, 1.0),
        Sound::MENU_CONFIRM => Voice::silence(0.16)
            .tone(0.0, 0.07, 660.0, 660.0, 0.3, 1.0)
            .tone(0.06, 0.10, 990.0, 990.0, 0.3, 1.0),
        runner::sounds::COIN => Voice::silence(0.3)
            .tone(0.0, 0.07, 988.0, 988.0, 0.15, 1.0)
            .tone(0.06, 0.24, 1319.0, 1319.0, 0.15, 1.0),
        runner::sounds::JUMP => Voice::silence(0.22).tone(0.0, 0.22, 300.0, 720.0, 0.2, 1.0),
        runner::sounds::SLIDE => Voice::silence(0.35).noise(rng, 0.0, 0.35, 0.85, 1.0),
        runner::sounds::LANE_CHANGE => Voice::silence(0.14).noise(rng, 0.0, 0.14, 0.55, 1.0),
        runner::sounds::TURN => Voice::silence(0.18)
            .tone(0.0, 0.08, 523.0, 523.0, 0.1, 0.8)
            .tone(0.07, 0.11, 784.0, 784.0, 0.1, 0.8)
            .noise(rng, 0.0, 0.1, 0.6, 0.3),
        runner::sounds::CRASH => Voice::silence(0.7)
            .noise(rng, 0.0, 0.7, 0.92, 1.0)
            .tone(0.0, 0.5, 110.0, 45.0, 0.0, 1.0),
        maze::sounds::FOOTSTEP => Voice::silence(0.07)
            .noise(rng, 0.0, 0.07, 0.9, 1.0)
            .tone(0.0, 0.05, 140.0, 90.0, 0.0, 0.6),
        maze::sounds::WIN => Voice::silence(0.75)
            .tone(0.0, 0.18, 523.0, 523.0, 0.2, 1.0)
            .tone(0.14, 0.18, 659.0, 659.0, 0.2, 1.0)
            .tone(0.28, 0.18, 784.0, 784.0, 0.2, 1.0)
            .tone(0.42, 0.33, 1047.0, 1047.0, 0.2, 1.0),
        // A thud and a scrape, then a low warning note: the guardians are close.
        runner::sounds::STUMBLE => Voice::silence(0.5)
            .noise(rng, 0.0, 0.2, 0.9, 1.0)
            .tone(0.0, 0.15, 160.0, 80.0, 0.0, 0.9)
            .tone(0.16, 0.34, 196.0, 185.0, 0.6, 0.5),
        // A rising arpeggio with a shimmer on top.
        runner::sounds::POWER_UP => Voice::silence(0.45)
            .tone(0.0, 0.12, 523.0, 523.0, 0.25, 0.9)
            .tone(0.08, 0.12, 784.0, 784.0, 0.25, 0.9)
            .tone(0.16, 0.29, 1047.0, 1568.0, 0.1, 0.9)
            .noise(rng, 0.16, 0.29, 0.2, 0.15),
        // Glass-like: a bright falling tone over a burst of hiss.
        runner::sounds::SHIELD_BREAK => Voice::silence(0.4)
            .tone(0.0, 0.4, 1760.0, 880.0, 0.0, 0.8)
            .noise(rng, 0.0, 0.25, 0.1, 0.7),
        // The maze's catch is the runner's crash.wav; every other name has its recipe above.
        other => panic!("no recipe for the sound {}", other.0),
    }
}

/// Semitones of the A minor pentatonic scale above A.
const PENTATONIC: [i32; 5] = [0, 3, 5, 7, 10];
/// The loop's chords, two bars each: A minor, F, C and G, as (root in semitones from A, third).
const CHORDS: [(i32, i32); 4] = [(0, 3), (-4, 4), (3, 4), (-2, 4)];
/// Beats in every loop: eight bars of four.
const LOOP_BEATS: usize = 32;

/// The frequency of a note `semitones` away from A4 (440 Hz).
fn pitch(semitones: i32) -> f32 {
    440.0 * 2f32.powf(semitones as f32 / 12.0)
}

/// The pentatonic note at `step` scale steps above A4 (negative steps go down).
fn scale_note(step: i32) -> i32 {
    let len = PENTATONIC.len() as i32;
    12 * step.div_euclid(len) + PENTATONIC[step.rem_euclid(len) as usize]
}

/// The chord under `beat` of the loop: root and third in semitones from A4.
fn chord_at(beat: usize) -> (i32, i32) {
    CHORDS[(beat / 8) % CHORDS.len()]
}

/// A struck note: a 5 ms attack, then a decay with `decay` of the note's length as its time
/// constant, closing to silence at the end.
fn pluck(decay: f32) -> impl Fn(f32) -> f32 {
    move |t: f32| (t / 0.01).min(1.0) * (-t / decay).exp() * (1.0 - t)
}

/// A held note: rises over the first `rise` of its length and falls over the last `fall`.
fn swell(rise: f32, fall: f32) -> impl Fn(f32) -> f32 {
    move |t: f32| (t / rise).min(1.0) * ((1.0 - t) / fall).min(1.0)
}

/// A music loop of [`LOOP_BEATS`] beats at `bpm`, with notes placed in beats.
struct Score {
    voice: Voice,
    beat_s: f32,
}

impl Score {
    fn new(bpm: f32) -> Score {
        let beat_s = 60.0 / bpm;
        Score {
            voice: Voice::looped(beat_s * LOOP_BEATS as f32),
            beat_s,
        }
    }

    /// A note at `beat` lasting `beats`, `semitones` from A4, in the envelope given.
    fn note(
        mut self,
        beat: f32,
        beats: f32,
        semitones: i32,
        shape: f32,
        level: f32,
        envelope: impl Fn(f32) -> f32,
    ) -> Score {
        let hz = pitch(semitones);
        let (start, seconds) = (beat * self.beat_s, beats * self.beat_s);
        self.voice = self
            .voice
            .shaped_tone(start, seconds, [hz, hz], shape, level, envelope);
        self
    }

    /// A kick: a sine falling from 150 Hz to 45 Hz.
    fn kick(mut self, beat: f32, level: f32) -> Score {
        self.voice = self.voice.shaped_tone(
            beat * self.beat_s,
            0.3,
            [150.0, 45.0],
            0.0,
            level,
            pluck(0.35),
        );
        self
    }

    /// A burst of noise: `smoothing` near 0 is a hat or a shaker, higher a snare's body.
    fn hiss(
        mut self,
        rng: &mut ChaCha8Rng,
        beat: f32,
        seconds: f32,
        smoothing: f32,
        level: f32,
    ) -> Score {
        self.voice = self
            .voice
            .noise(rng, beat * self.beat_s, seconds, smoothing, level);
        self
    }
}

/// A melody over the loop: a random walk on the pentatonic scale, one note or rest per slot of
/// `slot_beats`, starting from `step` and kept between `lowest` and `highest` steps.
fn melody(
    rng: &mut ChaCha8Rng,
    slot_beats: f32,
    rest_chance: f32,
    [lowest, highest]: [i32; 2],
) -> Vec<(f32, i32)> {
    let mut step = (lowest + highest) / 2;
    let slots = (LOOP_BEATS as f32 / slot_beats) as usize;
    let mut notes = Vec::new();
    for slot in 0..slots {
        let rest: f32 = rng.random();
        step = (step + rng.random_range(-2..=2)).clamp(lowest, highest);
        if rest >= rest_chance {
            notes.push((slot as f32 * slot_beats, step));
        }
    }
    notes
}

/// The title's piece: a slow pad of the chords, a soft bass and sparse bells.
fn title_piece(rng: &mut ChaCha8Rng) -> Score {
    let mut score = Score::new(80.0);
    for bar in (0..LOOP_BEATS).step_by(8) {
        let (root, third) = chord_at(bar);
        for tone in [root - 12, root + third - 12, root + 7 - 12] {
            score = score.note(bar as f32, 9.0, tone, 0.08, 0.16, swell(0.3, 0.25));
        }
        score = score.note(bar as f32, 4.0, root - 24, 0.0, 0.35, pluck(0.5));
        score = score.note(bar as f32 + 4.0, 4.0, root - 24, 0.0, 0.3, pluck(0.5));
    }
    for (beat, step) in melody(rng, 1.0, 0.45, [0, 7]) {
        score = score.note(beat, 3.0, scale_note(step), 0.0, 0.22, pluck(0.2));
    }
    score
}

/// The maze's piece: a low pulse, a marimba walking the chords, a shaker and a soft drum.
fn maze_piece(rng: &mut ChaCha8Rng) -> Score {
    let mut score = Score::new(92.0);
    for beat in 0..LOOP_BEATS {
        let (root, third) = chord_at(beat);
        let at = beat as f32;
        if beat % 4 == 0 {
            score = score.kick(at, 0.35);
        }
        if beat % 2 == 0 {
            score = score.note(at, 1.5, root - 24, 0.2, 0.4, pluck(0.4));
        }
        // The marimba: chord tones up and down in eighths, with rests drawn from the seed.
        let tones = [root, root + third, root + 7, root + 12];
        for half in 0..2 {
            let rest: f32 = rng.random();
            if rest < 0.3 {
                continue;
            }
            let tone = tones[(beat * 2 + half) % tones.len()];
            score = score.note(at + half as f32 * 0.5, 0.9, tone, 0.05, 0.2, pluck(0.15));
        }
        score = score.hiss(rng, at + 0.5, 0.06, 0.0, 0.05);
    }
    score
}

/// The runner's piece: four-on-the-floor drums, a driving bass and a lead line.
fn runner_piece(rng: &mut ChaCha8Rng) -> Score {
    let mut score = Score::new(128.0);
    for beat in 0..LOOP_BEATS {
        let (root, third) = chord_at(beat);
        let at = beat as f32;
        score = score.kick(at, 0.7);
        if beat % 2 == 1 {
            score = score
                .hiss(rng, at, 0.16, 0.35, 0.35)
                .note(at, 0.3, -22, 0.0, 0.2, pluck(0.2));
        }
        score = score.hiss(rng, at + 0.5, 0.04, 0.0, 0.12);
        for (half, octave) in [(0.0, -24), (0.5, -12)] {
            score = score.note(at + half, 0.45, root + octave, 0.5, 0.22, pluck(0.35));
        }
        if beat % 8 == 0 {
            for tone in [root, root + third, root + 7] {
                score = score.note(at, 2.0, tone - 12, 0.15, 0.1, swell(0.05, 0.6));
            }
        }
    }
    for (beat, step) in melody(rng, 0.5, 0.4, [-2, 6]) {
        score = score.note(beat, 0.45, scale_note(step), 0.3, 0.16, pluck(0.4));
    }
    score
}

/// A function that composes a loop from its seeded stream.
type Composer = fn(&mut ChaCha8Rng) -> Score;

/// Every loop, by asset path, with the function that composes it, in the order of their seeds.
const PIECES: [(&str, Composer); 3] = [
    (TITLE_MUSIC, title_piece),
    (runner::MUSIC, runner_piece),
    (maze::MUSIC, maze_piece),
];

/// Writes samples as a 16-bit mono WAV file.
fn write_wav(path: &Path, samples: Vec<i16>) -> Result<(), Box<dyn std::error::Error>> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut writer = hound::WavWriter::create(path, spec)?;
    for sample in samples {
        writer.write_sample(sample)?;
    }
    writer.finalize()?;
    println!("wrote {}", path.display());
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    std::fs::create_dir_all(assets.join("sounds"))?;
    std::fs::create_dir_all(assets.join("music"))?;
    for (index, sound) in SOUNDS.into_iter().enumerate() {
        // One fixed noise stream per sound, so each file is reproducible on its own.
        let mut rng = ChaCha8Rng::seed_from_u64(index as u64);
        let samples = synthesize(sound, &mut rng).finish();
        write_wav(&assets.join(sound.asset_path()), samples)?;
    }
    for (index, (path, compose)) in PIECES.into_iter().enumerate() {
        // Each piece's melody and rests come from its own seeded stream.
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + index as u64);
        let samples = compose(&mut rng).voice.finish();
        write_wav(&assets.join(path), samples)?;
    }
    Ok(())
}
