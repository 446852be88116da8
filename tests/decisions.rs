//! docs/decisions.md is the record of every choice the seeds leave open: each decision has one
//! id, and every `D-NN` the repository cites (schemas, code, tests, docs) names a decision that
//! exists.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The ids a text cites: `D-` and two or three digits, not part of a longer word.
fn cited(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut ids = Vec::new();
    for (at, _) in text.match_indices("D-") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'-') {
            continue;
        }
        let digits: String = text[at + 2..].chars().take_while(char::is_ascii_digit).collect();
        if (2..=3).contains(&digits.len()) {
            ids.push(format!("D-{digits}"));
        }
    }
    ids
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | ".git" | "fixtures") {
                files(&path, out);
            }
        } else if [".rs", ".md", ".json", ".py", ".toml", ".sh"].iter().any(|ext| name.ends_with(ext)) {
            out.push(path);
        }
    }
}

#[test]
fn every_decision_has_one_id_and_every_cited_id_exists() {
    let text = std::fs::read_to_string(root().join("docs/decisions.md")).unwrap();
    let mut headings: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let heading = line.trim_start_matches('#');
        if line.starts_with("###") && heading.starts_with(" D-") {
            let id = cited(heading).into_iter().next().expect("a heading's id");
            headings.entry(id).or_default().push(number + 1);
        }
    }
    assert!(headings.len() > 150, "only {} decisions found", headings.len());
    let repeated: Vec<String> =
        headings.iter().filter(|(_, at)| at.len() > 1).map(|(id, at)| format!("{id} at lines {at:?}")).collect();
    assert!(repeated.is_empty(), "decision ids used twice in docs/decisions.md: {repeated:?}");

    let mut sources = Vec::new();
    for dir in ["schemas", "src", "tests", "crates", "docs", "scripts"] {
        files(&root().join(dir), &mut sources);
    }
    sources.push(root().join("README.md"));
    sources.push(root().join("Cargo.toml"));
    let mut unknown = Vec::new();
    for path in &sources {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for id in cited(&text) {
            if !headings.contains_key(&id) {
                unknown.push(format!("{} cites {id}", path.strip_prefix(root()).unwrap_or(path).display()));
            }
        }
    }
    unknown.sort();
    unknown.dedup();
    assert!(unknown.is_empty(), "{} citations of decisions that do not exist:\n{}", unknown.len(), unknown.join("\n"));
}
