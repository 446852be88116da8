//! The semantic (`SEM-*`), constitutional (`CON-*`) and cross-reference (`REF-*`) layers: every
//! rule is broken once (the exact code, severity and pointer are asserted) and kept once (the
//! code is absent), on documents built from the fixtures with `serde_json`. A sweep over the
//! valid fixtures lists, exactly, the rules they break.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use jerry_contracts::common::{ErrorRecord, ErrorRecordSeverity};
use jerry_contracts::validation::{Options, Report, Validator};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const ERROR: ErrorRecordSeverity = ErrorRecordSeverity::Error;
const WARNING: ErrorRecordSeverity = ErrorRecordSeverity::Warning;

const RISK: &str = "agents/nse/risk_output/valid/maximal.json";
const REQUIREMENTS: &str = "agents/nse/requirements_output/valid/maximal.json";
const VERIFICATION: &str = "agents/nse/verification_output/valid/maximal.json";
const ARCHITECTURE: &str = "agents/nse/architecture_output/valid/maximal.json";
const PS_REVIEWER: &str = "agents/ps/reviewer_output/valid/maximal.json";
const PS_VALIDATOR: &str = "agents/ps/validator_output/valid/maximal.json";
const RESEARCHER: &str = "agents/ps/researcher_output/valid/maximal.json";
const SEED_EXAMPLE_1: &str = "session_context/v1.1.0/valid/seed_example_1.json";
const GENERIC_11: &str = "session_context/v1.1.0/valid/generic_payload.json";
const ENVELOPE_10: &str = "session_context/v1.0.0/valid/maximal.json";
const TASK_GRAPH: &str = "mission/mission_task_graph/valid/maximal.json";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn load(relative: &str) -> Value {
    let path = fixtures().join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// Validates `doc` with default options; the document must pass the schema layer, so that the
/// rule layers ran.
#[track_caller]
fn run(doc: &Value) -> Report {
    run_with(Options::default(), doc)
}

///
/// Every run is also made in strict mode, which must give the same records with each
/// convention's (a code whose basis is a convention: D-130) an error and every other record as
/// it was: the seeds' rules do not depend on the mode, the conventions do.
#[track_caller]
fn run_with(options: Options, doc: &Value) -> Report {
    let bytes = serde_json::to_vec(doc).expect("serialisable");
    let report = Validator::with_options(options.clone()).validate(&bytes);
    let schema: Vec<&ErrorRecord> = report.records.iter().filter(|r| r.error_code.starts_with("SCH-")).collect();
    assert!(schema.is_empty(), "the document must be schema-valid, got {schema:#?}");
    let strict = Validator::with_options(options.with_strict(true)).validate(&bytes);
    assert_eq!(strict.records.len(), report.records.len());
    for (lenient, strict) in report.records.iter().zip(&strict.records) {
        let convention = lenient.code().is_some_and(|code| code.is_convention());
        let severity = if convention { ERROR } else { lenient.severity };
        assert_eq!((&strict.error_code, &strict.path, strict.severity), (&lenient.error_code, &lenient.path, severity));
        if convention {
            assert_eq!(lenient.severity, WARNING, "a convention warns by default: {lenient:?}");
        }
    }
    report
}

/// Replaces the value at `pointer`, or adds it to its (existing) parent object.
#[track_caller]
fn set(doc: &mut Value, pointer: &str, value: Value) {
    if let Some(place) = doc.pointer_mut(pointer) {
        *place = value;
        return;
    }
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer below the root");
    let object = doc.pointer_mut(parent).and_then(Value::as_object_mut).unwrap_or_else(|| panic!("no object {parent}"));
    object.insert(key.to_owned(), value);
}

#[track_caller]
fn remove(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer below the root");
    let object = doc.pointer_mut(parent).and_then(Value::as_object_mut).unwrap_or_else(|| panic!("no object {parent}"));
    assert!(object.remove(key).is_some(), "no {pointer} to remove");
}

#[track_caller]
fn push(doc: &mut Value, pointer: &str, value: Value) {
    doc.pointer_mut(pointer).and_then(Value::as_array_mut).unwrap_or_else(|| panic!("no array {pointer}")).push(value);
}

/// The record with `code` at `pointer`; fails unless there is exactly one and it has `severity`.
#[track_caller]
fn reported<'r>(report: &'r Report, code: &str, severity: ErrorRecordSeverity, pointer: &str) -> &'r ErrorRecord {
    let found: Vec<&ErrorRecord> =
        report.records.iter().filter(|r| r.error_code == code && r.path.as_deref() == Some(pointer)).collect();
    assert_eq!(found.len(), 1, "one {code} at {pointer:?} expected, records: {:#?}", report.records);
    assert_eq!(found[0].severity, severity, "{code} severity");
    found[0]
}

#[track_caller]
fn absent(report: &Report, code: &str) {
    let found: Vec<&ErrorRecord> = report.records.iter().filter(|r| r.error_code == code).collect();
    assert!(found.is_empty(), "no {code} expected, got {found:#?}");
}

/// The pointers at which `code` was reported, in order.
fn pointers<'r>(report: &'r Report, code: &str) -> Vec<&'r str> {
    report.records.iter().filter(|r| r.error_code == code).filter_map(|r| r.path.as_deref()).collect()
}

/// A consistent v1.1.0 envelope (Example 1's) whose payload is `output`, handed from its agent
/// to `orch-planner`.
fn envelope(output: Value) -> Value {
    let agent = output["agent_id"].as_str().expect("an agent output").to_owned();
    let family = agent.split('-').next().expect("a prefix").to_owned();
    let schema = jerry_contracts::registry::by_agent(&agent).expect("an agent with an output schema").path;
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/source_agent", json!({ "id": agent, "family": family }));
    set(&mut doc, "/target_agent", json!({ "id": "orch-planner", "family": "orch" }));
    // An orchestrator is in neither the ps nor the nse family: no ps/nse boundary is crossed (D-109).
    let _ = family;
    set(&mut doc, "/workflow_state/cross_family_handoff", json!(false));
    set(&mut doc, "/payload_schema_ref", json!(schema));
    set(&mut doc, "/payload", output);
    doc
}

/// Example 1 with the v1.1.0 generic payload (the one of `generic_payload.json`).
fn generic_envelope() -> Value {
    let mut doc = load(SEED_EXAMPLE_1);
    let generic = load(GENERIC_11);
    set(&mut doc, "/payload", generic["payload"].clone());
    remove(&mut doc, "/payload_schema_ref");
    doc
}

// ---------------------------------------------------------------------------------------------
// The valid fixtures
// ---------------------------------------------------------------------------------------------

