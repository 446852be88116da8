//! The fixture tree: `tests/fixtures/<schema path without .json>/{valid,invalid}/*.json`, and for
//! definition libraries `tests/fixtures/<schema path without .json>/definitions/<name>/{valid,invalid}/`.
//!
//! Every invalid fixture `x.json` has a sidecar `x.expect` (JSON) naming the one rule it breaks:
//! `{"keyword": "pattern", "pointer": "/findings/0/id", "rule": "finding id is not F-NNN"}`,
//! optionally with the id of the constraint it exercises (`"constraint"`, see [`jerry_contracts_codegen::constraints`]).
//!
//! Beside `valid/` and `invalid/`, a target's directory may hold `boundary.json`: the boundary
//! cases of its constraints, each an edit of one valid fixture ([`BoundaryCase`]). They are
//! expanded into ordinary fixtures here, so every test that judges fixtures judges them too.
//! This module finds the fixtures, checks that each schema has enough of them, and checks that the
//! maximal documents use every property the schema declares. Judging the documents is left to
//! the callers, which bring their own validator.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use jerry_contracts_codegen::corpus::{Corpus, Problem, Schema, relative_path};

/// Extension of the sidecar that records what an invalid fixture breaks.
pub const EXPECT_EXTENSION: &str = "expect";

/// File name of a target's boundary cases, beside its `valid/` and `invalid/` directories.
pub const BOUNDARY_FILE: &str = "boundary.json";

/// Fewest valid documents per schema file.
pub const MIN_VALID: usize = 2;
/// Fewest invalid documents per schema file.
pub const MIN_INVALID: usize = 4;

/// What a set of fixtures is judged against: a schema's root, or one of its definitions.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// Schema path under `schemas/`.
    pub schema: String,
    /// Definition name, for definition libraries.
    pub definition: Option<String>,
}

impl Target {
    /// The URI a validator resolves for this target.
    pub fn uri(&self, schema_id: &str) -> String {
        match &self.definition {
            Some(name) => format!("{schema_id}#/definitions/{}", jerry_contracts_pointer::escape(name)),
            None => schema_id.to_owned(),
        }
    }

    /// JSON Pointer of the target inside its schema file.
    pub fn pointer(&self) -> String {
        self.definition
            .as_ref()
            .map(|name| format!("/definitions/{}", jerry_contracts_pointer::escape(name)))
            .unwrap_or_default()
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.definition {
            Some(name) => write!(f, "{}#/definitions/{name}", self.schema),
            None => f.write_str(&self.schema),
        }
    }
}

/// The rule an invalid fixture breaks, as its sidecar records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// The JSON Schema keyword that rejects the document (`required`, `pattern`, …).
    pub keyword: String,
    /// JSON Pointer of the rejected value in the document.
    pub pointer: String,
    /// Short description of the broken rule.
    pub rule: String,
    /// The id of the constraint the fixture exercises ([`jerry_contracts_codegen::Constraint::id`]),
    /// when it records one.
    pub constraint: Option<String>,
}

/// One boundary case of a constraint: the valid fixture `base`, with the value at `pointer`
/// replaced by a value exactly at the constraint's limit (`valid`, which must be accepted) and
/// by a value just past it (`invalid`, which must be rejected by that constraint alone) — or,
/// for `required`, with the member at `pointer` removed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundaryCase {
    /// The constraint's id ([`jerry_contracts_codegen::Constraint::id`]).
    pub constraint: String,
    /// The keyword that must reject the invalid document.
    pub keyword: String,
    /// File name of the valid fixture the case edits (in the target's `valid/`).
    pub base: String,
    /// JSON Pointer of the edited value in `base`.
    pub pointer: String,
    /// The value at the limit, accepted (`null` is a value here, not an absence).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub valid: Option<Value>,
    /// The value just past the limit, rejected.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub invalid: Option<Value>,
    /// The invalid document lacks the member at `pointer` (for `required`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remove: bool,
    /// What the invalid value breaks, for people.
    pub rule: String,
}

/// Reads a member that is present as `Some`, `null` included (serde would read `null` as `None`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    <Value as serde::Deserialize>::deserialize(deserializer).map(Some)
}

impl BoundaryCase {
    /// Where the reference validator reports the invalid document: the pointer, or for a
    /// removed member the object that lacks it.
    pub fn error_pointer(&self) -> String {
        if self.remove {
            self.pointer.rsplit_once('/').map(|(parent, _)| parent.to_owned()).unwrap_or_default()
        } else {
            self.pointer.clone()
        }
    }
}

