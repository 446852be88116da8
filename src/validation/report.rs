//! The result of a validation run: records of the `common/error.json` type
//! ([`ErrorRecord`]), in the order the layers found them.

use serde_json::Value;

use super::codes::Code;
use crate::common::{ErrorRecord, ErrorRecordSeverity};

/// Every record a validation run produced for one document.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Report {
    /// The schema the document was judged against (registry name), if one was found.
    pub schema: Option<&'static str>,
    /// The records, in the order found.
    pub records: Vec<ErrorRecord>,
}

impl Report {
    /// True when no record has severity `error` (warnings are allowed).
    pub fn is_valid(&self) -> bool {
        !self.records.iter().any(|r| r.severity == ErrorRecordSeverity::Error)
    }

    /// The records of severity `error`.
    pub fn errors(&self) -> impl Iterator<Item = &ErrorRecord> {
        self.records.iter().filter(|r| r.severity == ErrorRecordSeverity::Error)
    }

    /// The codes of all records, in order (handy in tests and logs).
    pub fn codes(&self) -> Vec<&str> {
        self.records.iter().map(|r| r.error_code.as_str()).collect()
    }

    /// Adds a record for `code` at `pointer`.
    pub fn push(&mut self, record: ErrorRecord) {
        self.records.push(record);
    }
}

/// A record for `code` at `pointer`, with `message` after the code's title.
pub fn record(code: &Code, pointer: &str, message: impl Into<String>) -> ErrorRecord {
    let message = message.into();
    ErrorRecord {
        error_code: code.code.to_owned(),
        message: if message.is_empty() { code.title.to_owned() } else { format!("{}: {message}", code.title) },
        severity: code.severity,
        path: Some(pointer.to_owned()),
        expected: None,
        actual: None,
        remediation: Some(code.remediation.to_owned()),
        constitutional_principle: code.principle.map(str::to_owned),
        extra: crate::Extra::new(),
    }
}

/// Adds what was expected and what was found to a record.
pub fn with_values(mut record: ErrorRecord, expected: Option<Value>, actual: Option<Value>) -> ErrorRecord {
    record.expected = expected;
    record.actual = actual;
    record
}