/// Error records the valid fixtures get from the rule layers, as (code, pointer, fixtures). The
/// schema layer accepts these documents; the rules do not. Each is reported to the lead rather
/// than fixed here (the fixtures are not this suite's to edit).
const FIXTURE_BREAKS: &[(&str, &str, &[&str])] = &[
    // P-043 (D-22): nse outputs that state only what the schema requires have no disclaimer.
    (
        "CON-001",
        "",
        &[
            "agents/nse/architecture_output/valid/minimal.json",
            "agents/nse/architecture_output/valid/score_bounds_met.json",
            "agents/nse/configuration_output/valid/minimal.json",
            "agents/nse/configuration_output/valid/next_agent_hint_null.json",
            "agents/nse/integration_output/valid/minimal.json",
            "agents/nse/reporter_output/valid/executive_summary_at_max_length.json",
            "agents/nse/reporter_output/valid/minimal.json",
            "agents/nse/requirements_output/valid/confidence_bounds_met.json",
            "agents/nse/requirements_output/valid/minimal.json",
            "agents/nse/reviewer_output/valid/minimal.json",
            "agents/nse/reviewer_output/valid/next_agent_hint_null.json",
            "agents/nse/risk_output/valid/minimal.json",
            "agents/nse/risk_output/valid/score_bounds_met.json",
            "agents/nse/verification_output/valid/coverage_bounds_met.json",
            "agents/nse/verification_output/valid/minimal.json",
        ],
    ),
    // P-040: requirements without parent_need, and an orphan the output lists itself.
    (
        "CON-002",
        "/requirements/0",
        &[
            "agents/nse/requirements_output/valid/confidence_bounds_met.json",
            "agents/nse/requirements_output/valid/minimal.json",
        ],
    ),
    ("CON-002", "/traceability/orphan_requirements/0", &["agents/nse/requirements_output/valid/maximal.json"]),
    // The same output as a v1.1 handoff's payload.
    (
        "CON-002",
        "/payload/traceability/orphan_requirements/0",
        &["session_context/v1.1.0/valid/payload_nse_requirements.json"],
    ),
    // P-022: a confidence without reasoning.
    (
        "CON-004",
        "/confidence",
        &[
            "agents/nse/architecture_output/valid/minimal.json",
            "agents/nse/architecture_output/valid/score_bounds_met.json",
            "agents/nse/configuration_output/valid/minimal.json",
            "agents/nse/configuration_output/valid/next_agent_hint_null.json",
            "agents/nse/integration_output/valid/minimal.json",
            "agents/nse/requirements_output/valid/confidence_bounds_met.json",
            "agents/nse/requirements_output/valid/minimal.json",
            "agents/nse/risk_output/valid/minimal.json",
            "agents/nse/risk_output/valid/score_bounds_met.json",
            "agents/nse/verification_output/valid/coverage_bounds_met.json",
            "agents/nse/verification_output/valid/minimal.json",
            "agents/ps/analyst_output/valid/impact_assessment.json",
            "agents/ps/analyst_output/valid/minimal.json",
            "agents/ps/architect_output/valid/minimal.json",
            "agents/ps/architect_output/valid/superseded_adr.json",
            "agents/ps/investigator_output/valid/minimal.json",
            "agents/ps/reporter_output/valid/blocked_incident.json",
            "agents/ps/researcher_output/valid/boundary_values.json",
            "agents/ps/researcher_output/valid/minimal.json",
            "agents/ps/reviewer_output/valid/next_agent_hint_null.json",
            "agents/ps/synthesizer_output/valid/cross_family_sources.json",
            "agents/ps/synthesizer_output/valid/minimal.json",
            "agents/ps/validator_output/valid/all_pass.json",
        ],
    ),
    (
        "CON-004",
        "/payload/confidence",
        &[
            "session_context/v1.0.0/valid/forward_compatible_orch_root.json",
            "session_context/v1.0.0/valid/minimal.json",
            "session_context/v1.1.0/valid/minimal.json",
        ],
    ),
    // orch-planner → ps-investigator with cross_family_handoff false (families orch and ps differ).
    // A generic payload (no agent_id) under payload_schema_ref agents/ps/analyst_output.json.
];

