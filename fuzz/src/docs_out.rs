//! Target `docs_out`: `jerry_contracts_schema_tools::docs::write` on a directory tree built from
//! the input, with what it may and may not touch checked afterwards.
//!
//! The input is four control bytes, then a program of three-byte steps:
//!
//! - control: which directory (or link, or missing path) is the output directory, how it is
//!   spelled (as is, `DIR/`, `DIR/.`, `DIR/./`), `force` and the titles of the pages, and which of
//!   eight candidate pages (`a.md`, `sub/deep/c.md`, …) are written;
//! - steps (up to 64): make a directory; run `write` into one with some of the pages (an earlier
//!   run: its manifest, pages and directories); delete a page or take it over (marker gone);
//!   write a file with or without the generated-page marker (with the same text as a page,
//!   sometimes); write a valid manifest listing some pages and directories, or a malformed one
//!   (bad header, `../x.md`, an absolute path, a blank line, bytes that are not UTF-8, an empty or
//!   an oversized file); make a link to a directory or file of the tree, to one outside it (a
//!   marked page, a valid manifest, a directory), or a dangling one. Names come from a short list
//!   (`a.md`, `sub`, `.jerry-contracts-docs`, …), so that files, links and manifests land where
//!   pages go.
//!
//! The output directory is the tree's root half of the time, another directory of it most of the
//! rest, else a link, a path through a link, or a path not made yet.
//!
//! After `write`, whatever it answered:
//!
//! - nothing outside the tree changed (the targets of the links that lead out of it);
//! - on an error, nothing in the tree changed either (every check comes before any change);
//! - on success, every file that was there before and is now gone or different is one the
//!   manifest of the output directory listed as a page and that carried the marker (or is that
//!   manifest); every directory that is gone is one the manifest listed as made by a run; every
//!   link is still there, with the same target; and every new entry is the output directory (or
//!   one of its ancestors), its manifest, a page or a directory on the way to a page (no
//!   temporary file left, nothing written through a link: that would show as a new entry
//!   somewhere else). The pages hold their text, the manifest lists exactly them, and a second
//!   run with the same pages and no `force` succeeds and changes nothing.
//!
//! This module uses only `std` and the schema tools, so it can be checked apart from the rest of
//! the fuzz crate.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use jerry_contracts_schema_tools::docs::{self, MANIFEST, MANIFEST_HEADER, MANIFEST_LIMIT, MARKER};

/// Names the steps give files, directories and links.
const NAMES: [&str; 8] = ["a.md", "b.md", "c.md", "README.md", "sub", "deep", "notes.txt", MANIFEST];

/// The candidate pages, relative to the output directory.
const PAGES: [&str; 8] = ["a.md", "b.md", "README.md", "c.md", "sub/a.md", "sub/b.md", "sub/deep/c.md", "deep/b.md"];

/// Directories a valid manifest may list.
const DIRS: [&str; 4] = ["sub", "sub/deep", "deep", "gone"];

/// Titles of pages and of marked files: few, so that a file is often byte for byte a page.
const TITLES: [&str; 3] = ["A", "B", "Index"];

/// An entry of a tree, links not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Dir,
    File(Vec<u8>),
    Link(PathBuf),
}

/// A generated page's text.
fn page(title: &str) -> String {
    format!("{MARKER}\n# {title}\n")
}

/// Whether a file's bytes start with the marker line.
fn marked(bytes: &[u8]) -> bool {
    bytes
        .strip_prefix(MARKER.as_bytes())
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(b"\n") || rest.starts_with(b"\r\n"))
}

/// Every entry below `dir` (absolute paths), links not followed; empty when `dir` is missing.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_symlink() {
                out.insert(path.clone(), Entry::Link(fs::read_link(&path).unwrap_or_default()));
            } else if kind.is_dir() {
                out.insert(path.clone(), Entry::Dir);
                pending.push(path);
            } else {
                out.insert(path.clone(), Entry::File(fs::read(&path).unwrap_or_default()));
            }
        }
    }
    out
}

/// The pages and directories a manifest lists (read the simple way: `write` accepted it).
fn listed(manifest: &Path) -> (BTreeSet<PathBuf>, BTreeSet<PathBuf>) {
    let (mut pages, mut dirs) = (BTreeSet::new(), BTreeSet::new());
    let is_file = fs::symlink_metadata(manifest).is_ok_and(|m| m.is_file());
    let text = if is_file { fs::read_to_string(manifest).unwrap_or_default() } else { String::new() };
    let mut lines = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l));
    if lines.next() == Some(MANIFEST_HEADER) {
        for line in lines {
            if let Some(page) = line.strip_prefix("page ") {
                pages.insert(PathBuf::from(page));
            } else if let Some(dir) = line.strip_prefix("dir ") {
                dirs.insert(PathBuf::from(dir));
            }
        }
    }
    (pages, dirs)
}

