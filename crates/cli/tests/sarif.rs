//! `validate --format sarif` end to end (issue 31, item 2): every log is held to the official
//! SARIF 2.1.0 JSON Schema, vendored in `tests/data` (see its README), and its results to the
//! records `--format json` gives for the same inputs.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

fn run_in(dir: &Path, args: &[&str], stdin: &str) -> (i32, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jerry-contracts"))
        .arg("validate")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (output.status.code().unwrap_or(-1), String::from_utf8(output.stdout).expect("UTF-8 output"))
}

/// The `language` pattern of the official schema (twice: `run` and `toolComponent`). Its lone
/// `]` is a literal in ECMA-262 (Annex B), the dialect JSON Schema's `pattern` and `format:
/// regex` name, but the `jsonschema` crate's meta-schema check refuses it.
const LANGUAGE: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

/// The official schema, with format assertions on. The one change, in memory, escapes the
/// `language` pattern's literal `]` (`\]`): the same language of strings under ECMA-262, in a
/// form the `jsonschema` crate compiles. The file itself is the vendored one, unchanged.
fn sarif_schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(path).unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(schema["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
    for definition in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][definition]["properties"]["language"]["pattern"];
        assert_eq!(pattern, LANGUAGE, "the vendored schema is the official one");
        *pattern = json!(LANGUAGE.replace("]?$", "\\]?$"));
    }
    jsonschema::options().should_validate_formats(true).build(&schema).expect("the SARIF schema compiles")
}

/// The log, checked against the official schema.
fn conforming(text: &str) -> Value {
    let log: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let errors: Vec<String> =
        sarif_schema().iter_errors(&log).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}\n{text}");
    log
}

const BROKEN: &str = "{\n  \"schema_version\": \"1.1.0\",\n  \"session_id\": 5,\n  \"timestamp\": \"x\"\n}\n";

