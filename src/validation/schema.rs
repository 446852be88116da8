//! The schema layer's interpreter: validates a document against its registry schema the way a
//! conforming JSON Schema draft-07 validator does, and reports *every* violation, each as one
//! `SCH-*` record at the JSON Pointer of the offending value.
//!
//! The generated types decide whether a document is valid (a faster, typed path); this
//! interpreter only runs on a document they reject, to list everything that is wrong with it.
//!
//! # Design
//!
//! Each registry schema file is compiled by the generator (`crates/codegen/src/schema_tree.rs`,
//! through the model's keyword table) into a [`Tree`]: an arena of [`Node`]s, one per schema
//! object reachable from the file's root and definitions, with `$ref`s resolved into arena
//! indices, so a `$ref` costs one index at validation time and a definition shared by many places
//! is one node per tree. The runtime reads no schema keyword: it reads a file's tree from the
//! catalogue's `SCHEMA_TREES` on its first use, checks that every index in it is in range, and
//! looks its patterns up in the catalogue's pattern table once per process ([`pattern`]).
//!
//! Validation recurses on the *schema*: every recursive call descends one edge of the tree
//! (`properties`, `additionalProperties`, `items`, `$ref`, `if`/`then`/`else`, `allOf`), so the
//! depth of the recursion is bounded by the depth of the schema, however deep the document is.
//! A recursive schema (none is, in the corpus) is still bounded by [`MAX_DEPTH`].

mod scan;

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde::Deserialize;
use serde_json::{Map, Number, Value};

use super::catalogue::Catalogue;
#[cfg(test)]
use super::catalogue::SchemaTrees;
use super::codes::{self, Code};
use super::{Report, record, with_values};
use crate::common::{ErrorRecord, ErrorRecordSeverity};
use crate::formats::{Date, DateTime};
use crate::pattern::{EcmaPattern, PatternTable};
use crate::registry::{self, SchemaInfo};
use crate::shorten::shortened;

/// How many schema levels one validation descends before it gives up with a record (the corpus
/// needs a few dozen at most; only a recursive schema could go deeper).
const MAX_DEPTH: usize = 128;

/// How many characters of an offending string a record's `actual` keeps.
const ACTUAL_CHARS: usize = 200;

/// How many characters of an offending value a message quotes.
const PREVIEW_CHARS: usize = 80;

/// How deep, and how many entries per array or object, a record's `actual` copies of an
/// offending array or object.
const COPY_DEPTH: usize = 3;
const COPY_ENTRIES: usize = 20;

/// Validates `value` against `info`'s schema, one of `catalogue`'s (the registry's, whose trees
/// are read once, or another set's, read afresh), and adds one record per violation to `report`.
pub(crate) fn check(catalogue: Catalogue, info: &'static SchemaInfo, value: &Value, report: &mut Report) {
    check_at(catalogue, info, "", value, report);
}

/// [`check`] against the schema at `pointer` in `info`'s file (`""` for its root, or a
/// definition: `/definitions/agent_reference`).
pub(crate) fn check_at(
    catalogue: Catalogue,
    info: &'static SchemaInfo,
    pointer: &str,
    value: &Value,
    report: &mut Report,
) {
    let violations =
        with_tree(catalogue, info, |tree| tree.capped_violations(pointer, Mode::Seed, value, report.room()));
    match violations {
        Ok(Some(found)) => {
            for violation in found.kept {
                report.push(violation.into_record());
            }
            // Every schema violation is an error.
            report.omit(found.omitted, found.omitted);
        }
        Ok(None) => report.push(record(
            &codes::SCH_UNKNOWN_SCHEMA,
            "",
            format!("{}#{pointer} is not a schema of the registry, so it cannot be interpreted", info.path),
        )),
        Err(reason) => report.push(record(
            &codes::SCH_UNKNOWN_SCHEMA,
            "",
            format!("{}#{pointer} cannot be interpreted: {reason}", info.path),
        )),
    }
}

/// Where the schema of the value at the instance pointer `instance` is stated, in a document
/// of `info`'s schema: the file's `$id`, `#` and the JSON Pointer of the schema that describes
/// the value (after `$ref`s). The rule layers' records carry it as their `keyword_location`.
///
/// The walk follows `properties`, `items`, `additionalProperties` and `$ref`, and looks into
/// `allOf` and `if`/`then`/`else` branches only when exactly one of them names the member; where
/// it cannot go on (a branch chosen by the value, say), it stops at the last schema it reached.
pub(crate) fn location_of(info: &'static SchemaInfo, instance: &str) -> String {
    match tree_of(info) {
        Some(tree) => tree.location_of(instance),
        None => format!("{}#", info.id),
    }
}

/// Whether the schema at `pointer` in `info`'s file, or any schema it reaches, carries a
/// convention (`x-convention`): only then is the convention layer worth a parsed document. A
/// tree that cannot be read may have some: [`conventions`] says so.
pub(crate) fn has_conventions(catalogue: Catalogue, info: &'static SchemaInfo, pointer: &str) -> bool {
    let reaches = with_tree(catalogue, info, |tree| {
        Some(tree.convention_root(pointer).is_some_and(|root| tree.reaches_convention(root)))
    });
    match reaches {
        Ok(reaches) => reaches == Some(true),
        Err(_) => true,
    }
}

/// Whether the JSON bytes `bytes` (well-formed: the typed skim read them) surely keep every
/// convention of the schema at `pointer` in `info`'s file, told without parsing the document
/// (`schema/scan.rs`); `false` is doubt, for [`conventions`] on the parsed document to settle.
pub(crate) fn conventions_surely_kept(
    catalogue: Catalogue,
    info: &'static SchemaInfo,
    pointer: &str,
    bytes: &[u8],
) -> bool {
    with_tree(catalogue, info, |tree| Some(tree.surely_kept(tree.convention_root(pointer)?, bytes)))
        .is_ok_and(|kept| kept == Some(true))
}

/// Whether what the skim kept of a v1.1.0 envelope (`facts`) tells, without a walk of its bytes,
/// that it surely keeps every convention of `info`'s schema (`schema/scan.rs`,
/// `Tree::kept_by_facts`); `false` is doubt, for [`conventions_surely_kept`] to settle.
pub(crate) fn conventions_kept_by_facts(
    catalogue: Catalogue,
    info: &'static SchemaInfo,
    facts: &super::Facts<'_>,
) -> bool {
    facts.envelope
        && info.path == "session_context/v1.1.0.json"
        && with_tree(catalogue, info, |tree| Some(tree.kept_by_facts(tree.convention_root("")?, facts)))
            .is_ok_and(|kept| kept == Some(true))
}

