//! The store API (issue 30, item 2) on a real PostgreSQL the test starts (the workspace's
//! tests/support/postgres.rs): migrations, `put` through all four layers and the stored
//! references, idempotence and conflicts, `put_many` as one transaction, exact reads.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

#[path = "../../../tests/support/postgres.rs"]
mod postgres;

use std::path::Path;

use jerry_contracts_store::{Outcome, Store, StoreError};
use postgres::Postgres;

/// The maximal fixtures' mission (D-51).
const MISSION: &str = "3f2b8c1e-9a4d-4e7b-b6c2-5d1e8f0a7c93";

fn fixture(schema: &str, name: &str) -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/mission/{schema}/valid/{name}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `document` with member `name` set to the JSON `value`.
fn with(document: &str, name: &str, value: &str) -> String {
    let mut parsed: serde_json::Map<String, serde_json::Value> = serde_json::from_str(document).unwrap();
    parsed.insert(name.to_owned(), serde_json::from_str(value).unwrap());
    serde_json::to_string_pretty(&parsed).unwrap()
}

/// A migrated store in a fresh database of `pg`.
fn store(pg: &Postgres, db: &str) -> Store {
    pg.create_database(db);
    let mut store = Store::connect(&pg.params(db)).unwrap();
    assert_eq!(store.applied().unwrap(), 0);
    assert_eq!(store.migrate().unwrap(), 1);
    assert_eq!(store.migrate().unwrap(), 0, "a second migrate has nothing to apply");
    assert_eq!(store.applied().unwrap(), 1);
    store
}

fn count(pg: &Postgres, db: &str, table: &str) -> usize {
    pg.sql(db, &format!("SELECT count(*) FROM {table};"), &[]).unwrap().trim().parse().unwrap()
}

const ARTIFACTS: &[&str] = &[
    "prompt_package",
    "research_artifact",
    "librarian_pass",
    "worker_result",
    "aggregation_packet",
    "review_packet",
    "policy_decision",
    "writeback_proposal",
];

#[test]
fn put_validates_references_and_keeps_the_text() {
    let pg = Postgres::start();
    let db = "put";
    let mut store = store(&pg, db);

    // A worker result before its mission: refused by the store's reference (REF-008), not written.
    let result = fixture("worker_result", "maximal");
    let put = store.put(result.as_bytes()).unwrap();
    assert_eq!(put.outcome, Outcome::Refused);
    assert!(
        put.report.records.iter().any(|r| r.error_code == "REF-008" && r.path.as_deref() == Some("/mission_id")),
        "{:?}",
        put.report.records
    );
    assert_eq!(count(&pg, db, "colony_worker_results"), 0);

    // An invalid document is refused by the validator and never written.
    let invalid = with(&fixture("mission_envelope", "maximal"), "risk_level", "42");
    let put = store.put(invalid.as_bytes()).unwrap();
    assert_eq!(put.outcome, Outcome::Refused);
    assert!(!put.report.is_valid());
    assert_eq!(count(&pg, db, "colony_missions"), 0);

    // The mission, its graph, then every artifact.
    for (schema, outcome) in [("mission_envelope", Outcome::Written), ("mission_task_graph", Outcome::Written)] {
        let put = store.put(fixture(schema, "maximal").as_bytes()).unwrap();
        assert_eq!(put.outcome, outcome, "{schema}: {:?}", put.report.records);
    }
    // A task the graph does not list (REF-009).
    let stray = with(&with(&result, "task_id", "\"task_missing\""), "result_id", "\"wrk_stray\"");
    let put = store.put(stray.as_bytes()).unwrap();
    assert_eq!(put.outcome, Outcome::Refused);
    assert!(
        put.report.records.iter().any(|r| r.error_code == "REF-009" && r.path.as_deref() == Some("/task_id")),
        "{:?}",
        put.report.records
    );
    for schema in ARTIFACTS {
        let put = store.put(fixture(schema, "maximal").as_bytes()).unwrap();
        assert_eq!(put.outcome, Outcome::Written, "{schema}: {:?}", put.report.records);
    }

    // Idempotent: the same bytes again change nothing; other bytes under the key are a conflict.
    assert_eq!(store.put(result.as_bytes()).unwrap().outcome, Outcome::Unchanged);
    let other = with(&result, "output_text", "\"another answer\"");
    match store.put(other.as_bytes()) {
        Err(StoreError::Conflict { schema, mission_id, id, index }) => {
            assert_eq!(
                (schema, mission_id.as_str(), id.as_str(), index),
                ("mission/worker_result", MISSION, "wrk_002", 0)
            );
        }
        other => panic!("a conflict, not {other:?}"),
    }
    assert_eq!(store.get("worker_result", MISSION, "wrk_002").unwrap().as_deref(), Some(result.as_str()));

    // Reads: exact text, by schema name or registry name; everything of the mission; the tasks.
    let envelope = fixture("mission_envelope", "maximal");
    assert_eq!(store.get("mission/mission_envelope", MISSION, MISSION).unwrap().as_deref(), Some(envelope.as_str()));
    assert_eq!(
        store.get("mission_envelope", &MISSION.to_uppercase(), MISSION).unwrap().as_deref(),
        Some(envelope.as_str())
    );
    assert_eq!(store.get("worker_result", MISSION, "wrk_none").unwrap(), None);
    assert_eq!(store.get("worker_result", "not-a-uuid", "wrk_002").unwrap(), None);
    assert!(matches!(store.get("session_context/v1.1.0", MISSION, "x"), Err(StoreError::UnknownSchema(_))));
    let everything = store.mission(MISSION).unwrap();
    assert_eq!(everything.len(), 2 + ARTIFACTS.len());
    assert_eq!(everything[0].schema, "mission/mission_envelope");
    assert_eq!(everything[0].document, envelope);
    let tasks = store.tasks(MISSION).unwrap();
    assert_eq!(tasks.len(), 4, "{tasks:?}");
    assert!(tasks.iter().all(|t| t.contains("\"task_id\"")));

    // A document the store does not keep, and an artifact without its key.
    let handoff = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/session_context/v1.1.0/valid/seed_example_1.json"),
    )
    .unwrap();
    assert!(matches!(
        store.put(&handoff),
        Err(StoreError::NotAnArtifact { schema: Some("session_context/v1.1.0"), index: 0 })
    ));
    let unkeyed = fixture("worker_result", "minimal");
    assert!(
        matches!(store.put(unkeyed.as_bytes()), Err(StoreError::Unkeyed { member: "mission_id", .. })),
        "{unkeyed}"
    );
}

