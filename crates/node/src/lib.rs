//! The native addon of the npm package `jerry-contracts`: the library's validator, migration,
//! schema diff, examples and registry for Node, through napi-rs (D-214). Reports cross as JSON
//! text (`{"schema", "valid", "records"}`, the records as the CLI writes them), which `index.js`
//! parses, so JavaScript sees exactly the CLI's records; a valid document's report without a
//! record crosses as its schema's name alone. Each call takes the document as text or
//! bytes; a JavaScript object is written as JSON text by `index.js` first, refusing what JSON
//! cannot hold. The `…Async` forms run on libuv's thread pool, off the event loop.
//!
//! An error a caller can act on crosses as an `Error` whose message starts with its kind and a
//! colon (`UnknownSchema: …`, `MigrationError: …`); `index.js` makes it that class.

use jerry_contracts::validation::{Options, Report, Validator};
use jerry_contracts::{examples, registry, versions};
use std::borrow::Cow;
use std::fmt::Write as _;

use napi::JsString;
use napi::bindgen_prelude::{AsyncTask, Buffer, Either, Env, Task};
use napi_derive::napi;

/// The validator's options, as `index.js` passes them (every one optional).
#[napi(object)]
#[derive(Default)]
pub struct ValidateOptions {
    /// The schema the document follows (registry name, `NAME#/definitions/DEF`, `$id`, agent id
    /// or mission schema name); detected when absent.
    pub schema: Option<String>,
    /// Conventions are errors, not warnings.
    pub strict: Option<bool>,
    /// Repository root: artifacts must exist below it and match their checksums.
    pub root: Option<String>,
    /// The consumer's session id: a handoff from another session gets a warning.
    pub session: Option<String>,
    /// The largest document read, in bytes.
    pub max_bytes: Option<f64>,
    /// The most records a report lists.
    pub max_records: Option<f64>,
}

/// A count given from JavaScript (a number): a whole number from 0 to 2^53, or the place's error.
fn count(value: f64, name: &str) -> napi::Result<usize> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= 9_007_199_254_740_992.0 {
        // Exact: a whole number below 2^53 converts without loss (and saturates past usize).
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(value as usize)
    } else {
        Err(napi::Error::new(
            napi::Status::InvalidArg,
            format!("options.{name} must be a whole number of 0 or more, not {value}"),
        ))
    }
}

/// The validator these options ask for, and the schema to validate against.
fn validator(options: Option<ValidateOptions>) -> napi::Result<(Validator, Option<String>)> {
    let given = options.unwrap_or_default();
    let mut options = Options::default();
    if let Some(strict) = given.strict {
        options = options.with_strict(strict);
    }
    if let Some(root) = given.root {
        options = options.with_root(root);
    }
    if let Some(session) = given.session {
        options = options.with_expected_session(session);
    }
    if let Some(max) = given.max_bytes {
        options = options.with_max_bytes(count(max, "maxBytes")?);
    }
    if let Some(max) = given.max_records {
        options = options.with_max_records(count(max, "maxRecords")?);
    }
    Ok((Validator::with_options(options), given.schema))
}

/// The report as JSON text: its schema, its verdict and its records. The records go through a
/// `Value`, as the CLI writes them (`validate --format json`), so their members come in the same
/// (sorted) order; a report without records builds no `Value` at all.
fn report_json(report: &Report) -> napi::Result<String> {
    let written =
        |e: serde_json::Error| napi::Error::from_reason(format!("the report could not be written as JSON: {e}"));
    let schema = serde_json::to_string(&report.schema).map_err(written)?;
    let records = if report.records.is_empty() {
        "[]".to_owned()
    } else {
        serde_json::to_value(&report.records).and_then(|value| serde_json::to_string(&value)).map_err(written)?
    };
    Ok(format!("{{\"schema\":{schema},\"valid\":{},\"records\":{records}}}", report.is_valid()))
}