/// The convention layer: one `CNV-*` record for every convention (`x-convention`) that `value`
/// breaks against the schema at `pointer` in `info`'s file — a warning, or an error when
/// `strict`.
pub(crate) fn conventions(
    catalogue: Catalogue,
    info: &'static SchemaInfo,
    pointer: &str,
    value: &Value,
    strict: bool,
    report: &mut Report,
) {
    let found =
        with_tree(catalogue, info, |tree| tree.capped_violations(pointer, Mode::Convention, value, report.room()));
    let found = match found {
        Ok(Some(found)) => found,
        Ok(None) => return,
        // The conventions cannot be judged: an error, once (the schema layer may have said it).
        Err(reason) => {
            if !report.has(&codes::SCH_UNKNOWN_SCHEMA) {
                report.push(record(
                    &codes::SCH_UNKNOWN_SCHEMA,
                    "",
                    format!("{}#{pointer} cannot be interpreted: {reason}", info.path),
                ));
            }
            return;
        }
    };
    for violation in found.kept {
        let mut finding = violation.into_record();
        if strict {
            finding.severity = ErrorRecordSeverity::Error;
        }
        report.push(finding);
    }
    report.omit(found.omitted, if strict { found.omitted } else { 0 });
}

/// Runs `f` on the compiled tree of `info`'s file: the registry's (read once) or, for another
/// set of schemas, one read afresh; `Err` says why the tree cannot be read.
fn with_tree<T>(
    catalogue: Catalogue,
    info: &'static SchemaInfo,
    f: impl FnOnce(&Tree) -> Option<T>,
) -> Result<Option<T>, String> {
    if catalogue.is_built_in() {
        return match built_in_tree(info) {
            Some(Ok(tree)) => Ok(f(tree)),
            Some(Err(reason)) => Err(reason.clone()),
            None => Ok(None),
        };
    }
    let index = catalogue.schemas.iter().position(|s| std::ptr::eq(s, info) || s.path == info.path);
    match index {
        Some(index) => Tree::read(catalogue, index).map(|tree| f(&tree)),
        None => Ok(None),
    }
}

/// Testing hook: the `(keyword, instance pointer)` of every violation the interpreter finds in
/// `value` against the schema `schema` — any name [`registry::lookup`] takes, optionally followed
/// by `#` and the JSON Pointer of a definition (`common/types.json#/definitions/requirement_id`).
/// These are the pairs a draft-07 validator reports (the `jsonschema` crate's `keyword()` and
/// `instance_path()`), which the test suite compares. An unknown schema gives one pair
/// `("unknownSchema", "")`.
pub fn interpret(schema: &str, value: &Value) -> Vec<(String, String)> {
    let (name, fragment) = schema.split_once('#').unwrap_or((schema, ""));
    pairs(registry::lookup(name).and_then(|info| {
        with_tree(Catalogue::built_in(), info, |tree| tree.violations(fragment, Mode::Seed, value)).ok().flatten()
    }))
}

/// Testing hook: [`interpret`] against a schema of another set of schemas, such as the
/// conformance corpus generated into its own crate. The tree is read afresh on every call.
pub fn interpret_in(catalogue: Catalogue, schema: &str, value: &Value) -> Vec<(String, String)> {
    let (name, fragment) = schema.split_once('#').unwrap_or((schema, ""));
    pairs(registry::lookup_in(catalogue.schemas, name).and_then(|info| {
        with_tree(catalogue, info, |tree| tree.violations(fragment, Mode::Seed, value)).ok().flatten()
    }))
}

/// The `(keyword, instance pointer)` pairs of a run, or the one pair of an unknown schema.
fn pairs(violations: Option<Vec<Violation>>) -> Vec<(String, String)> {
    match violations {
        Some(violations) => violations.into_iter().map(|v| (v.keyword.to_owned(), v.pointer)).collect(),
        None => vec![("unknownSchema".to_owned(), String::new())],
    }
}

impl Tree {
    /// See [`location_of`].
    fn location_of(&self, instance: &str) -> String {
        let Some(mut at) = self.root("", Mode::Seed) else {
            return String::new();
        };
        // Instance pointers come from the layers themselves; a token that does not unescape
        // (none should) ends the walk where it is.
        for token in instance.split('/').skip(1) {
            let Ok(token) = jerry_contracts_pointer::unescape(token) else { break };
            at = self.resolved(at);
            match self.step(at, &token, 0) {
                Some(next) => at = next,
                None => break,
            }
        }
        match self.location(self.resolved(at)) {
            Some((id, pointer)) => format!("{id}#{pointer}"),
            None => String::new(),
        }
    }

    /// Node `at` after every `$ref` it is (bounded, so a cycle of references ends).
    fn resolved(&self, mut at: NodeId) -> NodeId {
        for _ in 0..MAX_DEPTH {
            match self.nodes.get(at) {
                Some(Node::Ref(target)) => at = *target,
                _ => break,
            }
        }
        at
    }

    /// The node that describes member or index `token` of a value of node `at`'s schema,
    /// looked for `depth` branches down (bounded: branches may refer to each other).
    fn step(&self, at: NodeId, token: &str, depth: usize) -> Option<NodeId> {
        let Some(Node::Schema(s)) = self.nodes.get(at) else { return None };
        if depth > MAX_DEPTH {
            return None;
        }
        if let Ok(i) = s.properties.binary_search_by(|(name, _)| name.as_str().cmp(token)) {
            return s.properties.get(i).map(|(_, id)| *id);
        }
        if token.parse::<usize>().is_ok()
            && let Some(items) = s.items
        {
            return Some(items);
        }
        // One branch that names the member, not several the value would choose among.
        let branches = s
            .all_of
            .iter()
            .copied()
            .chain(s.condition.into_iter().flat_map(|(_, then, otherwise)| then.into_iter().chain(otherwise)));
        let mut found = branches.filter_map(|branch| self.step(self.resolved(branch), token, depth + 1));
        match (found.next(), found.next()) {
            (Some(next), None) => Some(next),
            (Some(_), Some(_)) => None,
            (None, _) => s.additional,
        }
    }

    /// Every violation of `value` against the compiled schema at `pointer` in the tree's file,
    /// read in `mode`, or `None` when the tree holds no such schema.
    fn violations(&self, pointer: &str, mode: Mode, value: &Value) -> Option<Vec<Violation>> {
        self.capped_violations(pointer, mode, value, usize::MAX).map(|found| found.kept)
    }

