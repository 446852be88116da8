//! Property tests over documents generated from the schemas (tests/support/strategy.rs):
//! 1. every generated document is accepted by the reference validator (the strategies are
//!    right), by the generated type, and comes back unchanged from the type (value → JSON →
//!    value is the identity);
//! 2. a mutated document gets the same verdict from the typed path, from the schema interpreter
//!    and from the `jsonschema` crate. A mutation acts at any depth: it drops a member or an
//!    element, retypes or stretches a value, or breaks one of the constraints that apply in the
//!    document just past its limit (the boundary candidates of tests/support/boundary.rs).
//!
//! The runs are repeatable: a fixed seed ([`SEED`]) and [`CASES`] cases per schema, enough that
//! a constraint the generator drops is caught on every run (`scripts/mutants.sh` shows it). To
//! explore further, set `JERRY_PROPTEST_CASES` (cases per schema) and `JERRY_PROPTEST_SEED` (any
//! text; it is hashed into the seed), e.g.
//! `JERRY_PROPTEST_CASES=2000 JERRY_PROPTEST_SEED=$RANDOM cargo test --release --test properties`.
//! Shrunk failing cases are persisted by proptest in `tests/properties.proptest-regressions`
//! and replayed first on every run.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::__private::poke::{Tweak, TweakKind};
use jerry_contracts::__private::typed;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};
use support::{boundary, strategy};

/// The seed of every run unless `JERRY_PROPTEST_SEED` names another.
const SEED: [u8; 32] = *b"jerry-contracts property tests 1";

/// Cases per schema unless `JERRY_PROPTEST_CASES` says otherwise.
const CASES: u32 = 64;

/// Root types, each with its strategy and reference validator.
fn roots() -> (jerry_contracts_codegen::Corpus, Vec<String>) {
    let corpus = support::corpus();
    let roots = corpus.schemas.iter().filter(|s| s.has_root_type()).map(|s| s.path.clone()).collect();
    (corpus, roots)
}

/// A runner with the fixed (or the chosen) seed and case count.
fn runner() -> TestRunner {
    let persistence =
        FileFailurePersistence::Direct(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/properties.proptest-regressions"));
    let cases = std::env::var("JERRY_PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(CASES);
    let seed = std::env::var("JERRY_PROPTEST_SEED").map_or(SEED, |text| {
        // FNV-1a over the text, spread over the 32 bytes.
        let mut seed = [0u8; 32];
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for (i, byte) in text.bytes().cycle().take(text.len().max(1) * 4).enumerate() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            seed[i % 32] ^= hash.to_le_bytes()[i % 8];
        }
        seed
    });
    let config = Config { cases, failure_persistence: Some(Box::new(persistence)), ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed))
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
        runner()
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

/// One change that may or may not break the schema, at a place chosen by index (modulo the
/// number of places there are).
#[derive(Debug, Clone)]
enum Mutation {
    /// Remove the member or element at a place (any depth).
    Drop(usize),
    /// Replace the value at a place with a value of another type.
    Retype(usize, Value),
    /// Push the value at a place far out: a long string, a large number, an empty array.
    Stretch(usize),
    /// Break a constraint that applies in the document just past its limit: the chosen
    /// site's chosen invalid boundary candidate (a required member: removed).
    Break(usize, usize),
}

fn mutate(document: &Value, mutation: &Mutation, sites: &[boundary::Site]) -> Value {
    use jerry_contracts_schema_tools::fixtures::edit;
    let at = support::places(document);
    let place = |i: usize| at.get(i % at.len().max(1)).cloned();
    let changed = match mutation {
        Mutation::Drop(i) => place(*i).and_then(|p| edit(document, &p, None)),
        Mutation::Retype(i, value) => place(*i).and_then(|p| edit(document, &p, Some(value))),
        Mutation::Stretch(i) => place(*i).and_then(|p| {
            let stretched = match document.pointer(&p)? {
                Value::String(s) => json!(format!("{s}{}", "x".repeat(1200))),
                Value::Number(n) => json!(n.as_f64().unwrap_or(0.0) * 1e6 + 1e6),
                Value::Array(_) => Value::Array(Vec::new()),
                other => other.clone(),
            };
            edit(document, &p, Some(&stretched))
        }),
        Mutation::Break(i, j) => {
            let site = sites.get(i % sites.len().max(1));
            site.and_then(|site| {
                if site.keyword == "required" {
                    return edit(document, &site.pointer, None);
                }
                let (_, invalid) = boundary::candidates(site);
                let (_, value) = invalid.get(j % invalid.len().max(1))?;
                edit(document, &site.pointer, Some(value))
            })
        }
    };
    changed.unwrap_or_else(|| document.clone())
}

fn mutations() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => any::<usize>().prop_map(Mutation::Drop),
        1 => (
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
        1 => any::<usize>().prop_map(Mutation::Stretch),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::Break(i, j)),
    ]
}

