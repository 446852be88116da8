//! Documents that show a change: one valid under one version of a schema and invalid under the
//! other, found by search and confirmed by a real validator (the `jsonschema` crate, draft-07,
//! formats asserted), never assumed from a change's kind.
//!
//! A [`Version`] is one schema file with every document its `$ref`s reach, read from beside it
//! (a reference resolved against the schema's `$id` is looked up at the same relative place
//! from the file). [`find`] places a change's schema location in the instance (`properties/x`
//! is member `x`, `items` an item, `definitions/D` an instance of that definition), generates
//! documents the accepting version takes (the required members only, then every declared one),
//! and tries edits at that place: values drawn from both versions' keywords there (bounds and
//! their neighbours, lengths, enum values, pattern samples, formats, one value of each type),
//! members removed and added, items added and removed. The first edit the accepting version
//! takes and the other refuses is the witness. The search is bounded (a few thousand
//! validations at most); finding none proves nothing, which the caller says.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::diff::{self, DiffError, Openness};

/// Draws the `n`-th string an ECMA-262 pattern matches (`None` when it cannot); the command
/// passes the library's `examples::shortest_variant`.
pub type PatternSampler = fn(&str, usize) -> Option<String>;

/// How many documents a version's references may reach.
const MAX_DOCUMENTS: usize = 256;
/// How many bytes the referenced files may hold together.
const MAX_TOTAL_BYTES: u64 = 64 << 20;
/// How many candidate documents one search judges at most.
const MAX_CANDIDATES: usize = 2_000;
/// How many edits of one document are made at most.
const MAX_EDITS: usize = 1_000;
/// How many schema nodes one check for undeclared members follows at most.
const UNDECLARED_STEPS: usize = 20_000;
/// How many values a generated document holds at most.
const MAX_VALUES: usize = 2_000;
/// How deep generation follows a schema.
const MAX_DEPTH: usize = 24;
/// The longest string or list generated for a bound.
const MAX_SIZE: u64 = 4_096;

/// What is allowed of members an open object does not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Undeclared {
    /// Outside the contract (seed 000 §7.1: a new optional field is a backward-compatible
    /// addition): a witness carries only the members its accepting version declares wherever an
    /// object declares any.
    Outside,
    /// Instances like any other (the registries' reading): a witness may carry any member an
    /// open object accepts, so declaring a constrained property on an open object can refuse an
    /// old document.
    Any,
}

impl Undeclared {
    /// Both rules, the default first.
    pub const ALL: [Undeclared; 2] = [Undeclared::Outside, Undeclared::Any];

    /// `"outside"` or `"any"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Outside => "outside",
            Self::Any => "any",
        }
    }
}

/// One version of a schema, ready to judge documents.
pub struct Version {
    /// The file, as given.
    pub path: PathBuf,
    /// The schema.
    pub schema: Value,
    /// The URI the schema's references resolve against: its `$id`, else its file's URI.
    base: String,
    /// Every document reached, by URI (the schema itself under `base`).
    documents: Arc<BTreeMap<String, Value>>,
    /// References that could not be read, each with why.
    pub unresolved: Vec<String>,
    /// The validator of the whole schema, or why none could be built.
    validator: Result<jsonschema::Validator, String>,
}

impl std::fmt::Debug for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Version").field("path", &self.path).field("base", &self.base).finish_non_exhaustive()
    }
}

/// Serves the documents a version reached to the validator; nothing is fetched.
struct Documents(Arc<BTreeMap<String, Value>>);

impl jsonschema::Retrieve for Documents {
    fn retrieve(&self, uri: &jsonschema::Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let text = uri.as_str();
        let document = text.split('#').next().unwrap_or(text);
        self.0.get(document).cloned().ok_or_else(|| format!("{document} was not found beside the schema").into())
    }
}

impl Version {
    /// Reads the schema at `path` and every document its references reach.
    pub fn load(path: &Path) -> Result<Self, DiffError> {
        let schema = diff::load(path)?;
        let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        let base = diff::base_document(&schema).unwrap_or_else(|| crate::uri::file_uri(&absolute));
        let mut documents = BTreeMap::new();
        documents.insert(base.clone(), schema.clone());
        let mut unresolved = Vec::new();
        let mut queue = vec![base.clone()];
        let mut total = 0u64;
        while let Some(uri) = queue.pop() {
            let Some(document) = documents.get(&uri) else { continue };
            let own = diff::base_document(document).unwrap_or_else(|| uri.clone());
            let mut references = Vec::new();
            diff::collect_refs(document, &mut references);
            let targets: BTreeSet<String> =
                references.into_iter().map(|r| diff::resolve(Some(&own), r).0).filter(|d| !d.is_empty()).collect();
            for target in targets {
                if documents.contains_key(&target) {
                    continue;
                }
                if documents.len() >= MAX_DOCUMENTS {
                    unresolved.push(format!("{target}: more than {MAX_DOCUMENTS} documents are referenced"));
                    continue;
                }
                let read = locate(&base, &absolute, &target)
                    .ok_or_else(|| "no file beside the schema".to_owned())
                    .and_then(|file| {
                        total = total.saturating_add(std::fs::metadata(&file).map_or(0, |m| m.len()));
                        if total > MAX_TOTAL_BYTES {
                            return Err(format!("the referenced files pass {MAX_TOTAL_BYTES} bytes together"));
                        }
                        diff::load(&file).map_err(|e| e.to_string())
                    });
                match read {
                    Ok(value) => {
                        if let Some(id) = diff::base_document(&value).filter(|id| !documents.contains_key(id)) {
                            documents.insert(id, value.clone());
                        }
                        documents.insert(target.clone(), value);
                        queue.push(target);
                    }
                    Err(why) => unresolved.push(format!("{target}: {why}")),
                }
            }
        }
        let documents = Arc::new(documents);
        let validator = build(&schema, &documents);
        Ok(Self { path: path.to_owned(), schema, base, documents, unresolved, validator })
    }

