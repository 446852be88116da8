//! The generated types as a user meets them: constants, formats, optional and nullable fields,
//! unknown properties, and validation errors that name the place with the document's own names.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use jerry_contracts::Validate;
use jerry_contracts::agents::{nse, ps};
use jerry_contracts::session_context::v1_1;
use jerry_contracts::typed::{self, Stage};
use serde_json::{Value, json};

fn researcher() -> Value {
    json!({
        "agent_id": "ps-researcher",
        "research_topic": "Agent handoff contracts",
        "findings": [{"id": "F-001", "summary": "Typed handoffs catch drift early", "category": "insight"}],
        "sources": [],
        "confidence": {"overall": 0.8}
    })
}

/// A v1.1 handoff from ps-researcher to nse-requirements with `researcher()` as its payload,
/// sent at `timestamp`.
fn handoff(timestamp: &str) -> Value {
    json!({
        "schema_version": "1.1.0", "session_id": "sess-1",
        "source_agent": {"id": "ps-researcher", "family": "ps"},
        "target_agent": {"id": "nse-requirements", "family": "nse"},
        "timestamp": timestamp,
        "payload": researcher()
    })
}

fn violations(schema: &str, document: &Value) -> Vec<(String, Stage)> {
    let entry = typed::find(schema, "").expect("generated type");
    entry.check(document).err().unwrap_or_default().into_iter().map(|v| (v.pointer, v.stage)).collect()
}

#[test]
fn a_const_field_only_reads_its_constant_and_always_writes_it() {
    let output: ps::ResearcherOutput = serde_json::from_value(researcher()).unwrap();
    assert_eq!(serde_json::to_value(&output).unwrap()["agent_id"], "ps-researcher");
    let mut wrong = researcher();
    wrong["agent_id"] = json!("ps-analyst");
    assert!(serde_json::from_value::<ps::ResearcherOutput>(wrong.clone()).is_err());
    assert_eq!(violations("agents/ps/researcher_output.json", &wrong), [("/agent_id".to_owned(), Stage::Shape)]);
    // `const: true`: only true.
    let mut disclaimer = json!({"agent_id": "nse-risk", "nasa_processes": [], "risks": [], "risk_matrix": {},
        "confidence": {"overall": 0.9}, "disclaimer_included": false});
    assert!(serde_json::from_value::<nse::RiskOutput>(disclaimer.clone()).is_err());
    disclaimer["disclaimer_included"] = json!(true);
    let risk: nse::RiskOutput = serde_json::from_value(disclaimer).unwrap();
    assert_eq!(serde_json::to_value(&risk).unwrap()["disclaimer_included"], true);
}

#[test]
fn a_timestamp_keeps_its_offset_and_its_text() {
    let handoff = handoff("2026-01-10T16:30:00.250+02:00");
    let context: v1_1::SessionContext = serde_json::from_value(handoff.clone()).unwrap();
    assert_eq!(context.timestamp.value().offset().local_minus_utc(), 2 * 3600);
    assert_eq!(serde_json::to_value(&context).unwrap(), handoff);
    assert!(matches!(context.payload, v1_1::Payload::PsResearcher(_)));
}

#[test]
fn relaying_a_document_loses_nothing() {
    let document = json!({
        "agent_id": "ps-reviewer", "review_subject": "ADR-007", "verdict": "approved",
        "review_criteria": [{"criterion": "traceable", "result": "pass", "reviewer_note": "not in the schema"}],
        "findings": [],
        "next_agent_hint": null,
        "artifacts": [],
        "x-vendor-extension": {"kept": [1, 2.5, "three"]}
    });
    let output: ps::ReviewerOutput = serde_json::from_value(document.clone()).unwrap();
    assert_eq!(output.next_agent_hint, Some(None), "null is kept apart from absent");
    assert_eq!(serde_json::to_value(&output).unwrap(), document);
    let mut absent = document.clone();
    absent.as_object_mut().unwrap().remove("next_agent_hint");
    let output: ps::ReviewerOutput = serde_json::from_value(absent.clone()).unwrap();
    assert_eq!(output.next_agent_hint, None);
    assert_eq!(serde_json::to_value(&output).unwrap(), absent);
}

