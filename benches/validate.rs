//! Validation throughput of v1.1.0 handoffs (docs/performance.md), in one criterion run so that
//! every ratio compares numbers taken on the same machine at the same time.
//!
//! Workloads, built deterministically from the seed example
//! `tests/fixtures/session_context/v1.1.0/valid/seed_example_1.json`:
//!
//! | group          | what                                                                  |
//! |----------------|-----------------------------------------------------------------------|
//! | `handoff_1k`   | a ps-researcher handoff with one finding (~1.3 KB compact)            |
//! | `handoff_6k`   | the seed example with 20 findings (~6 KB)                             |
//! | `handoff_100k` | 150 findings with long summaries, long output levels (~100 KB)        |
//! | `ndjson_10k`   | 10 000 handoffs, one a line, held in memory: mostly ~1 KB, every 20th ~6 KB, every 500th ~100 KB |
//!
//! Functions, each measured on every workload with the throughput in bytes:
//!
//! - `a_validate`: `jerry_contracts::validation::validate(bytes)`, all four layers;
//! - `b_typed_check_value`: the schema layer's typed check on a `Value` parsed in the iteration;
//! - `b_typed_garde_bytes`: the typed read (`typed::from_slice`), then `garde::Validate`;
//! - `c_serde_typed`: bare typed deserialise, `serde_json::from_slice::<SessionContext>`;
//! - `c_typed_read`: the crate's typed read, `jerry_contracts::typed::from_slice` (the input
//!   checked as UTF-8 once, then read as text);
//! - `d_serde_value`: `serde_json::from_slice::<Value>`;
//! - `e_jsonschema`: the `jsonschema` crate (draft-07, formats on, every schema in its registry,
//!   compiled once) on a `Value` parsed in the iteration.
//!
//! The `breakdown_*` groups take (a) apart on the single documents (see [`breakdown`]).
//!
//! The documents are also written to `$JERRY_BENCH_DIR` (default `/tmp/jerry-contracts-bench`)
//! for `scripts/bench_python.py` and the CLI runs of `scripts/bench.sh`; with
//! `JERRY_BENCH_WRITE_ONLY=1` the bench only writes them and exits.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

#[path = "support/documents.rs"]
mod documents;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use documents::{large, medium, reference_validator, seed, small};
use jerry_contracts::session_context::v1_1::SessionContext;
use serde_json::Value;

/// Lines of the NDJSON stream.
const STREAM_LINES: usize = 10_000;
/// Every this-many-th line of the stream is the ~6 KB handoff ...
const MEDIUM_EVERY: usize = 20;
/// ... and every this-many-th the ~100 KB one.
const LARGE_EVERY: usize = 500;

/// One workload: documents, one a line, and the lines as slices of it.
struct Workload {
    name: &'static str,
    text: Vec<u8>,
}

impl Workload {
    fn lines(&self) -> Vec<&[u8]> {
        self.text.split(|b| *b == b'\n').filter(|line| !line.is_empty()).collect()
    }
}

fn line(doc: &Value) -> Vec<u8> {
    serde_json::to_vec(doc).unwrap()
}

fn workloads() -> Vec<Workload> {
    let seed = seed();
    let mut stream = Vec::new();
    for n in 0..STREAM_LINES {
        let doc = if n % LARGE_EVERY == LARGE_EVERY - 1 {
            large(&seed, n)
        } else if n % MEDIUM_EVERY == MEDIUM_EVERY - 1 {
            medium(&seed, n)
        } else {
            small(&seed, n)
        };
        stream.extend(line(&doc));
        stream.push(b'\n');
    }
    vec![
        Workload { name: "handoff_1k", text: line(&small(&seed, 0)) },
        Workload { name: "handoff_6k", text: line(&medium(&seed, 0)) },
        Workload { name: "handoff_100k", text: line(&large(&seed, 0)) },
        Workload { name: "ndjson_10k", text: stream },
    ]
}

// ---------------------------------------------------------------------------------------------
// The peer: the `jsonschema` crate as tests/support sets it up
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Setup checks, files for the other runners, and the measurements
// ---------------------------------------------------------------------------------------------

/// Every document must be valid for every contender, or the comparison would time error paths.
fn check(workload: &Workload, reference: &jsonschema::Validator) {
    let entry = jerry_contracts::__private::typed::find("session_context/v1.1.0.json", "").unwrap();
    for (i, line) in workload.lines().iter().enumerate() {
        let report = jerry_contracts::validation::validate(line);
        assert!(
            report.is_valid() && report.records.is_empty(),
            "{} line {}: {:?}",
            workload.name,
            i + 1,
            report.records
        );
        let value: Value = serde_json::from_slice(line).unwrap();
        assert!(entry.check(&value).is_ok(), "{} line {}: typed check", workload.name, i + 1);
        assert!(reference.is_valid(&value), "{} line {}: jsonschema rejects it", workload.name, i + 1);
        let typed: SessionContext = serde_json::from_slice(line).unwrap();
        assert!(garde::Validate::validate(&typed).is_ok(), "{} line {}: garde", workload.name, i + 1);
    }
}

fn write_files(workloads: &[Workload]) -> PathBuf {
    let dir =
        std::env::var_os("JERRY_BENCH_DIR").map_or_else(|| PathBuf::from("/tmp/jerry-contracts-bench"), PathBuf::from);
    std::fs::create_dir_all(&dir).expect("bench directory");
    for workload in workloads {
        let ext = if workload.name.starts_with("ndjson") { "ndjson" } else { "json" };
        std::fs::write(dir.join(format!("{}.{ext}", workload.name)), &workload.text).expect("workload written");
    }
    dir
}

