//! The TypeScript types of the corpus: the source of the npm package's `contracts.d.ts`, one
//! `interface` or `type` per type of the model ([`crate::model::TypeModel`]), under the Rust
//! type's flat name, so TypeScript, Python and Rust users share one vocabulary
//! (`ResearcherOutput`, `Severity`, …).
//!
//! The mapping (decision D-212): an object with declared properties is an `interface` whose
//! required members are the schema's `required` and whose other members are optional (`key?:`);
//! `enum` and `const` are unions of literal types; `string`, `integer`, `number`, `boolean`,
//! `null` are `string`, `number`, `number`, `boolean`, `null`; arrays are `T[]`, maps
//! (`additionalProperties: {schema}`) are `{ [key: string]: T }`, a type list with `null` is
//! `T | null`, and a `$ref` is the referenced type's name. The agent-output dispatch (`if`/`then`/
//! `else` on `agent_id`) is the union of its branches, each an output whose `agent_id` is its
//! agent's constant, and its fallback with an `agent_id` of any value (D-213): wider than the
//! schema, as the Python `Union` is. A value the schema leaves open (no `type`, an
//! object without properties or map schema, an array without `items`) is `unknown` (in an array
//! or map, `unknown[]` or `{ [key: string]: unknown }`), with a comment at the site and a line in
//! the file's header. Every construct without a faithful mapping is a [`Problem`] naming the
//! schema file and pointer, never a silently wider or narrower type. Constraints (patterns,
//! ranges, lengths, formats, closed objects) are left to `validate()`.
//!
//! The file names no global type (`Array`, `Record`, …), so a contract type may take any name.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::REGENERATE;
use crate::corpus::Problem;
use crate::model::{Body, Expr, Field, Model, TypeModel};
use crate::renderer::{Findings, by_schema, site, summary, wrap};

/// Where the rendered file is committed, relative to the workspace root.
pub const TYPES_PATH: &str = "crates/node/contracts.d.ts";

/// Where the type guards' module is committed (`isResearcherOutput(value)` and the like, each
/// the validator's verdict on the value against its schema).
pub const GUARDS_PATH: &str = "crates/node/guards.js";

/// Where the type guards' declarations are committed.
pub const GUARDS_TYPES_PATH: &str = "crates/node/guards.d.ts";

/// Names a TypeScript type cannot take: the predefined types and the reserved words.
const RESERVED: &[&str] = &[
    "any",
    "bigint",
    "boolean",
    "never",
    "null",
    "number",
    "object",
    "string",
    "symbol",
    "undefined",
    "unknown",
    "void",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "while",
    "with",
    "implements",
    "interface",
    "let",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "yield",
    "type",
    "BySchema",
    "SchemaName",
];

/// The TypeScript source of `contracts.d.ts`, rendered from the model's types.
pub fn source(model: &Model) -> Result<String, Vec<Problem>> {
    let mut emitter = Emitter { file: String::new(), found: Findings::new("TypeScript types", "unknown", "//") };
    for ty in &model.types {
        if !is_identifier(&ty.flat) || RESERVED.contains(&ty.flat.as_str()) {
            emitter.problem(&ty.file, &ty.pointer, format!("type name {} is not a free TypeScript name", ty.flat));
        }
    }
    let mut body = String::new();
    for ty in &model.types {
        emitter.file.clone_from(&ty.file);
        match &ty.body {
            Body::Object { fields, .. } => body.push_str(&emitter.interface(ty, fields)),
            Body::Dispatch { branches, fallback } => {
                // The fallback's `agent_id` is whatever a payload of no listed agent has (absent,
                // another agent, any value), so that `payload.agent_id` reads on every branch.
                let other = format!("({fallback} & {{ agent_id?: unknown }})");
                let members: Vec<&str> =
                    branches.iter().map(|(_, target)| target.as_str()).chain([other.as_str()]).collect();
                let comment = format!(
                    "// Wider than {}: a payload whose `agent_id` names an agent is that agent's output\n// (its `agent_id` is the agent's constant), but the fallback's `agent_id` is `unknown`,\n// so comparing it narrows to the output or the fallback (validate() ties them).\n",
                    site(&ty.file, &ty.pointer)
                );
                let listed: String = members.iter().map(|m| format!("\n  | {m}")).collect();
                body.push_str(&alias(ty, &listed, &comment));
                let of = format!("{}Of", ty.flat);
                if model.types.iter().any(|t| t.flat == of) || RESERVED.contains(&of.as_str()) {
                    emitter.problem(&ty.file, &ty.pointer, format!("type name {of} is taken"));
                }
                body.push_str(&format!(
                    "\n/**\n * The branch of {} whose `agent_id` is `A`: `{of}<\"ps-researcher\">` is the\n * researcher's output.\n */\nexport type {of}<A extends string, P = {}> = P extends {{ agent_id: A }} ? P : never;\n",
                    ty.flat, ty.flat
                ));
            }
            Body::Alias(expr) => {
                let text = emitter.type_of(expr);
                let comment = emitter.found.take_notes();
                body.push_str(&alias(ty, &text, &comment));
            }
        }
    }
    if !emitter.found.problems.is_empty() {
        return Err(emitter.found.problems);
    }
    Ok(format!("{}{}{}", header(&emitter.found.fallbacks), body, footer(&model.types)))
}

