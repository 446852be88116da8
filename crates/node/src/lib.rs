//! The native addon of the npm package `jerry-contracts`: the library's validator for Node,
//! through napi-rs. Reports cross as JSON text (`{"schema", "valid", "records"}`, the records as
//! the CLI writes them), which `index.js` parses, so JavaScript sees exactly the CLI's records.
//! Each call takes the document as text or bytes; a JavaScript object is written as JSON text by
//! `index.js` first, refusing what JSON cannot hold. `validateAsync` runs on libuv's thread pool,
//! off the event loop.

use jerry_contracts::validation::{Options, Report, Validator};
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

/// The report as JSON text: its schema, its verdict and its records.
fn report_json(report: &Report) -> napi::Result<String> {
    serde_json::to_string(&serde_json::json!({
        "schema": report.schema,
        "valid": report.is_valid(),
        "records": report.records,
    }))
    .map_err(|e| napi::Error::from_reason(format!("the report could not be written as JSON: {e}")))
}

fn run(validator: &Validator, schema: Option<&str>, bytes: &[u8]) -> napi::Result<String> {
    let report = match schema {
        Some(name) => validator.validate_as(name, bytes),
        None => validator.validate(bytes),
    };
    report_json(&report)
}

/// Validates a document given as text or bytes through every layer; the report as JSON text.
#[napi]
pub fn validate_json(document: Either<String, Buffer>, options: Option<ValidateOptions>) -> napi::Result<String> {
    let (validator, schema) = validator(options)?;
    match &document {
        Either::A(text) => run(&validator, schema.as_deref(), text.as_bytes()),
        Either::B(bytes) => run(&validator, schema.as_deref(), bytes),
    }
}

/// A validation on libuv's thread pool: the document's bytes (copied, so JavaScript may change
/// its buffer meanwhile) and the validator.
pub struct Validation {
    bytes: Vec<u8>,
    validator: Validator,
    schema: Option<String>,
}

#[napi]
impl Task for Validation {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        run(&self.validator, self.schema.as_deref(), &self.bytes)
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
        Ok(output)
    }
}

/// [`validate_json`] off the event loop: a promise of the report as JSON text.
#[napi]
pub fn validate_json_async(
    document: Either<String, Buffer>,
    options: Option<ValidateOptions>,
) -> napi::Result<AsyncTask<Validation>> {
    let (validator, schema) = validator(options)?;
    let bytes = match document {
        Either::A(text) => text.into_bytes(),
        Either::B(bytes) => bytes.to_vec(),
    };
    Ok(AsyncTask::new(Validation { bytes, validator, schema }))
}

/// Every schema of the registry, as JSON text: `[{"name", "path", "id", "title", "version",
/// "agent_id", "schema_name"}]`, as the Python package's `schemas()` lists them.
#[napi]
pub fn schemas_json() -> napi::Result<String> {
    let listed: Vec<serde_json::Value> = jerry_contracts::registry::schemas()
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
