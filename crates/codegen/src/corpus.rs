//! The schema corpus: every `*.json` under `schemas/`, parsed, checked against the project's
//! conventions (`$schema` is draft-07, `$id` is the base URI plus the file's path) and with every
//! `$ref` resolved to a file and JSON Pointer inside the corpus.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The `$schema` every contract declares.
pub const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

/// Every schema's `$id` is this prefix followed by its path under `schemas/`.
pub const ID_BASE: &str = "https://jerry.dev/schemas/";

/// Keywords whose values are data, not subschemas: a `$ref` key inside them is not a reference.
const DATA_KEYWORDS: [&str; 4] = ["const", "enum", "examples", "default"];

/// A problem found in a schema or fixture file, located by file and JSON Pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Path of the offending file, as given to the loader (forward slashes).
    pub file: String,
    /// JSON Pointer to the offending place inside the file (empty for the whole file).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// A problem at `pointer` inside `file`.
    pub fn new(file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self { file: file.into(), pointer: pointer.into(), message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}#{}: {}", self.file, self.pointer, self.message)
        }
    }
}

/// Failure to read the corpus directory itself (individual files report [`Problem`]s instead).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", path.display())]
pub struct CorpusError {
    /// The directory or file that could not be read.
    pub path: PathBuf,
    /// The underlying I/O error.
    #[source]
    pub source: std::io::Error,
}

/// One schema file of the corpus.
#[derive(Debug, Clone)]
pub struct Schema {
    /// Path under `schemas/` with forward slashes, e.g. `agents/ps/researcher_output.json`.
    pub path: String,
    /// The schema's `$id`.
    pub id: String,
    /// The parsed document.
    pub document: Value,
}

impl Schema {
    /// True when the schema describes a document at its root: it has any keyword there besides
    /// the identifiers, the annotations and `definitions` (a bare `enum`, a `pattern`, a `type`
    /// …); false for definition libraries such as `common/types.json`.
    pub fn has_root_type(&self) -> bool {
        const NOT_A_ROOT: &[&str] =
            &["$schema", "$id", "$comment", "title", "description", "examples", "default", "definitions"];
        self.document.as_object().is_some_and(|root| root.keys().any(|k| !NOT_A_ROOT.contains(&k.as_str())))
    }

    /// Names under `definitions`, sorted.
    pub fn definition_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .document
            .get("definitions")
            .and_then(Value::as_object)
            .map(|defs| defs.keys().cloned().collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    /// The schema's `title`, if it has one.
    pub fn title(&self) -> Option<&str> {
        self.document.get("title").and_then(Value::as_str)
    }
}

/// A `$ref` found in a schema and where it points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// Schema file holding the `$ref`.
    pub file: String,
    /// JSON Pointer of the object holding the `$ref`.
    pub pointer: String,
    /// The reference exactly as written.
    pub reference: String,
    /// The schema file it resolves to (path under `schemas/`).
    pub target_file: String,
    /// JSON Pointer inside the target file (empty for its root).
    pub target_pointer: String,
}

/// All schema files under one directory, in path order, with the problems found loading them.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// The schemas that parsed, sorted by path.
    pub schemas: Vec<Schema>,
    /// Files that could not be read or parsed, and convention breaches.
    pub problems: Vec<Problem>,
}

impl Corpus {
    /// A corpus of one schema document at `path` (unit tests of the passes and renderers).
    #[cfg(test)]
    pub(crate) fn of_one(path: &str, document: Value) -> Self {
        let id = format!("{ID_BASE}{path}");
        Corpus { schemas: vec![Schema { path: path.to_owned(), id, document }], problems: Vec::new() }
    }

    /// Loads every `*.json` file below `dir`. Unreadable or malformed files and convention
    /// breaches become [`Corpus::problems`]; only an unreadable `dir` is an error.
    pub fn load(dir: &Path) -> Result<Self, CorpusError> {
        let mut files = Vec::new();
        collect_files(dir, &mut files)?;
        let mut corpus = Corpus::default();
        for file in files {
            let Some(path) = relative_path(dir, &file) else { continue };
            if !path.ends_with(".json") {
                continue;
            }
            let text = match crate::files::read_text(&file) {
                Ok(text) => text,
                Err(err) => {
                    corpus.problems.push(Problem::new(&path, "", format!("cannot read: {err}")));
                    continue;
                }
            };
            match serde_json::from_str::<Value>(&text) {
                Ok(document) => corpus.add(path, document),
                Err(err) => corpus.problems.push(Problem::new(
                    &path,
                    "",
                    format!("not valid JSON at line {} column {}: {err}", err.line(), err.column()),
                )),
            }
        }
        Ok(corpus)
    }