/// A document as JavaScript gives it: text ([`text_bytes`]) or bytes.
///
/// Text is not taken as napi's `String`: that conversion is V8's `Utf8Length` then `WriteUtf8`,
/// a character at a time, which took two thirds of `validate` on the 66 KB benchmark document
/// (non-ASCII text, held by V8 as two-byte). ASCII text is copied out as Latin-1 (V8 copies a
/// one-byte string as it holds it); other text as its UTF-16 code units, transcoded with
/// encoding_rs, several times faster than napi's `String`, and a lone surrogate is refused by
/// its place instead of being replaced with U+FFFD.
type Document<'env> = Either<JsString<'env>, Buffer>;

/// The document's bytes: a Buffer's as given, text as UTF-8.
fn bytes_of<'a>(document: &'a Document<'_>) -> napi::Result<Cow<'a, [u8]>> {
    match document {
        Either::A(text) => text_bytes(*text).map(Cow::Owned),
        Either::B(bytes) => Ok(Cow::Borrowed(bytes)),
    }
}

/// JavaScript text as UTF-8. Text of ASCII characters alone (its UTF-8 is as long as it is) is
/// copied out as Latin-1, which for ASCII is its UTF-8 and which V8 copies as it holds it; other
/// text crosses as UTF-16 code units ([`utf8_of`]).
fn text_bytes(text: JsString<'_>) -> napi::Result<Vec<u8>> {
    let latin1: Vec<u8> = text.into_latin1()?.into();
    // Latin-1 of text with a character past U+00FF keeps only each unit's low byte, so ASCII
    // bytes are the text itself only when the text's UTF-8 is as long as they are.
    if latin1.is_ascii() && text.utf8_len()? == latin1.len() {
        return Ok(latin1);
    }
    let units = text.into_utf16()?;
    // napi's code units end with the C terminator it wrote.
    let units = units.as_slice().split_last().map_or(&[][..], |(_, text)| text);
    utf8_of(units)
}

/// JavaScript text (UTF-16 code units) as UTF-8, refusing a lone surrogate (`index.js` refuses
/// it before the call; a direct caller of the addon gets this error).
///
/// The output starts at a byte a code unit, which ASCII text fills in one pass; other text takes
/// a second pass over what did not fit, with room for the worst case (three bytes a unit).
/// encoding_rs writes a lone surrogate as U+FFFD, so only text whose UTF-8 may hold U+FFFD is
/// checked for one.
fn utf8_of(units: &[u16]) -> napi::Result<Vec<u8>> {
    let mut utf8 = vec![0; units.len()];
    let (mut read, mut written) = encoding_rs::mem::convert_utf16_to_utf8_partial(units, &mut utf8);
    while let Some(rest) = units.get(read..).filter(|rest| !rest.is_empty()) {
        utf8.resize(written + rest.len().saturating_mul(3), 0);
        let (more_read, more_written) =
            encoding_rs::mem::convert_utf16_to_utf8_partial(rest, utf8.get_mut(written..).unwrap_or_default());
        read += more_read;
        written += more_written;
    }
    utf8.truncate(written);
    // U+FFFD is EF BF BD in UTF-8: text without the byte EF holds none (one SIMD scan).
    if memchr::memchr(0xEF, &utf8).is_some() {
        let valid = encoding_rs::mem::utf16_valid_up_to(units);
        if valid < units.len() {
            return Err(napi::Error::new(
                napi::Status::InvalidArg,
                format!("the text holds a lone surrogate at index {valid}: JSON text is Unicode"),
            ));
        }
    }
    Ok(utf8)
}

/// The report on `bytes`: against the schema named, else the one detected.
fn judge(validator: &Validator, schema: Option<&str>, bytes: &[u8]) -> Report {
    match schema {
        Some(name) => validator.validate_as(name, bytes),
        None => validator.validate(bytes),
    }
}

/// A report as it crosses to `index.js`: the JSON text of [`report_json`], or, for a valid
/// document without a record (the usual case, on the hot path), only the name of its schema,
/// which never starts with `{` as the JSON text does.
fn run(validator: &Validator, schema: Option<&str>, bytes: &[u8]) -> napi::Result<String> {
    let mut report = judge(validator, schema, bytes);
    report.add_positions(bytes, 1);
    match report.schema {
        Some(name) if report.records.is_empty() && report.is_valid() && !name.starts_with('{') => Ok(name.to_owned()),
        _ => report_json(&report),
    }
}

