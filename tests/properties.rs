//! Property tests over documents generated from the schemas (tests/support/strategy.rs):
//! 1. every generated document is accepted by the reference validator (the strategies are
//!    right), by the generated type, and comes back unchanged from the type (value → JSON →
//!    value is the identity);
//! 2. a mutated document (a field dropped, retyped, or pushed past its constraint) gets the same
//!    verdict from the typed path, from the schema interpreter and from the `jsonschema` crate.
//!
//! Shrunk failing cases are persisted by proptest in `tests/properties.proptest-regressions`
//! and replayed first on every run.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::typed;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use serde_json::{Value, json};
use support::strategy;

/// Root types, each with its strategy and reference validator.
fn roots() -> (jerry_contracts_codegen::Corpus, Vec<String>) {
    let corpus = support::corpus();
    let roots = corpus.schemas.iter().filter(|s| s.has_root_type()).map(|s| s.path.clone()).collect();
    (corpus, roots)
}

fn runner(cases: u32) -> TestRunner {
    let persistence =
        FileFailurePersistence::Direct(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/properties.proptest-regressions"));
    TestRunner::new(Config { cases, failure_persistence: Some(Box::new(persistence)), ..Config::default() })
}

#[test]
fn generated_documents_are_valid_and_round_trip_through_their_types() {
    let (corpus, roots) = roots();
    let registry = support::registry(&corpus);
    for path in &roots {
        let schema = corpus.get(path).unwrap();
        let reference = support::validator(&registry, &schema.id);
        let entry = typed::find(path, "").unwrap();
        let strategy = strategy::documents(&corpus, path, "");
        runner(24)
            .run(&strategy, |document| {
                let errors = support::errors(&reference, &document);
                prop_assert!(errors.is_empty(), "{path}: the strategy made an invalid document {document}: {errors:?}");
                prop_assert!(
                    entry.check(&document).is_ok(),
                    "{path}: the type rejects {document}: {:?}",
                    entry.check(&document)
                );
                let round_trip = entry.round_trip(&document).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&round_trip, &document, "{} changed the document", path);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}

/// One change that may or may not break the schema.
#[derive(Debug, Clone)]
enum Mutation {
    Drop(usize),
    Retype(usize, Value),
    Stretch(usize),
}

fn mutate(document: &Value, mutation: &Mutation) -> Value {
    let mut out = document.clone();
    let Some(object) = out.as_object_mut() else { return out };
    let keys: Vec<String> = object.keys().cloned().collect();
    if keys.is_empty() {
        return out;
    }
    match mutation {
        Mutation::Drop(i) => {
            object.remove(&keys[i % keys.len()]);
        }
        Mutation::Retype(i, value) => {
            object.insert(keys[i % keys.len()].clone(), value.clone());
        }
        Mutation::Stretch(i) => {
            let key = &keys[i % keys.len()];
            let stretched = match &object[key] {
                Value::String(s) => json!(format!("{s}{}", "x".repeat(1200))),
                Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) * 1e6 + 1e6),
                Value::Array(_) => Value::Array(Vec::new()),
                other => other.clone(),
            };
            object.insert(key.clone(), stretched);
        }
    }
    out
}

fn mutations() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Drop),
        (
            any::<usize>(),
            prop_oneof![
                Just(json!(null)),
                Just(json!(7)),
                Just(json!("x")),
                Just(json!([1])),
                Just(json!({})),
                Just(json!(1.5))
            ]
        )
            .prop_map(|(i, v)| Mutation::Retype(i, v)),
        any::<usize>().prop_map(Mutation::Stretch),
    ]
}

#[test]
fn mutated_documents_get_one_verdict_from_types_interpreter_and_reference() {
    let (corpus, roots) = roots();
    let registry = support::registry(&corpus);
    for path in &roots {
        let schema = corpus.get(path).unwrap();
        let reference = support::validator(&registry, &schema.id);
        let entry = typed::find(path, "").unwrap();
        let strategy = (strategy::documents(&corpus, path, ""), mutations());
        runner(24)
            .run(&strategy, |(document, mutation)| {
                let mutated = mutate(&document, &mutation);
                let reference_valid = reference.is_valid(&mutated);
                let typed_valid = entry.check(&mutated).is_ok();
                prop_assert_eq!(
                    typed_valid,
                    reference_valid,
                    "{}: typed vs reference on {} ({:?})",
                    path,
                    mutated,
                    mutation
                );
                let interpreted = jerry_contracts::validation::Validator::interpret(path, &mutated);
                let mut expected: Vec<(String, String)> =
                    support::errors(&reference, &mutated).into_iter().map(|(k, p, _)| (k, p)).collect();
                let mut got = interpreted;
                expected.sort();
                got.sort();
                prop_assert_eq!(got, expected, "{}: interpreter vs reference on {}", path, mutated);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}
