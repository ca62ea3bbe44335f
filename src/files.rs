//! Reading and writing the player's files without losing data.
//!
//! Files are written atomically (a temporary file in the same folder, flushed, then renamed over
//! the old one, or linked under a name no file has yet), so a crash mid-save leaves the previous
//! version intact. A file that cannot be read or parsed is renamed aside, never overwritten, and
//! the caller gets a message for the player. Everything read is treated as hostile: only plain
//! files are opened (never through a link, never a pipe or a device), and never more bytes than
//! the caller allows. The game keeps its settings, scores and records this way; the command line
//! writes its dumps so.

use serde::{Serialize, de::DeserializeOwned};
use std::ffi::OsString;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest settings or scores file read, in bytes: a thousand times a real one, and little
/// enough to read at every start without a thought.
pub const MAX_JSON_BYTES: u64 = 4 * 1024 * 1024;

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

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// There is no file at that path.
    NotFound,
    /// Something other than a plain file is there: a link, a folder, a pipe, a device.
    NotPlain(&'static str),
    /// The file is larger than the caller allows.
    TooLarge {
        /// Its size, or at least how much was there to read.
        bytes: u64,
        /// The most the caller reads.
        limit: u64,
    },
    /// Reading failed.
    Io(std::io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotFound => write!(f, "there is no such file"),
            ReadError::NotPlain(kind) => {
                write!(
                    f,
                    "it is {kind}, not a plain file, and is not followed or read"
                )
            }
            ReadError::TooLarge { bytes, limit } => write!(
                f,
                "it is {bytes} bytes, more than the {limit} bytes such a file can need"
            ),
            ReadError::Io(err) => write!(f, "{err}"),
        }
    }
}

/// What a folder entry is, told without following links.
fn kind_of(file_type: std::fs::FileType) -> Result<EntryKind, &'static str> {
    if file_type.is_symlink() {
        Err("a link")
    } else if file_type.is_dir() {
        Ok(EntryKind::Folder)
    } else if file_type.is_file() {
        Ok(EntryKind::File)
    } else {
        Err("a special file (a pipe, a socket or a device)")
    }
}

/// Opens `path` for reading only if it is a plain file, and never through a link: on Unix the
/// open itself refuses a link and cannot block on a pipe, and what was opened is what is
/// checked, so the file cannot be swapped for another between the check and the read.
fn open_plain(path: &Path) -> Result<std::fs::File, ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    {
        // Without those flags, look first: a link is told apart from what it points to.
        let meta = std::fs::symlink_metadata(path).map_err(io_read_error)?;
        kind_of(meta.file_type()).map_err(ReadError::NotPlain)?;
    }
    let file = match options.open(path) {
        Ok(file) => file,
        // O_NOFOLLOW refuses a link at the last part of the path with ELOOP.
        #[cfg(unix)]
        Err(err) if err.raw_os_error() == Some(libc::ELOOP) => {
            return Err(ReadError::NotPlain("a link"));
        }
        Err(err) => return Err(io_read_error(err)),
    };
    let meta = file.metadata().map_err(ReadError::Io)?;
    match kind_of(meta.file_type()).map_err(ReadError::NotPlain)? {
        EntryKind::File => Ok(file),
        EntryKind::Folder => Err(ReadError::NotPlain("a folder")),
    }
}

fn io_read_error(err: std::io::Error) -> ReadError {
    if err.kind() == std::io::ErrorKind::NotFound {
        ReadError::NotFound
    } else {
        ReadError::Io(err)
    }
}