/// The `boundary.json` file of one target.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundaryFile {
    /// What the file is, for people.
    #[serde(rename = "$comment", default)]
    pub comment: String,
    /// The cases, in the order they were added.
    pub cases: Vec<BoundaryCase>,
}

/// A document that must be valid.
#[derive(Debug, Clone)]
pub struct ValidFixture {
    /// File path; for a boundary case `…/boundary.json#<index>`.
    pub path: PathBuf,
    /// Parsed document.
    pub document: Value,
    /// The boundary case it comes from (an index into the target's `boundary.json`), if any.
    pub case: Option<usize>,
}

/// A document that must be rejected for exactly one reason.
#[derive(Debug, Clone)]
pub struct InvalidFixture {
    /// File path; for a boundary case `…/boundary.json#<index>`.
    pub path: PathBuf,
    /// Parsed document.
    pub document: Value,
    /// What it must be rejected for.
    pub expect: Expectation,
    /// The boundary case it comes from (an index into the target's `boundary.json`), if any.
    pub case: Option<usize>,
}

/// The fixtures of one target.
#[derive(Debug, Clone)]
pub struct FixtureSet {
    /// What they are judged against.
    pub target: Target,
    /// The target's fixture directory (holding `valid/`, `invalid/` and `boundary.json`).
    pub dir: PathBuf,
    /// Documents that must be accepted: the files of `valid/`, then the boundary cases' valid
    /// documents.
    pub valid: Vec<ValidFixture>,
    /// Documents that must be rejected: the files of `invalid/`, then the boundary cases'
    /// invalid documents.
    pub invalid: Vec<InvalidFixture>,
    /// Documents that follow everything the seeds state but break one convention
    /// (`x-convention`): valid, with exactly one convention warning (`CNV-*`) — and invalid
    /// for exactly that reason in strict mode. The files of `convention/`, then the boundary
    /// cases of convention constraints (ids with `/x-convention/`).
    pub convention: Vec<InvalidFixture>,
    /// The cases of `boundary.json`, as written.
    pub boundary: Vec<BoundaryCase>,
}

impl FixtureSet {
    /// The valid fixture file named `name` (not a boundary document).
    pub fn valid_file(&self, name: &str) -> Option<&ValidFixture> {
        self.valid.iter().find(|f| f.case.is_none() && f.path.file_name().is_some_and(|n| n == name))
    }
}

/// Finds every fixture below `dir` and maps it to its target in `corpus`. Files that cannot be
/// read or parsed, directories that name no schema, and invalid fixtures without a sidecar are
/// returned as problems.
pub fn discover(dir: &Path, corpus: &Corpus) -> (Vec<FixtureSet>, Vec<Problem>) {
    let mut sets: BTreeMap<Target, FixtureSet> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut dirs = Vec::new();
    collect_verdict_dirs(dir, &mut dirs, &mut problems);
    for (verdict_dir, verdict) in dirs {
        let shown = display(&verdict_dir);
        let Some(parent) = verdict_dir.parent().and_then(|p| relative_path(dir, p)) else {
            problems.push(Problem::new(shown, "", "fixture directory outside the fixture tree"));
            continue;
        };
        let Some(target) = target_for(&parent, corpus) else {
            problems.push(Problem::new(
                shown,
                "",
                format!("names no schema: neither schemas/{parent}.json nor a definition of one exists"),
            ));
            continue;
        };
        let target_dir = verdict_dir.parent().map(Path::to_path_buf).unwrap_or_default();
        let set = sets.entry(target.clone()).or_insert_with(|| FixtureSet {
            target,
            dir: target_dir,
            valid: Vec::new(),
            invalid: Vec::new(),
            convention: Vec::new(),
            boundary: Vec::new(),
        });
        read_verdict_dir(&verdict_dir, verdict, set, &mut problems);
    }
    for set in sets.values_mut() {
        read_boundary(set, &mut problems);
    }
    (sets.into_values().collect(), problems)
}

