//! The documents the benchmarks judge, built deterministically from the seed example
//! `tests/fixtures/session_context/v1.1.0/valid/seed_example_1.json`, and the `jsonschema`
//! validator they are compared with (shared by `benches/validate.rs`, `benches/ratios.rs` and
//! `examples/icount.rs`).
#![allow(dead_code)] // each bench uses its own part

use std::path::PathBuf;

use serde_json::{Value, json};

/// Words the generated texts are made of (a few non-ASCII ones, so UTF-8 is exercised).
const WORDS: &[&str] = &[
    "agent",
    "handoff",
    "requirements",
    "verification",
    "trade",
    "study",
    "risk",
    "mitigation",
    "orchestrator",
    "divergent",
    "convergent",
    "persona",
    "traceability",
    "interface",
    "baseline",
    "configuration",
    "NASA",
    "NPR 7123.1",
    "Δv budget",
    "naïve",
    "review",
    "evidence",
    "schema",
    "coverage",
    "stakeholder",
    "mission",
    "telemetry",
    "latency",
    "throughput",
    "—",
];

/// A text of at most `chars` characters (and close to it), varying with `seed`.
pub fn text(seed: usize, chars: usize) -> String {
    let mut out = String::new();
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(12_345);
    loop {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let word = WORDS[(state >> 33) % WORDS.len()];
        if out.chars().count() + word.chars().count() + 2 > chars {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.push('.');
    out
}

const CATEGORIES: &[&str] = &["insight", "pattern", "gap", "prior_art", "best_practice"];

/// The `i`-th finding (0-based, under 999) of the `n`-th document.
pub fn finding(i: usize, n: usize, summary_chars: usize, evidence: usize) -> Value {
    let k = i + n;
    json!({
        "id": format!("F-{:03}", i + 1),
        "summary": text(k, summary_chars),
        "category": CATEGORIES[k % CATEGORIES.len()],
        "evidence": (0..evidence).map(|e| format!("agent-research-{:03}-{e}.md", k % 1000)).collect::<Vec<_>>(),
        "relevance_score": ((k * 37) % 100) as f64 / 100.0,
    })
}

pub fn seed() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/session_context/v1.1.0/valid/seed_example_1.json");
    serde_json::from_slice(&std::fs::read(&path).expect("seed example readable")).expect("seed example parses")
}

/// ~1 KB: the seed's envelope with one finding, one source, confidence with reasoning, one
/// artifact and the trace; no output levels, open questions, research gaps or workflow state.
pub fn small(seed: &Value, n: usize) -> Value {
    let mut doc = seed.clone();
    let root = doc.as_object_mut().unwrap();
    root.remove("workflow_state");
    root.insert("session_id".into(), json!(format!("sess-2026-01-10-{n:06}")));
    let payload = root["payload"].as_object_mut().unwrap();
    for key in ["output_levels", "open_questions", "research_gaps"] {
        payload.remove(key);
    }
    payload["confidence"].as_object_mut().unwrap().remove("breakdown");
    payload["findings"] = json!([{
        "id": "F-001",
        "summary": text(n, 90),
        "category": CATEGORIES[n % CATEGORIES.len()],
        "evidence": ["agent-research-004-persona-compatibility.md"],
        "relevance_score": 0.95,
    }]);
    doc
}

/// ~6 KB: the whole seed example with 20 findings and a checksummed artifact.
pub fn medium(seed: &Value, n: usize) -> Value {
    let mut doc = seed.clone();
    doc["session_id"] = json!(format!("sess-2026-01-10-{n:06}"));
    let payload = &mut doc["payload"];
    payload["findings"] = (0..20).map(|i| finding(i, n, 70, 1)).collect();
    payload["artifacts"][0]["checksum"] = json!(format!("sha256:{}", "3f".repeat(32)));
    doc
}

/// ~100 KB: 150 findings with long summaries (under the 500-character limit), 20 sources,
/// 20 open questions and long output levels.
pub fn large(seed: &Value, n: usize) -> Value {
    let mut doc = medium(seed, n);
    let payload = &mut doc["payload"];
    payload["findings"] = (0..150).map(|i| finding(i, n, 380, 2)).collect();
    const SOURCE_TYPES: [&str; 5] = ["web", "file", "nasa_standard", "academic", "industry"];
    const CREDIBILITY: [&str; 4] = ["authoritative", "reliable", "informational", "unverified"];
    const PRIORITY: [&str; 4] = ["low", "medium", "high", "critical"];
    payload["sources"] = (0..20)
        .map(|i| {
            json!({
                "title": text(1000 + i, 60),
                "url_or_path": format!("projects/PROJ-002/research/source-{i:03}.md"),
                "source_type": SOURCE_TYPES[i % 5],
                "credibility": CREDIBILITY[i % 4],
            })
        })
        .collect();
    payload["open_questions"] = (0..20)
        .map(|i| {
            json!({
                "id": format!("Q-{:03}", i + 1),
                "question": text(2000 + i, 120),
                "priority": PRIORITY[i % 4],
                "suggested_approach": text(3000 + i, 120),
            })
        })
        .collect();
    payload["output_levels"] = json!({
        "l0_eli5": text(4000, 950),
        "l1_technical": text(4001, 4000),
        "l2_strategic": text(4002, 4000),
    });
    doc
}

/// ~11 KB: the seed example with 20 findings of ~330-character summaries and two evidence items.
pub fn findings_11k(seed: &Value, n: usize) -> Value {
    let mut doc = seed.clone();
    doc["session_id"] = json!(format!("sess-2026-01-10-{n:06}"));
    doc["payload"]["findings"] = (0..20).map(|i| finding(i, n, 330, 2)).collect();
    doc
}

/// ~66 KB: the seed example with 150 findings of ~290-character summaries and two evidence items.
pub fn findings_66k(seed: &Value, n: usize) -> Value {
    let mut doc = seed.clone();
    doc["session_id"] = json!(format!("sess-2026-01-10-{n:06}"));
    doc["payload"]["findings"] = (0..150).map(|i| finding(i, n, 290, 2)).collect();
    doc
}

pub fn reference_validator() -> jsonschema::Validator {
    let schemas = jerry_contracts::registry::schemas();
    let registry = jsonschema::Registry::new()
        .extend(schemas.iter().map(|s| (s.id, &s.document)))
        .and_then(|builder| builder.prepare())
        .expect("corpus indexes");
    let uri = format!("{}session_context/v1.1.0.json", jerry_contracts::SCHEMA_ID_BASE);
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .with_registry(&registry)
        .build(&json!({ "$ref": uri }))
        .expect("v1.1.0 compiles")
}
