//! The check that fails the build on a keyword the generator cannot carry. Every keyword is
//! either carried (by the shape of the type, by a garde rule, or as documentation: the model's
//! table, [`Keyword`]) or rejected with the schema file and JSON Pointer; none is dropped.

use serde_json::{Map, Value};

use crate::corpus::Problem;
/// `format` values the generator carries.
pub use crate::model::FORMATS;
use crate::model::Keyword;

/// Checks the keywords of one schema object (not its subschemas). `dispatch` says whether the
/// dispatch keywords are allowed here.
pub fn check(file: &str, pointer: &str, node: &Map<String, Value>, dispatch: bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (key, value) in node {
        let at = format!("{pointer}/{}", jerry_contracts_pointer::escape(key));
        let Some(keyword) = Keyword::parse(key).filter(|k| k.is_supported()) else {
            problems.push(Problem::new(file, at, format!("keyword `{key}` is not supported by the code generator")));
            continue;
        };
        if keyword.dispatch_only() && !dispatch {
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
    if let Some(sources) = node.get("x-source") {
        problems.extend(check_sources(file, pointer, node, sources));
    }
    if let Some(convention) = node.get("x-convention") {
        problems.extend(check_convention(file, &format!("{pointer}/x-convention"), convention));
    }
    if node.contains_key("$ref") {
        for key in node.keys().filter(|k| !Keyword::parse(k).is_some_and(Keyword::beside_ref)) {
            problems.push(Problem::new(
                file,
                format!("{pointer}/{}", jerry_contracts_pointer::escape(key)),
                format!("`{key}` beside `$ref` is ignored by draft-07 validators; move it into the referenced schema"),
            ));
        }
    }
    problems
}

/// Checks an `x-source` object: every entry names a keyword of `node` and is a source
/// (`seed …` or `convention D-…`); `required` may instead give one source per required name.
fn check_sources(file: &str, pointer: &str, node: &Map<String, Value>, sources: &Value) -> Vec<Problem> {
    let at = |key: &str| format!("{pointer}/x-source/{}", jerry_contracts_pointer::escape(key));
    let Some(sources) = sources.as_object() else {
        return vec![Problem::new(
            file,
            format!("{pointer}/x-source"),
            "x-source must be an object: keyword -> source",
        )];
    };
    let mut problems = Vec::new();
    for (keyword, source) in sources {
        if !node.contains_key(keyword) {
            problems.push(Problem::new(
                file,
                at(keyword),
                format!("x-source cites `{keyword}`, which this object does not have"),
            ));
            continue;
        }
        match (keyword.as_str(), source) {
            (_, Value::String(text)) if is_source(text) => {}
            ("required", Value::Object(per_name)) => {
                let required: Vec<&str> = node
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                for (name, source) in per_name {
                    if !required.contains(&name.as_str()) {
                        problems.push(Problem::new(
                            file,
                            at(keyword),
                            format!("x-source cites {name:?}, which is not required here"),
                        ));
                    } else if !source.as_str().is_some_and(is_source) {
                        problems.push(Problem::new(
                            file,
                            at(keyword),
                            format!("the source of {name:?} must be \"seed …\" or \"convention D-…\""),
                        ));
                    }
                }
            }
            _ => problems.push(Problem::new(
                file,
                at(keyword),
                format!("the source of `{keyword}` must be \"seed NNN:LINE\" or \"convention D-NN\", not {source}"),
            )),
        }
    }
    problems
}

/// Whether `text` reads as a source: a seed citation or a convention's decision.
pub fn is_source(text: &str) -> bool {
    text.strip_prefix("seed 00").is_some_and(|rest| rest.starts_with(|c: char| ('0'..='4').contains(&c)))
        || text.strip_prefix("convention D-").is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Checks an `x-convention` object: assertions only (no subschemas), formats the generator
/// knows, patterns that match in linear time, and sources for each.
fn check_convention(file: &str, pointer: &str, convention: &Value) -> Vec<Problem> {
    let Some(map) = convention.as_object() else {
        return vec![Problem::new(file, pointer, "x-convention must be an object of constraint keywords")];
    };
    let mut problems = Vec::new();
    for (key, value) in map {
        let at = format!("{pointer}/{}", jerry_contracts_pointer::escape(key));
        if !Keyword::parse(key).is_some_and(Keyword::in_convention) {
            problems.push(Problem::new(
                file,
                at,
                format!("`{key}` is not a constraint keyword the convention layer applies"),
            ));
            continue;
        }
        match key.as_str() {
            "format" if !value.as_str().is_some_and(|f| FORMATS.contains(&f)) => {
                problems.push(Problem::new(file, at, format!("format {value} is not supported")));
            }
            "additionalProperties" if value != &Value::Bool(false) => {
                problems.push(Problem::new(file, at, "only `additionalProperties: false` can be a convention"));
            }
            "pattern" => {
                let linear = value.as_str().is_some_and(|p| {
                    regress::Regex::new(p).is_ok()
                        && jerry_contracts_ecma::translate(p)
                            .is_some_and(|t| regex_syntax::Parser::new().parse(&t).is_ok())
                });
                if !linear {
                    problems.push(Problem::new(
                        file,
                        at,
                        format!("pattern {value} is not an ECMA-262 pattern that matches in linear time"),
                    ));
                }
            }
            _ => {}
        }
    }
    if let Some(sources) = map.get("x-source") {
        problems.extend(check_sources(file, pointer, map, sources));
    }
    for key in map.keys().filter(|k| *k != "x-source") {
        let cited = map.get("x-source").and_then(|s| s.get(key)).and_then(Value::as_str);
        if !cited.is_some_and(|s| s.starts_with("convention D-"))
            && !map.get("x-source").and_then(|s| s.get(key)).is_some_and(Value::is_object)
        {
            problems.push(Problem::new(
                file,
                format!("{pointer}/{}", jerry_contracts_pointer::escape(key)),
                format!("the convention `{key}` must cite its decision in x-source (\"convention D-NN\")"),
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

    #[test]
    fn sources_and_conventions_are_checked_with_file_and_pointer() {
        let good = json!({
            "type": "string", "pattern": "^a$",
            "x-convention": {"minLength": 1, "x-source": {"minLength": "convention D-74"}},
            "x-source": {"pattern": "seed 003:285"}
        });
        assert!(check_json(good, false).is_empty());
        // A source that is neither a seed line nor a decision; a cited keyword the object lacks.
        let problems =
            check_json(json!({"pattern": "^a$", "x-source": {"pattern": "ours", "enum": "seed 000:1"}}), false);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().any(|p| p.starts_with("x.json#/p/x-source/pattern: the source")), "{problems:?}");
        // A convention holding a subschema, an unknown format, a backtracking pattern, no source.
        let problems = check_json(
            json!({"x-convention": {"properties": {}, "format": "email", "pattern": "^(a)\\1$", "minLength": 1}}),
            false,
        );
        assert!(
            problems.iter().any(|p| p.contains("x-convention/properties: `properties` is not a constraint keyword")),
            "{problems:?}"
        );
        assert!(problems.iter().any(|p| p.contains("x-convention/format: format")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("x-convention/pattern: pattern")), "{problems:?}");
        assert!(
            problems.iter().any(|p| p.contains("x-convention/minLength: the convention `minLength` must cite")),
            "{problems:?}"
        );
    }
}