/// Reads the target's `boundary.json`, if any, and expands its cases into fixtures.
fn read_boundary(set: &mut FixtureSet, problems: &mut Vec<Problem>) {
    let path = set.dir.join(BOUNDARY_FILE);
    if !path.is_file() {
        return;
    }
    let Some(value) = read_json(&path, problems) else { return };
    let file: BoundaryFile = match serde_json::from_value(value) {
        Ok(file) => file,
        Err(err) => {
            problems.push(Problem::new(display(&path), "", format!("not a boundary file: {err}")));
            return;
        }
    };
    for (index, case) in file.cases.iter().enumerate() {
        let at = format!("/cases/{index}");
        let Some(base) = set.valid_file(&case.base).map(|f| f.document.clone()) else {
            problems.push(Problem::new(display(&path), &at, format!("base {} is not a valid fixture", case.base)));
            continue;
        };
        let shown = PathBuf::from(format!("{}#{index}", display(&path)));
        if let Some(value) = &case.valid {
            match edit(&base, &case.pointer, Some(value)) {
                Some(document) => set.valid.push(ValidFixture { path: shown.clone(), document, case: Some(index) }),
                None => {
                    problems.push(Problem::new(display(&path), &at, format!("{} has no {}", case.base, case.pointer)))
                }
            }
        }
        let invalid = match (&case.invalid, case.remove) {
            (Some(value), false) => edit(&base, &case.pointer, Some(value)),
            (None, true) => edit(&base, &case.pointer, None),
            _ => {
                problems.push(Problem::new(display(&path), &at, "a case has either an invalid value or remove: true"));
                continue;
            }
        };
        let Some(document) = invalid else {
            problems.push(Problem::new(display(&path), &at, format!("{} has no {}", case.base, case.pointer)));
            continue;
        };
        let expect = Expectation {
            keyword: case.keyword.clone(),
            pointer: case.error_pointer(),
            rule: case.rule.clone(),
            constraint: Some(case.constraint.clone()),
        };
        let fixture = InvalidFixture { path: shown, document, expect, case: Some(index) };
        if is_convention(&case.constraint) {
            set.convention.push(fixture);
        } else {
            set.invalid.push(fixture);
        }
    }
    set.boundary = file.cases;
}

/// Whether the constraint id names a convention (a keyword of an `x-convention` object).
pub fn is_convention(constraint: &str) -> bool {
    constraint.contains("/x-convention/")
}

/// `document` with the value at `pointer` replaced by `value`, or removed when `value` is
/// `None`; `None` when there is no value at `pointer`.
pub fn edit(document: &Value, pointer: &str, value: Option<&Value>) -> Option<Value> {
    let mut out = document.clone();
    match value {
        Some(value) => *out.pointer_mut(pointer)? = value.clone(),
        None => {
            let (parent, token) = pointer.rsplit_once('/')?;
            let key = jerry_contracts_pointer::unescape(token).ok()?;
            match out.pointer_mut(parent)? {
                Value::Object(map) => {
                    map.remove(key.as_ref())?;
                }
                Value::Array(items) => {
                    let index: usize = key.parse().ok()?;
                    (index < items.len()).then(|| items.remove(index))?;
                }
                _ => return None,
            }
        }
    }
    Some(out)
}

/// What the documents of a fixture directory must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// `valid/`: no record at all.
    Valid,
    /// `invalid/`: rejected for the one reason of the sidecar.
    Invalid,
    /// `convention/`: valid, with the one convention warning of the sidecar.
    Convention,
}

fn read_verdict_dir(dir: &Path, verdict: Verdict, set: &mut FixtureSet, problems: &mut Vec<Problem>) {
    let valid = verdict == Verdict::Valid;
    let mut files = match fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect::<Vec<_>>(),
        Err(err) => {
            problems.push(Problem::new(display(dir), "", format!("cannot read: {err}")));
            return;
        }
    };
    files.sort();
    for file in files {
        let extension = file.extension().and_then(|e| e.to_str()).unwrap_or_default();
        match extension {
            "json" => {}
            EXPECT_EXTENSION if !valid => {
                if !file.with_extension("json").is_file() {
                    problems.push(Problem::new(display(&file), "", "sidecar without a fixture"));
                }
                continue;
            }
            _ => {
                problems.push(Problem::new(display(&file), "", "unexpected file in a fixture directory"));
                continue;
            }
        }
        let Some(document) = read_json(&file, problems) else { continue };
        if valid {
            set.valid.push(ValidFixture { path: file, document, case: None });
            continue;
        }
        let sidecar = file.with_extension(EXPECT_EXTENSION);
        if !sidecar.is_file() {
            problems.push(Problem::new(
                display(&file),
                "",
                format!("invalid fixture without its {} sidecar", display(&sidecar)),
            ));
            continue;
        }
        let Some(expect) = read_json(&sidecar, problems).and_then(|v| parse_expectation(&sidecar, &v, problems)) else {
            continue;
        };
        let fixture = InvalidFixture { path: file, document, expect, case: None };
        match verdict {
            Verdict::Convention => set.convention.push(fixture),
            _ => set.invalid.push(fixture),
        }
    }
}

