//! The keyword-by-keyword conformance corpus (`suite/*.json`, in the style of the
//! JSON-Schema-Test-Suite: groups of a schema and instances with their draft-07 verdict). Every
//! group's schema is generated into a Rust type by the library's own generator (`build.rs`), and
//! every instance is judged
//! - by the generated type (deserialise, then garde);
//! - by the library's schema-layer interpreter, which lists every violation;
//! - by `validate_as` as a whole (`validate_as_in`, the same code as `validate_as`
//!   over this corpus's catalogue: the type decides, the interpreter lists, the rule layers run);
//! - and, as a check of the suite itself, by the `jsonschema` crate.
//!
//! All four must give the suite's verdict; a valid instance must also come back unchanged from
//! the type. The suite covers every keyword the generator supports, every `format`, roots of
//! every kind (string, number, integer, boolean, enum, const, array, object) and, for each
//! type-specific keyword, an instance of another type that the keyword ignores.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use jerry_contracts::__validation::{Catalogue, interpret_in, validate_as_in};
use jerry_contracts::registry::SchemaInfo;
use jerry_contracts::validation::{Validator, json_equal};
use jerry_contracts_conformance::EMBEDDED_SCHEMAS;
use jerry_contracts_conformance::generated::{PATTERN_TABLE, ROOTS, SCHEMA_TREES, TYPES};
use serde_json::{Value, json};

/// The conformance corpus's schemas as a registry set, for the schema layer.
static SCHEMAS: LazyLock<Vec<SchemaInfo>> = LazyLock::new(|| {
    EMBEDDED_SCHEMAS.iter().map(|e| jerry_contracts::__validation::schema_info(e).expect("embedded JSON")).collect()
});

fn suite_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("suite");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// `(suite stem, group)` for every group of every suite file.
fn groups() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for file in suite_files() {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let groups: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        out.extend(groups.into_iter().map(|g| (stem.clone(), g)));
    }
    out
}

fn reference(schema_path: &str) -> jsonschema::Validator {
    let resources = EMBEDDED_SCHEMAS.iter().map(|e| {
        let document: Value = serde_json::from_str(e.text).unwrap();
        (e.id.to_owned(), jsonschema::Resource::from_contents(document))
    });
    let registry = jsonschema::Registry::new().extend(resources).and_then(|b| b.prepare()).unwrap();
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .with_registry(&registry)
        .build(&json!({ "$ref": format!("https://jerry.dev/schemas/{schema_path}") }))
        .unwrap()
}