    /// The validator of the schema at `target` (`""`, or `/definitions/NAME`).
    fn validator_for(&self, target: &str) -> Result<jsonschema::Validator, String> {
        let fragment: String = target
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "/-._~".contains(c) {
                    c.to_string()
                } else {
                    format!("%{:02X}", c as u32)
                }
            })
            .collect();
        if !target.is_ascii() {
            return Err(format!("{target}: a definition named outside ASCII cannot be judged alone"));
        }
        build(&json!({ "$ref": format!("{}#{fragment}", self.base) }), &self.documents)
    }

    /// The schema node at `pointer` of the document `base`, its references followed.
    fn node<'a>(&'a self, base: &str, pointer: &str) -> Option<(String, &'a Value)> {
        let document = self.documents.get(base)?;
        Some((base.to_owned(), document.pointer(pointer)?))
    }

    /// `node` with its `$ref`s followed (at most 32), and the base it now resolves against.
    fn resolved<'a>(&'a self, mut base: String, mut node: &'a Value) -> Option<(String, &'a Value)> {
        for _ in 0..32 {
            let Some(reference) = node.get("$ref").and_then(Value::as_str) else { return Some((base, node)) };
            let own = self.documents.get(&base).and_then(diff::base_document).unwrap_or(base.clone());
            let (document, pointer) = diff::resolve(Some(&own), reference);
            let document = if document.is_empty() { base.clone() } else { document };
            let (b, n) = self.node(&document, &pointer)?;
            base = b;
            node = n;
        }
        None
    }
}

/// A validator over `schema`, references served from `documents`.
fn build(schema: &Value, documents: &Arc<BTreeMap<String, Value>>) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .with_retriever(Documents(documents.clone()))
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The file at `target`'s place relative to the schema: the schema's URI `base` is at `file`,
/// so a document at `../common/types.json` from it is at the same relative place from the file.
fn locate(base: &str, file: &Path, target: &str) -> Option<PathBuf> {
    let mut base_dir = base.get(..=base.rfind('/')?)?.to_owned();
    let mut dir = file.parent()?.to_path_buf();
    for _ in 0..64 {
        if let Some(rest) = target.strip_prefix(&base_dir) {
            let rest = jerry_contracts_pointer::percent_decode(rest).ok()?;
            if rest.split('/').any(|segment| segment == "..") {
                return None;
            }
            return Some(dir.join(rest.as_ref()));
        }
        // One level up, while the URI keeps a path below its authority.
        let trimmed = base_dir.strip_suffix('/')?;
        let cut = trimmed.rfind('/')?;
        if trimmed.get(..cut)?.ends_with('/') {
            return None;
        }
        base_dir = trimmed.get(..=cut)?.to_owned();
        dir = dir.parent()?.to_path_buf();
    }
    None
}

/// A document that shows a change.
#[derive(Debug, Clone, PartialEq)]
pub struct Witness {
    /// The document.
    pub document: Value,
    /// What it is an instance of: `""` for the schema, `/definitions/NAME` for a definition.
    pub target: String,
    /// Why the refusing version refuses it: its first error, at its instance pointer.
    pub reason: String,
}

/// One step from an instance to a value inside it.
#[derive(Debug, Clone)]
enum Step {
    Member(String),
    Index(usize),
}