/// Reads the whole of `path` if it is a plain file of at most `limit` bytes. The size is checked
/// before anything is read, and the read stops one byte past the limit whatever the file
/// claims, so no file can make this cost more than `limit` bytes.
pub fn read_plain_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_plain(path)?;
    let size = file.metadata().map_err(ReadError::Io)?.len();
    if size > limit {
        return Err(ReadError::TooLarge { bytes: size, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    let read = bytes.len() as u64;
    if read > limit {
        return Err(ReadError::TooLarge { bytes: read, limit });
    }
    Ok(bytes)
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
    let problem = match read_plain_file(path, MAX_JSON_BYTES) {
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
        Err(ReadError::NotFound) => {
            return Loaded {
                value: T::default(),
                warning: None,
                writable: true,
            };
        }
        Err(err) => format!("could not be read ({err})"),
    };
    let name = file_name_of(path);
    match set_aside(path) {
        Ok(aside) => Loaded {
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

/// The last part of a path, for messages.
pub fn file_name_of(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Renames `path` to `<path>.corrupt-<unix seconds>` (with a counter if that name is taken) in
/// its own folder and returns the new path. A link is renamed itself, never what it points to.
pub fn set_aside(path: &Path) -> std::io::Result<PathBuf> {
    let aside = set_aside_path(path);
    std::fs::rename(path, &aside)?;
    Ok(aside)
}

/// `dir/name.corrupt-<unix seconds>`, with a counter appended if that name is taken.
fn set_aside_path(path: &Path) -> PathBuf {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut candidate = PathBuf::from(format!("{}.corrupt-{now}", path.display()));
    let mut counter = 1;
    while std::fs::symlink_metadata(&candidate).is_ok() {
        candidate = PathBuf::from(format!("{}.corrupt-{now}-{counter}", path.display()));
        counter += 1;
    }
    candidate
}

/// What [`list_folder`] found in a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EntryKind {
    /// A plain file.
    File,
    /// A folder (not a link to one).
    Folder,
}

/// A folder's entries, in name order: plain files and folders, and apart from them what was
/// skipped (links, pipes, sockets, devices) with what each is. Nothing is followed.
#[derive(Debug, Default)]
pub struct FolderListing {
    /// Plain files and folders.
    pub entries: Vec<(PathBuf, EntryKind)>,
    /// What is neither, with what it is.
    pub skipped: Vec<(PathBuf, &'static str)>,
}

/// Lists `folder` without following links (see [`FolderListing`]).
pub fn list_folder(folder: &Path) -> std::io::Result<FolderListing> {
    let mut listing = FolderListing::default();
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let path = entry.path();
        match kind_of(entry.file_type()?) {
            Ok(kind) => listing.entries.push((path, kind)),
            Err(what) => listing.skipped.push((path, what)),
        }
    }
    listing.entries.sort();
    listing.skipped.sort();
    Ok(listing)
}

/// The folder `root/parts[0]/parts[1]/...`, made where missing, each part checked to be a real
/// folder and not a link: whatever is written there then lands inside `root`. Fails, writing
/// nothing, when a part is a link or a file.
pub fn real_folder_within(root: &Path, parts: &[&str]) -> std::io::Result<PathBuf> {
    let mut folder = root.to_path_buf();
    std::fs::create_dir_all(&folder)?;
    for part in parts {
        folder.push(part);
        if let Err(err) = std::fs::create_dir(&folder)
            && err.kind() != std::io::ErrorKind::AlreadyExists
        {
            return Err(err);
        }
        let meta = std::fs::symlink_metadata(&folder)?;
        if !meta.file_type().is_dir() {
            let what = kind_of(meta.file_type()).err().unwrap_or("a file");
            return Err(std::io::Error::other(format!(
                "{} is {what}, not a folder, so nothing is written there",
                folder.display()
            )));
        }
    }
    Ok(folder)
}

/// Writes `bytes` into a new temporary file beside `path` (a name no file has: it is created,
/// never opened through a link), flushed to disk, and hands it to `finish`; the temporary is
/// removed if anything fails.
fn with_temporary(
    path: &Path,
    bytes: &[u8],
    finish: impl FnOnce(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("path has no file name"))?;
    let mut temp_name = OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".tmp-{}", std::process::id()));
    let temp_path = dir.join(temp_name);
    // A temporary left by a crash of an earlier process with the same number goes first.
    let _ = std::fs::remove_file(&temp_path);
    let result = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        // The player's files are the player's alone: among them are a secret (the board
        // server's) and a key (the records').
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&temp_path)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        finish(&temp_path)
    })();
    // Leave no temporary behind (after a rename it is gone already).
    let _ = std::fs::remove_file(&temp_path);
    result
}

/// Writes `value` as pretty JSON to `path` atomically: into a temporary file beside it, flushed
/// to disk, then renamed over `path`. Creates the folder if needed.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

