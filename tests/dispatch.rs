//! The v1.1 payload dispatch, arm by arm: for every agent with an output schema there is a valid
//! and an invalid v1.1 handoff fixture carrying that agent's payload
//! (`tests/fixtures/session_context/v1.1.0/{valid,invalid}/payload_<agent>*.json`), and every path
//! that reads a handoff — the generated `Payload` enum, `envelope::AnySessionContext` (by
//! `payload_schema_ref` and by `agent_id`), `Payload::from_agent` and `validation::validate` —
//! routes the payload to that agent's type, never to another agent's or to the generic payload.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::__private::typed;
use jerry_contracts::envelope::{self, AnySessionContext};
use jerry_contracts::registry;
use jerry_contracts::session_context::v1_1::{Payload, SessionContext};
use serde_json::Value;

/// Every agent id that has an output schema, with that schema's path.
fn agents() -> Vec<(String, &'static str)> {
    let agents: Vec<(String, &'static str)> =
        registry::schemas().iter().filter_map(|s| Some((s.agent_id.clone()?, s.path))).collect();
    assert_eq!(agents.len(), 16, "seed 000 defines 16 agent output schemas: {agents:?}");
    agents
}

fn fixture_dir(verdict: &str) -> std::path::PathBuf {
    support::root().join("tests/fixtures/session_context/v1.1.0").join(verdict)
}

/// The fixtures of `verdict` whose file name starts with `payload_<agent>` (`-` as `_`).
fn fixtures_of(verdict: &str, agent: &str) -> Vec<(std::path::PathBuf, Value)> {
    let prefix = format!("payload_{}", agent.replace('-', "_"));
    let mut found: Vec<_> = std::fs::read_dir(fixture_dir(verdict))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| {
            let name = p.file_stem().unwrap().to_string_lossy();
            // `payload_nse_reviewer` must not claim `payload_nse_reviewer_x` of another agent:
            // agent ids are whole names, so the stem is the prefix or the prefix and `_`.
            name == prefix || name.starts_with(&format!("{prefix}_"))
        })
        .map(|p| {
            let document = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p, document)
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn every_agent_has_a_valid_and_an_invalid_handoff_fixture() {
    let mut missing = Vec::new();
    for (agent, _) in agents() {
        for verdict in ["valid", "invalid"] {
            let found = fixtures_of(verdict, &agent);
            if found.is_empty() {
                missing.push(format!("{verdict}/payload_{}*.json", agent.replace('-', "_")));
            }
            for (path, document) in found {
                assert_eq!(
                    document["payload"]["agent_id"],
                    agent.as_str(),
                    "{} carries another agent's payload",
                    path.display()
                );
            }
        }
    }
    assert!(missing.is_empty(), "agents without v1.1 handoff fixtures: {missing:?}");
}

#[test]
fn each_arm_reads_its_agents_payload() {
    let mut checked = 0;
    for (agent, schema) in agents() {
        for (path, document) in fixtures_of("valid", &agent) {
            let shown = path.display();
            // The generated enum, reading the whole handoff.
            let handoff: SessionContext =
                serde_json::from_value(document.clone()).unwrap_or_else(|e| panic!("{shown}: {e}"));
            assert_eq!(handoff.payload.agent_id(), Some(agent.as_str()), "{shown}: routed to the wrong arm");
            assert!(!matches!(handoff.payload, Payload::Generic(_)), "{shown}: read as the generic payload");
            // The same JSON values (the exact number text is the relay tests' business).
            let relayed = serde_json::to_value(&handoff).unwrap();
            assert!(jerry_contracts::validation::json_equal(&relayed, &document), "{shown}: not relayed as read");
            // The envelope reader, by payload_schema_ref and, without it, by agent_id.
            let mut by_agent_id = document.clone();
            by_agent_id.as_object_mut().unwrap().remove("payload_schema_ref");
            for (how, value) in [("payload_schema_ref", &document), ("agent_id", &by_agent_id)] {
                let read =
                    envelope::AnySessionContext::from_value(value).unwrap_or_else(|e| panic!("{shown} by {how}: {e}"));
                let AnySessionContext::V1_1(read) = read else { panic!("{shown}: not read as 1.1") };
                assert_eq!(read.payload.agent_id(), Some(agent.as_str()), "{shown}: {how} routed to the wrong arm");
            }
            // Reading the payload as the named agent's output.
            let payload = Payload::from_agent(Some(&agent), &document["payload"])
                .unwrap_or_else(|| panic!("{agent}: from_agent knows no such agent"))
                .unwrap_or_else(|e| panic!("{shown}: {e}"));
            assert_eq!(payload.agent_id(), Some(agent.as_str()));
            // The standalone output schema accepts the payload as well.
            let entry = typed::find(schema, "").unwrap();
            assert!(entry.check(&document["payload"]).is_ok(), "{shown}: {schema} rejects the payload");
            // The complete validation names no schema error.
            let report = jerry_contracts::validation::validate(&serde_json::to_vec(&document).unwrap());
            let schema_errors: Vec<_> = report.errors().filter(|r| r.error_code.starts_with("SCH-")).collect();
            assert!(schema_errors.is_empty(), "{shown}: {schema_errors:?}");
            checked += 1;
        }
    }
    assert!(checked >= 16, "only {checked} handoffs checked");
}

#[test]
fn each_arm_refuses_its_agents_invalid_payload_at_the_payloads_place() {
    let mut checked = 0;
    for (agent, _) in agents() {
        for (path, document) in fixtures_of("invalid", &agent) {
            let shown = path.display();
            let sidecar: Value =
                serde_json::from_str(&std::fs::read_to_string(path.with_extension("expect")).unwrap()).unwrap();
            let pointer = sidecar["pointer"].as_str().unwrap();
            assert!(pointer.starts_with("/payload"), "{shown}: the broken rule must be the payload's");
            let entry = typed::find("session_context/v1.1.0.json", "").unwrap();
            let violations = entry.check(&document).expect_err(&format!("{shown}: accepted"));
            assert!(
                violations.iter().any(|v| v.pointer == pointer),
                "{shown}: refused at {violations:?}, not at {pointer}"
            );
            // The same payload, valid but for that one rule, is the agent's: the agent's schema,
            // not the generic payload's, refuses it.
            let report = jerry_contracts::validation::validate(&serde_json::to_vec(&document).unwrap());
            assert!(
                report.errors().any(|r| r.path.as_deref() == Some(pointer)),
                "{shown}: validate reports {:?}, nothing at {pointer}",
                report.records
            );
            checked += 1;
        }
    }
    assert!(checked >= 16, "only {checked} handoffs checked");
}