fn parse_expectation(path: &Path, value: &Value, problems: &mut Vec<Problem>) -> Option<Expectation> {
    let field = |name: &str| value.get(name).and_then(Value::as_str).map(str::to_owned);
    let constraint_ok = value.get("constraint").is_none_or(Value::is_string);
    match (field("keyword"), field("pointer"), field("rule")) {
        (Some(keyword), Some(pointer), Some(rule))
            if (pointer.is_empty() || pointer.starts_with('/')) && constraint_ok =>
        {
            Some(Expectation { keyword, pointer, rule, constraint: field("constraint") })
        }
        _ => {
            problems.push(Problem::new(
                display(path),
                "",
                "must be {\"keyword\": string, \"pointer\": JSON Pointer, \"rule\": string, \"constraint\"?: string}",
            ));
            None
        }
    }
}

fn read_json(path: &Path, problems: &mut Vec<Problem>) -> Option<Value> {
    let text = match jerry_contracts_codegen::files::read_text(path) {
        Ok(text) => text,
        Err(err) => {
            problems.push(Problem::new(display(path), "", format!("cannot read: {err}")));
            return None;
        }
    };
    match serde_json::from_str(&text) {
        Ok(value) => Some(value),
        Err(err) => {
            problems.push(Problem::new(
                display(path),
                "",
                format!("not valid JSON at line {} column {}: {err}", err.line(), err.column()),
            ));
            None
        }
    }
}

fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Directories named `valid`, `invalid` or `convention`, with what their documents must be.
fn collect_verdict_dirs(dir: &Path, out: &mut Vec<(PathBuf, Verdict)>, problems: &mut Vec<Problem>) {
    let mut entries = match fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect::<Vec<_>>(),
        Err(err) => {
            problems.push(Problem::new(display(dir), "", format!("cannot read: {err}")));
            return;
        }
    };
    entries.sort();
    // Links to directories are not walked: a link cycle would make the walk endless.
    for path in entries.into_iter().filter(|p| jerry_contracts_codegen::files::is_real_dir(p)) {
        match path.file_name().and_then(|n| n.to_str()) {
            Some("valid") => out.push((path, Verdict::Valid)),
            Some("invalid") => out.push((path, Verdict::Invalid)),
            Some("convention") => out.push((path, Verdict::Convention)),
            _ => collect_verdict_dirs(&path, out, problems),
        }
    }
}

/// Maps a fixture directory (relative to the fixture root, without `valid`/`invalid`) to its target.
fn target_for(parent: &str, corpus: &Corpus) -> Option<Target> {
    let root = format!("{parent}.json");
    if corpus.get(&root).is_some() {
        return Some(Target { schema: root, definition: None });
    }
    let (schema, name) = parent.rsplit_once("/definitions/")?;
    let schema = format!("{schema}.json");
    corpus
        .get(&schema)?
        .definition_names()
        .contains(&name.to_owned())
        .then(|| Target { schema, definition: Some(name.to_owned()) })
}

/// Checks that every schema has the fixtures the project asks for:
/// - a schema with a root type: `valid/minimal.json`, `valid/maximal.json` and at least
///   [`MIN_INVALID`] invalid documents;
/// - a definition library: for every definition at least one valid and one invalid document,
///   and at least [`MIN_VALID`] valid and [`MIN_INVALID`] invalid in all.
pub fn check_requirements(corpus: &Corpus, sets: &[FixtureSet]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for schema in &corpus.schemas {
        let mine: Vec<&FixtureSet> = sets.iter().filter(|s| s.target.schema == schema.path).collect();
        let valid: usize = mine.iter().map(|s| s.valid.len()).sum();
        let invalid: usize = mine.iter().map(|s| s.invalid.len()).sum();
        let mut require = |ok: bool, message: String| {
            if !ok {
                problems.push(Problem::new(&schema.path, "", message));
            }
        };
        if schema.has_root_type() {
            let root = mine.iter().find(|s| s.target.definition.is_none());
            for name in ["minimal.json", "maximal.json"] {
                let present = root.is_some_and(|s| s.valid.iter().any(|f| f.path.ends_with(name)));
                require(present, format!("has no valid/{name} fixture"));
            }
        } else {
            for name in schema.definition_names() {
                let set = mine.iter().find(|s| s.target.definition.as_deref() == Some(name.as_str()));
                let (v, i) = set.map_or((0, 0), |s| (s.valid.len(), s.invalid.len()));
                require(
                    v >= 1 && i >= 1,
                    format!("definition {name} needs a valid and an invalid fixture (has {v} and {i})"),
                );
            }
        }
        require(valid >= MIN_VALID, format!("needs at least {MIN_VALID} valid fixtures, has {valid}"));
        require(invalid >= MIN_INVALID, format!("needs at least {MIN_INVALID} invalid fixtures, has {invalid}"));
    }
    problems
}

