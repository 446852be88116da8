//! Every schema's generated example is valid: through all four validation layers when the
//! schema is a document's, through the generated type when it is a definition library's root.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use jerry_contracts::{examples, registry, validation};

#[test]
fn every_schema_has_a_valid_example() {
    let mut checked = 0;
    for info in registry::schemas() {
        let has_root = info.document.get("type").is_some() || info.document.get("properties").is_some();
        if !has_root {
            continue;
        }
        let example = examples::example(info.name).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        let report = validation::Validator::new().validate_value(Some(info.name), &example);
        let errors: Vec<_> = report.errors().map(|r| (&r.error_code, &r.path, &r.message)).collect();
        assert!(errors.is_empty(), "{}: example {example} is invalid: {errors:?}", info.name);
        checked += 1;
    }
    assert!(checked >= 44, "{checked} schemas with a root type");
}
