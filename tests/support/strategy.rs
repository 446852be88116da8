//! Proptest strategies derived from the schemas: one walker turns any schema of the corpus into
//! a strategy for documents it accepts (every type gets its strategy from its schema, none is
//! written by hand). Patterns become regex strategies (ECMA escapes rewritten to their ASCII
//! classes), bounds become ranges, enums and constants are chosen from, optional properties
//! appear or not, and the v1.1 payload dispatch picks an agent output or the generic payload.
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used, missing_docs)]

use jerry_contracts_codegen::Corpus;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// A strategy for documents the schema at `pointer` in `file` accepts.
pub fn documents(corpus: &Corpus, file: &str, pointer: &str) -> BoxedStrategy<Value> {
    let node = corpus.get(file).and_then(|s| s.document.pointer(pointer)).cloned().expect("schema node");
    walk(corpus, file, &node, 0)
}

fn walk(corpus: &Corpus, file: &str, node: &Value, depth: usize) -> BoxedStrategy<Value> {
    assert!(depth < 40, "schema too deep in {file}");
    let Some(map) = node.as_object() else { return Just(json!(null)).boxed() };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let (target_file, target_pointer) = corpus.resolve(file, reference).expect("resolves");
        let target =
            corpus.get(&target_file).and_then(|s| s.document.pointer(&target_pointer)).cloned().expect("target");
        return walk(corpus, &target_file, &target, depth + 1);
    }
    if let Some(constant) = map.get("const") {
        return Just(constant.clone()).boxed();
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        return proptest::sample::select(values.clone()).boxed();
    }
    if map.contains_key("if") {
        // The dispatch: one of the agent outputs (each satisfies its own branch) or the fallback.
        let mut options: Vec<BoxedStrategy<Value>> = map["then"]["allOf"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|branch| walk(corpus, file, &branch["then"], depth + 1))
            .collect();
        let fallback = walk(corpus, file, &map["else"], depth + 1);
        // The fallback must not carry an agent's id, or it would be judged as that agent's output.
        options.push(fallback.prop_filter("generic payload", |v| v.get("agent_id").is_none()).boxed());
        return proptest::strategy::Union::new(options).boxed();
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        None if map.contains_key("properties") => vec!["object"],
        None => return any_json().boxed(),
        Some(_) => vec![],
    };
    let base = types.iter().copied().find(|t| *t != "null").unwrap_or("null");
    let strategy = match base {
        "object" => object(corpus, file, map, depth),
        "array" => array(corpus, file, map, depth),
        "string" => string(map),
        "integer" => {
            let low = map.get("minimum").and_then(Value::as_f64).map_or(-1_000, |m| m.ceil() as i64);
            let high = map.get("maximum").and_then(Value::as_f64).map_or(1_000, |m| m.floor() as i64);
            (low..=high).prop_map(Value::from).boxed()
        }
        "number" => {
            let low = map.get("minimum").and_then(Value::as_f64).unwrap_or(-1000.0);
            let high = map.get("maximum").and_then(Value::as_f64).unwrap_or(1000.0);
            prop_oneof![Just(low), Just(high), low..=high].prop_map(|n| json!(n)).boxed()
        }
        "boolean" => any::<bool>().prop_map(Value::from).boxed(),
        _ => Just(Value::Null).boxed(),
    };
    if types.contains(&"null") { prop_oneof![4 => strategy, 1 => Just(Value::Null)].boxed() } else { strategy }
}

fn any_json() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        any::<bool>().prop_map(Value::from),
        (-100i64..100).prop_map(Value::from),
        "[a-z]{0,8}".prop_map(Value::from)
    ]
}

