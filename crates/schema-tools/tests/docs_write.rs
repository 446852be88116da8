//! `docs::write` touches only what it wrote: the pages its manifest (`.jerry-contracts-docs` in the
//! output directory) lists that still carry the generated-page marker, and the empty directories
//! the manifest says a run made. It never searches the directory, never follows a symbolic link
//! (at the output directory, any of its ancestors, or below it), reads the manifest as hostile
//! input, refuses a foreign directory unless forced (and even then overwrites nothing), and writes
//! each page atomically.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::collections::BTreeMap;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use jerry_contracts_schema_tools::docs::{self, MANIFEST, MANIFEST_HEADER, MANIFEST_LIMIT, MARKER, Written};

/// A generated page: the marker, then a heading.
fn page(title: &str) -> String {
    format!("{MARKER}\n# {title}\n")
}

fn pages(entries: &[(&str, &str)]) -> BTreeMap<PathBuf, String> {
    entries.iter().map(|(path, title)| (PathBuf::from(path), page(title))).collect()
}

/// A throw-away directory, by a path without links (the system's temporary directory may be
/// reached through one, as `/tmp` is on macOS, and `write` refuses links at every ancestor).
fn scratch() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap();
    (dir, path)
}

/// Every entry below `dir`, relative, with `/` after directories; links are listed, not followed.
fn tree(dir: &Path) -> Vec<String> {
    snapshot(dir).into_iter().map(|(path, entry)| if entry == Entry::Dir { format!("{path}/") } else { path }).collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Dir,
    File(Vec<u8>),
    Link(PathBuf),
}

/// Every entry below `dir` with its content (a file's bytes, a link's target), links not followed.
fn snapshot(dir: &Path) -> BTreeMap<String, Entry> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Entry>) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let relative = path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                out.insert(relative, Entry::Dir);
                walk(base, &path, out);
            } else if kind.is_symlink() {
                out.insert(relative, Entry::Link(fs::read_link(&path).unwrap()));
            } else {
                out.insert(relative, Entry::File(fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The manifest of `out`.
fn manifest(out: &Path) -> String {
    fs::read_to_string(out.join(MANIFEST)).unwrap()
}

/// A manifest's text: the header, then `entries` a line each.
fn manifest_of(entries: &[&str]) -> String {
    let mut text = format!("{MANIFEST_HEADER}\n");
    for entry in entries {
        text.push_str(entry);
        text.push('\n');
    }
    text
}

#[test]
fn the_manifest_lists_the_pages_and_the_directories_a_run_made() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    fs::create_dir_all(out.join("there")).unwrap();
    let first = pages(&[("a.md", "A"), ("sub/deep/b.md", "B"), ("there/c.md", "C")]);

    // Not empty (`there`) and no manifest yet: force.
    docs::write(&out, &first, true).unwrap();

    // `there` was there already: not listed, so never removed by a run.
    let expected = ["dir sub", "dir sub/deep", "page a.md", "page sub/deep/b.md", "page there/c.md"];
    assert_eq!(manifest(&out), manifest_of(&expected));
    // Unchanged pages leave the manifest as it is, and a manifest with CRLF line ends is read.
    fs::write(out.join(MANIFEST), manifest_of(&expected).replace('\n', "\r\n")).unwrap();
    assert_eq!(docs::write(&out, &first, false).unwrap(), Written { written: 0, unchanged: 3, removed: 0 });
    assert_eq!(manifest(&out), manifest_of(&expected));
}

#[test]
fn unrelated_markdown_survives() {
    let (_dir, out) = scratch();
    let first = pages(&[("a.md", "A"), ("sub/b.md", "B")]);
    docs::write(&out, &first, false).unwrap();
    fs::write(out.join("notes.md"), "# My notes\n").unwrap();
    fs::write(out.join("sub/notes.md"), "# More notes\n").unwrap();
    // A file that mentions the marker below its first line is not generated either.
    fs::write(out.join("quoted.md"), format!("# Quoting\n{MARKER}\n")).unwrap();

    let written = docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();

    assert_eq!(fs::read_to_string(out.join("notes.md")).unwrap(), "# My notes\n");
    assert_eq!(fs::read_to_string(out.join("sub/notes.md")).unwrap(), "# More notes\n");
    assert!(out.join("quoted.md").exists());
    assert!(!out.join("sub/b.md").exists(), "the stale generated page is removed");
    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 1 });
    // `sub` was made by the first run, but it is not empty: kept, and still listed.
    assert_eq!(manifest(&out), manifest_of(&["dir sub", "page a.md"]));
}

