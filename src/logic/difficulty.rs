//! The difficulty shared by all three modes.

use serde::{Deserialize, Serialize};

/// How hard the game is: each mode turns this into its own numbers (runner speed and obstacle
/// density, and so on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Gentle: for learning the controls.
    Easy,
    /// The intended experience.
    #[default]
    Normal,
    /// For players who know the temple.
    Hard,
}

impl Difficulty {
    /// All difficulties, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard];

    /// The lowercase name used in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
        }
    }

    /// The name shown to players.
    pub const fn label(self) -> &'static str {
        match self {
            Difficulty::Easy => "Easy",
            Difficulty::Normal => "Normal",
            Difficulty::Hard => "Hard",
        }
    }

    /// The next harder difficulty, staying at Hard.
    pub const fn harder(self) -> Difficulty {
        match self {
            Difficulty::Easy => Difficulty::Normal,
            Difficulty::Normal | Difficulty::Hard => Difficulty::Hard,
        }
    }

    /// The next easier difficulty, staying at Easy.
    pub const fn easier(self) -> Difficulty {
        match self {
            Difficulty::Hard => Difficulty::Normal,
            Difficulty::Normal | Difficulty::Easy => Difficulty::Easy,
        }
    }
}

impl std::fmt::Display for Difficulty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Difficulty {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown difficulty '{text}': expected easy, normal or hard"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in Difficulty::ALL {
            assert_eq!(d.name().parse::<Difficulty>(), Ok(d));
            assert_eq!(d.label().parse::<Difficulty>(), Ok(d));
        }
    }

    #[test]
    fn unknown_name_lists_the_allowed_ones() {
        let err = "nightmare".parse::<Difficulty>().unwrap_err();
        assert!(err.contains("easy, normal or hard"), "{err}");
    }

    #[test]
    fn harder_and_easier_stop_at_the_ends() {
        assert_eq!(Difficulty::Hard.harder(), Difficulty::Hard);
        assert_eq!(Difficulty::Easy.easier(), Difficulty::Easy);
        assert_eq!(Difficulty::Easy.harder().harder(), Difficulty::Hard);
    }
}
