//! Hostile input, second round (issue 26), in the library: a report is bounded whatever the
//! document holds (records, their text), `--root` opens only regular files, compares sizes first,
//! caps hashing and resolves a path a component at a time; the nesting limit means the same at
//! every place; `migrate` takes what `validate` takes; and the rules that let things through now
//! speak — as errors where the seeds state them, as conventions where they do not.
//! The command line's side is in `crates/cli/tests/hostile_cli.rs`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use jerry_contracts::common::ErrorRecordSeverity;
use jerry_contracts::validation::{Options, Report, Validator, validate};
use jerry_contracts::versions::{migrate, migrate_text};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn fixture(relative: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(relative);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

fn codes(report: &Report) -> Vec<&str> {
    report.records.iter().map(|r| r.error_code.as_str()).collect()
}

fn at<'a>(report: &'a Report, code: &str) -> Vec<&'a str> {
    report.records.iter().filter(|r| r.error_code == code).map(|r| r.path.as_deref().unwrap_or("")).collect()
}

fn strict() -> Validator {
    Validator::with_options(Options::default().with_strict(true))
}

/// A researcher output whose findings are `n` copies of `item`: `n` schema errors, or more.
fn many_errors(n: usize, item: &Value) -> Vec<u8> {
    let mut output = fixture("agents/ps/researcher_output/valid/minimal.json");
    output["findings"] = Value::Array(vec![item.clone(); n]);
    bytes(&output)
}

// ---------------------------------------------------------------------------------------------
// A bounded report
// ---------------------------------------------------------------------------------------------

#[test]
fn a_report_lists_at_most_the_cap_and_counts_the_rest_in_one_error() {
    // 500 000 findings that are not objects: 500 000 schema errors in about a megabyte.
    let document = many_errors(500_000, &json!(1));
    assert!(document.len() < 1_100_000);
    let report = validate(&document);
    assert!(!report.is_valid());
    assert_eq!(report.records.len(), Options::DEFAULT_MAX_RECORDS + 1);
    let last = report.records.last().unwrap();
    assert_eq!(last.error_code, "SCH-016");
    assert_eq!(last.severity, ErrorRecordSeverity::Error);
    assert_eq!(last.actual, Some(json!(500_000 - Options::DEFAULT_MAX_RECORDS)));
    assert!(last.message.contains("499000 more records"), "{}", last.message);
    assert_eq!(report.omitted(), 499_000);
    // The cap is an option; the verdict does not depend on it.
    let small = Validator::with_options(Options::default().with_max_records(3)).validate(&document);
    assert_eq!(codes(&small), ["SCH-002", "SCH-002", "SCH-002", "SCH-016"]);
    assert!(!small.is_valid());
    let none = Validator::with_options(Options::default().with_max_records(0)).validate(&document);
    assert_eq!(codes(&none), ["SCH-016"]);
    assert!(!none.is_valid());
}

#[test]
fn warnings_left_out_keep_a_valid_document_valid() {
    // Two hundred blockers without a severity: a convention warning each (CNV-001, D-133).
    let mut output = fixture("session_context/v1.0.0/valid/maximal.json");
    output["payload"]["blockers"] = Value::Array(
        (0..200).map(|i| json!({"id": format!("BLK-{i:03}"), "description": "Chamber unavailable"})).collect(),
    );
    assert!(validate(&bytes(&output)).is_valid());
    let document = bytes(&output);
    let capped = Validator::with_options(Options::default().with_max_records(5)).validate(&document);
    assert!(capped.is_valid(), "{capped}");
    let last = capped.records.last().unwrap();
    assert_eq!(last.error_code, "SCH-016");
    assert_eq!(last.severity, ErrorRecordSeverity::Warning);
    // In strict mode the same conventions are errors, counted as such.
    let strict = Validator::with_options(Options::default().with_max_records(5).with_strict(true)).validate(&document);
    assert!(!strict.is_valid());
    assert_eq!(strict.records.last().unwrap().severity, ErrorRecordSeverity::Error);
}

