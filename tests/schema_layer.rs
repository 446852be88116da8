//! The schema layer's interpreter against the reference validator (the `jsonschema` crate): for
//! every fixture, and for mutations of every valid fixture, both must report the same violations
//! (the same multiset of keyword and instance pointer). Then the cases that matter on their own:
//! all violations at once, ECMA-262 digits, lengths in characters, integers, JSON equality, the
//! v1.1.0 payload dispatch and a deeply nested document.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::common::ErrorRecord;
use jerry_contracts::validation::{Report, Validator, validate_as};
use jerry_contracts_schema_tools::fixtures::FixtureSet;
use serde_json::{Value, json};

/// `(keyword, pointer)` pairs, sorted: a multiset that compares with `==`.
type Pairs = Vec<(String, String)>;

fn interpreted(schema: &str, document: &Value) -> Pairs {
    let mut pairs = jerry_contracts::__validation::interpret(schema, document);
    pairs.sort();
    pairs
}

fn reference(validator: &jsonschema::Validator, document: &Value) -> Pairs {
    let mut pairs: Pairs = support::errors(validator, document).into_iter().map(|(k, p, _)| (k, p)).collect();
    pairs.sort();
    pairs
}

/// The name the interpreter hook takes for a fixture set's target.
fn target_name(set: &FixtureSet) -> String {
    match &set.target.definition {
        None => set.target.schema.clone(),
        Some(_) => format!("{}#{}", set.target.schema, set.target.pointer()),
    }
}

/// The schema records of a report, as `(keyword, pointer)` pairs, sorted.
fn schema_pairs(report: &Report) -> Pairs {
    let mut pairs: Pairs = report
        .records
        .iter()
        .filter(|r| r.error_code.starts_with("SCH-"))
        .map(|r| {
            let keyword = r.extra.get_str("keyword").unwrap_or("<no keyword>".into());
            (keyword.into_owned(), r.path.clone().unwrap_or_default())
        })
        .collect();
    pairs.sort();
    pairs
}

/// A valid fixture of the root schema `schema` whose file is `name`.
fn fixture(schema: &str, name: &str) -> Value {
    let path = support::root().join("tests/fixtures").join(schema.trim_end_matches(".json")).join("valid").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture exists")).expect("fixture parses")
}

/// The reference validator for the root schema `schema`.
fn reference_for(schema: &str) -> jsonschema::Validator {
    let corpus = support::corpus();
    let registry = support::registry(&corpus);
    support::validator(&registry, &format!("{}{schema}", jerry_contracts::SCHEMA_ID_BASE))
}

fn records(schema: &str, document: &Value) -> Vec<ErrorRecord> {
    Validator::new().validate_value(Some(schema), document).records
}