/// A directory of its own below the system's temporary directory, by a path without links (as
/// `write` wants), removed when dropped (`remove_dir_all` removes links, never what they point
/// to).
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    fn new() -> Option<Self> {
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("jerry-fuzz-docs-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("the scratch directory is made");
        // The system's temporary directory may be reached through a link (`/tmp` on macOS).
        match fs::canonicalize(&path) {
            Ok(real) => Some(Self { path: real }),
            Err(_) => {
                let _ = fs::remove_dir_all(&path);
                None
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// Target `docs_out` (see the module's documentation).
#[cfg(unix)]
pub fn docs_out(data: &[u8]) {
    use std::os::unix::fs::symlink;

    let Some(scratch) = Scratch::new() else { return };
    let tree = scratch.path.join("tree");
    let outside = scratch.path.join("outside");
    fs::create_dir_all(outside.join("dir")).expect("the outside is made");
    fs::create_dir(&tree).expect("the tree's root is made");
    // Outside the tree: a marked page, a plain file, a valid manifest, a directory holding a page.
    let valid_manifest = format!("{MANIFEST_HEADER}\ndir sub\npage a.md\npage sub/a.md\n");
    fs::write(outside.join("secret.md"), page("A")).expect("written");
    fs::write(outside.join("plain.txt"), b"plain\n").expect("written");
    fs::write(outside.join(MANIFEST), &valid_manifest).expect("written");
    fs::write(outside.join("dir/a.md"), page("A")).expect("written");
    let link_targets = [outside.join("secret.md"), outside.join(MANIFEST), outside.join("dir"), outside.clone()];

    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let (choice, spelling, flags, mask) = (byte(0), byte(1), byte(2), byte(3));
    let force = flags & 1 == 1;
    let mut dirs = vec![tree.clone()];
    let mut files: Vec<PathBuf> = Vec::new();
    let mut links: Vec<PathBuf> = Vec::new();
    let mut oversized = false; // one 4 MiB manifest an input, so that an input stays fast
    for step in data.get(4..).unwrap_or_default().chunks(3).take(64) {
        let kind = step[0];
        let at = usize::from(step.get(1).copied().unwrap_or(0));
        let arg = usize::from(step.get(2).copied().unwrap_or(0));
        let dir = dirs[at % dirs.len()].clone();
        let path = dir.join(NAMES[arg % NAMES.len()]);
        let title = TITLES[(arg / 8) % TITLES.len()];
        let made = match kind % 14 {
            0 | 1 => fs::create_dir(&path).map(|()| dirs.push(path)),
            2 | 3 => fs::write(&path, page(title)).map(|()| files.push(path)),
            4 => fs::write(&path, format!("# {title}, by hand\n")).map(|()| files.push(path)),
            5 => {
                // A valid manifest, in `dir`, listing some pages and directories.
                let mut text = format!("{MANIFEST_HEADER}\n");
                for (i, page) in PAGES.iter().enumerate() {
                    if arg & (1 << i) != 0 {
                        text.push_str(&format!("page {page}\n"));
                    }
                }
                for (i, listed) in DIRS.iter().enumerate() {
                    if (kind / 14) & (1 << i) != 0 {
                        text.push_str(&format!("dir {listed}\n"));
                    }
                }
                fs::write(dir.join(MANIFEST), text)
            }
            6 => {
                let header = MANIFEST_HEADER.as_bytes();
                let malformed: Vec<u8> = match arg % 9 {
                    0 => b"# another header\npage a.md\n".to_vec(),
                    1 => [header, b"\npage ../x.md\n"].concat(),
                    2 => [header, b"\npage /abs.md\n"].concat(),
                    3 => [header, b"\npage ../outside/secret.md\n"].concat(),
                    4 => [header, b"\npage a.md\n\npage b.md\n"].concat(),
                    5 => [header, b"\npage \xff.md\n"].concat(),
                    6 => Vec::new(),
                    8 if oversized => Vec::new(),
                    7 => [header, b"\ndir ..\npage a.md\n"].concat(),
                    _ => {
                        // One byte past the limit, of valid entries.
                        oversized = true;
                        let mut big = [header, b"\n"].concat();
                        let limit = usize::try_from(MANIFEST_LIMIT).unwrap_or(usize::MAX);
                        while big.len() <= limit {
                            big.extend_from_slice(b"page a.md\n");
                        }
                        big
                    }
                };
                fs::write(dir.join(MANIFEST), malformed)
            }
            7 | 8 => {
                // An earlier run into `dir`, with some of the pages (its manifest, its pages, the
                // directories it made).
                let earlier: BTreeMap<PathBuf, String> = PAGES
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| arg & (1 << i) != 0)
                    .map(|(i, p)| (PathBuf::from(p), page(TITLES[(usize::from(kind) + i) % TITLES.len()])))
                    .collect();
                let done = docs::write(&dir, &earlier, true).map(|_| ());
                for below in ["sub", "sub/deep", "deep"] {
                    let made = dir.join(below);
                    if !dirs.contains(&made) && fs::symlink_metadata(&made).is_ok_and(|m| m.is_dir()) {
                        dirs.push(made);
                    }
                }
                done
            }
            9 => {
                // A link into the tree: to a directory or a file of it, or to `.`.
                let target = match arg % 3 {
                    0 => dirs[(arg / 3) % dirs.len()].clone(),
                    1 if !files.is_empty() => files[(arg / 3) % files.len()].clone(),
                    _ => PathBuf::from("."),
                };
                symlink(target, &path).map(|()| links.push(path))
            }
            10 => symlink(&link_targets[arg % link_targets.len()], &path).map(|()| links.push(path)),
            11 => symlink(tree.join("nowhere"), &path),
            // The user deletes a page, or takes it over (the marker line gone).
            12 => fs::remove_file(dir.join(PAGES[arg % PAGES.len()])),
            _ => fs::write(dir.join(PAGES[arg % PAGES.len()]), format!("# {title}, mine now\n")),
        };
        let _ = made; // a name made twice is simply not made again
    }

    // The output directory: a directory of the tree, a link or a path through one, or a path not
    // made yet.
    let candidates: Vec<PathBuf> = dirs
        .iter()
        .cloned()
        .chain(links.iter().cloned())
        .chain(links.iter().map(|link| link.join("sub")))
        .chain([tree.join("new/out"), tree.join("sub")])
        .collect();
    let base = match choice {
        0..=127 => tree.clone(),
        128..=207 => dirs[usize::from(choice) % dirs.len()].clone(),
        _ => candidates[usize::from(choice) % candidates.len()].clone(),
    };
    let mut spelled = OsString::from(base.as_os_str());
    spelled.push(["", "/", "/.", "/./"][usize::from(spelling) % 4]);
    let out_dir = PathBuf::from(spelled);
    let pages: BTreeMap<PathBuf, String> = PAGES
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(i, p)| (PathBuf::from(p), page(TITLES[(usize::from(flags >> 1) + i) % TITLES.len()])))
        .collect();

    let outside_before = snapshot(&outside);
    let before = snapshot(&tree);
    let (listed_pages, listed_dirs) = listed(&base.join(MANIFEST));
    let result = docs::write(&out_dir, &pages, force);
    let after = snapshot(&tree);
    assert_eq!(snapshot(&outside), outside_before, "nothing outside the tree changes ({result:?})");
    if let Err(err) = &result {
        assert_eq!(after, before, "a refusal changes nothing ({err})");
        return;
    }
    for prefix in base.ancestors() {
        let link = fs::symlink_metadata(prefix).is_ok_and(|m| m.file_type().is_symlink());
        assert!(!link, "{} is reached through the link {}, yet written into", base.display(), prefix.display());
    }
    let own_file = |path: &Path, bytes: &[u8]| {
        path == base.join(MANIFEST)
            || path.strip_prefix(&base).is_ok_and(|relative| listed_pages.contains(relative)) && marked(bytes)
    };
    for (path, old) in &before {
        let new = after.get(path);
        match old {
            Entry::File(bytes) if new != Some(old) => {
                assert!(
                    own_file(path, bytes),
                    "{} was changed or removed, yet not a listed marked page",
                    path.display()
                )
            }
            Entry::Dir if new.is_none() => assert!(
                path.strip_prefix(&base).is_ok_and(|relative| listed_dirs.contains(relative)),
                "{} was removed, yet not a listed directory",
                path.display()
            ),
            Entry::Dir => assert_eq!(new, Some(&Entry::Dir), "{} is no longer a directory", path.display()),
            Entry::Link(_) => assert_eq!(new, Some(old), "the link {} is kept as it was", path.display()),
            Entry::File(_) => {}
        }
    }
    let mut expected_new: BTreeSet<PathBuf> = base.ancestors().map(Path::to_path_buf).collect();
    expected_new.insert(base.join(MANIFEST));
    for relative in pages.keys() {
        expected_new.extend(relative.ancestors().filter(|a| !a.as_os_str().is_empty()).map(|a| base.join(a)));
    }
    for path in after.keys().filter(|p| !before.contains_key(*p)) {
        assert!(expected_new.contains(path), "{} is new, yet neither a page nor on the way to one", path.display());
    }
    for (relative, text) in &pages {
        let path = base.join(relative);
        assert_eq!(after.get(&path), Some(&Entry::File(text.clone().into_bytes())), "{}", path.display());
    }
    let (now_listed, _) = listed(&base.join(MANIFEST));
    assert_eq!(now_listed, pages.keys().cloned().collect::<BTreeSet<_>>(), "the manifest lists the pages");
    let again = docs::write(&out_dir, &pages, false).expect("a second run with the same pages succeeds");
    assert_eq!((again.written, again.removed, again.unchanged), (0, 0, pages.len()), "and changes nothing");
    assert_eq!(snapshot(&tree), after, "the second run changes nothing");
}

/// Target `docs_out` where there are no symbolic links: nothing to do.
#[cfg(not(unix))]
pub fn docs_out(_data: &[u8]) {}