    /// [`Tree::violations`], keeping at most `room` of them and counting the rest (a hostile
    /// document may break a rule a million times: memory stays bounded).
    fn capped_violations(&self, pointer: &str, mode: Mode, value: &Value, room: usize) -> Option<Capped> {
        let root = self.root(pointer, mode)?;
        let mut found = Capped { kept: Vec::new(), room, omitted: 0 };
        self.eval(root, value, &Path::Root, 0, &mut found);
        Some(found)
    }

    /// Whether node `root` (of the convention reading) or anything it reaches asserts a
    /// convention.
    fn reaches_convention(&self, root: NodeId) -> bool {
        self.reaches.get(root).copied().unwrap_or(false)
    }
}

/// For each node, whether it or anything it reaches (through references, properties, items and
/// the branches of conditions, not the conditions themselves) has an `x-convention`: a fixed
/// point, reached in as many rounds as the schema is deep.
fn reaching(nodes: &[Node]) -> Vec<bool> {
    let mut reaches: Vec<bool> = nodes.iter().map(|n| matches!(n, Node::Schema(s) if s.convention.is_some())).collect();
    loop {
        let mut changed = false;
        for (id, node) in nodes.iter().enumerate() {
            if reaches.get(id).copied().unwrap_or(true) {
                continue;
            }
            let reached = |child: &NodeId| reaches.get(*child).copied().unwrap_or(false);
            let now = match node {
                Node::Ref(target) => reached(target),
                Node::Schema(s) => {
                    s.properties.iter().any(|(_, child)| reached(child))
                        || s.additional.iter().chain(&s.items).chain(&s.all_of).any(reached)
                        || s.condition.is_some_and(|(_, then, otherwise)| then.iter().chain(&otherwise).any(reached))
                }
                _ => false,
            };
            if now && let Some(slot) = reaches.get_mut(id) {
                *slot = true;
                changed = true;
            }
        }
        if !changed {
            return reaches;
        }
    }
}

/// How a schema is read: as the seeds state it (the schema layer: every keyword but the
/// annotations `x-source` and `x-convention`), or as its conventions (the convention layer: the
/// same structure — properties, items, references, branches — with only the assertions in each
/// object's `x-convention`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Mode {
    Seed,
    Convention,
}

// ---------------------------------------------------------------------------------------------
// The compiled tree
// ---------------------------------------------------------------------------------------------

/// Index of a [`Node`] in its [`Tree`].
type NodeId = usize;

/// One registry file's schemas, compiled (by the generator).
struct Tree {
    /// The arena; `NodeId`s index it.
    nodes: Vec<Node>,
    /// The file's own schemas by JSON Pointer, in the seed reading: its root and definitions,
    /// and everything they reach.
    seed: HashMap<String, NodeId>,
    /// The same, in the convention reading.
    convention: HashMap<String, NodeId>,
    /// Per node: whether it, or anything it reaches, asserts a convention (the convention layer
    /// skips every other value without reading it).
    reaches: Vec<bool>,
    /// The file root's node in the convention reading (every document asks for it).
    convention_root: Option<NodeId>,
    /// The `$id` of every file a node is in.
    files: Vec<String>,
    /// Per node: where its schema is, an index of `files` and the JSON Pointer in that file (a
    /// record's `keyword_location` is this and the keyword).
    locations: Vec<(usize, String)>,
    /// The shape of the envelope's conventions for `Tree::kept_by_facts`, read once.
    facts_plan: OnceLock<Option<scan::FactsPlan>>,
}

/// A tree as the generator writes it: one line of the catalogue's `SCHEMA_TREES`
/// (`crates/codegen/src/schema_tree.rs` writes these members, no others).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    path: String,
    files: Vec<String>,
    seed: HashMap<String, NodeId>,
    convention: HashMap<String, NodeId>,
    locations: Vec<(usize, String)>,
    nodes: Vec<Node>,
}

impl Tree {
    /// The tree of the schema file at `index` of `catalogue`'s schemas, read from the
    /// catalogue's trees, with its patterns looked up in the catalogue's table; `Err` says why it
    /// cannot be used.
    fn read(catalogue: Catalogue, index: usize) -> Result<Tree, String> {
        let path = catalogue.schemas.get(index).map_or("", |info| info.path);
        let line = catalogue.trees.line(index).ok_or_else(|| format!("no compiled tree for {path}"))?;
        let written: Written =
            serde_json::from_str(line).map_err(|e| format!("the compiled tree of {path} does not read: {e}"))?;
        if written.path != path {
            return Err(format!("the compiled tree in {path}'s place is {}'s", written.path));
        }
        let Written { files, seed, convention, locations, mut nodes, .. } = written;
        // Every index in range: a tree that is not whole is refused, never walked.
        let count = nodes.len();
        let out_of_range = |id: &NodeId| *id >= count;
        let children_out = nodes.iter().any(|node| match node {
            Node::Ref(target) => out_of_range(target),
            Node::Schema(s) => {
                s.properties.iter().any(|(_, id)| out_of_range(id))
                    || s.additional.iter().chain(&s.items).chain(&s.all_of).any(out_of_range)
                    || s.condition.is_some_and(|(condition, then, otherwise)| {
                        out_of_range(&condition) || then.iter().chain(&otherwise).any(out_of_range)
                    })
            }
            Node::Any | Node::Never => false,
        });
        if children_out
            || seed.values().chain(convention.values()).any(out_of_range)
            || locations.len() != count
            || locations.iter().any(|(file, _)| *file >= files.len())
        {
            return Err(format!("the compiled tree of {path} names a node or file it does not have"));
        }
        for node in &mut nodes {
            if let Node::Schema(s) = node {
                // Sorted by name for binary search, whatever order it was written in.
                s.properties.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                if let Some(source) = s.pattern_source.take() {
                    match pattern(catalogue.patterns, source) {
                        Ok(read) => s.pattern = Some(read),
                        Err(reason) => s.problems.push(("pattern", reason)),
                    }
                }
            }
        }
        let reaches = reaching(&nodes);
        let convention_root = convention.get("").copied();
        Ok(Tree { nodes, seed, convention, reaches, convention_root, files, locations, facts_plan: OnceLock::new() })
    }

    /// The node of the file's schema at `pointer`, in `mode`.
    fn root(&self, pointer: &str, mode: Mode) -> Option<NodeId> {
        match mode {
            Mode::Seed => self.seed.get(pointer).copied(),
            Mode::Convention => self.convention.get(pointer).copied(),
        }
    }

    /// The node of the schema at `pointer` in the tree's file, in the convention reading.
    fn convention_root(&self, pointer: &str) -> Option<NodeId> {
        if pointer.is_empty() && self.convention_root.is_some() {
            return self.convention_root;
        }
        self.root(pointer, Mode::Convention)
    }

