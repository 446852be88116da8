//! `docs::write` touches only what it generated: files carrying the generated-page marker. It never
//! follows a symbolic link, refuses a foreign directory unless forced, writes each page
//! atomically, and removes stale pages with the directories that leaves empty.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use jerry_contracts_schema_tools::docs::{self, MARKER, Written};

/// A generated page: the marker, then a heading.
fn page(title: &str) -> String {
    format!("{MARKER}\n# {title}\n")
}

fn pages(entries: &[(&str, &str)]) -> BTreeMap<PathBuf, String> {
    entries.iter().map(|(path, title)| (PathBuf::from(path), page(title))).collect()
}

/// Every entry below `dir`, relative, with `/` after directories; links are listed, not followed.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let relative = entry.path().strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            if entry.file_type().unwrap().is_dir() {
                out.push(format!("{relative}/"));
                walk(base, &entry.path(), out);
            } else {
                out.push(relative);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn unrelated_markdown_survives() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let first = pages(&[("a.md", "A"), ("sub/b.md", "B")]);
    docs::write(out, &first, false).unwrap();
    fs::write(out.join("notes.md"), "# My notes\n").unwrap();
    fs::write(out.join("sub/notes.md"), "# More notes\n").unwrap();
    // A file that mentions the marker below its first line is not generated either.
    fs::write(out.join("quoted.md"), format!("# Quoting\n{MARKER}\n")).unwrap();

    let written = docs::write(out, &pages(&[("a.md", "A")]), false).unwrap();

    assert_eq!(fs::read_to_string(out.join("notes.md")).unwrap(), "# My notes\n");
    assert_eq!(fs::read_to_string(out.join("sub/notes.md")).unwrap(), "# More notes\n");
    assert!(out.join("quoted.md").exists());
    assert!(!out.join("sub/b.md").exists(), "the stale generated page is removed");
    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 1 });
}

#[cfg(unix)]
#[test]
fn linked_directories_are_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let outside = dir.path().join("outside");
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
fn a_link_at_a_page_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let outside = dir.path().join("secret.md");
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
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let outside = dir.path().join("outside");
    fs::create_dir(&outside).unwrap();
    docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("sub")).unwrap();

    let err = docs::write(&out, &pages(&[("a.md", "A"), ("sub/b.md", "B")]), true).unwrap_err();

    assert!(err.to_string().contains("sub"), "the error names the link: {err}");
    assert!(tree(&outside).is_empty(), "nothing written through the link: {:?}", tree(&outside));
}

#[cfg(unix)]
#[test]
fn a_linked_output_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    fs::create_dir(&real).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();

    let err = docs::write(&link, &pages(&[("a.md", "A")]), true).unwrap_err();

    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert!(tree(&real).is_empty());
}

#[cfg(unix)]
#[test]
fn link_cycles_do_not_trap_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_owned();
    docs::write(&out, &pages(&[("a.md", "A")]), false).unwrap();
    std::os::unix::fs::symlink(".", out.join("self")).unwrap();
    std::os::unix::fs::symlink(".", out.join("again")).unwrap();

    // On a thread, so a regression shows as this test not finishing rather than as a stack
    // overflow taking the whole test binary down.
    let worker = out.clone();
    let result = std::thread::spawn(move || docs::write(&worker, &pages(&[("b.md", "B")]), false)).join();

    let written = result.expect("write does not panic").unwrap();
    assert_eq!(tree(&out), ["again", "b.md", "self"]);
    assert_eq!(written, Written { written: 1, unchanged: 0, removed: 1 });
}

#[test]
fn a_foreign_directory_needs_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    fs::write(out.join("keep.txt"), "mine\n").unwrap();
    fs::write(out.join("README.md"), "# Someone else's readme\n").unwrap();
    let wanted = pages(&[("README.md", "Index"), ("a.md", "A")]);

    let err = docs::write(out, &wanted, false).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    assert!(err.to_string().contains(&out.display().to_string()), "{err}");
    assert_eq!(tree(out), ["README.md", "keep.txt"], "nothing is written on a refusal");

    // With force: pages go in, a page-path file without the marker is overwritten, the rest stays.
    let written = docs::write(out, &wanted, true).unwrap();
    assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), page("Index"));
    assert_eq!(fs::read_to_string(out.join("keep.txt")).unwrap(), "mine\n");

    // Now the directory holds generated pages: no force needed.
    assert_eq!(docs::write(out, &wanted, false).unwrap(), Written { written: 0, unchanged: 2, removed: 0 });
    assert_eq!(written, Written { written: 2, unchanged: 0, removed: 0 });
}

