//! The store's DDL (`jerry_contracts_codegen::store_ddl`, D-216) renders from the model: what it
//! derives from the corpus, and the loud failures, naming file and pointer, when a mission
//! schema cannot be carried (the workspace's `tests/store_sql.rs` runs the DDL on PostgreSQL).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

/// A copy of the corpus with `change` applied to the JSON of schema file `file`.
fn planted(file: &str, change: impl FnOnce(&mut Value)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy(&schemas(), dir.path());
    let path = dir.path().join(file);
    let mut schema: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut schema);
    fs::write(&path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
    dir
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn the_tables_carry_the_seed_enums_and_constants_and_no_convention() {
    let ddl = jerry_contracts_codegen::store_ddl(&schemas()).unwrap_or_else(|e| panic!("{e}"));
    for table in [
        "colony_missions",
        "colony_task_graphs",
        "colony_tasks",
        "colony_task_dependencies",
        "colony_prompt_packages",
        "colony_research_artifacts",
        "colony_librarian_passes",
        "colony_worker_results",
        "colony_aggregation_packets",
        "colony_review_packets",
        "colony_policy_decisions",
        "colony_writeback_proposals",
    ] {
        assert!(ddl.contains(&format!("CREATE TABLE {table} (")), "no table {table}");
    }
    // A seed enum (004 §5.3) and the constants are CHECKs; the envelope's metadata is required.
    assert!(ddl.contains("CONSTRAINT sch_007_role_type CHECK (role_type IN ('planner', "));
    assert!(ddl.contains("CONSTRAINT sch_008_schema_name CHECK (schema_name = 'worker_result')"));
    assert!(ddl.contains("tenant_id text GENERATED ALWAYS AS (payload ->> 'tenant_id') STORED NOT NULL"));
    // A convention (a level's scale, D-31's date-time) is never the database's to refuse.
    assert!(!ddl.contains("'critical'"), "the level scale is a convention");
    assert!(!ddl.contains("timestamptz"), "created_at's format is a convention");
}

#[test]
fn a_mapped_schema_without_its_key_is_an_error_naming_it() {
    let dir = planted("mission/worker_result.json", |schema| {
        schema["properties"].as_object_mut().unwrap().remove("result_id");
    });
    let error = jerry_contracts_codegen::store_ddl(dir.path()).unwrap_err().to_string();
    assert!(
        error.contains("mission/worker_result.json#/properties: the store keys this artifact by `result_id`"),
        "{error}"
    );
}

#[test]
fn a_member_that_cannot_be_a_column_is_an_error_at_its_pointer() {
    let dir = planted("mission/review_packet.json", |schema| {
        schema["properties"]["order"] =
            serde_json::json!({"type": "string", "enum": ["a", "b"], "x-source": {"enum": "seed 004 §11.2"}});
        schema["properties"]["Grade"] =
            serde_json::json!({"type": "string", "const": "x", "x-source": {"const": "seed 004 §11.2"}});
    });
    let error = jerry_contracts_codegen::store_ddl(dir.path()).unwrap_err().to_string();
    assert!(error.contains("mission/review_packet.json#/properties/order: a column's name cannot be"), "{error}");
    assert!(error.contains("mission/review_packet.json#/properties/Grade: a column's name must be"), "{error}");
}

#[test]
fn a_key_that_is_not_a_string_is_an_error_at_its_pointer() {
    let dir = planted("mission/policy_decision.json", |schema| {
        schema["properties"]["decision_id"] = serde_json::json!({"type": "integer"});
    });
    let error = jerry_contracts_codegen::store_ddl(dir.path()).unwrap_err().to_string();
    assert!(
        error.contains("mission/policy_decision.json#/properties/decision_id: the store derives a column"),
        "{error}"
    );
}