#[test]
fn another_runs_output_below_the_directory_is_left_alone() {
    let (_dir, root) = scratch();
    let out = root.join("work");
    docs::write(&out, &pages(&[("a.md", "A"), ("b.md", "B")]), false).unwrap();
    // Another checkout below the output directory, with its own generated reference.
    let other = out.join("checkout/docs/schemas");
    docs::write(&other, &pages(&[("README.md", "Other index"), ("agents/x.md", "X")]), false).unwrap();
    let before = snapshot(&out.join("checkout"));

    let written = docs::write(&out, &pages(&[("a.md", "A2")]), false).unwrap();

    assert_eq!(snapshot(&out.join("checkout")), before, "nothing of the other run is deleted or modified");
    assert_eq!(written, Written { written: 1, unchanged: 0, removed: 1 });
    assert_eq!(manifest(&out), manifest_of(&["page a.md"]));
}

#[test]
fn the_parent_of_a_reference_needs_force_and_the_reference_is_left_alone() {
    // `docs --out docs` where `docs --out docs/schemas` was meant.
    let (_dir, root) = scratch();
    let docs_dir = root.join("docs");
    let reference = docs_dir.join("schemas");
    let wanted = pages(&[("README.md", "Index"), ("agents/a.md", "A")]);
    docs::write(&reference, &wanted, false).unwrap();
    fs::write(docs_dir.join("guide.md"), "# Guide\n").unwrap();
    let before = snapshot(&docs_dir);

    let err = docs::write(&docs_dir, &wanted, false).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    assert!(err.to_string().contains(&docs_dir.display().to_string()), "{err}");
    assert_eq!(snapshot(&docs_dir), before, "nothing is written on a refusal");

    let written = docs::write(&docs_dir, &wanted, true).unwrap();
    assert_eq!(written, Written { written: 2, unchanged: 0, removed: 0 });
    let after = snapshot(&docs_dir);
    for (path, entry) in &before {
        assert_eq!(after.get(path), Some(entry), "{path} is untouched");
    }
    assert_eq!(fs::read_to_string(docs_dir.join("agents/a.md")).unwrap(), page("A"));
    assert_eq!(manifest(&docs_dir), manifest_of(&["dir agents", "page README.md", "page agents/a.md"]));
}

#[cfg(unix)]
#[test]
fn linked_directories_are_not_followed() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    let outside = root.join("outside");
    fs::create_dir(&outside).unwrap();
    // Even a file that looks generated is out of reach behind a link.
    fs::write(outside.join("victim.md"), page("Victim")).unwrap();
    fs::write(outside.join("plain.md"), "# Plain\n").unwrap();
    docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("link")).unwrap();

    docs::write(&out, &pages(&[("a.md", "A"), ("b.md", "B")]), false).unwrap();

    assert_eq!(fs::read_to_string(outside.join("victim.md")).unwrap(), page("Victim"));
    assert_eq!(fs::read_to_string(outside.join("plain.md")).unwrap(), "# Plain\n");
    assert!(fs::symlink_metadata(out.join("link")).unwrap().file_type().is_symlink(), "the link itself is kept");
}

#[cfg(unix)]
#[test]
fn a_listed_page_behind_a_link_is_not_removed() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    let outside = root.join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("b.md"), page("B")).unwrap();
    fs::write(outside.join("c.md"), page("C")).unwrap();
    docs::write(&out, &pages(&[("a.md", "A"), ("sub/b.md", "B"), ("c.md", "C")]), false).unwrap();
    // The listed `sub` becomes a link to a directory holding a page of the same name, and the
    // listed `c.md` a link to a marked page.
    fs::remove_dir_all(out.join("sub")).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("sub")).unwrap();
    fs::remove_file(out.join("c.md")).unwrap();
    std::os::unix::fs::symlink(outside.join("c.md"), out.join("c.md")).unwrap();

    let written = docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();

    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 0 });
    assert_eq!(tree(&outside), ["b.md", "c.md"]);
    assert_eq!(tree(&out), [MANIFEST, "a.md", "c.md", "sub"], "the links are kept");
    assert_eq!(manifest(&out), manifest_of(&["page a.md"]), "and no longer listed");
}

