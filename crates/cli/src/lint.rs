//! `jerry-contracts lint`: checks the schema corpus of a checkout. Every schema is validated
//! against the draft-07 meta-schema, every `$ref` is resolved, every schema must have its
//! fixtures, and every fixture must get its expected verdict (and, for invalid ones, exactly one
//! error with the recorded keyword and pointer). One line per schema, then a summary.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use jerry_contracts_codegen::{Corpus, Problem};
use jerry_contracts_schema_tools::fixtures::{self, FixtureSet};
use jsonschema::{Registry, Validator};
use serde_json::json;

/// Where `lint` reads from.
#[derive(Debug, Clone)]
pub struct LintOptions {
    /// The schema directory (`schemas/`).
    pub schemas: PathBuf,
    /// The fixture directory (`tests/fixtures/`).
    pub fixtures: PathBuf,
}

/// The outcome of a lint run.
#[derive(Debug, Default)]
pub struct LintReport {
    /// Per schema path: the fixtures judged and the problems found.
    pub schemas: BTreeMap<String, SchemaReport>,
    /// Problems not tied to one schema (stray fixture directories, unparsable files).
    pub other: Vec<Problem>,
}

/// What `lint` found for one schema.
#[derive(Debug, Default)]
pub struct SchemaReport {
    /// `$ref`s resolved.
    pub references: usize,
    /// Valid fixtures judged.
    pub valid: usize,
    /// Invalid fixtures judged.
    pub invalid: usize,
    /// Everything wrong with the schema or its fixtures.
    pub problems: Vec<Problem>,
}

impl LintReport {
    /// Number of problems in all.
    pub fn problem_count(&self) -> usize {
        self.other.len() + self.schemas.values().map(|s| s.problems.len()).sum::<usize>()
    }

    /// The report as text: one line per schema, its problems indented below it, a summary last.
    pub fn render(&self) -> String {
        let width = self.schemas.keys().map(String::len).max().unwrap_or(0);
        let mut out = String::new();
        for (path, report) in &self.schemas {
            let status = if report.problems.is_empty() { "ok  " } else { "FAIL" };
            let _ = writeln!(
                out,
                "{status}  {path:<width$}  meta-schema {}  refs {:>2}  fixtures {:>2} valid {:>2} invalid",
                if report.problems.iter().any(|p| p.message.starts_with("meta-schema")) { "FAIL" } else { "ok" },
                report.references,
                report.valid,
                report.invalid,
            );
            for problem in &report.problems {
                let _ = writeln!(out, "      {problem}");
            }
        }
        for problem in &self.other {
            let _ = writeln!(out, "FAIL  {problem}");
        }
        let clean = self.schemas.values().filter(|s| s.problems.is_empty()).count();
        let judged: usize = self.schemas.values().map(|s| s.valid + s.invalid).sum();
        let _ = writeln!(
            out,
            "{} schemas, {clean} clean, {judged} fixtures judged, {} problems",
            self.schemas.len(),
            self.problem_count()
        );
        out
    }
}

