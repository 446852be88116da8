//! Reading a generated type from JSON, with the answer every other path gives: a value of the
//! type, or a [`Report`] whose records (codes, places, messages, `keyword_location`) are the
//! ones [`crate::validation::Validator::validate_as`] gives the same document in its schema
//! layer.

use serde_json::Value;

use crate::Contract;
use crate::registry;
use crate::validation::{Report, codes, record, schema_layer};

/// Reads `T` from a parsed JSON value: its shape (types, required members, enums, constants,
/// formats). The constraints the type cannot hold by construction are
/// [`crate::Validate::validate`]'s.
///
/// ```
/// use jerry_contracts::common::ConfidenceScore;
///
/// let err = jerry_contracts::typed::deserialize::<ConfidenceScore>(&serde_json::json!({"overall": "high"}))
///     .unwrap_err();
/// assert_eq!(err.codes(), ["SCH-002"]);
/// assert_eq!(err.records[0].path.as_deref(), Some("/overall"));
/// ```
pub fn deserialize<T: Contract>(value: &Value) -> Result<T, Report> {
    crate::__private::typed::read_value(value).map_err(|violation| refused::<T>(Ok(value), violation))
}

/// Reads `T` straight from JSON bytes in one pass; only when that fails are the bytes read again
/// to list every reason, as the bytes path lists them (a malformed document, a duplicate member,
/// every shape violation of the schema).
///
/// ```
/// use jerry_contracts::agents::ps::ResearcherOutput;
///
/// let err = jerry_contracts::typed::from_slice::<ResearcherOutput>(br#"{"agent_id": "ps-researcher", "agent_id": "ps-researcher"}"#)
///     .unwrap_err();
/// assert_eq!(err.codes(), ["SCH-014"]);
/// assert_eq!(err.records[0].path.as_deref(), Some("/agent_id"));
/// ```
pub fn from_slice<T: Contract>(bytes: &[u8]) -> Result<T, Report> {
    crate::__private::typed::read_contract_slice(bytes).map_err(|violation| match crate::validation::parse(bytes) {
        Ok(value) => refused::<T>(Ok(&value), violation),
        Err(report) => refused::<T>(Err(report), violation),
    })
}

/// The report on a document `T` refused: the parse's records when it is not JSON, else the
/// schema layer's listing; the type's own first finding when the listing is empty (the type
/// and the schema disagree: said, never dropped).
fn refused<T: Contract>(parsed: Result<&Value, Report>, violation: crate::__private::typed::Violation) -> Report {
    let schema = registry::lookup(T::SCHEMA);
    let mut report = match parsed {
        Err(report) => report,
        Ok(value) => {
            let mut report = Report::default();
            if let Some(info) = schema {
                schema_layer(info, T::POINTER, value, &mut report);
            }
            report
        }
    };
    report.schema = schema.map(|info| registry::fragment_name(info, T::POINTER));
    if report.is_valid() {
        report.push(record(&codes::SCH_WRONG_TYPE, &violation.pointer, violation.message));
    }
    report
}