/// Where a schema location reaches into instances: the target (schema or definition), the
/// steps from its instance, and each version's schema node along the way.
struct Place<'a> {
    target: String,
    steps: Vec<Step>,
    /// The accepting version's node at each step's value (`None` where it has none).
    accepting: Vec<Option<(String, &'a Value)>>,
    /// Both versions' nodes at the place itself.
    at: [Option<(String, &'a Value)>; 2],
}

/// Follows a change's schema pointer through both versions to the instance place it governs.
fn place<'a>(pointer: &str, accepting: &'a Version, refusing: &'a Version) -> Option<Place<'a>> {
    let tokens: Vec<String> =
        jerry_contracts_pointer::tokens(pointer).ok()?.into_iter().map(|t| t.into_owned()).collect();
    let mut nodes: [Option<(String, &Value)>; 2] =
        [Some((accepting.base.clone(), &accepting.schema)), Some((refusing.base.clone(), &refusing.schema))];
    let mut target = String::new();
    let mut steps = Vec::new();
    let mut path_nodes = Vec::new();
    let mut i = 0;
    // Both versions' nodes one or two keys further down (gone where a version has none).
    let go = |nodes: &mut [Option<(String, &'a Value)>; 2], keys: &[&str]| {
        for slot in nodes.iter_mut() {
            *slot = slot.take().and_then(|(base, mut node)| {
                for key in keys {
                    node = match node {
                        Value::Object(map) => map.get(*key)?,
                        Value::Array(items) => items.get(key.parse::<usize>().ok()?)?,
                        _ => return None,
                    };
                }
                Some((base, node))
            });
        }
    };
    while let Some(token) = tokens.get(i) {
        let next = tokens.get(i + 1).map(String::as_str);
        match (token.as_str(), next) {
            ("properties", Some(name)) => {
                go(&mut nodes, &["properties", name]);
                steps.push(Step::Member(name.to_owned()));
                path_nodes.push(nodes[0].clone());
                i += 2;
            }
            ("additionalProperties", _) => {
                go(&mut nodes, &["additionalProperties"]);
                steps.push(Step::Member("x-undeclared".to_owned()));
                path_nodes.push(nodes[0].clone());
                i += 1;
            }
            ("items", Some(n)) if n.parse::<usize>().is_ok() => {
                go(&mut nodes, &["items", n]);
                steps.push(Step::Index(n.parse().ok()?));
                path_nodes.push(nodes[0].clone());
                i += 2;
            }
            ("items" | "contains", _) => {
                go(&mut nodes, &[token.as_str()]);
                steps.push(Step::Index(0));
                path_nodes.push(nodes[0].clone());
                i += 1;
            }
            ("allOf" | "anyOf" | "oneOf" | "dependencies", Some(n)) => {
                go(&mut nodes, &[token.as_str(), n]);
                i += 2;
            }
            // A conditional itself is judged at the object that holds it.
            ("if" | "then" | "else", None) => break,
            ("not" | "if" | "then" | "else", _) => {
                go(&mut nodes, &[token.as_str()]);
                i += 1;
            }
            ("definitions" | "$defs", Some(name)) if i == 0 => {
                go(&mut nodes, &[token.as_str(), name]);
                target = format!("/{token}/{}", jerry_contracts_pointer::escape(name));
                i += 2;
            }
            _ => break,
        }
    }
    let at = [
        nodes[0].clone().and_then(|(b, n)| accepting.resolved(b, n)),
        nodes[1].clone().and_then(|(b, n)| refusing.resolved(b, n)),
    ];
    let accepting_nodes = path_nodes.into_iter().map(|n| n.and_then(|(b, n)| accepting.resolved(b, n))).collect();
    Some(Place { target, steps, accepting: accepting_nodes, at })
}

/// Searches for a document `accepting` takes and `refusing` refuses, at the place the schema
/// location `pointer` governs. `Err` says why no search could run.
pub fn find(
    pointer: &str,
    accepting: &Version,
    refusing: &Version,
    undeclared: Undeclared,
    sampler: PatternSampler,
    deadline: Instant,
) -> Result<Option<Witness>, String> {
    let Some(place) = place(pointer, accepting, refusing) else { return Ok(None) };
    if place.target.is_empty() {
        let accepts = accepting.validator.as_ref().map_err(|e| format!("{}: {e}", accepting.path.display()))?;
        let refuses = refusing.validator.as_ref().map_err(|e| format!("{}: {e}", refusing.path.display()))?;
        find_in(pointer, &place, accepting, refusing, undeclared, sampler, accepts, refuses, deadline)
    } else {
        let accepts = accepting.validator_for(&place.target)?;
        let refuses = refusing.validator_for(&place.target)?;
        let found = find_in(pointer, &place, accepting, refusing, undeclared, sampler, &accepts, &refuses, deadline)?;
        Ok(found.map(|witness| lift(witness, accepting, refusing, undeclared, sampler, deadline)))
    }
}

/// A definition's witness as a whole document: placed where the schema itself references the
/// definition (`properties/payload`, `properties/findings/items`, … outside its definitions), in
/// a document the accepting version generates, and kept when the two versions still judge it
/// apart; the definition's instance otherwise.
fn lift(
    witness: Witness,
    accepting: &Version,
    refusing: &Version,
    undeclared: Undeclared,
    sampler: PatternSampler,
    deadline: Instant,
) -> Witness {
    let (Ok(accepts), Ok(refuses)) = (&accepting.validator, &refusing.validator) else { return witness };
    let local = format!("#{}", witness.target);
    let full = format!("{}{local}", accepting.base);
    let mut references = Vec::new();
    referencing(&accepting.schema, "", &[local.as_str(), full.as_str()], &mut references);
    for pointer in references {
        let Some(place) = place(&pointer, accepting, refusing).filter(|p| p.target.is_empty()) else { continue };
        for maximal in [false, true] {
            if Instant::now() >= deadline {
                return witness;
            }
            let generator = Generator::new(accepting, maximal, sampler);
            let Some(document) = generator.value(&accepting.base, &accepting.schema, 0) else { continue };
            let Some((mut document, location)) = materialize(document, &place, &generator) else { continue };
            let Some(slot) = document.pointer_mut(&location) else { continue };
            *slot = witness.document.clone();
            if accepts.is_valid(&document)
                && !refuses.is_valid(&document)
                && (undeclared == Undeclared::Any
                    || !carries_undeclared(accepting, &accepting.base, &accepting.schema, &document, &mut {
                        UNDECLARED_STEPS
                    }))
            {
                let reason = if witness.reason.starts_with("(root)") {
                    witness.reason.replacen("(root)", &location, 1)
                } else {
                    format!("{location}{}", witness.reason)
                };
                return Witness { document, target: String::new(), reason };
            }
        }
    }
    witness
}

/// The pointers of the schema objects below `node` (outside `definitions`, and not inside data
/// such as `enum` or `examples`) whose `$ref` is one of `targets`; 32 at most, nearest first.
fn referencing(node: &Value, pointer: &str, targets: &[&str], out: &mut Vec<String>) {
    let mut queue = std::collections::VecDeque::from([(node, pointer.to_owned(), 0usize)]);
    while let Some((node, pointer, depth)) = queue.pop_front() {
        if out.len() >= 32 || depth > MAX_DEPTH {
            return;
        }
        match node {
            Value::Object(map) => {
                if map.get("$ref").and_then(Value::as_str).is_some_and(|r| targets.contains(&r)) {
                    out.push(pointer.clone());
                }
                for (key, value) in map {
                    if ["definitions", "$defs", "enum", "const", "examples", "default"].contains(&key.as_str()) {
                        continue;
                    }
                    queue.push_back((value, format!("{pointer}/{}", jerry_contracts_pointer::escape(key)), depth + 1));
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    queue.push_back((item, format!("{pointer}/{index}"), depth + 1));
                }
            }
            _ => {}
        }
    }
}

/// The schema node instances of the place's target are judged by in `version`.
fn target_root<'a>(version: &'a Version, target: &str) -> Option<(String, &'a Value)> {
    if target.is_empty() {
        Some((version.base.clone(), &version.schema))
    } else {
        version.node(&version.base, target).and_then(|(b, n)| version.resolved(b, n))
    }
}

#[allow(clippy::too_many_arguments)] // the search's inputs, each used once
fn find_in(
    pointer: &str,
    place: &Place<'_>,
    accepting: &Version,
    refusing: &Version,
    undeclared: Undeclared,
    sampler: PatternSampler,
    accepts: &jsonschema::Validator,
    refuses: &jsonschema::Validator,
    deadline: Instant,
) -> Result<Option<Witness>, String> {
    let root_of = |version| target_root(version, &place.target);
    let Some((root_base, root_node)) = root_of(accepting) else { return Ok(None) };
    // Documents to start from: generated from either version, those both accept first, so that
    // the edit at the place is what the refusing version refuses.
    let mut bases = Vec::new();
    for version in [accepting, refusing] {
        let Some((base, node)) = root_of(version) else { continue };
        for maximal in [false, true] {
            if Instant::now() >= deadline {
                return Err("the search stopped at its time limit".to_owned());
            }
            let generator = Generator::new(version, maximal, sampler);
            if let Some(document) = generator.value(&base, node, 0).filter(|d| accepts.is_valid(d))
                && !bases.iter().any(|(d, _)| d == &document)
            {
                let common = refuses.is_valid(&document);
                bases.push((document, common));
            }
        }
    }
    bases.sort_by_key(|(_, common)| !*common);
    let mut judged = 0usize;
    let mut seen = BTreeSet::new();
    let mut partial: Option<Witness> = None;
    for (base_document, _) in bases {
        let generator = Generator::new(accepting, false, sampler);
        let Some((document, location)) = materialize(base_document, place, &generator) else { continue };
        for candidate in edits(&document, &location, place, accepting, refusing, sampler) {
            if judged >= MAX_CANDIDATES {
                return Ok(partial);
            }
            // A schema can make each validation cost exponential time (nested `allOf`s): the
            // search stops at its deadline, saying so unless it has a document already.
            if Instant::now() >= deadline {
                return partial.map(Some).ok_or_else(|| "the search stopped at its time limit".to_owned());
            }
            if !seen.insert(candidate.to_string()) {
                continue;
            }
            judged += 1;
            if !accepts.is_valid(&candidate) || refuses.is_valid(&candidate) {
                continue;
            }
            if undeclared == Undeclared::Outside
                && carries_undeclared(accepting, &root_base, root_node, &candidate, &mut { UNDECLARED_STEPS })
            {
                continue;
            }
            // The refusal must come from the change: an error at or below its schema location.
            let errors: Vec<(bool, String)> = refuses
                .iter_errors(&candidate)
                .take(64)
                .map(|e| {
                    let at = e.instance_path().to_string();
                    let shown = format!("{}: {e}", if at.is_empty() { "(root)".to_owned() } else { at });
                    (caused_by(pointer, &place.target, e.schema_path().as_str(), e.evaluation_path().as_str()), shown)
                })
                .collect();
            let Some((_, reason)) = errors.iter().find(|(caused, _)| *caused) else { continue };
            let witness = Witness { document: candidate.clone(), target: place.target.clone(), reason: reason.clone() };
            if errors.iter().all(|(caused, _)| *caused) {
                return Ok(Some(witness));
            }
            partial.get_or_insert(witness);
        }
    }
    Ok(partial)
}

/// Whether an error at keyword location `keyword` (or reached along `evaluation`) comes from the
/// change at schema location `pointer`: it is at or below it, or it is the
/// `additionalProperties` of the object a property was removed from.
fn caused_by(pointer: &str, target: &str, keyword: &str, evaluation: &str) -> bool {
    let under = |location: &str, prefix: &str| {
        location == prefix
            || location.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('/'))
            || prefix.is_empty()
    };
    // A definition's validator reaches it through `$ref`: its locations are the definition's.
    // A conditional governs the whole object that holds it.
    let pointer = ["/if", "/then", "/else"].iter().find_map(|k| pointer.strip_suffix(k)).unwrap_or(pointer);
    let evaluation =
        evaluation.strip_prefix("/$ref").map_or_else(|| evaluation.to_owned(), |rest| format!("{target}{rest}"));
    if under(keyword, pointer) || under(&evaluation, pointer) {
        return true;
    }
    fn closed_object(location: &str) -> Option<&str> {
        location.strip_suffix("/additionalProperties")
    }
    [keyword, evaluation.as_str()].into_iter().filter_map(closed_object).any(|object| {
        pointer
            .strip_prefix(object)
            .is_some_and(|rest| rest.starts_with("/properties/") && rest.matches('/').count() == 2)
    })
}

/// The base document with every step of the place present (each missing value generated from
/// the accepting version's node there), and the place's instance pointer.
fn materialize(mut document: Value, place: &Place<'_>, generator: &Generator<'_>) -> Option<(Value, String)> {
    let mut pointer = String::new();
    for (step, node) in place.steps.iter().zip(&place.accepting) {
        let fill = || node.as_ref().and_then(|(b, n)| generator.value(b, n, 0)).unwrap_or(Value::Null);
        let current = document.pointer_mut(&pointer)?;
        match step {
            Step::Member(name) => {
                let object = current.as_object_mut()?;
                if !object.contains_key(name) {
                    object.insert(name.clone(), fill());
                }
                pointer = format!("{pointer}/{}", jerry_contracts_pointer::escape(name));
            }
            Step::Index(index) => {
                let items = current.as_array_mut()?;
                while items.len() <= *index && items.len() < MAX_SIZE as usize {
                    items.push(fill());
                }
                pointer = format!("{pointer}/{index}");
            }
        }
    }
    Some((document, pointer))
}

/// The edits tried at `location`: its value replaced by every probe, removed, and, for an
/// object or a list, members or items removed and added.
fn edits(
    document: &Value,
    location: &str,
    place: &Place<'_>,
    accepting: &Version,
    refusing: &Version,
    sampler: PatternSampler,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut values = Vec::new();
    for (slot, version) in place.at.iter().zip([accepting, refusing]) {
        if let Some((base, node)) = slot {
            values.extend(probes(version, base, node, sampler));
        }
    }
    // A string one version's pattern takes and the other's refuses, found on their automata.
    let pattern = |slot: &Option<(String, &Value)>| {
        slot.as_ref().and_then(|(_, node)| node.get("pattern")).and_then(Value::as_str).unwrap_or_default().to_owned()
    };
    let [first, second] = [pattern(&place.at[0]), pattern(&place.at[1])];
    if first != second {
        for (from, to) in [(&first, &second), (&second, &first)] {
            if let crate::patterns::Inclusion::Shown(text) = crate::patterns::included(from, to) {
                values.insert(0, Value::String(text));
            }
        }
    }
    values.extend(basic());
    let set = |value: Value| {
        let mut edited = document.clone();
        *edited.pointer_mut(location)? = value;
        Some(edited)
    };
    values.truncate(MAX_EDITS);
    out.extend(values.iter().cloned().filter_map(set));
    if let Some((parent, last)) = location.rsplit_once('/') {
        let mut edited = document.clone();
        let removed = match edited.pointer_mut(parent) {
            Some(Value::Object(map)) => {
                jerry_contracts_pointer::unescape(last).is_ok_and(|k| map.remove(k.as_ref()).is_some())
            }
            Some(Value::Array(items)) => {
                last.parse::<usize>().ok().filter(|i| *i < items.len()).map(|i| items.remove(i)).is_some()
            }
            _ => false,
        };
        if removed {
            out.push(edited);
        }
    }
    match document.pointer(location) {
        Some(Value::Object(object)) => {
            for name in object.keys().take(MAX_EDITS) {
                let mut edited = document.clone();
                if let Some(Value::Object(map)) = edited.pointer_mut(location) {
                    map.remove(name);
                }
                out.push(edited);
            }
            let mut names: BTreeMap<String, Vec<Value>> = BTreeMap::new();
            for (slot, version) in place.at.iter().zip([accepting, refusing]) {
                let Some((base, node)) = slot else { continue };
                // The members both versions declare here, 64 of each at most.
                for (name, sub) in node.get("properties").and_then(Value::as_object).into_iter().flatten().take(64) {
                    let values = names.entry(name.clone()).or_default();
                    if let Some((b, n)) = version.resolved(base.clone(), sub) {
                        values.extend(probes(version, &b, n, sampler));
                    }
                }
            }
            names.entry("x-undeclared".to_owned()).or_default();
            for (name, mut values) in names {
                if out.len() >= MAX_EDITS {
                    break;
                }
                values.extend(basic());
                for value in values {
                    let mut edited = document.clone();
                    if let Some(Value::Object(map)) = edited.pointer_mut(location) {
                        map.insert(name.clone(), value);
                    }
                    out.push(edited);
                }
            }
        }
        Some(Value::Array(items)) => {
            let mut edited = document.clone();
            if let Some(Value::Array(list)) = edited.pointer_mut(location) {
                list.clear();
            }
            out.push(edited);
            if let Some(first) = items.first() {
                let mut edited = document.clone();
                if let Some(Value::Array(list)) = edited.pointer_mut(location) {
                    list.push(first.clone());
                }
                out.push(edited);
            }
            let mut item_values = basic();
            for (slot, version) in place.at.iter().zip([accepting, refusing]) {
                let Some((base, node)) = slot else { continue };
                if let Some(items) = node.get("items").filter(|i| i.is_object() || i.is_boolean())
                    && let Some((b, n)) = version.resolved(base.clone(), items)
                {
                    item_values.extend(probes(version, &b, n, sampler));
                }
            }
            item_values.truncate(MAX_EDITS);
            for value in item_values {
                let mut edited = document.clone();
                if let Some(Value::Array(list)) = edited.pointer_mut(location) {
                    list.push(value);
                }
                out.push(edited);
            }
        }
        _ => {}
    }
    out.truncate(MAX_EDITS);
    out
}

/// How many values `value` holds, itself included.
fn size(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(size).sum::<usize>(),
        Value::Object(members) => 1 + members.values().map(size).sum::<usize>(),
        _ => 1,
    }
}

