//! Opening an artifact file below the repository root (`--root`, [`super::Options::root`]) with
//! bounded cost, whatever the path and whatever is at its end:
//!
//! - The path is resolved one component at a time from an open directory (`openat`), so a path
//!   of `d` components costs `d` lookups; resolving the whole string anew (`realpath`) costs the
//!   depth of every prefix, `d²` in all.
//! - Symbolic links are followed as the kernel follows them (at most [`MAX_LINKS`], then "too
//!   many levels of symbolic links"), and the physical path is tracked, so a path that leads
//!   outside the root is told and never opened.
//! - Only a regular file is opened: its own entry is read first (never opening a FIFO, a device or
//!   a socket, which could block or act), the file is opened non-blocking and without following a
//!   link, and the opened handle is checked again (a file swapped in between is refused).

use std::fs::File;
use std::path::{Path, PathBuf};

/// The most symbolic links one path may pass through (the kernel's own limit, `MAXSYMLINKS`).
pub(super) const MAX_LINKS: usize = 40;

/// A regular file opened below the root.
#[derive(Debug)]
pub(super) struct Opened {
    /// The open file.
    pub(super) file: File,
    /// Its size, from the opened handle.
    pub(super) len: u64,
    /// Its physical path (every link resolved).
    pub(super) real: PathBuf,
}

/// Why an artifact was not opened.
#[derive(Debug)]
pub(super) enum Refusal {
    /// Nothing is there, or a component on the way is not a directory.
    Missing(String),
    /// The path leads outside the root (through a symbolic link): the physical path.
    Outside(PathBuf),
    /// Something other than a regular file is there: what it is.
    NotRegular(&'static str),
    /// The file system refused a step.
    Io(String),
}

/// Opens the regular file at `relative` (a repository-relative path, `/`-separated) below `root`
/// (the root's canonical path).
#[cfg(unix)]
pub(super) fn open(root: &Path, relative: &str) -> Result<Opened, Refusal> {
    use std::collections::VecDeque;
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;

    use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags, fstat, openat, readlinkat, statat};

    // A directory is opened only to look up names in it.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let directory = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let directory = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let io = |step: &str, err: rustix::io::Errno| Refusal::Io(format!("{step}: {}", std::io::Error::from(err)));

    let mut dir = openat(CWD, root, directory, Mode::empty()).map_err(|e| io("the root cannot be opened", e))?;
    let base: Vec<OsString> = root.iter().skip(1).map(OsString::from).collect();
    let mut real = base.clone();
    let mut pending: VecDeque<OsString> = relative.split('/').map(OsString::from).collect();
    let mut links = 0;
    while let Some(name) = pending.pop_front() {
        if name.is_empty() || name == "." {
            continue;
        }
        if name == ".." {
            // The physical parent: where `..` leads after a link is the link target's parent.
            dir = openat(&dir, "..", directory, Mode::empty()).map_err(|e| io("a parent cannot be opened", e))?;
            real.pop();
            continue;
        }
        let stat = match statat(&dir, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => stat,
            Err(rustix::io::Errno::NOENT) => {
                return Err(Refusal::Missing(format!("does not exist under {}", root.display())));
            }
            Err(err) => return Err(io(&format!("{} cannot be looked up", Path::new(&name).display()), err)),
        };
        let last = pending.is_empty();
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::Symlink => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(Refusal::Io(format!("passes through more than {MAX_LINKS} symbolic links")));
                }
                let target = readlinkat(&dir, name.as_os_str(), Vec::new())
                    .map_err(|e| io("a symbolic link cannot be read", e))?
                    .into_bytes();
                if target.starts_with(b"/") {
                    dir = openat(CWD, "/", directory, Mode::empty()).map_err(|e| io("/ cannot be opened", e))?;
                    real.clear();
                }
                for part in target.split(|b| *b == b'/').rev() {
                    pending.push_front(OsString::from_vec(part.to_vec()));
                }
            }
            FileType::Directory if !last => {
                dir = openat(&dir, name.as_os_str(), directory, Mode::empty())
                    .map_err(|e| io(&format!("{} cannot be opened", Path::new(&name).display()), e))?;
                real.push(name);
            }
            _ if !last => {
                return Err(Refusal::Missing(format!(
                    "does not exist under {}: {} is not a directory",
                    root.display(),
                    Path::new(&name).display()
                )));
            }
            kind => {
                real.push(name);
                let physical: PathBuf = std::iter::once(OsString::from("/")).chain(real.iter().cloned()).collect();
                if !real.starts_with(&base) {
                    return Err(Refusal::Outside(physical));
                }
                if kind != FileType::RegularFile {
                    return Err(Refusal::NotRegular(self::kind(kind)));
                }
                let Some(name) = real.last() else { return Err(Refusal::NotRegular("a directory")) };
                let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::CLOEXEC;
                let fd = openat(&dir, name.as_os_str(), flags, Mode::empty()).map_err(|e| io("cannot be opened", e))?;
                let opened = fstat(&fd).map_err(|e| io("cannot be examined", e))?;
                if FileType::from_raw_mode(opened.st_mode) != FileType::RegularFile {
                    return Err(Refusal::NotRegular("no longer a regular file when opened"));
                }
                let len = u64::try_from(opened.st_size).unwrap_or(0);
                return Ok(Opened { file: File::from(fd), len, real: physical });
            }
        }
    }
    // The path ended on a directory (a link to one, or `..`): outside the root, or not a file.
    if !real.starts_with(&base) {
        return Err(Refusal::Outside(std::iter::once(OsString::from("/")).chain(real).collect()));
    }
    Err(Refusal::NotRegular("a directory"))
}

/// What a file of type `kind` is, in words.
#[cfg(unix)]
fn kind(kind: rustix::fs::FileType) -> &'static str {
    use rustix::fs::FileType;
    match kind {
        FileType::Directory => "a directory",
        FileType::Fifo => "a FIFO",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Socket => "a socket",
        _ => "not a regular file",
    }
}

/// Opens the regular file at `relative` below `root` (elsewhere than Unix: resolved whole).
#[cfg(not(unix))]
pub(super) fn open(root: &Path, relative: &str) -> Result<Opened, Refusal> {
    let real = match root.join(relative).canonicalize() {
        Ok(real) => real,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Err(Refusal::Missing(format!("does not exist under {}", root.display())));
        }
        Err(err) => return Err(Refusal::Io(format!("cannot be resolved: {err}"))),
    };
    if !real.starts_with(root) {
        return Err(Refusal::Outside(real));
    }
    let metadata = std::fs::metadata(&real).map_err(|err| Refusal::Io(err.to_string()))?;
    if !metadata.is_file() {
        return Err(Refusal::NotRegular(if metadata.is_dir() { "a directory" } else { "not a regular file" }));
    }
    let file = File::open(&real).map_err(|err| Refusal::Io(format!("cannot be opened: {err}")))?;
    let len = file.metadata().map_err(|err| Refusal::Io(err.to_string()))?.len();
    Ok(Opened { file, len, real })
}
