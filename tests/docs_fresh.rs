//! Generated documentation is committed and must be fresh: `docs/error-codes.md` is the code
//! catalogue rendered by `validation::codes::markdown()`, and `docs/constraints.md` the table of
//! every constraint of the corpus with its source (`constraints::table`). To refresh them after
//! changing the catalogue or the schemas: `JERRY_BLESS=1 cargo test --test docs_fresh`.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::path::Path;

/// With `JERRY_BLESS` set, writes the page and fails the run all the same (a blessed run checks
/// nothing, so it must not pass): the user re-runs without it to see the check pass.
fn check_fresh(relative: &str, expected: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    if std::env::var_os("JERRY_BLESS").is_some() {
        std::fs::write(&path, expected).expect("write");
        panic!("JERRY_BLESS: wrote {relative}; run the tests again without JERRY_BLESS to check it");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == expected,
        "{relative} is stale: run `JERRY_BLESS=1 cargo test --test docs_fresh`, then re-run"
    );
}

#[test]
fn error_codes_page_is_fresh() {
    check_fresh("docs/error-codes.md", &jerry_contracts::validation::codes::markdown());
}

#[test]
fn every_code_in_the_catalogue_is_reported_by_some_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = String::new();
    for dir in [root.join("validation"), root.clone()] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("codes.rs") {
                sources.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    let unused: Vec<&str> = jerry_contracts::validation::codes::CONSTANT_NAMES
        .iter()
        .copied()
        .filter(|name| !sources.contains(&format!("codes::{name}")))
        .collect();
    assert!(unused.is_empty(), "catalogue codes no layer reports: {unused:?}");
}

#[test]
fn constraint_table_is_fresh() {
    let corpus = jerry_contracts_codegen::Corpus::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas"))
        .expect("the corpus loads");
    check_fresh("docs/constraints.md", &jerry_contracts_codegen::constraints::table(&corpus));
}