    /// Where node `at`'s schema is: its file's `$id` and its JSON Pointer there.
    fn location(&self, at: NodeId) -> Option<(&str, &str)> {
        let (file, pointer) = self.locations.get(at)?;
        Some((self.files.get(*file)?.as_str(), pointer.as_str()))
    }
}

/// One compiled schema.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Node {
    /// `true` or `{}`: every value is valid.
    Any,
    /// `false`: no value is valid.
    Never,
    /// `$ref` (its siblings are ignored, as draft-07 does).
    Ref(NodeId),
    /// A schema object with assertions.
    Schema(Box<Schema>),
}

/// The assertions of one schema object.
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Schema {
    types: Option<Types>,
    required: Vec<String>,
    /// `properties`, sorted by name for binary search.
    properties: Vec<(String, NodeId)>,
    /// `additionalProperties` when it is a schema (`true` and absent add nothing).
    additional: Option<NodeId>,
    items: Option<NodeId>,
    /// `enum`: the array as written (it is also the record's `expected`).
    #[serde(rename = "enum", deserialize_with = "present")]
    enumeration: Option<Value>,
    /// `const` (`null` included).
    #[serde(rename = "const", deserialize_with = "present")]
    constant: Option<Value>,
    /// `pattern` as written, until the tree is read ([`Tree::read`] looks it up).
    #[serde(rename = "pattern")]
    pattern_source: Option<String>,
    #[serde(skip)]
    pattern: Option<Arc<EcmaPattern>>,
    /// The first of the schema's `examples` that is a string: what a remediation of its pattern
    /// shows (an id of that kind, not the seed table's one example for every id).
    example: Option<String>,
    minimum: Option<Number>,
    maximum: Option<Number>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    format: Option<Format>,
    /// `if`, `then`, `else` (only kept when `then` or `else` is there).
    condition: Option<(NodeId, Option<NodeId>, Option<NodeId>)>,
    all_of: Vec<NodeId>,
    /// In the convention reading, when the object has an `x-convention`: its `x-source`, which
    /// names each convention's decision (the record quotes it).
    convention: Option<Map<String, Value>>,
    /// In the convention reading: `additionalProperties: false` among the conventions.
    closed: bool,
    /// Keywords whose value the interpreter cannot use, with the reason.
    #[serde(skip)]
    problems: Vec<(&'static str, String)>,
}

/// A member that is there, `null` included (serde reads a `null` `Option` as `None`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// `type`: the admitted JSON types as a bit set, and the keyword's value (the record's
/// `expected`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Types {
    mask: u8,
    declared: Value,
}

// The type bits, as the generator writes them (`schema_tree::types`).
const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const OBJECT: u8 = 4;
const ARRAY: u8 = 8;
const NUMBER: u8 = 16;
const INTEGER: u8 = 32;
const STRING: u8 = 64;

/// The `format`s the interpreter asserts. `uuid` is not a draft-07 format, so a draft-07
/// validator ignores it (the schemas pair it with a pattern), and the generator leaves it out.
#[derive(Clone, Copy, Deserialize)]
enum Format {
    #[serde(rename = "date")]
    Date,
    #[serde(rename = "date-time")]
    DateTime,
    #[serde(rename = "uri")]
    Uri,
    #[serde(rename = "uri-reference")]
    UriReference,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Self::Date => "date",
            Self::DateTime => "date-time",
            Self::Uri => "uri",
            Self::UriReference => "uri-reference",
        }
    }

    /// Why `text` does not have this format, or `None` when it has.
    fn problem(self, text: &str) -> Option<String> {
        match self {
            Self::Date => text.parse::<Date>().err().map(|e| e.reason().to_owned()),
            Self::DateTime => text.parse::<DateTime>().err().map(|e| e.reason().to_owned()),
            Self::UriReference => crate::__private::uri_reference(text, &()).err().map(|e| e.to_string()),
            Self::Uri => crate::__private::uri(text, &()).err().map(|e| e.to_string()),
        }
    }
}

/// The tree of the registry entry `info`, read on first use (every document asks, so no name is
/// compared); `None` when `info` is no entry of the registry.
fn built_in_tree(info: &'static SchemaInfo) -> Option<&'static Result<Tree, String>> {
    static TREES: OnceLock<Vec<OnceLock<Result<Tree, String>>>> = OnceLock::new();
    let schemas = registry::schemas();
    let trees = TREES.get_or_init(|| schemas.iter().map(|_| OnceLock::new()).collect());
    // The entry's place in the registry, from its address (no search: every document asks).
    let size = std::mem::size_of::<SchemaInfo>().max(1);
    let offset = std::ptr::from_ref(info).addr().wrapping_sub(schemas.as_ptr().addr());
    let index = Some(offset / size)
        .filter(|&index| offset.is_multiple_of(size) && schemas.get(index).is_some_and(|s| std::ptr::eq(s, info)))
        .or_else(|| schemas.iter().position(|s| s.path == info.path))?;
    Some(trees.get(index)?.get_or_init(|| Tree::read(Catalogue::built_in(), index)))
}

/// The tree of the registry entry `info`, when it reads.
fn tree_of(info: &'static SchemaInfo) -> Option<&'static Tree> {
    built_in_tree(info)?.as_ref().ok()
}

/// The pattern written `source`, read once per process from the DFA the generator built for it
/// (`patterns`: the catalogue's table, which holds every pattern of its schemas).
fn pattern(patterns: &'static PatternTable, source: String) -> Result<Arc<EcmaPattern>, String> {
    static PATTERNS: OnceLock<Mutex<HashMap<String, Arc<EcmaPattern>>>> = OnceLock::new();
    let mut cache = PATTERNS.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(read) = cache.get(&source) {
        return Ok(Arc::clone(read));
    }
    let Some(read) = patterns.find(&source) else {
        return Err(format!(
            "pattern {source:?} is not in the catalogue's pattern table: the generator builds every schema pattern's DFA"
        ));
    };
    if let Some(problem) = read.problem() {
        return Err(format!("pattern {source:?} cannot be matched: {problem}"));
    }
    let read = Arc::new(read);
    cache.insert(source, Arc::clone(&read));
    Ok(read)
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/// Where a value is in the document: built on the stack as validation descends, turned into a
/// JSON Pointer only for a violation.
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// The JSON Pointer of this place.
    fn pointer(&self) -> String {
        let mut tokens = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Root => break,
                Path::Key(parent, key) => {
                    tokens.push(jerry_contracts_pointer::escape(key).into_owned());
                    at = parent;
                }
                Path::Index(parent, index) => {
                    tokens.push(index.to_string());
                    at = parent;
                }
            }
        }
        tokens.iter().rev().fold(String::new(), |mut pointer, token| {
            pointer.push('/');
            pointer.push_str(token);
            pointer
        })
    }
}