/// Every `valid/*.json` under `dir` (relative to the fixtures), recursively.
fn valid_fixtures(dir: &str) -> Vec<String> {
    let root = fixtures();
    let mut found = Vec::new();
    let mut stack = vec![root.join(dir)];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json")
                && path.parent().is_some_and(|p| p.ends_with("valid"))
            {
                let relative = path.strip_prefix(&root).expect("under the fixtures");
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn valid_fixtures_get_no_rule_error_but_the_listed_ones() {
    let mut files = Vec::new();
    for dir in
        ["agents", "session_context/v1.1.0/valid", "session_context/v1.0.0/valid", "mission/mission_task_graph/valid"]
    {
        files.extend(valid_fixtures(dir));
    }
    assert!(files.len() >= 60, "{} valid fixtures found", files.len());
    let mut unexpected = Vec::new();
    let mut missing = Vec::new();
    for file in &files {
        let report = run(&load(file));
        let got: BTreeSet<(String, String)> =
            report.errors().map(|r| (r.error_code.clone(), r.path.clone().unwrap_or_default())).collect();
        let listed: BTreeSet<(String, String)> = FIXTURE_BREAKS
            .iter()
            .filter(|(_, _, files)| files.contains(&file.as_str()))
            .map(|(code, pointer, _)| ((*code).to_owned(), (*pointer).to_owned()))
            .collect();
        unexpected.extend(got.difference(&listed).map(|(c, p)| format!("{file}: {c} at {p:?}")));
        missing.extend(listed.difference(&got).map(|(c, p)| format!("{file}: {c} at {p:?}")));
    }
    assert!(unexpected.is_empty(), "errors on valid fixtures: {unexpected:#?}");
    assert!(missing.is_empty(), "listed breaks that no longer happen (update FIXTURE_BREAKS): {missing:#?}");
}

#[test]
fn the_maximal_fixtures_the_rule_tests_start_from_are_clean() {
    for file in [RISK, VERIFICATION, ARCHITECTURE, PS_REVIEWER, RESEARCHER, SEED_EXAMPLE_1, ENVELOPE_10, TASK_GRAPH] {
        let report = run(&load(file));
        assert!(report.is_valid(), "{file}: {:#?}", report.records);
    }
    for doc in [envelope(load(RISK)), envelope(load(PS_REVIEWER)), generic_envelope()] {
        let report = run(&doc);
        assert!(report.is_valid(), "{:#?}", report.records);
    }
}

// ---------------------------------------------------------------------------------------------
// SEM-001 empty findings, SEM-002 low confidence
// ---------------------------------------------------------------------------------------------

#[test]
fn sem_001_empty_reviewer_findings() {
    let mut doc = load(PS_REVIEWER);
    set(&mut doc, "/findings", json!([]));
    reported(&run(&doc), "SEM-001", WARNING, "/findings");
    reported(&run(&envelope(doc)), "SEM-001", WARNING, "/payload/findings");
}

#[test]
fn sem_001_empty_generic_key_findings() {
    let mut doc = load(ENVELOPE_10);
    set(&mut doc, "/payload/key_findings", json!([]));
    reported(&run(&doc), "SEM-001", WARNING, "/payload/key_findings");
    let mut doc = generic_envelope();
    set(&mut doc, "/payload/key_findings", json!([]));
    reported(&run(&doc), "SEM-001", WARNING, "/payload/key_findings");
}

#[test]
fn sem_001_absent_with_findings() {
    absent(&run(&load(PS_REVIEWER)), "SEM-001");
    absent(&run(&load(ENVELOPE_10)), "SEM-001");
    absent(&run(&generic_envelope()), "SEM-001");
}

#[test]
fn sem_002_low_confidence() {
    let mut doc = load(RISK);
    set(&mut doc, "/confidence/overall", json!(0.29));
    let report = run(&doc);
    let record = reported(&report, "SEM-002", WARNING, "/confidence/overall");
    assert_eq!(record.actual, Some(json!(0.29)));
    reported(&run(&envelope(doc)), "SEM-002", WARNING, "/payload/confidence/overall");
    let mut doc = load(ENVELOPE_10);
    set(&mut doc, "/payload/confidence/overall", json!(0.1));
    reported(&run(&doc), "SEM-002", WARNING, "/payload/confidence/overall");
}

#[test]
fn sem_002_absent_from_0_3() {
    let mut doc = load(RISK);
    set(&mut doc, "/confidence/overall", json!(0.3));
    absent(&run(&doc), "SEM-002");
    absent(&run(&envelope(doc)), "SEM-002");
    // An output whose confidence is optional and absent.
    let mut doc = load(PS_REVIEWER);
    if doc.get("confidence").is_some() {
        remove(&mut doc, "/confidence");
    }
    absent(&run(&doc), "SEM-002");
}

// ---------------------------------------------------------------------------------------------
// SEM-003 … SEM-005 risk scores
// ---------------------------------------------------------------------------------------------

#[test]
fn sem_003_risk_score_is_not_the_product() {
    let mut doc = load(RISK);
    set(&mut doc, "/risks/0/risk_score", json!(16));
    let report = run(&doc);
    let record = reported(&report, "SEM-003", ERROR, "/risks/0/risk_score");
    assert_eq!((record.expected.clone(), record.actual.clone()), (Some(json!(20)), Some(json!(16))));
    assert!(record.message.contains("RISK-001") && record.message.contains("= 20"), "{}", record.message);
    reported(&run(&envelope(doc)), "SEM-003", ERROR, "/payload/risks/0/risk_score");
}

#[test]
fn sem_003_absent_when_the_score_is_the_product() {
    absent(&run(&load(RISK)), "SEM-003");
    absent(&run(&envelope(load(RISK))), "SEM-003");
}

#[test]
fn sem_004_residual_score_is_not_the_product() {
    let mut doc = load(RISK);
    set(&mut doc, "/risks/1/residual_risk_score", json!(6));
    let report = run(&doc);
    let record = reported(&report, "SEM-004", WARNING, "/risks/1/residual_risk_score");
    assert_eq!(record.expected, Some(json!(4)));
    reported(&run(&envelope(doc)), "SEM-004", WARNING, "/payload/risks/1/residual_risk_score");
}

#[test]
fn sem_004_absent_without_the_full_trio() {
    let mut doc = load(RISK);
    set(&mut doc, "/risks/1/residual_risk_score", json!(6));
    remove(&mut doc, "/risks/1/residual_likelihood");
    absent(&run(&doc), "SEM-004");
    absent(&run(&load(RISK)), "SEM-004");
}

#[test]
fn sem_005_risk_level_outside_its_band() {
    let mut doc = load(RISK);
    set(&mut doc, "/risks/1/risk_level", json!("high"));
    let report = run(&doc);
    let record = reported(&report, "SEM-005", WARNING, "/risks/1/risk_level");
    assert_eq!((record.expected.clone(), record.actual.clone()), (Some(json!("medium")), Some(json!("high"))));
    reported(&run(&envelope(doc)), "SEM-005", WARNING, "/payload/risks/1/risk_level");
}

#[test]
fn sem_005_band_edges() {
    // (likelihood, consequence, level): the edges of every band, all consistent.
    let cases = [
        (1, 1, "low"),
        (2, 2, "low"),
        (1, 5, "medium"),
        (3, 3, "medium"),
        (2, 5, "high"),
        (4, 4, "high"),
        (4, 5, "critical"),
        (5, 5, "critical"),
    ];
    for (likelihood, consequence, level) in cases {
        let mut doc = load(RISK);
        set(&mut doc, "/risks/0/likelihood", json!(likelihood));
        set(&mut doc, "/risks/0/consequence", json!(consequence));
        set(&mut doc, "/risks/0/risk_score", json!(likelihood * consequence));
        set(&mut doc, "/risks/0/risk_level", json!(level));
        let report = run(&doc);
        absent(&report, "SEM-005");
        absent(&report, "SEM-003");
    }
    // One step over an edge is the next band.
    let mut doc = load(RISK);
    set(&mut doc, "/risks/0/likelihood", json!(1));
    set(&mut doc, "/risks/0/consequence", json!(5));
    set(&mut doc, "/risks/0/risk_score", json!(5));
    set(&mut doc, "/risks/0/risk_level", json!("low"));
    reported(&run(&doc), "SEM-005", WARNING, "/risks/0/risk_level");
}

#[test]
fn sem_005_not_judged_for_a_score_no_product_gives() {
    // 18 lies between the bands (no 5×5 product is 17–19): SEM-003 reports it, SEM-005 does not.
    let mut doc = load(RISK);
    set(&mut doc, "/risks/0/risk_score", json!(18));
    let report = run(&doc);
    reported(&report, "SEM-003", ERROR, "/risks/0/risk_score");
    absent(&report, "SEM-005");
}

// ---------------------------------------------------------------------------------------------
// SEM-006 … SEM-009, SEM-012, SEM-013, SEM-017, SEM-018: envelopes
// ---------------------------------------------------------------------------------------------

#[test]
fn sem_006_cross_family_handoff_contradicts_the_families() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/workflow_state/cross_family_handoff", json!(false));
    let report = run(&doc);
    let record = reported(&report, "SEM-006", ERROR, "/workflow_state/cross_family_handoff");
    assert_eq!((record.expected.clone(), record.actual.clone()), (Some(json!(true)), Some(json!(false))));
    // Same family, claimed cross-family.
    let mut doc = envelope(load(RISK));
    set(&mut doc, "/target_agent", json!({ "id": "nse-reviewer", "family": "nse" }));
    set(&mut doc, "/workflow_state/cross_family_handoff", json!(true));
    reported(&run(&doc), "SEM-006", ERROR, "/workflow_state/cross_family_handoff");
    // To an orchestrator: no ps/nse boundary is crossed (D-109).
    let mut doc = envelope(load(RISK));
    set(&mut doc, "/workflow_state/cross_family_handoff", json!(true));
    reported(&run(&doc), "SEM-006", ERROR, "/workflow_state/cross_family_handoff");
}

#[test]
fn sem_006_absent_when_consistent() {
    absent(&run(&load(SEED_EXAMPLE_1)), "SEM-006");
    let mut doc = envelope(load(RISK));
    set(&mut doc, "/target_agent", json!({ "id": "nse-reviewer", "family": "nse" }));
    set(&mut doc, "/workflow_state/cross_family_handoff", json!(false));
    absent(&run(&doc), "SEM-006");
    remove(&mut doc, "/workflow_state/cross_family_handoff");
    set(&mut doc, "/target_agent", json!({ "id": "ps-analyst", "family": "ps" }));
    absent(&run(&doc), "SEM-006");
}

#[test]
fn sem_007_payload_agent_differs_from_the_source() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/source_agent", json!({ "id": "ps-analyst", "family": "ps" }));
    let report = run(&doc);
    let record = reported(&report, "SEM-007", WARNING, "/payload/agent_id");
    assert_eq!(
        (record.expected.clone(), record.actual.clone()),
        (Some(json!("ps-analyst")), Some(json!("ps-researcher")))
    );
    // v1.0.0: the generic payload carries agent_id as an undeclared property.
    let mut doc = load(ENVELOPE_10);
    set(&mut doc, "/payload/agent_id", json!("nse-risk"));
    reported(&run(&doc), "SEM-007", WARNING, "/payload/agent_id");
    // v1.1.0 generic payload of an agent without an output schema.
    let mut doc = generic_envelope();
    set(&mut doc, "/payload/agent_id", json!("orch-planner"));
    reported(&run(&doc), "SEM-007", WARNING, "/payload/agent_id");
}

