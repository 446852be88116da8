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
//!
//! The `Value` parse and `jsonschema` also run in `crates/lone-peer`, a binary that does not
//! link this crate (`cargo build --release -p jerry-contracts-lone-peer` first, or `LONE_PEER`
//! naming the binary), once per repetition: the "lone" columns, which the targets are judged
//! against (docs/design.md D-167).
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
    // The peers again in a binary of their own (`crates/lone-peer`), when it is built: run once
    // per repetition, interleaved with the rest, on the same documents.
    let lone = std::env::var_os("LONE_PEER").map(std::path::PathBuf::from).or_else(|| {
        let built = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/jerry-contracts-lone-peer");
        built.exists().then_some(built)
    });
    let scratch = std::env::temp_dir().join(format!("jerry-ratios-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let schemas = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let lone_time = |mode: &str, file: &std::path::Path, calls: u64| -> f64 {
        let lone = lone.as_ref().expect("the lone peer");
        let out = std::process::Command::new(lone)
            .args([std::ffi::OsStr::new(mode), schemas.as_os_str(), file.as_os_str(), calls.to_string().as_ref()])
            .output()
            .expect("the lone peer runs");
        assert!(out.status.success(), "lone peer: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().parse().expect("nanoseconds")
    };
    println!(
        "| document | bytes | typed::from_slice / Value | serde typed / Value | jsonschema / validate | validate | jsonschema | Value parse |{}",
        if lone.is_some() { " typed / lone Value | lone jsonschema / validate | lone Value parse |" } else { "" }
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|{}", if lone.is_some() { "---:|---:|---:|" } else { "" });
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
        let file = scratch.join(name.replace(' ', "-"));
        std::fs::write(&file, doc).unwrap();
        // Columns 5 and 6: the lone peer's `Value` parse and `jsonschema`.
        let mut per_rep: Vec<Vec<f64>> = vec![Vec::new(); peers.len() + 2];
        for _ in 0..reps {
            for (i, peer) in peers.iter().enumerate() {
                per_rep[i].push(time(&**peer, doc, calls[i]));
            }
            if lone.is_some() {
                per_rep[5].push(lone_time("value", &file, calls[4]));
                per_rep[6].push(lone_time("jsonschema", &file, calls[1]));
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
        let lone_columns = if lone.is_some() {
            format!(" {} | {} | {} |", shown(ratio(2, 5)), shown(ratio(6, 0)), micros(5))
        } else {
            String::new()
        };
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |{lone_columns}",
            doc.len(),
            shown(ratio(2, 4)),
            shown(ratio(3, 4)),
            shown(ratio(1, 0)),
            micros(0),
            micros(1),
            micros(4),
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("\nmedian of {reps} interleaved repetitions of ~{} ms batches per peer; (range)", batch.as_millis());
}
