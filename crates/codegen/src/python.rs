//! The Python type hints of the corpus: the source of `jerry_contracts.types`, one `TypedDict` or
//! type alias per type of the [`Plan`], under the Rust type's flat name, so Python and Rust users
//! share one vocabulary (`ResearcherOutput`, `Severity`, …).
//!
//! The mapping (decision D-210): an object with declared properties is a `TypedDict` whose
//! required keys are the schema's `required` and whose other keys are optional (`total=False`);
//! `enum` and `const` are `Literal`; `string`, `integer`, `number`, `boolean`, `null` are `str`,
//! `int`, `float`, `bool`, `None`; arrays are `List`, maps (`additionalProperties: {schema}`) are
//! `Dict[str, T]`, a type list with `null` is `Optional`, `oneOf`/`anyOf` are `Union`, and a
//! `$ref` is the referenced type's name. The agent-output dispatch (`if`/`then`/`else` on
//! `agent_id`) is the `Union` of its branches and its fallback, wider than the schema (the
//! `Union` does not tie the branch to the `agent_id`). A value the schema leaves open (no `type`,
//! an object without properties or map schema, an array without `items`) is `Any` or
//! `Dict[str, Any]`, with a comment at the site and a line in the module docstring. `allOf`
//! outside the dispatch shape, a `const` or `enum` value `Literal` cannot hold, an object with
//! properties that has no named type: every construct without a faithful mapping is a
//! [`Problem`] naming the schema file and pointer, never a silently wider or narrower type.
//! Constraints (patterns, ranges, lengths, formats, closed objects) are left to `validate()`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::corpus::{Corpus, Problem};
use crate::plan::{Kind, Plan, TypeDef};

/// How to regenerate the file, quoted in its header and by the freshness test.
pub const REGENERATE: &str = "JERRY_BLESS=1 cargo test --test artifacts";

/// Where the generated module is committed, relative to the workspace root.
pub const TYPES_PATH: &str = "crates/python/python/jerry_contracts/types.py";

/// Names the module imports or uses as types; no generated type or class-syntax key may take one.
const RESERVED: &[&str] = &[
    "Any",
    "Dict",
    "List",
    "Literal",
    "Optional",
    "TypedDict",
    "Union",
    "BY_SCHEMA",
    "annotations",
    "str",
    "int",
    "float",
    "bool",
    "None",
];

/// Python's keywords: a key spelled like one cannot be written in class syntax.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// Keywords that only annotate: a schema of nothing else accepts any JSON value.
const ANNOTATIONS: &[&str] = &["title", "description", "examples", "default", "$comment", "x-source", "x-convention"];

/// The Python source of `jerry_contracts.types` for `plan`, planned from `corpus`.
pub fn source(corpus: &Corpus, plan: &Plan) -> Result<String, Vec<Problem>> {
    let mut emitter = Emitter { corpus, plan, problems: Vec::new(), notes: Vec::new(), fallbacks: Vec::new() };
    let flats: BTreeSet<&str> = plan.types.iter().map(|t| t.flat.as_str()).collect();
    for def in &plan.types {
        if !is_identifier(&def.flat) || KEYWORDS.contains(&def.flat.as_str()) || RESERVED.contains(&def.flat.as_str()) {
            emitter.problem(&def.file, &def.pointer, format!("type name {} is not a free Python identifier", def.flat));
        }
    }
    let mut body = String::new();
    let mut bare_aliases: Vec<(String, String, String)> = Vec::new();
    for def in &plan.types {
        match &def.kind {
            Kind::Struct => body.push_str(&emitter.typed_dict(def, &flats)),
            Kind::Dispatch { branches, fallback } => {
                let members: Vec<String> =
                    branches.iter().map(|(_, target)| literal(target)).chain([literal(fallback)]).collect();
                let comment = format!(
                    "# Wider than {}: the Union does not tie a branch to its agent_id (validate() does).\n",
                    site(&def.file, &def.pointer)
                );
                body.push_str(&alias(def, &format!("Union[{}]", members.join(", ")), &comment));
            }
            Kind::Enum | Kind::Const | Kind::Newtype => {
                let Some(node) = def.source.as_object() else {
                    emitter.problem(&def.file, &def.pointer, "a schema must be an object");
                    continue;
                };
                let hint = emitter.structural(&def.file, &def.pointer, node, Quote::Names);
                let comment = emitter.take_notes();
                let bare = hint.strip_prefix('"').and_then(|h| h.strip_suffix('"')).filter(|h| flats.contains(h));
                if let Some(target) = bare {
                    // An alias of a bare name must come after the name is bound: these come last,
                    // in dependency order (a quoted name alone would be a string, not an alias).
                    bare_aliases.push((def.flat.clone(), target.to_owned(), alias(def, PLACEHOLDER, &comment)));
                } else {
                    body.push_str(&alias(def, &hint, &comment));
                }
            }
        }
    }
    // Bare aliases in dependency order: each after the alias it names.
    let mut bound: BTreeSet<String> = plan
        .types
        .iter()
        .filter(|t| !bare_aliases.iter().any(|(name, _, _)| *name == t.flat))
        .map(|t| t.flat.clone())
        .collect();
    while !bare_aliases.is_empty() {
        let ready = bare_aliases.iter().position(|(_, target, _)| bound.contains(target));
        let Some(index) = ready else {
            let (name, target, _) = &bare_aliases[0];
            let def = plan.get(name).map_or(("schemas/", ""), |d| (d.file.as_str(), d.pointer.as_str()));
            emitter.problem(def.0, def.1, format!("alias {name} = {target} is part of a cycle of aliases"));
            break;
        };
        let (name, target, text) = bare_aliases.remove(index);
        body.push_str(&text.replace(PLACEHOLDER, &target));
        bound.insert(name);
    }
    if !emitter.problems.is_empty() {
        return Err(emitter.problems);
    }
    Ok(format!("{}{}{}", header(&emitter.fallbacks), body, footer(plan)))
}

