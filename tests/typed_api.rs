//! The generated types as a user meets them: constants, formats, optional and nullable fields,
//! unknown properties, and validation errors that name the place with the document's own names.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use jerry_contracts::__private::typed::{self, Stage};
use jerry_contracts::agents::{nse, ps};
use jerry_contracts::session_context::v1_1;
use serde_json::{Value, json};

fn researcher() -> Value {
    json!({
        "agent_id": "ps-researcher",
        "research_topic": "Agent handoff contracts",
        "findings": [{"id": "F-001", "summary": "Typed handoffs catch drift early", "category": "insight"}],
        "sources": [],
        "confidence": {"overall": 0.8, "reasoning": "one source, read twice"}
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
    let output: ps::PsReviewerOutput = serde_json::from_value(document.clone()).unwrap();
    assert_eq!(output.next_agent_hint, Some(None), "null is kept apart from absent");
    assert_eq!(serde_json::to_value(&output).unwrap(), document);
    let mut absent = document.clone();
    absent.as_object_mut().unwrap().remove("next_agent_hint");
    let output: ps::PsReviewerOutput = serde_json::from_value(absent.clone()).unwrap();
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
    assert!(output.validate().is_valid());
    document["findings"][0]["summary"] = json!("é".repeat(501));
    let output: ps::ResearcherOutput = serde_json::from_value(document).unwrap();
    assert_eq!(output.validate().codes(), ["SCH-005"]);
}

#[test]
fn nullable_enums_are_optional_enums() {
    let mut document = json!({"agent_id": "nse-reviewer", "nasa_processes": [], "review_type": "PDR",
        "assessment": {"entry_criteria_met": true, "exit_criteria_met": false}, "rrids": [], "verdict": "conditional",
        "next_agent_hint": "nse-reporter"});
    let output: nse::NseReviewerOutput = serde_json::from_value(document.clone()).unwrap();
    assert_eq!(output.next_agent_hint, Some(Some(nse::NseReviewerNextAgentHint::NseReporter)));
    document["next_agent_hint"] = json!("ps-analyst");
    assert!(serde_json::from_value::<nse::NseReviewerOutput>(document).is_err());
}

// ---------------------------------------------------------------------------------------------
// Building values in Rust, without JSON text (issue 10, "Construction").
// ---------------------------------------------------------------------------------------------

mod building {
    use jerry_contracts::agents::{nse, ps};
    use jerry_contracts::common::{AgentId, ConfidenceScore, FindingId, RiskId};
    use jerry_contracts::formats::DateTime;
    use jerry_contracts::mission::{
        ActorId, CreatedAt, Level, MachineCode, MissionEnvelope, MissionId, Producer, TenantId,
    };
    use jerry_contracts::orchestration::{
        Todo, TodoMetadata, TodoMetadataAgentModel, TodoMetadataEvidenceRequired, TodoMetadataWorkflowStage,
        TodoPriority, TodoStatus,
    };
    use jerry_contracts::session_context::v1_0::{AgentFamily, AgentReference, SessionId};
    use jerry_contracts::session_context::v1_1::{Payload, SessionContext};
    use jerry_contracts::validation::Validator;
    use jerry_contracts::{Number, Validate};

    /// Validates `value` with garde and with all four layers, and checks that its JSON reads
    /// back into an equal value.
    fn sound<T>(value: &T, schema: &str)
    where
        T: Validate + serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        value.validate().into_result().unwrap_or_else(|e| panic!("{schema}: {e}"));
        let text = serde_json::to_string(value).unwrap();
        let report = Validator::new().validate_as(schema, text.as_bytes());
        assert!(report.is_valid(), "{schema}: {:?}\n{text}", report.codes());
        let back: T = serde_json::from_str(&text).unwrap();
        assert_eq!(&back, value);
    }

    /// A confidence with the reasoning the constitutional layer asks for (P-022).
    fn confidence(overall: f64) -> ConfidenceScore {
        let mut confidence = ConfidenceScore::new(overall);
        confidence.reasoning = Some("three independent sources agree".to_owned());
        confidence
    }

    fn researcher_output() -> ps::ResearcherOutput {
        let finding = ps::ResearcherFinding::new(
            FindingId::new("F-001").unwrap(),
            "Typed handoffs catch drift",
            ps::ResearcherFindingCategory::Insight,
        );
        let mut output = ps::ResearcherOutput::new("Handoff contracts", vec![finding], vec![], confidence(0.8));
        output.research_gaps = Some(vec!["Python bindings".to_owned()]);
        output
    }

    #[test]
    fn a_v1_1_handoff_with_a_researcher_payload() {
        let from = AgentReference::new(AgentId::new("ps-researcher").unwrap(), AgentFamily::Ps);
        let to = AgentReference::new(AgentId::new("nse-requirements").unwrap(), AgentFamily::Nse);
        let handoff = SessionContext::new(SessionId::from("sess-1".to_owned()), from, to, researcher_output());
        assert_eq!(handoff.schema_version.as_str(), "1.1.0");
        assert_eq!(handoff.payload_schema_ref.as_deref(), Some("agents/ps/researcher_output.json"));
        assert!(matches!(&handoff.payload, Payload::PsResearcher(_)));
        sound(&handoff, "session_context/v1.1.0");
        // The constant is written although the code never named it.
        let json: serde_json::Value = serde_json::to_value(&handoff).unwrap();
        assert_eq!(json["payload"]["agent_id"], "ps-researcher");
        assert!(Validator::new().validate_typed(&handoff).is_valid());
    }

    #[test]
    fn an_agent_output_with_integer_and_float_numbers() {
        let risk = nse::Risk::new(RiskId::new("RISK-001").unwrap(), "Thermal margin", 3, 4, 12);
        let process = jerry_contracts::common::NasaProcessReference::new(13, "Technical Risk Management");
        let mut output = nse::RiskOutput::new(vec![process], vec![risk], nse::RiskMatrix::default(), confidence(0.74));
        output.disclaimer_included = Some(Default::default());
        sound(&output, "agents/nse/risk_output");
        assert_eq!(output.risks[0].risk_score.get(), 12);
        // A wrong product is a rule violation, found on the typed value.
        output.risks[0].risk_score = Number::from(13);
        let report = Validator::new().validate_typed(&output);
        let errors: Vec<&str> = report.errors().map(|r| r.error_code.as_str()).collect();
        assert_eq!(errors, ["SEM-003"], "{report:?}");
    }

    #[test]
    fn a_mission_artifact() {
        let envelope = MissionEnvelope::new(
            MissionId::from("3f2c1a9e-8b7d-4c6e-9f1a-2b3c4d5e6f70".parse::<jerry_contracts::formats::Uuid>().unwrap()),
            MachineCode::from("oracle_advisory".to_owned()),
            MachineCode::from("chat".to_owned()),
            TenantId::from("tenant-1".to_owned()),
            ActorId::from("user-7".to_owned()),
            "Why did the build fail?",
            "explain build failure",
            Level::from("low".to_owned()),
            MachineCode::from("internal_business".to_owned()),
            CreatedAt::from(
                DateTime::from(chrono::DateTime::<chrono::Utc>::from_timestamp(1_768_000_000, 0).unwrap()).to_string(),
            ),
            Producer::from("colony-gateway".to_owned()),
        );
        assert_eq!(envelope.created_at.as_str(), "2026-01-09T23:06:40Z");
        sound(&envelope, "mission/mission_envelope");
    }

    #[test]
    fn an_orchestration_record() {
        let metadata = TodoMetadata::new(
            "Ship the validator",
            "every fixture passes",
            "any fixture fails",
            TodoMetadataEvidenceRequired::TestResult,
            "./target/report.json",
            TodoMetadataAgentModel::Claude,
            "ps-pipeline",
            vec![],
            false,
            TodoMetadataWorkflowStage::Implement,
            "run the suite",
            "30m",
            "ps-reviewer",
        );
        let todo = Todo::new("1.1", "Run the validator", TodoStatus::Pending, TodoPriority::High, metadata);
        sound(&todo, "orchestration/todo");
    }

    #[test]
    fn checked_ids_name_the_type_and_the_rule() {
        let err = FindingId::new("F-1").unwrap_err();
        assert_eq!(err.to_string(), r#"FindingId cannot be "F-1": it must match the pattern ^F-[0-9]{3}$"#);
        assert_eq!(err.type_name(), "FindingId");
        assert!("RISK-01".parse::<RiskId>().is_err());
        assert!(AgentId::try_from("Researcher").unwrap_err().to_string().contains("it must match the pattern"));
        assert_eq!(FindingId::try_from("F-042").unwrap(), "F-042");
    }

    #[test]
    fn structs_without_required_fields_are_default_and_timestamps_come_from_chrono() {
        assert_eq!(nse::RiskMatrix::default(), nse::RiskMatrix::new());
        let local = chrono::DateTime::parse_from_rfc3339("2026-01-10T14:30:00+02:00").unwrap();
        assert_eq!(DateTime::from(local).as_str(), "2026-01-10T14:30:00+02:00");
        assert_eq!(DateTime::from(local.with_timezone(&chrono::Utc)).as_str(), "2026-01-10T12:30:00Z");
    }
}

/// An enum's text conversions fail with the checked constructors' error, naming the type, the
/// value and every allowed value (typify's said only "invalid value").
#[test]
fn enum_from_str_names_the_type_and_its_values() {
    use jerry_contracts::agents::ps::ResearcherFindingCategory;
    let err = "bogus".parse::<ResearcherFindingCategory>().unwrap_err();
    assert_eq!(err.type_name(), "ResearcherFindingCategory");
    assert_eq!(err.value(), "bogus");
    assert_eq!(
        err.to_string(),
        r#"ResearcherFindingCategory cannot be "bogus": it must be one of "insight", "pattern", "gap", "prior_art", "best_practice""#
    );
    let err = ResearcherFindingCategory::try_from(String::from("Insight")).unwrap_err();
    assert!(err.rule().contains(r#""insight""#), "{err}");
    assert_eq!(ResearcherFindingCategory::try_from("gap").ok(), Some(ResearcherFindingCategory::Gap));
    // A long hostile value is cut short in the message.
    let err = "x".repeat(10_000).parse::<jerry_contracts::session_context::v1_0::AgentFamily>().unwrap_err();
    assert!(err.to_string().len() < 400, "{}", err.to_string().len());
}

/// `value.validate()` is the gate with no import, and stays the gate with garde's trait in scope
/// (this module imports neither `jerry_contracts::Validate` nor anything from its parent).
mod without_imports {
    #[test]
    fn validate_needs_no_import_and_means_the_gate() {
        #[allow(unused_imports)]
        use garde::Validate as _;
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/session_context/v1.1.0/valid/payload_ps_researcher.json"),
        )
        .unwrap();
        let handoff: jerry_contracts::session_context::v1_1::SessionContext = serde_json::from_str(&text).unwrap();
        let report: jerry_contracts::validation::Report = handoff.validate();
        assert_eq!(report, jerry_contracts::validation::validate(text.as_bytes()));
        let schema_only: jerry_contracts::validation::Report = handoff.validate_schema();
        assert!(schema_only.is_valid());
        let any = jerry_contracts::envelope::AnySessionContext::from_slice(text.as_bytes()).unwrap();
        assert_eq!(any.validate(), report);
    }
}
