//! Synthesizes the game's sound effects and writes them to `assets/sounds/` as WAV files.
//!
//! Run once with `cargo run --example make_sounds`; the output is committed. The synthesis is
//! seeded, so running it again writes the same bytes.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::TAU;
use std::path::Path;
use temple_trails::game::audio::Sound;

/// Samples per second: plenty for short effects, and small files.
const SAMPLE_RATE: u32 = 22_050;
/// Peak level of every effect, leaving headroom below full scale.
const PEAK: f32 = 0.7;

/// A sound being built, as samples from -1 to 1.
struct Voice {
    samples: Vec<f32>,
}

impl Voice {
    fn silence(seconds: f32) -> Self {
        Self {
            samples: vec![0.0; (seconds * SAMPLE_RATE as f32) as usize],
        }
    }

    /// Adds a tone whose frequency glides from `from_hz` to `to_hz`, starting at `start` seconds,
    /// with a quick attack and an exponential decay. `shape` blends sine (0) into square (1).
    fn tone(
        mut self,
        start: f32,
        seconds: f32,
        from_hz: f32,
        to_hz: f32,
        shape: f32,
        level: f32,
    ) -> Self {
        let first = (start * SAMPLE_RATE as f32) as usize;
        let count = (seconds * SAMPLE_RATE as f32) as usize;
        let mut phase = 0.0f32;
        for i in 0..count {
            let Some(sample) = self.samples.get_mut(first + i) else {
                break;
            };
            let t = i as f32 / count as f32;
            let hz = from_hz + (to_hz - from_hz) * t;
            phase = (phase + hz / SAMPLE_RATE as f32).fract();
            let sine = (phase * TAU).sin();
            let square = if phase < 0.5 { 1.0 } else { -1.0 };
            let wave = sine * (1.0 - shape) + square * shape;
            *sample += wave * envelope(t, seconds) * level;
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
            let Some(sample) = self.samples.get_mut(first + i) else {
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

fn synthesize(sound: Sound, rng: &mut ChaCha8Rng) -> Voice {
    match sound {
        Sound::MenuMove => Voice::silence(0.06).tone(0.0, 0.06, 880.0, 880.0, 0.3, 1.0),
        Sound::MenuConfirm => Voice::silence(0.16)
            .tone(0.0, 0.07, 660.0, 660.0, 0.3, 1.0)
            .tone(0.06, 0.10, 990.0, 990.0, 0.3, 1.0),
        Sound::Coin => Voice::silence(0.3)
            .tone(0.0, 0.07, 988.0, 988.0, 0.15, 1.0)
            .tone(0.06, 0.24, 1319.0, 1319.0, 0.15, 1.0),
        Sound::Jump => Voice::silence(0.22).tone(0.0, 0.22, 300.0, 720.0, 0.2, 1.0),
        Sound::Slide => Voice::silence(0.35).noise(rng, 0.0, 0.35, 0.85, 1.0),
        Sound::LaneChange => Voice::silence(0.14).noise(rng, 0.0, 0.14, 0.55, 1.0),
        Sound::Turn => Voice::silence(0.18)
            .tone(0.0, 0.08, 523.0, 523.0, 0.1, 0.8)
            .tone(0.07, 0.11, 784.0, 784.0, 0.1, 0.8)
            .noise(rng, 0.0, 0.1, 0.6, 0.3),
        Sound::Crash => Voice::silence(0.7)
            .noise(rng, 0.0, 0.7, 0.92, 1.0)
            .tone(0.0, 0.5, 110.0, 45.0, 0.0, 1.0),
        Sound::Footstep => Voice::silence(0.07)
            .noise(rng, 0.0, 0.07, 0.9, 1.0)
            .tone(0.0, 0.05, 140.0, 90.0, 0.0, 0.6),
        Sound::Win => Voice::silence(0.75)
            .tone(0.0, 0.18, 523.0, 523.0, 0.2, 1.0)
            .tone(0.14, 0.18, 659.0, 659.0, 0.2, 1.0)
            .tone(0.28, 0.18, 784.0, 784.0, 0.2, 1.0)
            .tone(0.42, 0.33, 1047.0, 1047.0, 0.2, 1.0),
        // A thud and a scrape, then a low warning note: the guardians are close.
        Sound::Stumble => Voice::silence(0.5)
            .noise(rng, 0.0, 0.2, 0.9, 1.0)
            .tone(0.0, 0.15, 160.0, 80.0, 0.0, 0.9)
            .tone(0.16, 0.34, 196.0, 185.0, 0.6, 0.5),
        // A rising arpeggio with a shimmer on top.
        Sound::PowerUp => Voice::silence(0.45)
            .tone(0.0, 0.12, 523.0, 523.0, 0.25, 0.9)
            .tone(0.08, 0.12, 784.0, 784.0, 0.25, 0.9)
            .tone(0.16, 0.29, 1047.0, 1568.0, 0.1, 0.9)
            .noise(rng, 0.16, 0.29, 0.2, 0.15),
        // Glass-like: a bright falling tone over a burst of hiss.
        Sound::ShieldBreak => Voice::silence(0.4)
            .tone(0.0, 0.4, 1760.0, 880.0, 0.0, 0.8)
            .noise(rng, 0.0, 0.25, 0.1, 0.7),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds");
    std::fs::create_dir_all(&folder)?;
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    for (index, sound) in Sound::ALL.into_iter().enumerate() {
        // One fixed noise stream per sound, so each file is reproducible on its own.
        let mut rng = ChaCha8Rng::seed_from_u64(index as u64);
        let samples = synthesize(sound, &mut rng).finish();
        let path = folder.join(sound.file_name());
        let mut writer = hound::WavWriter::create(&path, spec)?;
        for sample in samples {
            writer.write_sample(sample)?;
        }
        writer.finalize()?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
