//! Seeds: turning what a player types into a `u64`, and one independent random stream per feature.
//!
//! One seed drives the whole game. Each feature draws from its own ChaCha8 stream so that a change
//! in how much randomness one feature consumes never changes what another feature generates.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// FNV-1a 64-bit offset basis.
const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Hashes bytes with 64-bit FNV-1a.
///
/// Unlike `std`'s `DefaultHasher`, FNV-1a is fully specified, so a seed word gives the same number
/// on every platform and every Rust release.
pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    Fnv1a::new().bytes(bytes).finish()
}

/// A 64-bit FNV-1a hash fed piece by piece: what the runs' fingerprints are made of. Numbers go
/// in as eight little-endian bytes, so a fingerprint is the same on every platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a::new()
    }
}

impl Fnv1a {
    /// The hash of nothing yet.
    pub const fn new() -> Fnv1a {
        Fnv1a(FNV_OFFSET_BASIS)
    }

    /// A hash that goes on from `hash`, one made earlier by [`Fnv1a::finish`]: a fingerprint of
    /// a list kept up as the list grows.
    pub const fn continuing(hash: u64) -> Fnv1a {
        Fnv1a(hash)
    }

    /// Feeds bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Fnv1a {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
        }
        self
    }

    /// Feeds a number.
    pub fn u64(&mut self, value: u64) -> &mut Fnv1a {
        self.bytes(&value.to_le_bytes())
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// Scrambles a number (SplitMix64's finaliser), so that a sum of scrambled ids fingerprints a
/// set whatever order it was filled in, and two sets rarely share a sum.
pub const fn mix64(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The longest seed text, in characters: long enough for any phrase worth sharing, short enough
/// to show in one line of a menu and to bound what a replay file can carry.
pub const MAX_SEED_TEXT_CHARS: usize = 100;

/// Why a seed text could not be turned into a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeedError {
    /// The text was empty or only white space.
    Empty,
    /// The text is longer than [`MAX_SEED_TEXT_CHARS`].
    TooLong(usize),
    /// The text holds a control character (a line break, a tab, an escape), which no seed
    /// field can type and which would garble a line it is printed in.
    ControlCharacter,
}

impl std::fmt::Display for SeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeedError::Empty => write!(f, "a seed must be a number or a word, not empty"),
            SeedError::TooLong(chars) => write!(
                f,
                "a seed is at most {MAX_SEED_TEXT_CHARS} characters, not {chars}"
            ),
            SeedError::ControlCharacter => write!(
                f,
                "a seed may not hold control characters such as line breaks or tabs"
            ),
        }
    }
}

impl std::error::Error for SeedError {}

/// Turns what a player typed into a seed.
///
/// Surrounding white space is ignored. A whole number from 0 to 18446744073709551615 is used as
/// it is; anything else (a word, a phrase, a negative or too large number) is hashed with FNV-1a.
/// Texts longer than [`MAX_SEED_TEXT_CHARS`] or holding control characters are refused.
pub fn parse_seed(text: &str) -> Result<u64, SeedError> {
    // Counted before trimming, so that a refused text is refused whatever surrounds it, and
    // never more than one past the limit, so that a huge text costs no more than a short one.
    let chars = text.chars().take(MAX_SEED_TEXT_CHARS + 1).count();
    if chars > MAX_SEED_TEXT_CHARS {
        return Err(SeedError::TooLong(text.chars().count()));
    }
    if text.chars().any(char::is_control) {
        return Err(SeedError::ControlCharacter);
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(SeedError::Empty);
    }
    Ok(text
        .parse::<u64>()
        .unwrap_or_else(|_| fnv1a_64(text.as_bytes())))
}

/// A feature that consumes randomness. Each has its own stream of the seeded generator.
///
/// The stream numbers are part of the save format of every golden test: never renumber a variant,
/// only add new ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    /// The drifting tile field behind the title screen.
    TitleBackground,
    /// Maze generation.
    Maze,
    /// Runner track layout (segment kinds and lane noise).
    Track,
    /// Runner obstacle types.
    Obstacles,
    /// The wanderers' noise: its seed and each NPC's own offsets.
    Wanderers,
    /// The wanderers' obstacle field.
    ObstacleField,
    /// Start and goal pairs for path smoothing runs.
    SmoothingPairs,
    /// Homes of wanderers scattered on an open plane.
    ScatteredHomes,
    /// Body sizes and homes of the sandbox's wanderers on their field.
    SandboxHomes,
    /// Where the runner's track holds power-ups, and which.
    PowerUps,
    /// The seeds of the maze's later levels.
    MazeLevels,
    /// Where a maze's guardians make their homes.
    MazeGuardians,
}

impl Stream {
    /// Every stream, for tests that check they are independent.
    pub const ALL: [Stream; 12] = [
        Stream::TitleBackground,
        Stream::Maze,
        Stream::Track,
        Stream::Obstacles,
        Stream::Wanderers,
        Stream::ObstacleField,
        Stream::SmoothingPairs,
        Stream::ScatteredHomes,
        Stream::SandboxHomes,
        Stream::PowerUps,
        Stream::MazeLevels,
        Stream::MazeGuardians,
    ];

    /// The ChaCha stream number of this feature.
    pub const fn id(self) -> u64 {
        match self {
            Stream::TitleBackground => 1,
            Stream::Maze => 2,
            Stream::Track => 3,
            Stream::Obstacles => 4,
            Stream::Wanderers => 5,
            Stream::ObstacleField => 6,
            Stream::SmoothingPairs => 7,
            Stream::ScatteredHomes => 8,
            Stream::SandboxHomes => 9,
            Stream::PowerUps => 10,
            Stream::MazeLevels => 11,
            Stream::MazeGuardians => 12,
        }
    }
}

