//! Agreement with the seed: `tests/seed/schemas/` holds the seed's own JSON Schemas verbatim
//! (extracted from seed 000). The corpus may differ from them only by the repairs recorded in
//! `docs/decisions.md`, and documents must get the same verdict from both — except where a repair
//! deliberately changes it (a `null` next_agent_hint is now accepted).
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts_codegen::Corpus;
use serde_json::{Map, Value, json};

/// The recorded repairs, applied to a seed schema: the draft-07 `$schema` URI in its canonical
/// `http` form (D-01), enums that list `null` under `"type": "string"` made nullable (D-04), the
/// one example that broke its own pattern (D-18), the error record's code family of the
/// convention layer (D-191) and its optional `keyword_location` (D-122).
fn repair(node: &mut Value) {
    if let Value::Object(map) = node {
        if map.get("title") == Some(&json!("Validation Error Response"))
            && let Some(Value::Object(properties)) = map.get_mut("properties")
        {
            let location = json!({
                "type": "string",
                "description": "Where the broken rule is stated. A schema or convention record: the keyword's absolute location, the schema file's $id, '#' and the keyword's JSON Pointer (JSON Schema's absoluteKeywordLocation). A semantic, constitutional or cross-reference record: the location of the schema of the value at path (D-122)."
            });
            properties.insert("keyword_location".into(), location);
        }
        if map.get("pattern") == Some(&json!("^(SCH|SEM|CON|REF)-[0-9]{3}$")) {
            map.insert("pattern".into(), json!("^(SCH|SEM|CON|REF|CNV)-[0-9]{3}$"));
            map.insert(
                "description".into(),
                json!("SCH=Schema, SEM=Semantic, CON=Constitutional, REF=Cross-reference, CNV=Convention (the project's own conventions, D-191)"),
            );
        }
        if let Some(Value::Array(examples)) = map.get_mut("examples") {
            for example in examples.iter_mut().filter(|e| *e == "IF-HW-042") {
                *example = json!("IF-PWR-042");
            }
        }
        if map.contains_key("$schema") {
            map.insert("$schema".into(), json!("http://json-schema.org/draft-07/schema#"));
        }
        let lists_null = map.get("enum").and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null));
        if lists_null && map.get("type") == Some(&json!("string")) {
            map.insert("type".into(), json!(["string", "null"]));
        }
        map.values_mut().for_each(repair);
    } else if let Value::Array(items) = node {
        items.iter_mut().for_each(repair);
    }
}

/// Definitions added to `common/types.json` beyond the seed's (D-19). Additions cannot change the
/// verdict of any schema that does not reference them.
const ADDED_TO_TYPES: &[&str] = &["uuid"];

fn seed_corpus() -> Corpus {
    // The seed declares `https://json-schema.org/draft-07/schema#`; the loader's convention check
    // reports that (and the v1.1.0 `$id` without `.json`), which is exactly what was repaired.
    let corpus = Corpus::load(&support::root().join("tests/seed/schemas")).expect("seed copies readable");
    assert!(corpus.schemas.len() >= 19, "seed copies present");
    corpus
}

#[test]
fn agent_and_common_schemas_equal_the_seed_but_for_recorded_repairs() {
    let ours = support::corpus();
    let seed = seed_corpus();
    let mut compared = 0;
    for original in seed.schemas.iter().filter(|s| !s.path.starts_with("session_context/")) {
        let mut repaired = original.document.clone();
        repair(&mut repaired);
        let mine = ours.get(&original.path).unwrap_or_else(|| panic!("{} missing from schemas/", original.path));
        let mut mine = mine.document.clone();
        strip_sources(&mut mine);
        if original.path == "common/types.json" {
            // D-19: definitions added to the library; the seed's own are compared below.
            let definitions = mine["definitions"].as_object_mut().expect("types.json has definitions");
            for added in ADDED_TO_TYPES {
                assert!(definitions.remove(*added).is_some(), "{added} is recorded as added to common/types.json");
            }
        }
        // D-114: an inline id schema became a reference to the common definition with the same
        // pattern; compare the definition's constraints in its place.
        let findings = ours.get("common/findings.json").expect("common/findings.json");
        let mut common = findings.document["definitions"].clone();
        strip_sources(&mut common);
        let common = common.as_object().cloned().unwrap_or_default();
        resolve_common_ids(&mut mine, &common);
        assert_eq!(mine, repaired, "{} differs from the seed beyond the recorded repairs", original.path);
        compared += 1;
    }
    assert_eq!(compared, 18, "16 agents, common/types.json and common/error.json");
}

/// Drops the audit's annotations (`x-source`: where each constraint comes from; `x-convention`:
/// constraints the seeds do not state, which are not part of the schema layer's verdict).
fn strip_sources(node: &mut Value) {
    if let Value::Object(map) = node {
        map.remove("x-source");
        map.remove("x-convention");
        map.values_mut().for_each(strip_sources);
    } else if let Value::Array(items) = node {
        items.iter_mut().for_each(strip_sources);
    }
}

