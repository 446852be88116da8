//! The peers of `benches/ratios.rs` on their own: serde_json's `Value` parse and the `jsonschema`
//! crate's draft-07 check, built without jerry-contracts, so that neither runs code this crate's
//! compilation shaped (a generic instance such as `BTreeMap<String, Value>::insert` is shared
//! from an upstream rlib; docs/performance.md). The bench runs it once per repetition:
//!
//! `jerry-contracts-lone-peer value|jsonschema SCHEMAS_DIR FILE CALLS` prints the nanoseconds of
//! one call, timed over CALLS calls after one warm-up call.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a bench tool: a failure is the run failing

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use serde_json::Value;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, schemas, file, calls] = args.as_slice() else {
        panic!("usage: jerry-contracts-lone-peer value|jsonschema SCHEMAS_DIR FILE CALLS");
    };
    let doc = std::fs::read(file).expect("readable document");
    let calls: u64 = calls.parse().expect("a number of calls");
    let nanos = match mode.as_str() {
        "value" => time(&|d| drop(black_box(serde_json::from_slice::<Value>(d).unwrap())), &doc, calls),
        "jsonschema" => {
            let validator = reference_validator(Path::new(schemas));
            assert!(validator.is_valid(&serde_json::from_slice::<Value>(&doc).unwrap()), "jsonschema refuses it");
            time(
                &|d| {
                    let value: Value = serde_json::from_slice(d).unwrap();
                    black_box(validator.is_valid(&value));
                },
                &doc,
                calls,
            )
        }
        other => panic!("unknown mode {other}"),
    };
    println!("{nanos:.1}");
}

fn time(run: &dyn Fn(&[u8]), doc: &[u8], calls: u64) -> f64 {
    run(black_box(doc));
    let started = Instant::now();
    for _ in 0..calls {
        run(black_box(doc));
    }
    started.elapsed().as_nanos() as f64 / calls as f64
}

/// The validator the bench compares with, from the schema files on disk (each under its `$id`).
fn reference_validator(schemas: &Path) -> jsonschema::Validator {
    let mut documents = Vec::new();
    collect(schemas, &mut documents);
    let registry = jsonschema::Registry::new()
        .extend(documents.iter().map(|(id, document)| (id.as_str(), document)))
        .and_then(|builder| builder.prepare())
        .expect("corpus indexes");
    let uri = "https://jerry.dev/schemas/session_context/v1.1.0.json";
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .with_registry(&registry)
        .build(&serde_json::json!({ "$ref": uri }))
        .expect("v1.1.0 compiles")
}

fn collect(dir: &Path, out: &mut Vec<(String, Value)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("schemas directory").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            let document: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let id = document["$id"].as_str().expect("every schema has an $id").to_owned();
            out.push((id, document));
        }
    }
}