/// One violation, before it becomes a record.
struct Violation {
    code: &'static Code,
    keyword: &'static str,
    /// Where the keyword is: the schema file's `$id`, `#` and the keyword's JSON Pointer.
    location: String,
    pointer: String,
    message: String,
    expected: Value,
    actual: Value,
    /// What to do, when the keyword's own schema says more than the catalogue's remediation.
    remediation: Option<String>,
}

impl Violation {
    /// A violation of `keyword` at `path` (the place is the record's `path`, never part of
    /// `message`); its schema location is set by [`Tree::locate`].
    fn new(
        code: &'static Code,
        keyword: &'static str,
        path: &Path<'_>,
        message: String,
        expected: Value,
        actual: Value,
    ) -> Self {
        Self {
            code,
            keyword,
            location: String::new(),
            pointer: path.pointer(),
            message,
            expected,
            actual,
            remediation: None,
        }
    }

    /// This violation with its own remediation.
    fn remedied(mut self, remediation: String) -> Self {
        self.remediation = Some(remediation);
        self
    }

    fn into_record(self) -> ErrorRecord {
        let mut record =
            with_values(record(self.code, &self.pointer, self.message), Some(self.expected), Some(self.actual));
        record.keyword_location = Some(self.location);
        if let Some(remediation) = self.remediation {
            record.remediation = Some(remediation);
        }
        // A keyword name always serialises.
        let _ = record.extra.insert("keyword", self.keyword);
        record
    }
}

impl Schema {
    /// Whether the string `text` keeps every assertion of this object, judged as
    /// [`Tree::eval_schema`] judges a string (the convention layer's walk of the bytes asks, for
    /// the strings a convention applies to).
    fn text_kept(&self, text: &str) -> bool {
        if self.condition.is_some() || !self.all_of.is_empty() || !self.problems.is_empty() {
            return false;
        }
        if self.types.as_ref().is_some_and(|types| types.mask & STRING == 0) {
            return false;
        }
        if let Some(allowed) = &self.enumeration
            && !allowed.as_array().is_some_and(|values| values.iter().any(|v| v.as_str() == Some(text)))
        {
            return false;
        }
        if let Some(constant) = &self.constant
            && constant.as_str() != Some(text)
        {
            return false;
        }
        if self.pattern.as_ref().is_some_and(|pattern| !pattern.is_match(text)) {
            return false;
        }
        if self.min_length.is_some() || self.max_length.is_some() {
            // Without a maximum, counting stops at the minimum (`minLength: 1` reads one char).
            let length = match (self.min_length, self.max_length) {
                (Some(min), None) => text.chars().take(usize::try_from(min).unwrap_or(usize::MAX)).count(),
                _ => text.chars().count(),
            };
            let length = u64::try_from(length).unwrap_or(u64::MAX);
            if self.min_length.is_some_and(|min| length < min) || self.max_length.is_some_and(|max| length > max) {
                return false;
            }
        }
        if self.format.is_some_and(|format| format.problem(text).is_some()) {
            return false;
        }
        true
    }

    /// `violation` as this object reports it: unchanged in the seed reading; in the convention
    /// reading, with the convention code of its keyword and the decision that makes it.
    fn conventional(&self, mut violation: Violation) -> Violation {
        let Some(sources) = &self.convention else { return violation };
        violation.code = convention_of(violation.code);
        // The keyword a convention asserts is written under the object's `x-convention`.
        if let Some(object) =
            violation.location.strip_suffix(&format!("/{}", jerry_contracts_pointer::escape(violation.keyword)))
        {
            violation.location =
                format!("{object}/x-convention/{}", jerry_contracts_pointer::escape(violation.keyword));
        }
        let source = match sources.get(violation.keyword) {
            Some(Value::String(source)) => Some(source.as_str()),
            // `required` may cite a source per property; the record's `expected` is the name.
            Some(Value::Object(per_name)) => violation.expected.as_str().and_then(|name| per_name.get(name)?.as_str()),
            _ => None,
        };
        violation.message = match source {
            Some(source) => format!("{} ({source}; the seeds do not state it)", violation.message),
            None => format!("{} (a convention; the seeds do not state it)", violation.message),
        };
        violation
    }
}