struct Emitter {
    /// The schema file of the type being written (every expression inside one type is read
    /// from its file; other files' types are names).
    file: String,
    /// The problems and the `unknown` fallbacks found.
    found: Findings,
}

impl Emitter {
    fn problem(&mut self, file: &str, pointer: &str, message: impl Into<String>) -> String {
        self.found.problem(file, pointer, message)
    }

    /// An `interface` for an object with declared properties.
    fn interface(&mut self, ty: &TypeModel, fields: &[Field]) -> String {
        let mut members = String::new();
        for field in fields {
            let text = self.type_of(&field.expr);
            for note in self.found.take_notes().lines() {
                members.push_str(&format!("  {note}\n"));
            }
            if let Some(description) = field.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
                members.push_str(&doc_comment(&[description.to_owned()], "  "));
            }
            let optional = if field.required { "" } else { "?" };
            members.push_str(&format!("  {}{optional}: {text};\n", key(&field.name)));
        }
        format!("\n{}export interface {} {{\n{members}}}\n", doc_comment(&type_doc(ty), ""), ty.flat)
    }

    /// The TypeScript type of a type expression.
    fn type_of(&mut self, expr: &Expr) -> String {
        match expr {
            Expr::Named(flat) => flat.clone(),
            Expr::String { .. } => "string".to_owned(),
            Expr::Integer | Expr::Number => "number".to_owned(),
            Expr::Boolean => "boolean".to_owned(),
            Expr::Null => "null".to_owned(),
            Expr::Const { value, pointer } => match literal_type(value) {
                Some(text) => text,
                None => {
                    let file = self.file.clone();
                    self.problem(&file, pointer, format!("const {value} has no literal type"))
                }
            },
            Expr::Enum { values, pointer } => {
                let mut literals = Vec::new();
                for value in values {
                    match literal_type(value) {
                        Some(text) => literals.push(text),
                        None => {
                            let file = self.file.clone();
                            return self.problem(&file, pointer, format!("enum value {value} has no literal type"));
                        }
                    }
                }
                literals.join(" | ")
            }
            Expr::Array(items) => {
                let items = self.type_of(items);
                if is_simple(&items) { format!("{items}[]") } else { format!("({items})[]") }
            }
            Expr::Map(values) => format!("{{ [key: string]: {} }}", self.type_of(values)),
            Expr::Union(members) => {
                let mut members: Vec<String> = members.iter().map(|m| self.type_of(m)).collect();
                members.dedup();
                match members.len() {
                    0 => "unknown".to_owned(),
                    _ => members.join(" | "),
                }
            }
            Expr::Nullable(inner) => {
                let text = self.type_of(inner);
                if text == "null" || text == "unknown" { text } else { format!("{text} | null") }
            }
            Expr::Any(any) => self.found.fallback(any),
        }
    }
}

