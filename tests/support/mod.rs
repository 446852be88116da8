//! Helpers shared by the integration tests: the corpus, the fixtures and the reference validator
//! (the `jsonschema` crate, with format checks on, resolving every `$ref` from memory).
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used, missing_docs)]

pub mod boundary;
pub mod docs;
pub mod strategy;

use std::path::{Path, PathBuf};

use jerry_contracts_codegen::{Corpus, Problem};
use jerry_contracts_schema_tools::fixtures::{self, FixtureSet};
use jsonschema::{Registry, Validator};
use serde_json::{Value, json};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads a corpus, failing the test with every problem it has.
pub fn load(dir: &Path) -> Corpus {
    let corpus = Corpus::load(dir).expect("schema directory is readable");
    assert_no_problems("loading the corpus", &corpus.problems);
    corpus
}

pub fn corpus() -> Corpus {
    load(&root().join("schemas"))
}

pub fn fixture_sets(corpus: &Corpus) -> Vec<FixtureSet> {
    let (sets, problems) = fixtures::discover(&root().join("tests/fixtures"), corpus);
    assert_no_problems("discovering fixtures", &problems);
    sets
}

pub fn assert_no_problems(what: &str, problems: &[Problem]) {
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(listed.is_empty(), "{what}: {} problems\n{}", listed.len(), listed.join("\n"));
}

/// A registry holding every schema of `corpus` under its `$id`.
pub fn registry(corpus: &Corpus) -> Registry<'_> {
    Registry::new().extend(corpus.resources()).and_then(|builder| builder.prepare()).expect("corpus indexes")
}

pub fn validator(registry: &Registry<'_>, uri: &str) -> Validator {
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .with_registry(registry)
        .build(&json!({ "$ref": uri }))
        .unwrap_or_else(|e| panic!("{uri} compiles: {e}"))
}

/// `(keyword, instance pointer, message)` of every error.
pub fn errors(validator: &Validator, document: &Value) -> Vec<(String, String, String)> {
    validator
        .iter_errors(document)
        .map(|e| (e.kind().keyword().to_owned(), e.instance_path().as_str().to_owned(), e.to_string()))
        .collect()
}

/// The JSON Pointer of every member of every object and every item of every array in `value`
/// (the root excluded), parents before children.
pub fn places(value: &Value) -> Vec<String> {
    fn walk(value: &Value, at: &str, out: &mut Vec<String>) {
        let children: Vec<(String, &Value)> = match value {
            Value::Object(map) => {
                map.iter().map(|(key, member)| (jerry_contracts_pointer::escape(key).into_owned(), member)).collect()
            }
            Value::Array(items) => items.iter().enumerate().map(|(i, item)| (i.to_string(), item)).collect(),
            _ => Vec::new(),
        };
        for (token, child) in children {
            let place = format!("{at}/{token}");
            out.push(place.clone());
            walk(child, &place, out);
        }
    }
    let mut out = Vec::new();
    walk(value, "", &mut out);
    out
}
