//! The check of a typed value ([`Validate`]): the gate's own report on the value written as
//! JSON, so a typed value and its bytes have one meaning of valid.

use super::{Report, codes, record};
use crate::Contract;
use crate::registry;

/// A typed value judged as the gate judges it: [`Validate::validate`] writes the value as JSON
/// and validates those bytes as the command line judges a file (the schema the document shows;
/// a definition, or a record that shows none, against the value's own schema), with default
/// options: every layer — schema, semantic, constitutional, cross-reference
/// and conventions —, so a value that passes is one the gate (the command line, the Python
/// package) accepts, and one the crate's readers read back; one the readers would refuse (a
/// generic payload whose unknown members name an agent, raw members that repeat a key, a
/// timestamp past year 9999, a member that shadows a declared field) does not pass. A number
/// JSON cannot hold (NaN, an infinity) is written as `null`; where the type found something
/// at such a place, its own words say what is wrong (docs/design.md D-151).
///
/// ```
/// use jerry_contracts::Validate;
/// use jerry_contracts::common::ConfidenceScore;
///
/// let mut confidence: ConfidenceScore = serde_json::from_str(r#"{"overall": 0.9, "reasoning": "three sources"}"#)?;
/// assert!(confidence.validate().is_valid());
/// confidence.overall = 1.5.into();
/// let report = confidence.validate();
/// assert_eq!(report.codes(), ["SCH-004"]);
/// let record = &report.records[0];
/// assert_eq!(record.path.as_deref(), Some("/overall"));
/// assert_eq!(
///     record.keyword_location.as_deref(),
///     Some("https://jerry.dev/schemas/common/types.json#/definitions/confidence_score/properties/overall/maximum"),
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait Validate {
    /// The gate's report on the value written as JSON: every layer, default options; valid when
    /// no record is an error.
    fn validate(&self) -> Report;

    /// The schema layer alone: what the value's type cannot hold by construction (patterns,
    /// ranges, lengths, counts, constants), judged against its schema, as the crate's readers
    /// judge what they read. A value can pass this and still break a rule the gate applies.
    fn validate_schema(&self) -> Report;
}

impl<T: Contract> Validate for T {
    fn validate(&self) -> Report {
        let Some(info) = registry::lookup(T::SCHEMA) else {
            let mut report = Report::default();
            report.push(record(&codes::SCH_UNKNOWN_SCHEMA, "", format!("no schema is named {:?}", T::SCHEMA)));
            return report;
        };
        let schema = registry::fragment_name(info, T::POINTER);
        let bytes = match serde_json::to_vec(self) {
            Ok(bytes) => bytes,
            Err(err) => {
                let mut report = Report::new(Some(schema), crate::validation::Options::DEFAULT_MAX_RECORDS);
                report.push(record(&codes::SCH_WRONG_TYPE, "", format!("the value cannot be written as JSON: {err}")));
                return report;
            }
        };
        // A root as the command line judges a file: the schema the document shows; a definition,
        // or a document that shows none (orchestration records), against its own.
        let validator = crate::validation::Validator::new();
        let detected = if T::POINTER.is_empty() { Some(validator.validate(&bytes)) } else { None };
        let mut report = match detected {
            Some(report) if report.schema.is_some() && !report.has(&codes::SCH_UNKNOWN_SCHEMA) => report,
            _ => validator.validate_as(schema, &bytes),
        };
        // A number JSON cannot hold (NaN, an infinity) is written as `null`: where the type
        // found something at a place the written value has `null`, its words say what is wrong.
        if report.records.iter().any(|r| r.actual == Some(serde_json::Value::Null)) {
            in_the_types_words(&mut report, self.constraint_violations());
        }
        report
    }

    fn validate_schema(&self) -> Report {
        let Some(info) = registry::lookup(T::SCHEMA) else {
            let mut report = Report::default();
            report.push(record(&codes::SCH_UNKNOWN_SCHEMA, "", format!("no schema is named {:?}", T::SCHEMA)));
            return report;
        };
        let schema = registry::fragment_name(info, T::POINTER);
        let mut report = Report::new(Some(schema), crate::validation::Options::DEFAULT_MAX_RECORDS);
        let violations = self.constraint_violations();
        if violations.is_empty() {
            return report;
        }
        // The listing, exactly as the bytes path gives it, from the written value.
        match crate::__private::read::written_value(self) {
            Ok(value) => crate::validation::schema_layer(info, T::POINTER, &value, &mut report),
            Err(err) => {
                report.push(record(&codes::SCH_WRONG_TYPE, "", format!("the value cannot be written as JSON: {err}")))
            }
        }
        if report.is_valid() {
            // The type's check and the schema disagree (a generator defect the differential
            // tests guard against): say what the type found rather than call the value valid.
            for (pointer, message) in violations {
                report.push(record(&codes::SCH_WRONG_TYPE, &pointer, message));
            }
            return report;
        }
        in_the_types_words(&mut report, violations);
        report
    }
}

/// Each record whose `actual` is `null` at a place where the type's own check found something
/// (a NaN or an infinity, which JSON writes as `null`) says it in the type's words.
fn in_the_types_words(report: &mut Report, violations: Vec<(String, String)>) {
    for (pointer, message) in violations {
        for found in report.records.iter_mut().filter(|r| r.path.as_deref() == Some(&pointer)) {
            if found.actual == Some(serde_json::Value::Null) {
                let keyword_location = found.keyword_location.take();
                *found = record(&codes::SCH_WRONG_TYPE, &pointer, message.clone());
                found.keyword_location = keyword_location;
            }
        }
    }
}
