//! The constraint inventory: every assertion keyword of every schema in the corpus (pattern,
//! format, lengths, ranges, item counts, uniqueness, enum, const and each required property),
//! each with a stable id. The boundary fixtures are kept per constraint id, and the test suite
//! holds the inventory against them, so a constraint without fixtures is named.

use serde_json::Value;

use crate::corpus::Corpus;

/// Keywords that assert something about a value (besides `type` and `required`, which the
/// inventory handles on its own terms: `required` gives one constraint per property).
pub const ASSERTIONS: &[&str] = &[
    "pattern",
    "format",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "enum",
    "const",
];

/// One constraint of the corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// Schema file under `schemas/`.
    pub schema: String,
    /// JSON Pointer of the schema object that holds the keyword.
    pub pointer: String,
    /// The keyword (`pattern`, …, `required`).
    pub keyword: String,
    /// The keyword's value; for `required`, the name of the required property.
    pub value: Value,
}

impl Constraint {
    /// Stable id: `file#pointer/keyword`, and for `required` `file#pointer/required/name`.
    pub fn id(&self) -> String {
        match (self.keyword.as_str(), &self.value) {
            ("required", Value::String(name)) => {
                format!("{}#{}/required/{}", self.schema, self.pointer, jerry_contracts_pointer::escape(name))
            }
            _ => format!("{}#{}/{}", self.schema, self.pointer, self.keyword),
        }
    }
}

/// Every constraint of the corpus, in file order and, within a file, in document order.
/// `uniqueItems: false` asserts nothing and is left out; so is everything under `if` (a
/// condition, not an assertion) and under the annotations `examples` and `default`.
pub fn inventory(corpus: &Corpus) -> Vec<Constraint> {
    let mut out = Vec::new();
    for schema in &corpus.schemas {
        walk(&schema.path, "", &schema.document, &mut out, 0);
    }
    out
}

fn walk(file: &str, pointer: &str, node: &Value, out: &mut Vec<Constraint>, depth: usize) {
    let Some(map) = node.as_object() else { return };
    if depth > 64 {
        return;
    }
    let push = |out: &mut Vec<Constraint>, keyword: &str, value: &Value| {
        out.push(Constraint {
            schema: file.to_owned(),
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            value: value.clone(),
        });
    };
    for keyword in ASSERTIONS {
        match map.get(*keyword) {
            Some(Value::Bool(false)) if *keyword == "uniqueItems" => {}
            Some(value) => push(out, keyword, value),
            None => {}
        }
    }
    for name in map.get("required").and_then(Value::as_array).into_iter().flatten() {
        push(out, "required", name);
    }
    for key in ["properties", "definitions"] {
        for (name, sub) in map.get(key).and_then(Value::as_object).into_iter().flatten() {
            walk(file, &format!("{pointer}/{key}/{}", jerry_contracts_pointer::escape(name)), sub, out, depth + 1);
        }
    }
    for key in ["items", "additionalProperties", "then", "else", "not"] {
        if let Some(sub) = map.get(key) {
            walk(file, &format!("{pointer}/{key}"), sub, out, depth + 1);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, sub) in map.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            walk(file, &format!("{pointer}/{key}/{i}"), sub, out, depth + 1);
        }
    }
}

/// One row of the constraint table: a cited keyword (every keyword of
/// [`crate::keywords::CITED`], in the schema or in an `x-convention`) and its source.
#[derive(Debug, Clone, PartialEq)]
pub struct SourcedConstraint {
    /// The constraint; a convention's pointer ends in `/x-convention`.
    pub constraint: Constraint,
    /// Whether it is a convention (a warning, an error only in strict mode).
    pub convention: bool,
    /// Its `x-source` entry, when it has one.
    pub source: Option<String>,
}

impl SourcedConstraint {
    /// What is wrong with the source, if anything: missing, or of the wrong kind (a schema
    /// constraint must cite a seed line, a convention its decision).
    pub fn problem(&self) -> Option<String> {
        let id = self.constraint.id();
        match (&self.source, self.convention) {
            (None, _) => Some(format!("{id}: no source (x-source)")),
            (Some(source), false) if !source.starts_with("seed ") => Some(format!(
                "{id}: a constraint of the schema layer must cite a seed line, not {source:?}; a convention belongs in x-convention"
            )),
            (Some(source), true) if !source.starts_with("convention D-") => {
                Some(format!("{id}: a convention must cite its decision (\"convention D-NN\"), not {source:?}"))
            }
            _ => None,
        }
    }
}

/// Every cited constraint of the corpus with its source, in file and document order: the schema
/// layer's and the conventions'.
pub fn sourced(corpus: &Corpus) -> Vec<SourcedConstraint> {
    let mut out = Vec::new();
    for schema in &corpus.schemas {
        walk_sourced(&schema.path, "", &schema.document, false, &mut out, 0);
    }
    out
}

/// Every convention of the corpus (the constraints of the `x-convention` objects).
pub fn conventions(corpus: &Corpus) -> Vec<Constraint> {
    sourced(corpus).into_iter().filter(|c| c.convention).map(|c| c.constraint).collect()
}