/// One value of each JSON type.
fn basic() -> Vec<Value> {
    vec![json!(null), json!(false), json!(0), json!(-1), json!(1.5), json!(""), json!("a"), json!([]), json!({})]
}

/// Values at the edges of what `node` accepts: its constants, bounds and their neighbours,
/// strings of its lengths, samples of its pattern, its format's shapes, lists of its sizes, and
/// generated instances.
fn probes(version: &Version, base: &str, node: &Value, sampler: PatternSampler) -> Vec<Value> {
    let mut out = Vec::new();
    let mut nodes = vec![(base.to_owned(), node)];
    for key in ["allOf", "anyOf", "oneOf"] {
        for branch in node.get(key).and_then(Value::as_array).into_iter().flatten() {
            nodes.extend(version.resolved(base.to_owned(), branch));
        }
    }
    for key in ["then", "else"] {
        nodes.extend(node.get(key).and_then(|branch| version.resolved(base.to_owned(), branch)));
    }
    for (branch_base, branch) in nodes.iter().skip(1) {
        for maximal in [false, true] {
            out.extend(Generator::new(version, maximal, sampler).value(branch_base, branch, 0));
        }
    }
    for (_, node) in nodes {
        let Some(map) = node.as_object() else { continue };
        out.extend(map.get("enum").and_then(Value::as_array).into_iter().flatten().take(64).cloned());
        out.extend(map.get("const").cloned());
        for bound in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] {
            if let Some(number) = map.get(bound).and_then(Value::as_f64).filter(|n| n.is_finite()) {
                for delta in [-1.0, -0.5, 0.0, 0.5, 1.0] {
                    let value = number + delta;
                    if value.fract() == 0.0 && value.abs() < 9.0e15 {
                        out.push(json!(value as i64));
                    } else {
                        out.push(json!(value));
                    }
                }
            }
        }
        for bound in ["minLength", "maxLength"] {
            if let Some(length) = map.get(bound).and_then(Value::as_u64).filter(|l| *l <= MAX_SIZE) {
                for n in [length.saturating_sub(1), length, length + 1] {
                    out.push(Value::String("a".repeat(n as usize)));
                }
            }
        }
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
            out.extend((0..6).filter_map(|n| sampler(pattern, n)).map(Value::String));
            out.push(json!("#"));
        }
        if let Some(format) = map.get("format").and_then(Value::as_str) {
            out.extend(format_samples(format).into_iter().map(|s| json!(s)));
            out.push(json!("not a value of the format"));
        }
        for bound in ["minItems", "maxItems"] {
            if let Some(count) = map.get(bound).and_then(Value::as_u64).filter(|c| *c <= MAX_SIZE) {
                let item = map
                    .get("items")
                    .filter(|i| i.is_object())
                    .and_then(|i| version.resolved(base.to_owned(), i))
                    .and_then(|(b, n)| Generator::new(version, false, sampler).value(&b, n, 0))
                    .unwrap_or(Value::Null);
                for n in [count.saturating_sub(1), count, count + 1] {
                    if (n as usize).saturating_mul(size(&item)) <= MAX_VALUES {
                        out.push(Value::Array(vec![item.clone(); n as usize]));
                    }
                }
            }
        }
    }
    for maximal in [false, true] {
        out.extend(Generator::new(version, maximal, sampler).value(base, node, 0));
    }
    out
}