/// Stands in for the target of a bare alias until it is written.
const PLACEHOLDER: &str = "@@TARGET@@";

/// How names of generated types are written in a hint: bare in class-syntax annotations (the
/// module has `from __future__ import annotations`), quoted where the hint is evaluated at import
/// (aliases), and not at all inside the string values of a functional `TypedDict`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quote {
    Bare,
    Names,
}

struct Emitter<'a> {
    corpus: &'a Corpus,
    plan: &'a Plan,
    problems: Vec<Problem>,
    /// Comments for the item being written: the `Any` fallbacks found in its hints.
    notes: Vec<String>,
    /// Every `Any` fallback of the module, for its docstring.
    fallbacks: Vec<String>,
}

impl Emitter<'_> {
    fn problem(&mut self, file: &str, pointer: &str, message: impl Into<String>) -> String {
        self.problems.push(Problem::new(file, pointer, format!("Python types: {}", message.into())));
        "Any".to_owned()
    }

    fn fallback(&mut self, file: &str, pointer: &str, hint: &str, reason: &str) -> String {
        let note = format!("{hint}: {} {reason}", site(file, pointer));
        self.notes.push(note.clone());
        self.fallbacks.push(note);
        hint.to_owned()
    }

    fn take_notes(&mut self) -> String {
        let notes: Vec<String> = self.notes.drain(..).map(|n| format!("# {n}\n")).collect();
        notes.concat()
    }

    /// A `TypedDict` for an object with declared properties.
    fn typed_dict(&mut self, def: &TypeDef, flats: &BTreeSet<&str>) -> String {
        let node = def.source.as_object().cloned().unwrap_or_default();
        let required: BTreeSet<&str> =
            node.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let properties = node.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        let class_syntax = properties.keys().all(|key| {
            is_identifier(key)
                && !key.starts_with("__")
                && !KEYWORDS.contains(&key.as_str())
                && !RESERVED.contains(&key.as_str())
                && !flats.contains(key.as_str())
        });
        // Class-syntax annotations are not evaluated (`from __future__ import annotations`), and
        // the functional form takes each hint as one string: names stay bare in both.
        let quote = Quote::Bare;
        // (key, hint, comments) of the required and the optional keys.
        let mut fields: [Vec<(String, String, String)>; 2] = [Vec::new(), Vec::new()];
        for (key, schema) in &properties {
            let at = format!("{}/properties/{}", def.pointer, jerry_contracts_pointer::escape(key));
            let hint = self.hint(&def.file, &at, schema, quote);
            let comments = self.take_notes();
            let slot = usize::from(!required.contains(key.as_str()));
            fields[slot].push((key.clone(), hint, comments));
        }
        let doc = docstring(def, "    ");
        let name = &def.flat;
        let [required_fields, optional_fields] = fields;
        let mut out = String::from("\n\n");
        if class_syntax {
            let lines = |fields: &[(String, String, String)]| -> String {
                fields
                    .iter()
                    .map(|(key, hint, comments)| {
                        format!(
                            "{}    {key}: {hint}\n",
                            comments.lines().map(|c| format!("    {c}\n")).collect::<String>()
                        )
                    })
                    .collect()
            };
            match (required_fields.is_empty(), optional_fields.is_empty()) {
                (_, true) => out.push_str(&format!("class {name}(TypedDict):\n{doc}{}", lines(&required_fields))),
                (true, false) => {
                    out.push_str(&format!("class {name}(TypedDict, total=False):\n{doc}{}", lines(&optional_fields)));
                }
                (false, false) => out.push_str(&format!(
                    "class _{name}Required(TypedDict):\n    \"\"\"The required keys of {name}.\"\"\"\n\n{}\n\nclass {name}(_{name}Required, total=False):\n{doc}{}",
                    lines(&required_fields),
                    lines(&optional_fields)
                )),
            }
        } else {
            // Keys Python cannot spell as class attributes: the functional form, whose values are
            // strings (forward references, not evaluated at import).
            let entries = |fields: &[(String, String, String)]| -> String {
                fields
                    .iter()
                    .map(|(key, hint, comments)| {
                        format!(
                            "{}        {}: {},\n",
                            comments.lines().map(|c| format!("        {c}\n")).collect::<String>(),
                            literal(key),
                            literal(hint)
                        )
                    })
                    .collect()
            };
            let mut bases = Vec::new();
            for (fields, suffix, total) in
                [(&required_fields, "Required", ""), (&optional_fields, "Optional", "\n    total=False,")]
            {
                if fields.is_empty() {
                    continue;
                }
                let base = format!("_{name}{suffix}");
                out.push_str(&format!(
                    "{base} = TypedDict(\n    {},\n    {{\n{}    }},{total}\n)\n",
                    literal(&base),
                    entries(fields)
                ));
                bases.push(base);
            }
            out.push_str(&format!("\n\nclass {name}({}):\n{}", bases.join(", "), doc.trim_end_matches('\n')));
            out.push('\n');
        }
        out
    }

    /// The hint of a subschema at `pointer` in `file`: the name of its planned type if it has one,
    /// otherwise its structure.
    fn hint(&mut self, file: &str, pointer: &str, node: &Value, quote: Quote) -> String {
        let Some(map) = node.as_object() else {
            return self.problem(file, pointer, "a subschema must be an object (boolean schemas have no mapping)");
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return match self.corpus.resolve(file, reference) {
                Ok((target_file, target_pointer)) => match self.plan.at(&target_file, &target_pointer) {
                    Some(target) => name(&target.flat, quote),
                    None => self.problem(file, pointer, format!("$ref {reference:?} names no planned type")),
                },
                Err(message) => self.problem(file, pointer, format!("$ref {reference:?} {message}")),
            };
        }
        if let Some(planned) = self.plan.at(file, pointer) {
            let named = name(&planned.flat, quote);
            return if nullable(map) { format!("Optional[{named}]") } else { named };
        }
        self.structural(file, pointer, map, quote)
    }

    /// The hint of a schema from its keywords (not from the name of a planned type at its place).
    fn structural(&mut self, file: &str, pointer: &str, map: &Map<String, Value>, quote: Quote) -> String {
        if let Some(reference) = map.get("$ref") {
            return self.hint(
                file,
                pointer,
                &Value::Object(Map::from_iter([("$ref".to_owned(), reference.clone())])),
                quote,
            );
        }
        if map.contains_key("allOf") {
            return self.problem(
                file,
                &format!("{pointer}/allOf"),
                "allOf outside the agent-output dispatch has no faithful TypedDict mapping",
            );
        }
        let null = nullable(map);
        let hint = if let Some(constant) = map.get("const") {
            match literal_value(constant) {
                Some(value) if value == "None" => "None".to_owned(),
                Some(value) => format!("Literal[{value}]"),
                None => self.problem(file, &format!("{pointer}/const"), format!("const {constant} has no Literal")),
            }
        } else if let Some(values) = map.get("enum") {
            let mut literals = Vec::new();
            for value in values.as_array().into_iter().flatten().filter(|v| !v.is_null()) {
                match literal_value(value) {
                    Some(text) => literals.push(text),
                    None => {
                        return self.problem(
                            file,
                            &format!("{pointer}/enum"),
                            format!("enum value {value} has no Literal"),
                        );
                    }
                }
            }
            if literals.is_empty() { "None".to_owned() } else { format!("Literal[{}]", literals.join(", ")) }
        } else if let Some(branches) = map.get("oneOf").or_else(|| map.get("anyOf")) {
            let keyword = if map.contains_key("oneOf") { "oneOf" } else { "anyOf" };
            let mut members = Vec::new();
            for (i, branch) in branches.as_array().into_iter().flatten().enumerate() {
                members.push(self.hint(file, &format!("{pointer}/{keyword}/{i}"), branch, quote));
            }
            union(members)
        } else {
            let types: Vec<&str> = match map.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect(),
                _ => Vec::new(),
            };
            if types.is_empty() && map.get("type").is_some() {
                // `"type": "null"` alone (or a list of null only).
                return "None".to_owned();
            }
            if types.is_empty() {
                let asserting: Vec<&String> = map.keys().filter(|k| !ANNOTATIONS.contains(&k.as_str())).collect();
                if !asserting.is_empty() {
                    return self.problem(file, pointer, format!("no type for the keywords {asserting:?}"));
                }
                return self.fallback(file, pointer, "Any", "accepts any JSON value");
            }
            let mut members = Vec::new();
            for kind in types {
                let member = match kind {
                    "string" => "str".to_owned(),
                    "integer" => "int".to_owned(),
                    "number" => "float".to_owned(),
                    "boolean" => "bool".to_owned(),
                    "array" => match map.get("items") {
                        Some(items @ Value::Object(_)) => {
                            format!("List[{}]", self.hint(file, &format!("{pointer}/items"), items, quote))
                        }
                        Some(_) => self.problem(file, &format!("{pointer}/items"), "tuple items have no mapping"),
                        None => {
                            let any = self.fallback(file, pointer, "Any", "is an array of any JSON values");
                            format!("List[{any}]")
                        }
                    },
                    "object" => {
                        if map.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty()) {
                            self.problem(file, pointer, "an object with properties has no planned type")
                        } else {
                            match map.get("additionalProperties") {
                                Some(values @ Value::Object(_)) => format!(
                                    "Dict[str, {}]",
                                    self.hint(file, &format!("{pointer}/additionalProperties"), values, quote)
                                ),
                                None | Some(Value::Bool(true)) => {
                                    let any = self.fallback(file, pointer, "Any", "is an object of any members");
                                    format!("Dict[str, {any}]")
                                }
                                Some(other) => self.problem(
                                    file,
                                    &format!("{pointer}/additionalProperties"),
                                    format!("additionalProperties {other} without properties has no mapping"),
                                ),
                            }
                        }
                    }
                    other => self.problem(file, &format!("{pointer}/type"), format!("type {other:?} has no mapping")),
                };
                members.push(member);
            }
            union(members)
        };
        if null && hint != "None" && hint != "Any" { format!("Optional[{hint}]") } else { hint }
    }
}