#[cfg(unix)]
#[test]
fn a_link_at_a_page_path_is_refused() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    let outside = root.join("secret.md");
    // The target carries the marker: the link is refused all the same.
    fs::write(&outside, page("Secret")).unwrap();
    docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("b.md")).unwrap();

    let err = docs::write(&out, &pages(&[("a.md", "A changed"), ("b.md", "B")]), false).unwrap_err();

    assert!(err.to_string().contains("b.md"), "the error names the link: {err}");
    assert_eq!(fs::read_to_string(&outside).unwrap(), page("Secret"));
    assert!(fs::symlink_metadata(out.join("b.md")).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(out.join("a.md")).unwrap(), page("A"), "nothing is written on a refusal");
    // Not with force either.
    assert!(docs::write(&out, &pages(&[("b.md", "B")]), true).is_err());
    assert_eq!(fs::read_to_string(&outside).unwrap(), page("Secret"));
}

#[cfg(unix)]
#[test]
fn a_linked_directory_on_a_page_path_is_refused() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    let outside = root.join("outside");
    fs::create_dir(&outside).unwrap();
    docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("sub")).unwrap();

    let err = docs::write(&out, &pages(&[("a.md", "A"), ("sub/b.md", "B")]), true).unwrap_err();

    assert!(err.to_string().contains("sub"), "the error names the link: {err}");
    assert!(tree(&outside).is_empty(), "nothing written through the link: {:?}", tree(&outside));
}

#[cfg(unix)]
#[test]
fn a_link_anywhere_in_the_output_path_is_refused_however_spelled() {
    let (_dir, root) = scratch();
    let real = root.join("real");
    fs::create_dir_all(real.join("sub")).unwrap();
    let link = root.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let spelled = |text: String| PathBuf::from(text);
    let shown = link.display().to_string();
    let spellings = [
        link.clone(),
        spelled(format!("{shown}/")),
        spelled(format!("{shown}/.")),
        spelled(format!("{shown}/./")),
        link.join("sub"),
        spelled(format!("{shown}/sub/")),
        link.join("missing/dir"),
        spelled(format!("{shown}/../link/sub")),
    ];

    for out in &spellings {
        for force in [false, true] {
            let err = docs::write(out, &pages(&[("a.md", "A")]), force).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput, "{}: {err}", out.display());
            assert!(err.to_string().contains("symbolic link"), "{}: {err}", out.display());
            assert!(err.to_string().starts_with(&format!("{shown}:")), "the error names the link: {err}");
        }
    }
    assert_eq!(tree(&real), ["sub/"], "nothing written in the link's target");
}

#[cfg(unix)]
#[test]
fn link_cycles_trap_nothing() {
    let (_dir, out) = scratch();
    docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    std::os::unix::fs::symlink(".", out.join("self")).unwrap();
    std::os::unix::fs::symlink(".", out.join("again")).unwrap();

    // On a thread, so a regression shows as this test not finishing rather than as a stack
    // overflow taking the whole test binary down.
    let worker = out.clone();
    let result = std::thread::spawn(move || docs::write(&worker, &pages(&[("b.md", "B")]), false)).join();

    let written = result.expect("write does not panic").unwrap();
    assert_eq!(tree(&out), [MANIFEST, "again", "b.md", "self"]);
    assert_eq!(written, Written { written: 1, unchanged: 0, removed: 1 });
}

#[test]
fn a_foreign_directory_needs_force_and_force_overwrites_nothing() {
    let (_dir, out) = scratch();
    fs::write(out.join("keep.txt"), "mine\n").unwrap();
    fs::write(out.join("README.md"), "# Someone else's readme\n").unwrap();
    let wanted = pages(&[("README.md", "Index"), ("a.md", "A")]);

    let err = docs::write(&out, &wanted, false).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    assert!(err.to_string().contains(&out.display().to_string()), "{err}");
    assert_eq!(tree(&out), ["README.md", "keep.txt"], "nothing is written on a refusal");

    // With force: a file at a page's path is still not overwritten.
    let err = docs::write(&out, &wanted, true).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
    assert!(err.to_string().contains("README.md"), "{err}");
    assert!(err.to_string().contains("was not written by `jerry-contracts docs` here"), "{err}");
    assert!(err.to_string().contains("move it away"), "{err}");
    assert_eq!(tree(&out), ["README.md", "keep.txt"], "nothing is written on a refusal");

    // Once it is moved away, force writes the pages and leaves the rest.
    fs::rename(out.join("README.md"), out.join("README.old")).unwrap();
    let written = docs::write(&out, &wanted, true).unwrap();
    assert_eq!(written, Written { written: 2, unchanged: 0, removed: 0 });
    assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), page("Index"));
    assert_eq!(fs::read_to_string(out.join("keep.txt")).unwrap(), "mine\n");

    // Now the directory has a manifest: no force needed.
    assert_eq!(docs::write(&out, &wanted, false).unwrap(), Written { written: 0, unchanged: 2, removed: 0 });
    assert_eq!(tree(&out), [MANIFEST, "README.md", "README.old", "a.md", "keep.txt"]);
}