#[test]
fn the_interpreter_agrees_with_jsonschema_on_every_fixture() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let registry = support::registry(&corpus);
    let mut failures = Vec::new();
    let (mut roots, mut definitions) = (0, 0);
    for set in &sets {
        let schema = corpus.get(&set.target.schema).expect("discovered sets name loaded schemas");
        let validator = support::validator(&registry, &set.target.uri(&schema.id));
        let name = target_name(set);
        let documents =
            set.valid.iter().map(|f| (&f.path, &f.document)).chain(set.invalid.iter().map(|f| (&f.path, &f.document)));
        for (path, document) in documents {
            if set.target.definition.is_none() {
                roots += 1
            } else {
                definitions += 1
            }
            let (ours, theirs) = (interpreted(&name, document), reference(&validator, document));
            if ours != theirs {
                failures.push(format!("{}: interpreter {ours:?}, jsonschema {theirs:?}", path.display()));
            }
        }
    }
    println!("compared {roots} fixtures of root schemas and {definitions} of definitions");
    assert!(roots > 300, "only {roots} root fixtures");
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn validate_as_reports_what_jsonschema_reports_for_every_root_fixture() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let registry = support::registry(&corpus);
    let mut failures = Vec::new();
    let mut judged = 0;
    for set in sets.iter().filter(|s| s.target.definition.is_none()) {
        let schema = corpus.get(&set.target.schema).expect("discovered sets name loaded schemas");
        let validator = support::validator(&registry, &set.target.uri(&schema.id));
        for fixture in &set.valid {
            judged += 1;
            let report = validate_as(&set.target.schema, &serde_json::to_vec(&fixture.document).expect("serialises"));
            let schema_records: Vec<_> = report.records.iter().filter(|r| r.error_code.starts_with("SCH-")).collect();
            if !schema_records.is_empty() {
                failures.push(format!("{}: valid, but got {schema_records:?}", fixture.path.display()));
            }
        }
        for fixture in &set.invalid {
            judged += 1;
            let report = validate_as(&set.target.schema, &serde_json::to_vec(&fixture.document).expect("serialises"));
            if report.codes().contains(&"SCH-013") {
                // The version gate refuses a 2.x envelope before the schema is applied.
                if fixture.expect.pointer != "/schema_version" {
                    failures.push(format!("{}: unexpected SCH-013", fixture.path.display()));
                }
                continue;
            }
            let expected = reference(&validator, &fixture.document);
            let got = schema_pairs(&report);
            if got != expected {
                failures.push(format!("{}: report {got:?}, jsonschema {expected:?}", fixture.path.display()));
            }
            for record in report.records.iter().filter(|r| r.error_code.starts_with("SCH-")) {
                if record.expected.is_none() || record.actual.is_none() || record.message.is_empty() {
                    failures.push(format!("{}: incomplete record {record:?}", fixture.path.display()));
                }
            }
        }
    }
    println!("validated {judged} root fixtures through validate_as");
    assert!(judged > 500, "only {judged} root fixtures validated");
    assert!(failures.is_empty(), "{} of {judged} fixtures misreported:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn mutating_top_level_properties_gives_the_same_violations_as_jsonschema() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let registry = support::registry(&corpus);
    let mut failures = Vec::new();
    let mut compared = 0;
    for set in sets.iter().filter(|s| s.target.definition.is_none()) {
        let schema = corpus.get(&set.target.schema).expect("discovered sets name loaded schemas");
        let validator = support::validator(&registry, &set.target.uri(&schema.id));
        for fixture in &set.valid {
            let Some(object) = fixture.document.as_object() else { continue };
            for key in object.keys() {
                let mutations: [(&str, Option<Value>); 4] = [
                    ("dropped", None),
                    ("null", Some(Value::Null)),
                    ("a number", Some(json!(12.5))),
                    ("a string", Some(json!("mutated"))),
                ];
                for (what, replacement) in mutations {
                    let mut document = fixture.document.clone();
                    let map = document.as_object_mut().expect("an object");
                    match replacement {
                        None => {
                            map.remove(key);
                        }
                        Some(value) => {
                            map.insert(key.clone(), value);
                        }
                    }
                    compared += 1;
                    let (ours, theirs) = (interpreted(&set.target.schema, &document), reference(&validator, &document));
                    if ours != theirs {
                        failures.push(format!(
                            "{} with {key} {what}: interpreter {ours:?}, jsonschema {theirs:?}",
                            fixture.path.display()
                        ));
                    }
                }
            }
        }
    }
    println!("compared {compared} mutated documents");
    assert!(compared > 1000, "only {compared} mutations");
    assert!(failures.is_empty(), "{} of {compared} disagreements:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_violation_is_reported_not_only_the_first() {
    let schema = "agents/ps/researcher_output.json";
    let mut document = fixture(schema, "minimal.json");
    document.as_object_mut().unwrap().remove("research_topic");
    document["findings"][0]["id"] = json!("F-1");
    document["confidence"]["overall"] = json!(1.5);
    let validator = reference_for(schema);
    assert_eq!(interpreted(schema, &document), reference(&validator, &document));

    let records = records(schema, &serde_json::to_value(&document).unwrap());
    let mut codes: Vec<&str> = records.iter().map(|r| r.error_code.as_str()).collect();
    codes.sort_unstable();
    assert_eq!(codes, ["SCH-001", "SCH-003", "SCH-004"], "{records:#?}");
    for record in &records {
        let keyword = record.extra.get_str("keyword").unwrap();
        match keyword.as_ref() {
            "required" => {
                assert_eq!(record.path.as_deref(), Some(""));
                assert_eq!(record.expected, Some(json!("research_topic")));
                assert!(record.message.contains("research_topic"), "{}", record.message);
            }
            "pattern" => {
                assert_eq!(record.path.as_deref(), Some("/findings/0/id"));
                assert_eq!(record.expected, Some(json!("^F-[0-9]{3}$")));
                assert_eq!(record.actual, Some(json!("F-1")));
                assert!(record.message.contains("\"F-1\"") && record.message.contains("^F-[0-9]{3}$"));
            }
            "maximum" => {
                assert_eq!(record.path.as_deref(), Some("/confidence/overall"));
                assert_eq!(record.actual, Some(json!(1.5)));
                assert!(record.message.contains("1.5"), "{}", record.message);
            }
            other => panic!("unexpected keyword {other}"),
        }
    }
}

#[test]
fn patterns_take_ascii_digits_only() {
    let schema = "agents/ps/researcher_output.json";
    let mut document = fixture(schema, "minimal.json");
    document["findings"][0]["id"] = json!("F-\u{0660}\u{0660}\u{0661}");
    assert_eq!(interpreted(schema, &document), [("pattern".to_owned(), "/findings/0/id".to_owned())]);
    // The reference validator reads `\d` as ECMA-262 does too (D-124 measured it).
    assert_eq!(reference(&reference_for(schema), &document), interpreted(schema, &document));
    let requirement = "common/types.json#/definitions/requirement_id";
    assert!(interpreted(requirement, &json!("REQ-NSE-001")).is_empty());
    assert_eq!(
        interpreted(requirement, &json!("REQ-NSE-\u{0660}\u{0660}\u{0661}")),
        [("pattern".into(), String::new())]
    );
}

#[test]
fn a_type_error_names_the_value_and_the_declared_types() {
    let schema = "agents/ps/researcher_output.json";
    let mut document = fixture(schema, "minimal.json");
    document["research_topic"] = json!(42);
    let records = records(schema, &document);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!((record.error_code.as_str(), record.path.as_deref()), ("SCH-002", Some("/research_topic")));
    assert!(record.message.contains("42 is an integer, not of type \"string\""), "{}", record.message);
}

#[test]
fn lengths_count_characters() {
    let schema = "agents/ps/researcher_output.json";
    let mut document = fixture(schema, "minimal.json");
    // 500 characters, 1000 bytes: the maximum exactly.
    document["findings"][0]["summary"] = json!("é".repeat(500));
    assert!(interpreted(schema, &document).is_empty());
    document["findings"][0]["summary"] = json!("é".repeat(501));
    assert_eq!(interpreted(schema, &document), [("maxLength".to_owned(), "/findings/0/summary".to_owned())]);
    let records = records(schema, &document);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.error_code, "SCH-005");
    assert_eq!(record.expected, Some(json!(500)));
    // The offending text is quoted, cut after 200 characters.
    assert_eq!(record.actual, Some(json!(format!("{}…", "é".repeat(200)))));
    assert!(record.message.contains("501 characters"), "{}", record.message);
}

