//! Reading and writing the player's files without losing data.
//!
//! Files are written atomically (a temporary file in the same folder, flushed, then renamed over
//! the old one), so a crash mid-save leaves the previous version intact. A file that cannot be
//! read or parsed is renamed aside, never overwritten, and the caller gets a message for the
//! player. The game keeps its settings and scores this way; the command line writes its dumps so.

use serde::{Serialize, de::DeserializeOwned};
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The result of reading a JSON file that may be missing or damaged.
#[derive(Debug)]
pub struct Loaded<T> {
    /// What was read, or the defaults.
    pub value: T,
    /// A message for the player when the file was damaged or could not be read.
    pub warning: Option<String>,
    /// False when a damaged file could not be moved aside: it must then not be overwritten.
    pub writable: bool,
}

/// Reads `path` as JSON. A missing file gives the defaults silently; a file that cannot be read
/// or parsed is renamed to `<name>.corrupt-<unix time>` and gives the defaults with a warning.
pub fn load_json_or_default<T: DeserializeOwned + Default>(path: &Path) -> Loaded<T> {
    load_json_checked(path, |_| Ok(()))
}

/// Like [`load_json_or_default`], and a file whose contents `check` refuses (a part the JSON
/// types cannot tell is damaged) is set aside in the same way, with the reason `check` gives.
pub fn load_json_checked<T: DeserializeOwned + Default>(
    path: &Path,
    check: impl Fn(&T) -> Result<(), String>,
) -> Loaded<T> {
    let problem = match std::fs::read(path) {
        Ok(bytes) => match serde_json::from_slice::<T>(&bytes) {
            Ok(value) => match check(&value) {
                Ok(()) => {
                    return Loaded {
                        value,
                        warning: None,
                        writable: true,
                    };
                }
                Err(reason) => format!("could not be used ({reason})"),
            },
            Err(err) => format!("could not be parsed ({err})"),
        },
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Loaded {
                value: T::default(),
                warning: None,
                writable: true,
            };
        }
        Err(err) => format!("could not be read ({err})"),
    };
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let aside = set_aside_path(path);
    match std::fs::rename(path, &aside) {
        Ok(()) => Loaded {
            value: T::default(),
            warning: Some(format!(
                "{name} {problem}. It was kept as {} and defaults are used.",
                aside.display()
            )),
            writable: true,
        },
        Err(rename_err) => Loaded {
            value: T::default(),
            warning: Some(format!(
                "{name} {problem} and could not be moved aside ({rename_err}). Defaults are \
                 used and the file is left untouched: changes will not be saved."
            )),
            writable: false,
        },
    }
}

/// `dir/name.corrupt-<unix seconds>`, with a counter appended if that name is taken.
fn set_aside_path(path: &Path) -> PathBuf {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut candidate = PathBuf::from(format!("{}.corrupt-{now}", path.display()));
    let mut counter = 1;
    while candidate.exists() {
        candidate = PathBuf::from(format!("{}.corrupt-{now}-{counter}", path.display()));
        counter += 1;
    }
    candidate
}

/// Writes `value` as pretty JSON to `path` atomically: into a temporary file beside it, flushed
/// to disk, then renamed over `path`. Creates the folder if needed.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("path has no file name"))?;
    let mut temp_name = OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".tmp-{}", std::process::id()));
    let temp_path = dir.join(temp_name);
    let result = (|| {
        let mut file = std::fs::File::create(&temp_path)?;
        file.write_all(text.as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        std::fs::rename(&temp_path, path)
    })();
    if result.is_err() {
        // Leave no half-written temporary behind; the real file is untouched.
        let _ = std::fs::remove_file(&temp_path);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Sample {
        count: u32,
    }

    #[test]
    fn missing_file_gives_defaults_without_warning() {
        let dir = tempfile::tempdir().unwrap();
        let loaded: Loaded<Sample> = load_json_or_default(&dir.path().join("none.json"));
        assert_eq!(loaded.value, Sample::default());
        assert!(loaded.warning.is_none());
        assert!(loaded.writable);
    }

    #[test]
    fn written_file_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/sample.json");
        write_json_atomic(&path, &Sample { count: 7 }).unwrap();
        let loaded: Loaded<Sample> = load_json_or_default(&path);
        assert_eq!(loaded.value, Sample { count: 7 });
        // Only the file itself remains: no temporary left behind.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![OsString::from("sample.json")]);
    }

    #[test]
    fn corrupt_file_is_set_aside_with_its_contents() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sample.json");
        std::fs::write(&path, b"{ not json").unwrap();
        let loaded: Loaded<Sample> = load_json_or_default(&path);
        assert_eq!(loaded.value, Sample::default());
        let warning = loaded.warning.expect("a warning for the player");
        assert!(warning.contains("sample.json"), "{warning}");
        assert!(
            !path.exists(),
            "the corrupt file must be moved, not left in place"
        );
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(aside.len(), 1);
        let aside_name = aside[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            aside_name.starts_with("sample.json.corrupt-"),
            "{aside_name}"
        );
        assert_eq!(std::fs::read(&aside[0]).unwrap(), b"{ not json");
    }

    #[test]
    fn two_corrupt_files_in_one_second_keep_both() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sample.json");
        for content in [&b"first"[..], &b"second"[..]] {
            std::fs::write(&path, content).unwrap();
            let _: Loaded<Sample> = load_json_or_default(&path);
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_file_the_check_refuses_is_set_aside_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sample.json");
        std::fs::write(&path, b"{\"count\": 3}").unwrap();
        let loaded: Loaded<Sample> = load_json_checked(&path, |s: &Sample| match s.count {
            3 => Err("three is refused".to_owned()),
            _ => Ok(()),
        });
        assert_eq!(loaded.value, Sample::default());
        let warning = loaded.warning.unwrap();
        assert!(warning.contains("three is refused"), "{warning}");
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