/// Replaces references to `common/findings.json` id definitions by the definition's constraints
/// (without its annotations), undoing D-114 for the comparison.
fn resolve_common_ids(node: &mut Value, definitions: &Map<String, Value>) {
    if let Value::Object(map) = node {
        let target = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("../../common/findings.json#/definitions/"))
            .filter(|name| name.ends_with("_id"))
            .and_then(|name| definitions.get(name));
        if let Some(Value::Object(definition)) = target {
            *node = definition
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "description" | "examples"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<Map<_, _>>()
                .into();
            return;
        }
        map.values_mut().for_each(|v| resolve_common_ids(v, definitions));
    } else if let Value::Array(items) = node {
        items.iter_mut().for_each(|v| resolve_common_ids(v, definitions));
    }
}

/// Replaces `#/definitions/…` references (and those into v1.0.0's shared definitions) by their targets and drops annotations, so
/// that a hoisted definition compares equal to the inline schema it came from.
fn inline(node: &Value, definitions: &Map<String, Value>) -> Value {
    match node {
        Value::Object(map) => {
            if let Some(target) = map.get("$ref").and_then(Value::as_str).and_then(|r| definitions.get(r)) {
                return inline(target, definitions);
            }
            map.iter()
                .filter(|(k, _)| {
                    !matches!(k.as_str(), "description" | "examples" | "title" | "x-source" | "x-convention")
                })
                .map(|(k, v)| (k.clone(), inline(v, definitions)))
                .collect::<Map<_, _>>()
                .into()
        }
        Value::Array(items) => items.iter().map(|v| inline(v, definitions)).collect(),
        other => other.clone(),
    }
}

#[test]
fn session_context_v1_1_keeps_every_constraint_of_the_seed_delta() {
    let ours = support::corpus();
    let seed = seed_corpus();
    let delta = &seed.get("session_context/v1.1.0.json").expect("seed v1.1.0 delta").document;
    let mine = &ours.get("session_context/v1.1.0.json").expect("v1.1.0").document;
    // Definitions by the reference that names them: this file's, and v1.0.0's shared ones.
    let definitions = |d: &Value, prefix: &str| -> Map<String, Value> {
        let own = d["definitions"].as_object().cloned().unwrap_or_default();
        own.into_iter().map(|(k, v)| (format!("{prefix}#/definitions/{k}"), v)).collect()
    };
    let v10 = &ours.get("session_context/v1.0.0.json").expect("v1.0.0").document;
    let seed_defs = definitions(delta, "");
    let mut my_defs = definitions(mine, "");
    my_defs.extend(definitions(v10, "v1.0.0.json"));
    assert_eq!(mine["required"], delta["required"]);
    for (name, property) in delta["properties"].as_object().expect("delta has properties") {
        assert_eq!(
            inline(&mine["properties"][name], &my_defs),
            inline(property, &seed_defs),
            "property {name} differs from the seed's"
        );
    }
}

/// Documents for the differential: every agent fixture, the payloads of the v1.1.0 fixtures, and
/// per valid agent fixture one mutation per top-level property (dropped, nulled, retyped).
fn documents(ours: &Corpus) -> Vec<(String, String, Value)> {
    let sets = support::fixture_sets(ours);
    let mut docs = Vec::new();
    for set in sets.iter().filter(|s| s.target.schema.starts_with("agents/")) {
        let schema = set.target.schema.clone();
        for fixture in &set.invalid {
            docs.push((schema.clone(), fixture.path.display().to_string(), fixture.document.clone()));
        }
        for fixture in &set.valid {
            let name = fixture.path.display().to_string();
            docs.push((schema.clone(), name.clone(), fixture.document.clone()));
            let Some(object) = fixture.document.as_object() else { continue };
            for key in object.keys() {
                for (label, replacement) in [
                    ("dropped", None),
                    ("null", Some(Value::Null)),
                    ("number", Some(json!(7))),
                    ("text", Some(json!("x"))),
                ] {
                    let mut mutated = object.clone();
                    match replacement {
                        None => mutated.remove(key),
                        Some(value) => mutated.insert(key.clone(), value),
                    };
                    docs.push((schema.clone(), format!("{name} with {key} {label}"), Value::Object(mutated)));
                }
            }
        }
    }
    docs
}

#[test]
fn agent_verdicts_agree_with_the_seed_schemas() {
    let ours = support::corpus();
    let seed = seed_corpus();
    let (our_registry, seed_registry) = (support::registry(&ours), support::registry(&seed));
    let mut disagreements = Vec::new();
    let mut expected_differences = 0;
    let docs = documents(&ours);
    assert!(docs.len() > 1000, "differential covers {} documents", docs.len());
    let mut validators = std::collections::HashMap::new();
    for (schema, name, document) in &docs {
        let (mine, theirs) = validators.entry(schema.clone()).or_insert_with(|| {
            let id = format!("https://jerry.dev/schemas/{schema}");
            (support::validator(&our_registry, &id), support::validator(&seed_registry, &id))
        });
        let (mine, theirs) = (mine.is_valid(document), theirs.is_valid(document));
        if mine == theirs {
            continue;
        }
        // The one recorded verdict change: `next_agent_hint: null` where the seed listed null.
        if document.get("next_agent_hint") == Some(&Value::Null) && mine {
            expected_differences += 1;
            continue;
        }
        disagreements.push(format!("{name}: ours {mine}, seed {theirs}"));
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(expected_differences > 0, "the nullable repair is exercised");
}
