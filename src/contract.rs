//! What every generated type knows of its schema ([`Contract`]), and the check of a typed value
//! ([`Validate`]), which answers with the same [`Report`] as the bytes and `Value` paths: the
//! same codes, places, messages and schema locations.

use crate::registry;
use crate::validation::{Report, codes, record, schema_layer};

/// A generated contract type: the schema it is generated from. Implemented by the generator for
/// every type in the crate (a root, a definition, a named inline schema); not meant to be
/// implemented by hand.
pub trait Contract: serde::Serialize + serde::de::DeserializeOwned {
    /// The schema file's registry name (`agents/ps/researcher_output`; see
    /// [`registry::lookup`]).
    const SCHEMA: &'static str;
    /// The JSON Pointer of this type's schema inside that file: `""` for the file's root,
    /// `/definitions/finding` for a definition.
    const POINTER: &'static str;

    /// The type's own constraint check (patterns, ranges, lengths, counts, constants): the place
    /// and message of each violation, none when the value keeps them all. Generated; use
    /// [`Validate::validate`].
    #[doc(hidden)]
    fn constraint_violations(&self) -> Vec<(String, String)>;
}

/// The schema layer on a typed value, reported as [`Report`]: what the types cannot hold by
/// construction (patterns, ranges, lengths, counts, constants), judged against the type's
/// schema. For the four layers on a whole document (semantic, constitutional and reference
/// rules too), use [`crate::validation::Validator::validate_typed`].
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
    /// Every violation of the value's schema, in the seed's error format; valid when none.
    fn validate(&self) -> Report;
}

impl<T: Contract> Validate for T {
    fn validate(&self) -> Report {
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
        match serde_json::to_value(self) {
            Ok(value) => schema_layer(info, T::POINTER, &value, &mut report),
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
        // A number JSON cannot hold (NaN, an infinity) is written as `null`: where the type
        // found something at a place the written value has `null`, its words say what is wrong.
        for (pointer, message) in violations {
            for found in report.records.iter_mut().filter(|r| r.path.as_deref() == Some(&pointer)) {
                if found.actual == Some(serde_json::Value::Null) {
                    let keyword_location = found.keyword_location.take();
                    *found = record(&codes::SCH_WRONG_TYPE, &pointer, message.clone());
                    found.keyword_location = keyword_location;
                }
            }
        }
        report
    }
}
