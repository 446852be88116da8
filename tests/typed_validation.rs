//! `Validator::validate_typed` against `Validator::validate`: on every fixture of the envelopes,
//! the agent outputs and the task graph that reads into its type, the typed value gets exactly
//! the records its bytes get. And values built in Rust that break a rule no JSON text can (a NaN,
//! an `extra` member named like a field) are refused instead of written as another document.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::Validate;
use jerry_contracts::agents::ps::ResearcherOutput;
use jerry_contracts::session_context::{v1_0, v1_1};
use jerry_contracts::validation::{Document, Report, Validator};
use serde::de::DeserializeOwned;
use serde_json::Value;

fn typed_report<T: DeserializeOwned + Document>(document: &Value) -> Option<Report> {
    let typed: T = serde_json::from_value(document.clone()).ok()?;
    Some(Validator::new().validate_typed(&typed))
}

#[test]
fn typed_values_get_the_records_their_bytes_get() {
    let corpus = support::corpus();
    let mut compared = 0;
    for set in support::fixture_sets(&corpus).into_iter().filter(|s| s.target.definition.is_none()) {
        let schema = set.target.schema.as_str();
        let documents =
            set.valid.iter().map(|f| (&f.path, &f.document)).chain(set.invalid.iter().map(|f| (&f.path, &f.document)));
        for (path, document) in documents {
            let typed = match schema {
                "session_context/v1.0.0.json" => typed_report::<v1_0::SessionContext>(document),
                "session_context/v1.1.0.json" => typed_report::<v1_1::SessionContext>(document),
                "agents/ps/researcher_output.json" => typed_report::<ResearcherOutput>(document),
                "agents/nse/risk_output.json" => typed_report::<jerry_contracts::agents::nse::RiskOutput>(document),
                "mission/mission_task_graph.json" => {
                    typed_report::<jerry_contracts::mission::MissionTaskGraph>(document)
                }
                _ => None,
            };
            let Some(typed) = typed else { continue };
            let bytes = serde_json::to_vec(document).unwrap();
            let name = schema.trim_end_matches(".json");
            let expected = Validator::new().validate_as(name, &bytes);
            // The same records; a number the type holds as f64 (`78` read as 78.0) is compared by
            // value, since the typed value keeps no source text for declared numbers.
            let key = |r: &Report| -> Vec<(String, Option<String>, String, Option<f64>)> {
                r.records
                    .iter()
                    .map(|r| {
                        let actual = r.actual.as_ref().and_then(Value::as_f64);
                        (r.error_code.clone(), r.path.clone(), format!("{:?}", r.severity), actual)
                    })
                    .collect()
            };
            assert_eq!(key(&typed), key(&expected), "{}", path.display());
            assert_eq!(typed.schema, expected.schema, "{}", path.display());
            compared += 1;
        }
    }
    assert!(compared > 150, "only {compared} fixtures compared");
}

/// A valid ps-researcher output.
fn researcher() -> ResearcherOutput {
    serde_json::from_value(serde_json::json!({
        "agent_id": "ps-researcher", "research_topic": "t", "sources": [],
        "findings": [{"id": "F-001", "summary": "s", "category": "gap"}],
        "confidence": {"overall": 0.8, "reasoning": "one source"}
    }))
    .unwrap()
}

#[test]
fn a_nan_is_refused_rather_than_written_as_null() {
    let mut output = researcher();
    assert!(output.validate().is_valid());
    // An agent output is a payload by `From`.
    let payload = v1_1::Payload::from(output.clone());
    assert_eq!(payload.agent_id(), Some("ps-researcher"));
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        output.confidence.overall = bad.into();
        let err = output.validate().into_result().expect_err("not finite");
        assert!(err.to_string().contains("not a finite number"), "{err}");
        assert!(!Validator::new().validate_typed(&output).is_valid());
    }
}

#[test]
fn extra_cannot_hold_a_declared_member() {
    let mut output = researcher();
    output.extra.insert("x-note", "kept").unwrap();
    assert!(output.validate().is_valid());
    output.extra.insert("research_topic", "a second topic").unwrap();
    let err = output.validate().into_result().expect_err("a declared name");
    assert!(err.to_string().contains("`research_topic`"), "{err}");
    // Written anyway, the document holds the name twice, and no reader takes it.
    let text = serde_json::to_vec(&output).unwrap();
    assert!(serde_json::from_slice::<ResearcherOutput>(&text).is_err());
    assert_eq!(jerry_contracts::validation::validate(&text).codes(), ["SCH-014"]);
}