fn walk_sourced(
    file: &str,
    pointer: &str,
    node: &Value,
    convention: bool,
    out: &mut Vec<SourcedConstraint>,
    depth: usize,
) {
    let Some(map) = node.as_object() else { return };
    if depth > 64 {
        return;
    }
    let sources = map.get("x-source");
    for keyword in crate::keywords::CITED {
        let Some(value) = map.get(*keyword) else { continue };
        if (*keyword == "uniqueItems" && value == &Value::Bool(false))
            || (*keyword == "additionalProperties" && value != &Value::Bool(false))
        {
            continue;
        }
        let cited = sources.and_then(|s| s.get(*keyword));
        let values: Vec<(Value, Option<String>)> = match (*keyword, value) {
            ("required", Value::Array(names)) => names
                .iter()
                .map(|name| {
                    let source = match cited {
                        Some(Value::Object(per_name)) => {
                            name.as_str().and_then(|n| per_name.get(n)).and_then(Value::as_str)
                        }
                        other => other.and_then(Value::as_str),
                    };
                    (name.clone(), source.map(str::to_owned))
                })
                .collect(),
            _ => vec![(value.clone(), cited.and_then(Value::as_str).map(str::to_owned))],
        };
        for (value, source) in values {
            out.push(SourcedConstraint {
                constraint: Constraint {
                    schema: file.to_owned(),
                    pointer: pointer.to_owned(),
                    keyword: (*keyword).to_owned(),
                    value,
                },
                convention,
                source,
            });
        }
    }
    if !convention && let Some(inner) = map.get("x-convention") {
        walk_sourced(file, &format!("{pointer}/x-convention"), inner, true, out, depth + 1);
    }
    if convention {
        return;
    }
    for key in ["properties", "definitions"] {
        for (name, sub) in map.get(key).and_then(Value::as_object).into_iter().flatten() {
            walk_sourced(
                file,
                &format!("{pointer}/{key}/{}", jerry_contracts_pointer::escape(name)),
                sub,
                false,
                out,
                depth + 1,
            );
        }
    }
    for key in ["items", "additionalProperties", "then", "else", "not"] {
        if let Some(sub) = map.get(key) {
            walk_sourced(file, &format!("{pointer}/{key}"), sub, false, out, depth + 1);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, sub) in map.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            walk_sourced(file, &format!("{pointer}/{key}/{i}"), sub, false, out, depth + 1);
        }
    }
}

/// The constraint table, `docs/constraints.md`: every constraint of the corpus with its layer
/// and its source (a test keeps the committed page equal to this).
pub fn table(corpus: &Corpus) -> String {
    let rows = sourced(corpus);
    let conventions = rows.iter().filter(|r| r.convention).count();
    let mut page = format!(
        "# Constraints and their sources\n\n\
         Every constraint of `schemas/` — each required property, pattern, enum, const, range, length,\n\
         count, uniqueness, format and closed object — with where it comes from, as the schema's\n\
         `x-source` annotation records it:\n\n\
         - **seed**: the seed line that states it (`000:412` is line 412 of `shared/seeds/000_…`; seed\n\
           004 is cited by section). These are the schema layer: a document that breaks one is invalid.\n\
         - **convention**: the project's own choice, with the decision in `docs/decisions.md` that makes it.\n\
           These sit in the schema's `x-convention` objects and form the convention layer: a warning\n\
           (`CNV-*`), an error only in strict mode (`validate --strict`, `Options::strict`).\n\n\
         {} constraints: {} stated by the seeds, {conventions} conventions. This page is generated from the\n\
         schemas (`jerry_contracts_codegen::constraints::table`); `JERRY_BLESS=1 cargo test --test artifacts`\n\
         refreshes it.\n",
        rows.len(),
        rows.len() - conventions,
    );
    let mut current = "";
    for row in &rows {
        let c = &row.constraint;
        if c.schema != current {
            current = &c.schema;
            page.push_str(&format!(
                "\n## `{current}`\n\n| Where | Keyword | Value | Layer | Source |\n|---|---|---|---|---|\n"
            ));
        }
        let place = c.pointer.strip_suffix("/x-convention").unwrap_or(&c.pointer);
        let place = if place.is_empty() { "(root)" } else { place };
        page.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            cell(place),
            c.keyword,
            cell_value(&c.value),
            if row.convention { "convention" } else { "seed" },
            row.source.as_deref().map_or_else(|| "**missing**".to_owned(), cell),
        ));
    }
    page
}

/// Text for a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// A constraint's value for a table cell: its JSON, shortened past 80 characters.
fn cell_value(value: &Value) -> String {
    let text = value.to_string();
    let shown: String = text.chars().take(80).collect();
    let shown = if shown.len() < text.len() { format!("{shown}…") } else { shown };
    format!("`{}`", cell(&shown).replace('`', "'"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_assertion_gets_an_id_and_conditions_do_not() {
        let document = json!({
            "type": "object",
            "required": ["id", "a/b"],
            "properties": {
                "id": {"type": "string", "pattern": "^X$", "maxLength": 3},
                "tags": {"type": "array", "uniqueItems": false, "items": {"enum": ["a"]}}
            },
            "definitions": {"n": {"type": "number", "minimum": 0}},
            "if": {"properties": {"id": {"const": "X"}}},
            "then": {"required": ["tags"]}
        });
        let mut out = Vec::new();
        walk("x.json", "", &document, &mut out, 0);
        let ids: Vec<String> = out.iter().map(Constraint::id).collect();
        assert_eq!(
            ids,
            [
                "x.json#/required/id",
                "x.json#/required/a~1b",
                "x.json#/properties/id/pattern",
                "x.json#/properties/id/maxLength",
                "x.json#/properties/tags/items/enum",
                "x.json#/definitions/n/minimum",
                "x.json#/then/required/tags",
            ]
        );
    }
}
