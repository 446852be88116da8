//! Drift gate: the generated types against their source schemas, in two halves.
//!
//! **Structure** (`every_generated_type_derives_its_source_schema`): for every generated type,
//! schemars re-derives the JSON Schema (draft-07) from the Rust type, and after normalisation it
//! must equal the source schema. This proves that each type has the source's shape — types,
//! properties, required members, nullability, enums and constants — and that the attributes
//! garde and schemars both read (`pattern`, `length`, `range`) carry the source's values. It
//! does *not* prove that a validation rule runs: `uniqueItems`, `format: uri` and
//! `format: uri-reference` reach the derived schema by a schemars transform of their own, apart
//! from the garde rule that checks them, so a dropped rule leaves the derived schema unchanged.
//!
//! **Behaviour** (`every_constraint_is_enforced_by_its_generated_type`): for every constraint of
//! the corpus (`constraints::inventory`), the type of the fixture target refuses each of the
//! constraint's invalid boundary fixtures (`tests/boundaries.rs`) at the right JSON Pointer and
//! accepts its valid one. This proves, constraint by constraint and keyword by keyword, that the
//! types enforce every rule of the corpus at its limit — whatever path the rule takes into the
//! type — and names every rule a type does not enforce. Together with `tests/differential.rs`
//! (every fixture, the types' verdict equals the reference validator's) it is the gate that the
//! generator drops nothing.
//!
//! The normalisation, applied to both sides, removes only differences of spelling:
//! - references are inlined (`$ref` replaced by its target; draft-07 ignores `$ref`'s siblings);
//! - annotations are dropped: `title`, `description`, `examples`, `default`, `$comment`,
//!   `$schema`, `$id`, `definitions`, `x-source` (a constraint's source) and `x-convention` (the
//!   convention layer's constraints, which the types do not carry), and the `format`s schemars adds to Rust number types
//!   (`int64`, `double`, …);
//! - `additionalProperties: true` is dropped (it is the default), the boolean schema `true` is `{}`;
//! - an `allOf` of one schema is merged into its parent;
//! - a `oneOf`/`anyOf` of `const`s is an `enum`, a `const` is an `enum` of one value, and an
//!   `enum` makes `type` redundant;
//! - nullable spellings are unified: `anyOf: [X, {"type": "null"}]` is X with `"null"` added to
//!   its `type` and to its `enum`;
//! - sets are sorted (`type` lists, `enum`, `required`) and numbers are compared numerically;
//! - the type generated for a nullable property is compared without `null`: the null belongs to
//!   the field (an `Option`), and is checked where the parent type is compared.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::__private::typed;
use jerry_contracts_codegen::Corpus;
use serde_json::{Map, Value, json};

const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "default",
    "$comment",
    "$schema",
    "$id",
    "definitions",
    "$defs",
    "x-source",
    "x-convention",
];
const NUMBER_FORMATS: &[&str] =
    &["int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float", "double"];

/// Where a `$ref` found at some place resolves to: the target schema and the file it is in.
type Resolver<'a> = dyn Fn(&str, &str) -> Option<(Value, String)> + 'a;

fn normalise(node: &Value, file: &str, resolve: &Resolver<'_>, depth: usize) -> Value {
    assert!(depth < 64, "schema nesting too deep (a recursive schema?) in {file}");
    let Some(map) = node.as_object() else {
        return match node {
            Value::Bool(true) => json!({}),
            other => other.clone(),
        };
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let (target, target_file) =
            resolve(file, reference).unwrap_or_else(|| panic!("{file}: cannot resolve {reference}"));
        return normalise(&target, &target_file, resolve, depth + 1);
    }
    let mut out = Map::new();
    for (key, value) in map {
        if ANNOTATIONS.contains(&key.as_str()) {
            continue;
        }
        let value = match key.as_str() {
            "properties" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), normalise(v, file, resolve, depth + 1)))
                    .collect(),
            ),
            "items" | "additionalProperties" | "if" | "then" | "else" | "not" => {
                normalise(value, file, resolve, depth + 1)
            }
            "allOf" | "anyOf" | "oneOf" => Value::Array(
                value.as_array().into_iter().flatten().map(|v| normalise(v, file, resolve, depth + 1)).collect(),
            ),
            "format" if value.as_str().is_some_and(|f| NUMBER_FORMATS.contains(&f)) => continue,
            _ => value.clone(),
        };
        if key == "additionalProperties" && value == json!({}) {
            continue;
        }
        out.insert(key.clone(), value);
    }
    canonical(out)
}