#[test]
fn null_is_rejected_where_the_schema_rejects_it() {
    let mut document = researcher();
    document["research_gaps"] = Value::Null;
    assert_eq!(
        violations("agents/ps/researcher_output.json", &document),
        [("/research_gaps".to_owned(), Stage::Shape)]
    );
}

#[test]
fn violations_name_the_place_with_json_names() {
    let mut document = researcher();
    document["findings"][0]["id"] = json!("F-1");
    document["findings"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "F-002", "summary": "x", "category": "gap", "relevance_score": 1.5}));
    let mut found = violations("agents/ps/researcher_output.json", &document);
    found.sort();
    assert_eq!(
        found,
        [
            ("/findings/0/id".to_owned(), Stage::Constraint),
            ("/findings/1/relevance_score".to_owned(), Stage::Constraint)
        ]
    );
    // A property named `type` (a Rust keyword) is reported as `type`.
    let mut document = researcher();
    document["artifacts"] = json!([{"path": "a.md", "type": "poem"}]);
    assert_eq!(
        violations("agents/ps/researcher_output.json", &document),
        [("/artifacts/0/type".to_owned(), Stage::Shape)]
    );
}

#[test]
fn ecma_262_digit_class_is_ascii_only() {
    // `^R-\d{8}T\d{6}$` (orchestration/recovery.json): ECMA-262 `\d` is [0-9], never a
    // Unicode digit. (`\w` and `\s`, which no corpus schema uses, are in tests/conformance.rs.)
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/orchestration/recovery/valid/maximal.json");
    let mut document: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    document["id"] = json!("R-20260414T131500");
    assert_eq!(violations("orchestration/recovery.json", &document), []);
    for digit in ['\u{0661}', '\u{0967}', '\u{FF11}', '\u{1D7CF}'] {
        document["id"] = json!(format!("R-20260414T13150{digit}"));
        assert_eq!(
            violations("orchestration/recovery.json", &document),
            [("/id".to_owned(), Stage::Constraint)],
            "{digit:?} is a Unicode digit, not an ECMA \\d"
        );
    }
    let mut requirement = json!("REQ-ECL-001");
    let entry = typed::find("common/types.json", "/definitions/requirement_id").unwrap();
    assert!(entry.check(&requirement).is_ok());
    requirement = json!("REQ-ECL-\u{0660}\u{0660}\u{0661}");
    assert!(entry.check(&requirement).is_err(), "^REQ-[A-Z]{{3}}-\\d{{3}}$ takes ASCII digits only");
}

#[test]
fn a_uri_violation_says_which_character_is_wrong() {
    let mut handoff = handoff("2026-01-10T16:30:00Z");
    handoff["payload_schema_ref"] = json!("agents/ps/researcher output.json");
    let entry = typed::find("session_context/v1.1.0.json", "").unwrap();
    let violations = entry.check(&handoff).unwrap_err();
    let [violation] = violations.as_slice() else { panic!("{violations:?}") };
    assert_eq!(violation.pointer, "/payload_schema_ref");
    assert!(violation.message.contains("character ' ' at byte 20 is not allowed there"), "{}", violation.message);
}

#[test]
fn lengths_count_characters() {
    // 500 two-byte characters: 1000 bytes, within maxLength 500.
    let mut document = researcher();
    document["findings"][0]["summary"] = json!("é".repeat(500));
    let output: ps::ResearcherOutput = serde_json::from_value(document.clone()).unwrap();
    assert!(output.validate().is_ok());
    document["findings"][0]["summary"] = json!("é".repeat(501));
    let output: ps::ResearcherOutput = serde_json::from_value(document).unwrap();
    assert!(output.validate().is_err());
}

#[test]
fn nullable_enums_are_optional_enums() {
    let mut document = json!({"agent_id": "nse-reviewer", "nasa_processes": [], "review_type": "PDR",
        "assessment": {"entry_criteria_met": true, "exit_criteria_met": false}, "rrids": [], "verdict": "conditional",
        "next_agent_hint": "nse-reporter"});
    let output: nse::ReviewerOutput = serde_json::from_value(document.clone()).unwrap();
    assert_eq!(output.next_agent_hint, Some(Some(nse::ReviewerNextAgentHint::NseReporter)));
    document["next_agent_hint"] = json!("ps-analyst");
    assert!(serde_json::from_value::<nse::ReviewerOutput>(document).is_err());
}
