//! The catalogue of error codes against the seeds (docs/decisions.md D-130): an error is a rule
//! the seeds state, quoted from the seeds' own text (`tests/seed/text/`), or a document that
//! cannot be judged; everything else is a convention of this project, a warning by default and
//! an error only in strict mode. The strict-mode side is checked on every rule test
//! (`tests/rules.rs` judges each document both ways) and on the convention fixtures
//! (`tests/conventions.rs`).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::path::Path;

use jerry_contracts::common::ErrorRecordSeverity;
use jerry_contracts::validation::codes::{Basis, CATALOGUE, Layer};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Seed `number`'s text (`000` … `004`).
fn seed(number: &str) -> String {
    let path = repo().join("tests/seed/text").join(format!("{number}.txt"));
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// `text` with every run of white space one space, for quotes cut from indented lines.
fn folded(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_error_is_a_seed_rule_or_an_unjudgeable_document() {
    let mut failures = Vec::new();
    for code in CATALOGUE {
        let convention = matches!(code.basis, Basis::Convention { .. });
        if code.severity == ErrorRecordSeverity::Error && convention {
            failures.push(format!("{}: an error, but a convention", code.code));
        }
        if convention != code.is_convention() {
            failures.push(format!("{}: is_convention disagrees with its basis", code.code));
        }
        if code.layer == Layer::Convention && !convention {
            failures.push(format!("{}: the convention layer's codes are conventions", code.code));
        }
        if matches!(code.basis, Basis::Unjudged) && code.layer != Layer::Schema {
            failures.push(format!("{}: only the reading of a document can leave it unjudged", code.code));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_seed_basis_quotes_the_seed_at_the_place_it_names() {
    let mut failures = Vec::new();
    for code in CATALOGUE {
        let Basis::Seed { place, quote } = code.basis else { continue };
        // `seed 000:2347` or `seed 004 §5.3`.
        let rest = place.strip_prefix("seed ").unwrap_or_else(|| panic!("{}: place {place:?}", code.code));
        let number: String = rest.chars().take(3).collect();
        let text = seed(&number);
        if !folded(&text).contains(&folded(quote)) {
            failures.push(format!("{}: seed {number} does not say {quote:?}", code.code));
            continue;
        }
        if let Some(line) = rest.strip_prefix(&format!("{number}:")) {
            let line: usize = line.parse().unwrap_or_else(|_| panic!("{}: line of {place:?}", code.code));
            let at = text.lines().nth(line - 1).unwrap_or_default();
            let first = quote.lines().next().unwrap_or_default();
            if !folded(at).contains(&folded(first)) {
                failures.push(format!("{}: seed {number} line {line} is {at:?}, not {first:?}", code.code));
            }
        } else if let Some(section) = rest.strip_prefix(&format!("{number} ")) {
            let heading = format!("## {}", section.trim_start_matches('§'));
            if !text.contains(&heading) {
                failures.push(format!("{}: seed {number} has no section {section}", code.code));
            }
        } else {
            failures.push(format!("{}: place {place:?} names no line or section", code.code));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_convention_names_a_decision_that_exists() {
    let decisions = std::fs::read_to_string(repo().join("docs/decisions.md")).unwrap();
    let mut failures = Vec::new();
    for code in CATALOGUE {
        let Basis::Convention { decision } = code.basis else { continue };
        let found = if decision == "docs/conventions.md" {
            repo().join(decision).is_file()
        } else {
            decisions.contains(&format!("### {decision} "))
        };
        if !found {
            failures.push(format!("{}: no decision {decision}", code.code));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_that_is_a_convention_is_judged_both_ways_by_the_rule_tests() {
    // `tests/rules.rs` runs every document in both modes and holds each convention's record to a
    // warning by default and an error in strict mode; each such rule must be among its cases.
    let tests = ["tests/rules.rs", "tests/hostile_bounds.rs", "tests/hostile_limits.rs"]
        .iter()
        .map(|file| std::fs::read_to_string(repo().join(file)).unwrap())
        .collect::<String>();
    let missing: Vec<&str> = CATALOGUE
        .iter()
        .filter(|code| code.is_convention() && code.layer != Layer::Convention)
        .map(|code| code.code)
        .filter(|code| !tests.contains(&format!("\"{code}\"")))
        .collect();
    assert!(missing.is_empty(), "conventions no rule test breaks: {missing:?}");
}