fn canonical(mut map: Map<String, Value>) -> Value {
    // allOf of one schema: merge.
    if let Some(Value::Array(all)) = map.get("allOf")
        && all.len() == 1
        && let Some(Value::Object(inner)) =
            map.remove("allOf").and_then(|v| v.as_array().cloned()).and_then(|mut v| v.pop())
    {
        for (k, v) in inner {
            map.entry(k).or_insert(v);
        }
    }
    // oneOf / anyOf of constants: an enum.
    for key in ["oneOf", "anyOf"] {
        let constants: Option<Vec<Value>> = map.get(key).and_then(Value::as_array).and_then(|branches| {
            branches
                .iter()
                .map(|b| b.get("enum").and_then(Value::as_array).filter(|e| e.len() == 1).map(|e| e[0].clone()))
                .collect()
        });
        if let Some(values) = constants {
            map.remove(key);
            map.insert("enum".into(), Value::Array(values));
        }
    }
    // anyOf [X, null]: X made nullable.
    if let Some(Value::Array(any)) = map.get("anyOf") {
        let is_null = |v: &Value| v == &json!({"type": "null"});
        if any.len() == 2 && any.iter().any(is_null) {
            let other = any.iter().find(|v| !is_null(v)).cloned().unwrap_or(Value::Null);
            map.remove("anyOf");
            if let Value::Object(inner) = other {
                for (k, v) in inner {
                    map.entry(k).or_insert(v);
                }
            }
            if let Some(Value::Array(values)) = map.get_mut("enum") {
                values.push(Value::Null);
            }
            let types = match map.remove("type") {
                Some(Value::String(t)) => vec![Value::String(t), json!("null")],
                Some(Value::Array(mut t)) => {
                    t.push(json!("null"));
                    t
                }
                _ => vec![json!("null")],
            };
            map.insert("type".into(), Value::Array(types));
        }
    }
    if let Some(constant) = map.remove("const") {
        map.insert("enum".into(), json!([constant]));
    }
    if map.contains_key("enum") {
        map.remove("type");
    }
    for key in ["enum", "required", "type"] {
        if let Some(Value::Array(values)) = map.get_mut(key) {
            values.sort_by_key(ToString::to_string);
            values.dedup();
        }
    }
    if let Some(Value::Array(types)) = map.get("type")
        && types.len() == 1
    {
        let only = types[0].clone();
        map.insert("type".into(), only);
    }
    for value in map.values_mut() {
        numbers(value);
    }
    Value::Object(map)
}

fn numbers(value: &mut Value) {
    match value {
        Value::Number(n) => {
            if let Some(f) = n.as_f64() {
                *value = json!(f);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(numbers),
        Value::Object(map) => map.values_mut().for_each(numbers),
        _ => {}
    }
}

/// Differences between two normalised schemas, as `pointer: source … derived …` lines.
fn diff(source: &Value, derived: &Value, pointer: &str, out: &mut Vec<String>) {
    match (source, derived) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let here = format!("{pointer}/{key}");
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => diff(x, y, &here, out),
                    (Some(x), None) => out.push(format!("{here}: source has {x}, derived has nothing")),
                    (None, Some(y)) => out.push(format!("{here}: source has nothing, derived has {y}")),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(x, y, &format!("{pointer}/{i}"), out);
            }
        }
        (a, b) if a != b => out.push(format!("{pointer}: source has {a}, derived has {b}")),
        _ => {}
    }
}

fn source_resolver(corpus: &Corpus) -> impl Fn(&str, &str) -> Option<(Value, String)> + '_ {
    move |file: &str, reference: &str| {
        let (target_file, pointer) = corpus.resolve(file, reference).ok()?;
        let node = corpus.get(&target_file)?.document.pointer(&pointer)?.clone();
        Some((node, target_file))
    }
}

fn derived_resolver(root: &Value) -> impl Fn(&str, &str) -> Option<(Value, String)> + '_ {
    move |file: &str, reference: &str| {
        let pointer = reference.strip_prefix('#')?;
        Some((root.pointer(pointer)?.clone(), file.to_owned()))
    }
}

/// A nullable property's schema without its `null` (see the module documentation).
fn without_null(node: &mut Value) {
    if let Some(Value::Array(values)) = node.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(Value::Array(types)) = node.get_mut("type") {
        types.retain(|t| t != "null");
    }
}

/// The drift of one generated type: the differences between its source and derived schemas.
fn drift(corpus: &Corpus, entry: &typed::TypeEntry, source_override: Option<&Value>) -> Vec<String> {
    let schema = corpus.get(entry.schema).expect("entry names a corpus schema");
    let mut source_node =
        source_override.cloned().unwrap_or_else(|| schema.document.pointer(entry.pointer).cloned().expect("pointer"));
    if entry.pointer.contains("/properties/") {
        without_null(&mut source_node);
    }
    let source = normalise(&source_node, entry.schema, &source_resolver(corpus), 0);
    let derived_root = entry.derived_schema();
    let derived = normalise(&derived_root, "derived", &derived_resolver(&derived_root), 0);
    let mut out = Vec::new();
    diff(&source, &derived, "", &mut out);
    out
}

