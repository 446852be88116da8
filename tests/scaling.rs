//! Costs that must not grow with what a run has seen, counted in bytes allocated (a counting
//! global allocator), not timed. One test in this binary, so that no other test's allocations
//! are counted.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::alloc::System;
use std::path::Path;

use jerry_contracts::validation::{Options, Validator};
use serde_json::{Value, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The bytes `f` allocates.
fn allocated_by(f: impl FnOnce()) -> u64 {
    let region = Region::new(GLOBAL);
    f();
    region.change().bytes_allocated as u64
}

fn fixture(relative: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(relative);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The `n`th requirement id of the pattern `^REQ-[A-Z]{3}-\\d{3}$` (17 576 000 of them).
fn requirement_id(n: usize) -> String {
    let letter = |k: usize| char::from(b'A' + u8::try_from(k % 26).unwrap());
    let block = n / 1000;
    format!("REQ-{}{}{}-{:03}", letter(block / 676), letter(block / 26), letter(block), n % 1000)
}

#[test]
fn requirement_ids_known_to_a_run_are_neither_copied_to_judge_nor_to_learn() {
    judging_references_costs_the_same_whatever_the_run_knows();
    learning_20_000_requirement_documents_costs_the_same_for_the_last_as_for_the_first();
}

fn judging_references_costs_the_same_whatever_the_run_knows() {
    let risk = serde_json::to_vec(&fixture("agents/nse/risk_output/valid/maximal.json")).unwrap();
    let knowing = |count: usize| {
        let ids: Vec<String> = (0..count).map(requirement_id).chain(["REQ-ECL-001".to_owned()]).collect();
        Validator::with_options(Options::default().with_known_requirements(ids))
    };
    let (few, many) = (knowing(10), knowing(20_000));
    // Anything built once per process is built before counting.
    assert_eq!(few.validate(&risk).codes(), many.validate(&risk).codes());
    let cost_few = allocated_by(|| {
        let _ = few.validate(&risk);
    });
    let cost_many = allocated_by(|| {
        let _ = many.validate(&risk);
    });
    // A copy of 20 000 ids would be hundreds of kilobytes; the judgement itself is a few.
    assert!(
        cost_many < cost_few + 16 * 1024,
        "judging with 20 000 known ids allocated {cost_many} bytes, with 10 {cost_few}"
    );
}

fn learning_20_000_requirement_documents_costs_the_same_for_the_last_as_for_the_first() {
    let template = fixture("agents/nse/requirements_output/valid/seed_example_2.json");
    let mut validator = Validator::new();
    let mut costs = Vec::new();
    for n in 0..20_000 {
        let mut document = template.clone();
        for (i, requirement) in document["requirements"].as_array_mut().unwrap().iter_mut().enumerate() {
            requirement["id"] = json!(requirement_id(n * 3 + i));
        }
        let text = serde_json::to_vec(&document).unwrap();
        let cost = allocated_by(|| {
            let report = validator.validate(&text);
            assert!(report.is_valid(), "{:?}", report.codes());
            let ids = Validator::requirements_taught(&report, &text);
            assert_eq!(ids.len(), 3);
            assert!(validator.learn_requirements(ids));
        });
        costs.push(cost);
    }
    assert_eq!(validator.options().known_requirements.len(), 60_000);
    let first: u64 = costs[100..1100].iter().sum();
    let last: u64 = costs[19_000..].iter().sum();
    // Linear: the 19 000th document costs what the 100th did (a copy of the known set would make
    // it some 60 000 ids, megabytes, more).
    assert!(last < first * 2, "the last 1000 documents allocated {last} bytes, the first 1000 {first}");
}