#[test]
fn a_file_without_the_marker_at_a_page_path_is_not_overwritten() {
    let (_dir, out) = scratch();
    docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    fs::write(out.join("b.md"), "# Hand-written\n").unwrap();

    for force in [false, true] {
        let err = docs::write(&out, &pages(&[("a.md", "A changed"), ("b.md", "B")]), force).unwrap_err();

        assert!(err.to_string().contains("b.md"), "the error names the file: {err}");
        assert_eq!(fs::read_to_string(out.join("b.md")).unwrap(), "# Hand-written\n");
        assert_eq!(fs::read_to_string(out.join("a.md")).unwrap(), page("A"), "nothing is written on a refusal");
    }
}

#[test]
fn a_marked_page_the_manifest_does_not_list_is_never_removed_or_overwritten() {
    let (_dir, out) = scratch();
    docs::write(&out, &pages(&[("a.md", "A"), ("b.md", "B")]), false).unwrap();
    // Marked pages this run did not write: copied in, or another tool's.
    fs::write(out.join("copied.md"), page("Copied")).unwrap();
    fs::create_dir(out.join("elsewhere")).unwrap();
    fs::write(out.join("elsewhere/c.md"), page("C")).unwrap();

    let written = docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();

    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 1 }, "only the listed b.md is removed");
    assert_eq!(fs::read_to_string(out.join("copied.md")).unwrap(), page("Copied"));
    assert_eq!(fs::read_to_string(out.join("elsewhere/c.md")).unwrap(), page("C"));

    // Nor overwritten, force or not, marked or not.
    for force in [false, true] {
        let err = docs::write(&out, &pages(&[("a.md", "A"), ("copied.md", "New")]), force).unwrap_err();
        assert!(err.to_string().contains("copied.md"), "{err}");
        assert!(err.to_string().contains("was not written by `jerry-contracts docs` here"), "{err}");
        assert_eq!(fs::read_to_string(out.join("copied.md")).unwrap(), page("Copied"));
    }

    // A file that already is the page, byte for byte, is adopted: unchanged, and listed.
    let written = docs::write(&out, &pages(&[("a.md", "A"), ("copied.md", "Copied")]), false).unwrap();
    assert_eq!(written, Written { written: 0, unchanged: 2, removed: 0 });
    assert_eq!(manifest(&out), manifest_of(&["page a.md", "page copied.md"]));
    // From then on it is a page like any other.
    let written = docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 1 });
    assert!(!out.join("copied.md").exists());
}

#[test]
fn a_listed_page_whose_marker_was_removed_is_neither_overwritten_nor_removed() {
    let (_dir, out) = scratch();
    docs::write(&out, &pages(&[("a.md", "A"), ("b.md", "B"), ("c.md", "C")]), false).unwrap();
    // The user takes two pages over: the marker line is gone.
    fs::write(out.join("b.md"), "# B, mine now\n").unwrap();
    fs::write(out.join("c.md"), "# C, mine now\n").unwrap();
    let before = snapshot(&out);

    for force in [false, true] {
        let err = docs::write(&out, &pages(&[("a.md", "A"), ("b.md", "B2")]), force).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::AlreadyExists);
        assert!(err.to_string().contains("b.md") && err.to_string().contains("marker"), "{err}");
        assert_eq!(snapshot(&out), before, "nothing is written or removed on a refusal");
    }

    let written = docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 0 });
    assert_eq!(fs::read_to_string(out.join("b.md")).unwrap(), "# B, mine now\n");
    assert_eq!(fs::read_to_string(out.join("c.md")).unwrap(), "# C, mine now\n");
    assert_eq!(manifest(&out), manifest_of(&["page a.md"]), "they are no longer listed");
}