/// Whether a schema allows `null` beside its other values.
fn nullable(map: &Map<String, Value>) -> bool {
    let listed = match map.get("type") {
        Some(Value::Array(list)) => list.iter().any(|t| t == "null"),
        _ => false,
    };
    listed || map.get("enum").and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null))
}

fn union(mut members: Vec<String>) -> String {
    members.dedup();
    match members.len() {
        0 => "Any".to_owned(),
        1 => members.remove(0),
        _ => format!("Union[{}]", members.join(", ")),
    }
}

/// A JSON scalar as a `Literal` member (`None` for null); `None` for what `Literal` cannot hold.
fn literal_value(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(literal(text)),
        Value::Bool(true) => Some("True".to_owned()),
        Value::Bool(false) => Some("False".to_owned()),
        Value::Null => Some("None".to_owned()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

/// A Python string literal: JSON's escapes are all Python escapes too.
fn literal(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

fn name(flat: &str, quote: Quote) -> String {
    match quote {
        Quote::Bare => flat.to_owned(),
        Quote::Names => literal(flat),
    }
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `schemas/FILE` or `schemas/FILE#POINTER`.
fn site(file: &str, pointer: &str) -> String {
    if pointer.is_empty() { format!("schemas/{file}") } else { format!("schemas/{file}#{pointer}") }
}

/// The docstring of a type: its title, the first paragraph of its description, its place.
fn docstring(def: &TypeDef, indent: &str) -> String {
    let mut paragraphs = Vec::new();
    let text = |key: &str| def.source.get(key).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty());
    if let Some(title) = text("title") {
        paragraphs.push(title.to_owned());
    }
    if let Some(description) = text("description") {
        let first = description.split("\n\n").next().unwrap_or(description).trim();
        if !paragraphs.iter().any(|p| p == first) {
            paragraphs.push(first.to_owned());
        }
    }
    paragraphs.push(format!("Schema: {}", site(&def.file, &def.pointer)));
    let body: Vec<String> = paragraphs.iter().map(|p| wrap(&escape_docstring(p), indent)).collect();
    let body = body.join("\n\n");
    format!("{indent}\"\"\"{}\n{indent}\"\"\"\n", body.strip_prefix(indent).unwrap_or(&body))
}

fn escape_docstring(text: &str) -> String {
    text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"")
}

/// Words of `text` in lines of at most 96 characters, each line after the first indented.
fn wrap(text: &str, indent: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > 96 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.iter().map(|l| format!("{indent}{l}")).collect::<Vec<_>>().join("\n")
}

/// A module-level alias with its comments and an attribute docstring.
fn alias(def: &TypeDef, hint: &str, comments: &str) -> String {
    let doc = docstring(def, "");
    format!("\n\n{comments}{} = {hint}\n{doc}", def.flat)
}

fn header(fallbacks: &[String]) -> String {
    let mut listed = String::new();
    let mut fallbacks = fallbacks.to_vec();
    fallbacks.sort();
    for fallback in &fallbacks {
        listed.push_str(&format!("{}\n", wrap(&format!("- {fallback}"), "  ").trim_start()));
    }
    if listed.is_empty() {
        listed.push_str("(none)\n");
    }
    format!(
        r#"# Generated by jerry-contracts-codegen from schemas/; do not edit.
# Regenerate with: {REGENERATE}
"""Type hints for the JSON documents of the contracts: one ``TypedDict`` per object schema and
one alias per other schema type, named as the Rust types are (``ResearcherOutput``, ...).

A document typed ``doc: ResearcherOutput = {{...}}`` is checked by mypy for its shape: required
and optional keys, the value types, enum and const values (``Literal``). The constraints a type
hint cannot state are ``jerry_contracts.validate()``'s job: patterns, lengths, ranges, formats
(dates, UUIDs, URIs are ``str``), unique items, and the convention layer (``x-convention``).

Objects with declared properties are open in the schemas (``additionalProperties`` absent or
true) but a ``TypedDict`` is closed: mypy rejects a literal with a key the schema does not
declare. The agent-output dispatch (``if``/``then``/``else`` on ``agent_id``) is the ``Union``
of its branches and its fallback, wider than the schema. ``bool`` is a subtype of ``int``
and ``int`` is accepted for ``float`` (as JSON numbers are).

``BY_SCHEMA`` maps each registry name (``agents/ps/researcher_output``, and
``NAME#/definitions/DEF`` for definitions) to its type.

Where a schema accepts any JSON value, the hint is ``Any`` (these sites):

{listed}"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union
"#
    )
}

fn footer(plan: &Plan) -> String {
    let mut by_schema = BTreeMap::new();
    for def in &plan.types {
        let stem = def.file.strip_suffix(".json").unwrap_or(&def.file);
        let definition =
            def.pointer.strip_prefix("/definitions/").is_some_and(|rest| !rest.is_empty() && !rest.contains('/'));
        if def.pointer.is_empty() {
            by_schema.insert(stem.to_owned(), def.flat.clone());
        } else if definition {
            by_schema.insert(format!("{stem}#{}", def.pointer), def.flat.clone());
        }
    }
    let entries: String =
        by_schema.iter().map(|(schema, flat)| format!("    {}: {flat},\n", literal(schema))).collect();
    let mut names: Vec<&str> = plan.types.iter().map(|t| t.flat.as_str()).collect();
    names.push("BY_SCHEMA");
    names.sort_unstable();
    let all: String = names.iter().map(|n| format!("    {},\n", literal(n))).collect();
    format!(
        "\n\n#: The type of each schema, by registry name (``NAME`` or ``NAME#/definitions/DEF``).\nBY_SCHEMA: Dict[str, Any] = {{\n{entries}}}\n\n__all__ = [\n{all}]\n"
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::corpus::Schema;

    fn generate(path: &str, document: Value) -> Result<String, Vec<Problem>> {
        let id = format!("{}{path}", crate::corpus::ID_BASE);
        let corpus = Corpus { schemas: vec![Schema { path: path.to_owned(), id, document }], problems: Vec::new() };
        let plan = crate::plan::plan(&corpus)?;
        source(&corpus, &plan)
    }

    #[test]
    fn required_optional_nullable_and_keyword_keys() {
        let out = generate(
            "orchestration/move.json",
            json!({
                "title": "Move",
                "type": "object",
                "required": ["from", "note"],
                "properties": {
                    "from": {"type": "string"},
                    "note": {"type": ["string", "null"]},
                    "to": {"type": "array", "items": {"type": "integer"}},
                    "level": {"enum": ["low", "high", null]},
                    "blob": {"description": "anything"}
                }
            }),
        )
        .unwrap_or_else(|problems| panic!("{problems:?}"));
        assert!(out.contains("_MoveRequired = TypedDict(\n    \"_MoveRequired\",\n    {\n        \"from\": \"str\",\n        \"note\": \"Optional[str]\",\n    },\n)"), "{out}");
        assert!(out.contains("\"to\": \"List[int]\""), "{out}");
        assert!(out.contains("\"level\": \"Optional[MoveLevel]\""), "{out}");
        assert!(out.contains("MoveLevel = Literal[\"low\", \"high\"]"), "{out}");
        assert!(out.contains("class Move(_MoveRequired, _MoveOptional):"), "{out}");
        assert!(
            out.contains("- Any: schemas/orchestration/move.json#/properties/blob accepts any JSON value"),
            "{out}"
        );
        assert!(out.contains("\"orchestration/move\": Move,"), "{out}");
    }

    #[test]
    fn class_syntax_splits_required_from_optional_keys() {
        let out = generate(
            "common/pair.json",
            json!({
                "type": "object",
                "required": ["left"],
                "properties": {"left": {"type": "number"}, "right": {"type": "boolean", "const": true}},
                "definitions": {"alias": {"$ref": "#"}, "names": {"type": "object", "additionalProperties": {"type": "string"}}}
            }),
        )
        .unwrap_or_else(|problems| panic!("{problems:?}"));
        assert!(
            out.contains(
                "class _PairRequired(TypedDict):\n    \"\"\"The required keys of Pair.\"\"\"\n\n    left: float\n"
            ),
            "{out}"
        );
        assert!(out.contains("class Pair(_PairRequired, total=False):"), "{out}");
        assert!(out.contains("    right: Literal[True]\n"), "{out}");
        assert!(out.contains("\nAlias = Pair\n"), "{out}");
        assert!(out.contains("\nNames = Dict[str, str]\n"), "{out}");
    }

    #[test]
    fn a_shape_without_a_faithful_mapping_is_a_problem_with_its_place() {
        let mut map = Map::new();
        map.insert("allOf".to_owned(), json!([{"type": "string"}]));
        let corpus = Corpus::default();
        let plan = Plan::default();
        let mut emitter =
            Emitter { corpus: &corpus, plan: &plan, problems: Vec::new(), notes: Vec::new(), fallbacks: Vec::new() };
        emitter.structural("common/x.json", "/definitions/x", &map, Quote::Bare);
        map.remove("allOf");
        map.insert("enum".to_owned(), json!([1.5]));
        emitter.structural("common/x.json", "/definitions/y", &map, Quote::Bare);
        let places: Vec<String> = emitter.problems.iter().map(ToString::to_string).collect();
        assert_eq!(places.len(), 2, "{places:?}");
        assert!(places[0].starts_with("common/x.json#/definitions/x/allOf: Python types: allOf"), "{places:?}");
        assert!(places[1].starts_with("common/x.json#/definitions/y/enum: Python types: enum value 1.5"), "{places:?}");
    }
}
