//! The schemas' fingerprint: which schema files, holding which bytes, the committed generated
//! Rust of `jerry-contracts` (`src/generated/contracts.rs`) was generated from. The generator
//! writes it into that file's header; the library's build script reads it back and refuses to
//! build from a stale file (D-168). A crate of its own, with no dependencies, so that both can
//! depend on it and the build script stays cheap.

use std::collections::BTreeMap;
use std::path::Path;

/// What opens each line of the fingerprint in the generated file's header:
/// `// schema <16 hex digits> <path under schemas/>`.
pub const LINE: &str = "// schema ";

/// FNV-1a's offset basis and prime (64 bits).
const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a (64 bits) of `bytes`: a check against forgetting to regenerate, not against anyone.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(OFFSET, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(PRIME))
}

/// [`fnv1a`] of a text file's bytes with every CRLF line end read as LF, so that a checkout that
/// writes CRLF (git's `core.autocrlf` on Windows) fingerprints its schemas as the repository
/// does.
pub fn text(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .enumerate()
        .filter(|&(at, &byte)| !(byte == b'\r' && bytes.get(at + 1) == Some(&b'\n')))
        .fold(OFFSET, |hash, (_, &byte)| (hash ^ u64::from(byte)).wrapping_mul(PRIME))
}

/// Every `.json` file under `dir` (links to directories not followed), as its path under `dir`
/// (with `/`) and the [`text`] hash of its bytes, sorted by path; a directory or file that
/// cannot be read is an error naming it.
pub fn schemas(dir: &Path) -> Result<Vec<(String, u64)>, String> {
    let mut files = Vec::new();
    walk(dir, "", &mut files)?;
    files.sort();
    Ok(files)
}

fn walk(dir: &Path, prefix: &str, files: &mut Vec<(String, u64)>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let under = format!("{prefix}{name}");
        // A link to a directory is not walked (as the generator's corpus does not), so that a
        // link that leads back up cannot loop.
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            walk(&path, &format!("{under}/"), files)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.push((under, text(&bytes)));
        }
    }
    Ok(())
}

/// The fingerprint's lines for `files`.
pub fn render(files: &[(String, u64)]) -> String {
    files.iter().map(|(path, hash)| format!("{LINE}{hash:016x} {path}\n")).collect()
}

/// The fingerprint a generated source's header records, in its order; a line that does not
/// parse is left out (and so reads as a file the source was not generated from).
pub fn read(source: &str) -> Vec<(String, u64)> {
    source
        .lines()
        .take_while(|line| line.starts_with("//"))
        .filter_map(|line| line.strip_prefix(LINE))
        .filter_map(|rest| {
            let (hash, path) = rest.split_once(' ')?;
            Some((path.to_owned(), u64::from_str_radix(hash, 16).ok()?))
        })
        .collect()
}

/// What differs between the `recorded` fingerprint and the schemas as they are `now`, one line
/// a file (changed, added, removed); empty when the generated source is fresh.
pub fn differences(recorded: &[(String, u64)], now: &[(String, u64)]) -> Vec<String> {
    let recorded: BTreeMap<&str, u64> = recorded.iter().map(|(path, hash)| (path.as_str(), *hash)).collect();
    let now: BTreeMap<&str, u64> = now.iter().map(|(path, hash)| (path.as_str(), *hash)).collect();
    let mut out = Vec::new();
    for (path, hash) in &now {
        match recorded.get(path) {
            Some(old) if old == hash => {}
            Some(_) => out.push(format!("schemas/{path} changed")),
            None => out.push(format!("schemas/{path} is new")),
        }
    }
    out.extend(
        recorded.keys().filter(|path| !now.contains_key(*path)).map(|path| format!("schemas/{path} was removed")),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_reads_back_what_was_rendered() {
        let files =
            vec![("agents/ps/researcher_output.json".to_owned(), 0x0123_4567_89ab_cdef), ("a b.json".to_owned(), 7)];
        let header = format!("// Generated; do not edit.\n{}\n//{LINE}0 not.json\n", render(&files));
        assert_eq!(read(&header), files, "the fingerprint ends at the first line that is not a comment");
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c, "FNV-1a's published value for \"a\"");
        assert_eq!(text(b"{\r\n  \"a\": 1\r\n}\r\n"), fnv1a(b"{\n  \"a\": 1\n}\n"), "CRLF reads as LF");
        assert_ne!(text(b"a\rb"), fnv1a(b"ab"), "a lone CR is a byte like any other");
    }

    #[test]
    fn every_changed_added_and_removed_file_is_named() {
        let recorded = vec![("a.json".to_owned(), 1), ("b.json".to_owned(), 2), ("c.json".to_owned(), 3)];
        assert!(differences(&recorded, &recorded).is_empty());
        let now = vec![("a.json".to_owned(), 1), ("b.json".to_owned(), 9), ("d.json".to_owned(), 4)];
        assert_eq!(
            differences(&recorded, &now),
            ["schemas/b.json changed", "schemas/d.json is new", "schemas/c.json was removed"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_back_up_is_not_walked() {
        let dir = std::env::temp_dir().join(format!("jerry-contracts-fingerprint-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join("sub/a.json"), "{}\n").unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(&dir, dir.join("sub/up")).unwrap_or_else(|e| panic!("{e}"));
        let found = schemas(&dir);
        std::fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found, Ok(vec![("sub/a.json".to_owned(), fnv1a(b"{}\n"))]));
    }
}