#[test]
fn mutated_documents_get_one_verdict_from_types_skim_interpreter_and_reference() {
    let (corpus, roots) = roots();
    let registry = support::registry(&corpus);
    for path in &roots {
        let schema = corpus.get(path).unwrap();
        let reference = support::validator(&registry, &schema.id);
        let entry = typed::find(path, "").unwrap();
        let strategy = (strategy::documents(&corpus, path, ""), mutations());
        let holds = |uri: &str, value: &Value| support::validator(&registry, uri).is_valid(value);
        runner()
            .run(&strategy, |(document, mutation)| {
                let sites = boundary::sites(&corpus, &holds, path, "", &document);
                let mutated = mutate(&document, &mutation, &sites);
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
                let text = serde_json::to_vec(&mutated).unwrap();
                prop_assert_eq!(
                    jerry_contracts::__private::typed::skim(entry, &text),
                    jerry_contracts::__private::typed::read_valid(entry, &text),
                    "{}: skim vs typed read + garde on {}",
                    path,
                    mutated
                );
                let interpreted = jerry_contracts::__validation::interpret(path, &mutated);
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

/// Soundness: any value of a generated type that passes `validate()` serialises to a document
/// the schema layer accepts and the type reads back. The values come from mutated generated
/// documents (every value the typed read can produce is a value of the type), with unknown
/// members added at any object, and one change only Rust code can make (`poke`): a NaN or
/// infinite float, or an `extra` member named like a declared field.
#[test]
fn values_that_pass_validate_serialise_to_documents_the_schema_accepts() {
    let (corpus, roots) = roots();
    let registry = support::registry(&corpus);
    let written_total = std::cell::Cell::new(0usize);
    for path in &roots {
        let entry = typed::find(path, "").unwrap();
        let strategy = (strategy::documents(&corpus, path, ""), mutations(), any::<usize>(), any::<u32>(), 0..4u8);
        let holds = |uri: &str, value: &Value| support::validator(&registry, uri).is_valid(value);
        runner()
            .run(&strategy, |(document, mutation, place, number, tweak)| {
                let sites = boundary::sites(&corpus, &holds, path, "", &document);
                let mut value = mutate(&document, &mutation, &sites);
                // An unknown member, with a number the types must relay, at any object.
                let objects: Vec<String> = support::places(&value)
                    .into_iter()
                    .filter(|p| value.pointer(p).is_some_and(Value::is_object))
                    .collect();
                let at = objects.get(place % objects.len().max(1)).cloned().unwrap_or_default();
                if let Some(object) = value.pointer_mut(&at).and_then(Value::as_object_mut) {
                    object.insert("x-unknown".to_owned(), json!({ "n": number, "f": f64::from(number) / 7.0 }));
                }
                // A change only Rust code can make, at any eligible place, or none.
                let mut tweak = match tweak {
                    0 => None,
                    1 => Some(Tweak::new(place, TweakKind::Float(f64::NAN))),
                    2 => Some(Tweak::new(place, TweakKind::Float(f64::INFINITY))),
                    _ => Some(Tweak::new(place, TweakKind::DeclaredExtra)),
                };
                let written = match &mut tweak {
                    Some(tweak) => jerry_contracts::__private::typed::poked(entry, &value, tweak),
                    None => entry.written(&value),
                };
                let Ok(Some(written)) = written else { return Ok(()) };
                written_total.set(written_total.get() + 1);
                let schema_errors = jerry_contracts::__validation::interpret(path, &written);
                prop_assert!(
                    schema_errors.is_empty(),
                    "{}: validate() passed but {} is refused: {:?}",
                    path,
                    written,
                    schema_errors
                );
                prop_assert!(entry.check(&written).is_ok(), "{}: the type refuses what it wrote: {}", path, written);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    assert!(written_total.get() > 200, "only {} values passed validate()", written_total.get());
}
