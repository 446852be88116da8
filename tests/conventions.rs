//! The convention layer, both ways. Every convention of the corpus (a constraint in an
//! `x-convention` object: the project's own choice, not a seed statement) has a fixture that
//! follows everything the seeds state and breaks that convention alone
//! (`tests/fixtures/<target>/convention/`, or a boundary case of the convention's id). By default
//! the library judges it valid with exactly one `CNV-*` warning at the fixture's pointer; in
//! strict mode the same record is an error, and the document invalid.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use std::collections::BTreeSet;

use jerry_contracts::common::ErrorRecordSeverity;
use jerry_contracts::validation::{Options, Validator};
use jerry_contracts_codegen::constraints;

fn validator(strict: bool) -> Validator {
    Validator::with_options(Options::default().with_strict(strict))
}

#[test]
fn every_convention_is_a_warning_by_default_and_an_error_in_strict_mode() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let (lenient, strict) = (validator(false), validator(true));
    let mut failures = Vec::new();
    let mut judged = 0;
    for set in &sets {
        let name = set.target.to_string();
        for fixture in &set.convention {
            judged += 1;
            let bytes = serde_json::to_vec(&fixture.document).unwrap();
            let shown = fixture.path.display();
            let expect = &fixture.expect;
            for (mode, validator, severity) in
                [("default", &lenient, ErrorRecordSeverity::Warning), ("strict", &strict, ErrorRecordSeverity::Error)]
            {
                let report = validator.validate_as(&name, &bytes);
                let conventions: Vec<_> = report.records.iter().filter(|r| r.error_code.starts_with("CNV-")).collect();
                let others: Vec<_> = report.errors().filter(|r| !r.error_code.starts_with("CNV-")).collect();
                if !others.is_empty() {
                    failures.push(format!("{shown} ({mode}): errors beside the convention: {others:?}"));
                }
                let [record] = conventions.as_slice() else {
                    failures.push(format!("{shown} ({mode}): expected one CNV record, got {:?}", report.records));
                    continue;
                };
                let keyword = record.extra.get_str("keyword");
                let at = record.path.as_deref().unwrap_or("");
                let place = if expect.keyword == "additionalProperties" {
                    // The member itself, below the object.
                    at.starts_with(&expect.pointer)
                } else {
                    at == expect.pointer
                };
                if keyword.as_deref() != Some(expect.keyword.as_str()) || !place || record.severity != severity {
                    failures.push(format!(
                        "{shown} ({mode}): expected {} at {:?} as {severity:?}, got {keyword:?} at {at:?} as {:?}: {}",
                        expect.keyword, expect.pointer, record.severity, record.message
                    ));
                }
                if !record.message.contains("convention") {
                    failures.push(format!("{shown}: the message does not say it is a convention: {}", record.message));
                }
                let valid = mode == "default";
                if report.is_valid() != valid {
                    failures.push(format!("{shown} ({mode}): valid is {}, expected {valid}", report.is_valid()));
                }
            }
        }
        // A schema-valid fixture gets no schema error by default, whatever conventions it
        // leaves out (the rule layers may still speak).
        for fixture in &set.valid {
            let bytes = serde_json::to_vec(&fixture.document).unwrap();
            let report = lenient.validate_as(&name, &bytes);
            let refused: Vec<_> = report
                .errors()
                .filter(|r| r.error_code.starts_with("SCH-") || r.error_code.starts_with("CNV-"))
                .collect();
            if !refused.is_empty() {
                failures
                    .push(format!("{}: a valid fixture is refused by default: {refused:?}", fixture.path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{} convention verdicts wrong:\n{}", failures.len(), failures.join("\n"));
    assert!(judged > 50, "only {judged} convention fixtures");
}

#[test]
fn every_convention_has_a_fixture_that_breaks_it_alone() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let judged: BTreeSet<String> =
        sets.iter().flat_map(|s| &s.convention).filter_map(|f| f.expect.constraint.clone()).collect();
    let missing: Vec<String> = constraints::conventions(&corpus)
        .iter()
        .map(constraints::Constraint::id)
        .filter(|id| !judged.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "{} conventions without a fixture that breaks them:\n{}",
        missing.len(),
        missing.join("\n")
    );
    let known: BTreeSet<String> = constraints::conventions(&corpus).iter().map(constraints::Constraint::id).collect();
    let stray: Vec<&String> =
        judged.iter().filter(|id| id.contains("/x-convention/") && !known.contains(*id)).collect();
    assert!(stray.is_empty(), "convention fixtures name no convention of the corpus: {stray:?}");
}

#[test]
fn every_constraint_names_its_source() {
    let corpus = support::corpus();
    let rows = constraints::sourced(&corpus);
    assert!(rows.len() > 900, "only {} constraints", rows.len());
    let problems: Vec<String> = rows.iter().filter_map(constraints::Constraint::source_problem).collect();
    assert!(problems.is_empty(), "{} constraints without a proper source:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_byte_walk_and_the_parsed_document_find_the_same_conventions() {
    // `validate_as` on bytes settles most documents with a walk of the bytes that parses only
    // the values a convention applies to (src/validation/schema/scan.rs); `validate_value` judges
    // the parsed document. Both must report the same convention records on every fixture, and
    // on every fixture with one string member emptied (the commonest convention broken).
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let validator = validator(false);
    let conventions = |records: &[jerry_contracts::common::ErrorRecord]| -> Vec<(String, Option<String>)> {
        let mut found: Vec<_> = records
            .iter()
            .filter(|r| r.error_code.starts_with("CNV-"))
            .map(|r| (r.error_code.clone(), r.path.clone()))
            .collect();
        found.sort();
        found
    };
    let mut compared = 0;
    let mut differ = Vec::new();
    for set in &sets {
        let name = set.target.to_string();
        let documents = set
            .valid
            .iter()
            .map(|f| (f.path.display().to_string(), f.document.clone()))
            .chain(set.convention.iter().map(|f| (f.path.display().to_string(), f.document.clone())));
        for (shown, document) in documents {
            let mut variants = vec![document.clone()];
            for place in support::places(&document) {
                if document.pointer(&place).is_some_and(|v| v.as_str().is_some_and(|s| !s.is_empty())) {
                    let mut emptied = document.clone();
                    *emptied.pointer_mut(&place).unwrap() = serde_json::json!("");
                    variants.push(emptied);
                }
            }
            for variant in variants {
                compared += 1;
                let from_bytes = validator.validate_as(&name, &serde_json::to_vec(&variant).unwrap());
                let from_value = validator.validate_value(Some(&name), &variant);
                if conventions(&from_bytes.records) != conventions(&from_value.records) {
                    differ.push(format!(
                        "{shown}: bytes {:?}, value {:?}\n  {variant}",
                        conventions(&from_bytes.records),
                        conventions(&from_value.records)
                    ));
                }
            }
        }
    }
    assert!(compared > 5000, "only {compared} documents compared");
    assert!(
        differ.is_empty(),
        "{} documents judged apart:\n{}",
        differ.len(),
        differ.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}