#[test]
fn a_document_of_millions_of_tiny_objects_is_refused_before_it_is_read() {
    // 2 million `{"a":0}`: 16 MB of text, whose parsed form would take about 1.3 GiB.
    let document = many_errors(2_000_000, &json!({"a": 0}));
    let report = validate(&document);
    assert_eq!(codes(&report), ["SCH-015"]);
    assert!(report.records[0].message.contains("objects and arrays would take about"), "{report}");
    // A tenth as many are judged (and listed within the cap).
    let report = validate(&many_errors(200_000, &json!({"a": 0})));
    assert!(!report.is_valid());
    assert_eq!(report.records.last().map(|r| r.error_code.as_str()), Some("SCH-016"));
    let cost = jerry_contracts::__private::read::tree_cost(&document);
    assert!(cost > jerry_contracts::__private::read::TREE_LIMIT);
}

#[test]
fn messages_and_values_are_cut_to_their_caps() {
    // A 20 000-task dependency cycle: SEM-016's message names the cycle, cut.
    let mut graph = fixture("mission/mission_task_graph/valid/maximal.json");
    let template = graph["tasks"][0].clone();
    let n = 20_000;
    graph["tasks"] = Value::Array(
        (0..n)
            .map(|i| {
                let mut task = template.clone();
                task["task_id"] = json!(format!("task_{i:05}"));
                task["depends_on"] = json!([format!("task_{:05}", (i + 1) % n)]);
                task
            })
            .collect(),
    );
    let report = validate(&bytes(&graph));
    let cycle = report.records.iter().find(|r| r.error_code == "SEM-016").expect("the cycle is reported");
    assert!(cycle.message.chars().count() <= Report::MESSAGE_CHARS + 40, "{} chars", cycle.message.len());
    assert!(cycle.message.contains(" more characters"), "{}", cycle.message);
    // Every record of any report keeps its values within the cap.
    let mut output = fixture("agents/ps/researcher_output/valid/minimal.json");
    let long_key = "x".repeat(5000);
    output["findings"] = json!({ long_key: vec!["y".repeat(5000); 30] });
    let report = validate(&bytes(&output));
    for record in &report.records {
        for value in [&record.actual, &record.expected].into_iter().flatten() {
            assert!(value.to_string().chars().count() <= Report::VALUE_CHARS + 40, "{value}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// One nesting limit
// ---------------------------------------------------------------------------------------------

fn nested(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

fn envelope_with(extra: &str) -> Vec<u8> {
    let mut envelope = fixture("session_context/v1.1.0/valid/seed_example_1.json");
    envelope["payload"]["x_nested"] = json!("PLACE");
    serde_json::to_string(&envelope).unwrap().replace("\"PLACE\"", extra).into_bytes()
}

#[test]
fn the_nesting_limit_is_the_same_at_every_place_and_the_limit_itself_is_read() {
    let limit = jerry_contracts::__private::read::DEPTH_LIMIT;
    assert_eq!(limit, 128);
    // At the top: exactly the limit is read (and is no contract), one more is refused.
    assert_eq!(codes(&validate(nested(limit).as_bytes())), ["SCH-011"]);
    let over = validate(nested(limit + 1).as_bytes());
    assert_eq!(codes(&over), ["SCH-012"]);
    assert!(over.records[0].message.contains(&format!("line 1 column {}", limit + 1)), "{over}");
    // Inside a payload's unknown member (an envelope is 2 levels deep there): the same.
    let at_limit = envelope_with(&nested(limit - 2));
    assert!(validate(&at_limit).is_valid(), "{}", validate(&at_limit));
    let past = envelope_with(&nested(limit - 1));
    assert_eq!(codes(&validate(&past)), ["SCH-012"]);
    assert!(validate(&past).records[0].message.contains("nested deeper than 128 levels"));
    // Before the payload's `agent_id` (a member read ahead and replayed, by a reader of its own):
    // the same. (`a_nested` sorts before `agent_id`, so it is written first.)
    let ahead = |levels: usize| {
        let mut envelope = fixture("session_context/v1.1.0/valid/seed_example_1.json");
        envelope["payload"]["a_nested"] = json!("PLACE");
        let text = serde_json::to_string(&envelope).unwrap().replace("\"PLACE\"", &nested(levels));
        assert!(text.find("a_nested") < text.find("agent_id"), "written before agent_id");
        text.into_bytes()
    };
    assert!(validate(&ahead(limit - 2)).is_valid(), "{}", validate(&ahead(limit - 2)));
    assert_eq!(codes(&validate(&ahead(limit - 1))), ["SCH-012"]);
    assert_eq!(codes(&validate(&ahead(limit + 300))), ["SCH-012"]);
    // The typed read and migration agree.
    assert!(
        jerry_contracts::typed::from_slice::<jerry_contracts::session_context::v1_1::SessionContext>(&at_limit).is_ok()
    );
    assert!(
        jerry_contracts::typed::from_slice::<jerry_contracts::session_context::v1_1::SessionContext>(&past).is_err()
    );
    type V11 = jerry_contracts::session_context::v1_1::SessionContext;
    assert!(jerry_contracts::typed::from_slice::<V11>(&ahead(limit - 2)).is_ok());
    assert!(jerry_contracts::typed::from_slice::<V11>(&ahead(limit - 1)).is_err());
    assert!(jerry_contracts::typed::from_slice::<V11>(&ahead(limit + 300)).is_err());
    // Through declared free-form JSON (a checkpoint output's payload), where serde_json's own
    // limit (127) trips before ours (128): the typed read and the gate agree at every depth
    // around the limit.
    for levels in limit - 8..=limit {
        let mut checkpoint = fixture("infrastructure/checkpoint/valid/maximal.json");
        checkpoint["state"]["outputs"][0]["payload"]["x_nested"] = json!("PLACE");
        let text = serde_json::to_string(&checkpoint).unwrap().replace("\"PLACE\"", &nested(levels));
        let gate = jerry_contracts::validation::validate_as("infrastructure/checkpoint", text.as_bytes());
        let typed = jerry_contracts::typed::from_slice::<jerry_contracts::infrastructure::Checkpoint>(text.as_bytes());
        assert_eq!(typed.is_ok(), gate.is_valid(), "{levels} levels: {gate}");
        assert_eq!(gate.is_valid(), levels + 5 <= limit, "{levels} levels: {gate}");
    }
    // A string full of brackets is no nesting.
    let mut output = fixture("agents/ps/researcher_output/valid/maximal.json");
    output["research_topic"] = json!("[{".repeat(500));
    assert!(validate(&bytes(&output)).is_valid());
}

#[test]
fn migrate_takes_the_depth_validate_takes() {
    let mut envelope = fixture("session_context/v1.0.0/valid/maximal.json");
    envelope["x_nested"] = json!("PLACE");
    let limit = jerry_contracts::__private::read::DEPTH_LIMIT;
    let text = serde_json::to_string(&envelope).unwrap().replace("\"PLACE\"", &nested(limit - 1));
    assert!(validate(text.as_bytes()).is_valid());
    assert!(migrate_text(text.as_bytes(), "1.1.0").is_ok());
    let deeper = serde_json::to_string(&envelope).unwrap().replace("\"PLACE\"", &nested(limit));
    assert!(!validate(deeper.as_bytes()).is_valid());
    assert!(migrate_text(deeper.as_bytes(), "1.1.0").is_err());
}

// ---------------------------------------------------------------------------------------------
// migrate takes every 1.0.x handoff validate takes
// ---------------------------------------------------------------------------------------------

/// The valid 1.0.0 fixtures that every layer passes, as text.
fn v10_fixtures() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/session_context/v1.0.0/valid");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .filter(|(_, text)| validate(text.as_bytes()).is_valid())
        .collect();
    out.sort();
    assert!(out.len() >= 2);
    out
}

/// `text` with its top-level `schema_version` written `version`, and the member names written
/// with `\u` escapes when `escaped`.
fn variant(text: &str, version: &str, escaped: bool) -> String {
    let mut value: Value = serde_json::from_str(text).unwrap();
    value["schema_version"] = json!(version);
    let mut out = serde_json::to_string(&value).unwrap();
    if escaped {
        out = out.replacen("\"schema_version\"", "\"schema\\u005fversion\"", 1).replacen(
            "\"session_id\"",
            "\"s\\u0065ssion_id\"",
            1,
        );
    }
    out
}

#[test]
fn migrate_accepts_every_handoff_validate_accepts_as_1_0_x() {
    let versions = ["1.0.0", "1.0.7", "1.0.007", "1.0.18446744073709551616", "1.0.000"];
    for (name, text) in v10_fixtures() {
        for version in versions {
            for escaped in [false, true] {
                let document = variant(&text, version, escaped);
                let report = validate(document.as_bytes());
                assert!(report.is_valid(), "{name} {version} {escaped}: {report}");
                assert_eq!(report.schema, Some("session_context/v1.0.0"));
                let migrated = migrate_text(document.as_bytes(), "1.1.0")
                    .unwrap_or_else(|e| panic!("{name} {version} escaped={escaped}: {e}"));
                // Only the version changed, and the result is a valid 1.1.0 handoff.
                assert_eq!(migrated.matches("1.1.0").count(), document.matches("1.1.0").count() + 1);
                let after = validate(migrated.as_bytes());
                assert_eq!(after.schema, Some("session_context/v1.1.0"), "{name}: {after}");
                assert!(after.is_valid(), "{name}: {after}");
            }
        }
    }
    // A later 1.x is kept as it is; a 2.x is refused by both.
    let (_, text) = &v10_fixtures()[0];
    let later = variant(text, "1.00.0", true);
    assert_eq!(migrate_text(later.as_bytes(), "1.1.0").unwrap(), later);
    let future = variant(text, "2.0.0", false);
    assert!(!validate(future.as_bytes()).is_valid());
    assert!(migrate(serde_json::from_str(&future).unwrap(), "1.1.0").is_err());
}

mod generated {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]
        /// Over generated versions and member spellings: whenever validate reads a 1.0.x
        /// handoff as valid, migrate takes it.
        #[test]
        fn migrate_follows_validate(patch in "[0-9]{1,25}", minor_zeros in 1usize..4, escaped: bool, fixture in 0usize..2) {
            let fixtures = v10_fixtures();
            let (_, text) = &fixtures[fixture % fixtures.len()];
            let version = format!("1.{}.{patch}", "0".repeat(minor_zeros));
            let document = variant(text, &version, escaped);
            let report = validate(document.as_bytes());
            if report.is_valid() {
                prop_assert!(migrate_text(document.as_bytes(), "1.1.0").is_ok(), "{} {}", version, report);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rules that let things through
// ---------------------------------------------------------------------------------------------

/// The maximal requirements output, with no requirement listed as an orphan (CON-002).
fn requirements() -> Value {
    let mut output = fixture("agents/nse/requirements_output/valid/maximal.json");
    output["traceability"]["orphan_requirements"] = json!([]);
    assert!(validate(&bytes(&output)).records.is_empty(), "{}", validate(&bytes(&output)));
    output
}

#[test]
fn a_requirement_id_defined_twice_is_reported_at_the_second() {
    let mut output = requirements();
    let first = output["requirements"][0].clone();
    output["requirements"].as_array_mut().unwrap().push(first);
    let last = output["requirements"].as_array().unwrap().len() - 1;
    let report = validate(&bytes(&output));
    assert_eq!(at(&report, "SEM-020"), [format!("/requirements/{last}/id")]);
    assert!(report.is_valid(), "a convention: {report}");
    assert!(!strict().validate(&bytes(&output)).is_valid());
    // As an envelope's payload too.
    let mut envelope = fixture("session_context/v1.1.0/valid/seed_example_1.json");
    envelope["source_agent"] = json!({"id": "nse-requirements", "family": "nse"});
    envelope["payload"] = output;
    envelope.as_object_mut().unwrap().remove("payload_schema_ref");
    let report = validate(&bytes(&envelope));
    assert_eq!(at(&report, "SEM-020"), [format!("/payload/requirements/{last}/id")], "{report}");
}

#[test]
fn a_parent_need_that_names_no_listed_need_is_reported() {
    let mut output = requirements();
    assert!(output["stakeholder_needs"].as_array().is_some_and(|needs| !needs.is_empty()));
    output["requirements"][0]["parent_need"] = json!("STK-999");
    let report = validate(&bytes(&output));
    assert_eq!(at(&report, "REF-006"), ["/requirements/0/parent_need"]);
    assert!(report.is_valid(), "{report}");
    assert!(!strict().validate(&bytes(&output)).is_valid());
    // Without a list of needs nothing is judged.
    output.as_object_mut().unwrap().remove("stakeholder_needs");
    assert!(at(&validate(&bytes(&output)), "REF-006").is_empty());
}

fn researcher_with_path(path: &str) -> Vec<u8> {
    let mut output = fixture("agents/ps/researcher_output/valid/maximal.json");
    output["artifacts"] = json!([{"path": path, "type": "research"}]);
    bytes(&output)
}

#[test]
fn an_artifact_path_with_a_control_character_is_refused_and_a_backslash_only_warns() {
    for path in ["docs/a\u{0}b.md", "docs/a\nb.md", "docs/\u{1b}[31m.md", "docs/a\u{85}.md"] {
        let report = validate(&researcher_with_path(path));
        assert_eq!(at(&report, "REF-003"), ["/artifacts/0/path"], "{path:?}");
        assert!(!report.is_valid());
    }
    // The seed says paths SHOULD use forward slashes: a backslash is a convention.
    let report = validate(&researcher_with_path("docs\\research\\notes.md"));
    assert_eq!(at(&report, "REF-007"), ["/artifacts/0/path"]);
    assert!(report.is_valid(), "{report}");
    assert!(report.records.iter().any(|r| r.message.contains("a convention, D-131")));
    assert!(!strict().validate(&researcher_with_path("docs\\research\\notes.md")).is_valid());
    // The MUSTs stay errors.
    for path in ["/etc/passwd", "C:/work/a.md", "\\\\server\\share\\a.md", "../outside.md", ".."] {
        assert_eq!(at(&validate(&researcher_with_path(path)), "REF-003"), ["/artifacts/0/path"], "{path}");
    }
}

#[test]
fn an_envelope_blocker_needs_only_what_the_seed_states() {
    let mut envelope = fixture("session_context/v1.0.0/valid/maximal.json");
    envelope["payload"]["blockers"] = json!([{"id": "BLK-001", "description": "Test chamber unavailable"}]);
    let report = validate(&bytes(&envelope));
    assert!(report.is_valid(), "{report}");
    assert_eq!(at(&report, "CNV-001"), ["/payload/blockers/0"]);
    assert!(!strict().validate(&bytes(&envelope)).is_valid());
    envelope["payload"]["blockers"] = json!([{"id": "BLK-1"}]);
    assert_eq!(at(&validate(&bytes(&envelope)), "SCH-003"), ["/payload/blockers/0/id"], "the id pattern is the seed's");
    // ps-reporter's own blocker still requires its severity (seed 000:812).
    let mut reporter = fixture("agents/ps/reporter_output/valid/maximal.json");
    reporter["blockers"][0].as_object_mut().unwrap().remove("severity");
    assert_eq!(at(&validate(&bytes(&reporter)), "SCH-001"), ["/blockers/0"]);
}

// ---------------------------------------------------------------------------------------------
// --root
// ---------------------------------------------------------------------------------------------

fn sha256(content: &[u8]) -> String {
    let hex: String = Sha256::digest(content).iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn researcher_with_artifacts(artifacts: Value) -> Vec<u8> {
    let mut output = fixture("agents/ps/researcher_output/valid/maximal.json");
    output["artifacts"] = artifacts;
    bytes(&output)
}

/// Judges `document` under `root` on another thread: a hang fails the test instead of the run.
fn judge_under(root: &Path, options: Options, document: Vec<u8>) -> Report {
    let (send, receive) = mpsc::channel();
    let validator = Validator::with_options(options.with_root(root));
    std::thread::spawn(move || {
        let _ = send.send(validator.validate(&document));
    });
    receive.recv_timeout(Duration::from_secs(60)).expect("the artifact check blocked")
}

#[cfg(unix)]
#[test]
fn only_regular_files_are_opened_and_a_fifo_never_blocks() {
    let root = tempfile::tempdir().unwrap();
    let fifo = root.path().join("pipe.md");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::os::unix::fs::symlink(&fifo, root.path().join("link.md")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.path().join("zero.md")).unwrap();
    let checksum = sha256(b"");
    let document = researcher_with_artifacts(json!([
        {"path": "pipe.md", "type": "research", "checksum": checksum},
        {"path": "link.md", "type": "research", "checksum": checksum},
    ]));
    let report = judge_under(root.path(), Options::default(), document);
    assert_eq!(at(&report, "REF-001"), ["/artifacts/0/path", "/artifacts/1/path"], "{report}");
    assert!(report.records.iter().all(|r| !r.message.contains("SHA-256")), "{report}");
    assert!(report.records.iter().any(|r| r.message.contains("FIFO")), "{report}");
    // A link that leaves the root is never opened.
    let report = judge_under(
        root.path(),
        Options::default(),
        researcher_with_artifacts(json!([{"path": "zero.md", "type": "research", "checksum": checksum}])),
    );
    assert_eq!(at(&report, "REF-003"), ["/artifacts/0/path"], "{report}");
}

#[test]
fn size_bytes_is_compared_and_a_file_over_the_hash_limit_is_not_hashed() {
    let root = tempfile::tempdir().unwrap();
    let content = vec![b'x'; 4096];
    std::fs::write(root.path().join("big.md"), &content).unwrap();
    let right = sha256(&content);
    let document = researcher_with_artifacts(json!([
        {"path": "big.md", "type": "research", "checksum": right, "size_bytes": 4095}
    ]));
    // A size that differs is told (a convention: the seed gives size_bytes no meaning beyond its
    // name), and the checksum is still verified.
    let report = judge_under(root.path(), Options::default(), document.clone());
    assert_eq!(at(&report, "REF-005"), ["/artifacts/0/size_bytes"], "{report}");
    assert!(at(&report, "REF-004").is_empty());
    assert!(report.is_valid());
    // Over the hashing limit: not hashed, and said so.
    let capped = Options::default().with_max_artifact_bytes(1024);
    let document = researcher_with_artifacts(json!([
        {"path": "big.md", "type": "research", "checksum": sha256(b"other")}
    ]));
    let report = judge_under(root.path(), capped, document);
    assert_eq!(at(&report, "REF-001"), ["/artifacts/0/path"], "{report}");
    assert!(at(&report, "REF-004").is_empty(), "not hashed, so no mismatch: {report}");
    assert!(report.records[0].message.contains("over the limit"), "{report}");
}

#[cfg(unix)]
#[test]
fn an_artifact_deeper_than_a_path_can_name_is_found_a_component_at_a_time() {
    // 3 000 directories: the path is longer than PATH_MAX (4 096), so resolving it whole fails;
    // a lookup a component at a time finds it. The tree is made a component at a time too, since
    // no single path can name its bottom.
    let root = tempfile::tempdir().unwrap();
    {
        use rustix::fs::{CWD, Mode, OFlags, mkdirat, openat};
        let directory = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let mut dir = openat(CWD, root.path(), directory, Mode::empty()).unwrap();
        for _ in 0..3000 {
            mkdirat(&dir, "d", Mode::from_raw_mode(0o755)).unwrap();
            dir = openat(&dir, "d", directory, Mode::empty()).unwrap();
        }
        let file = openat(&dir, "f.md", OFlags::WRONLY | OFlags::CREATE | OFlags::CLOEXEC, Mode::from_raw_mode(0o644))
            .unwrap();
        std::io::Write::write_all(&mut std::fs::File::from(file), b"content").unwrap();
    }
    let path = format!("{}f.md", "d/".repeat(3000));
    let document = researcher_with_artifacts(json!([
        {"path": path, "type": "research", "checksum": sha256(b"content")},
        {"path": path, "type": "research", "checksum": sha256(b"other")},
    ]));
    let report = judge_under(root.path(), Options::default(), document);
    assert!(at(&report, "REF-001").is_empty(), "{report}");
    assert_eq!(at(&report, "REF-004"), ["/artifacts/1/checksum"], "{report}");
    // `rm -r` removes a tree deeper than a path can name (the temporary directory's own removal
    // may not).
    let _ = std::process::Command::new("rm").arg("-rf").arg("d").current_dir(root.path()).status();
}