#[test]
fn sem_007_absent_when_the_source_produced_the_payload() {
    absent(&run(&load(SEED_EXAMPLE_1)), "SEM-007");
    let mut doc = load(ENVELOPE_10);
    set(&mut doc, "/payload/agent_id", json!("nse-requirements"));
    absent(&run(&doc), "SEM-007");
    absent(&run(&load(ENVELOPE_10)), "SEM-007");
    absent(&run(&generic_envelope()), "SEM-007");
}

#[test]
fn sem_008_payload_schema_ref_names_another_kind() {
    for reference in ["agents/nse/risk_output.json", "agents/ps/no_such_output.json", "mission/worker_result.json"] {
        let mut doc = load(SEED_EXAMPLE_1);
        set(&mut doc, "/payload_schema_ref", json!(reference));
        let report = run(&doc);
        let record = reported(&report, "SEM-008", ERROR, "/payload_schema_ref");
        assert_eq!(record.actual, Some(json!(reference)));
    }
    // A generic payload referred to an agent's output schema.
    let mut doc = generic_envelope();
    set(&mut doc, "/payload_schema_ref", json!("agents/ps/investigator_output.json"));
    reported(&run(&doc), "SEM-008", ERROR, "/payload_schema_ref");
}

#[test]
fn sem_008_absent_when_the_ref_names_the_payloads_schema() {
    for reference in [
        "agents/ps/researcher_output.json",
        "./agents/ps/researcher_output.json",
        "https://jerry.dev/schemas/agents/ps/researcher_output.json",
        "agents/ps/researcher_output.json#",
    ] {
        let mut doc = load(SEED_EXAMPLE_1);
        set(&mut doc, "/payload_schema_ref", json!(reference));
        absent(&run(&doc), "SEM-008");
    }
    let mut doc = generic_envelope();
    set(&mut doc, "/payload_schema_ref", json!("session_context/v1.0.0.json#/definitions/payload"));
    absent(&run(&doc), "SEM-008");
    absent(&run(&envelope(load(RISK))), "SEM-008");
}

#[test]
fn sem_009_family_differs_from_the_id_prefix() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/source_agent/family", json!("nse"));
    let report = run(&doc);
    let record = reported(&report, "SEM-009", ERROR, "/source_agent/family");
    assert_eq!((record.expected.clone(), record.actual.clone()), (Some(json!("ps")), Some(json!("nse"))));
    let mut doc = load(ENVELOPE_10);
    set(&mut doc, "/target_agent/family", json!("orch"));
    reported(&run(&doc), "SEM-009", ERROR, "/target_agent/family");
}

#[test]
fn sem_009_absent_when_families_match() {
    absent(&run(&load(SEED_EXAMPLE_1)), "SEM-009");
    absent(&run(&load(ENVELOPE_10)), "SEM-009");
}

#[test]
fn sem_012_step_number_beyond_total_steps() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/workflow_state/step_number", json!(9));
    reported(&run(&doc), "SEM-012", WARNING, "/workflow_state/step_number");
}

#[test]
fn sem_012_absent_at_the_last_step() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/workflow_state/step_number", json!(8));
    absent(&run(&doc), "SEM-012");
}

#[test]
fn sem_013_barrier_completed_agent_not_expected() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(
        &mut doc,
        "/workflow_state/sync_barrier",
        json!({
            "barrier_id": "SB-SAO-001-research",
            "agents_expected": ["ps-researcher", "ps-analyst"],
            "agents_completed": ["ps-researcher", "nse-risk", "ps-analyst", "orch-planner"]
        }),
    );
    let report = run(&doc);
    assert_eq!(
        pointers(&report, "SEM-013"),
        ["/workflow_state/sync_barrier/agents_completed/1", "/workflow_state/sync_barrier/agents_completed/3"]
    );
    let record = reported(&report, "SEM-013", WARNING, "/workflow_state/sync_barrier/agents_completed/1");
    assert_eq!(record.actual, Some(json!("nse-risk")));
}

#[test]
fn sem_013_absent_when_every_completed_agent_is_expected() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(
        &mut doc,
        "/workflow_state/sync_barrier",
        json!({ "agents_expected": ["ps-researcher", "ps-analyst"], "agents_completed": ["ps-analyst"] }),
    );
    absent(&run(&doc), "SEM-013");
    absent(&run(&load("session_context/v1.1.0/valid/maximal.json")), "SEM-013");
}

#[test]
fn sem_017_session_mismatch() {
    let options = || Options::default().with_expected_session("sess-2026-01-11-abc123");
    let report = run_with(options(), &load(SEED_EXAMPLE_1));
    let record = reported(&report, "SEM-017", WARNING, "/session_id");
    assert_eq!(
        (record.expected.clone(), record.actual.clone()),
        (Some(json!("sess-2026-01-11-abc123")), Some(json!("sess-2026-01-10-xyz789")))
    );
    reported(&run_with(options(), &load(ENVELOPE_10)), "SEM-017", WARNING, "/session_id");
}

#[test]
fn sem_017_absent_in_the_same_session_or_without_one() {
    let options = Options::default().with_expected_session("sess-2026-01-10-xyz789");
    absent(&run_with(options, &load(SEED_EXAMPLE_1)), "SEM-017");
    absent(&run(&load(SEED_EXAMPLE_1)), "SEM-017");
}

#[test]
fn sem_018_workflow_ids_differ() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/workflow_state/workflow_id", json!("WF-SAO-002"));
    let report = run(&doc);
    let record = reported(&report, "SEM-018", WARNING, "/workflow_state/workflow_id");
    assert_eq!(
        (record.expected.clone(), record.actual.clone()),
        (Some(json!("WF-SAO-001")), Some(json!("WF-SAO-002")))
    );
}

#[test]
fn sem_018_absent_when_equal_or_one_is_missing() {
    absent(&run(&load(SEED_EXAMPLE_1)), "SEM-018");
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/workflow_state/workflow_id", json!("WF-SAO-002"));
    remove(&mut doc, "/workflow_id");
    absent(&run(&doc), "SEM-018");
}

// ---------------------------------------------------------------------------------------------
// SEM-010, SEM-011: counts
// ---------------------------------------------------------------------------------------------

