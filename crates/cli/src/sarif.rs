//! `validate --format sarif` (issue 31, item 2): one SARIF 2.1.0 log of one run, for code
//! scanning (GitHub's upload-sarif, Azure DevOps, IDE viewers). The rules are the error
//! catalogue, each with its title, help text and the rule it rests on; each record is a result
//! at its file, line and column (columns counted in Unicode code points, as the run says) and at
//! its JSON Pointer as a logical location. The results are written as the documents are judged,
//! so memory stays flat over any number of documents.

use std::io::{self, Write};
use std::path::Path;

use jerry_contracts::common::{ErrorRecord, ErrorRecordSeverity};
use jerry_contracts::validation::codes::{self, Basis, Code, Layer};
use jerry_contracts::validation::{Report, placed};
use jerry_contracts_schema_tools::uri::{encode_path, file_uri};
use serde_json::{Map, Value, json};

/// The SARIF version written.
pub const VERSION: &str = "2.1.0";

/// The official SARIF 2.1.0 schema (OASIS, errata 01), which the log names as its `$schema`.
pub const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The base that relative artifact locations are resolved against: the directory the command
/// ran in, given in the run's `originalUriBaseIds`.
pub const SOURCE_ROOT: &str = "%SRCROOT%";

/// A run's SARIF log, written as it goes: [`Log::begin`], a [`Log::document`] for every
/// document judged, then [`Log::end`].
#[derive(Debug, Default)]
pub struct Log {
    /// Results written so far (a comma goes before every one but the first).
    results: usize,
}

impl Log {
    /// The log up to its first result: the tool with the error catalogue as its rules (at their
    /// level in this run: conventions are errors in strict mode), the column kind, and the
    /// directory relative locations are resolved against.
    pub fn begin(strict: bool, out: &mut dyn Write) -> io::Result<()> {
        let rules: Vec<Value> =
            codes::CATALOGUE.iter().zip(codes::CONSTANT_NAMES).map(|(c, n)| rule(c, n, strict)).collect();
        let mut run = Map::new();
        run.insert(
            "tool".into(),
            json!({
                "driver": {
                    "name": "jerry-contracts",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": env!("CARGO_PKG_REPOSITORY"),
                    "rules": rules,
                }
            }),
        );
        run.insert("columnKind".into(), json!("unicodeCodePoints"));
        if let Some(base) = std::env::current_dir().ok().map(|dir| directory_uri(&dir)) {
            run.insert("originalUriBaseIds".into(), json!({ SOURCE_ROOT: { "uri": base } }));
        }
        let head = serde_json::to_string(&Value::Object(run)).map_err(io::Error::other)?;
        // The run's object is left open: its results follow, then the invocation.
        let head = head.strip_suffix('}').unwrap_or(&head);
        write!(out, "{{\"$schema\":\"{SCHEMA}\",\"version\":\"{VERSION}\",\"runs\":[{head},\"results\":[")
    }

    /// One document's records as results. `path` is the input's path as given (none for
    /// standard input); `line` is the document's line in an NDJSON input, where a record that
    /// could not be placed in the text is shown.
    pub fn document(
        &mut self,
        path: Option<&Path>,
        line: Option<usize>,
        report: &Report,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        for record in &report.records {
            let result = result(path, line, record);
            if self.results > 0 {
                out.write_all(b",")?;
            }
            self.results += 1;
            serde_json::to_writer(&mut *out, &result).map_err(io::Error::other)?;
        }
        Ok(())
    }

    /// The rest of the log: the invocation, successful when every input could be read, with
    /// the run's counts.
    pub fn end(&self, documents: usize, invalid: usize, unread: usize, out: &mut dyn Write) -> io::Result<()> {
        let mut invocation = json!({
            "executionSuccessful": unread == 0,
            "properties": { "documents": documents, "invalid": invalid, "unreadInputs": unread },
        });
        if unread > 0 {
            invocation["toolExecutionNotifications"] = json!([{
                "level": "error",
                "message": { "text": format!("{unread} input(s) could not be read; standard error names them") },
            }]);
        }
        write!(out, "],\"invocations\":[")?;
        serde_json::to_writer(&mut *out, &invocation).map_err(io::Error::other)?;
        writeln!(out, "]}}]}}")
    }
}

