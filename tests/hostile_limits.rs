//! Hostile input, the bounds: what a run costs must not grow with what it has seen, an input is
//! read no further than the size limit, a 1.0.x handoff cannot slip its payload past the agent's
//! schema, and a pattern costs linear time on any text. Costs are counted, not timed: the files
//! a run hashes here, the bytes a judgement allocates in `tests/scaling.rs`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::io::Read;
use std::path::Path;

use jerry_contracts::validation::{Limited, Options, Report, Validator, read_limited};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

fn fixture(relative: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(relative);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

fn codes_at(report: &Report, code: &str) -> Vec<String> {
    report.records.iter().filter(|r| r.error_code == code).map(|r| r.path.clone().unwrap_or_default()).collect()
}

// ---------------------------------------------------------------------------------------------
// Requirement ids: learning and judging do not copy what the run knows
// ---------------------------------------------------------------------------------------------

#[test]
fn a_report_that_can_change_with_known_ids_says_so() {
    for schema in ["agents/nse/risk_output", "agents/nse/verification_output", "session_context/v1.1.0"] {
        assert!(Validator::reads_known_requirements(Some(schema)), "{schema}");
    }
    for schema in [Some("agents/ps/researcher_output"), Some("agents/nse/requirements_output"), None] {
        assert!(!Validator::reads_known_requirements(schema), "{schema:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Artifacts: hashed at most once per run
// ---------------------------------------------------------------------------------------------

#[test]
fn an_artifact_is_hashed_once_per_run_however_many_documents_name_it() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("projects/PROJ-004/risk");
    std::fs::create_dir_all(&dir).unwrap();
    let content = b"# Risk register\n";
    std::fs::write(dir.join("register.md"), content).unwrap();
    let mut risk = fixture("agents/nse/risk_output/valid/maximal.json");
    let hex: String = Sha256::digest(content).iter().map(|b| format!("{b:02x}")).collect();
    risk["artifacts"] = json!([{"path": "projects/PROJ-004/risk/register.md", "type": "risk", "format": "markdown",
        "checksum": format!("sha256:{hex}")}]);
    let text = bytes(&risk);
    let options = Options::default().with_root(root.path());
    let run = Validator::with_options(options.clone());
    assert!(codes_at(&run.validate(&text), "REF-004").is_empty());
    // The file changes under the run: the run keeps the digest it took (one read per artifact),
    // and so do its clones (the worker threads of the command line).
    std::fs::write(dir.join("register.md"), b"changed\n").unwrap();
    assert!(codes_at(&run.validate(&text), "REF-004").is_empty());
    assert!(codes_at(&run.clone().validate(&text), "REF-004").is_empty());
    // A new run reads it afresh.
    assert_eq!(codes_at(&Validator::with_options(options).validate(&text), "REF-004"), ["/artifacts/0/checksum"]);
}

// ---------------------------------------------------------------------------------------------
// Size limit
// ---------------------------------------------------------------------------------------------

#[test]
fn a_document_over_the_limit_is_one_record_and_is_not_read() {
    let researcher = bytes(&fixture("agents/ps/researcher_output/valid/maximal.json"));
    let small = Validator::with_options(Options::default().with_max_bytes(researcher.len() - 1));
    let report = small.validate(&researcher);
    assert_eq!(report.codes(), ["SCH-015"]);
    assert!(report.records[0].message.contains(&format!("limit of {} bytes", researcher.len() - 1)));
    assert_eq!(small.validate_as("agents/ps/researcher_output", &researcher).codes(), ["SCH-015"]);
    let exact = Validator::with_options(Options::default().with_max_bytes(researcher.len()));
    assert!(exact.validate(&researcher).records.iter().all(|r| r.error_code != "SCH-015"));
    assert_eq!(Options::default().max_bytes, 64 << 20);
}

#[test]
fn reading_an_endless_stream_stops_one_byte_past_the_limit() {
    match read_limited(std::io::repeat(b' '), 1 << 20).unwrap() {
        Limited::TooLarge { read } => assert_eq!(read, (1 << 20) + 1),
        Limited::Whole(_) => panic!("an endless stream is over any limit"),
    }
    match read_limited(&b"{}"[..], 2).unwrap() {
        Limited::Whole(bytes) => assert_eq!(bytes, b"{}"),
        Limited::TooLarge { .. } => panic!("two bytes are within a limit of two"),
    }
    // The reader is left just past the limit, not drained.
    let mut stream = std::io::Read::chain(&b"0123456789"[..], &b"abc"[..]);
    assert!(matches!(read_limited(&mut stream, 4).unwrap(), Limited::TooLarge { read: 5 }));
    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "56789abc");
}

// ---------------------------------------------------------------------------------------------
// No silent downgrade: a 1.0.x handoff's payload that names an agent
// ---------------------------------------------------------------------------------------------

/// A valid 1.0.0 envelope whose payload also carries `extra` members.
fn v10_with(extra: Value) -> Vec<u8> {
    let mut envelope = fixture("session_context/v1.0.0/valid/maximal.json");
    for (key, value) in extra.as_object().unwrap() {
        envelope["payload"][key] = value.clone();
    }
    // The payload is the source agent's own (else SEM-007).
    if let Some(agent) = extra.get("agent_id").and_then(Value::as_str) {
        let family = agent.split('-').next().unwrap();
        envelope["source_agent"] =
            json!({"id": agent, "family": if family == "orchestrator" { "orch" } else { family }});
    }
    bytes(&envelope)
}

#[test]
fn a_1_0_payload_naming_an_agent_gets_that_agents_checks_as_warnings() {
    let report = Validator::new().validate(&v10_with(json!({"agent_id": "ps-researcher", "research_topic": 42})));
    assert_eq!(report.schema, Some("session_context/v1.0.0"));
    assert!(report.is_valid(), "the seeds bind a 1.0.x payload to the generic shape only: {:?}", report.codes());
    let relayed: Vec<_> = report.records.iter().filter(|r| r.error_code == "SEM-019").collect();
    let topic = relayed.iter().find(|r| r.path.as_deref() == Some("/payload/research_topic")).expect("research_topic");
    assert!(
        topic.message.contains("SCH-002") && topic.message.contains("agents/ps/researcher_output"),
        "{}",
        topic.message
    );
    assert_eq!(topic.actual, Some(json!(42)));
    assert!(relayed.iter().all(|r| r.severity == jerry_contracts::common::ErrorRecordSeverity::Warning));
    // SEM-019 is a convention (D-119, D-130): an error in strict mode.
    let strict = Validator::with_options(Options::default().with_strict(true))
        .validate(&v10_with(json!({"agent_id": "ps-researcher", "research_topic": 42})));
    assert!(!strict.is_valid());
    assert!(
        strict
            .records
            .iter()
            .filter(|r| r.error_code == "SEM-019")
            .all(|r| r.severity == jerry_contracts::common::ErrorRecordSeverity::Error)
    );
    // A payload that names no agent, or one without an output schema, is left to the generic shape.
    for extra in [json!({}), json!({"agent_id": "orchestrator"}), json!({"agent_id": 7})] {
        let report = Validator::new().validate(&v10_with(extra.clone()));
        assert!(codes_at(&report, "SEM-019").is_empty(), "{extra}: {:?}", report.codes());
    }
}

#[test]
fn a_1_0_payload_breaking_an_agent_rule_is_told_too() {
    // nse-risk: risk_score must be likelihood × consequence (SEM-003, a rule, not a shape).
    let mut risk = fixture("agents/nse/risk_output/valid/maximal.json");
    risk["risks"][0]["risk_score"] = json!(1);
    let mut members = risk.as_object().unwrap().clone();
    members.remove("confidence");
    let report = Validator::new().validate(&v10_with(Value::Object(members)));
    assert!(report.is_valid(), "{:?}", report.codes());
    let sem_003: Vec<_> =
        report.records.iter().filter(|r| r.error_code == "SEM-019" && r.message.contains("SEM-003")).collect();
    assert!(!sem_003.is_empty(), "{:#?}", report.records);
    assert!(sem_003[0].path.as_deref().unwrap_or("").starts_with("/payload/risks/0"), "{:?}", sem_003[0].path);
}

// ---------------------------------------------------------------------------------------------
// Patterns: linear time on any text
// ---------------------------------------------------------------------------------------------

#[test]
fn a_100_kb_requirement_without_shall_is_judged_in_one_pass() {
    // `.*shall.*` on a backtracking engine is quadratic in a text without "shall": 100 KB took
    // 55 s. On the DFA it is one pass; the test finishing is the check (no time is measured).
    let mut requirements = fixture("agents/nse/requirements_output/valid/seed_example_2.json");
    requirements["requirements"][0]["requirement"] = json!("The system must ".repeat(6_400));
    let report = Validator::new().validate(&bytes(&requirements));
    assert_eq!(codes_at(&report, "SCH-003"), ["/requirements/0/requirement"]);
    let mut with_shall = requirements.clone();
    with_shall["requirements"][0]["requirement"] = json!("The system must ".repeat(6_400) + "shall");
    assert!(codes_at(&Validator::new().validate(&bytes(&with_shall)), "SCH-003").is_empty());
}