#[test]
fn every_case_gets_the_suites_verdict_from_the_types_and_the_schema_layer() {
    let mut failures = Vec::new();
    let mut judged = 0;
    for (stem, group) in groups() {
        let name = group["name"].as_str().unwrap();
        let path = format!("{stem}/{name}.json");
        let entry = TYPES
            .iter()
            .find(|e| e.schema == path && e.pointer.is_empty())
            .unwrap_or_else(|| panic!("{path}: no generated type for the group's schema"));
        let reference = reference(&path);
        for case in group["tests"].as_array().unwrap() {
            judged += 1;
            let (data, valid) = (&case["data"], case["valid"].as_bool().unwrap());
            let shown = format!("{path}: {} ({data})", case["description"].as_str().unwrap());
            let typed = entry.check(data);
            if typed.is_ok() != valid {
                failures.push(format!("{shown}: the type {} says {typed:?}", entry.rust_path));
            }
            let catalogue =
                Catalogue { schemas: &SCHEMAS, roots: ROOTS, patterns: &PATTERN_TABLE, trees: &SCHEMA_TREES };
            let interpreted = interpret_in(catalogue, &path, data);
            if interpreted.is_empty() != valid {
                failures.push(format!("{shown}: the schema layer says {interpreted:?}"));
            }
            let report = validate_as_in(&Validator::new(), catalogue, &path, data.to_string().as_bytes());
            if report.is_valid() != valid {
                failures.push(format!("{shown}: validate_as reports {:?}", report.records));
            }
            if reference.is_valid(data) != valid {
                failures.push(format!("{shown}: the reference validator disagrees with the suite"));
            }
            if valid {
                match entry.round_trip(data) {
                    Ok(back) if json_equal(&back, data) => {}
                    other => failures.push(format!("{shown}: not relayed as read: {other:?}")),
                }
            }
        }
    }
    assert!(judged >= 150, "only {judged} cases judged");
    assert!(failures.is_empty(), "{} of {judged} cases misjudged:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_suite_covers_every_supported_keyword_format_and_root_kind() {
    let mut keywords = BTreeSet::new();
    let mut formats = BTreeSet::new();
    fn walk(node: &Value, keywords: &mut BTreeSet<String>, formats: &mut BTreeSet<String>) {
        match node {
            Value::Object(map) => {
                for (key, value) in map {
                    keywords.insert(key.clone());
                    if key == "format" {
                        formats.insert(value.as_str().unwrap_or_default().to_owned());
                    }
                    if !["enum", "const", "examples", "default", "required"].contains(&key.as_str()) {
                        walk(value, keywords, formats);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, keywords, formats)),
            _ => {}
        }
    }
    let mut roots = BTreeSet::new();
    for (_, group) in groups() {
        let schema = &group["schema"];
        walk(schema, &mut keywords, &mut formats);
        let kind = schema.get("type").and_then(Value::as_str).map(str::to_owned).unwrap_or_else(|| {
            ["enum", "const"].into_iter().find(|k| schema.get(k).is_some()).unwrap_or("other").to_owned()
        });
        roots.insert(kind);
    }
    // Every group schema gets `$schema` and `$id` from build.rs.
    keywords.extend(["$schema".to_owned(), "$id".to_owned()]);
    let missing: Vec<&str> =
        jerry_contracts_codegen_keywords().iter().copied().filter(|k| !keywords.contains(*k)).collect();
    assert!(missing.is_empty(), "supported keywords the suite never uses: {missing:?}");
    for format in jerry_contracts_codegen::model::FORMATS {
        assert!(formats.contains(*format), "the suite has no `format: {format}`");
    }
    for kind in ["string", "number", "integer", "boolean", "enum", "const", "array", "object"] {
        assert!(roots.contains(kind), "the suite has no {kind} root");
    }
}

/// The keywords the generator supports (the model's keyword table), so that a keyword the
/// generator learns without a conformance case fails the test above.
fn jerry_contracts_codegen_keywords() -> Vec<&'static str> {
    jerry_contracts_codegen::model::Keyword::supported().map(|k| k.as_str()).collect()
}

#[test]
fn a_schema_the_generator_cannot_carry_fails_the_build_naming_file_and_pointer() {
    // The cases the generator refuses rather than generate a type with other semantics.
    let cases = [
        (json!({"properties": {"a": {"type": "string"}}}), "/properties", "`properties` without \"type\": \"object\""),
        (json!({"required": ["a"]}), "/required", "`required` without \"type\": \"object\""),
        (json!({"type": "object", "required": ["a"]}), "/required", "`required` without `properties`"),
        (json!({"pattern": "^a$"}), "", "has no type the generator can map"),
        (json!({"type": ["string", "null"]}), "", "a named type cannot be nullable"),
        (json!({"type": ["string", "integer"]}), "/type", "a union of several non-null types"),
        (
            json!({"type": "object", "properties": {"Kind": {"type": "string"}}}),
            "/properties/Kind",
            "cannot be spelled as a Rust field",
        ),
        (json!({"type": "integer", "multipleOf": 2}), "/multipleOf", "keyword `multipleOf` is not supported"),
        (json!({"type": "string", "format": "uuid"}), "/format", "`format: uuid` needs the pattern"),
    ];
    for (schema, pointer, message) in cases {
        let dir = std::env::temp_dir().join(format!("jerry-conformance-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("x")).unwrap();
        let mut schema = schema;
        schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        schema["$id"] = json!("https://jerry.dev/schemas/x/case.json");
        std::fs::write(dir.join("x/case.json"), schema.to_string()).unwrap();
        let err = jerry_contracts_codegen::generate(&dir).expect_err(&format!("{schema} must not generate"));
        let text = err.to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        let place = if pointer.is_empty() { "x/case.json: ".to_owned() } else { format!("x/case.json#{pointer}: ") };
        assert!(text.contains(&place) && text.contains(message), "{schema}: {text}");
    }
}
