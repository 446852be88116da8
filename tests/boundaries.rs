//! Boundary coverage, constraint by constraint. Every constraint of the corpus
//! (`jerry_contracts_codegen::constraints::inventory`: each pattern, format, length, range,
//! count, uniqueness, enum, const and required property) must have
//! - an invalid fixture just past its limit, rejected by that constraint alone: one character
//!   off a pattern (and, for `\d`, an Arabic-Indic digit), one past a length, count or range
//!   (the next `f64` for numbers), a format one step wrong, an enum value or constant one letter
//!   off, a required member removed; and
//! - a valid fixture exactly at its limit (for `required`, `valid/minimal.json` is that fixture,
//!   which `tests/corpus.rs` demands of every schema).
//!
//! The cases live in `tests/fixtures/<target>/boundary.json` as edits of a valid fixture, and
//! are expanded into ordinary fixtures by `fixtures::discover`, so the corpus test (the
//! reference validator), the differential test and the drift gate (the generated types) and the
//! schema-layer tests (the interpreter, `validate_as`) judge every one of them.
//!
//! The cases are *kept*, not regenerated: a schema change that loosens a constraint turns a kept
//! invalid case valid and fails those tests. To add cases for constraints that have none,
//! `JERRY_BLESS=1 cargo test --test boundaries` proposes them (each judged by the reference
//! validator before it is written), appends them to the boundary files — never changing a
//! case that is there — and fails the run; review the new cases and run the tests again.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use std::collections::{BTreeMap, BTreeSet};

use jerry_contracts_codegen::constraints;
use jerry_contracts_schema_tools::fixtures::{self, BOUNDARY_FILE, BoundaryCase, BoundaryFile, FixtureSet, edit};
use serde_json::Value;
use support::boundary::{self, Site};

const COMMENT: &str = "Boundary cases of this target's constraints: each edits the valid fixture `base` at `pointer`, \
    to the value `valid` (exactly at the limit, accepted) and `invalid` (just past it, rejected by `keyword` alone), \
    or removes the member (`remove`). Kept, not regenerated: see tests/boundaries.rs.";

/// How many invalid cases of different kinds a pattern gets (deleted, appended, replaced,
/// prepended, a Unicode digit): one kind alone would not notice most ways to loosen a pattern.
const PATTERN_KINDS: usize = 4;

/// Constraints no document can break alone, with the reason. Each must still be a constraint of
/// the corpus, and the constraint beside it that always breaks with it must have its fixtures.
const IMPLIED: &[(&str, &str, &str)] = &[(
    "common/types.json#/definitions/uuid/format",
    "common/types.json#/definitions/uuid/pattern",
    "draft-07 defines no `uuid` format, so validators ignore it; the canonical pattern beside it, which the generator requires there, is what rejects a malformed uuid",
)];