/// Validates a document given as text or bytes through every layer; the report as JSON text.
#[napi]
pub fn validate_json(document: Document, options: Option<ValidateOptions>) -> napi::Result<String> {
    let (validator, schema) = validator(options)?;
    run(&validator, schema.as_deref(), &bytes_of(&document)?)
}

/// The non-blank lines of an NDJSON text, each with its 1-based line number, without the line
/// end (`\n` or `\r\n`) and the whitespace around the document.
fn ndjson_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    // Line ends found by memchr: `slice::split` tests a byte at a time, which took a fifth of a
    // 5,000-line validation.
    let ends = memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len()));
    ends.scan(0, |start, end| {
        let line = bytes.get(*start..end).unwrap_or_default();
        *start = end + 1;
        Some(line)
    })
    .enumerate()
    .map(|(index, line)| (index + 1, line.trim_ascii()))
    .filter(|(_, line)| !line.is_empty())
}

/// NDJSON text of at least this many bytes is judged on every core: below it, starting threads
/// costs more than they save.
const PARALLEL_BYTES: usize = 256 << 10;

/// The reports of every non-blank line of an NDJSON text, as one JSON array:
/// `[{"line", "schema", "valid", "records"}]`. A long text's lines are judged on every core,
/// in contiguous runs, and the runs' reports joined in order (as the CLI judges a stream's
/// windows).
fn run_lines(validator: &Validator, schema: Option<&str>, bytes: &[u8]) -> napi::Result<String> {
    let lines: Vec<(usize, &[u8])> = ndjson_lines(bytes).collect();
    let cores =
        if bytes.len() >= PARALLEL_BYTES { std::thread::available_parallelism().map_or(1, usize::from) } else { 1 };
    let per_run = lines.len().div_ceil(cores.clamp(1, lines.len().max(1))).max(1);
    let mut runs = lines.chunks(per_run);
    let first = runs.next().unwrap_or_default();
    let parts: Vec<Result<String, String>> = std::thread::scope(|scope| {
        let others: Vec<_> = runs.map(|run| scope.spawn(move || entries(validator, schema, run))).collect();
        let mut parts = vec![entries(validator, schema, first)];
        parts.extend(
            others.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a validation thread stopped".to_owned()))),
        );
        parts
    });
    let mut out = String::from("[");
    for part in parts {
        let part = part.map_err(napi::Error::from_reason)?;
        if !part.is_empty() {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&part);
        }
    }
    out.push(']');
    Ok(out)
}

/// The reports of a run of lines, each `{"line":N,…}`, separated by commas.
fn entries(validator: &Validator, schema: Option<&str>, lines: &[(usize, &[u8])]) -> Result<String, String> {
    let mut out = String::new();
    for &(line, text) in lines {
        let mut report = judge(validator, schema, text);
        // A line's records point into the stream, as the CLI's do.
        report.add_positions(text, line);
        let written = report_json(&report).map_err(|e| e.reason.clone())?;
        if !out.is_empty() {
            out.push(',');
        }
        // `{"line":N,` and the report's members after its opening brace.
        let _ = write!(out, "{{\"line\":{line},{}", written.strip_prefix('{').unwrap_or(&written));
    }
    Ok(out)
}

/// Validates every non-blank line of an NDJSON text (one document a line); the reports as JSON
/// text, each with its line number.
#[napi]
pub fn validate_lines_json(document: Document, options: Option<ValidateOptions>) -> napi::Result<String> {
    let (validator, schema) = validator(options)?;
    run_lines(&validator, schema.as_deref(), &bytes_of(&document)?)
}

/// A validation on libuv's thread pool: the document's bytes (copied, so JavaScript may change
/// its buffer meanwhile) and the validator.
pub struct Validation {
    bytes: Vec<u8>,
    validator: Validator,
    schema: Option<String>,
    /// One document a line (NDJSON), not one document.
    lines: bool,
}

#[napi]
impl Task for Validation {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        if self.lines {
            run_lines(&self.validator, self.schema.as_deref(), &self.bytes)
        } else {
            run(&self.validator, self.schema.as_deref(), &self.bytes)
        }
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
        Ok(output)
    }
}