#[test]
fn an_integer_is_a_number_without_fraction() {
    let schema = "session_context/v1.1.0.json";
    let validator = reference_for(schema);
    let mut document = fixture(schema, "maximal.json");
    document["workflow_state"]["step_number"] = json!(1.0);
    assert!(interpreted(schema, &document).is_empty());
    assert!(reference(&validator, &document).is_empty());
    document["workflow_state"]["step_number"] = json!(1.5);
    let expected = [("type".to_owned(), "/workflow_state/step_number".to_owned())];
    assert_eq!(interpreted(schema, &document), expected);
    assert_eq!(reference(&validator, &document), expected);
    let records = records(schema, &document);
    assert_eq!(records.iter().map(|r| r.error_code.as_str()).collect::<Vec<_>>(), ["SCH-002"]);
    assert_eq!(records[0].expected, Some(json!("integer")));
    assert_eq!(records[0].actual, Some(json!(1.5)));
}

#[test]
fn unique_items_uses_json_equality() {
    // `requested_outputs` is unique by convention (D-33): the convention layer compares items as
    // JSON values, as a draft-07 validator does (`1` and `1.0` are equal).
    let schema = "mission/mission_envelope.json";
    let unique = jsonschema::draft7::new(&json!({"type": "array", "uniqueItems": true})).unwrap();
    let strict = Validator::with_options(jerry_contracts::validation::Options::default().with_strict(true));
    let mut document = fixture(schema, "maximal.json");
    for outputs in [
        json!([1, 1.0]),
        json!([1, 2.0, 1.5]),
        json!(["reviewed_summary", {"a": [1]}, {"a": [1.0]}]),
        json!(["reviewed_summary", {"a": [1]}, {"a": [2]}]),
        json!(["reviewed_summary", "writeback_proposal"]),
    ] {
        document["requested_outputs"] = outputs.clone();
        let report = strict.validate_as(schema, &serde_json::to_vec(&document).unwrap());
        let repeated =
            report.records.iter().any(|r| r.error_code == "CNV-010" && r.path.as_deref() == Some("/requested_outputs"));
        assert_eq!(repeated, !unique.is_valid(&outputs), "{outputs}: {:?}", report.records);
    }
}