#[test]
fn sem_010_validator_coverage_does_not_add_up() {
    let mut doc = load(PS_VALIDATOR);
    set(&mut doc, "/coverage", json!({ "total_tests": 3, "passed": 2, "failed": 1, "skipped": 1 }));
    let report = run(&doc);
    let record = reported(&report, "SEM-010", WARNING, "/coverage/total_tests");
    assert_eq!((record.expected.clone(), record.actual.clone()), (Some(json!("<= 3")), Some(json!(4))));
    reported(&run(&envelope(doc)), "SEM-010", WARNING, "/payload/coverage/total_tests");
}

#[test]
fn sem_010_absent_when_coverage_adds_up_or_is_partial() {
    let mut doc = load(PS_VALIDATOR);
    set(&mut doc, "/coverage", json!({ "total_tests": 4, "passed": 2, "failed": 1, "skipped": 1 }));
    absent(&run(&doc), "SEM-010");
    // A fifth test that errored is counted in none of the three.
    set(&mut doc, "/coverage", json!({ "total_tests": 5, "passed": 2, "failed": 1, "skipped": 1 }));
    absent(&run(&doc), "SEM-010");
    set(&mut doc, "/coverage", json!({ "total_tests": 4, "passed": 2, "failed": 1 }));
    absent(&run(&doc), "SEM-010");
    absent(&run(&load("agents/ps/validator_output/valid/all_pass.json")), "SEM-010");
}

#[test]
fn sem_010_more_requirements_verified_than_there_are() {
    let mut doc = load(VERIFICATION);
    set(&mut doc, "/verification_matrix/requirements_verified", json!(4));
    let report = run(&doc);
    let record = reported(&report, "SEM-010", WARNING, "/verification_matrix/requirements_verified");
    assert_eq!(record.actual, Some(json!(4)));
    reported(&run(&envelope(doc)), "SEM-010", WARNING, "/payload/verification_matrix/requirements_verified");
}

#[test]
fn sem_010_absent_when_all_requirements_are_verified() {
    let mut doc = load(VERIFICATION);
    set(&mut doc, "/verification_matrix/requirements_verified", json!(3));
    absent(&run(&doc), "SEM-010");
}

#[test]
fn sem_011_defects_do_not_add_up() {
    let mut doc = load(VERIFICATION);
    set(
        &mut doc,
        "/defect_summary",
        json!({ "total_defects": 3, "open_defects": 1, "closed_defects": 1, "critical_defects": 4 }),
    );
    let report = run(&doc);
    let record = reported(&report, "SEM-011", WARNING, "/defect_summary/total_defects");
    assert_eq!((record.expected.clone(), record.actual.clone()), (Some(json!(2)), Some(json!(3))));
    reported(&report, "SEM-011", WARNING, "/defect_summary/critical_defects");
    reported(&run(&envelope(doc)), "SEM-011", WARNING, "/payload/defect_summary/total_defects");
}

#[test]
fn sem_011_absent_when_defects_add_up() {
    let mut doc = load(VERIFICATION);
    set(
        &mut doc,
        "/defect_summary",
        json!({ "total_defects": 3, "open_defects": 1, "closed_defects": 2, "critical_defects": 3 }),
    );
    absent(&run(&doc), "SEM-011");
    // Not all three counts: open + closed = total is not judged.
    set(&mut doc, "/defect_summary", json!({ "total_defects": 3, "open_defects": 1 }));
    absent(&run(&doc), "SEM-011");
}

// ---------------------------------------------------------------------------------------------
// SEM-014 … SEM-016: the mission task graph
// ---------------------------------------------------------------------------------------------

#[test]
fn sem_014_duplicate_task_id() {
    let mut doc = load(TASK_GRAPH);
    let mut copy = doc["tasks"][1].clone();
    set(&mut copy, "/objective", json!("Collect ESA guidance on verification of closed-loop life support."));
    push(&mut doc, "/tasks", copy);
    let report = run(&doc);
    let record = reported(&report, "SEM-014", ERROR, "/tasks/4/task_id");
    assert!(record.message.contains("task_research_01") && record.message.contains("/tasks/1"), "{}", record.message);
    assert_eq!(pointers(&report, "SEM-014"), ["/tasks/4/task_id"]);
}

#[test]
fn sem_014_absent_with_unique_ids() {
    absent(&run(&load(TASK_GRAPH)), "SEM-014");
}

#[test]
fn sem_015_unknown_dependency() {
    let mut doc = load(TASK_GRAPH);
    push(&mut doc, "/tasks/2/depends_on", json!("task_librarian_01"));
    let report = run(&doc);
    let record = reported(&report, "SEM-015", ERROR, "/tasks/2/depends_on/2");
    assert_eq!(record.actual, Some(json!("task_librarian_01")));
}

#[test]
fn sem_015_absent_when_every_dependency_exists() {
    absent(&run(&load(TASK_GRAPH)), "SEM-015");
}

#[test]
fn sem_016_cycle() {
    let mut doc = load(TASK_GRAPH);
    // task_prompt_01 → task_review_01 → task_worker_01 → task_prompt_01.
    push(&mut doc, "/tasks/0/depends_on", json!("task_review_01"));
    let report = run(&doc);
    let record = reported(&report, "SEM-016", ERROR, "/tasks/0");
    assert_eq!(pointers(&report, "SEM-016"), ["/tasks/0"], "one record per cycle");
    for id in ["task_prompt_01", "task_review_01", "task_worker_01"] {
        assert!(record.message.contains(id), "{}", record.message);
    }
    assert!(
        record.message.contains("task_prompt_01 → task_review_01 → task_worker_01 → task_prompt_01"),
        "{}",
        record.message
    );
}

#[test]
fn sem_016_self_dependency_and_separate_cycles() {
    let mut doc = load(TASK_GRAPH);
    push(&mut doc, "/tasks/1/depends_on", json!("task_research_01"));
    push(&mut doc, "/tasks/3/depends_on", json!("task_review_01"));
    let report = run(&doc);
    assert_eq!(pointers(&report, "SEM-016"), ["/tasks/1", "/tasks/3"]);
    let record = reported(&report, "SEM-016", ERROR, "/tasks/1");
    assert!(record.message.contains("task_research_01 → task_research_01"), "{}", record.message);
}

#[test]
fn sem_016_absent_in_a_dag() {
    // The maximal graph is a diamond-free chain with a shortcut: acyclic.
    absent(&run(&load(TASK_GRAPH)), "SEM-016");
    for file in ["mission/mission_task_graph/valid/minimal.json", "mission/mission_task_graph/valid/seed_shape.json"] {
        absent(&run(&load(file)), "SEM-016");
    }
}

// ---------------------------------------------------------------------------------------------
// CON-001 … CON-005
// ---------------------------------------------------------------------------------------------

#[test]
fn con_001_nse_output_without_disclaimer() {
    let mut doc = load(RISK);
    remove(&mut doc, "/disclaimer_included");
    let report = run(&doc);
    let record = reported(&report, "CON-001", ERROR, "");
    assert_eq!(record.constitutional_principle.as_deref(), Some("P-043"));
    assert!(!report.is_valid());
    reported(&run(&envelope(doc)), "CON-001", ERROR, "/payload");
}