#[test]
fn the_log_conforms_to_the_official_schema_and_carries_every_record() {
    let dir = tempfile::tempdir().unwrap();
    // A name that a URI must escape: a space, `#`, `%`, `:` and a non-ASCII letter.
    std::fs::create_dir(dir.path().join("hand offs")).unwrap();
    std::fs::write(dir.path().join("hand offs/bad #1%:é.json"), BROKEN).unwrap();
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/seeds/000_2464_example_1_handoff.json");
    std::fs::copy(&good, dir.path().join("good.json")).unwrap();
    // NDJSON: the second line is valid, the third is not JSON (placed by its line alone).
    let handoff =
        serde_json::to_string(&serde_json::from_slice::<Value>(&std::fs::read(&good).unwrap()).unwrap()).unwrap();
    std::fs::write(dir.path().join("stream.ndjson"), format!("{}\n{handoff}\n{{\"a\":\n", BROKEN.replace('\n', "")))
        .unwrap();
    let inputs = ["./hand offs/bad #1%:é.json", "good.json", "stream.ndjson", "-"];

    let (code, text) = run_in(dir.path(), &[&["--format", "sarif"][..], &inputs].concat(), "{\"a\": 1}");
    assert_eq!(code, 1, "{text}");
    let log = conforming(&text);
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"].as_array().unwrap().len(), 1);
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().unwrap();
    assert!(base.starts_with("file:///") && base.ends_with('/'), "{base}");

    // The rules are the catalogue, with its help text; each result names its rule by index.
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), jerry_contracts::validation::codes::CATALOGUE.len());
    for (rule, code) in rules.iter().zip(jerry_contracts::validation::codes::CATALOGUE) {
        assert_eq!((rule["id"].as_str(), rule["help"]["text"].as_str()), (Some(code.code), Some(code.remediation)));
    }
    let results = run["results"].as_array().unwrap();
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }

    // Every record of the JSON format is a result, in the same order, with the same level.
    let (_, json_text) = run_in(dir.path(), &[&["--format", "json"][..], &inputs].concat(), "{\"a\": 1}");
    let records: Vec<Value> = json_text
        .lines()
        .flat_map(|l| serde_json::from_str::<Value>(l).unwrap()["errors"].as_array().unwrap().clone())
        .collect();
    assert!(records.len() >= 8, "{json_text}");
    assert_eq!(results.len(), records.len());
    for (result, record) in results.iter().zip(&records) {
        assert_eq!(result["ruleId"], record["error_code"]);
        assert_eq!(result["message"]["text"], record["message"]);
        let level = match record["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        assert_eq!(result["level"], level);
        let location = &result["locations"][0];
        assert_eq!(location["logicalLocations"][0]["fullyQualifiedName"], record["path"]);
        if let Some(line) = record.get("line") {
            assert_eq!(location["physicalLocation"]["region"]["startLine"], *line);
            assert_eq!(location["physicalLocation"]["region"]["startColumn"], record["column"]);
        }
    }

    // The file's place: session_id's 5 is on line 3, column 17, of a file whose name is escaped.
    let at = |uri: &str, line: u64| {
        results.iter().find(|r| {
            let physical = &r["locations"][0]["physicalLocation"];
            physical["artifactLocation"]["uri"] == uri && physical["region"]["startLine"] == line
        })
    };
    let session = at("hand%20offs/bad%20%231%25%3A%C3%A9.json", 3).expect("session_id's result");
    assert_eq!(session["ruleId"], "SCH-002");
    assert_eq!(session["locations"][0]["physicalLocation"]["region"]["startColumn"], 17);
    assert_eq!(session["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(session["properties"]["actual"], 5);
    // NDJSON: line 1's record is on line 1; line 3, which is not JSON, is placed by its line.
    assert!(at("stream.ndjson", 1).is_some(), "{text}");
    assert_eq!(at("stream.ndjson", 3).expect("line 3's result")["ruleId"], "SCH-012");
    // Standard input has no URI: it is described.
    assert!(
        results
            .iter()
            .any(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["description"]["text"]
                == "standard input")
    );
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run["invocations"][0]["properties"]["documents"], 6);
}

#[test]
fn strictness_sets_the_conventions_level_and_an_unread_input_fails_the_invocation() {
    let dir = tempfile::tempdir().unwrap();
    // A recovery record that follows seed 003, with an empty `trigger`: non-empty text is a
    // convention (D-74, CNV-005).
    let recovery = r#"{"id": "R-20260414T131500", "trigger": "", "rollback_to": "CP-3",
      "state_before": "state/before.json", "state_after": "state/after.json", "success": true,
      "resume_stage": "TEST"}"#;
    std::fs::write(dir.path().join("recovery.json"), recovery).unwrap();
    let level_of = |log: &Value, id: &str| {
        let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap().clone();
        rules.into_iter().find(|r| r["id"] == id).unwrap()["defaultConfiguration"]["level"].clone()
    };

    let (code, text) = run_in(
        dir.path(),
        &["--format", "sarif", "--schema", "orchestration/recovery", "recovery.json", "missing.json"],
        "",
    );
    assert_eq!(code, 2, "an unread input is an I/O error: {text}");
    let log = conforming(&text);
    assert_eq!(level_of(&log, "CNV-005"), "warning");
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(invocation["toolExecutionNotifications"][0]["level"], "error");
    let result = &log["runs"][0]["results"][0];
    assert_eq!((result["ruleId"].as_str(), result["level"].as_str()), (Some("CNV-005"), Some("warning")));

    let (code, text) = run_in(
        dir.path(),
        &["--format", "sarif", "--strict", "--schema", "orchestration/recovery", "recovery.json"],
        "",
    );
    assert_eq!(code, 1, "{text}");
    let log = conforming(&text);
    assert_eq!(level_of(&log, "CNV-005"), "error");
    assert_eq!(log["runs"][0]["results"][0]["level"], "error");
}

/// The schema check is not vacuous: a log the schema forbids is refused.
#[test]
fn the_vendored_schema_refuses_what_sarif_forbids() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.json"), BROKEN).unwrap();
    let (_, text) = run_in(dir.path(), &["--format", "sarif", "bad.json"], "");
    let log = conforming(&text);
    let schema = sarif_schema();
    for (pointer, value) in [
        ("/runs/0/results/0/level", json!("fatal")),
        ("/runs/0/results/0/locations/0/physicalLocation/region/startLine", json!(0)),
        ("/runs/0/columnKind", json!("bytes")),
        ("/version", json!("2.2.0")),
    ] {
        let mut broken = log.clone();
        *broken.pointer_mut(pointer).unwrap() = value;
        assert!(!schema.is_valid(&broken), "{pointer}");
    }
}
