//! The artifact store's throughput against plain `INSERT`s of the same JSON (issue 30, item 5),
//! on a PostgreSQL server the bench starts (the workspace's tests/support/postgres.rs: the
//! machine's installation, a Unix socket, `fsync=off` for every peer alike), in one run, the
//! peers interleaved repetition by repetition; each cell is the median of `REPS` (default 5).
//!
//! - one document a transaction, on one connection: `Store::put` (all four layers, the stored
//!   references, the key look-up, the constrained table) against `INSERT INTO plain (payload)
//!   VALUES ($1::jsonb)` into an unconstrained table (goal: `put` at least half the rate);
//! - `Store::put_many` of `BATCH` (default 100,000) worker results in one call, documents a
//!   second, against one `INSERT … SELECT … FROM unnest($1::text[])` of the same texts into the
//!   unconstrained table;
//! - the database's own constraints: that multi-row `INSERT` into the store's table
//!   (`colony_worker_results`: generated columns, CHECKs, keys) against an unconstrained table
//!   of the same two columns, without the validator.
//!
//!   cargo bench -p jerry-contracts-store --bench throughput      (or scripts/bench-store.sh)

#[path = "../../../tests/support/postgres.rs"]
#[allow(dead_code, clippy::expect_used, clippy::unwrap_used)]
mod server;

use std::time::Instant;

use jerry_contracts_store::{Outcome, Store};
use server::Postgres;

/// A worker result of the fixture story with result id `wrk_b<n>` (`tag` keeps each
/// repetition's ids apart).
fn worker_result(template: &serde_json::Value, tag: &str, n: usize) -> String {
    let mut doc = template.clone();
    doc["result_id"] = format!("wrk_{tag}{n:06}").into();
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps = env("REPS", 5);
    let singles = env("SINGLES", 2_000);
    let batch = env("BATCH", 100_000);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/mission");
    let fixture = |schema: &str| std::fs::read_to_string(root.join(format!("{schema}/valid/maximal.json")));
    let template: serde_json::Value = serde_json::from_str(&fixture("worker_result")?)?;

    let pg = Postgres::start();
    pg.create_database("bench");
    let mut store = Store::connect(&pg.params("bench"))?;
    store.migrate()?;
    for schema in ["mission_envelope", "mission_task_graph"] {
        let put = store.put(fixture(schema)?.as_bytes())?;
        assert_eq!(put.outcome, Outcome::Written, "{schema}: {:?}", put.report.records);
    }
    let mut plain = postgres::Client::connect(&pg.params("bench"), postgres::NoTls)?;
    plain.batch_execute(
        "CREATE TABLE plain (payload jsonb);
         CREATE TABLE plain_pair (document text, payload jsonb);",
    )?;

    let (mut put_rate, mut insert_rate) = (Vec::new(), Vec::new());
    let (mut many_rate, mut unnest_rate) = (Vec::new(), Vec::new());
    let (mut constrained, mut unconstrained) = (Vec::new(), Vec::new());
    let many_insert = |table: &str, columns: &str, select: &str| {
        format!("INSERT INTO {table} ({columns}) SELECT {select} FROM unnest($1::text[]) AS d")
    };
    for rep in 0..reps {
        // One document a transaction.
        let docs: Vec<String> = (0..singles).map(|n| worker_result(&template, &format!("s{rep}_"), n)).collect();
        let started = Instant::now();
        for doc in &docs {
            plain.execute("INSERT INTO plain (payload) VALUES ($1::text::jsonb)", &[doc])?;
        }
        insert_rate.push(singles as f64 / started.elapsed().as_secs_f64());
        let started = Instant::now();
        for doc in &docs {
            let put = store.put(doc.as_bytes())?;
            assert_eq!(put.outcome, Outcome::Written, "{:?}", put.report.records);
        }
        put_rate.push(singles as f64 / started.elapsed().as_secs_f64());

        // A batch in one call.
        let docs: Vec<String> = (0..batch).map(|n| worker_result(&template, &format!("m{rep}_"), n)).collect();
        let started = Instant::now();
        plain.execute(&many_insert("plain", "payload", "d::jsonb"), &[&docs])?;
        unnest_rate.push(batch as f64 / started.elapsed().as_secs_f64());
        let texts: Vec<&[u8]> = docs.iter().map(String::as_bytes).collect();
        let started = Instant::now();
        let puts = store.put_many(&texts)?;
        many_rate.push(batch as f64 / started.elapsed().as_secs_f64());
        assert!(puts.iter().all(|p| p.outcome == Outcome::Written));

        // The database's constraints alone: the same multi-row INSERT, constrained or not.
        let docs: Vec<String> = (0..batch).map(|n| worker_result(&template, &format!("c{rep}_"), n)).collect();
        let started = Instant::now();
        plain.execute(&many_insert("plain_pair", "document, payload", "d, d::jsonb"), &[&docs])?;
        unconstrained.push(batch as f64 / started.elapsed().as_secs_f64());
        let started = Instant::now();
        plain.execute(&many_insert("colony_worker_results", "document, payload", "d, d::jsonb"), &[&docs])?;
        constrained.push(batch as f64 / started.elapsed().as_secs_f64());
        eprintln!("repetition {} of {reps} done", rep + 1);
    }

    let rate = |v: f64| format!("{v:.0}/s");
    let (put, insert) = (median(put_rate), median(insert_rate));
    let (many, unnest) = (median(many_rate), median(unnest_rate));
    let (with, without) = (median(constrained), median(unconstrained));
    println!(
        "REPS={reps} SINGLES={singles} BATCH={batch}, worker results of {} bytes\n",
        worker_result(&template, "x", 0).len()
    );
    println!("| measure | this store | plain INSERT | store / plain | goal |");
    println!("|---|---:|---:|---:|---|");
    println!(
        "| one document a transaction, one connection | {} (`put`) | {} (jsonb, unconstrained) | **{:.2}** | ≥ 0.5 |",
        rate(put),
        rate(insert),
        put / insert
    );
    println!(
        "| {batch} in one call | {} (`put_many`) | {} (unnest, unconstrained) | **{:.2}** | |",
        rate(many),
        rate(unnest),
        many / unnest
    );
    println!(
        "| the database's constraints alone ({batch}, unnest) | {} (`colony_worker_results`) | {} (same columns, none) | **{:.2}** | |",
        rate(with),
        rate(without),
        with / without
    );
    Ok(())
}
