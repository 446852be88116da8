//! Differential test: for every fixture, the typed verdict (deserialise into the generated type,
//! then `garde` validation) equals the `jsonschema` crate's verdict on the source schema, and a
//! rejected fixture is reported at the JSON Pointer its sidecar records.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::__private::typed;

#[test]
fn typed_verdicts_equal_the_reference_validator() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let registry = support::registry(&corpus);
    let mut disagreements = Vec::new();
    let mut judged = 0;
    for set in &sets {
        let entry = typed::find(&set.target.schema, &set.target.pointer())
            .unwrap_or_else(|| panic!("no generated type for {}", set.target));
        let schema = corpus.get(&set.target.schema).expect("schema");
        let reference = support::validator(&registry, &set.target.uri(&schema.id));
        let documents = set
            .valid
            .iter()
            .map(|f| (&f.path, &f.document, None))
            .chain(set.invalid.iter().map(|f| (&f.path, &f.document, Some(f.expect.pointer.as_str()))));
        for (path, document, expected_pointer) in documents {
            judged += 1;
            let typed_verdict = entry.check(document);
            let reference_valid = reference.is_valid(document);
            match (&typed_verdict, reference_valid) {
                (Ok(()), true) => {}
                (Err(violations), false) => {
                    if let Some(pointer) = expected_pointer
                        && !violations.iter().any(|v| v.pointer == pointer)
                    {
                        disagreements.push(format!(
                            "{}: rejected as expected, but at {:?} instead of {pointer:?}",
                            path.display(),
                            violations.iter().map(|v| (&v.pointer, &v.message)).collect::<Vec<_>>()
                        ));
                    }
                }
                (Ok(()), false) => disagreements.push(format!(
                    "{}: {} accepts what the schema rejects ({:?})",
                    path.display(),
                    entry.rust_path,
                    support::errors(&reference, document)
                )),
                (Err(violations), true) => disagreements.push(format!(
                    "{}: {} rejects what the schema accepts: {violations:?}",
                    path.display(),
                    entry.rust_path
                )),
            }
        }
    }
    assert!(judged > 900, "only {judged} fixtures judged");
    assert!(disagreements.is_empty(), "{} of {judged} disagree:\n{}", disagreements.len(), disagreements.join("\n"));
}

#[test]
fn every_schema_root_and_definition_has_a_generated_type() {
    let corpus = support::corpus();
    let mut missing = Vec::new();
    for schema in &corpus.schemas {
        if schema.has_root_type() && typed::find(&schema.path, "").is_none() {
            missing.push(schema.path.clone());
        }
        for name in schema.definition_names() {
            let pointer = format!("/definitions/{name}");
            if typed::find(&schema.path, &pointer).is_none() {
                missing.push(format!("{}#{pointer}", schema.path));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:?}");
}