/// Whether a type can stand before `[]` without parentheses: a name or a predefined type.
fn is_simple(text: &str) -> bool {
    is_identifier(text)
}

/// A JSON scalar as a literal type; `None` for an array or object (whose constant has no
/// literal type) and a number TypeScript would read as another (past 2^53, or a fraction it
/// rounds).
fn literal_type(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(string_literal(text)),
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Null => Some("null".to_owned()),
        Value::Number(n) => {
            let text = n.to_string();
            // The literal must name the number JavaScript reads from it.
            let exact = n.as_f64().is_some_and(|f| f.is_finite() && f.abs() < 9_007_199_254_740_992.0)
                && (n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.to_string() == text));
            exact.then_some(text)
        }
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// A TypeScript string literal: JSON's escapes are all JavaScript escapes, and JSON text is
/// valid JavaScript since ES2019 (U+2028 and U+2029 are escaped all the same, for older readers).
fn string_literal(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"));
    quoted.replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// A member name as an interface writes it: bare when it is an identifier, quoted otherwise.
fn key(name: &str) -> String {
    if is_identifier(name) { name.to_owned() } else { string_literal(name) }
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The paragraphs of a type's doc comment: its title, the first paragraph of its description,
/// its place.
fn type_doc(ty: &TypeModel) -> Vec<String> {
    let mut paragraphs = summary(ty);
    paragraphs.push(format!("Schema: `{}`", site(&ty.file, &ty.pointer)));
    paragraphs
}

/// A `/** … */` comment of these paragraphs, each wrapped at 96 characters; a `*/` in the text
/// cannot end the comment.
fn doc_comment(paragraphs: &[String], indent: &str) -> String {
    let mut out = format!("{indent}/**\n");
    for (i, paragraph) in paragraphs.iter().enumerate() {
        if i > 0 {
            out.push_str(&format!("{indent} *\n"));
        }
        let text = paragraph.replace("*/", "*\\/");
        for line in wrap(&text, indent.len() + 3) {
            out.push_str(&format!("{indent} * {line}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
    out
}

/// A type alias with its comments and doc comment.
fn alias(ty: &TypeModel, text: &str, comments: &str) -> String {
    let space = if text.starts_with('\n') { "" } else { " " };
    format!("\n{comments}{}export type {} ={space}{text};\n", doc_comment(&type_doc(ty), ""), ty.flat)
}

fn header(fallbacks: &[String]) -> String {
    let mut fallbacks = fallbacks.to_vec();
    fallbacks.sort();
    let mut listed = String::new();
    for fallback in &fallbacks {
        let mut lines = wrap(&format!("- {fallback}"), 5).into_iter();
        if let Some(first) = lines.next() {
            listed.push_str(&format!(" * {first}\n"));
        }
        for line in lines {
            listed.push_str(&format!(" *   {line}\n"));
        }
    }
    if listed.is_empty() {
        listed.push_str(" * (none)\n");
    }
    format!(
        r#"// Generated by jerry-contracts-codegen from schemas/; do not edit.
// Regenerate with: {REGENERATE}

/**
 * TypeScript types for the JSON documents of the contracts: one interface per object schema and
 * one type per other schema type, named as the Rust and Python types are (`ResearcherOutput`, ...).
 *
 * A document typed `const doc: ResearcherOutput = {{...}}` is checked by `tsc` for its shape:
 * required and optional members, the value types, enum and const values (literal types). The
 * constraints a type cannot state are the validator's job: patterns, lengths, ranges, formats
 * (dates, UUIDs and URIs are `string`), unique items, and the convention layer (`x-convention`).
 *
 * The schemas leave objects open (`additionalProperties` absent or true), and so do the
 * interfaces: a value with members an interface does not declare is assignable to it. They have
 * no index signature, so an object literal with a misspelt member name is refused (TypeScript's
 * check of excess properties), as is one that lacks a required member. The agent-output dispatch
 * is the union of every agent's output, each with its `agent_id` constant, and the fallback
 * with an `agent_id` of any value: wider than the schema, since `agent_id === "ps-researcher"`
 * narrows to the researcher's output or the fallback; `V11PayloadOf<"ps-researcher">` is the
 * researcher's output alone.
 *
 * `BySchema` maps each registry name (`agents/ps/researcher_output`, and
 * `NAME#/definitions/DEF` for definitions) to its type.
 *
 * Where a schema accepts any JSON value, the type is `unknown` (these sites):
{listed} */
"#
    )
}

/// The type guards of the npm package: `(guards.js, guards.d.ts)`, one guard a registry name of
/// `BySchema` (a schema or a definition), `is` + the type's flat name (`isResearcherOutput`), each
/// the validator's verdict on the value against that schema (`is(name, value)` in `index.js`,
/// which passes itself in).
pub fn guards(model: &Model) -> Result<(String, String), Vec<Problem>> {
    let by_schema = by_schema(&model.types);
    // One guard a type: two registry names of one type would give two guards of one name.
    let mut named: BTreeMap<&str, &str> = BTreeMap::new();
    let mut problems = Vec::new();
    for (schema, flat) in &by_schema {
        if let Some(first) = named.insert(flat, schema) {
            let (file, pointer) = schema.split_once('#').unwrap_or((schema, ""));
            problems.push(Problem::new(
                format!("{file}.json"),
                pointer,
                format!("TypeScript guards: is{flat} would check both {first} and {schema}"),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let head = format!(
        "// Generated by jerry-contracts-codegen from schemas/; do not edit.\n// Regenerate with: {REGENERATE}\n"
    );
    let mut js = format!(
        "{head}\"use strict\";\n\n/**\n * The type guards of the contract types, each the validator's verdict on a value against its\n * schema, every layer: `isResearcherOutput(value)` is `is(\"agents/ps/researcher_output\", value)`.\n * index.js passes its `is` in and exports the guards.\n */\nmodule.exports = (is) => ({{\n"
    );
    let mut dts = format!(
        "{head}\nimport type {{\n{}}} from \"./contracts\";\n",
        by_schema
            .values()
            .collect::<std::collections::BTreeSet<_>>()
            .iter()
            .map(|flat| format!("  {flat},\n"))
            .collect::<String>()
    );
    for (schema, flat) in &by_schema {
        js.push_str(&format!("  is{flat}: (value) => is({}, value),\n", string_literal(schema)));
        dts.push_str(&format!(
            "\n/** Whether `value` is a valid document of `{schema}` (every layer), as {flat}. */\nexport declare function is{flat}(value: unknown): value is {flat};\n"
        ));
    }
    js.push_str("});\n");
    Ok((js, dts))
}

fn footer(types: &[TypeModel]) -> String {
    let by_schema = by_schema(types);
    let entries: String =
        by_schema.iter().map(|(schema, flat)| format!("  {}: {flat};\n", string_literal(schema))).collect();
    format!(
        "\n/** The type of each schema, by registry name (`NAME` or `NAME#/definitions/DEF`). */\nexport interface BySchema {{\n{entries}}}\n\n/** A registry name of a schema. */\nexport type SchemaName = keyof BySchema;\n"
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
    fn required_optional_nullable_and_quoted_members() {
        let out = generate(
            "orchestration/move.json",
            json!({
                "title": "Move",
                "type": "object",
                "required": ["from", "note"],
                "properties": {
                    "from": {"type": "string", "description": "Where it starts"},
                    "note": {"type": ["string", "null"]},
                    "to": {"type": "array", "items": {"type": "integer"}},
                    "level": {"enum": ["low", "high", null]},
                    "blob": {"description": "anything"},
                    "x-y": {"type": "object", "additionalProperties": {"type": ["number", "null"]}}
                }
            }),
        )
        .unwrap_or_else(|problems| panic!("{problems:?}"));
        assert!(out.contains("export interface Move {\n"), "{out}");
        assert!(out.contains("  /**\n   * Where it starts\n   */\n  from: string;\n"), "{out}");
        assert!(out.contains("  note: string | null;\n"), "{out}");
        assert!(out.contains("  to?: number[];\n"), "{out}");
        assert!(out.contains("  level?: MoveLevel | null;\n"), "{out}");
        assert!(out.contains("export type MoveLevel = \"low\" | \"high\";"), "{out}");
        assert!(out.contains("  \"x-y\"?: { [key: string]: number | null };\n"), "{out}");
        assert!(out.contains("  // unknown: schemas/orchestration/move.json#/properties/blob accepts any JSON value\n  /**\n   * anything\n   */\n  blob?: unknown;\n"), "{out}");
        assert!(
            out.contains(" * - unknown: schemas/orchestration/move.json#/properties/blob accepts any JSON value\n"),
            "{out}"
        );
        assert!(out.contains("  \"orchestration/move\": Move;\n"), "{out}");
    }

    #[test]
    fn a_guard_for_every_schema_and_definition() {
        let corpus = Corpus::of_one(
            "common/pair.json",
            json!({
                "type": "object",
                "properties": {"left": {"type": "number"}},
                "definitions": {"side": {"enum": ["l", "r"]}}
            }),
        );
        let plan = crate::plan::plan(&corpus).unwrap_or_else(|p| panic!("{p:?}"));
        let model = crate::model::Model::new(&corpus, &plan).unwrap_or_else(|p| panic!("{p:?}"));
        let (js, dts) = guards(&model).unwrap_or_else(|p| panic!("{p:?}"));
        assert!(js.contains("  isPair: (value) => is(\"common/pair\", value),\n"), "{js}");
        assert!(js.contains("  isSide: (value) => is(\"common/pair#/definitions/side\", value),\n"), "{js}");
        assert!(dts.contains("import type {\n  Pair,\n  Side,\n} from \"./contracts\";"), "{dts}");
        assert!(dts.contains("export declare function isSide(value: unknown): value is Side;"), "{dts}");
    }

    #[test]
    fn literals_and_arrays_of_unions() {
        assert_eq!(literal_type(&json!("a\"b\u{2028}")).as_deref(), Some("\"a\\\"b\\u2028\""));
        assert_eq!(literal_type(&json!(true)).as_deref(), Some("true"));
        assert_eq!(literal_type(&json!(3)).as_deref(), Some("3"));
        assert_eq!(literal_type(&json!(9_007_199_254_740_993_u64)), None);
        assert_eq!(literal_type(&json!({"a": 1})), None);
        let mut emitter =
            Emitter { file: "common/x.json".into(), found: Findings::new("TypeScript types", "unknown", "//") };
        let union = Expr::Array(Box::new(Expr::Union(vec![Expr::Named("A".into()), Expr::Null])));
        assert_eq!(emitter.type_of(&union), "(A | null)[]");
        let nested = Expr::Array(Box::new(Expr::Array(Box::new(Expr::Boolean))));
        assert_eq!(emitter.type_of(&nested), "(boolean[])[]");
        assert_eq!(key("agent_id"), "agent_id");
        assert_eq!(key("$ref"), "$ref");
        assert_eq!(key("9lives"), "\"9lives\"");
    }

    #[test]
    fn a_shape_without_a_faithful_mapping_is_a_problem_with_its_place() {
        let mut emitter =
            Emitter { file: "common/x.json".into(), found: Findings::new("TypeScript types", "unknown", "//") };
        let expr = Expr::Const { value: json!([1, 2]), pointer: "/definitions/y/const".into() };
        assert_eq!(emitter.type_of(&expr), "unknown");
        let places: Vec<String> = emitter.found.problems.iter().map(ToString::to_string).collect();
        assert_eq!(places.len(), 1, "{places:?}");
        assert!(
            places[0].starts_with("common/x.json#/definitions/y/const: TypeScript types: const [1,2]"),
            "{places:?}"
        );
        let problems = generate("common/x.json", json!({"definitions": {"x": {"allOf": [{"type": "string"}]}}}))
            .expect_err("allOf has no mapping");
        let places: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(places.iter().any(|p| p.starts_with("common/x.json#/definitions/x/allOf: ")), "{places:?}");
    }
}