#[test]
fn a_malformed_manifest_is_refused_and_nothing_changes() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    docs::write(&out, &pages(&[("a.md", "A"), ("sub/b.md", "B")]), false).unwrap();
    // A marked page outside, which a manifest naming `../victim.md` would reach.
    fs::write(root.join("victim.md"), page("Victim")).unwrap();
    let valid = manifest(&out);
    let header = format!("{MANIFEST_HEADER}\n");
    let mut oversize = header.clone();
    while oversize.len() as u64 <= MANIFEST_LIMIT {
        oversize.push_str("page a.md\n");
    }
    let cases: Vec<(&str, Vec<u8>, Option<usize>)> = vec![
        ("empty", Vec::new(), Some(1)),
        ("another header", b"# some other manifest\npage a.md\n".to_vec(), Some(1)),
        ("header with a space more", format!("{MANIFEST_HEADER} \npage a.md\n").into_bytes(), Some(1)),
        ("parent", format!("{header}page a.md\npage ../victim.md\n").into_bytes(), Some(3)),
        ("absolute", format!("{header}page /abs.md\n").into_bytes(), Some(2)),
        ("absolute victim", format!("{header}page {}\n", root.join("victim.md").display()).into_bytes(), Some(2)),
        ("dot", format!("{header}page ./a.md\n").into_bytes(), Some(2)),
        ("inner parent", format!("{header}page sub/../a.md\n").into_bytes(), Some(2)),
        ("empty name", format!("{header}page sub//b.md\n").into_bytes(), Some(2)),
        ("backslash", format!("{header}page sub\\b.md\n").into_bytes(), Some(2)),
        ("not a page", format!("{header}page a.txt\n").into_bytes(), Some(2)),
        ("no path", format!("{header}page\n").into_bytes(), Some(2)),
        ("empty path", format!("{header}dir \n").into_bytes(), Some(2)),
        ("parent dir", format!("{header}dir ..\n").into_bytes(), Some(2)),
        ("unknown kind", format!("{header}file a.md\n").into_bytes(), Some(2)),
        ("blank line", format!("{header}page a.md\n\npage sub/b.md\n").into_bytes(), Some(3)),
        ("not UTF-8", [header.as_bytes(), b"page a.md\npage \xff.md\n"].concat(), Some(3)),
        ("oversize", oversize.into_bytes(), None),
    ];
    let wanted = pages(&[("a.md", "A2"), ("c.md", "C")]);
    let manifest_path = out.join(MANIFEST);
    for (name, bytes, line) in cases {
        fs::write(&manifest_path, &bytes).unwrap();
        let before = snapshot(&root);
        for force in [false, true] {
            let err = docs::write(&out, &wanted, force).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidData, "{name}: {err}");
            let message = err.to_string();
            assert!(message.starts_with(&manifest_path.display().to_string()), "{name}: names the file: {err}");
            if let Some(line) = line {
                assert!(message.contains(&format!(": line {line}:")), "{name}: names line {line}: {err}");
            }
            assert_eq!(snapshot(&root), before, "{name}: nothing is written or removed");
        }
    }
    // Not a regular file.
    fs::remove_file(&manifest_path).unwrap();
    fs::create_dir(&manifest_path).unwrap();
    let err = docs::write(&out, &wanted, true).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidData, "{err}");
    fs::remove_dir(&manifest_path).unwrap();
    // A link to a valid manifest.
    #[cfg(unix)]
    {
        let elsewhere = root.join("manifest-elsewhere");
        fs::write(&elsewhere, &valid).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &manifest_path).unwrap();
        let before = snapshot(&root);
        let err = docs::write(&out, &wanted, true).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidData, "{err}");
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(snapshot(&root), before, "nothing is written or removed");
        fs::remove_file(&manifest_path).unwrap();
    }
    // The valid manifest back: the run goes through.
    fs::write(&manifest_path, &valid).unwrap();
    assert_eq!(docs::write(&out, &wanted, false).unwrap(), Written { written: 2, unchanged: 0, removed: 1 });
    assert_eq!(fs::read_to_string(root.join("victim.md")).unwrap(), page("Victim"));
}