/// The convention code that mirrors the schema code `code` (the same keyword, judged against a
/// convention), or `code` itself when no convention mirrors it.
fn convention_of(code: &'static Code) -> &'static Code {
    match code.code {
        "SCH-001" => &codes::CNV_MISSING,
        "SCH-003" => &codes::CNV_PATTERN,
        "SCH-004" => &codes::CNV_RANGE,
        "SCH-005" => &codes::CNV_LENGTH,
        "SCH-006" => &codes::CNV_ITEM_COUNT,
        "SCH-007" => &codes::CNV_ENUM,
        "SCH-008" => &codes::CNV_CONST,
        "SCH-009" => &codes::CNV_FORMAT,
        "SCH-010" => &codes::CNV_UNIQUE,
        _ => code,
    }
}

/// Where violations go: a list, or nowhere (when only validity matters, as for `if`).
trait Sink {
    /// True when violations are not kept: validation stops at the first.
    const SILENT: bool;
    /// Keeps the violation `make` builds.
    fn push(&mut self, make: impl FnOnce() -> Violation);
}

/// A sink that keeps the first `room` violations and counts the others (without building them).
struct Capped {
    kept: Vec<Violation>,
    room: usize,
    omitted: usize,
}

impl Sink for Capped {
    const SILENT: bool = false;
    fn push(&mut self, make: impl FnOnce() -> Violation) {
        if self.kept.len() < self.room {
            self.kept.push(make());
        } else {
            self.omitted = self.omitted.saturating_add(1);
        }
    }
}

/// A sink that keeps nothing.
struct Silent;

impl Sink for Silent {
    const SILENT: bool = true;
    fn push(&mut self, _make: impl FnOnce() -> Violation) {}
}

impl Tree {
    /// `violation` with its schema location: node `at`'s file `$id` and pointer, then the
    /// keyword (none for a `false` schema or the depth limit, which are the node itself).
    fn locate(&self, at: NodeId, mut violation: Violation) -> Violation {
        if let Some((id, pointer)) = self.location(at) {
            violation.location = match violation.keyword {
                "falseSchema" | "maxDepth" => format!("{id}#{pointer}"),
                keyword => format!("{id}#{pointer}/{}", jerry_contracts_pointer::escape(keyword)),
            };
        }
        violation
    }

    /// Validates `value` (at `path`) against node `id`, `depth` schema levels down; true when
    /// valid.
    fn eval<S: Sink>(&self, id: NodeId, value: &Value, path: &Path<'_>, depth: usize, sink: &mut S) -> bool {
        if depth > MAX_DEPTH {
            sink.push(|| {
                self.locate(
                    id,
                    Violation::new(
                        &codes::SCH_WRONG_TYPE,
                        "maxDepth",
                        path,
                        format!("the schema nests more than {MAX_DEPTH} levels here; the value was not validated"),
                        Value::from(MAX_DEPTH),
                        Value::from(MAX_DEPTH + 1),
                    ),
                )
            });
            return false;
        }
        match self.nodes.get(id) {
            None | Some(Node::Any) => true,
            Some(Node::Never) => {
                sink.push(|| {
                    self.locate(
                        id,
                        Violation::new(
                            &codes::SCH_WRONG_TYPE,
                            "falseSchema",
                            path,
                            format!("no value is allowed here, {} found", preview(value)),
                            Value::Bool(false),
                            bounded(value, COPY_DEPTH),
                        ),
                    )
                });
                false
            }
            Some(Node::Ref(target)) => self.eval(*target, value, path, depth + 1, sink),
            Some(Node::Schema(schema)) => self.eval_schema(id, schema, value, path, depth, sink),
        }
    }

    /// Validates `value` against every assertion of `schema`.
    fn eval_schema<S: Sink>(
        &self,
        at: NodeId,
        s: &Schema,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        sink: &mut S,
    ) -> bool {
        let mut valid = true;
        // Records a failure; a silent sink needs no more than one.
        macro_rules! fail {
            ($make:expr) => {{
                valid = false;
                if S::SILENT {
                    return false;
                }
                let make = $make;
                sink.push(|| s.conventional(self.locate(at, make())));
            }};
        }
        // Applies a child schema.
        macro_rules! descend {
            ($id:expr, $value:expr, $path:expr) => {{
                if !self.eval($id, $value, $path, depth + 1, sink) {
                    valid = false;
                    if S::SILENT {
                        return false;
                    }
                }
            }};
        }

        for (keyword, reason) in &s.problems {
            fail!(|| Violation::new(
                &codes::SCH_UNKNOWN_SCHEMA,
                keyword,
                path,
                format!("the schema cannot be applied: {reason}"),
                Value::Null,
                Value::Null,
            ));
        }
        if let Some(types) = &s.types
            && !admits(types.mask, value)
        {
            fail!(|| Violation::new(
                &codes::SCH_WRONG_TYPE,
                "type",
                path,
                format!("{} is {}, not of type {}", preview(value), kind(value), type_names(&types.declared)),
                types.declared.clone(),
                bounded(value, COPY_DEPTH),
            ));
        }
        if let Some(allowed) = &s.enumeration
            && !allowed.as_array().is_some_and(|values| values.iter().any(|v| equal(v, value)))
        {
            fail!(|| Violation::new(
                &codes::SCH_ENUM,
                "enum",
                path,
                format!("{} is not one of {}", preview(value), preview(allowed)),
                allowed.clone(),
                bounded(value, COPY_DEPTH),
            ));
        }
        if let Some(constant) = &s.constant
            && !equal(constant, value)
        {
            fail!(|| Violation::new(
                &codes::SCH_CONST,
                "const",
                path,
                format!("{} is not the constant {}", preview(value), preview(constant)),
                constant.clone(),
                bounded(value, COPY_DEPTH),
            ));
        }
        match value {
            Value::String(text) => {
                if let Some(pattern) = &s.pattern
                    && !pattern.is_match(text)
                {
                    fail!(|| Violation::new(
                        &codes::SCH_PATTERN,
                        "pattern",
                        path,
                        format!("{} does not match {}", preview(value), pattern.source()),
                        Value::from(pattern.source()),
                        bounded(value, COPY_DEPTH),
                    )
                    .remedied(match &s.example {
                        Some(example) => format!("Write it in the form {} (e.g., {example})", pattern.source()),
                        None => format!("Write it so that it matches {}", pattern.source()),
                    }));
                }
                if s.min_length.is_some() || s.max_length.is_some() {
                    let length = u64::try_from(text.chars().count()).unwrap_or(u64::MAX);
                    if let Some(min) = s.min_length
                        && length < min
                    {
                        fail!(|| Violation::new(
                            &codes::SCH_LENGTH,
                            "minLength",
                            path,
                            format!("{} has {length} characters, fewer than the minimum of {min}", preview(value)),
                            Value::from(min),
                            bounded(value, COPY_DEPTH),
                        ));
                    }
                    if let Some(max) = s.max_length
                        && length > max
                    {
                        fail!(|| Violation::new(
                            &codes::SCH_LENGTH,
                            "maxLength",
                            path,
                            format!("{} has {length} characters, more than the maximum of {max}", preview(value)),
                            Value::from(max),
                            bounded(value, COPY_DEPTH),
                        ));
                    }
                }
                if let Some(format) = s.format
                    && let Some(reason) = format.problem(text)
                {
                    fail!(|| Violation::new(
                        &codes::SCH_FORMAT,
                        "format",
                        path,
                        format!("{} is not a valid {}: {reason}", preview(value), format.name()),
                        Value::from(format.name()),
                        bounded(value, COPY_DEPTH),
                    ));
                }
            }
            Value::Number(number) => {
                if let Some(min) = &s.minimum
                    && compare(number, min) == Ordering::Less
                {
                    fail!(|| Violation::new(
                        &codes::SCH_RANGE,
                        "minimum",
                        path,
                        format!("{number} is less than the minimum of {min}"),
                        Value::Number(min.clone()),
                        value.clone(),
                    ));
                }
                if let Some(max) = &s.maximum
                    && compare(number, max) == Ordering::Greater
                {
                    fail!(|| Violation::new(
                        &codes::SCH_RANGE,
                        "maximum",
                        path,
                        format!("{number} is greater than the maximum of {max}"),
                        Value::Number(max.clone()),
                        value.clone(),
                    ));
                }
            }
            Value::Array(items) => {
                let count = u64::try_from(items.len()).unwrap_or(u64::MAX);
                if let Some(min) = s.min_items
                    && count < min
                {
                    fail!(|| Violation::new(
                        &codes::SCH_ITEM_COUNT,
                        "minItems",
                        path,
                        format!("the array has {count} items, fewer than the minimum of {min}"),
                        Value::from(min),
                        bounded(value, COPY_DEPTH),
                    ));
                }
                if let Some(max) = s.max_items
                    && count > max
                {
                    fail!(|| Violation::new(
                        &codes::SCH_ITEM_COUNT,
                        "maxItems",
                        path,
                        format!("the array has {count} items, more than the maximum of {max}"),
                        Value::from(max),
                        bounded(value, COPY_DEPTH),
                    ));
                }
                if s.unique_items
                    && let Some((earlier, later)) = first_repeat(items)
                {
                    fail!(|| Violation::new(
                        &codes::SCH_UNIQUE,
                        "uniqueItems",
                        path,
                        format!(
                            "items {earlier} and {later} are equal ({})",
                            items.get(later).map_or_else(String::new, preview)
                        ),
                        Value::Bool(true),
                        bounded(value, COPY_DEPTH),
                    ));
                }
                if let Some(item_schema) = s.items {
                    for (index, item) in items.iter().enumerate() {
                        descend!(item_schema, item, &Path::Index(path, index));
                    }
                }
            }
            Value::Object(object) => {
                if s.closed {
                    for name in object.keys() {
                        if s.properties.binary_search_by(|(declared, _)| (*declared).cmp(name)).is_err() {
                            fail!(|| Violation::new(
                                &codes::CNV_UNDECLARED,
                                "additionalProperties",
                                &Path::Key(path, name),
                                format!("the member {name:?} is not declared"),
                                Value::Bool(false),
                                Value::from(name.as_str()),
                            ));
                        }
                    }
                }
                for name in &s.required {
                    if !object.contains_key(name.as_str()) {
                        fail!(|| Violation::new(
                            &codes::SCH_MISSING_REQUIRED,
                            "required",
                            path,
                            format!("the required property {name:?} is missing"),
                            Value::from(name.as_str()),
                            bounded(value, 1),
                        ));
                    }
                }
                match s.additional {
                    None => {
                        for (name, id) in &s.properties {
                            if let Some(property) = object.get(name.as_str()) {
                                descend!(*id, property, &Path::Key(path, name));
                            }
                        }
                    }
                    Some(additional) => {
                        for (name, property) in object {
                            let id = match s.properties.binary_search_by(|(declared, _)| (*declared).cmp(name)) {
                                Ok(found) => s.properties.get(found).map_or(additional, |(_, id)| *id),
                                Err(_) => additional,
                            };
                            descend!(id, property, &Path::Key(path, name));
                        }
                    }
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
        if let Some((condition, then, otherwise)) = s.condition {
            let branch = if self.eval(condition, value, path, depth + 1, &mut Silent) { then } else { otherwise };
            if let Some(branch) = branch {
                descend!(branch, value, path);
            }
        }
        for &id in &s.all_of {
            descend!(id, value, path);
        }
        valid
    }
}

// ---------------------------------------------------------------------------------------------
// JSON values: types, equality, order, previews
// ---------------------------------------------------------------------------------------------

/// Whether `value` has one of the types in `mask`. An integer is a number with no fractional
/// part, `1.0` included.
fn admits(mask: u8, value: &Value) -> bool {
    let bit = match value {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Object(_) => OBJECT,
        Value::Array(_) => ARRAY,
        Value::String(_) => STRING,
        Value::Number(number) => {
            return mask & NUMBER != 0 || (mask & INTEGER != 0 && is_integer(number));
        }
    };
    mask & bit != 0
}

fn is_integer(number: &Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// The JSON type of `value`, for messages (`integer` for a number with no fractional part).
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Object(_) => "an object",
        Value::Array(_) => "an array",
        Value::String(_) => "a string",
        Value::Number(number) if is_integer(number) => "an integer",
        Value::Number(_) => "a number",
    }
}

/// `"string"` or `"string" or "null"`, from a `type` value.
fn type_names(declared: &Value) -> String {
    match declared {
        Value::Array(names) => names.iter().map(ToString::to_string).collect::<Vec<_>>().join(" or "),
        other => other.to_string(),
    }
}

/// A number as an integer, if it is stored as one.
fn integer(number: &Number) -> Option<i128> {
    number.as_i64().map(i128::from).or_else(|| number.as_u64().map(i128::from))
}

/// JSON equality of numbers: `1 == 1.0`.
fn numbers_equal(a: &Number, b: &Number) -> bool {
    compare(a, b) == Ordering::Equal
}

/// Orders two numbers exactly (an integer past 2^53 against a float included).
fn compare(a: &Number, b: &Number) -> Ordering {
    match (integer(a), integer(b), a.as_f64(), b.as_f64()) {
        (Some(x), Some(y), _, _) => x.cmp(&y),
        (Some(x), None, _, Some(y)) => compare_integer_float(x, y),
        (None, Some(y), Some(x), _) => compare_integer_float(y, x).reverse(),
        (_, _, Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => Ordering::Equal,
    }
}

/// Orders an integer and a (finite) float exactly.
fn compare_integer_float(integer: i128, float: f64) -> Ordering {
    // 2^127: beyond it no i128 reaches.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if float >= LIMIT {
        return Ordering::Less;
    }
    if float < -LIMIT {
        return Ordering::Greater;
    }
    let whole = float.trunc();
    // In range, and integral: the conversion is exact.
    #[allow(clippy::cast_possible_truncation)]
    let whole_integer = whole as i128;
    integer.cmp(&whole_integer).then_with(|| {
        if float > whole {
            Ordering::Less
        } else if float < whole {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    })
}

/// JSON equality (`1 == 1.0`, exact even past 2^53; objects regardless of key order), without
/// recursion, so a deeply nested value cannot exhaust the stack. JSON Schema's notion of equal,
/// as `enum`, `const` and `uniqueItems` use it.
pub fn equal(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some(pair) = pending.pop() {
        match pair {
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            (Value::Number(x), Value::Number(y)) if numbers_equal(x, y) => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => pending.extend(x.iter().zip(y)),
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (key, x_value) in x {
                    match y.get(key) {
                        Some(y_value) => pending.push((x_value, y_value)),
                        None => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// What equal values have in common, at the top level: items are compared in full only when
/// their prints agree.
#[derive(PartialEq, Eq, Hash)]
enum Print<'a> {
    Null,
    Bool(bool),
    /// The number's value as an `f64` (equal numbers have equal `f64`s; `-0.0` is `0.0`).
    Number(u64),
    String(&'a str),
    Array(usize),
    Object(usize),
}

fn print(value: &Value) -> Print<'_> {
    match value {
        Value::Null => Print::Null,
        Value::Bool(b) => Print::Bool(*b),
        Value::Number(n) => Print::Number(n.as_f64().map_or(0, |f| if f == 0.0 { 0 } else { f.to_bits() })),
        Value::String(s) => Print::String(s),
        Value::Array(items) => Print::Array(items.len()),
        Value::Object(map) => Print::Object(map.len()),
    }
}

/// The first repeated item of `items`: `(earlier, later)` with `later` as small as possible.
fn first_repeat(items: &[Value]) -> Option<(usize, usize)> {
    let mut seen: HashMap<Print<'_>, Vec<usize>> = HashMap::new();
    for (later, item) in items.iter().enumerate() {
        let candidates = seen.entry(print(item)).or_default();
        if let Some(&earlier) = candidates.iter().find(|&&i| items.get(i).is_some_and(|other| equal(other, item))) {
            return Some((earlier, later));
        }
        candidates.push(later);
    }
    None
}

/// A copy of `value` for a record's `actual`: strings past [`ACTUAL_CHARS`] characters are cut
/// (ending in `…`), and arrays and objects are copied `depth` levels deep and [`COPY_ENTRIES`]
/// entries wide, the rest summarised in a string.
fn bounded(value: &Value, depth: usize) -> Value {
    match value {
        Value::String(text) => Value::String(shortened(text, ACTUAL_CHARS)),
        Value::Array(items) if depth == 0 => Value::String(format!("[… {} items]", items.len())),
        Value::Object(map) if depth == 0 => Value::String(format!("{{… {} properties}}", map.len())),
        Value::Array(items) => {
            let mut copy: Vec<Value> = items.iter().take(COPY_ENTRIES).map(|v| bounded(v, depth - 1)).collect();
            if items.len() > COPY_ENTRIES {
                copy.push(Value::String(format!("… {} more items", items.len() - COPY_ENTRIES)));
            }
            Value::Array(copy)
        }
        Value::Object(map) => {
            let mut copy: Map<String, Value> = map
                .iter()
                .take(COPY_ENTRIES)
                .map(|(k, v)| (shortened(k, ACTUAL_CHARS), bounded(v, depth - 1)))
                .collect();
            if map.len() > COPY_ENTRIES {
                copy.insert("…".to_owned(), Value::String(format!("{} more properties", map.len() - COPY_ENTRIES)));
            }
            Value::Object(copy)
        }
        other => other.clone(),
    }
}

/// `value` as compact JSON for a message, at most about [`PREVIEW_CHARS`] characters.
fn preview(value: &Value) -> String {
    let text = match value {
        Value::String(text) => Value::String(shortened(text, PREVIEW_CHARS)).to_string(),
        other => bounded(other, 2).to_string(),
    };
    shortened(&text, PREVIEW_CHARS + 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_exactly() {
        let n = |v: Value| v.as_number().cloned().unwrap_or_else(|| Number::from(0));
        assert_eq!(compare(&n(json!(1)), &n(json!(1.0))), Ordering::Equal);
        assert_eq!(compare(&n(json!(1)), &n(json!(1.5))), Ordering::Less);
        assert_eq!(compare(&n(json!(-1)), &n(json!(-1.5))), Ordering::Greater);
        assert_eq!(
            compare(&n(json!(9_007_199_254_740_993_u64)), &n(json!(9_007_199_254_740_992.0))),
            Ordering::Greater
        );
        assert_eq!(compare(&n(json!(u64::MAX)), &n(json!(1e300))), Ordering::Less);
        assert!(equal(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!equal(&json!([1]), &json!([1, 1])));
    }

    #[test]
    fn a_tree_that_is_not_whole_is_refused_not_walked() {
        let built_in = Catalogue::built_in();
        let with = |text: String| Catalogue { trees: Box::leak(Box::new(SchemaTrees(text.leak()))), ..built_in };
        let good = built_in.trees.line(0).expect("a tree a schema file");
        assert!(Tree::read(built_in, 0).is_ok());
        let refused = |catalogue: Catalogue| Tree::read(catalogue, 0).err().unwrap_or_default();
        assert!(refused(with("not json".into())).contains("does not read"));
        let edited = |edit: &dyn Fn(&mut Value)| {
            let mut tree: Value = serde_json::from_str(good).unwrap_or_default();
            edit(&mut tree);
            with(tree.to_string())
        };
        assert!(refused(edited(&|t| t["nodes"][0] = json!({"ref": 1_000_000}))).contains("does not have"));
        assert!(refused(edited(&|t| t["seed"][""] = json!(1_000_000))).contains("does not have"));
        assert!(refused(edited(&|t| t["locations"][0][0] = json!(99))).contains("does not have"));
        assert!(refused(edited(&|t| t["path"] = json!("elsewhere.json"))).contains("in "));
        // A member the reader does not know: the writer and the reader disagree.
        assert!(refused(edited(&|t| t["nodes"][0] = json!({"schema": {"multiple_of": 2}}))).contains("does not read"));
        assert!(Tree::read(built_in, registry::schemas().len()).err().unwrap_or_default().contains("no compiled tree"));

        // Another catalogue whose tree does not read: the schema layer says so, nothing passes.
        let schemas: &'static [SchemaInfo] = Box::leak(registry::schemas().to_vec().into_boxed_slice());
        let broken = Catalogue { schemas, ..with("not json\n".repeat(schemas.len())) };
        let info = schemas.iter().find(|s| s.path == "common/types.json").expect("the common types");
        let mut report = Report::default();
        check(broken, info, &json!({}), &mut report);
        assert_eq!(report.codes(), ["SCH-011"], "{:?}", report.records);
        assert!(report.records.iter().all(|r| r.message.contains("cannot be interpreted: the compiled tree")));
        // The convention layer does not skip what it cannot read: it says so, once.
        assert!(has_conventions(broken, info, ""));
        conventions(broken, info, "", &json!({}), false, &mut report);
        assert_eq!(report.codes(), ["SCH-011"], "said once: {:?}", report.records);
        let mut alone = Report::default();
        conventions(broken, info, "", &json!({}), false, &mut alone);
        assert_eq!(alone.codes(), ["SCH-011"], "{:?}", alone.records);
        assert!(!alone.is_valid());
    }

    #[test]
    fn repeats_and_references() {
        assert_eq!(first_repeat(&[json!("a"), json!(1), json!(0.0), json!(1.0), json!(-0.0)]), Some((1, 3)));
        assert_eq!(first_repeat(&[json!([1]), json!([2]), json!({"a": 1})]), None);
        assert!(crate::__private::has_scheme("https://x") && !crate::__private::has_scheme("a/b:c"));
    }
}