#[test]
fn the_v1_1_payload_is_judged_by_its_agents_schema() {
    let schema = "session_context/v1.1.0.json";
    let validator = reference_for(schema);
    let mut document = fixture(schema, "nse_requirements_payload.json");
    assert!(interpreted(schema, &document).is_empty());
    document["payload"]["disclaimer_included"] = json!(false);
    let expected = [("const".to_owned(), "/payload/disclaimer_included".to_owned())];
    assert_eq!(interpreted(schema, &document), expected);
    assert_eq!(reference(&validator, &document), expected);
    let records = records(schema, &document);
    let [record] = records.as_slice() else { panic!("{records:?}") };
    assert_eq!(record.error_code, "SCH-008");
    assert_eq!((record.expected.clone(), record.actual.clone()), (Some(json!(true)), Some(json!(false))));

    // An agent without an output schema gets the generic payload, whose violations are its own.
    let mut generic = fixture(schema, "generic_payload.json");
    generic["payload"].as_object_mut().unwrap().remove("key_findings");
    assert_eq!(interpreted(schema, &generic), reference(&validator, &generic));
    assert_eq!(interpreted(schema, &generic), [("required".to_owned(), "/payload".to_owned())]);
}

#[test]
fn a_deeply_nested_document_gets_one_record_and_no_stack_overflow() {
    let schema = "agents/ps/researcher_output.json";
    let mut deep = Value::Null;
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    let mut document = fixture(schema, "minimal.json");
    document["research_topic"] = deep;
    let interpreted = interpreted(schema, &document);
    let records = records(schema, &document);
    // Take the nesting apart iteratively before anything is asserted: dropping it recursively,
    // as a failed assertion would, overflows the stack.
    let mut deep = document["research_topic"].take();
    while let Value::Array(mut items) = deep {
        deep = items.pop().unwrap_or(Value::Null);
    }
    // The interpreter alone meets the wrong type first; the validator refuses the nesting, as it
    // refuses the document's text, at the array that passes the limit (D-166).
    assert_eq!(interpreted, [("type".to_owned(), "/research_topic".to_owned())]);
    assert_eq!(records.iter().map(|r| r.error_code.as_str()).collect::<Vec<_>>(), ["SCH-012"], "{records:?}");
    assert_eq!(records[0].path, Some(format!("/research_topic{}", "/0".repeat(127))));
}

#[test]
fn unknown_schemas_and_definitions_are_named() {
    assert_eq!(interpreted("agents/ps/critic_output", &json!({})), [("unknownSchema".to_owned(), String::new())]);
    assert_eq!(
        interpreted("common/types.json#/definitions/no_such_thing", &json!({})),
        [("unknownSchema".to_owned(), String::new())]
    );
}

#[test]
fn mutating_values_at_every_depth_gives_the_same_violations_as_jsonschema() {
    // Every place of every maximal fixture, top-level members included, replaced by values that
    // break formats, patterns, ranges, types and uniqueness: the interpreter reports what the
    // reference validator reports, and the generated type gives the same verdict.
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let registry = support::registry(&corpus);
    let mut failures = Vec::new();
    let mut compared = 0;
    for set in sets.iter().filter(|s| s.target.definition.is_none()) {
        let schema = corpus.get(&set.target.schema).expect("discovered sets name loaded schemas");
        let validator = support::validator(&registry, &set.target.uri(&schema.id));
        let entry = jerry_contracts::__private::typed::find(&set.target.schema, "").expect("a root type");
        if let Some(fixture) = set.valid_file("maximal.json") {
            for place in &support::places(&fixture.document) {
                let replacements = [
                    Value::Null,
                    json!(-1),
                    json!(0.5),
                    json!(2.0),
                    json!(""),
                    json!("2026-02-30"),
                    json!("2026-01-10t14:30:00.5z"),
                    json!("rel/path#frag"),
                    json!("https://x.test/a b"),
                    json!([1, 1.0]),
                    json!({}),
                ];
                for replacement in replacements {
                    let mut document = fixture.document.clone();
                    *document.pointer_mut(place).expect("a place of the document") = replacement.clone();
                    compared += 1;
                    let (ours, theirs) = (interpreted(&set.target.schema, &document), reference(&validator, &document));
                    if ours != theirs {
                        failures.push(format!(
                            "{} with {place} = {replacement}: interpreter {ours:?}, jsonschema {theirs:?}",
                            fixture.path.display()
                        ));
                    }
                    let typed = entry.check(&document);
                    if typed.is_ok() != theirs.is_empty() {
                        failures.push(format!(
                            "{} with {place} = {replacement}: the type says {typed:?}, jsonschema {theirs:?}",
                            fixture.path.display()
                        ));
                    }
                }
            }
        }
    }
    println!("compared {compared} documents mutated at every depth");
    assert!(compared > 20_000, "only {compared} mutations");
    assert!(failures.is_empty(), "{} of {compared} disagreements:\n{}", failures.len(), failures.join("\n"));
}