#[test]
fn put_many_writes_a_batch_whole_or_not_at_all() {
    let pg = Postgres::start();
    let db = "batch";
    let mut store = store(&pg, db);
    let mut batch: Vec<String> =
        ["mission_envelope", "mission_task_graph"].iter().map(|s| fixture(s, "maximal")).collect();
    batch.extend(ARTIFACTS.iter().map(|s| fixture(s, "maximal")));

    // One refused document (a task not in the graph) withholds the whole batch.
    let mut spoiled = batch.clone();
    spoiled.push(with(
        &with(&fixture("worker_result", "maximal"), "task_id", "\"task_missing\""),
        "result_id",
        "\"wrk_x\"",
    ));
    let texts: Vec<&[u8]> = spoiled.iter().map(String::as_bytes).collect();
    let puts = store.put_many(&texts).unwrap();
    assert_eq!(puts.last().unwrap().outcome, Outcome::Refused);
    assert!(puts[..puts.len() - 1].iter().all(|p| p.outcome == Outcome::Withheld));
    assert_eq!(count(&pg, db, "colony_missions") + count(&pg, db, "colony_tasks"), 0);

    // The batch alone goes in whole, the mission and graph it brings counting for its artifacts.
    let texts: Vec<&[u8]> = batch.iter().map(String::as_bytes).collect();
    let puts = store.put_many(&texts).unwrap();
    assert!(
        puts.iter().all(|p| p.outcome == Outcome::Written),
        "{:?}",
        puts.iter().map(|p| p.outcome).collect::<Vec<_>>()
    );
    assert_eq!(store.mission(MISSION).unwrap().len(), batch.len());

    // Again: every document unchanged; and twice in one batch, the second is unchanged too.
    let puts = store.put_many(&[texts[3], texts[3]]).unwrap();
    assert!(puts.iter().all(|p| p.outcome == Outcome::Unchanged));

    // A batch whose document differs from the stored one under its key: a conflict, nothing written.
    let changed = with(&fixture("worker_result", "maximal"), "output_text", "\"changed\"");
    let fresh = with(&fixture("worker_result", "maximal"), "result_id", "\"wrk_fresh\"");
    assert!(matches!(
        store.put_many(&[fresh.as_bytes(), changed.as_bytes()]),
        Err(StoreError::Conflict { index: 1, .. })
    ));
    assert_eq!(store.get("worker_result", MISSION, "wrk_fresh").unwrap(), None);
    // The envelope again, its mission id in upper case: the same key, so a conflict.
    let upper = fixture("mission_envelope", "maximal").replace(MISSION, &MISSION.to_uppercase());
    assert!(matches!(store.put_many(&[upper.as_bytes()]), Err(StoreError::Conflict { index: 0, .. })));
    assert!(matches!(store.put(upper.as_bytes()), Err(StoreError::Conflict { .. })));

    // A batch that conflicts with itself is refused as a conflict, and writes nothing.
    let first = with(&fixture("review_packet", "maximal"), "packet_id", "\"rev_new\"");
    let second = with(&first, "review_status", "\"approved\"");
    let before = count(&pg, db, "colony_review_packets");
    assert!(matches!(
        store.put_many(&[first.as_bytes(), second.as_bytes()]),
        Err(StoreError::Conflict { index: 1, .. })
    ));
    assert_eq!(count(&pg, db, "colony_review_packets"), before);
}
