//! The schema layer's compiled trees: every schema file of the corpus compiled, in the
//! generator, into the arena of nodes the library's interpreter walks
//! (`src/validation/schema.rs`), one line of JSON per file ([`TREE_FILE`], included by the
//! generated Rust as `SCHEMA_TREES`). The keywords are read here, through the model's
//! [`Keyword`] table, and nowhere in the runtime: a keyword the table gains is a compile error in
//! `Compiler::assertion` until the tree says what it asserts, and anything the tree cannot
//! carry fails the generation naming the schema file and pointer.
//!
//! A tree holds the file's root and definitions and everything they reach, `$ref`s resolved to
//! node indices (across files too), in two readings: the seeds' (every assertion) and the
//! conventions' (the same structure, with the assertions of each object's `x-convention`).
//!
//! The line's shape, which the runtime reads with `deny_unknown_fields`:
//! `{"path", "files": [$id…], "seed": {pointer: node}, "convention": {pointer: node},
//! "locations": [[file, pointer]…], "nodes": [node…]}`, a node being `"any"`, `"never"`,
//! `{"ref": node}` or `{"schema": {…}}` with only the members a schema object has.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::corpus::{Corpus, Problem};
use crate::model::Keyword;

/// The name of the trees' file, beside the generated Rust.
pub const TREE_FILE: &str = "schema-trees.ndjson";

/// The compiled trees of every schema file of `corpus`, one line each in the corpus's order
/// (the registry's), or every problem found, each with its schema file and pointer.
pub fn render(corpus: &Corpus) -> Result<Vec<u8>, Vec<Problem>> {
    let mut out = String::new();
    let mut problems = Vec::new();
    // A schema is compiled in both readings and into every tree that reaches it: each problem
    // is named once.
    let mut named = HashSet::new();
    for file in &corpus.schemas {
        match Compiler::compile(corpus, &file.path) {
            Ok(line) => {
                out.push_str(&line.to_string());
                out.push('\n');
            }
            Err(found) => problems.extend(
                found.into_iter().filter(|p| named.insert((p.file.clone(), p.pointer.clone(), p.message.clone()))),
            ),
        }
    }
    if problems.is_empty() { Ok(out.into_bytes()) } else { Err(problems) }
}

/// How a schema is read: as the seeds state it, or as its conventions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mode {
    Seed,
    Convention,
}

/// Builds one file's tree.
struct Compiler<'c> {
    corpus: &'c Corpus,
    /// The `$id` of every file a node is in (the file itself first).
    files: Vec<&'c str>,
    nodes: Vec<Value>,
    index: HashMap<(String, String, Mode), usize>,
    locations: Vec<Value>,
    problems: Vec<Problem>,
}

impl<'c> Compiler<'c> {
    /// The tree of `path`: its root and every definition, in both readings.
    fn compile(corpus: &'c Corpus, path: &'c str) -> Result<Value, Vec<Problem>> {
        let Some(file) = corpus.get(path) else {
            return Err(vec![Problem::new(path, "", "the file is not in the corpus")]);
        };
        let mut compiler = Compiler {
            corpus,
            files: vec![file.id.as_str()],
            nodes: Vec::new(),
            index: HashMap::new(),
            locations: Vec::new(),
            problems: Vec::new(),
        };
        for mode in [Mode::Seed, Mode::Convention] {
            compiler.node(path, String::new(), mode);
            for name in file.definition_names() {
                compiler.node(path, format!("/definitions/{}", jerry_contracts_pointer::escape(&name)), mode);
            }
        }
        if !compiler.problems.is_empty() {
            return Err(compiler.problems);
        }
        // The file's own schemas by pointer, in each reading (what a validation may ask for).
        let mut seed = BTreeMap::new();
        let mut convention = BTreeMap::new();
        for ((file, pointer, mode), id) in &compiler.index {
            if file == path {
                match mode {
                    Mode::Seed => seed.insert(pointer.clone(), *id),
                    Mode::Convention => convention.insert(pointer.clone(), *id),
                };
            }
        }
        Ok(json!({
            "path": path,
            "files": compiler.files,
            "seed": seed,
            "convention": convention,
            "locations": compiler.locations,
            "nodes": compiler.nodes,
        }))
    }