#[test]
fn con_001_absent_with_disclaimer_or_for_ps() {
    absent(&run(&load(RISK)), "CON-001");
    absent(&run(&envelope(load(RISK))), "CON-001");
    absent(&run(&load(RESEARCHER)), "CON-001");
    absent(&run(&load(ENVELOPE_10)), "CON-001");
}

#[test]
fn con_002_requirement_without_parent_need() {
    let mut doc = load(REQUIREMENTS);
    set(&mut doc, "/traceability/orphan_requirements", json!([]));
    remove(&mut doc, "/requirements/1/parent_need");
    let report = run(&doc);
    let record = reported(&report, "CON-002", ERROR, "/requirements/1");
    assert_eq!(record.constitutional_principle.as_deref(), Some("P-040"));
    assert!(record.message.contains("REQ-ECL-002"), "{}", record.message);
    reported(&run(&envelope(doc)), "CON-002", ERROR, "/payload/requirements/1");
}

#[test]
fn con_002_listed_orphans_once_each() {
    let mut doc = load(REQUIREMENTS);
    remove(&mut doc, "/requirements/1/parent_need");
    // REQ-ECL-002 is already reported at its requirement; REQ-THM-004 only in the list.
    set(&mut doc, "/traceability/orphan_requirements", json!(["REQ-ECL-002", "REQ-THM-004"]));
    let report = run(&doc);
    assert_eq!(pointers(&report, "CON-002"), ["/requirements/1", "/traceability/orphan_requirements/1"]);
}

#[test]
fn con_002_absent_when_everything_traces() {
    let mut doc = load(REQUIREMENTS);
    set(&mut doc, "/traceability/orphan_requirements", json!([]));
    absent(&run(&doc), "CON-002");
    remove(&mut doc, "/traceability/orphan_requirements");
    absent(&run(&doc), "CON-002");
}

#[test]
fn con_003_trace_depth_above_one() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/trace/depth", json!(2));
    let report = run(&doc);
    let record = reported(&report, "CON-003", ERROR, "/trace/depth");
    assert_eq!(record.constitutional_principle.as_deref(), Some("P-003"));
    assert_eq!(record.actual, Some(json!(2)));
    let mut doc = load(ENVELOPE_10);
    set(&mut doc, "/trace/depth", json!(3));
    reported(&run(&doc), "CON-003", ERROR, "/trace/depth");
}

#[test]
fn con_003_absent_up_to_depth_one() {
    let mut doc = load(SEED_EXAMPLE_1);
    set(&mut doc, "/trace/depth", json!(1));
    absent(&run(&doc), "CON-003");
    remove(&mut doc, "/trace");
    absent(&run(&doc), "CON-003");
}

#[test]
fn con_004_confidence_without_reasoning() {
    let mut doc = load(RISK);
    remove(&mut doc, "/confidence/reasoning");
    let report = run(&doc);
    let record = reported(&report, "CON-004", ERROR, "/confidence");
    assert_eq!(record.constitutional_principle.as_deref(), Some("P-022"));
    reported(&run(&envelope(doc)), "CON-004", ERROR, "/payload/confidence");
    let mut doc = load(ENVELOPE_10);
    remove(&mut doc, "/payload/confidence/reasoning");
    reported(&run(&doc), "CON-004", ERROR, "/payload/confidence");
}

#[test]
fn con_004_blank_reasoning() {
    let mut doc = load(RISK);
    set(&mut doc, "/confidence/reasoning", json!(" \t "));
    reported(&run(&doc), "CON-004", ERROR, "/confidence/reasoning");
    let mut doc = generic_envelope();
    set(&mut doc, "/payload/confidence/reasoning", json!(""));
    reported(&run(&doc), "CON-004", ERROR, "/payload/confidence/reasoning");
}

#[test]
fn con_004_absent_with_reasoning_or_without_confidence() {
    absent(&run(&load(RISK)), "CON-004");
    absent(&run(&load(ENVELOPE_10)), "CON-004");
    // ps-reviewer's confidence is optional: none given, none judged.
    let mut doc = load(PS_REVIEWER);
    if doc.get("confidence").is_some() {
        remove(&mut doc, "/confidence");
    }
    absent(&run(&doc), "CON-004");
}

#[test]
fn con_005_agent_output_without_artifacts() {
    let mut doc = load(RISK);
    remove(&mut doc, "/artifacts");
    let report = run(&doc);
    let record = reported(&report, "CON-005", WARNING, "");
    assert_eq!(record.constitutional_principle.as_deref(), Some("P-002"));
    assert!(report.is_valid(), "a warning only");
    reported(&run(&envelope(doc)), "CON-005", WARNING, "/payload");
    let mut doc = load(RISK);
    set(&mut doc, "/artifacts", json!([]));
    reported(&run(&doc), "CON-005", WARNING, "/artifacts");
}

#[test]
fn con_005_absent_with_artifacts_or_for_a_generic_payload() {
    absent(&run(&load(RISK)), "CON-005");
    absent(&run(&envelope(load(RISK))), "CON-005");
    let mut doc = load(ENVELOPE_10);
    remove(&mut doc, "/payload/artifacts");
    absent(&run(&doc), "CON-005");
}

// ---------------------------------------------------------------------------------------------
// REF-001 … REF-004
// ---------------------------------------------------------------------------------------------

/// Paths that break a MUST of seed 001:232-233 (REF-003, an error).
const BAD_PATHS: &[&str] = &[
    "/Users/me/projects/PROJ-002/requirements/REQ-001.md",
    "\\projects\\REQ-001.md",
    "C:/projects/REQ-001.md",
    "https://example.com/REQ-001.md",
    "../outside/REQ-001.md",
    "..",
];

/// Paths in a form only the conventions refuse (REF-007: a warning, an error in strict mode).
const UNCONVENTIONAL_PATHS: &[&str] = &[
    "projects\\PROJ-002\\REQ-001.md",
    "projects//REQ-001.md",
    "projects/REQ-001.md/",
    "projects/../../etc/passwd",
    "projects/v1:2.md",
    "",
];

const GOOD_PATHS: &[&str] = &[
    "projects/PROJ-002/requirements/REQ-001.md",
    "README.md",
    "./projects/REQ-001.md",
    ".github/workflows/ci.yml",
    "projects/..hidden/x.md",
    "projects/.../x.md",
    "projects/v1.2/x.md",
];

#[test]
fn ref_003_artifact_path_not_repository_relative() {
    for path in BAD_PATHS {
        let mut doc = load(RISK);
        set(&mut doc, "/artifacts/0/path", json!(path));
        let report = run(&doc);
        let record = reported(&report, "REF-003", ERROR, "/artifacts/0/path");
        assert_eq!(record.constitutional_principle.as_deref(), Some("P-002"));
        assert_eq!(record.actual, Some(json!(path)));
        reported(&run(&envelope(doc)), "REF-003", ERROR, "/payload/artifacts/0/path");
    }
}