    fn add(&mut self, path: String, document: Value) {
        let Some(root) = document.as_object() else {
            self.problems.push(Problem::new(&path, "", "a schema file must hold a JSON object"));
            return;
        };
        match root.get("$schema").and_then(Value::as_str) {
            Some(DRAFT_07) => {}
            other => self.problems.push(Problem::new(
                &path,
                "/$schema",
                format!("must be \"{DRAFT_07}\", found {}", describe(other)),
            )),
        }
        let expected_id = format!("{ID_BASE}{path}");
        let id = root.get("$id").and_then(Value::as_str).map(str::to_owned);
        if id.as_deref() != Some(expected_id.as_str()) {
            self.problems.push(Problem::new(
                &path,
                "/$id",
                format!("must be \"{expected_id}\", found {}", describe(id.as_deref())),
            ));
        }
        self.schemas.push(Schema { id: expected_id, path, document });
    }

    /// The schema at `path` (under `schemas/`), if loaded.
    pub fn get(&self, path: &str) -> Option<&Schema> {
        self.schemas.iter().find(|s| s.path == path)
    }

    /// `(uri, document)` pairs for registering the corpus with a validator.
    pub fn resources(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.schemas.iter().map(|s| (s.id.as_str(), &s.document))
    }

    /// Every `$ref` in the corpus with its resolution; references that do not resolve to a
    /// file and pointer inside the corpus are returned as problems.
    pub fn references(&self) -> (Vec<Reference>, Vec<Problem>) {
        let mut refs = Vec::new();
        let mut problems = Vec::new();
        for schema in &self.schemas {
            let mut found = Vec::new();
            collect_refs(&schema.document, String::new(), &mut found);
            for (pointer, reference) in found {
                match self.resolve(&schema.path, &reference) {
                    Ok((target_file, target_pointer)) => refs.push(Reference {
                        file: schema.path.clone(),
                        pointer,
                        reference,
                        target_file,
                        target_pointer,
                    }),
                    Err(message) => problems.push(Problem::new(
                        &schema.path,
                        format!("{pointer}/$ref"),
                        format!("\"{reference}\" {message}"),
                    )),
                }
            }
        }
        (refs, problems)
    }

    /// Every value listed under an `examples` keyword, as `(schema, JSON Pointer of the subschema
    /// holding it, example)`. An example is documentation a reader will copy, so it must validate
    /// against that subschema.
    pub fn examples(&self) -> Vec<(&Schema, String, &Value)> {
        let mut found = Vec::new();
        for schema in &self.schemas {
            let mut places = Vec::new();
            collect_keyword(&schema.document, String::new(), "examples", &mut places);
            for (pointer, examples) in places {
                for example in examples.as_array().into_iter().flatten() {
                    found.push((schema, pointer.clone(), example));
                }
            }
        }
        found
    }

