//! `validate --format github` and `--format junit` (issue 31, items 3 and 4): the records where
//! CI systems show them. GitHub's workflow commands annotate the file at the record's line and
//! column, within GitHub's limit of ten annotations of each kind a step, one notice saying what
//! did not fit; JUnit XML has one test case a document, failing with its error records.

use std::fmt::Write as _;
use std::io::{self, Write};

use jerry_contracts::common::{ErrorRecord, ErrorRecordSeverity};
use jerry_contracts::validation::{Report, placed as place};

/// The annotations GitHub shows of each kind (error, warning, notice) from one step.
pub const ANNOTATIONS_PER_KIND: usize = 10;

/// What the GitHub format has written and left out so far in a run.
#[derive(Debug, Default, Clone, Copy)]
pub struct Annotations {
    /// Annotations written, by kind: error, warning, notice.
    pub written: [usize; 3],
    /// Annotations left out past the limit, by kind.
    pub left_out: [usize; 3],
}

/// A workflow command's data: `%`, CR and LF escaped (GitHub's toolkit, `escapeData`).
fn data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: `data` and also `:` and `,` (`escapeProperty`).
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One document's records as workflow commands (`::error file=…,line=…,col=…,title=…::…`),
/// as many as the step's limits leave room for, then its verdict as a log line. `file` is the
/// input's path (none for standard input).
pub fn github(
    file: Option<&str>,
    shown: &str,
    report: &Report,
    counts: &mut Annotations,
    out: &mut dyn Write,
) -> io::Result<()> {
    for record in &report.records {
        let (kind, command) = match record.severity {
            ErrorRecordSeverity::Error => (0, "error"),
            ErrorRecordSeverity::Warning => (1, "warning"),
            ErrorRecordSeverity::Info => (2, "notice"),
        };
        // One notice stays free for the run's summary of what did not fit.
        let room = if kind == 2 { ANNOTATIONS_PER_KIND - 1 } else { ANNOTATIONS_PER_KIND };
        if counts.written[kind] >= room {
            counts.left_out[kind] += 1;
            continue;
        }
        counts.written[kind] += 1;
        let mut properties = Vec::new();
        if let Some(file) = file {
            properties.push(format!("file={}", property(file)));
        }
        if let Some((line, column)) = place(record) {
            properties.push(format!("line={line},col={column}"));
        }
        properties.push(format!("title={}", property(&record.error_code)));
        let pointer = record.path.as_deref().unwrap_or("");
        writeln!(
            out,
            "::{command} {}::{}",
            properties.join(","),
            data(&format!("{} (at {pointer:?})", record.message))
        )?;
    }
    let verdict = if report.is_valid() { "valid" } else { "invalid" };
    writeln!(out, "{shown}: {verdict} ({})", report.schema.unwrap_or("unknown schema"))
}

/// The end of a GitHub-format run: a notice naming what did not fit in the annotations.
pub fn github_summary(counts: &Annotations, out: &mut dyn Write) -> io::Result<()> {
    let [errors, warnings, notices] = counts.left_out;
    if errors + warnings + notices > 0 {
        writeln!(
            out,
            "::notice title=jerry-contracts::{}",
            data(&format!(
                "{errors} more error(s), {warnings} more warning(s) and {notices} more notice(s) were not annotated (GitHub shows {ANNOTATIONS_PER_KIND} of each kind a step); run `jerry-contracts validate` for all of them"
            ))
        )?;
    }
    Ok(())
}

/// Text as XML character data or an attribute value: `&`, `<`, `>`, `"`, `'` escaped, and the
/// characters XML 1.0 cannot hold (most controls, lone surrogates cannot reach a `str`) as
/// U+FFFD, so the file stays well-formed whatever a document holds.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// One document as a JUnit test case named after its source: failing, with every error
/// record one a line, when it is invalid; its other records as the case's output.
pub fn junit_case(shown: &str, report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let schema = report.schema.unwrap_or("unknown schema");
    let mut case = format!("    <testcase name=\"{}\" classname=\"{}\"", xml(shown), xml(schema));
    let line = |r: &ErrorRecord| {
        let at = place(r).map_or_else(|| shown.to_owned(), |(l, c)| format!("{shown}:{l}:{c}"));
        format!("{} {}: {} (at {at}#{})", severity(r), r.error_code, r.message, r.path.as_deref().unwrap_or(""))
    };
    let errors: Vec<&ErrorRecord> = report.errors().collect();
    let others: Vec<&ErrorRecord> =
        report.records.iter().filter(|r| r.severity != ErrorRecordSeverity::Error).collect();
    if errors.is_empty() && others.is_empty() {
        case.push_str("/>\n");
        return out.write_all(case.as_bytes());
    }
    case.push_str(">\n");
    if let Some(first) = errors.first() {
        let text: Vec<String> = errors.iter().map(|r| line(r)).collect();
        let _ = writeln!(
            case,
            "      <failure message=\"{}\" type=\"{}\">{}</failure>",
            xml(&format!("{} error(s); the first: {}", errors.len(), first.message)),
            xml(&first.error_code),
            xml(&text.join("\n"))
        );
    }
    if !others.is_empty() {
        let text: Vec<String> = others.iter().map(|r| line(r)).collect();
        let _ = writeln!(case, "      <system-out>{}</system-out>", xml(&text.join("\n")));
    }
    case.push_str("    </testcase>\n");
    out.write_all(case.as_bytes())
}

/// The JUnit report of a run: one `testsuites` with one `testsuite` of `tests` cases, `failures`
/// of them failing, around the cases [`junit_case`] wrote.
pub fn junit_report(tests: usize, failures: usize, cases: &[u8], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(out, "<testsuites name=\"jerry-contracts validate\" tests=\"{tests}\" failures=\"{failures}\">")?;
    writeln!(
        out,
        "  <testsuite name=\"jerry-contracts validate\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">"
    )?;
    out.write_all(cases)?;
    writeln!(out, "  </testsuite>")?;
    writeln!(out, "</testsuites>")
}

/// A record's severity as a word: `error`, `warning` or `info`.
pub(crate) fn severity(record: &ErrorRecord) -> &'static str {
    match record.severity {
        ErrorRecordSeverity::Error => "error",
        ErrorRecordSeverity::Warning => "warning",
        ErrorRecordSeverity::Info => "info",
    }
}
