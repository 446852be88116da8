//! `validate --format github` and `--format junit` end to end (issue 31, items 3 and 4).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_jerry-contracts")).arg("validate").args(args).output().expect("runs");
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stdout).into_owned())
}

/// A handoff with `errors` wrongly typed members, pretty-printed, and a value whose text needs
/// escaping in both formats (`%`, a newline, `<&"'`).
fn broken(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    let text = "{\n  \"schema_version\": \"1.1.0\",\n  \"session_id\": 5,\n  \"timestamp\": \"50%\\n<&\\\"'>\"\n}\n";
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn github_annotations_stay_within_the_step_limits() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = (0..4).map(|n| broken(dir.path(), &format!("h{n}.json"))).collect();
    let args: Vec<&str> = ["--format", "github"].into_iter().chain(files.iter().map(String::as_str)).collect();
    let (code, out) = run(&args);
    assert_eq!(code, 1, "{out}");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(errors.len(), 10, "{out}");
    // The place is the value's: session_id's 5 is on line 3, column 17.
    let first = &files[0];
    assert!(
        errors.iter().any(|l| l.starts_with(&format!("::error file={first},line=3,col=17,title=SCH-002::"))),
        "{out}"
    );
    // Data is escaped as GitHub's toolkit escapes it: no raw line break inside a command.
    let timestamp = errors.iter().find(|l| l.contains("title=SCH-009")).expect("the timestamp's record");
    assert!(
        timestamp.contains("50%25") && timestamp.starts_with(&format!("::error file={first},line=4,col=16,")),
        "{timestamp}"
    );
    let notice =
        out.lines().find(|l| l.starts_with("::notice title=jerry-contracts::")).expect("a notice of what did not fit");
    let total: usize = {
        let (_, json) = run(&[&["--format", "json"][..], &args[2..]].concat());
        json.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["errors"].as_array().unwrap().len())
            .sum()
    };
    assert!(notice.contains(&format!("{} more error(s)", total - 10)), "{notice}");
    assert_eq!(out.lines().filter(|l| l.ends_with("invalid (session_context/v1.1.0)")).count(), 4);
}

#[test]
fn junit_is_one_well_formed_report_with_a_case_a_document() {
    let dir = tempfile::tempdir().unwrap();
    let bad = broken(dir.path(), "bad.json");
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/seeds/000_2464_example_1_handoff.json");
    let (code, out) = run(&["--format", "junit", &bad, good.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let xml = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let suite = xml.descendants().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!((suite.attribute("tests"), suite.attribute("failures")), (Some("2"), Some("1")));
    let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 2);
    let failure = cases[0].children().find(|n| n.has_tag_name("failure")).expect("the invalid document fails");
    assert_eq!(cases[0].attribute("name"), Some(bad.as_str()));
    assert!(failure.text().unwrap_or_default().contains(&format!("{bad}:3:17#/session_id")), "{out}");
    assert!(!cases[1].children().any(|n| n.has_tag_name("failure")), "{out}");
}