fn object(corpus: &Corpus, file: &str, map: &Map<String, Value>, depth: usize) -> BoxedStrategy<Value> {
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let properties: Vec<(String, Value)> = map
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let values: Option<Value> = map.get("additionalProperties").filter(|v| v.is_object()).cloned();
    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = properties
        .into_iter()
        .map(|(name, schema)| {
            let value = walk(corpus, file, &schema, depth + 1);
            let key = name.clone();
            if required.contains(&name) {
                value.prop_map(move |v| Some((key.clone(), v))).boxed()
            } else {
                proptest::option::of(value).prop_map(move |v| v.map(|v| (key.clone(), v))).boxed()
            }
        })
        .collect();
    let entries: BoxedStrategy<Vec<(String, Value)>> = match values {
        Some(schema) => {
            proptest::collection::vec(("[a-z_]{1,8}", walk(corpus, file, &schema, depth + 1)), 0..3).boxed()
        }
        None => Just(Vec::new()).boxed(),
    };
    (fields, entries)
        .prop_map(|(fields, entries)| {
            let mut object: Map<String, Value> = entries.into_iter().collect();
            object.extend(fields.into_iter().flatten());
            Value::Object(object)
        })
        .boxed()
}

fn array(corpus: &Corpus, file: &str, map: &Map<String, Value>, depth: usize) -> BoxedStrategy<Value> {
    let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = map.get("maxItems").and_then(Value::as_u64).map_or(min + 3, |m| (m as usize).min(min + 3));
    let items = map.get("items").map_or_else(|| any_json().boxed(), |i| walk(corpus, file, i, depth + 1));
    let unique = map.get("uniqueItems") == Some(&Value::Bool(true));
    proptest::collection::vec(items, min..=max)
        .prop_map(move |mut values| {
            if unique {
                let mut seen = Vec::new();
                values.retain(|v| {
                    if seen.contains(v) {
                        false
                    } else {
                        seen.push(v.clone());
                        true
                    }
                });
            }
            Value::Array(values)
        })
        .prop_filter("enough distinct items", move |v| v.as_array().is_some_and(|a| a.len() >= min))
        .boxed()
}

fn string(map: &Map<String, Value>) -> BoxedStrategy<Value> {
    let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let limit = map.get("maxLength").and_then(Value::as_u64);
    // Free text is generated short; the schema's own bounds are what the filter enforces.
    let max = limit.unwrap_or(min + 24).min(min + 24);
    let regex = match map.get("format").and_then(Value::as_str) {
        Some("date") => "20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])".to_owned(),
        Some("date-time") => {
            "20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,6})?(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9])".to_owned()
        }
        Some("uri") => "https://[a-z]{1,8}\\.example/[a-z0-9]{0,8}".to_owned(),
        Some("uri-reference") => "[a-z]{1,8}(/[a-z0-9_]{1,8}){0,3}(\\.json)?".to_owned(),
        // A convention's pattern, where there is one, is the stricter of the two (the seed's
        // path rule is written as what a path must not start with, which no generator can read).
        _ => match map.get("x-convention").and_then(|c| c.get("pattern")).or_else(|| map.get("pattern")).and_then(Value::as_str) {
            Some(pattern) => generation_regex(pattern),
            None => format!("[a-zA-Z0-9 é≤_-]{{{min},{max}}}"),
        },
    };
    proptest::string::string_regex(&regex)
        .unwrap_or_else(|e| panic!("pattern {regex}: {e}"))
        .prop_filter("length bounds", move |s| {
            let n = s.chars().count() as u64;
            n >= min && limit.is_none_or(|limit| n <= limit)
        })
        .prop_map(Value::from)
        .boxed()
}

/// An ECMA-262 pattern as a generation regex: anchors dropped (a generated string is a whole
/// match), `\d` `\w` `\s` as their ASCII classes, `.` as a plain character class.
fn generation_regex(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    let mut first = true;
    while let Some(c) = chars.next() {
        match c {
            '^' if first => {}
            '$' if chars.peek().is_none() => {}
            '\\' => match chars.next() {
                Some('d') => out.push_str(if in_class { "0-9" } else { "[0-9]" }),
                Some('w') => out.push_str(if in_class { "A-Za-z0-9_" } else { "[A-Za-z0-9_]" }),
                Some('s') => out.push_str(if in_class { " " } else { "[ ]" }),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => {}
            },
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            '.' if !in_class => out.push_str("[a-z ]"),
            '*' if !in_class => out.push_str("{0,6}"),
            '+' if !in_class => out.push_str("{1,6}"),
            other => out.push(other),
        }
        first = false;
    }
    out
}
