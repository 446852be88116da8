//! The Python type hints of the corpus: the source of `jerry_contracts.types`, one `TypedDict` or
//! type alias per type of the model ([`crate::model::TypeModel`]), under the Rust type's flat
//! name, so Python and Rust users share one vocabulary (`ResearcherOutput`, `Severity`, …).
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
//! [`Problem`] naming the schema file and pointer (the model's, or this renderer's for what
//! Python alone cannot spell), never a silently wider or narrower type.
//! Constraints (patterns, ranges, lengths, formats, closed objects) are left to `validate()`.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::REGENERATE;
use crate::corpus::Problem;
use crate::model::{Body, Expr, Field, Model, TypeModel};
use crate::renderer::{Findings, by_schema, site, summary, wrap};

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

/// The Python source of `jerry_contracts.types`, rendered from the model's types.
pub fn source(model: &Model) -> Result<String, Vec<Problem>> {
    let flats: BTreeSet<&str> = model.types.iter().map(|t| t.flat.as_str()).collect();
    let mut emitter = Emitter { file: String::new(), found: Findings::new("Python types", "Any", "#") };
    for ty in &model.types {
        if !is_identifier(&ty.flat) || KEYWORDS.contains(&ty.flat.as_str()) || RESERVED.contains(&ty.flat.as_str()) {
            emitter.problem(&ty.file, &ty.pointer, format!("type name {} is not a free Python identifier", ty.flat));
        }
    }
    let mut body = String::new();
    let mut bare_aliases: Vec<(String, String, String)> = Vec::new();
    for ty in &model.types {
        emitter.file.clone_from(&ty.file);
        match &ty.body {
            Body::Object { fields, .. } => body.push_str(&emitter.typed_dict(ty, fields, &flats)),
            Body::Dispatch { branches, fallback } => {
                let members: Vec<String> =
                    branches.iter().map(|(_, target)| literal(target)).chain([literal(fallback)]).collect();
                let comment = format!(
                    "# Wider than {}: the Union does not tie a branch to its agent_id (validate() does).\n",
                    site(&ty.file, &ty.pointer)
                );
                body.push_str(&alias(ty, &format!("Union[{}]", members.join(", ")), &comment));
            }
            Body::Alias(expr) => {
                let hint = emitter.hint(expr, Quote::Names);
                let comment = emitter.found.take_notes();
                let bare = hint.strip_prefix('"').and_then(|h| h.strip_suffix('"')).filter(|h| flats.contains(h));
                if let Some(target) = bare {
                    // An alias of a bare name must come after the name is bound: these come last,
                    // in dependency order (a quoted name alone would be a string, not an alias).
                    bare_aliases.push((ty.flat.clone(), target.to_owned(), alias(ty, PLACEHOLDER, &comment)));
                } else {
                    body.push_str(&alias(ty, &hint, &comment));
                }
            }
        }
    }
    // Bare aliases in dependency order: each after the alias it names.
    let mut bound: BTreeSet<String> = model
        .types
        .iter()
        .filter(|t| !bare_aliases.iter().any(|(name, _, _)| *name == t.flat))
        .map(|t| t.flat.clone())
        .collect();
    while !bare_aliases.is_empty() {
        let ready = bare_aliases.iter().position(|(_, target, _)| bound.contains(target));
        let Some(index) = ready else {
            let (name, target, _) = &bare_aliases[0];
            let place =
                model.types.iter().find(|t| t.flat == *name).map_or(("schemas/", ""), |t| (&t.file, &t.pointer));
            emitter.problem(place.0, place.1, format!("alias {name} = {target} is part of a cycle of aliases"));
            break;
        };
        let (name, target, text) = bare_aliases.remove(index);
        body.push_str(&text.replace(PLACEHOLDER, &target));
        bound.insert(name);
    }
    if !emitter.found.problems.is_empty() {
        return Err(emitter.found.problems);
    }
    Ok(format!("{}{}{}", header(&emitter.found.fallbacks), body, footer(&model.types)))
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

struct Emitter {
    /// The schema file of the type being written (every expression inside one type is read
    /// from its file; other files' types are names).
    file: String,
    /// The problems and the `Any` fallbacks found.
    found: Findings,
}

impl Emitter {
    fn problem(&mut self, file: &str, pointer: &str, message: impl Into<String>) -> String {
        self.found.problem(file, pointer, message)
    }

    /// A `TypedDict` for an object with declared properties.
    fn typed_dict(&mut self, ty: &TypeModel, properties: &[Field], flats: &BTreeSet<&str>) -> String {
        let class_syntax = properties.iter().all(|field| {
            let key = field.name.as_str();
            is_identifier(key)
                && !key.starts_with("__")
                && !KEYWORDS.contains(&key)
                && !RESERVED.contains(&key)
                && !flats.contains(key)
        });
        // Class-syntax annotations are not evaluated (`from __future__ import annotations`), and
        // the functional form takes each hint as one string: names stay bare in both.
        let quote = Quote::Bare;
        // (key, hint, comments) of the required and the optional keys.
        let mut fields: [Vec<(String, String, String)>; 2] = [Vec::new(), Vec::new()];
        for field in properties {
            let hint = self.hint(&field.expr, quote);
            let comments = self.found.take_notes();
            fields[usize::from(!field.required)].push((field.name.clone(), hint, comments));
        }
        let doc = docstring(ty, "    ");
        let name = &ty.flat;
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

    /// The hint of a type expression.
    fn hint(&mut self, expr: &Expr, quote: Quote) -> String {
        match expr {
            Expr::Named(flat) => name(flat, quote),
            Expr::String { .. } => "str".to_owned(),
            Expr::Integer => "int".to_owned(),
            Expr::Number => "float".to_owned(),
            Expr::Boolean => "bool".to_owned(),
            Expr::Null => "None".to_owned(),
            Expr::Const { value, pointer } => match literal_value(value) {
                Some(value) if value == "None" => value,
                Some(value) => format!("Literal[{value}]"),
                None => {
                    let file = self.file.clone();
                    self.problem(&file, pointer, format!("const {value} has no Literal"))
                }
            },
            Expr::Enum { values, pointer } => {
                let mut literals = Vec::new();
                for value in values {
                    match literal_value(value) {
                        Some(text) => literals.push(text),
                        None => {
                            let file = self.file.clone();
                            return self.problem(&file, pointer, format!("enum value {value} has no Literal"));
                        }
                    }
                }
                format!("Literal[{}]", literals.join(", "))
            }
            Expr::Array(items) => format!("List[{}]", self.hint(items, quote)),
            Expr::Map(values) => format!("Dict[str, {}]", self.hint(values, quote)),
            Expr::Union(members) => {
                let mut members: Vec<String> = members.iter().map(|m| self.hint(m, quote)).collect();
                members.dedup();
                match members.len() {
                    0 => "Any".to_owned(),
                    1 => members.remove(0),
                    _ => format!("Union[{}]", members.join(", ")),
                }
            }
            Expr::Nullable(inner) => {
                let hint = self.hint(inner, quote);
                if hint == "None" || hint == "Any" { hint } else { format!("Optional[{hint}]") }
            }
            Expr::Any(any) => self.found.fallback(any),
        }
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

/// The docstring of a type: its title, the first paragraph of its description, its place.
fn docstring(ty: &TypeModel, indent: &str) -> String {
    let mut paragraphs = summary(ty);
    paragraphs.push(format!("Schema: {}", site(&ty.file, &ty.pointer)));
    let body: Vec<String> = paragraphs.iter().map(|p| indented(&escape_docstring(p), indent)).collect();
    let body = body.join("\n\n");
    format!("{indent}\"\"\"{}\n{indent}\"\"\"\n", body.strip_prefix(indent).unwrap_or(&body))
}

fn escape_docstring(text: &str) -> String {
    text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"")
}

/// Words of `text` in lines of at most 96 characters, each line indented.
fn indented(text: &str, indent: &str) -> String {
    wrap(text, indent.len()).iter().map(|l| format!("{indent}{l}")).collect::<Vec<_>>().join("\n")
}

/// A module-level alias with its comments and an attribute docstring.
fn alias(ty: &TypeModel, hint: &str, comments: &str) -> String {
    let doc = docstring(ty, "");
    format!("\n\n{comments}{} = {hint}\n{doc}", ty.flat)
}

fn header(fallbacks: &[String]) -> String {
    let mut listed = String::new();
    let mut fallbacks = fallbacks.to_vec();
    fallbacks.sort();
    for fallback in &fallbacks {
        listed.push_str(&format!("{}\n", indented(&format!("- {fallback}"), "  ").trim_start()));
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

fn footer(types: &[TypeModel]) -> String {
    let by_schema = by_schema(types);
    let entries: String =
        by_schema.iter().map(|(schema, flat)| format!("    {}: {flat},\n", literal(schema))).collect();
    let mut names: Vec<&str> = types.iter().map(|t| t.flat.as_str()).collect();
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
    use crate::corpus::Corpus;

    fn generate(path: &str, document: Value) -> Result<String, Vec<Problem>> {
        let corpus = Corpus::of_one(path, document);
        let plan = crate::plan::plan(&corpus)?;
        source(&crate::model::Model::new(&corpus, &plan)?)
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
        // allOf outside the dispatch: the model has no expression for it.
        let problems = generate("common/x.json", json!({"definitions": {"x": {"allOf": [{"type": "string"}]}}}))
            .expect_err("allOf has no mapping");
        let places: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(places.iter().any(|p| p.starts_with("common/x.json#/definitions/x/allOf: ")), "{places:?}");
        // An enum value Literal cannot hold: Python's own refusal (the planner takes string
        // enums only today; the renderer does not count on it).
        let mut emitter = Emitter { file: "common/x.json".into(), found: Findings::new("Python types", "Any", "#") };
        let expr = Expr::Enum { values: vec![json!(1.5)], pointer: "/definitions/y/enum".into() };
        assert_eq!(emitter.hint(&expr, Quote::Bare), "Any");
        let places: Vec<String> = emitter.found.problems.iter().map(ToString::to_string).collect();
        assert_eq!(places.len(), 1, "{places:?}");
        assert!(places[0].starts_with("common/x.json#/definitions/y/enum: Python types: enum value 1.5"), "{places:?}");
    }
}
