//! The constraint inventory: every assertion keyword of every schema in the corpus (pattern,
//! format, lengths, ranges, item counts, uniqueness, enum, const and each required property),
//! each with a stable id. The boundary fixtures are kept per constraint id, and the test suite
//! holds the inventory against them, so a constraint without fixtures is named.

use serde_json::Value;

use crate::corpus::{Corpus, escape_token};

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
                format!("{}#{}/required/{}", self.schema, self.pointer, escape_token(name))
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
            walk(file, &format!("{pointer}/{key}/{}", escape_token(name)), sub, out, depth + 1);
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