/// Lints the corpus and fixtures named by `options`. Fails when a directory cannot be read or
/// holds no schema at all.
pub fn lint(options: &LintOptions) -> Result<LintReport, String> {
    let corpus = Corpus::load(&options.schemas).map_err(|e| e.to_string())?;
    if corpus.schemas.is_empty() && corpus.problems.is_empty() {
        // Nothing to lint is not a clean corpus.
        return Err(format!("{}: no schemas (no *.json file below it)", options.schemas.display()));
    }
    if !options.fixtures.is_dir() {
        return Err(format!("{}: no such fixture directory", options.fixtures.display()));
    }
    let mut report = LintReport::default();
    for schema in &corpus.schemas {
        report.schemas.insert(schema.path.clone(), SchemaReport::default());
    }
    let file_problem = |report: &mut LintReport, problem: Problem| match report.schemas.get_mut(&problem.file) {
        Some(entry) => entry.problems.push(problem),
        None => report.other.push(problem),
    };
    for problem in corpus.problems.clone() {
        file_problem(&mut report, problem);
    }

    let meta = jsonschema::draft7::meta::validator();
    for schema in &corpus.schemas {
        for error in meta.iter_errors(&schema.document) {
            file_problem(
                &mut report,
                Problem::new(&schema.path, error.instance_path().as_str(), format!("meta-schema: {error}")),
            );
        }
    }

    let (references, ref_problems) = corpus.references();
    for reference in &references {
        if let Some(entry) = report.schemas.get_mut(&reference.file) {
            entry.references += 1;
        }
    }
    let ref_problems_files: Vec<String> = ref_problems.iter().map(|p| p.file.clone()).collect();
    for problem in ref_problems {
        file_problem(&mut report, problem);
    }

    let (sets, fixture_problems) = fixtures::discover(&options.fixtures, &corpus);
    for problem in fixture_problems {
        report.other.push(problem);
    }
    for problem in fixtures::check_requirements(&corpus, &sets) {
        file_problem(&mut report, problem);
    }

    // A schema whose references do not resolve (or that depends on one) cannot be compiled; the
    // rest of the corpus is still judged.
    let mut broken: BTreeSet<&str> = ref_problems_files.iter().map(String::as_str).collect();
    loop {
        let before = broken.len();
        for reference in &references {
            if broken.contains(reference.target_file.as_str()) {
                broken.insert(reference.file.as_str());
            }
        }
        if broken.len() == before {
            break;
        }
    }
    let resources = corpus.resources().filter(|(id, _)| !broken.iter().any(|b| id.ends_with(&format!("/{b}"))));
    let registry = match Registry::new().extend(resources).and_then(|builder| builder.prepare()) {
        Ok(registry) => registry,
        Err(err) => {
            report.other.push(Problem::new(
                options.schemas.to_string_lossy(),
                "",
                format!("cannot index the corpus: {err}"),
            ));
            return Ok(report);
        }
    };
    for set in &sets {
        let Some(schema) = corpus.get(&set.target.schema) else { continue };
        if broken.contains(schema.path.as_str()) {
            if let Some(entry) = report.schemas.get_mut(&schema.path) {
                entry.problems.push(Problem::new(
                    &schema.path,
                    set.target.pointer(),
                    "fixtures not judged: the schema's references do not all resolve",
                ));
            }
            continue;
        }
        let problems = judge(&registry, &schema.id, set, &corpus);
        if let Some(entry) = report.schemas.get_mut(&set.target.schema) {
            entry.valid += set.valid.len();
            entry.invalid += set.invalid.len();
            entry.problems.extend(problems);
        }
    }
    Ok(report)
}

/// Judges the fixtures of one target with the `jsonschema` crate (formats checked).
fn judge(registry: &Registry<'_>, schema_id: &str, set: &FixtureSet, corpus: &Corpus) -> Vec<Problem> {
    let label = set.target.to_string();
    let validator = match build(registry, &set.target.uri(schema_id)) {
        Ok(validator) => validator,
        Err(message) => return vec![Problem::new(&set.target.schema, set.target.pointer(), message)],
    };
    let mut problems = Vec::new();
    for fixture in &set.valid {
        for error in validator.iter_errors(&fixture.document) {
            problems.push(Problem::new(
                shown(&fixture.path),
                error.instance_path().as_str(),
                format!("valid fixture rejected by {label}: {error}"),
            ));
        }
    }
    for fixture in &set.invalid {
        let errors: Vec<(String, String, String)> = validator
            .iter_errors(&fixture.document)
            .map(|e| (e.kind().keyword().to_owned(), e.instance_path().as_str().to_owned(), e.to_string()))
            .collect();
        let expect = &fixture.expect;
        let matches = errors.len() == 1 && errors[0].0 == expect.keyword && errors[0].1 == expect.pointer;
        if !matches {
            let got = if errors.is_empty() {
                "no error".to_owned()
            } else {
                errors.iter().map(|(k, p, m)| format!("{k} at {p:?} ({m})")).collect::<Vec<_>>().join("; ")
            };
            problems.push(Problem::new(
                shown(&fixture.path),
                "",
                format!("expected exactly one error, {} at {:?}; got {got}", expect.keyword, expect.pointer),
            ));
        }
    }
    for property in fixtures::uncovered_properties(corpus, set) {
        problems.push(Problem::new(&set.target.schema, "", format!("valid fixtures of {label} never use {property}")));
    }
    problems
}

fn build(registry: &Registry<'_>, uri: &str) -> Result<Validator, String> {
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .with_registry(registry)
        .build(&json!({ "$ref": uri }))
        .map_err(|e| format!("cannot compile {uri}: {e}"))
}

fn shown(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}