#[test]
fn every_constraint_has_boundary_fixtures_on_both_sides() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let inventory = constraints::inventory(&corpus);
    let registry = support::registry(&corpus);
    let holds = |uri: &str, value: &Value| support::validator(&registry, uri).is_valid(value);
    assert!(inventory.len() > 600, "the inventory lists only {} constraints", inventory.len());
    let keywords: BTreeMap<String, String> = inventory.iter().map(|c| (c.id(), c.keyword.to_string())).collect();
    let mut problems = Vec::new();
    let mut invalid_side: BTreeMap<&str, usize> = BTreeMap::new();
    let mut valid_side: BTreeMap<&str, usize> = BTreeMap::new();
    let mut checked = 0;
    for set in &sets {
        let file = set.dir.join(BOUNDARY_FILE);
        for (index, case) in set.boundary.iter().enumerate() {
            if fixtures::is_convention(&case.constraint) {
                // A convention's case: tests/conventions.rs judges it (a warning, an error in
                // strict mode), and names any that is no convention of the corpus.
                continue;
            }
            checked += 1;
            let shown = format!("{}#{index}", file.display());
            match keywords.get(&case.constraint) {
                None => problems.push(format!("{shown}: {} is no constraint of the corpus", case.constraint)),
                Some(keyword) if keyword != &case.keyword => problems
                    .push(format!("{shown}: {} is a {keyword} constraint, not {}", case.constraint, case.keyword)),
                Some(_) => {}
            }
            let base = set.valid_file(&case.base).expect("discover checked the base");
            let applies = boundary::sites(&corpus, &holds, &set.target.schema, &set.target.pointer(), &base.document)
                .iter()
                .any(|s| s.constraint == case.constraint && s.pointer == case.pointer);
            if !applies {
                problems
                    .push(format!("{shown}: {} does not apply at {} of {}", case.constraint, case.pointer, case.base));
            }
            *invalid_side.entry(case.constraint.as_str()).or_default() += 1;
            if case.valid.is_some() {
                *valid_side.entry(case.constraint.as_str()).or_default() += 1;
            }
        }
        for fixture in set.invalid.iter().filter(|f| f.case.is_none()) {
            if let Some(constraint) = &fixture.expect.constraint {
                *invalid_side.entry(constraint.as_str()).or_default() += 1;
            }
        }
    }
    for (implied, by, _) in IMPLIED {
        if !keywords.contains_key(*implied) {
            problems.push(format!("IMPLIED lists {implied}, which is no constraint of the corpus"));
        }
        if !invalid_side.contains_key(by) {
            problems.push(format!("IMPLIED says {by} implies {implied}, but {by} has no boundary fixture"));
        }
    }
    assert!(problems.is_empty(), "{} boundary cases are wrong:\n{}", problems.len(), problems.join("\n"));
    let missing: Vec<&constraints::Constraint> = inventory
        .iter()
        .filter(|c| !IMPLIED.iter().any(|(implied, _, _)| *implied == c.id()))
        .filter(|c| {
            let id = c.id();
            !invalid_side.contains_key(id.as_str())
                || (c.keyword != "required" && !valid_side.contains_key(id.as_str()))
        })
        .collect();
    if std::env::var_os("JERRY_BLESS").is_some() && !missing.is_empty() {
        let (written, unmade) = scaffold(&corpus, &holds, &sets, &missing);
        panic!(
            "JERRY_BLESS: added {written} boundary cases; review them (git diff tests/fixtures) and run the tests again{}",
            if unmade.is_empty() {
                String::new()
            } else {
                format!(".\nNo case could be made for:\n{}", unmade.join("\n"))
            }
        );
    }
    let listed: Vec<String> = missing
        .iter()
        .map(|c| {
            let id = c.id();
            let sides = match (invalid_side.contains_key(id.as_str()), valid_side.contains_key(id.as_str())) {
                (false, false) => "no invalid and no valid boundary fixture",
                (false, true) => "no invalid boundary fixture",
                _ => "no valid boundary fixture",
            };
            format!("{id}: {sides}")
        })
        .collect();
    assert!(
        listed.is_empty(),
        "{} of {} constraints lack boundary fixtures (`JERRY_BLESS=1 cargo test --test boundaries` proposes them):\n{}",
        listed.len(),
        inventory.len(),
        listed.join("\n")
    );
    assert!(checked > 600, "only {checked} boundary cases judged");
}

/// Where each constraint applies in the valid fixtures: `(set index, base file name, site)`,
/// the sets of the constraint's own schema file first, and within a set `maximal.json` first.
fn places(
    corpus: &jerry_contracts_codegen::Corpus,
    holds: &boundary::Holds<'_>,
    sets: &[FixtureSet],
) -> BTreeMap<String, Vec<(usize, String, Site)>> {
    let mut out: BTreeMap<String, Vec<(usize, String, Site)>> = BTreeMap::new();
    for (index, set) in sets.iter().enumerate() {
        let mut files: Vec<_> = set.valid.iter().filter(|f| f.case.is_none()).collect();
        files.sort_by_key(|f| (!f.path.ends_with("maximal.json"), f.path.clone()));
        for fixture in files {
            let name = fixture.path.file_name().unwrap().to_string_lossy().into_owned();
            for site in boundary::sites(corpus, holds, &set.target.schema, &set.target.pointer(), &fixture.document) {
                out.entry(site.constraint.clone()).or_default().push((index, name.clone(), site));
            }
        }
    }
    for (constraint, found) in &mut out {
        let own = constraint.split_once('#').map(|(file, _)| file.to_owned()).unwrap_or_default();
        found.sort_by_key(|(index, _, _)| sets[*index].target.schema != own);
    }
    out
}

