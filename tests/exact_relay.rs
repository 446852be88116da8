//! Exact relay: every valid fixture, read from its text into its generated type and written
//! back, gives every member with the same value and every number with the same text (declared
//! numbers included); documents with big and over-precise numbers keep them; `migrate` changes
//! only `schema_version` (docs/design.md D-112).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use std::collections::BTreeMap;

use jerry_contracts::__private::typed;
use jerry_contracts::versions;
use serde_json::value::RawValue;

/// Where `output` differs from `input` as JSON, comparing numbers by their text and strings by
/// their value (escapes may be written differently); member order is free.
fn differences(at: &str, input: &RawValue, output: &RawValue, found: &mut Vec<String>) {
    let (a, b) = (input.get().trim(), output.get().trim());
    match (a.as_bytes().first(), b.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => {
            let a: BTreeMap<String, Box<RawValue>> = serde_json::from_str(a).unwrap();
            let b: BTreeMap<String, Box<RawValue>> = serde_json::from_str(b).unwrap();
            for (key, value) in &a {
                match b.get(key) {
                    Some(other) => differences(&format!("{at}/{key}"), value, other, found),
                    None => found.push(format!("{at}/{key}: lost")),
                }
            }
            found.extend(b.keys().filter(|k| !a.contains_key(*k)).map(|k| format!("{at}/{k}: added")));
        }
        (Some(b'['), Some(b'[')) => {
            let a: Vec<Box<RawValue>> = serde_json::from_str(a).unwrap();
            let b: Vec<Box<RawValue>> = serde_json::from_str(b).unwrap();
            if a.len() != b.len() {
                found.push(format!("{at}: {} items became {}", a.len(), b.len()));
            }
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                differences(&format!("{at}/{i}"), x, y, found);
            }
        }
        (Some(b'"'), Some(b'"')) => {
            let (x, y): (String, String) = (serde_json::from_str(a).unwrap(), serde_json::from_str(b).unwrap());
            if x != y {
                found.push(format!("{at}: {a} became {b}"));
            }
        }
        _ if a != b => found.push(format!("{at}: {a} became {b}")),
        _ => {}
    }
}

fn exact(input: &str, output: &str) -> Vec<String> {
    let mut found = Vec::new();
    let (a, b): (Box<RawValue>, Box<RawValue>) =
        (serde_json::from_str(input).unwrap(), serde_json::from_str(output).unwrap());
    differences("", &a, &b, &mut found);
    found
}

#[test]
fn every_valid_fixture_is_relayed_exactly_through_its_type() {
    let corpus = support::corpus();
    let mut relayed = 0;
    let mut failures = Vec::new();
    for set in support::fixture_sets(&corpus) {
        let entry = typed::find(&set.target.schema, &set.target.pointer()).expect("a generated type");
        for fixture in &set.valid {
            // A boundary case is one entry of a file of cases: relay its value's JSON text.
            let text = match fixture.case {
                Some(_) => serde_json::to_string(&fixture.document).unwrap(),
                None => std::fs::read_to_string(&fixture.path).unwrap(),
            };
            match entry.relay(text.as_bytes()) {
                Ok(output) => {
                    let found = exact(&text, &output);
                    if !found.is_empty() {
                        failures.push(format!("{}: {found:?}", fixture.path.display()));
                    }
                }
                Err(violation) => failures.push(format!("{}: not read: {violation:?}", fixture.path.display())),
            }
            relayed += 1;
        }
    }
    assert!(failures.is_empty(), "{} of {relayed} fixtures changed:\n{}", failures.len(), failures.join("\n"));
    assert!(relayed > 300, "only {relayed} fixtures relayed");
}

/// A v1.1 handoff whose numbers serde_json's `f64`/`i64` would rewrite, in declared fields (a
/// `number` field, an `integer` field, a risk score), in unknown members and in the payload.
const AWKWARD_NUMBERS: &str = r#"{
  "schema_version": "1.1.0",
  "session_id": "sess-numbers",
  "source_agent": {"id": "nse-risk", "family": "nse", "cognitive_mode": "convergent"},
  "target_agent": {"id": "orchestrator", "family": "orch"},
  "timestamp": "2026-01-10T14:30:00Z",
  "payload_schema_ref": "https://jerry.dev/schemas/agents/nse/risk_output.json",
  "workflow_state": {"step_number": 2.0, "total_steps": 1e1},
  "x-big": -12345678901234567890,
  "x-precise": 0.1000000000000000055511151231257827,
  "payload": {
    "agent_id": "nse-risk",
    "disclaimer_included": true,
    "nasa_processes": [{"process_number": 13.0, "name": "Technical Risk Management"}],
    "risk_matrix": {"high_risks": 1e0, "low_risks": 0},
    "risks": [{
      "id": "RISK-001", "title": "Thermal margin", "description": "Radiator undersized",
      "likelihood": 3, "consequence": 4.0, "risk_score": 12,
      "x-weight": 1E+2
    }],
    "confidence": {"overall": 0.1000000000000000055511151231257827, "breakdown": {"a": 1, "b": 0.50}},
    "x-huge": 123456789012345678901234567890
  }
}"#;

#[test]
fn big_and_over_precise_numbers_keep_their_text() {
    let entry = typed::find("session_context/v1.1.0.json", "").expect("the v1.1 envelope type");
    let output = entry.relay(AWKWARD_NUMBERS.as_bytes()).unwrap_or_else(|v| panic!("{v:?}"));
    assert_eq!(exact(AWKWARD_NUMBERS, &output), Vec::<String>::new(), "{output}");
    for text in [
        "2.0",
        "1e1",
        "4.0",
        "13.0",
        "1e0",
        "0.1000000000000000055511151231257827",
        "0.50",
        "-12345678901234567890",
        "1E+2",
    ] {
        assert!(output.contains(text), "{text} is not in {output}");
    }
    // The same through the typed SDK: read, change one field, write.
    let mut handoff: jerry_contracts::session_context::v1_1::SessionContext =
        serde_json::from_str(AWKWARD_NUMBERS).unwrap();
    handoff.session_id = "sess-changed".parse().unwrap();
    let written = serde_json::to_string(&handoff).unwrap();
    let found = exact(AWKWARD_NUMBERS, &written);
    assert_eq!(found, vec!["/session_id: \"sess-numbers\" became \"sess-changed\"".to_owned()]);
}

#[test]
fn migrate_changes_only_the_version() {
    let v10 = r#"{"schema_version": "1.0.0", "session_id": "sess-1",
        "source_agent": {"id": "ps-analyst", "family": "ps"}, "target_agent": {"id": "nse-risk", "family": "nse"},
        "timestamp": "2026-01-10T14:30:00Z", "x-big": 123456789012345678901234567890,
        "payload": {"key_findings": [], "confidence": {"overall": 0.70, "reasoning": "r\u00e9"}, "n": 1e2}}"#;
    let migrated = versions::migrate_text(v10.as_bytes(), "1.1.0").unwrap_or_else(|e| panic!("{e}"));
    let found = exact(v10, &migrated);
    assert_eq!(found, vec!["/schema_version: \"1.0.0\" became \"1.1.0\"".to_owned()], "{migrated}");
    // Members keep their order.
    let at = |key: &str| migrated.find(&format!("\"{key}\"")).unwrap_or(usize::MAX);
    assert!(at("schema_version") < at("session_id") && at("x-big") < at("payload"), "{migrated}");
}
