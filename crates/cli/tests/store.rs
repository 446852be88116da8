//! End-to-end tests of `jerry-contracts store migrate|put|get` on a real PostgreSQL the test
//! starts (the workspace's tests/support/postgres.rs).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

#[path = "../../../tests/support/postgres.rs"]
mod postgres;

use std::path::{Path, PathBuf};
use std::process::Command;

use postgres::Postgres;

const MISSION: &str = "3f2b8c1e-9a4d-4e7b-b6c2-5d1e8f0a7c93";

fn fixture(schema: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/mission/{schema}/valid/maximal.json"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_jerry-contracts")).args(args).output().expect("runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

#[test]
fn store_migrate_put_get() {
    let pg = Postgres::start();
    pg.create_database("cli");
    let database = pg.params("cli");
    let db = database.as_str();

    // `store sql` with the database: everything while it has nothing, then nothing.
    let (code, out, err) = run(&["store", "sql", "--database", db]);
    assert_eq!((code, out.as_str()), (0, jerry_contracts::store::ddl().as_str()), "{err}");
    let (code, out, err) = run(&["store", "migrate", "--database", db]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "applied 1 migration(s); the database is at migration 1");

    let (code, out, err) = run(&["store", "sql", "--database", db]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");

    // A worker result whose task the graph does not list: refused (REF-009), nothing written.
    let stray = tempfile::NamedTempFile::new().unwrap();
    let mut result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("worker_result")).unwrap()).unwrap();
    result["task_id"] = "task_missing".into();
    result["result_id"] = "wrk_stray".into();
    std::fs::write(stray.path(), serde_json::to_vec(&result).unwrap()).unwrap();
    let stray_path = stray.path().to_str().unwrap();
    let envelope = fixture("mission_envelope");
    let graph = fixture("mission_task_graph");
    let worker = fixture("worker_result");
    let paths = [envelope.to_str().unwrap(), graph.to_str().unwrap(), worker.to_str().unwrap()];
    let (code, out, _) = run(&[&["store", "put", "--database", db][..], &paths, &[stray_path]].concat());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("withheld") && out.contains(": refused") && out.contains("error[REF-009]"), "{out}");

    // The three alone: written; again: unchanged.
    let (code, out, err) = run(&[&["store", "put", "--database", db][..], &paths].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches(": written").count(), 3, "{out}");
    let (code, out, _) = run(&[&["store", "put", "--database", db][..], &paths].concat());
    assert_eq!((code, out.matches(": unchanged").count()), (0, 3), "{out}");

    // Other bytes under a stored key: a conflict, exit 2, naming the file.
    result["task_id"] = "task_worker_01".into();
    result["result_id"] = "wrk_002".into();
    std::fs::write(stray.path(), serde_json::to_vec(&result).unwrap()).unwrap();
    let (code, _, err) = run(&["store", "put", "--database", db, stray_path]);
    assert_eq!(code, 2);
    assert!(err.contains("never overwritten"), "{err}");

    // get: the text exactly; a key with nothing stored is exit 1.
    let (code, out, err) = run(&["store", "get", "--database", db, "worker_result", MISSION, "wrk_002"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.as_bytes(), std::fs::read(&worker).unwrap());
    let (code, _, err) = run(&["store", "get", "--database", db, "worker_result", MISSION, "wrk_none"]);
    assert_eq!(code, 1, "{err}");

    // A database that is not there: exit 2 with the driver's reason.
    let missing = format!("{db}_missing");
    let (code, _, err) = run(&["store", "get", "--database", &missing, "worker_result", MISSION, "wrk_002"]);
    assert_eq!(code, 2);
    assert!(err.contains("jerry-contracts store get:"), "{err}");
}
