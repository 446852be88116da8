//! The performance targets in wall time (docs/performance.md opens with this bench's table):
//! on the 2.8 KB seed handoff, an 11 KB handoff with 20 findings and a 66 KB one with 150,
//!
//! - typed read / `Value` parse ≤ 0.6, for the crate's typed read (`typed::from_slice`) and
//!   serde's (`serde_json::from_slice::<SessionContext>`);
//! - `jsonschema` / `validate` ≥ 2.5 (the `jsonschema` crate's `is_valid` on a `Value` parsed in
//!   the iteration, against `validation::validate` on the bytes, all layers).
//!
//! Every peer is measured in the same run, interleaved: each repetition times a batch of every
//! peer in turn, so drift on the shared machine touches them alike; the table gives the median
//! of the repetitions' ratios (and their range). `cargo bench --bench ratios` (about a minute);
//! `REPS` (default 15) and `BATCH_MS` (default 60) tune it.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

#[path = "support/documents.rs"]
mod documents;

use std::hint::black_box;
use std::time::{Duration, Instant};

use jerry_contracts::session_context::v1_1::SessionContext;
use serde_json::Value;

/// One contender's judgement of a document.
type Judge<'a> = Box<dyn Fn(&[u8]) + 'a>;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Nanoseconds per call of `run` on `doc`, over a batch of `calls`.
fn time(run: &dyn Fn(&[u8]), doc: &[u8], calls: u64) -> f64 {
    let started = Instant::now();
    for _ in 0..calls {
        run(black_box(doc));
    }
    started.elapsed().as_nanos() as f64 / calls as f64
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 { values[mid] } else { (values[mid - 1] + values[mid]) / 2.0 }
}

fn main() {
    let reps = env("REPS", 15) as usize;
    let batch = Duration::from_millis(env("BATCH_MS", 60));
    let seed = documents::seed();
    let documents: Vec<(&str, Vec<u8>)> = vec![
        ("seed handoff", serde_json::to_vec(&seed).unwrap()),
        ("20 findings", serde_json::to_vec(&documents::findings_11k(&seed, 0)).unwrap()),
        ("150 findings", serde_json::to_vec(&documents::findings_66k(&seed, 0)).unwrap()),
    ];
    let reference = documents::reference_validator();
    let peers: [Judge<'_>; 5] = [
        // validate
        Box::new(|d| {
            black_box(jerry_contracts::validation::validate(d));
        }),
        // jsonschema
        Box::new(|d| {
            let value: Value = serde_json::from_slice(d).unwrap();
            black_box(reference.is_valid(&value));
        }),
        // typed::from_slice
        Box::new(|d| {
            black_box(jerry_contracts::typed::from_slice::<SessionContext>(d).unwrap());
        }),
        // serde typed
        Box::new(|d| {
            black_box(serde_json::from_slice::<SessionContext>(d).unwrap());
        }),
        // Value parse
        Box::new(|d| {
            black_box(serde_json::from_slice::<Value>(d).unwrap());
        }),
    ];
    println!(
        "| document | bytes | typed::from_slice / Value | serde typed / Value | jsonschema / validate | validate | jsonschema | Value parse |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, doc) in &documents {
        // Every contender must judge the document valid, or the comparison would time errors.
        assert!(jerry_contracts::validation::validate(doc).records.is_empty(), "{name}: not valid");
        assert!(reference.is_valid(&serde_json::from_slice::<Value>(doc).unwrap()), "{name}: jsonschema refuses it");
        // Calls per batch, from one warm-up call of each peer.
        let calls: Vec<u64> = peers
            .iter()
            .map(|peer| {
                let once = time(&**peer, doc, 200).max(1.0);
                ((batch.as_nanos() as f64 / once) as u64).max(1)
            })
            .collect();
        let mut per_rep: Vec<Vec<f64>> = vec![Vec::new(); peers.len()];
        for _ in 0..reps {
            for (i, peer) in peers.iter().enumerate() {
                per_rep[i].push(time(&**peer, doc, calls[i]));
            }
        }
        let ratio = |a: usize, b: usize| -> (f64, f64, f64) {
            let mut ratios: Vec<f64> = per_rep[a].iter().zip(&per_rep[b]).map(|(x, y)| x / y).collect();
            let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ratios.iter().copied().fold(0.0, f64::max);
            (median(&mut ratios), lo, hi)
        };
        let shown = |(m, lo, hi): (f64, f64, f64)| format!("**{m:.2}** ({lo:.2}–{hi:.2})");
        let micros = |i: usize| format!("{:.1} µs", median(&mut per_rep[i].clone()) / 1000.0);
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            doc.len(),
            shown(ratio(2, 4)),
            shown(ratio(3, 4)),
            shown(ratio(1, 0)),
            micros(0),
            micros(1),
            micros(4),
        );
    }
    println!("\nmedian of {reps} interleaved repetitions of ~{} ms batches per peer; (range)", batch.as_millis());
}