    /// Resolves `reference`, written in schema `from`, to a `(file, pointer)` in the corpus.
    pub fn resolve(&self, from: &str, reference: &str) -> Result<(String, String), String> {
        let (location, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        if location.contains(':') || location.starts_with('/') {
            return Err("is not relative: cross-file references must be relative paths".into());
        }
        let target_file =
            if location.is_empty() { from.to_owned() } else { join(from, location).ok_or("climbs above schemas/")? };
        let target =
            self.get(&target_file).ok_or_else(|| format!("names {target_file}, which is not in the corpus"))?;
        let pointer = jerry_contracts_pointer::fragment_pointer(fragment)
            .map_err(|err| format!("has a fragment that is not a JSON Pointer: {err}"))?;
        if target.document.pointer(&pointer).is_none() {
            return Err(format!("points at {pointer}, which does not exist in {target_file}"));
        }
        Ok((target_file, pointer.into_owned()))
    }
}

fn describe(value: Option<&str>) -> String {
    value.map_or_else(|| "nothing".to_owned(), |v| format!("\"{v}\""))
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CorpusError> {
    let entries = fs::read_dir(dir).map_err(|source| CorpusError { path: dir.to_owned(), source })?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| CorpusError { path: dir.to_owned(), source })?;
        paths.push(entry.path());
    }
    paths.sort();
    for path in paths {
        // A link to a directory is not walked (it is reported as a file that cannot be read).
        if crate::files::is_real_dir(&path) {
            collect_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// `file` relative to `dir`, with forward slashes (`None` when it is not below `dir` or not
/// UTF-8).
pub fn relative_path(dir: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(dir).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

/// Resolves a relative path against the directory of `from` (both under `schemas/`).
pub(crate) fn join(from: &str, location: &str) -> Option<String> {
    let mut segments: Vec<&str> = from.split('/').collect();
    segments.pop();
    for part in location.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            other => segments.push(other),
        }
    }
    Some(segments.join("/"))
}

fn collect_refs(node: &Value, pointer: String, out: &mut Vec<(String, String)>) {
    let mut found = Vec::new();
    collect_keyword(node, pointer, "$ref", &mut found);
    out.extend(found.into_iter().filter_map(|(p, v)| v.as_str().map(|r| (p, r.to_owned()))));
}

/// Every value of `keyword` in schema positions below `node`, with the pointer of the object
/// holding it; data keywords (`const`, `enum`, `examples`, `default`) are not descended into.
fn collect_keyword<'a>(node: &'a Value, pointer: String, keyword: &str, out: &mut Vec<(String, &'a Value)>) {
    match node {
        Value::Object(map) => {
            if let Some(value) = map.get(keyword) {
                out.push((pointer.clone(), value));
            }
            for (key, value) in map {
                if DATA_KEYWORDS.contains(&key.as_str()) {
                    continue;
                }
                collect_keyword(value, format!("{pointer}/{}", jerry_contracts_pointer::escape(key)), keyword, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_keyword(item, format!("{pointer}/{i}"), keyword, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn corpus(files: &[(&str, Value)]) -> Corpus {
        let mut c = Corpus::default();
        for (path, doc) in files {
            c.add((*path).to_owned(), doc.clone());
        }
        c
    }

    #[test]
    fn relative_references_resolve_across_directories() {
        let c = corpus(&[
            ("common/types.json", json!({"definitions": {"severity": {"type": "string"}}})),
            (
                "agents/ps/a.json",
                json!({"properties": {"p": {"$ref": "../../common/types.json#/definitions/severity"}}}),
            ),
        ]);
        let (refs, problems) = c.references();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(refs[0].target_file, "common/types.json");
        assert_eq!(refs[0].target_pointer, "/definitions/severity");
        assert_eq!(refs[0].pointer, "/properties/p");
    }

    #[test]
    fn broken_references_are_named_with_their_place() {
        let c = corpus(&[(
            "agents/ps/a.json",
            json!({"properties": {
                "missing_file": {"$ref": "../../common/nope.json"},
                "missing_def": {"$ref": "#/definitions/nope"},
                "absolute": {"$ref": "https://example.com/x.json"},
                "escapes": {"$ref": "../../../x.json"},
                "data": {"const": {"$ref": "not a reference"}}
            }}),
        )]);
        let (_, problems) = c.references();
        let places: Vec<&str> = problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(
            places,
            [
                "/properties/absolute/$ref",
                "/properties/escapes/$ref",
                "/properties/missing_def/$ref",
                "/properties/missing_file/$ref"
            ]
        );
    }

    #[test]
    fn conventions_are_checked() {
        let c = corpus(&[
            ("common/a.json", json!({"$schema": DRAFT_07, "$id": "https://jerry.dev/schemas/common/a.json"})),
            ("common/b.json", json!({"$schema": "https://json-schema.org/draft-07/schema#", "$id": "x"})),
            ("common/c.json", json!([1])),
        ]);
        let places: Vec<(&str, &str)> = c.problems.iter().map(|p| (p.file.as_str(), p.pointer.as_str())).collect();
        assert_eq!(places, [("common/b.json", "/$schema"), ("common/b.json", "/$id"), ("common/c.json", "")]);
    }
}