/// A catalogue entry as a reporting descriptor.
fn rule(code: &Code, constant: &str, strict: bool) -> Value {
    let severity = if strict && code.is_convention() { ErrorRecordSeverity::Error } else { code.severity };
    let basis = match code.basis {
        Basis::Seed { place, quote } => format!("The seeds state it ({place}): {quote}"),
        Basis::Unjudged => "The document cannot be judged as it is.".to_owned(),
        Basis::Convention { decision } => {
            format!("A convention of this project ({decision}): a warning, an error in strict mode.")
        }
        _ => String::new(),
    };
    let layer = match code.layer {
        Layer::Schema => "schema",
        Layer::Semantic => "semantic",
        Layer::Constitutional => "constitutional",
        Layer::CrossReference => "cross-reference",
        Layer::Convention => "convention",
        _ => "other",
    };
    let mut properties = json!({ "layer": layer, "tags": [layer] });
    if let Some(principle) = code.principle {
        properties["principle"] = json!(principle);
    }
    json!({
        "id": code.code,
        "name": pascal_case(constant),
        "shortDescription": { "text": code.title },
        "fullDescription": { "text": format!("{}. {basis}", code.title).trim_end() },
        "help": { "text": code.remediation },
        "defaultConfiguration": { "level": level(severity) },
        "properties": properties,
    })
}

/// `SCH_MISSING_REQUIRED` as `SchMissingRequired`.
fn pascal_case(constant: &str) -> String {
    constant
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
            })
        })
        .collect()
}

/// A severity as a SARIF level.
fn level(severity: ErrorRecordSeverity) -> &'static str {
    match severity {
        ErrorRecordSeverity::Error => "error",
        ErrorRecordSeverity::Warning => "warning",
        ErrorRecordSeverity::Info => "note",
    }
}

/// One record as a result: its code as the rule, its severity as the level, its message, its
/// place in the file and its pointer; the record's other members (found, expected, principle,
/// remediation, and any the validator added) are the result's properties.
fn result(path: Option<&Path>, document_line: Option<usize>, record: &ErrorRecord) -> Value {
    let pointer = record.path.as_deref().unwrap_or("");
    let mut physical = Map::new();
    physical.insert(
        "artifactLocation".into(),
        match path {
            Some(path) => artifact_location(path),
            None => json!({ "description": { "text": "standard input" } }),
        },
    );
    if let Some((line, column)) = placed(record) {
        physical.insert("region".into(), json!({ "startLine": line, "startColumn": column }));
    } else if let Some(line) = document_line {
        physical.insert("region".into(), json!({ "startLine": line }));
    }
    let mut result = json!({
        "ruleId": record.error_code,
        "level": level(record.severity),
        "message": { "text": record.message },
        "locations": [{
            "physicalLocation": physical,
            "logicalLocations": [{ "fullyQualifiedName": pointer, "kind": "value" }],
        }],
    });
    if let Some(index) = codes::CATALOGUE.iter().position(|c| c.code == record.error_code) {
        result["ruleIndex"] = json!(index);
    }
    let mut properties = match serde_json::to_value(record) {
        Ok(Value::Object(members)) => members,
        _ => Map::new(),
    };
    for shown in ["error_code", "severity", "message", "path", "line", "column"] {
        properties.remove(shown);
    }
    if !properties.is_empty() {
        result["properties"] = Value::Object(properties);
    }
    result
}

/// Where a file is: a relative path as a relative URI against [`SOURCE_ROOT`], an absolute one
/// as a `file:` URI.
fn artifact_location(path: &Path) -> Value {
    if path.is_absolute() {
        json!({ "uri": file_uri(path) })
    } else {
        let relative: std::path::PathBuf =
            path.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect();
        json!({ "uri": encode_path(&relative), "uriBaseId": SOURCE_ROOT })
    }
}

/// A directory as a `file:` URI ending in `/`, as a base must.
fn directory_uri(dir: &Path) -> String {
    let uri = file_uri(dir);
    if uri.ends_with('/') { uri } else { uri + "/" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uris_that_keep_every_byte() {
        assert_eq!(encode_path(Path::new("a b/c:d#%.json")), "a%20b/c%3Ad%23%25.json");
        assert_eq!(encode_path(Path::new("é.json")), "%C3%A9.json");
        assert_eq!(artifact_location(Path::new("./x/./y.json"))["uri"], "x/y.json");
        assert_eq!(artifact_location(Path::new("/t/y.json"))["uri"], "file:///t/y.json");
        assert_eq!(directory_uri(Path::new("/")), "file:///");
        assert_eq!(directory_uri(Path::new("/w")), "file:///w/");
        assert_eq!(pascal_case("SCH_MISSING_REQUIRED"), "SchMissingRequired");
    }
}