#[test]
fn a_file_without_the_marker_at_a_page_path_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    docs::write(out, &pages(&[("a.md", "A")]), false).unwrap();
    fs::write(out.join("b.md"), "# Hand-written\n").unwrap();

    let err = docs::write(out, &pages(&[("a.md", "A changed"), ("b.md", "B")]), false).unwrap_err();

    assert!(err.to_string().contains("b.md"), "the error names the file: {err}");
    assert_eq!(fs::read_to_string(out.join("b.md")).unwrap(), "# Hand-written\n");
    assert_eq!(fs::read_to_string(out.join("a.md")).unwrap(), page("A"), "nothing is written on a refusal");
}

#[test]
fn an_empty_or_missing_directory_needs_no_force() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        docs::write(dir.path(), &pages(&[("a.md", "A")]), false).unwrap(),
        Written { written: 1, unchanged: 0, removed: 0 }
    );
    let missing = dir.path().join("x/y");
    docs::write(&missing, &pages(&[("z/a.md", "A")]), false).unwrap();
    assert_eq!(fs::read_to_string(missing.join("z/a.md")).unwrap(), page("A"));
}

#[test]
fn stale_pages_and_the_directories_they_leave_empty_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let first = pages(&[("a.md", "A"), ("old/deep/b.md", "B"), ("kept/c.md", "C")]);
    docs::write(out, &first, false).unwrap();
    fs::write(out.join("kept/notes.md"), "mine\n").unwrap();

    let written = docs::write(out, &pages(&[("a.md", "A")]), false).unwrap();

    assert_eq!(tree(out), ["a.md", "kept/", "kept/notes.md"]);
    assert_eq!(written, Written { written: 0, unchanged: 1, removed: 2 });
}

#[test]
fn rewrites_replace_the_file_and_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    docs::write(&out, &pages(&[("a.md", "A"), ("sub/b.md", "B")]), false).unwrap();
    // A second name for the page's file, outside: a rewrite in place would change it too.
    let other_name = dir.path().join("hard-link.md");
    fs::hard_link(out.join("a.md"), &other_name).unwrap();
    // A leftover with the name the first temporary file would take is neither used nor removed.
    let leftover = format!(".a.md.tmp-{}-0", std::process::id());
    fs::write(out.join(&leftover), "leftover\n").unwrap();

    let written = docs::write(&out, &pages(&[("a.md", "A2"), ("sub/b.md", "B")]), false).unwrap();

    assert_eq!(fs::read_to_string(out.join("a.md")).unwrap(), page("A2"));
    assert_eq!(fs::read_to_string(&other_name).unwrap(), page("A"), "the file was replaced, not written into");
    assert_eq!(fs::read_to_string(out.join(&leftover)).unwrap(), "leftover\n");
    assert_eq!(tree(&out), [leftover.as_str(), "a.md", "sub/", "sub/b.md"]);
    assert_eq!(written, Written { written: 1, unchanged: 1, removed: 0 });
}

#[test]
fn page_paths_stay_below_the_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for bad in ["../escape.md", "/abs.md", "a.txt", "sub/../x.md", "./x.md"] {
        let mut wanted = BTreeMap::new();
        wanted.insert(PathBuf::from(bad), page("X"));
        assert!(docs::write(&out, &wanted, true).is_err(), "{bad} is refused");
    }
    // A page cannot also be a directory of another.
    let clash = pages(&[("a.md", "A"), ("a.md/b.md", "B")]);
    assert!(docs::write(&out, &clash, true).unwrap_err().to_string().contains("a.md/b.md"));
    assert!(!dir.path().join("escape.md").exists());
    assert!(!out.exists(), "a refusal does not even create the output directory");
}