/// The random number generator of one feature for one game seed.
///
/// The same seed and stream always give the same sequence; different streams of the same seed
/// are independent ChaCha8 streams.
pub fn stream_rng(seed: u64, stream: Stream) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream.id());
    rng
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    fn first_words(seed: u64, stream: Stream) -> Vec<u64> {
        let mut rng = stream_rng(seed, stream);
        (0..8).map(|_| rng.next_u64()).collect()
    }

    #[test]
    fn every_stream_of_a_seed_is_golden() {
        // Pins how a seed and a stream become numbers: a renumbered stream, another generator or
        // another seeding would silently change every saved seed's world.
        for (stream, first_word) in GOLDEN_FIRST_WORDS_42 {
            assert_eq!(first_words(42, stream)[0], first_word, "{stream:?}");
        }
        assert_eq!(GOLDEN_FIRST_WORDS_42.len(), Stream::ALL.len());
    }

    /// The first word of every stream of seed 42.
    const GOLDEN_FIRST_WORDS_42: [(Stream, u64); 12] = [
        (Stream::TitleBackground, 13_222_472_167_927_179_408),
        (Stream::Maze, 3_387_013_202_841_124_863),
        (Stream::Track, 6_672_028_999_979_260_041),
        (Stream::Obstacles, 16_805_319_813_727_100_726),
        (Stream::Wanderers, 6_506_774_120_333_837_283),
        (Stream::ObstacleField, 6_634_014_504_447_066_308),
        (Stream::SmoothingPairs, 2_370_525_664_269_707_216),
        (Stream::ScatteredHomes, 15_391_899_574_193_906_334),
        (Stream::SandboxHomes, 14_482_721_765_390_896_913),
        (Stream::PowerUps, 9_741_979_119_764_227_345),
        (Stream::MazeLevels, 18_007_100_902_509_182_753),
        (Stream::MazeGuardians, 16_044_361_769_748_765_274),
    ];

    #[test]
    fn streams_of_one_seed_differ() {
        for seed in [0, 7, 123_456_789] {
            let outputs: Vec<_> = Stream::ALL.iter().map(|&s| first_words(seed, s)).collect();
            for (i, a) in outputs.iter().enumerate() {
                for b in &outputs[i + 1..] {
                    assert_ne!(a, b, "two streams of seed {seed} gave the same words");
                }
            }
        }
    }

    #[test]
    fn different_seeds_differ() {
        assert_ne!(first_words(1, Stream::Maze), first_words(2, Stream::Maze));
    }

    #[test]
    fn stream_ids_are_unique() {
        let mut ids: Vec<u64> = Stream::ALL.iter().map(|s| s.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Stream::ALL.len());
    }

    #[test]
    fn stream_rng_is_golden() {
        // Catches an accidental change to how seeds become streams: every saved seed would
        // silently produce a different world.
        let mut rng = stream_rng(42, Stream::Maze);
        let words: Vec<u64> = (0..2).map(|_| rng.next_u64()).collect();
        assert_eq!(words, GOLDEN_MAZE_STREAM_42);
    }

    const GOLDEN_MAZE_STREAM_42: [u64; 2] = [3_387_013_202_841_124_863, 5_429_970_460_375_864_106];

    #[test]
    fn fnv1a_matches_reference_vectors() {
        // Published FNV-1a 64-bit test vectors.
        assert_eq!(fnv1a_64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a_64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a_64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_hash_fed_in_pieces_is_the_hash_of_the_whole() {
        let mut pieces = Fnv1a::new();
        pieces.bytes(b"foo").bytes(b"bar");
        assert_eq!(pieces.finish(), fnv1a_64(b"foobar"));
        assert_eq!(
            Fnv1a::new().u64(0x0102).finish(),
            fnv1a_64(&[2, 1, 0, 0, 0, 0, 0, 0])
        );
        // SplitMix64's published first output for the state 0 is mix64 of its first step.
        assert_eq!(mix64(0), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn numbers_are_used_as_they_are() {
        assert_eq!(parse_seed("12345"), Ok(12345));
        assert_eq!(parse_seed("  0 "), Ok(0));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn words_are_hashed_stably() {
        assert_eq!(parse_seed("temple"), Ok(fnv1a_64(b"temple")));
        assert_eq!(parse_seed(" temple "), parse_seed("temple"));
        // One past u64::MAX is not a number we can use, so it is hashed like a word.
        assert_eq!(
            parse_seed("18446744073709551616"),
            Ok(fnv1a_64(b"18446744073709551616"))
        );
        assert_ne!(parse_seed("Temple"), parse_seed("temple"));
    }

    #[test]
    fn empty_seed_is_refused() {
        assert_eq!(parse_seed(""), Err(SeedError::Empty));
        assert_eq!(parse_seed("   "), Err(SeedError::Empty));
    }

    #[test]
    fn long_seeds_and_control_characters_are_refused() {
        let longest = "é".repeat(MAX_SEED_TEXT_CHARS);
        assert_eq!(parse_seed(&longest), Ok(fnv1a_64(longest.as_bytes())));
        let longer = format!("{longest}x");
        assert_eq!(
            parse_seed(&longer),
            Err(SeedError::TooLong(MAX_SEED_TEXT_CHARS + 1))
        );
        for text in ["two\nlines", "tab\there", "\u{1b}[2Jscore: 999", "end\r"] {
            assert_eq!(
                parse_seed(text),
                Err(SeedError::ControlCharacter),
                "{text:?}"
            );
        }
        assert!(SeedError::TooLong(101).to_string().contains("100"));
    }
}