    /// The node of the schema at `pointer` in the file `path`, compiled if it is not yet.
    fn node(&mut self, path: &str, pointer: String, mode: Mode) -> usize {
        let key = (path.to_owned(), pointer, mode);
        if let Some(&id) = self.index.get(&key) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Value::Null);
        let Some(file) = self.corpus.get(path) else {
            self.problems.push(Problem::new(path, &key.1, "the file is not in the corpus"));
            return id;
        };
        let file_index = match self.files.iter().position(|id| *id == file.id) {
            Some(index) => index,
            None => {
                self.files.push(file.id.as_str());
                self.files.len() - 1
            }
        };
        self.locations.push(json!([file_index, key.1]));
        // Indexed before it is built, so that a schema referring to itself finds its node.
        self.index.insert(key.clone(), id);
        let node = match file.document.pointer(&key.1) {
            Some(schema) => self.build(path, &key.1, schema, mode),
            None => {
                self.problems.push(Problem::new(path, &key.1, "a reference names a schema that does not exist"));
                Value::Null
            }
        };
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
        id
    }

    /// The node of the schema `schema`, found at `pointer` in `path`, read in `mode`.
    fn build(&mut self, path: &str, pointer: &str, schema: &Value, mode: Mode) -> Value {
        let map = match schema {
            Value::Bool(true) => return json!("any"),
            // `false` is an assertion of the seed reading; conventions are only in `x-convention`.
            Value::Bool(false) if mode == Mode::Seed => return json!("never"),
            Value::Bool(false) => return json!("any"),
            Value::Object(map) => map,
            _ => {
                self.problems.push(Problem::new(path, pointer, "a schema must be an object or a boolean"));
                return Value::Null;
            }
        };
        if let Some(reference) = map.get("$ref") {
            let Some(reference) = reference.as_str() else {
                self.problems.push(Problem::new(path, format!("{pointer}/$ref"), "$ref is not a string"));
                return Value::Null;
            };
            return match self.corpus.resolve(path, reference) {
                Ok((target, target_pointer)) => json!({ "ref": self.node(&target, target_pointer, mode) }),
                Err(reason) => {
                    self.problems.push(Problem::new(
                        path,
                        format!("{pointer}/$ref"),
                        format!("\"{reference}\" {reason}"),
                    ));
                    Value::Null
                }
            };
        }
        let mut s = Map::new();
        // The structure is the object's own in both readings.
        for (name, value) in map {
            let Some(keyword) = Keyword::parse(name) else {
                self.problems.push(Problem::new(
                    path,
                    format!("{pointer}/{}", jerry_contracts_pointer::escape(name)),
                    format!("keyword `{name}` is not one the generator knows"),
                ));
                continue;
            };
            self.structure(path, pointer, keyword, value, mode, &mut s);
        }
        if map.contains_key("if") && (map.contains_key("then") || map.contains_key("else")) {
            // The condition decides the branch as the seeds state it, in both readings.
            let condition = self.node(path, format!("{pointer}/if"), Mode::Seed);
            let then = map.contains_key("then").then(|| self.node(path, format!("{pointer}/then"), mode));
            let otherwise = map.contains_key("else").then(|| self.node(path, format!("{pointer}/else"), mode));
            s.insert("condition".into(), json!([condition, then, otherwise]));
        }
        // What a remediation of the object's pattern shows: its first string example.
        if let Some(example) =
            map.get("examples").and_then(Value::as_array).into_iter().flatten().find_map(Value::as_str)
        {
            s.insert("example".into(), json!(example));
        }
        let assertions = match mode {
            Mode::Seed => map,
            Mode::Convention => match map.get("x-convention") {
                Some(Value::Object(convention)) => {
                    // The sources a convention's record quotes.
                    let sources = convention.get("x-source").cloned().unwrap_or_else(|| json!({}));
                    s.insert("convention".into(), sources);
                    convention
                }
                _ => return json!({ "schema": s }),
            },
        };
        let at = match mode {
            Mode::Seed => pointer.to_owned(),
            Mode::Convention => format!("{pointer}/x-convention"),
        };
        for (name, value) in assertions {
            match Keyword::parse(name) {
                Some(keyword) => self.assertion(path, &at, keyword, value, mode, &mut s),
                None => self.problems.push(Problem::new(
                    path,
                    format!("{at}/{}", jerry_contracts_pointer::escape(name)),
                    format!("keyword `{name}` is not one the generator knows"),
                )),
            }
        }
        json!({ "schema": s })
    }

    /// What the structural keyword `keyword` (`properties`, `additionalProperties` as a schema,
    /// `items`, `allOf`) adds to the node `s`; the other keywords add nothing here.
    fn structure(
        &mut self,
        path: &str,
        pointer: &str,
        keyword: Keyword,
        value: &Value,
        mode: Mode,
        s: &mut Map<String, Value>,
    ) {
        let name = keyword.as_str();
        match keyword {
            Keyword::Properties => {
                let mut properties: Vec<(String, usize)> = Vec::new();
                for member in value.as_object().into_iter().flat_map(Map::keys) {
                    let id = self.node(
                        path,
                        format!("{pointer}/properties/{}", jerry_contracts_pointer::escape(member)),
                        mode,
                    );
                    properties.push((member.clone(), id));
                }
                // Sorted by name: the runtime finds a member by binary search.
                properties.sort();
                s.insert("properties".into(), json!(properties));
            }
            Keyword::AdditionalProperties if value.is_object() || mode == Mode::Seed && value != &Value::Bool(true) => {
                s.insert("additional".into(), json!(self.node(path, format!("{pointer}/{name}"), mode)));
            }
            Keyword::Items => {
                s.insert("items".into(), json!(self.node(path, format!("{pointer}/{name}"), mode)));
            }
            Keyword::AllOf => {
                let count = value.as_array().map_or(0, Vec::len);
                let ids: Vec<usize> =
                    (0..count).map(|i| self.node(path, format!("{pointer}/allOf/{i}"), mode)).collect();
                s.insert("all_of".into(), json!(ids));
            }
            _ => {}
        }
    }

    /// What the keyword `keyword`, with `value`, at `at` (the object, or its `x-convention`)
    /// asserts of a value in `mode`, into the node `s`. Every keyword of the table is named here:
    /// a new one does not compile until the tree says what it asserts.
    fn assertion(
        &mut self,
        path: &str,
        at: &str,
        keyword: Keyword,
        value: &Value,
        mode: Mode,
        s: &mut Map<String, Value>,
    ) {
        let place = || format!("{at}/{keyword}");
        let (field, read): (&str, Result<Value, String>) = match keyword {
            Keyword::Type => ("types", types(value).map(|mask| json!({ "mask": mask, "declared": value }))),
            Keyword::Required => (
                "required",
                value
                    .as_array()
                    .filter(|names| names.iter().all(Value::is_string))
                    .map(|_| value.clone())
                    .ok_or_else(|| "required must be an array of strings".to_owned()),
            ),
            // A convention that closes the object: every member it does not declare breaks it.
            Keyword::AdditionalProperties if mode == Mode::Convention && value == &Value::Bool(false) => {
                ("closed", Ok(json!(true)))
            }
            Keyword::Enum => {
                ("enum", value.as_array().map(|_| value.clone()).ok_or_else(|| "enum must be an array".to_owned()))
            }
            Keyword::Const => ("const", Ok(value.clone())),
            Keyword::Pattern => (
                "pattern",
                value.as_str().map(|source| json!(source)).ok_or_else(|| "pattern must be a string".to_owned()),
            ),
            Keyword::Minimum | Keyword::Maximum => (
                if keyword == Keyword::Minimum { "minimum" } else { "maximum" },
                value
                    .as_number()
                    .map(|n| Value::Number(n.clone()))
                    .ok_or_else(|| format!("{keyword} must be a number")),
            ),
            Keyword::MinLength => ("min_length", size(keyword, value)),
            Keyword::MaxLength => ("max_length", size(keyword, value)),
            Keyword::MinItems => ("min_items", size(keyword, value)),
            Keyword::MaxItems => ("max_items", size(keyword, value)),
            Keyword::UniqueItems => match value {
                Value::Bool(true) => ("unique_items", Ok(json!(true))),
                Value::Bool(false) => return,
                _ => ("unique_items", Err("uniqueItems must be a boolean".to_owned())),
            },
            Keyword::Format => match value.as_str() {
                // `uuid` is no draft-07 format: a draft-07 validator ignores it (the schemas
                // pair it with a pattern), as the schema layer does.
                Some("uuid") => return,
                Some(format @ ("date" | "date-time" | "uri" | "uri-reference")) => ("format", Ok(json!(format))),
                _ => ("format", Err(format!("format {value} is not one the schema layer checks"))),
            },
            // Read by the structure (`structure`, the condition), or annotations: no assertion
            // of their own.
            Keyword::Schema
            | Keyword::Id
            | Keyword::Comment
            | Keyword::Title
            | Keyword::Description
            | Keyword::Examples
            | Keyword::Default
            | Keyword::Definitions
            | Keyword::Ref
            | Keyword::Properties
            | Keyword::AdditionalProperties
            | Keyword::Items
            | Keyword::If
            | Keyword::Then
            | Keyword::Else
            | Keyword::AllOf
            | Keyword::XSource
            | Keyword::XConvention => return,
            // Keywords the generator refuses (the corpus check names each use).
            Keyword::ExclusiveMinimum | Keyword::ExclusiveMaximum | Keyword::MinProperties | Keyword::MaxProperties => {
                (keyword.as_str(), Err(format!("{keyword} is not carried by the generator")))
            }
        };
        match read {
            Ok(read) => {
                s.insert(field.into(), read);
            }
            Err(reason) => self.problems.push(Problem::new(path, place(), reason)),
        }
    }
}

/// The type bits of a `type` value (a name or a list of names): null 1, boolean 2, object 4,
/// array 8, number 16, integer 32, string 64 (the runtime's bits).
fn types(value: &Value) -> Result<u8, String> {
    let one = |name: &str| match name {
        "null" => Some(1),
        "boolean" => Some(2),
        "object" => Some(4),
        "array" => Some(8),
        "number" => Some(16),
        "integer" => Some(32),
        "string" => Some(64),
        _ => None,
    };
    let mask = match value {
        Value::String(name) => one(name),
        Value::Array(names) => names.iter().try_fold(0, |mask, name| Some(mask | one(name.as_str()?)?)),
        _ => None,
    };
    mask.ok_or_else(|| format!("unknown type {value}"))
}

/// A size keyword's value (`minLength` etc.): a non-negative integer, `2.0` included.
fn size(keyword: Keyword, value: &Value) -> Result<Value, String> {
    let read = value.as_u64().or_else(|| {
        let float = value.as_f64()?;
        // Saturating: a bound past u64::MAX allows everything u64::MAX allows.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (float >= 0.0 && float.fract() == 0.0).then_some(float as u64)
    });
    read.map(Value::from).ok_or_else(|| format!("{keyword} must be a non-negative integer, not {value}"))
}
