//! End-to-end tests of `jerry-contracts lint`: the real corpus is clean, and a corpus with one
//! defect of each kind is reported file by file with exit status 1.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::fs;
use std::path::Path;
use std::process::Command;

fn lint(schemas: &Path, fixtures: &Path) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_jerry-contracts"))
        .arg("lint")
        .arg("--schemas")
        .arg(schemas)
        .arg("--fixtures")
        .arg(fixtures)
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().unwrap_or(-1), text)
}

fn write(root: &Path, path: &str, text: &str) {
    let file = root.join(path);
    fs::create_dir_all(file.parent().expect("has a parent")).expect("mkdir");
    fs::write(file, text).expect("write");
}

#[test]
fn the_project_corpus_is_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (code, out) = lint(&root.join("schemas"), &root.join("tests/fixtures"));
    assert_eq!(code, 0, "{out}");
    let summary = out.lines().last().expect("a summary line");
    assert!(summary.ends_with(" 0 problems"), "{summary}");
    let schema_lines = out.lines().filter(|l| l.starts_with("ok  ")).count();
    let schema_files = walk(&root.join("schemas"));
    assert_eq!(schema_lines, schema_files, "one line per schema");
}

fn walk(dir: &Path) -> usize {
    fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .map(|p| if p.is_dir() { walk(&p) } else { usize::from(p.extension().is_some_and(|e| e == "json")) })
        .sum()
}

const GOOD: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://jerry.dev/schemas/demo/good.json",
  "type": "object",
  "required": ["id"],
  "properties": {"id": {"type": "string", "pattern": "^F-[0-9]{3}$"}, "note": {"type": "string"}}
}"#;

#[test]
fn every_kind_of_defect_is_reported_with_its_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (schemas, fixtures) = (dir.path().join("schemas"), dir.path().join("fixtures"));
    write(&schemas, "demo/good.json", GOOD);
    write(
        &schemas,
        "demo/broken.json",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#", "$id": "https://jerry.dev/schemas/demo/wrong.json",
            "type": "object", "properties": {"a": {"$ref": "missing.json#/definitions/x"}, "b": {"type": "strnig"}}}"#,
    );
    write(&fixtures, "demo/good/valid/minimal.json", r#"{"id": "F-001"}"#);
    write(&fixtures, "demo/good/valid/maximal.json", r#"{"id": "F-002"}"#);
    write(&fixtures, "demo/good/invalid/id_pattern.json", r#"{"id": "F-1"}"#);
    write(
        &fixtures,
        "demo/good/invalid/id_pattern.expect",
        r#"{"keyword": "pattern", "pointer": "/id", "rule": "F-NNN"}"#,
    );
    write(&fixtures, "demo/good/invalid/wrong_expectation.json", r#"{"id": 3}"#);
    write(
        &fixtures,
        "demo/good/invalid/wrong_expectation.expect",
        r#"{"keyword": "pattern", "pointer": "/id", "rule": "x"}"#,
    );
    write(&fixtures, "demo/good/invalid/no_sidecar.json", r#"{}"#);
    write(&fixtures, "demo/nothing/valid/minimal.json", r#"{}"#);

    let (code, out) = lint(&schemas, &fixtures);
    assert_eq!(code, 1, "{out}");
    for expected in [
        "demo/broken.json#/$id: must be \"https://jerry.dev/schemas/demo/broken.json\"",
        "demo/broken.json#/properties/a/$ref: \"missing.json#/definitions/x\" names demo/missing.json",
        "demo/broken.json#/properties/b/type: meta-schema",
        "wrong_expectation.json: expected exactly one error, pattern at \"/id\"; got type at \"/id\"",
        "no_sidecar.json: invalid fixture without its",
        "demo/nothing/valid: names no schema",
        "demo/good.json: valid fixtures of demo/good.json never use demo/good.json#/properties/note",
        "demo/good.json: needs at least 4 invalid fixtures, has 2",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
}

#[test]
fn an_unreadable_schema_directory_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, out) = lint(&dir.path().join("nope"), dir.path());
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("cannot read"), "{out}");
}
