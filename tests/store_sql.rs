//! The artifact store's tables (`jerry_contracts::store`, D-216) on a real PostgreSQL started by
//! the test (tests/support/postgres.rs), written to with plain SQL, as a service that bypasses
//! the SDK would (issue 30, items 1, 3 and 4): the DDL applies to an empty database and records
//! its migration; a mission's artifacts go in with their text kept exactly; and the database
//! itself refuses a row without required root metadata, a dangling mission or task reference, a
//! wrong `schema_name` or `role_type`, a `depends_on` edge to a task the graph lacks, a payload
//! that is not its document, and a second task graph's update in place.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

#[path = "support/postgres.rs"]
mod postgres;

use std::path::Path;

use postgres::Postgres;

/// The fixture story of one mission (D-51): every artifact refers to the same mission and tasks.
const MISSION: &str = "3f2b8c1e-9a4d-4e7b-b6c2-5d1e8f0a7c93";

/// A mission fixture's text: `tests/fixtures/mission/<schema>/valid/<name>.json`.
fn fixture(schema: &str, name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/mission/{schema}/valid/{name}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The INSERT of `document` into `table`, the text as given and as jsonb.
const INSERT: &str = "INSERT INTO :\"table\" (document, payload) VALUES (:'doc', :'doc'::jsonb);";

/// Inserts `document` into `table` with plain SQL.
fn insert(pg: &Postgres, db: &str, table: &str, document: &str) -> Result<String, postgres::SqlError> {
    pg.sql(db, INSERT, &[("table", table), ("doc", document)])
}

/// `document` with member `name` set to `value` (a JSON value's text), or removed when `None`.
fn with(document: &str, name: &str, value: Option<&str>) -> String {
    let mut parsed: serde_json::Map<String, serde_json::Value> = serde_json::from_str(document).unwrap();
    match value {
        Some(value) => parsed.insert(name.to_owned(), serde_json::from_str(value).unwrap()),
        None => parsed.remove(name),
    };
    serde_json::to_string_pretty(&parsed).unwrap()
}

/// Asserts that the database refused the insert, naming `what` (a constraint or column).
fn refused(result: Result<String, postgres::SqlError>, what: &str) {
    match result {
        Ok(_) => panic!("PostgreSQL accepted a row it should refuse ({what})"),
        Err(e) => assert!(e.0.contains(what), "refused, but not for {what}: {}", e.0),
    }
}

/// A database with the store's tables and the maximal mission's envelope and task graph.
fn with_mission(pg: &Postgres, db: &str) {
    pg.create_database(db);
    pg.sql(db, &jerry_contracts::store::ddl(), &[]).unwrap_or_else(|e| panic!("the DDL applies: {}", e.0));
    insert(pg, db, "colony_missions", &fixture("mission_envelope", "maximal")).unwrap();
    insert(pg, db, "colony_task_graphs", &fixture("mission_task_graph", "maximal")).unwrap();
}

#[test]
fn the_store_tables_hold_a_mission_and_refuse_what_the_seeds_refuse() {
    let pg = Postgres::start();
    let db = "store";
    with_mission(&pg, db);

    // The migration is recorded; nothing is left to apply after it.
    let applied = pg.sql(db, "SELECT version FROM jerry_contracts_migrations ORDER BY version;", &[]).unwrap();
    assert_eq!(applied.trim(), "1");
    assert_eq!(jerry_contracts::store::ddl_after(1), "");

    // Every other artifact of the story goes in, each in its table.
    let artifacts = [
        ("colony_prompt_packages", "prompt_package"),
        ("colony_research_artifacts", "research_artifact"),
        ("colony_librarian_passes", "librarian_pass"),
        ("colony_worker_results", "worker_result"),
        ("colony_aggregation_packets", "aggregation_packet"),
        ("colony_review_packets", "review_packet"),
        ("colony_policy_decisions", "policy_decision"),
        ("colony_writeback_proposals", "writeback_proposal"),
    ];
    for (table, schema) in artifacts {
        insert(&pg, db, table, &fixture(schema, "maximal")).unwrap_or_else(|e| panic!("{table}: {}", e.0));
    }

    // The task graph's tasks and edges are rows, derived from the stored graph.
    let tasks = pg.sql(db, "SELECT task_id, role_type FROM colony_tasks ORDER BY task_id;", &[]).unwrap();
    let graph: serde_json::Value = serde_json::from_str(&fixture("mission_task_graph", "maximal")).unwrap();
    let listed = graph["tasks"].as_array().unwrap();
    assert_eq!(tasks.lines().count(), listed.len(), "{tasks}");
    let edges = pg.sql(db, "SELECT count(*) FROM colony_task_dependencies;", &[]).unwrap();
    let wanted: usize = listed.iter().map(|t| t["depends_on"].as_array().map_or(0, Vec::len)).sum();
    assert_eq!(edges.trim(), wanted.to_string());

    // The derived columns are the payload's, and the text comes back exactly as given.
    let row = pg
        .sql(db, "SELECT mission_id, task_id, schema_name FROM colony_worker_results WHERE result_id = 'wrk_002';", &[])
        .unwrap();
    assert_eq!(row.trim(), format!("{MISSION}|task_worker_01|worker_result"));
    let odd = with(&fixture("policy_decision", "maximal"), "decision_id", Some("\"pol_exact\""))
        .replace("  ", "\t ")
        .replacen('{', "{\n  \"x_number\": 1.50e0,", 1);
    insert(&pg, db, "colony_policy_decisions", &odd).unwrap();
    let back =
        pg.sql(db, "SELECT document FROM colony_policy_decisions WHERE decision_id = 'pol_exact';", &[]).unwrap();
    assert_eq!(back.strip_suffix('\n').unwrap(), odd);

    // What the database refuses, by plain SQL.
    let envelope = fixture("mission_envelope", "maximal");
    let other = "\"9b2d6a41-0c3e-4f5a-8b7c-1d2e3f4a5b6c\"";
    refused(
        insert(&pg, db, "colony_missions", &with(&with(&envelope, "mission_id", Some(other)), "tenant_id", None)),
        "tenant_id",
    );
    let result = fixture("worker_result", "maximal");
    refused(
        insert(
            &pg,
            db,
            "colony_worker_results",
            &with(&with(&result, "result_id", Some("\"wrk_x1\"")), "mission_id", Some(other)),
        ),
        "colony_worker_results_mission_fk",
    );
    refused(
        insert(
            &pg,
            db,
            "colony_worker_results",
            &with(&with(&result, "result_id", Some("\"wrk_x2\"")), "task_id", Some("\"task_missing\"")),
        ),
        "colony_worker_results_task_fk",
    );
    refused(
        insert(
            &pg,
            db,
            "colony_worker_results",
            &with(&with(&result, "result_id", Some("\"wrk_x3\"")), "schema_name", Some("\"review_packet\"")),
        ),
        "sch_008_schema_name",
    );
    refused(
        insert(
            &pg,
            db,
            "colony_worker_results",
            &with(&with(&result, "result_id", Some("\"wrk_x4\"")), "task_id", Some("7")),
        ),
        "sch_002_task_id",
    );
    let package = fixture("prompt_package", "maximal");
    refused(
        insert(
            &pg,
            db,
            "colony_prompt_packages",
            &with(&with(&package, "package_id", Some("\"pkg_x1\"")), "role_type", Some("\"oracle\"")),
        ),
        "sch_007_role_type",
    );
    // The same id again is the primary key's to refuse.
    refused(insert(&pg, db, "colony_worker_results", &result), "colony_worker_results_pkey");
    // A payload that is not its document.
    refused(
        pg.sql(
            db,
            "INSERT INTO colony_review_packets (document, payload) VALUES (:'doc', (:'doc'::jsonb) || '{\"packet_id\": \"rev_x1\"}');",
            &[("doc", &fixture("review_packet", "maximal"))],
        ),
        "payload_is_document",
    );
    // A derived column cannot be written.
    refused(
        pg.sql(db, "UPDATE colony_worker_results SET task_id = 'task_review_01';", &[]),
        "can only be updated to DEFAULT",
    );
    // A stored graph is not updated in place.
    refused(pg.sql(db, "UPDATE colony_task_graphs SET document = document;", &[]), "not updated in place");
}

#[test]
fn a_task_graph_whose_edges_or_ids_do_not_hold_is_refused_whole() {
    let pg = Postgres::start();
    let db = "graphs";
    pg.create_database(db);
    pg.sql(db, &jerry_contracts::store::ddl(), &[]).unwrap();
    insert(&pg, db, "colony_missions", &fixture("mission_envelope", "maximal")).unwrap();
    let graph = fixture("mission_task_graph", "maximal");
    let mut parsed: serde_json::Value = serde_json::from_str(&graph).unwrap();
    parsed["tasks"][1]["depends_on"] = serde_json::json!(["task_missing"]);
    refused(
        insert(&pg, db, "colony_task_graphs", &serde_json::to_string(&parsed).unwrap()),
        "colony_task_dependencies_depends_on_fk",
    );
    let mut parsed: serde_json::Value = serde_json::from_str(&graph).unwrap();
    let first = parsed["tasks"][0].clone();
    parsed["tasks"].as_array_mut().unwrap().push(first);
    refused(insert(&pg, db, "colony_task_graphs", &serde_json::to_string(&parsed).unwrap()), "colony_tasks_pkey");
    // Nothing of either graph was kept.
    let kept = pg
        .sql(db, "SELECT (SELECT count(*) FROM colony_task_graphs) + (SELECT count(*) FROM colony_tasks);", &[])
        .unwrap();
    assert_eq!(kept.trim(), "0");
    insert(&pg, db, "colony_task_graphs", &graph).unwrap();
}