#[test]
fn every_generated_type_derives_its_source_schema() {
    let corpus = support::corpus();
    let mut drifted = Vec::new();
    for entry in typed::entries() {
        let differences = drift(&corpus, entry, None);
        if !differences.is_empty() {
            drifted.push(format!(
                "{} ({}#{}):\n  {}",
                entry.rust_path,
                entry.schema,
                entry.pointer,
                differences.join("\n  ")
            ));
        }
    }
    assert!(typed::entries().len() > 300, "expected every type, found {}", typed::entries().len());
    assert!(drifted.is_empty(), "{} of {} types drift:\n{}", drifted.len(), typed::entries().len(), drifted.join("\n"));
}

#[test]
fn every_constraint_is_enforced_by_its_generated_type() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let inventory = jerry_contracts_codegen::constraints::inventory(&corpus);
    let mut unenforced = Vec::new();
    let mut judged: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for set in &sets {
        let entry = typed::find(&set.target.schema, &set.target.pointer())
            .unwrap_or_else(|| panic!("no generated type for {}", set.target));
        for fixture in &set.invalid {
            let Some(constraint) = &fixture.expect.constraint else { continue };
            judged.insert(constraint.clone());
            let pointer = &fixture.expect.pointer;
            match entry.check(&fixture.document) {
                Ok(()) => unenforced.push(format!(
                    "{constraint}: {} accepts {} ({})",
                    entry.rust_path,
                    fixture.path.display(),
                    fixture.expect.rule
                )),
                Err(violations) if !violations.iter().any(|v| &v.pointer == pointer) => unenforced.push(format!(
                    "{constraint}: {} refuses {} at {:?}, not at {pointer:?}",
                    entry.rust_path,
                    fixture.path.display(),
                    violations.iter().map(|v| &v.pointer).collect::<Vec<_>>()
                )),
                Err(_) => {}
            }
        }
        for fixture in set.valid.iter().filter(|f| f.case.is_some()) {
            if let Err(violations) = entry.check(&fixture.document) {
                let case = &set.boundary[fixture.case.unwrap_or_default()];
                unenforced.push(format!(
                    "{}: {} refuses the value at the limit in {}: {violations:?}",
                    case.constraint,
                    entry.rust_path,
                    fixture.path.display()
                ));
            }
        }
    }
    let unjudged: Vec<String> = inventory.iter().map(|c| c.id()).filter(|id| !judged.contains(id)).collect();
    // Only constraints that no document can break alone (tests/boundaries.rs, IMPLIED).
    assert!(unjudged.len() <= 1, "constraints the gate cannot judge (no invalid boundary fixture): {unjudged:?}");
    assert!(judged.len() > 600, "only {} constraints judged", judged.len());
    assert!(
        unenforced.is_empty(),
        "{} rules the generated types do not enforce:\n{}",
        unenforced.len(),
        unenforced.join("\n")
    );
}

#[test]
fn the_gate_reports_a_constraint_the_types_do_not_carry() {
    // Pretend the source schema had a constraint the generated type does not enforce: the gate
    // must name the place and the keyword.
    let corpus = support::corpus();
    let entry = typed::find("agents/ps/researcher_output.json", "").expect("researcher output");
    let mut source = corpus.get(entry.schema).expect("schema").document.clone();
    source["properties"]["research_topic"]["maxLength"] = json!(80);
    source["properties"]["findings"]["maxItems"] = json!(20);
    let differences = drift(&corpus, entry, Some(&source));
    assert_eq!(
        differences,
        [
            "/properties/findings/maxItems: source has 20.0, derived has nothing",
            "/properties/research_topic/maxLength: source has 80.0, derived has nothing",
        ]
    );
}

#[test]
fn normalisation_only_removes_spelling() {
    let resolve = |_: &str, _: &str| None;
    let a = normalise(&json!({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}]}), "x", &resolve, 0);
    let b = normalise(&json!({"type": ["string", "null"], "enum": [null, "a"]}), "x", &resolve, 0);
    assert_eq!(a, b);
    let c = normalise(&json!({"type": "integer", "minimum": 0, "format": "int64"}), "x", &resolve, 0);
    let d = normalise(&json!({"type": "integer", "minimum": 0.0}), "x", &resolve, 0);
    assert_eq!(c, d);
    // A real difference survives.
    let e = normalise(&json!({"type": "string", "pattern": "^a$"}), "x", &resolve, 0);
    let f = normalise(&json!({"type": "string"}), "x", &resolve, 0);
    assert_ne!(e, f);
}