#[test]
fn ref_007_unconventional_artifact_path() {
    for path in UNCONVENTIONAL_PATHS {
        let mut doc = load(RISK);
        set(&mut doc, "/artifacts/0/path", json!(path));
        let report = run(&doc);
        let record = reported(&report, "REF-007", WARNING, "/artifacts/0/path");
        assert!(record.message.contains("a convention, D-131"), "{}", record.message);
        absent(&report, "REF-003");
        reported(&run(&envelope(doc)), "REF-007", WARNING, "/payload/artifacts/0/path");
    }
}

#[test]
fn ref_003_absent_for_relative_paths() {
    for path in GOOD_PATHS.iter().chain(UNCONVENTIONAL_PATHS) {
        let mut doc = load(RISK);
        set(&mut doc, "/artifacts/0/path", json!(path));
        absent(&run(&doc), "REF-003");
    }
}

#[test]
fn ref_003_agrees_with_the_artifact_path_pattern() {
    // The generic payload's artifacts use common/artifacts.json#/definitions/artifact_path: the
    // schema's verdict on each path must be REF-003's on an agent output.
    // The seed's MUSTs are schema errors there and REF-003 here; the conventions are CNV
    // warnings there and REF-007 here.
    for path in BAD_PATHS.iter().chain(GOOD_PATHS).chain(UNCONVENTIONAL_PATHS) {
        let mut generic = load(ENVELOPE_10);
        set(&mut generic, "/payload/artifacts/0/path", json!(path));
        let report = Validator::new().validate(&serde_json::to_vec(&generic).expect("serialisable"));
        let at_path = |prefix: &str| {
            report
                .records
                .iter()
                .any(|r| r.path.as_deref() == Some("/payload/artifacts/0/path") && r.error_code.starts_with(prefix))
        };
        let mut agent = load(RISK);
        set(&mut agent, "/artifacts/0/path", json!(path));
        let rules = run(&agent);
        let stated = at_path("SCH-");
        assert_eq!(stated, !pointers(&rules, "REF-003").is_empty(), "{path:?}");
        // A path the seed refuses is told once, as the seed's error.
        assert_eq!(at_path("CNV-") && !stated, !pointers(&rules, "REF-007").is_empty(), "{path:?}");
    }
}

/// A risk output whose only artifact is `path` with the checksum of `content`.
fn risk_with_artifact(path: &str, content: &[u8]) -> Value {
    let mut doc = load(RISK);
    set(&mut doc, "/artifacts/0/path", json!(path));
    let hex: String = Sha256::digest(content).iter().map(|byte| format!("{byte:02x}")).collect();
    set(&mut doc, "/artifacts/0/checksum", json!(format!("sha256:{hex}")));
    doc
}

fn rooted(root: &Path) -> Options {
    Options::default().with_root(root)
}

#[test]
fn ref_001_artifact_missing_under_the_root() {
    let root = tempfile::tempdir().expect("a temporary directory");
    let doc = risk_with_artifact("projects/PROJ-004-mars-habitat/risk/risk-register.md", b"# Risk register\n");
    let report = run_with(rooted(root.path()), &doc);
    let record = reported(&report, "REF-001", WARNING, "/artifacts/0/path");
    assert!(record.message.contains("risk-register.md"), "{}", record.message);
    absent(&report, "REF-004");
    assert!(report.is_valid(), "a warning only");
    reported(&run_with(rooted(root.path()), &envelope(doc)), "REF-001", WARNING, "/payload/artifacts/0/path");
    // A directory is not an artifact file.
    std::fs::create_dir_all(root.path().join("projects/dir.md")).expect("a directory");
    let doc = risk_with_artifact("projects/dir.md", b"");
    reported(&run_with(rooted(root.path()), &doc), "REF-001", WARNING, "/artifacts/0/path");
}

#[test]
fn ref_001_and_ref_004_judge_the_artifacts_of_a_generic_payload() {
    // A 1.0.0 envelope's generic payload lists its artifacts too.
    let root = tempfile::tempdir().expect("a temporary directory");
    let doc = load(ENVELOPE_10);
    reported(&run_with(rooted(root.path()), &doc), "REF-001", WARNING, "/payload/artifacts/0/path");
    let dir = root.path().join("projects/PROJ-007/requirements");
    std::fs::create_dir_all(&dir).expect("directories");
    std::fs::write(dir.join("eclss-requirements.md"), b"not the checksummed content\n").expect("a file");
    let report = run_with(rooted(root.path()), &doc);
    absent(&report, "REF-001");
    reported(&report, "REF-004", ERROR, "/payload/artifacts/0/checksum");
}

#[test]
fn ref_001_absent_when_present_or_without_root() {
    let root = tempfile::tempdir().expect("a temporary directory");
    let content = b"# Risk register\n\n| RISK-001 | 20 | critical |\n";
    let dir = root.path().join("projects/PROJ-004-mars-habitat/risk");
    std::fs::create_dir_all(&dir).expect("directories");
    std::fs::write(dir.join("risk-register.md"), content).expect("a file");
    for path in [
        "projects/PROJ-004-mars-habitat/risk/risk-register.md",
        "./projects/PROJ-004-mars-habitat/risk/risk-register.md",
    ] {
        let doc = risk_with_artifact(path, content);
        let report = run_with(rooted(root.path()), &doc);
        absent(&report, "REF-001");
        absent(&report, "REF-004");
        absent(&run_with(rooted(root.path()), &envelope(doc)), "REF-001");
    }
    // Without a root nothing is looked up.
    absent(&run(&load(RISK)), "REF-001");
    // A path REF-003 rejects is not looked up either.
    let mut doc = load(RISK);
    set(&mut doc, "/artifacts/0/path", json!("../outside.md"));
    let report = run_with(rooted(root.path()), &doc);
    reported(&report, "REF-003", ERROR, "/artifacts/0/path");
    absent(&report, "REF-001");
}

#[test]
fn ref_004_checksum_mismatch() {
    let root = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir_all(root.path().join("risk")).expect("a directory");
    std::fs::write(root.path().join("risk/register.md"), b"edited after the handoff\n").expect("a file");
    let doc = risk_with_artifact("risk/register.md", b"as handed off\n");
    let report = run_with(rooted(root.path()), &doc);
    let record = reported(&report, "REF-004", ERROR, "/artifacts/0/checksum");
    assert_eq!(record.expected, doc["artifacts"][0]["checksum"].clone().into());
    let actual =
        risk_with_artifact("risk/register.md", b"edited after the handoff\n")["artifacts"][0]["checksum"].clone();
    assert_eq!(record.actual, Some(actual));
    absent(&report, "REF-001");
    reported(&run_with(rooted(root.path()), &envelope(doc)), "REF-004", ERROR, "/payload/artifacts/0/checksum");
}

#[test]
fn ref_004_absent_when_the_checksum_matches_or_is_not_given() {
    let root = tempfile::tempdir().expect("a temporary directory");
    // Larger than any single read buffer, so the file is hashed in several chunks.
    let content: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(root.path().join("big.bin"), &content).expect("a file");
    let doc = risk_with_artifact("big.bin", &content);
    absent(&run_with(rooted(root.path()), &doc), "REF-004");
    let mut doc = load(RISK);
    set(&mut doc, "/artifacts/0/path", json!("big.bin"));
    remove(&mut doc, "/artifacts/0/checksum");
    let report = run_with(rooted(root.path()), &doc);
    absent(&report, "REF-004");
    absent(&report, "REF-001");
}

