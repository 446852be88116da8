//! The result of a validation run: records of the `common/error.json` type
//! ([`ErrorRecord`]), in the order the layers found them. One report answers on every path:
//! bytes, a parsed `Value` and a typed value ([`crate::Validate`]).
//!
//! A report is bounded whatever the document (docs/robustness.md): it lists at most
//! [`Options::max_records`](super::Options::max_records) records and about
//! [`Report::BYTES_PER_RECORD`] bytes of text for each; what is found past that is counted in one last record,
//! SCH-016, whose severity is `error` when any record left out is one (so the verdict never
//! changes). A record's message is cut after [`Report::MESSAGE_CHARS`] characters, and an
//! `expected` or `actual` value whose JSON text is longer than [`Report::VALUE_CHARS`]
//! characters is given as that text, cut (`… N more characters`).

use std::fmt;

use serde_json::Value;

use super::codes::Code;
use crate::common::{ErrorRecord, ErrorRecordSeverity};

/// Every record a validation run produced for one document.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// The schema the document was judged against (registry name), if one was found.
    pub schema: Option<&'static str>,
    /// The records, in the order found; past the cap, the last is SCH-016 counting the rest.
    pub records: Vec<ErrorRecord>,
    /// How many records may be listed, and what was left out.
    #[serde(skip)]
    limit: Limit,
}

/// The cap of a report and what it left out.
#[derive(Debug, Clone, Copy)]
struct Limit {
    max_records: usize,
    /// Strict mode: a convention's record (its code's basis) is an error.
    strict: bool,
    bytes: usize,
    omitted: usize,
    omitted_errors: usize,
}

impl Default for Report {
    fn default() -> Self {
        Self::new(None, super::Options::DEFAULT_MAX_RECORDS)
    }
}

/// Two reports are equal when they judge the same schema with the same records (how they were
/// capped is not compared).
impl PartialEq for Report {
    fn eq(&self, other: &Self) -> bool {
        self.schema == other.schema && self.records == other.records
    }
}

impl Report {
    /// The most characters of a record's message; the rest is cut (`… N more characters`).
    pub const MESSAGE_CHARS: usize = 1000;
    /// The most characters of the JSON text of a record's `expected` or `actual`; a longer value
    /// is given as its JSON text, cut.
    pub const VALUE_CHARS: usize = 1000;
    /// About the most bytes of text a report holds per record it may list (plus 1 MiB): a few
    /// records with very long paths fill the report as a thousand ordinary ones would, and the
    /// ones past that are counted in SCH-016, like those past the record cap.
    pub const BYTES_PER_RECORD: usize = 8 << 10;

    /// An empty report on `schema` that lists at most `max_records` records.
    pub fn new(schema: Option<&'static str>, max_records: usize) -> Self {
        Self {
            schema,
            records: Vec::new(),
            limit: Limit { max_records, strict: false, bytes: 0, omitted: 0, omitted_errors: 0 },
        }
    }

    /// This report in strict mode: every record of a convention (a `CNV-*` code, or a rule whose
    /// [`super::codes::Basis`] is a convention) pushed from now on is an error.
    #[must_use]
    pub(crate) fn strict(mut self, strict: bool) -> Self {
        self.limit.strict = strict;
        self
    }

    /// How many more records this report lists before it only counts them.
    pub(crate) fn room(&self) -> usize {
        if self.limit.omitted > 0 { 0 } else { self.limit.max_records.saturating_sub(self.records.len()) }
    }

    /// How many records were found but not listed (counted in the last record, SCH-016).
    pub fn omitted(&self) -> usize {
        self.limit.omitted
    }

    /// About how many bytes the records hold (what the byte cap counts).
    pub fn weight(&self) -> usize {
        self.limit.bytes
    }

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

    /// Places every record in the source text it judged (`text`, whose first line is line
    /// `first_line` of its file: 1 for a whole file, the line's number for NDJSON): each record
    /// gains the members `line` and `column` (from 1, in Unicode scalar values) of the value at
    /// its `path` ([`super::positions`]; a missing member's object). One pass over the text for all
    /// the records; nothing to do for a report without records. A record that has `line` or
    /// `column` already keeps them.
    pub fn add_positions(&mut self, text: &[u8], first_line: usize) {
        if self.records.is_empty() {
            return;
        }
        let pointers: Vec<&str> = self.records.iter().map(|r| r.path.as_deref().unwrap_or("")).collect();
        let places = super::positions(text, &pointers);
        for (record, place) in self.records.iter_mut().zip(places) {
            if record.extra.contains_key("line") || record.extra.contains_key("column") {
                continue;
            }
            let line = first_line.saturating_add(place.line).saturating_sub(1);
            // Serialising a number cannot fail.
            let _ = record.extra.insert("line", &line);
            let _ = record.extra.insert("column", &place.column);
        }
    }

