//! The result of a validation run: records of the `common/error.json` type
//! ([`ErrorRecord`]), in the order the layers found them. One report answers on every path:
//! bytes, a parsed `Value` and a typed value ([`crate::Validate`]).

use std::fmt;

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

    /// `Ok(self)` when valid (warnings allowed), `Err(self)` otherwise: for `?` in code that
    /// treats an invalid document as an error (`Report` is a [`std::error::Error`]).
    pub fn into_result(self) -> Result<Self, Self> {
        if self.is_valid() { Ok(self) } else { Err(self) }
    }

    /// Whether some record has the code `code` (`report.has(&codes::SEM_LOW_CONFIDENCE)`)..
    pub fn has(&self, code: &Code) -> bool {
        self.records.iter().any(|r| r.error_code == code.code)
    }

    /// Adds a record for `code` at `pointer`.
    pub fn push(&mut self, record: ErrorRecord) {
        self.records.push(record);
    }
}

impl std::error::Error for Report {}

/// A summary line, then one line per record:
///
/// ```text
/// agents/ps/researcher_output: invalid, 1 error
///   error SCH-004 at /confidence/overall: Number out of range: 1.5 is above the maximum 1
/// ```
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.errors().count();
        let others = self.records.len() - errors;
        write!(f, "{}: {}", self.schema.unwrap_or("(no schema)"), if self.is_valid() { "valid" } else { "invalid" })?;
        match (errors, others) {
            (0, 0) => {}
            (e, 0) => write!(f, ", {e} error{}", plural(e))?,
            (0, o) => write!(f, ", {o} warning{}", plural(o))?,
            (e, o) => write!(f, ", {e} error{}, {o} warning{}", plural(e), plural(o))?,
        }
        for record in &self.records {
            write!(f, "\n  {record}")?;
        }
        Ok(())
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One line: severity, code, place and message (`error SCH-004 at /confidence/overall: …`);
/// the document root is written `/` here, `""` in the record.
impl fmt::Display for ErrorRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            ErrorRecordSeverity::Error => "error",
            ErrorRecordSeverity::Warning => "warning",
            ErrorRecordSeverity::Info => "info",
        };
        let place = match self.path.as_deref() {
            None | Some("") => "/",
            Some(path) => path,
        };
        write!(f, "{severity} {} at {place}: {}", self.error_code, self.message)
    }
}

impl ErrorRecord {
    /// The record's code in the catalogue ([`super::codes`]): its layer, severity, title,
    /// remediation and principle. `None` only for a record this crate did not make (one read
    /// from elsewhere with a code the catalogue does not have).
    pub fn code(&self) -> Option<&'static Code> {
        super::codes::lookup(&self.error_code)
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
        keyword_location: None,
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
