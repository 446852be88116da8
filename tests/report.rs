//! One report on every path (issue 13): every record of every invalid fixture says where its
//! rule is stated (`keyword_location`, resolvable in the corpus), no message carries the place,
//! and a typed value gets the records the same document gets as bytes.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::agents::{nse, ps};
use jerry_contracts::validation::{Validator, codes, validate_as};
use jerry_contracts::{Validate, registry};
use serde::de::DeserializeOwned;

/// The name `validate_value` takes for a fixture set's target.
fn target_name(set: &jerry_contracts_schema_tools::fixtures::FixtureSet) -> String {
    match &set.target.definition {
        None => set.target.schema.clone(),
        Some(_) => format!("{}#{}", set.target.schema, set.target.pointer()),
    }
}

/// Whether `location` (`$id#pointer`) names a schema node of the corpus that exists.
fn resolves(location: &str) -> bool {
    let Some((id, pointer)) = location.split_once('#') else { return false };
    registry::lookup(id).is_some_and(|info| info.document.pointer(pointer).is_some())
}

#[test]
fn every_record_of_every_invalid_fixture_says_where_its_rule_is() {
    let corpus = support::corpus();
    let mut problems = Vec::new();
    let mut records = 0;
    for set in support::fixture_sets(&corpus) {
        let name = target_name(&set);
        for fixture in &set.invalid {
            let report = Validator::new().validate_value(Some(&name), &fixture.document);
            assert!(!report.is_valid(), "{} is valid", fixture.path.display());
            for record in &report.records {
                records += 1;
                let place = record.path.as_deref().unwrap_or("");
                let Some(location) = record.keyword_location.as_deref() else {
                    problems.push(format!("{}: {} has no keyword_location", fixture.path.display(), record.error_code));
                    continue;
                };
                if !resolves(location) {
                    problems.push(format!("{}: {location} does not resolve", fixture.path.display()));
                }
                // A record of the interpreter names its keyword; the location ends with it.
                if let Some(keyword) = record.extra.get_str("keyword")
                    && !matches!(keyword.as_ref(), "falseSchema" | "maxDepth")
                    && !location.ends_with(&format!("/{}", keyword.replace('~', "~0").replace('/', "~1")))
                {
                    problems.push(format!("{}: {location} is not the keyword {keyword}", fixture.path.display()));
                }
                if place.len() > 1
                    && (record.message.starts_with(place) || record.message.contains(&format!("{place}:")))
                {
                    problems.push(format!(
                        "{}: the message carries the place: {}",
                        fixture.path.display(),
                        record.message
                    ));
                }
            }
        }
    }
    assert!(records > 1000, "only {records} records judged");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn a_rule_record_points_at_the_schema_of_the_value_it_judges() {
    let document = serde_json::json!({
        "agent_id": "ps-researcher", "research_topic": "t", "sources": [],
        "findings": [{"id": "F-001", "summary": "s", "category": "gap"}],
        "confidence": {"overall": 0.1, "reasoning": "one weak source"}
    });
    let report = Validator::new().validate_value(Some("agents/ps/researcher_output"), &document);
    let low = report.records.iter().find(|r| r.error_code == codes::SEM_LOW_CONFIDENCE.code).expect("SEM-002");
    assert_eq!(low.path.as_deref(), Some("/confidence/overall"));
    assert_eq!(
        low.keyword_location.as_deref(),
        Some("https://jerry.dev/schemas/common/types.json#/definitions/confidence_score/properties/overall")
    );
    assert_eq!(low.code(), Some(&codes::SEM_LOW_CONFIDENCE));
    assert!(report.has(&codes::SEM_LOW_CONFIDENCE));
    // Display: a summary line, then the record with its place (which the message does not hold).
    let shown = report.to_string();
    assert!(shown.starts_with("agents/ps/researcher_output: valid, "), "{shown}");
    assert!(shown.contains("warning SEM-002 at /confidence/overall: "), "{shown}");
}

/// For every invalid fixture of `schema` that reads into `T` (refused by a constraint, not by
/// its shape), the typed value's report has the bytes' schema records, in the same order.
fn typed_equals_bytes<T: DeserializeOwned + Validate>(schema: &str) -> usize {
    let corpus = support::corpus();
    let set = support::fixture_sets(&corpus)
        .into_iter()
        .find(|set| set.target.schema == format!("{schema}.json") && set.target.definition.is_none())
        .expect("fixture set");
    let mut compared = 0;
    for fixture in &set.invalid {
        let Ok(typed) = serde_json::from_value::<T>(fixture.document.clone()) else { continue };
        compared += 1;
        let bytes = serde_json::to_vec(&fixture.document).unwrap();
        let from_bytes = validate_as(schema, &bytes);
        let schema_layer: Vec<_> =
            from_bytes.records.iter().filter(|r| r.error_code.starts_with("SCH-")).cloned().collect::<Vec<_>>();
        let typed_report = typed.validate();
        assert_eq!(typed_report.schema, Some(schema), "{}", fixture.path.display());
        assert_eq!(typed_report.records, schema_layer, "{}", fixture.path.display());
    }
    compared
}

#[test]
fn a_typed_value_gets_the_records_its_bytes_get() {
    let compared = typed_equals_bytes::<ps::ResearcherOutput>("agents/ps/researcher_output")
        + typed_equals_bytes::<nse::RiskOutput>("agents/nse/risk_output")
        + typed_equals_bytes::<nse::RequirementsOutput>("agents/nse/requirements_output");
    assert!(compared > 20, "only {compared} typed values compared");
}

#[test]
fn a_value_json_cannot_hold_is_named_not_called_null() {
    let mut output: ps::ResearcherOutput = serde_json::from_value(serde_json::json!({
        "agent_id": "ps-researcher", "research_topic": "t", "sources": [],
        "findings": [{"id": "F-001", "summary": "s", "category": "gap"}],
        "confidence": {"overall": 0.8}
    }))
    .unwrap();
    output.confidence.overall = f64::NAN.into();
    let report = output.validate();
    assert_eq!(report.codes(), ["SCH-002"]);
    assert!(report.records[0].message.contains("not a finite number"), "{report}");
    assert!(report.records[0].keyword_location.is_some(), "{report}");
    let err = report.into_result().expect_err("invalid");
    assert!(err.to_string().contains("error SCH-002 at /confidence/overall"), "{err}");
}

/// Every code of the catalogue (docs/error-codes.md) is reported by some layer: the
/// validator's, or the artifact store's references against what is stored (REF-008, REF-009,
/// crates/store).
#[test]
fn every_code_in_the_catalogue_is_reported_by_some_layer() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.join("src");
    let mut sources = String::new();
    for dir in [root.join("validation"), root.clone(), manifest.join("crates/store/src")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("codes.rs") {
                sources.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    let unused: Vec<&str> = jerry_contracts::validation::codes::CONSTANT_NAMES
        .iter()
        .copied()
        .filter(|name| !sources.contains(&format!("codes::{name}")))
        .collect();
    assert!(unused.is_empty(), "catalogue codes no layer reports: {unused:?}");
}