#[test]
fn only_the_directories_a_run_made_are_removed_when_empty() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    // Directories the user made before any run: one empty, one that a page will go into.
    fs::create_dir_all(out.join("empty")).unwrap();
    fs::create_dir_all(out.join("mine")).unwrap();
    let first = pages(&[("a.md", "A"), ("mine/b.md", "B"), ("gen/deep/c.md", "C"), ("gen2/d.md", "D")]);
    docs::write(&out, &first, true).unwrap();
    // The user deletes a page, leaving a directory a run made empty.
    fs::remove_file(out.join("gen2/d.md")).unwrap();

    let written = docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();

    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 2 });
    assert_eq!(tree(&out), [MANIFEST, "a.md", "empty/", "mine/"], "the user's directories stay, empty or not");
    assert_eq!(manifest(&out), manifest_of(&["page a.md"]));
}

#[test]
fn an_empty_or_missing_directory_needs_no_force() {
    let (_dir, root) = scratch();
    assert_eq!(
        docs::write(&root, &pages(&[("a.md", "A")]), false).unwrap(),
        Written { written: 1, unchanged: 0, removed: 0 }
    );
    let missing = root.join("x/y");
    docs::write(&missing, &pages(&[("z/a.md", "A")]), false).unwrap();
    assert_eq!(fs::read_to_string(missing.join("z/a.md")).unwrap(), page("A"));
    // `x` and `y` are the output directory and its ancestor, not directories below it.
    assert_eq!(manifest(&missing), manifest_of(&["dir z", "page z/a.md"]));
}

#[test]
fn stale_pages_and_the_directories_they_leave_empty_are_removed() {
    let (_dir, out) = scratch();
    let first = pages(&[("a.md", "A"), ("old/deep/b.md", "B"), ("kept/c.md", "C")]);
    docs::write(&out, &first, false).unwrap();
    fs::write(out.join("kept/notes.md"), "mine\n").unwrap();

    let written = docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();

    assert_eq!(tree(&out), [MANIFEST, "a.md", "kept/", "kept/notes.md"]);
    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 2 });
    assert_eq!(manifest(&out), manifest_of(&["dir kept", "page a.md"]));
}

#[test]
fn rewrites_replace_the_file_and_leave_no_temporary_files() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    docs::write(&out, &pages(&[("a.md", "A"), ("sub/b.md", "B")]), false).unwrap();
    // A second name for the page's file, outside: a rewrite in place would change it too.
    let other_name = root.join("hard-link.md");
    fs::hard_link(out.join("a.md"), &other_name).unwrap();
    // A leftover with the name the first temporary file would take is neither used nor removed.
    let leftover = format!(".a.md.tmp-{}-0", std::process::id());
    fs::write(out.join(&leftover), "leftover\n").unwrap();

    let written = docs::write(&out, &pages(&[("a.md", "A2"), ("sub/b.md", "B")]), false).unwrap();

    assert_eq!(fs::read_to_string(out.join("a.md")).unwrap(), page("A2"));
    assert_eq!(fs::read_to_string(&other_name).unwrap(), page("A"), "the file was replaced, not written into");
    assert_eq!(fs::read_to_string(out.join(&leftover)).unwrap(), "leftover\n");
    assert_eq!(tree(&out), [leftover.as_str(), MANIFEST, "a.md", "sub/", "sub/b.md"]);
    assert_eq!(written, Written { written: 1, unchanged: 1, removed: 0 });
}

#[test]
fn page_paths_stay_below_the_output_directory() {
    let (_dir, root) = scratch();
    let out = root.join("out");
    let bad_paths = ["../escape.md", "/abs.md", "a.txt", "sub/../x.md", "./x.md", "a\\b.md", "a\nb.md"];
    for bad in bad_paths.into_iter().chain([".jerry-contracts-docs/x.md"]) {
        let mut wanted = BTreeMap::new();
        wanted.insert(PathBuf::from(bad), page("X"));
        let err = docs::write(&out, &wanted, true).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{bad} is refused: {err}");
    }
    // A page cannot also be a directory of another.
    let clash = pages(&[("a.md", "A"), ("a.md/b.md", "B")]);
    assert!(docs::write(&out, &clash, true).unwrap_err().to_string().contains("a.md/b.md"));
    // A page must carry the marker, or a later run could not tell it is generated.
    let mut unmarked = BTreeMap::new();
    unmarked.insert(PathBuf::from("a.md"), "# A\n".to_owned());
    assert!(docs::write(&out, &unmarked, true).unwrap_err().to_string().contains("marker"));
    assert!(!root.join("escape.md").exists());
    assert!(!out.exists(), "a refusal does not even create the output directory");
}
