//! End-to-end tests of `jerry-contracts validate`: exit statuses, the JSON line format, NDJSON
//! with a broken line, standard input, directories, and human output.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jerry-contracts"))
        .arg("validate")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Written from a thread, so that a large input and a large output cannot block each other.
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.unwrap_or_default().to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let output = child.wait_with_output().expect("waits");
    writer.join().expect("the writer ends").expect("write stdin");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn lines(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
}

/// The pointer the invalid fixture's sidecar records.
fn expected_pointer() -> String {
    let sidecar = fixtures().join(INVALID).with_extension("expect");
    let expect: Value = serde_json::from_str(&std::fs::read_to_string(sidecar).unwrap()).unwrap();
    expect["pointer"].as_str().unwrap().to_owned()
}

const VALID: &str = "session_context/v1.1.0/valid/seed_example_1.json";
const INVALID: &str = "agents/ps/researcher_output/invalid/finding_id_two_digits.json";

#[test]
fn valid_documents_exit_0_and_print_one_json_line_each() {
    let valid = fixtures().join(VALID);
    let (code, out, err) = run(&["--format", "json", valid.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}{err}");
    let lines = lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["source"], json!(valid.display().to_string()));
    assert_eq!(lines[0]["schema"], "session_context/v1.1.0");
    assert_eq!(lines[0]["valid"], true);
    assert!(lines[0]["errors"].as_array().unwrap().iter().all(|r| r["severity"] != "error"));
}

#[test]
fn an_invalid_document_exits_1_with_its_records() {
    let (code, out, _) = run(&["--format", "json", fixtures().join(INVALID).to_str().unwrap()], None);
    assert_eq!(code, 1);
    let line = &lines(&out)[0];
    assert_eq!(line["valid"], false);
    let record = &line["errors"][0];
    assert_eq!(record["path"], expected_pointer());
    assert_eq!(record["severity"], "error");
    assert!(record["error_code"].as_str().unwrap().starts_with("SCH-"), "{record}");
}

#[test]
fn ndjson_reports_a_broken_line_and_judges_every_other_line() {
    let good = serde_json::to_string(
        &serde_json::from_str::<Value>(&std::fs::read_to_string(fixtures().join(VALID)).unwrap()).unwrap(),
    )
    .unwrap();
    let stream = format!("{good}\n{{\"schema_version\": \"1.1.0\", \n\n{good}\n");
    let (code, out, _) = run(&["--format", "json", "--ndjson", "-"], Some(&stream));
    assert_eq!(code, 1);
    let lines = lines(&out);
    let sources: Vec<&str> = lines.iter().map(|l| l["source"].as_str().unwrap()).collect();
    assert_eq!(sources, ["<stdin>:1", "<stdin>:2", "<stdin>:4"]);
    assert_eq!(lines.iter().map(|l| l["valid"].as_bool().unwrap()).collect::<Vec<_>>(), [true, false, true]);
    assert_eq!(lines[1]["errors"][0]["error_code"], "SCH-012");
    assert!(lines[1]["errors"][0]["message"].as_str().unwrap().contains("line 1 column"));
}

#[test]
fn directories_are_walked_and_the_schema_can_be_named() {
    let dir = fixtures().join("orchestration/todo/valid");
    let (code, out, err) = run(&["--schema", "orchestration/todo", "--format", "json", dir.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}{err}");
    let count = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(lines(&out).len(), count);
    // Without the name, a todo cannot be told from other documents.
    let (code, out, _) = run(&["--format", "json", dir.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert_eq!(lines(&out)[0]["errors"][0]["error_code"], "SCH-011");
}

#[test]
fn human_output_is_compiler_style() {
    let (code, out, _) = run(&[fixtures().join(INVALID).to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(out.contains("error[SCH-"), "{out}");
    // The record's place: file:line:column of the value at its pointer, then the pointer.
    let text = std::fs::read(fixtures().join(INVALID)).unwrap();
    let pointer = expected_pointer();
    let at = jerry_contracts::validation::positions(&text, &[pointer.as_str()])[0];
    assert!(out.contains(&format!("finding_id_two_digits.json:{}:{}#{pointer}", at.line, at.column)), "{out}");
    assert!(at.line > 1, "the value is not on the first line of the fixture");
    let (_, json, _) = run(&["--format", "json", fixtures().join(INVALID).to_str().unwrap()], None);
    let record = &lines(&json)[0]["errors"][0];
    assert_eq!((record["line"].as_u64(), record["column"].as_u64()), (Some(at.line as u64), Some(at.column as u64)));
    assert!(out.contains("= help: "), "{out}");
    assert!(out.trim_end().ends_with("1 document: 0 valid, 1 invalid"), "{out}");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let (code, _, err) = run(&[], None);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["/nonexistent/file.json"], None);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/file.json"), "{err}");
    let (code, _, _) = run(&["--format", "yaml", "x.json"], None);
    assert_eq!(code, 2);
}

#[test]
fn ndjson_in_parallel_keeps_input_order_and_learns_requirements_where_they_appear() {
    let compact = |relative: &str| {
        let text = std::fs::read_to_string(fixtures().join(relative)).unwrap();
        serde_json::to_string(&serde_json::from_str::<Value>(&text).unwrap()).unwrap()
    };
    let risk = compact("agents/nse/risk_output/valid/maximal.json");
    // Without its orphan (CON-002), so that it is valid and its requirements are learnt.
    let mut requirements: Value =
        serde_json::from_str(&compact("agents/nse/requirements_output/valid/maximal.json")).unwrap();
    requirements["traceability"]["orphan_requirements"] = serde_json::json!([]);
    let requirements = requirements.to_string();
    // The requirements output lands inside the second window of lines; the risks after it trace
    // to REQ-STR-003 and REQ-PRG-001, which it does not define (REF-002), the ones before do not
    // know any requirement yet (no REF-002).
    let at = 5_000;
    let total = 9_000;
    let mut stream = String::new();
    for number in 1..=total {
        stream.push_str(if number == at { &requirements } else { &risk });
        stream.push('\n');
    }
    let (code, out, err) = run(&["--format", "json", "--ndjson", "-"], Some(&stream));
    assert_eq!(code, 0, "{err}");
    let lines = lines(&out);
    assert_eq!(lines.len(), total);
    for (index, line) in lines.iter().enumerate() {
        let number = index + 1;
        assert_eq!(line["source"], format!("<stdin>:{number}"));
        let ref_002 = line["errors"].as_array().unwrap().iter().filter(|r| r["error_code"] == "REF-002").count();
        assert_eq!(ref_002, if number > at { 2 } else { 0 }, "line {number}: {line}");
    }
}
