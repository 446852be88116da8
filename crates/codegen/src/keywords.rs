//! The JSON Schema keywords the generator carries into Rust types, and the check that fails the
//! build on any other. Every keyword is either carried (by the shape of the type, by a garde rule,
//! or as documentation) or rejected with the schema file and JSON Pointer; none is dropped.

use serde_json::{Map, Value};

use crate::corpus::{Problem, escape_token};

/// Keywords the generator knows, and how each reaches the types.
pub const SUPPORTED: &[(&str, &str)] = &[
    ("$schema", "checked by the corpus loader"),
    ("$id", "checked by the corpus loader; quoted in rustdoc"),
    ("$comment", "annotation"),
    ("title", "rustdoc"),
    ("description", "rustdoc"),
    ("examples", "annotation (checked against the schema by the test suite)"),
    ("default", "annotation; the field stays optional so a relayed document is not rewritten"),
    ("definitions", "one named type per definition"),
    ("$ref", "a reference to the named type"),
    ("type", "the Rust type; a type list with \"null\" makes the value nullable"),
    ("properties", "struct fields"),
    ("required", "non-optional fields"),
    ("additionalProperties", "a map type (schema) or the struct's `extra` map (true/absent)"),
    ("items", "Vec element type"),
    ("enum", "a Rust enum (with null: a nullable field)"),
    ("const", "a one-value type that only deserialises from the constant"),
    ("pattern", "garde `pattern` with an ECMA-262 matcher"),
    ("minLength", "garde `length(chars, min)`"),
    ("maxLength", "garde `length(chars, max)`"),
    ("minimum", "garde `range(min)`"),
    ("maximum", "garde `range(max)`"),
    ("minItems", "garde `length(min)`"),
    ("maxItems", "garde `length(max)`"),
    ("uniqueItems", "garde custom rule `support::unique_items`"),
    ("format", "date, date-time, uuid: strict types in `formats`; uri and uri-reference: RFC 3986 garde custom rules"),
    ("if", "only in the agent-output dispatch shape"),
    ("then", "only in the agent-output dispatch shape"),
    ("else", "only in the agent-output dispatch shape"),
    ("allOf", "only in the agent-output dispatch shape"),
];

/// `format` values the generator carries.
pub const FORMATS: &[&str] = &["date", "date-time", "uuid", "uri", "uri-reference"];

/// Keywords that may stand beside `$ref` (draft-07 ignores every sibling of `$ref`, so a
/// constraint there would be silently void).
pub const REF_SIBLINGS: &[&str] = &["$ref", "description", "title", "examples", "default", "$comment"];

/// Keywords of the dispatch shape, accepted only where [`crate::plan`] recognises it.
pub const DISPATCH_ONLY: &[&str] = &["if", "then", "else", "allOf"];

/// Checks the keywords of one schema object (not its subschemas). `dispatch` says whether the
/// dispatch keywords are allowed here.
pub fn check(file: &str, pointer: &str, node: &Map<String, Value>, dispatch: bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (key, value) in node {
        let at = format!("{pointer}/{}", escape_token(key));
        if !SUPPORTED.iter().any(|(k, _)| k == key) {
            problems.push(Problem::new(file, at, format!("keyword `{key}` is not supported by the code generator")));
            continue;
        }
        if DISPATCH_ONLY.contains(&key.as_str()) && !dispatch {
            problems.push(Problem::new(
                file,
                at,
                format!(
                    "keyword `{key}` is only supported in the agent-output dispatch shape (if/then/else on agent_id)"
                ),
            ));
            continue;
        }
        if key == "format" {
            match value.as_str() {
                Some(format) if FORMATS.contains(&format) => {}
                _ => problems.push(Problem::new(
                    file,
                    at,
                    format!("format {value} is not supported by the code generator"),
                )),
            }
        }
    }
    if node.contains_key("$ref") {
        for key in node.keys().filter(|k| !REF_SIBLINGS.contains(&k.as_str())) {
            problems.push(Problem::new(
                file,
                format!("{pointer}/{}", escape_token(key)),
                format!("`{key}` beside `$ref` is ignored by draft-07 validators; move it into the referenced schema"),
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check_json(value: Value, dispatch: bool) -> Vec<String> {
        let map = value.as_object().cloned().unwrap_or_default();
        check("x.json", "/p", &map, dispatch).into_iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn unsupported_keywords_are_named_with_file_and_pointer() {
        assert_eq!(
            check_json(json!({"type": "integer", "multipleOf": 7}), false),
            ["x.json#/p/multipleOf: keyword `multipleOf` is not supported by the code generator"]
        );
        assert_eq!(check_json(json!({"format": "email"}), false).len(), 1);
        assert_eq!(check_json(json!({"if": {}}), false).len(), 1);
        assert!(check_json(json!({"if": {}}), true).is_empty());
        assert_eq!(check_json(json!({"$ref": "#/definitions/a", "minimum": 1}), false).len(), 1);
        assert!(check_json(json!({"type": "string", "pattern": "^a$", "maxLength": 3}), false).is_empty());
    }
}
