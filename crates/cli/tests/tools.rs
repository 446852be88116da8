//! End-to-end tests of `migrate`, `example`, `schema`, `list` and `sql`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jerry-contracts"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(text) = stdin {
        child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write");
    }
    drop(child.stdin.take());
    let output = child.wait_with_output().expect("waits");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

#[test]
fn a_migrated_1_0_handoff_validates_as_1_1_with_every_field_kept() {
    for fixture in
        ["session_context/v1.0.0/valid/maximal.json", "session_context/v1.0.0/valid/seed_producer_example.json"]
    {
        let path = root().join("tests/fixtures").join(fixture);
        let original: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (code, out, err) = run(&["migrate", path.to_str().unwrap()], None);
        assert_eq!(code, 0, "{err}");
        let migrated: Value = serde_json::from_str(&out).unwrap();
        let mut expected = original.clone();
        expected["schema_version"] = json!("1.1.0");
        assert_eq!(migrated, expected, "{fixture}: every field kept, only the version changed");
        let (code, out, _) =
            run(&["validate", "--format", "json", "--schema", "session_context/v1.1.0", "-"], Some(&out));
        let verdict: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!((code, &verdict["valid"]), (0, &json!(true)), "{fixture}: {verdict}");
    }
}

#[test]
fn migrate_refuses_what_it_cannot_migrate() {
    let future = r#"{"schema_version": "2.0.0", "session_id": "s"}"#;
    let (code, _, err) = run(&["migrate", "-"], Some(future));
    assert_eq!(code, 1);
    assert!(err.contains("not 1.x"), "{err}");
    let (code, _, err) = run(&["migrate", "--to", "3.0.0", "-"], Some(r#"{"schema_version": "1.0.0"}"#));
    assert_eq!(code, 1);
    assert!(err.contains("cannot migrate to 3.0.0"), "{err}");
    let (code, _, _) = run(&["migrate", "/nonexistent.json"], None);
    assert_eq!(code, 2);
}

#[test]
fn example_prints_a_document_that_validate_accepts() {
    for name in ["nse-risk", "session_context/v1.1.0", "mission/mission_task_graph", "orchestration/todo"] {
        let (code, out, err) = run(&["example", name], None);
        assert_eq!(code, 0, "{name}: {err}");
        let (code, verdict, _) = run(&["validate", "--format", "json", "--schema", name, "-"], Some(&out));
        assert_eq!(code, 0, "{name}: {verdict}");
    }
    let (code, _, err) = run(&["example", "agents/ps/critic_output"], None);
    assert_eq!(code, 2);
    assert!(err.contains("no schema is named"), "{err}");
}

#[test]
fn schema_prints_the_embedded_file_and_list_names_every_schema() {
    let (code, out, _) = run(&["schema", "agents/ps/researcher_output"], None);
    assert_eq!(code, 0);
    assert_eq!(out, std::fs::read_to_string(root().join("schemas/agents/ps/researcher_output.json")).unwrap());
    let (code, out, _) = run(&["list"], None);
    assert_eq!(code, 0);
    let files = jerry_contracts_count(&root().join("schemas"));
    assert_eq!(out.lines().count(), files);
    assert!(out.lines().any(|l| l.starts_with("session_context/v1.1.0") && l.contains("1.1.0")));
    assert!(out.lines().any(|l| l.starts_with("mission/worker_result") && l.contains("worker_result")));
}

fn jerry_contracts_count(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() { jerry_contracts_count(&p) } else { usize::from(p.extension().is_some_and(|e| e == "json")) }
        })
        .sum()
}

#[test]
fn diff_classifies_and_judges_the_declared_bump() {
    let dir = std::env::temp_dir().join(format!("jerry-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let old = dir.join("old.json");
    let new = dir.join("new.json");
    let base = json!({"$schema": "http://json-schema.org/draft-07/schema#", "$id": "https://jerry.dev/schemas/x/v1.0.0.json",
        "type": "object", "required": ["id"], "properties": {"id": {"type": "string", "pattern": "^F-[0-9]{3}$"}}});
    let mut changed = base.clone();
    changed["$id"] = json!("https://jerry.dev/schemas/x/v1.1.0.json");
    changed["properties"]["note"] = json!({"type": "string"});
    std::fs::write(&old, base.to_string()).unwrap();
    std::fs::write(&new, changed.to_string()).unwrap();
    let (code, out, _) = run(&["diff", old.to_str().unwrap(), new.to_str().unwrap(), "--format", "json"], None);
    assert_eq!(code, 0, "{out}");
    let verdict: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((verdict["required"].as_str(), verdict["declared"].as_str()), (Some("minor"), Some("minor")));
    // A tighter pattern under a minor bump: MAJOR needed, exit 1.
    changed["properties"]["id"]["pattern"] = json!("^F-[0-9]{4}$");
    std::fs::write(&new, changed.to_string()).unwrap();
    let (code, out, _) = run(&["diff", old.to_str().unwrap(), new.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("MAJOR /properties/id/pattern"), "{out}");
    let (code, _, _) = run(&["diff", old.to_str().unwrap(), "/nonexistent.json"], None);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sql_prints_the_store_tables_as_the_library_gives_them() {
    let (code, out, err) = run(&["sql"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, jerry_contracts::store::ddl());
    assert!(out.contains("CREATE TABLE colony_worker_results ("));
    let (code, out, _) = run(&["sql", "--after", "1"], None);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, _, err) = run(&["sql", "--after", "one"], None);
    assert_eq!(code, 2, "{err}");
}