#[cfg(unix)]
#[test]
fn ref_symlink_out_of_the_root_is_not_followed() {
    let outside = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(outside.path().join("secret.md"), b"not part of the repository\n").expect("a file");
    let root = tempfile::tempdir().expect("a temporary directory");
    std::os::unix::fs::symlink(outside.path().join("secret.md"), root.path().join("link.md")).expect("a symlink");
    std::os::unix::fs::symlink(outside.path(), root.path().join("linkdir")).expect("a symlink");
    for path in ["link.md", "linkdir/secret.md"] {
        let doc = risk_with_artifact(path, b"something else\n");
        let report = run_with(rooted(root.path()), &doc);
        let record = reported(&report, "REF-003", ERROR, "/artifacts/0/path");
        assert!(record.message.contains("outside the root"), "{}", record.message);
        absent(&report, "REF-004");
        absent(&report, "REF-001");
    }
    // A link that stays inside the root is followed.
    std::fs::write(root.path().join("real.md"), b"inside\n").expect("a file");
    std::os::unix::fs::symlink(root.path().join("real.md"), root.path().join("alias.md")).expect("a symlink");
    let report = run_with(rooted(root.path()), &risk_with_artifact("alias.md", b"inside\n"));
    absent(&report, "REF-003");
    absent(&report, "REF-004");
}

fn known(ids: &[&str]) -> Options {
    Options::default().with_known_requirements(ids.iter().map(|id| (*id).to_owned()))
}

#[test]
fn ref_002_unknown_requirement_in_a_risk() {
    let options = || known(&["REQ-ECL-001", "REQ-STR-003"]);
    let report = run_with(options(), &load(RISK));
    assert_eq!(pointers(&report, "REF-002"), ["/risks/1/traced_to_requirements/1"]);
    let record = reported(&report, "REF-002", WARNING, "/risks/1/traced_to_requirements/1");
    assert_eq!(record.actual, Some(json!("REQ-PRG-001")));
    assert!(report.is_valid(), "a warning only");
    reported(
        &run_with(options(), &envelope(load(RISK))),
        "REF-002",
        WARNING,
        "/payload/risks/1/traced_to_requirements/1",
    );
}

#[test]
fn ref_002_unknown_requirement_in_verification_and_architecture() {
    let report = run_with(known(&["REQ-ECL-001"]), &load(VERIFICATION));
    assert_eq!(
        pointers(&report, "REF-002"),
        ["/verification_matrix/entries/1/requirement_id", "/verification_matrix/entries/2/requirement_id"]
    );
    let mut doc = load(VERIFICATION);
    push(&mut doc, "/test_cases/0/verifies", json!("REQ-ECL-009"));
    let report = run_with(known(&["REQ-ECL-001", "REQ-ECL-002", "REQ-OPS-001"]), &doc);
    assert_eq!(pointers(&report, "REF-002"), ["/test_cases/0/verifies/1"]);
    let report = run_with(known(&["REQ-ECL-001", "REQ-ECL-002"]), &load(ARCHITECTURE));
    assert_eq!(pointers(&report, "REF-002"), ["/architecture/system_elements/0/allocated_requirements/0"]);
    reported(&report, "REF-002", WARNING, "/architecture/system_elements/0/allocated_requirements/0");
}

#[test]
fn ref_002_absent_when_nothing_is_known_or_everything_is() {
    absent(&run(&load(RISK)), "REF-002");
    absent(&run(&load(VERIFICATION)), "REF-002");
    absent(&run_with(known(&["REQ-ECL-001", "REQ-STR-003", "REQ-PRG-001"]), &load(RISK)), "REF-002");
    absent(&run_with(known(&["REQ-HAB-001", "REQ-ECL-001", "REQ-ECL-002"]), &load(ARCHITECTURE)), "REF-002");
    // The ids a requirements output defines are known to it (it references none of the listed kinds).
    absent(&run_with(known(&["REQ-ZZZ-999"]), &load(REQUIREMENTS)), "REF-002");
}

// ---------------------------------------------------------------------------------------------
// A new rule of a single agent (issue 28)
// ---------------------------------------------------------------------------------------------

/// The rule the test adds for ps-researcher (an agent without rules of its own, whose outputs
/// the bytes path only skims): a record at the output's first finding.
fn first_finding(output: &dyn jerry_contracts::AgentOutput, base: &str, report: &mut Report) {
    let researcher = output
        .downcast_ref::<jerry_contracts::agents::ps::ResearcherOutput>()
        .expect("the rule is added for the researcher's outputs");
    let message = format!("a test rule read {} findings", researcher.findings.len());
    report.push(jerry_contracts::validation::record(
        &jerry_contracts::validation::codes::SEM_EMPTY_FINDINGS,
        &format!("{base}/findings/0"),
        message,
    ));
}

/// A rule of a single agent fires on every path: added (through the test hook, as a new row of
/// the table of single-agent rules would be) for ps-researcher, it reports on a standalone
/// output and on an envelope's payload, each read as bytes (the path that skims an output no
/// rule reads), as a parsed value and as a typed value. The skim's choice of outputs to read
/// whole comes from the same table, so nothing else has to learn of the rule.
#[test]
fn a_rule_added_for_one_agent_fires_on_every_path() {
    use jerry_contracts::__validation::with_rule;
    let output = load(RESEARCHER);
    let handoff = envelope(output.clone());
    let validator = Validator::new();
    let paths = |doc: &Value, name: &str| -> Vec<(String, Report)> {
        let bytes = serde_json::to_vec(doc).expect("serialisable");
        let mut reports = vec![
            (format!("{name} as bytes"), validator.validate(&bytes)),
            (format!("{name} as a value"), validator.validate_value(None, doc)),
        ];
        if name == "output" {
            let typed: jerry_contracts::agents::ps::ResearcherOutput =
                jerry_contracts::typed::deserialize(doc).expect("a valid output");
            reports.push(("the typed output".to_owned(), typed.validate()));
        } else {
            let typed: jerry_contracts::session_context::v1_1::SessionContext =
                jerry_contracts::typed::deserialize(doc).expect("a valid envelope");
            reports.push(("the typed envelope".to_owned(), typed.validate()));
        }
        reports
    };
    for (doc, name, at) in [(&output, "output", "/findings/0"), (&handoff, "envelope", "/payload/findings/0")] {
        for (path, report) in paths(doc, name) {
            assert!(pointers(&report, "SEM-001").is_empty(), "{path}: no rule yet: {:#?}", report.records);
        }
        with_rule("ps-researcher", first_finding, || {
            for (path, report) in paths(doc, name) {
                assert_eq!(pointers(&report, "SEM-001"), [at], "{path}: {:#?}", report.records);
            }
        });
        for (path, report) in paths(doc, name) {
            assert!(pointers(&report, "SEM-001").is_empty(), "{path}: the rule is gone again");
        }
    }
}