/// Proposes and writes cases for `missing`; returns how many were written and the constraints
/// no case could be made for, with the reason.
fn scaffold(
    corpus: &jerry_contracts_codegen::Corpus,
    holds: &boundary::Holds<'_>,
    sets: &[FixtureSet],
    missing: &[&constraints::Constraint],
) -> (usize, Vec<String>) {
    let registry = support::registry(corpus);
    let validators: Vec<jsonschema::Validator> = sets
        .iter()
        .map(|s| support::validator(&registry, &s.target.uri(&corpus.get(&s.target.schema).unwrap().id)))
        .collect();
    let places = places(corpus, holds, sets);
    let mut new: BTreeMap<usize, Vec<BoundaryCase>> = BTreeMap::new();
    let mut unmade = Vec::new();
    for constraint in missing {
        let id = constraint.id();
        let Some(found) = places.get(&id) else {
            unmade.push(format!("{id}: applies to no value of any valid fixture"));
            continue;
        };
        let mut made = None;
        for (set_index, base_name, site) in found {
            let base = &sets[*set_index].valid_file(base_name).unwrap().document;
            let judge = |value: Option<&Value>| {
                let document = edit(base, &site.pointer, value).unwrap();
                support::errors(&validators[*set_index], &document)
                    .into_iter()
                    .map(|(k, p, _)| (k, p))
                    .collect::<Vec<_>>()
            };
            let cases = cases_at(site, base_name, &judge);
            if !cases.is_empty() {
                made = Some((*set_index, cases));
                break;
            }
        }
        match made {
            Some((set_index, cases)) => new.entry(set_index).or_default().extend(cases),
            None => unmade.push(format!(
                "{id}: no value at the limit is accepted, or none past it is rejected by {} alone, at {} places",
                constraint.keyword,
                found.len()
            )),
        }
    }
    let mut written = 0;
    for (set_index, cases) in new {
        let path = sets[set_index].dir.join(BOUNDARY_FILE);
        let mut file: BoundaryFile = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).unwrap(),
            Err(_) => BoundaryFile { comment: COMMENT.to_owned(), cases: Vec::new() },
        };
        written += cases.len();
        file.cases.extend(cases);
        let text = serde_json::to_string_pretty(&file).unwrap();
        std::fs::write(&path, format!("{text}\n")).unwrap();
    }
    (written, unmade)
}

/// The reference validator's `(keyword, pointer)` pairs for the base document with the site's
/// value replaced (`Some`) or removed (`None`).
type Judge<'a> = dyn Fn(Option<&Value>) -> Vec<(String, String)> + 'a;

/// The cases for one site: the candidates the reference validator judges as intended.
fn cases_at(site: &Site, base: &str, judge: &Judge<'_>) -> Vec<BoundaryCase> {
    let case = |valid: Option<Value>, invalid: Option<Value>, rule: String| BoundaryCase {
        constraint: site.constraint.clone(),
        keyword: site.keyword.clone(),
        base: base.to_owned(),
        pointer: site.pointer.clone(),
        remove: invalid.is_none(),
        valid,
        invalid,
        rule,
    };
    if site.keyword == "required" {
        let parent = site.pointer.rsplit_once('/').map(|(p, _)| p.to_owned()).unwrap_or_default();
        let name = site.limit.as_str().unwrap_or_default();
        let expected = vec![("required".to_owned(), parent)];
        return if judge(None) == expected {
            vec![case(None, None, format!("{name} removed: it is required"))]
        } else {
            Vec::new()
        };
    }
    let (valid, invalid) = boundary::candidates(site);
    let Some((_, valid)) = valid.into_iter().find(|(_, v)| judge(Some(v)).is_empty()) else { return Vec::new() };
    let expected = vec![(site.keyword.clone(), site.pointer.clone())];
    let mut kinds = BTreeSet::new();
    let mut out = Vec::new();
    for (rule, value) in invalid {
        let kind = rule.split_whitespace().find(|w| w.ends_with("ed") || *w == "Arabic-Indic").unwrap_or("").to_owned();
        if kinds.contains(&kind) || judge(Some(&value)) != expected {
            continue;
        }
        kinds.insert(kind);
        let limit = match site.keyword.as_str() {
            "pattern" => format!("pattern {}", site.limit.as_str().unwrap_or_default()),
            "format" => format!("format {}", site.limit.as_str().unwrap_or_default()),
            _ => String::new(),
        };
        let rule = if limit.is_empty() { rule } else { format!("{limit}: {rule}") };
        let valid_here = out.is_empty().then(|| valid.clone());
        out.push(case(valid_here, Some(value), rule));
        if site.keyword != "pattern" || out.len() >= PATTERN_KINDS {
            break;
        }
    }
    out
}