/// Writes `bytes` to `path` atomically, replacing what is there (a link is replaced itself,
/// never written through). Creates the folder if needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    with_temporary(path, bytes, |temp| std::fs::rename(temp, path))
}

/// Writes `bytes` atomically under the first of `names` (tried in turn, each a file name in
/// `folder`) that no file has yet, and returns its path: the new file is linked into place, which
/// fails rather than replace a file that is there, so no existing file is ever overwritten.
pub fn write_new_file(
    folder: &Path,
    names: impl IntoIterator<Item = String>,
    bytes: &[u8],
) -> std::io::Result<PathBuf> {
    for name in names {
        let path = folder.join(&name);
        let placed = with_temporary(&path, bytes, |temp| match std::fs::hard_link(temp, &path) {
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => Err(err),
            // A file system without hard links: rename, after looking, as the next best.
            Err(_) if std::fs::symlink_metadata(&path).is_err() => std::fs::rename(temp, &path),
            other => other,
        });
        match placed {
            Ok(()) => return Ok(path),
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(err),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        "every name tried is taken",
    ))
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

    #[test]
    fn only_plain_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain.json");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read_plain_file(&file, 5).unwrap(), b"12345");
        assert!(matches!(
            read_plain_file(&file, 4),
            Err(ReadError::TooLarge { bytes: 5, limit: 4 })
        ));
        assert!(matches!(
            read_plain_file(&dir.path().join("none"), 4),
            Err(ReadError::NotFound)
        ));
        assert!(matches!(
            read_plain_file(dir.path(), 4),
            Err(ReadError::NotPlain("a folder"))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn links_and_pipes_are_neither_followed_nor_read() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("secret.json");
        std::fs::write(&target, b"{\"count\": 9}").unwrap();
        let link = dir.path().join("sample.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            read_plain_file(&link, 100),
            Err(ReadError::NotPlain("a link"))
        ));
        // Loading it sets the link itself aside: what it points to stays as it was.
        let loaded: Loaded<Sample> = load_json_or_default(&link);
        assert_eq!(loaded.value, Sample::default());
        assert!(loaded.warning.unwrap().contains("a link"));
        assert_eq!(std::fs::read(&target).unwrap(), b"{\"count\": 9}");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);

        // A pipe nobody writes to would block a plain open for ever.
        let pipe = dir.path().join("pipe.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(matches!(
            read_plain_file(&pipe, 100),
            Err(ReadError::NotPlain(kind)) if kind.contains("special")
        ));
        let listing = list_folder(dir.path()).unwrap();
        let mut skipped: Vec<&str> = listing.skipped.iter().map(|(_, what)| *what).collect();
        skipped.sort_unstable();
        // The link, set aside under another name, and the pipe: both skipped, neither listed.
        assert!(listing.entries.is_empty(), "{:?}", listing.entries);
        assert_eq!(
            skipped,
            ["a link", "a special file (a pipe, a socket or a device)"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn folders_for_writing_are_never_links() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let made = real_folder_within(root.path(), &["replays", "runner+normal"]).unwrap();
        assert_eq!(made, root.path().join("replays/runner+normal"));
        assert!(made.is_dir());
        std::os::unix::fs::symlink(outside.path(), root.path().join("replays/elsewhere")).unwrap();
        let refused = real_folder_within(root.path(), &["replays", "elsewhere", "ghosts"]);
        assert!(refused.unwrap_err().to_string().contains("a link"));
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_new_file_never_takes_the_name_of_one_that_is_there() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), b"kept").unwrap();
        let names = || ["a.json", "b.json"].map(str::to_owned);
        let written = write_new_file(dir.path(), names(), b"new").unwrap();
        assert_eq!(written, dir.path().join("b.json"));
        assert_eq!(std::fs::read(dir.path().join("a.json")).unwrap(), b"kept");
        assert_eq!(std::fs::read(&written).unwrap(), b"new");
        let full = write_new_file(dir.path(), names(), b"third");
        assert_eq!(full.unwrap_err().kind(), std::io::ErrorKind::AlreadyExists);
        // Nothing else was left behind: no temporary.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