/// The fast path of `validate` (a probe of the bytes, then the typed read) gives exactly the
/// report of the complete path on the parsed value, on every fixture, valid and invalid, with its
/// members as written, sorted (`payload` before `schema_version`) and reversed.
#[test]
fn the_fast_path_reports_what_the_complete_path_reports() {
    let corpus = support::corpus();
    let validator = Validator::new();
    let mut compared = 0;
    for set in support::fixture_sets(&corpus).into_iter().filter(|s| s.target.definition.is_none()) {
        let documents =
            set.valid.iter().map(|f| (&f.path, &f.document)).chain(set.invalid.iter().map(|f| (&f.path, &f.document)));
        for (path, value) in documents {
            // A boundary case (`file.json#3`) has no file of its own: its compact form stands in.
            let written = std::fs::read(path).unwrap_or_else(|_| serde_json::to_vec(value).unwrap());
            let mut orders = vec![written, serde_json::to_vec(value).unwrap()];
            if let Value::Object(object) = value {
                let members: Vec<String> =
                    object.iter().rev().map(|(k, v)| format!("{}:{v}", Value::from(k.as_str()))).collect();
                orders.push(format!("{{{}}}", members.join(",")).into_bytes());
            }
            let complete = validator.validate_value(None, value);
            for bytes in orders {
                let fast = validator.validate(&bytes);
                assert_eq!(
                    (fast.schema, serde_json::to_value(&fast.records).unwrap()),
                    (complete.schema, serde_json::to_value(&complete.records).unwrap()),
                    "{}: {}",
                    path.display(),
                    String::from_utf8_lossy(&bytes)
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 2_000, "compared {compared}");
}

/// `value.validate()` of a typed value read from `document`, the gate on the bytes the value
/// writes, and the gate on the document itself.
fn gate_reports<T: DeserializeOwned + serde::Serialize + Validate>(
    document: &Value,
) -> Option<(Report, Report, Report)> {
    let typed: T = serde_json::from_value(document.clone()).ok()?;
    let written = serde_json::to_vec(&typed).unwrap();
    let original = serde_json::to_vec(document).unwrap();
    Some((
        typed.validate(),
        jerry_contracts::validation::validate(&written),
        jerry_contracts::validation::validate(&original),
    ))
}

#[test]
fn validate_on_a_typed_value_is_the_gate_on_its_bytes() {
    // One meaning of valid (D-151): every layer, the records the gate gives the written JSON, and
    // the verdict the gate gives the document the value was read from.
    let corpus = support::corpus();
    let mut compared = 0;
    for set in support::fixture_sets(&corpus).into_iter().filter(|s| s.target.definition.is_none()) {
        let schema = set.target.schema.as_str();
        let documents = set
            .valid
            .iter()
            .map(|f| (&f.path, &f.document))
            .chain(set.invalid.iter().map(|f| (&f.path, &f.document)))
            .chain(set.convention.iter().map(|f| (&f.path, &f.document)));
        for (path, document) in documents {
            let reports = match schema {
                "session_context/v1.0.0.json" => gate_reports::<v1_0::SessionContext>(document),
                "session_context/v1.1.0.json" => gate_reports::<v1_1::SessionContext>(document),
                "agents/ps/researcher_output.json" => gate_reports::<ResearcherOutput>(document),
                "agents/nse/risk_output.json" => gate_reports::<jerry_contracts::agents::nse::RiskOutput>(document),
                "agents/nse/requirements_output.json" => {
                    gate_reports::<jerry_contracts::agents::nse::RequirementsOutput>(document)
                }
                "mission/mission_task_graph.json" => {
                    gate_reports::<jerry_contracts::mission::MissionTaskGraph>(document)
                }
                _ => None,
            };
            let Some((typed, written, original)) = reports else { continue };
            let shown = path.display();
            assert_eq!(typed.codes(), written.codes(), "{shown}");
            assert_eq!(typed.schema, written.schema, "{shown}");
            assert_eq!(typed.is_valid(), original.is_valid(), "{shown}: {typed} / {original}");
            compared += 1;
        }
    }
    assert!(compared > 150, "only {compared} fixtures compared");
}

#[test]
fn values_the_readers_would_refuse_do_not_pass() {
    // A generic 1.1 payload whose unknown members name an agent: the reader dispatches it.
    let text = jerry_contracts::examples::example("session_context/v1.1.0").unwrap().to_string();
    let mut handoff: v1_1::SessionContext = serde_json::from_str(&text).unwrap();
    let mut generic: v1_0::Payload = serde_json::from_value(serde_json::json!({
        "key_findings": [], "confidence": {"overall": 0.7, "reasoning": "r"}
    }))
    .unwrap();
    generic.extra.insert("agent_id", &"ps-researcher").unwrap();
    handoff.payload = v1_1::Payload::Generic(Box::new(generic));
    handoff.payload_schema_ref = None;
    assert!(!handoff.validate().is_valid(), "{}", handoff.validate());
    // Raw members that repeat a key.
    let mut output = researcher();
    output.extra.insert_raw("vendor", r#"{"a": 1, "a": 2}"#).unwrap();
    let report = output.validate();
    assert_eq!(report.codes(), ["SCH-014"], "{report}");
}