/// Values of a format, and near misses of it.
fn format_samples(format: &str) -> Vec<&'static str> {
    match format {
        "date-time" => vec!["2026-01-10T14:30:00Z", "2026-01-10T14:30:00+02:00", "2026-01-10"],
        "date" => vec!["2026-01-10", "2026-01-10T14:30:00Z"],
        "time" => vec!["14:30:00Z", "14:30:00"],
        "uuid" => vec!["3f2b8c1e-9a4d-4e7b-b6c2-5d1e8f0a7c93"],
        "uri" | "iri" => vec!["https://jerry.dev/", "relative/path"],
        "uri-reference" | "iri-reference" => vec!["relative/path", "https://jerry.dev/"],
        "email" | "idn-email" => vec!["agent@jerry.dev"],
        "hostname" | "idn-hostname" => vec!["jerry.dev"],
        "ipv4" => vec!["192.0.2.1"],
        "ipv6" => vec!["2001:db8::1"],
        _ => vec![],
    }
}

/// Whether `value` carries a member that an object of the schema `node` does not declare,
/// where that object declares members at all (`properties` in it or in its `allOf`, `anyOf`,
/// `oneOf`, `if`, `then`, `else` branches) and leaves the rest open; `patternProperties` and an
/// `additionalProperties` schema count as declaring what they match.
///
/// `steps` bounds the work (a member declared by many branches is followed under each): when it
/// runs out, the answer is yes, and the candidate is passed over.
fn carries_undeclared(version: &Version, base: &str, node: &Value, value: &Value, steps: &mut usize) -> bool {
    if *steps == 0 {
        return true;
    }
    *steps -= 1;
    let Some((base, node)) = version.resolved(base.to_owned(), node) else { return false };
    let mut declared: BTreeMap<&str, Vec<(String, &Value)>> = BTreeMap::new();
    let mut items: Vec<(String, &Value)> = Vec::new();
    let mut declares_any = false;
    let mut open_to_all = false;
    let mut stack = vec![(base.clone(), node, 0)];
    while let Some((base, node, level)) = stack.pop() {
        let Some(map) = node.as_object() else { continue };
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            declares_any = true;
            for (name, sub) in properties {
                declared.entry(name.as_str()).or_default().push((base.clone(), sub));
            }
        }
        if map.contains_key("patternProperties") || diff::openness(map.get("additionalProperties")) == Openness::Schema
        {
            open_to_all = true;
        }
        if let Some(item) = map.get("items").filter(|i| i.is_object()) {
            items.push((base.clone(), item));
        }
        if level < 8 {
            for key in ["allOf", "anyOf", "oneOf"] {
                for branch in map.get(key).and_then(Value::as_array).into_iter().flatten() {
                    if let Some((b, n)) = version.resolved(base.clone(), branch) {
                        stack.push((b, n, level + 1));
                    }
                }
            }
            for key in ["if", "then", "else"] {
                if let Some((b, n)) = map.get(key).and_then(|branch| version.resolved(base.clone(), branch)) {
                    stack.push((b, n, level + 1));
                }
            }
        }
    }
    match value {
        // A member declared by several branches carries an undeclared member only if it does
        // under each of them.
        Value::Object(members) => members.iter().any(|(name, member)| match declared.get(name.as_str()) {
            Some(subs) => subs.iter().all(|(b, sub)| carries_undeclared(version, b, sub, member, steps)),
            None => declares_any && !open_to_all,
        }),
        Value::Array(values) => {
            !items.is_empty()
                && values.iter().any(|v| items.iter().all(|(b, item)| carries_undeclared(version, b, item, v, steps)))
        }
        _ => false,
    }
}

