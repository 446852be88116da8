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

/// The document's text with the payload's `agent_id` written last (every other member in the
/// order serde_json writes them), and with it first.
fn agent_id_last_and_first(document: &Value) -> [Vec<u8>; 2] {
    let mut outer = document.as_object().unwrap().clone();
    let payload = outer.remove("payload").unwrap();
    let payload = payload.as_object().unwrap();
    let others: Vec<String> = payload
        .iter()
        .filter(|(name, _)| *name != "agent_id")
        .map(|(name, value)| format!("{}:{value}", Value::from(name.as_str())))
        .collect();
    let agent = format!("\"agent_id\":{}", payload["agent_id"]);
    let write = |members: Vec<String>| {
        let mut text = serde_json::to_string(&outer).unwrap();
        text.pop();
        if !outer.is_empty() {
            text.push(',');
        }
        text.push_str(&format!("\"payload\":{{{}}}}}", members.join(",")));
        text.into_bytes()
    };
    let last = write(others.iter().cloned().chain([agent.clone()]).collect());
    let first = write([agent].into_iter().chain(others).collect());
    [last, first]
}

#[test]
fn a_payload_reads_the_same_wherever_its_agent_id_is() {
    // `agent_id` first is read in one pass; anywhere else the payload is read again from its
    // text: the same value, the same verdict, the same first error at the same place.
    let entry = typed::find("session_context/v1.1.0.json", "").unwrap();
    let (mut checked, mut refused) = (0, 0);
    for (agent, _) in agents() {
        for verdict in ["valid", "invalid"] {
            for (path, document) in fixtures_of(verdict, &agent) {
                let shown = path.display();
                let [last, first] = agent_id_last_and_first(&document);
                assert_eq!(
                    jerry_contracts::validation::validate(&last).records,
                    jerry_contracts::validation::validate(&first).records,
                    "{shown}"
                );
                match (entry.relay(&last), entry.relay(&first)) {
                    (Ok(last), Ok(first)) => {
                        let read = |text: &str| serde_json::from_str::<SessionContext>(text).unwrap();
                        assert_eq!(read(&last), read(&first), "{shown}");
                        assert_eq!(read(&last).payload.agent_id(), Some(agent.as_str()), "{shown}");
                    }
                    (Err(last), Err(first)) => {
                        assert_eq!(last.pointer, first.pointer, "{shown}");
                        assert!(last.pointer.starts_with("/payload"), "{shown}: {last}");
                        // The line and column are the document's own, not the payload text's.
                        let words = |message: &str| message.rsplit_once(" at line ").map(|(w, _)| w.to_owned());
                        assert_eq!(words(&last.message), words(&first.message), "{shown}");
                        assert!(last.message.contains(" at line 1 column "), "{shown}: {last}");
                        refused += 1;
                    }
                    (last, first) => panic!("{shown}: agent_id last {last:?}, first {first:?}"),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 32, "only {checked} handoffs checked");
    assert!(refused >= 4, "only {refused} handoffs refused by the read itself");
}
