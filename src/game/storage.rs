//! Where the game keeps its files, and the warnings about damaged ones that the menu shows.
//! Reading and writing them safely is [`crate::files`]' job.

use bevy::prelude::*;
use std::ffi::OsString;
use std::path::PathBuf;

/// The environment variable that, when set to a folder, holds every file the game writes.
pub const HOME_ENV: &str = "TEMPLE_TRAILS_HOME";

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StorageWarnings>();
}

/// The folders the game's files live in. Without this resource nothing is read or written
/// (headless tests that do not care about persistence simply leave it out).
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct StorageDir {
    /// Settings (`settings.json`).
    pub config: PathBuf,
    /// Best scores (`scores.json`).
    pub data: PathBuf,
}

impl StorageDir {
    /// Both kinds of file in one folder, as with [`HOME_ENV`].
    pub fn single(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        Self {
            config: dir.clone(),
            data: dir,
        }
    }

    /// The folders given the value of [`HOME_ENV`]: that folder when set and not empty,
    /// otherwise the platform's config and data folders (None if the platform has none).
    pub fn resolve(home_override: Option<OsString>) -> Option<Self> {
        match home_override {
            Some(dir) if !dir.is_empty() => Some(Self::single(dir)),
            _ => directories::ProjectDirs::from("org", "Temple Trails", "temple-trails").map(
                |dirs| Self {
                    config: dirs.config_dir().to_path_buf(),
                    data: dirs.data_dir().to_path_buf(),
                },
            ),
        }
    }

    /// The folders for this process, honouring [`HOME_ENV`].
    pub fn from_env() -> Option<Self> {
        Self::resolve(std::env::var_os(HOME_ENV))
    }
}

/// Problems with the player's files that the menu shows until dismissed.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct StorageWarnings(pub Vec<String>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_override_puts_everything_in_one_folder() {
        let dirs = StorageDir::resolve(Some(OsString::from("/tmp/tt-home"))).unwrap();
        assert_eq!(dirs, StorageDir::single("/tmp/tt-home"));
    }

    #[test]
    fn empty_home_override_is_ignored() {
        assert_eq!(
            StorageDir::resolve(Some(OsString::new())),
            StorageDir::resolve(None)
        );
    }
}
