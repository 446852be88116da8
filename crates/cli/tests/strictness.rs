//! End-to-end tests of the two modes and of naming a document's schema: a convention broken is a
//! warning by default and an error with `--strict`; `--schema NAME#/definitions/X` judges a
//! fragment; a directory's `schemas.map` names its documents' schemas, and a map that names an
//! unknown schema or a missing file is an error, never skipped.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::path::Path;
use std::process::{Command, Stdio};

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jerry-contracts"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write");
    let output = child.wait_with_output().expect("waits");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A recovery record that follows everything seed 003 states, with an empty `trigger`: non-empty
/// text is a convention (D-74).
const RECOVERY: &str = r#"{"id": "R-20260414T131500", "trigger": "", "rollback_to": "CP-3",
  "state_before": "state/before.json", "state_after": "state/after.json", "success": true,
  "resume_stage": "TEST"}"#;

#[test]
fn a_convention_is_a_warning_by_default_and_an_error_with_strict() {
    let (code, out, err) = run(&["validate", "--schema", "orchestration/recovery", "-"], RECOVERY);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("warning[CNV-005]") && out.contains("convention D-74"), "{out}");
    assert!(out.contains("<stdin>: valid (orchestration/recovery)"), "{out}");
    let (code, out, err) = run(&["validate", "--strict", "--schema", "orchestration/recovery", "-"], RECOVERY);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("error[CNV-005]"), "{out}");
    let (code, out, _) =
        run(&["validate", "--strict", "--format", "json", "--schema", "orchestration/recovery", "-"], RECOVERY);
    assert_eq!(code, 1);
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(line["errors"][0]["error_code"], "CNV-005");
    assert_eq!(line["errors"][0]["severity"], "error");
}

#[test]
fn a_definition_is_named_with_its_pointer() {
    let reference = r#"{"id": "nse-requirements", "family": "nse", "cognitive_mode": "convergent", "model": "sonnet"}"#;
    let schema = "session_context/v1.0.0#/definitions/agent_reference";
    let (code, out, err) = run(&["validate", "--schema", schema, "-"], reference);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("valid ({schema})")), "{out}");
    let (code, out, _) = run(&["validate", "--schema", schema, "-"], r#"{"id": "nse-requirements", "family": "xyz"}"#);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("SCH-007") && out.contains("/family"), "{out}");
    // An unknown definition is a usage error, named.
    let (code, _, err) = run(&["validate", "--schema", "session_context/v1.0.0#/definitions/nothing", "-"], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("has no schema at #/definitions/nothing"), "{err}");
}

#[test]
fn a_schema_map_names_the_schemas_of_a_directory() {
    let dir = tempfile_dir("map");
    std::fs::write(dir.join("recovery.json"), RECOVERY).unwrap();
    std::fs::write(dir.join("schemas.map"), "# the records of this directory\nrecovery.json orchestration/recovery\n")
        .unwrap();
    let (code, out, err) = run(&["validate", dir.to_str().unwrap()], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("valid (orchestration/recovery)"), "{out}");
    // Without the map, the record's schema cannot be told.
    std::fs::remove_file(dir.join("schemas.map")).unwrap();
    let (code, out, _) = run(&["validate", dir.to_str().unwrap()], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("SCH-011"), "{out}");
    // A map line naming an unknown schema, a missing file, or malformed: exit 2, each named.
    std::fs::write(
        dir.join("schemas.map"),
        "recovery.json orchestration/nothing\nmissing.json orchestration/recovery\njust-one-word\n",
    )
    .unwrap();
    let (code, _, err) = run(&["validate", dir.to_str().unwrap()], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("schemas.map:1: orchestration/nothing: no schema is named so"), "{err}");
    assert!(err.contains("schemas.map:2: missing.json: no such file here"), "{err}");
    assert!(err.contains("schemas.map:3: expected `FILE SCHEMA`"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_seed_examples_are_all_valid_in_both_modes() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/seeds");
    for strict in [false, true] {
        let mut args = vec!["validate"];
        if strict {
            args.push("--strict");
        }
        args.push(examples.to_str().unwrap());
        let (code, out, err) = run(&args, "");
        assert_eq!(code, 0, "strict {strict}: {out}{err}");
        assert!(out.contains("17 documents: 17 valid, 0 invalid"), "{out}");
    }
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jerry-strictness-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
