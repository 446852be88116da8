//! Judges one document N times, for instruction counts under callgrind (docs/performance.md):
//! run it with N=101 and N=1 and take the difference, so start-up, the registry and one-time
//! pattern builds are out.
//!
//! ```sh
//! cargo build --release --example icount
//! N=101 valgrind --tool=callgrind --callgrind-out-file=cg.101 target/release/examples/icount validate FILE
//! ```
//!
//! Modes: `validate` (a), `typed` (c′, `typed::from_slice`), `serde` (c,
//! `serde_json::from_slice`), `value` (d), `jsonschema` (e, parse
//! to `Value` + `is_valid`), `ignored` (the `IgnoredAny` floor).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

#[path = "../benches/support/documents.rs"]
mod documents;

use documents::reference_validator;
use jerry_contracts::session_context::v1_1::SessionContext;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().expect("usage: icount MODE FILE");
    let bytes = std::fs::read(args.next().expect("usage: icount MODE FILE")).expect("readable file");
    let n: usize = std::env::var("N").ok().and_then(|n| n.parse().ok()).unwrap_or(101);
    let reference = (mode == "jsonschema").then(reference_validator);
    let report = jerry_contracts::validation::validate(&bytes);
    assert!(report.is_valid() && report.records.is_empty(), "{:?}", report.records);
    for _ in 0..n {
        match mode.as_str() {
            "validate" => {
                std::hint::black_box(jerry_contracts::validation::validate(std::hint::black_box(&bytes)));
            }
            "typed" => {
                let t: SessionContext = jerry_contracts::typed::from_slice(std::hint::black_box(&bytes)).unwrap();
                std::hint::black_box(t);
            }
            "serde" => {
                let t: SessionContext = serde_json::from_slice(std::hint::black_box(&bytes)).unwrap();
                std::hint::black_box(t);
            }
            "value" => {
                let t: serde_json::Value = serde_json::from_slice(std::hint::black_box(&bytes)).unwrap();
                std::hint::black_box(t);
            }
            "ignored" => {
                let text = simdutf8::basic::from_utf8(std::hint::black_box(&bytes)).unwrap();
                let t: serde::de::IgnoredAny = serde_json::from_str(text).unwrap();
                std::hint::black_box(t);
            }
            "jsonschema" => {
                let t: serde_json::Value = serde_json::from_slice(std::hint::black_box(&bytes)).unwrap();
                std::hint::black_box(reference.as_ref().unwrap().is_valid(&t));
            }
            other => panic!("unknown mode {other}"),
        }
    }
}