fn bench(c: &mut Criterion, workload: &Workload, reference: &jsonschema::Validator) {
    let lines = workload.lines();
    let entry = jerry_contracts::__private::typed::find("session_context/v1.1.0.json", "").unwrap();
    let mut group = c.benchmark_group(workload.name);
    group.throughput(Throughput::Bytes(workload.text.len() as u64));
    if lines.len() > 1 {
        // One iteration is the whole stream (tens of milliseconds or more): a fixed number of
        // iterations per sample instead of criterion's linear ramp keeps the run short.
        group.sampling_mode(SamplingMode::Flat);
    }
    group.bench_function("a_validate", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(jerry_contracts::validation::validate(black_box(line)));
            }
        });
    });
    group.bench_function("b_typed_check_value", |b| {
        b.iter(|| {
            for line in &lines {
                let value: Value = serde_json::from_slice(black_box(line)).unwrap();
                black_box(entry.check(&value).is_ok());
            }
        });
    });
    group.bench_function("b_typed_garde_bytes", |b| {
        b.iter(|| {
            for line in &lines {
                let typed: SessionContext = jerry_contracts::typed::from_slice(black_box(line)).unwrap();
                black_box(garde::Validate::validate(&typed).is_ok());
            }
        });
    });
    group.bench_function("c_serde_typed", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(serde_json::from_slice::<SessionContext>(black_box(line)).unwrap());
            }
        });
    });
    group.bench_function("c_typed_read", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(jerry_contracts::typed::from_slice::<SessionContext>(black_box(line)).unwrap());
            }
        });
    });
    group.bench_function("d_serde_value", |b| {
        b.iter(|| {
            for line in &lines {
                black_box(serde_json::from_slice::<Value>(black_box(line)).unwrap());
            }
        });
    });
    group.bench_function("e_jsonschema", |b| {
        b.iter(|| {
            for line in &lines {
                let value: Value = serde_json::from_slice(black_box(line)).unwrap();
                black_box(reference.is_valid(&value));
            }
        });
    });
    group.finish();
}

/// The parts (a) and its `Value` path are made of, on a document parsed once outside the loop:
/// `validate_value` (the path for a caller holding a `Value`, and for a document the fast path
/// sends back), the schema layer's typed check, its deserialisation with and without
/// `serde_path_to_error`, the payload's detour through a `Value` (the generated dispatch makes it
/// on every read), and the garde rules alone; and, from the bytes, the floor of reading JSON at
/// all (`IgnoredAny`, which is also about what the fast path's schema probe costs).
fn breakdown(c: &mut Criterion, workload: &Workload) {
    let value: Value = serde_json::from_slice(&workload.text).unwrap();
    let typed: SessionContext = serde_json::from_value(value.clone()).unwrap();
    let entry = jerry_contracts::__private::typed::find("session_context/v1.1.0.json", "").unwrap();
    let validator = jerry_contracts::validation::Validator::new();
    let mut group = c.benchmark_group(format!("breakdown_{}", workload.name));
    group.throughput(Throughput::Bytes(workload.text.len() as u64));
    group.bench_function("validate_value", |b| b.iter(|| validator.validate_value(None, black_box(&value))));
    group.bench_function("typed_check", |b| b.iter(|| entry.check(black_box(&value)).is_ok()));
    group.bench_function("deserialize_tracked", |b| {
        b.iter(|| jerry_contracts::typed::deserialize::<SessionContext>(black_box(&value)).unwrap())
    });
    group.bench_function("deserialize_plain", |b| {
        b.iter(|| <SessionContext as serde::Deserialize>::deserialize(black_box(&value)).unwrap())
    });
    group.bench_function("payload_to_value", |b| {
        b.iter(|| <Value as serde::Deserialize>::deserialize(black_box(&value["payload"])).unwrap())
    });
    group.bench_function("garde", |b| b.iter(|| garde::Validate::validate(black_box(&typed)).is_ok()));
    // The floor of any parser: syntax and UTF-8 checked, nothing allocated or kept.
    group.bench_function("parse_ignored_any", |b| {
        b.iter(|| serde_json::from_slice::<serde::de::IgnoredAny>(black_box(&workload.text)).unwrap())
    });
    group.finish();
}

fn main() {
    let workloads = workloads();
    let dir = write_files(&workloads);
    for workload in &workloads {
        let lines = workload.lines();
        eprintln!(
            "workload {:<13} {:>6} document(s) {:>10} bytes ({} bytes a document on average), written to {}",
            workload.name,
            lines.len(),
            workload.text.len(),
            workload.text.len() / lines.len(),
            dir.display()
        );
    }
    if std::env::var_os("JERRY_BENCH_WRITE_ONLY").is_some() {
        return;
    }
    let reference = reference_validator();
    let started = std::time::Instant::now();
    for workload in &workloads {
        check(workload, &reference);
    }
    eprintln!("every document is valid for every contender (checked in {:.1?})", started.elapsed());
    let mut c = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .configure_from_args();
    for workload in &workloads {
        bench(&mut c, workload, &reference);
    }
    for workload in workloads.iter().filter(|w| !w.name.starts_with("ndjson")) {
        breakdown(&mut c, workload);
    }
    c.final_summary();
}