    /// Adds a record, its message and values cut to the caps; past the report's caps it is only
    /// counted (in the last record, SCH-016).
    pub fn push(&mut self, mut record: ErrorRecord) {
        if self.limit.strict && record.code().is_some_and(super::codes::Code::is_convention) {
            record.severity = ErrorRecordSeverity::Error;
        }
        let error = record.severity == ErrorRecordSeverity::Error;
        if self.room() == 0 {
            return self.omit(1, usize::from(error));
        }
        let record = bounded(record);
        let weight = weight(&record);
        let budget = self.limit.max_records.saturating_mul(Self::BYTES_PER_RECORD).saturating_add(1 << 20);
        if self.limit.bytes.saturating_add(weight) > budget {
            return self.omit(1, usize::from(error));
        }
        self.limit.bytes += weight;
        self.records.push(record);
    }

    /// Counts `count` records found but not listed, `errors` of them errors: the last record
    /// (SCH-016, added at the first) says how many, and is an error when any of them is.
    pub(crate) fn omit(&mut self, count: usize, errors: usize) {
        if count == 0 {
            return;
        }
        let first = self.limit.omitted == 0;
        self.limit.omitted = self.limit.omitted.saturating_add(count);
        self.limit.omitted_errors = self.limit.omitted_errors.saturating_add(errors);
        let (omitted, omitted_errors) = (self.limit.omitted, self.limit.omitted_errors);
        let mut summary = record(
            &super::codes::SCH_TRUNCATED,
            "",
            format!(
                "{omitted} more record{} found and not listed ({omitted_errors} of them error{}); the report lists at most {} records",
                plural(omitted),
                plural(omitted_errors),
                self.limit.max_records
            ),
        );
        if omitted_errors > 0 {
            summary.severity = ErrorRecordSeverity::Error;
        }
        summary.actual = Some(Value::from(omitted));
        summary.expected = Some(Value::from(self.limit.max_records));
        if first {
            self.records.push(summary);
        } else if let Some(last) = self.records.last_mut() {
            summary.keyword_location = last.keyword_location.take();
            *last = summary;
        }
    }
}

/// `record` with its message and values cut to the caps of [`Report`].
fn bounded(mut record: ErrorRecord) -> ErrorRecord {
    if let std::borrow::Cow::Owned(cut) = crate::shorten::cut(&record.message, Report::MESSAGE_CHARS) {
        record.message = cut;
    }
    for value in [&mut record.expected, &mut record.actual].into_iter().flatten() {
        bound_value(value);
    }
    record
}

/// A value whose JSON text is longer than [`Report::VALUE_CHARS`] becomes that text, cut; a long
/// string is cut in place.
fn bound_value(value: &mut Value) {
    match value {
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
        Value::String(text) => {
            if let std::borrow::Cow::Owned(cut) = crate::shorten::cut(text, Report::VALUE_CHARS) {
                *text = cut;
            }
        }
        Value::Array(_) | Value::Object(_) => {
            let text = value.to_string();
            if text.len() > Report::VALUE_CHARS
                && let std::borrow::Cow::Owned(cut) = crate::shorten::cut(&text, Report::VALUE_CHARS)
            {
                *value = Value::String(cut);
            }
        }
    }
}

/// About how many bytes a record holds: its texts, its values' JSON text (bounded), and a
/// constant for the rest.
fn weight(record: &ErrorRecord) -> usize {
    let text = |t: &Option<String>| t.as_ref().map_or(0, String::len);
    let value = |v: &Option<Value>| match v {
        None | Some(Value::Null | Value::Bool(_) | Value::Number(_)) => 16,
        Some(Value::String(s)) => s.len() + 24,
        // Bounded to VALUE_CHARS of text by `bound_value`; their parsed form is a few times that.
        Some(other) => 4 * other.to_string().len(),
    };
    256 + record.message.len()
        + record.error_code.len()
        + text(&record.path)
        + text(&record.keyword_location)
        + text(&record.remediation)
        + text(&record.constitutional_principle)
        + value(&record.expected)
        + value(&record.actual)
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
        super::codes::find(&self.error_code)
    }
}

/// The `line` and `column` a record was placed at ([`Report::add_positions`]), if it was.
pub fn placed(record: &ErrorRecord) -> Option<(u64, u64)> {
    let member = |name: &str| record.extra.get_value(name).and_then(|v| v.as_u64());
    Some((member("line")?, member("column")?))
}

/// A record for `code` at `pointer`, with `message` after the code's title.
///
/// A rule that is a convention of this project (its [`super::codes::Basis`]) says so after the
/// message, naming its decision: the seeds do not state it, and it is a warning unless strict.
pub fn record(code: &Code, pointer: &str, message: impl Into<String>) -> ErrorRecord {
    let mut message = message.into();
    if let super::codes::Basis::Convention { decision } = code.basis
        && !code.code.starts_with("CNV-")
    {
        message = format!("{message} (a convention, {decision}; the seeds do not state it)");
    }
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