/// The task of a validation off the event loop: the document's bytes are copied, so JavaScript
/// may change its buffer meanwhile.
fn validation(
    document: Document,
    options: Option<ValidateOptions>,
    lines: bool,
) -> napi::Result<AsyncTask<Validation>> {
    let (validator, schema) = validator(options)?;
    let bytes = bytes_of(&document)?.into_owned();
    Ok(AsyncTask::new(Validation { bytes, validator, schema, lines }))
}

/// [`validate_json`] off the event loop: a promise of the report as JSON text.
#[napi]
pub fn validate_json_async(
    document: Document,
    options: Option<ValidateOptions>,
) -> napi::Result<AsyncTask<Validation>> {
    validation(document, options, false)
}

/// [`validate_lines_json`] off the event loop: a promise of the reports as JSON text.
#[napi]
pub fn validate_lines_json_async(
    document: Document,
    options: Option<ValidateOptions>,
) -> napi::Result<AsyncTask<Validation>> {
    validation(document, options, true)
}

/// An error of kind `kind` (`index.js` makes it that class).
fn kind_error(kind: &str, message: impl std::fmt::Display) -> napi::Error {
    napi::Error::from_reason(format!("{kind}: {message}"))
}

/// The envelope migrated to version `to`: the input text with only `schema_version` changed, so
/// every number, member and space stays as written.
#[napi]
pub fn migrate_text(document: Document, to: String) -> napi::Result<String> {
    versions::migrate_text(&bytes_of(&document)?, &to).map_err(|e| kind_error("MigrationError", e))
}

/// A schema given to `diff`: a registry name, else its JSON text.
fn schema_value(schema: &str) -> napi::Result<serde_json::Value> {
    if let Some(info) = registry::lookup(schema) {
        return Ok(info.document.clone());
    }
    serde_json::from_str(schema)
        .map_err(|e| kind_error("DiffError", format!("not a registry name nor a JSON schema: {e}")))
}

/// The changes from schema `old` to `new` (registry names or JSON text), each `MAJOR`, `MINOR`
/// or `PATCH`, and the least bump they need, as JSON text: `{"changes", "required", "declared",
/// "ok"}`, as `jerry-contracts diff --format json` writes them.
#[napi]
pub fn diff_json(old: String, new: String) -> napi::Result<String> {
    let (old, new) = (schema_value(&old)?, schema_value(&new)?);
    let verdict = jerry_contracts_schema_tools::diff::verdict(&old, &new);
    serde_json::to_string(&verdict.to_json()).map_err(|e| napi::Error::from_reason(e.to_string()))
}

/// A valid document of the schema named `name`, as JSON text.
#[napi]
pub fn example_json(name: String) -> napi::Result<String> {
    match examples::example(&name) {
        Ok(document) => serde_json::to_string(&document).map_err(|e| napi::Error::from_reason(e.to_string())),
        Err(err @ examples::ExampleError::UnknownSchema(_)) => Err(kind_error("UnknownSchema", err)),
        Err(err) => Err(kind_error("JerryContractsError", err)),
    }
}

/// The schema named `name`, as its embedded JSON text.
#[napi]
pub fn schema_json(name: String) -> napi::Result<String> {
    let Some(info) = registry::lookup(&name) else {
        return Err(kind_error("UnknownSchema", format!("no schema is named {name:?}")));
    };
    match jerry_contracts::EMBEDDED_SCHEMAS.iter().find(|e| e.path == info.path) {
        Some(embedded) => Ok(embedded.text.to_owned()),
        None => serde_json::to_string(&info.document).map_err(|e| napi::Error::from_reason(e.to_string())),
    }
}

/// Every schema of the registry, as JSON text: `[{"name", "path", "id", "title", "version",
/// "agent_id", "schema_name"}]`, as the Python package's `schemas()` lists them.
#[napi]
pub fn schemas_json() -> napi::Result<String> {
    let listed: Vec<serde_json::Value> = registry::schemas()
        .iter()
        .map(|info| {
            serde_json::json!({
                "name": info.name,
                "path": info.path,
                "id": info.id,
                "title": info.title,
                "version": info.version,
                "agent_id": info.agent_id,
                "schema_name": info.schema_name,
            })
        })
        .collect();
    serde_json::to_string(&listed).map_err(|e| napi::Error::from_reason(e.to_string()))
}