/// Generates an instance of a schema node: the required members (every declared one when
/// `maximal`), the fewest items, a value within the bounds, a pattern's sample.
struct Generator<'a> {
    version: &'a Version,
    maximal: bool,
    sampler: PatternSampler,
    /// Values left to generate: a schema whose references fan out cannot make a document
    /// larger than [`MAX_VALUES`].
    budget: std::cell::Cell<usize>,
}

impl<'a> Generator<'a> {
    fn new(version: &'a Version, maximal: bool, sampler: PatternSampler) -> Self {
        Self { version, maximal, sampler, budget: std::cell::Cell::new(MAX_VALUES) }
    }

    /// An instance of a node without a type of its own: its `allOf` branches merged (only the
    /// first conditional among them), a conditional's `if` merged with its `then`, or the first
    /// `anyOf` / `oneOf` branch.
    fn composed(&self, base: &str, map: &Map<String, Value>, depth: usize) -> Option<Value> {
        let merge = |into: &mut Value, from: Value| match (into.as_object_mut(), from) {
            (Some(object), Value::Object(members)) => object.extend(members),
            (_, from) => *into = from,
        };
        if let Some(branches) = map.get("allOf").and_then(Value::as_array) {
            let mut value = json!({});
            let mut conditional = false;
            for branch in branches {
                let is_conditional = branch.get("if").is_some();
                if is_conditional && std::mem::replace(&mut conditional, true) {
                    continue;
                }
                merge(&mut value, self.value(base, branch, depth + 1)?);
            }
            return Some(value);
        }
        if let (Some(condition), Some(then)) = (map.get("if"), map.get("then")) {
            let mut value = self.value(base, condition, depth + 1).unwrap_or_else(|| json!({}));
            merge(&mut value, self.value(base, then, depth + 1)?);
            return Some(value);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branch) = map.get(key).and_then(Value::as_array).and_then(|b| b.first()) {
                return self.value(base, branch, depth + 1);
            }
        }
        None
    }

    fn value(&self, base: &str, node: &Value, depth: usize) -> Option<Value> {
        let left = self.budget.get();
        if depth > MAX_DEPTH || left == 0 {
            return None;
        }
        self.budget.set(left - 1);
        let (base, node) = self.version.resolved(base.to_owned(), node)?;
        let map = match node {
            Value::Bool(true) => return Some(Value::Null),
            Value::Object(map) => map,
            _ => return None,
        };
        if let Some(constant) = map.get("const") {
            return Some(constant.clone());
        }
        if let Some(first) = map.get("enum").and_then(Value::as_array).and_then(|values| values.first()) {
            return Some(first.clone());
        }
        let kind = match map.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(types)) => {
                types.iter().filter_map(Value::as_str).find(|t| *t != "null").unwrap_or("null").to_owned()
            }
            _ => {
                if let Some(value) = self.composed(&base, map, depth) {
                    return Some(value);
                }
                if map.contains_key("properties") || map.contains_key("required") {
                    "object".to_owned()
                } else if map.contains_key("items") {
                    "array".to_owned()
                } else if map.contains_key("pattern") || map.contains_key("minLength") || map.contains_key("format") {
                    "string".to_owned()
                } else if map.contains_key("minimum") || map.contains_key("maximum") {
                    "number".to_owned()
                } else {
                    return Some(json!({}));
                }
            }
        };
        match kind.as_str() {
            "object" => {
                // A `required` that is not a list of names is the validator's to refuse.
                let required: BTreeSet<&str> =
                    diff::string_list(map.get("required")).unwrap_or_default().into_iter().collect();
                let properties = map.get("properties").and_then(Value::as_object);
                let mut object = Map::new();
                for (name, sub) in properties.into_iter().flatten() {
                    if !self.maximal && !required.contains(name.as_str()) {
                        continue;
                    }
                    match self.value(&base, sub, depth + 1) {
                        Some(value) => {
                            object.insert(name.clone(), value);
                        }
                        None if required.contains(name.as_str()) => return None,
                        None => {}
                    }
                }
                for name in required {
                    if !object.contains_key(name) {
                        object.insert(name.to_owned(), Value::Null);
                    }
                }
                Some(Value::Object(object))
            }
            "array" => {
                let count = map.get("minItems").and_then(Value::as_u64).unwrap_or(0).min(MAX_SIZE);
                let item = match map.get("items") {
                    Some(Value::Array(tuple)) => {
                        return tuple
                            .iter()
                            .map(|t| self.value(&base, t, depth + 1))
                            .collect::<Option<Vec<_>>>()
                            .map(Value::Array);
                    }
                    Some(items) => self.value(&base, items, depth + 1)?,
                    None => Value::Null,
                };
                // The copies count against the budget as the values they are.
                let copies = (count as usize).saturating_mul(size(&item));
                self.budget.set(self.budget.get().checked_sub(copies)?);
                Some(Value::Array(vec![item; count as usize]))
            }
            "string" => {
                let mut text =
                    match map.get("format").and_then(Value::as_str).and_then(|f| format_samples(f).first().copied()) {
                        Some(sample) => sample.to_owned(),
                        None => match map.get("pattern").and_then(Value::as_str) {
                            Some(pattern) => (self.sampler)(pattern, 0)?,
                            None => "example".to_owned(),
                        },
                    };
                let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0).min(MAX_SIZE) as usize;
                let max = map.get("maxLength").and_then(Value::as_u64).map_or(usize::MAX, |m| m as usize);
                let length = text.chars().count();
                if length < min {
                    text.extend(std::iter::repeat_n('a', min - length));
                } else if length > max {
                    text = text.chars().take(max).collect();
                }
                Some(Value::String(text))
            }
            "integer" | "number" => {
                let low = map
                    .get("minimum")
                    .and_then(Value::as_f64)
                    .or_else(|| map.get("exclusiveMinimum").and_then(Value::as_f64).map(|m| m.floor() + 1.0));
                let high = map
                    .get("maximum")
                    .and_then(Value::as_f64)
                    .or_else(|| map.get("exclusiveMaximum").and_then(Value::as_f64).map(|m| m.ceil() - 1.0));
                let mut value = match (low, high) {
                    (Some(low), _) if low > 0.0 => low.ceil(),
                    (_, Some(high)) if high < 0.0 => high.floor(),
                    _ => 0.0,
                };
                if let Some(step) = map.get("multipleOf").and_then(Value::as_f64).filter(|s| *s > 0.0 && s.is_finite())
                {
                    value = (value / step).ceil() * step;
                }
                if !value.is_finite() {
                    return None;
                }
                Some(if value.fract() == 0.0 && value.abs() < 9.0e15 { json!(value as i64) } else { json!(value) })
            }
            "boolean" => Some(Value::Bool(false)),
            "null" => Some(Value::Null),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_is_read_from_the_same_relative_place_beside_the_file() {
        let base = "https://jerry.dev/schemas/session_context/v1.1.0.json";
        let file = Path::new("/r/schemas/session_context/v1.1.0.json");
        let at = |target: &str| locate(base, file, target);
        assert_eq!(
            at("https://jerry.dev/schemas/common/types.json"),
            Some(PathBuf::from("/r/schemas/common/types.json"))
        );
        assert_eq!(
            at("https://jerry.dev/schemas/session_context/v1.0.0.json"),
            Some(PathBuf::from("/r/schemas/session_context/v1.0.0.json"))
        );
        assert_eq!(at("https://other.example/x.json"), None, "another authority is not on disk");
        assert_eq!(at("https://jerry.dev/schemas/a%20b.json"), Some(PathBuf::from("/r/schemas/a b.json")));
    }

    #[test]
    fn an_error_shows_a_change_only_at_or_below_its_location() {
        assert!(caused_by("/properties/id/pattern", "", "/properties/id/pattern", "/properties/id/pattern"));
        assert!(caused_by("/properties/note", "", "/properties/note/type", "/properties/note/type"));
        assert!(!caused_by("/properties/id/pattern", "", "/required", "/required"));
        assert!(
            !caused_by("/properties/n", "", "/properties/name/type", "/properties/name/type"),
            "a prefix of a name is not a parent"
        );
        // A removed property refused by a closed object.
        assert!(caused_by("/properties/x", "", "/additionalProperties", "/additionalProperties"));
        assert!(!caused_by("/properties/x/type", "", "/additionalProperties", "/additionalProperties"));
        // A definition judged alone is reached through `$ref`.
        assert!(caused_by("/definitions/d/minimum", "/definitions/d", "/minimum", "/$ref/minimum"));
        // A conditional governs the object that holds it.
        assert!(caused_by("/definitions/payload/if", "/definitions/payload", "/required", "/$ref/required"));
    }
}