/// Properties the schema of `set` declares that no covering document uses, as
/// `schema-file#pointer-to-property` strings. The covering documents are `valid/maximal.json`
/// when there is one, else every valid document of the set.
pub fn uncovered_properties(corpus: &Corpus, set: &FixtureSet) -> Vec<String> {
    let Some(schema) = corpus.get(&set.target.schema) else { return Vec::new() };
    let maximal: Vec<&Value> = set.valid_file("maximal.json").map(|f| &f.document).into_iter().collect();
    let docs = if maximal.is_empty() {
        set.valid.iter().filter(|f| f.case.is_none()).map(|f| &f.document).collect()
    } else {
        maximal
    };
    let Some(node) = schema.document.pointer(&set.target.pointer()) else { return Vec::new() };
    let mut missing = Vec::new();
    let mut walk = Walk { corpus, missing: &mut missing, depth: 0 };
    walk.node(schema, &set.target.pointer(), node, &docs);
    missing.sort();
    missing.dedup();
    missing
}

struct Walk<'a> {
    corpus: &'a Corpus,
    missing: &'a mut Vec<String>,
    depth: usize,
}

impl<'a> Walk<'a> {
    fn node(&mut self, schema: &'a Schema, pointer: &str, node: &'a Value, docs: &[&Value]) {
        // The corpus has no recursive schemas; the bound only guards against a future one.
        if docs.is_empty() || self.depth > 64 {
            return;
        }
        self.depth += 1;
        if let Some(reference) = node.get("$ref").and_then(Value::as_str)
            && let Ok((file, target)) = self.corpus.resolve(&schema.path, reference)
            && let Some(next) = self.corpus.get(&file)
            && let Some(sub) = next.document.pointer(&target)
        {
            self.node(next, &target, sub, docs);
        }
        if let Some(properties) = node.get("properties").and_then(Value::as_object) {
            for (name, sub) in properties {
                let present: Vec<&Value> = docs.iter().filter_map(|d| d.get(name)).collect();
                let here = format!("{pointer}/properties/{}", jerry_contracts_pointer::escape(name));
                if present.is_empty() {
                    self.missing.push(format!("{}#{here}", schema.path));
                } else {
                    self.node(schema, &here, sub, &present);
                }
            }
        }
        if let Some(items) = node.get("items").filter(|i| i.is_object()) {
            let elements: Vec<&Value> = docs.iter().filter_map(|d| d.as_array()).flatten().collect();
            if elements.is_empty() && docs.iter().any(|d| d.is_array()) {
                self.missing.push(format!("{}#{pointer}/items", schema.path));
            }
            self.node(schema, &format!("{pointer}/items"), items, &elements);
        }
        if let Some(extra) = node.get("additionalProperties").filter(|a| a.is_object()) {
            let declared = node.get("properties").and_then(Value::as_object);
            let values: Vec<&Value> = docs
                .iter()
                .filter_map(|d| d.as_object())
                .flat_map(|o| o.iter())
                .filter(|(k, _)| declared.is_none_or(|p| !p.contains_key(*k)))
                .map(|(_, v)| v)
                .collect();
            self.node(schema, &format!("{pointer}/additionalProperties"), extra, &values);
        }
        if let Some(all) = node.get("allOf").and_then(Value::as_array) {
            for (i, sub) in all.iter().enumerate() {
                self.node(schema, &format!("{pointer}/allOf/{i}"), sub, docs);
            }
        }
        self.depth -= 1;
    }
}
