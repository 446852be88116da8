//! The fuzz targets of jerry-contracts and the checks they make on every input (docs/fuzzing.md).
//!
//! A target must not panic, overflow its stack or hang on any input; besides, it checks that the
//! report it gets makes sense, so that a wrong answer is a finding too:
//!
//! - the report is exactly one SCH-012 record when, and only when, the bytes are not JSON;
//! - every record's code is in the catalogue, and its path is a JSON Pointer (`""` or `/…`);
//! - on a document of a named schema, the generated type and the schema interpreter agree on
//!   whether it is valid (the one intended difference is let through: an integer beyond 64 bits
//!   where the schema sets no bound, which the type's i64 refuses, docs/decisions.md D-110);
//! - what the typed readers read (the envelope, an agent output) is written back as it was read:
//!   the same JSON, up to the spelling of numbers (`100.0` comes back as `100`, D-110).
//!
//! The same functions run under libFuzzer (`cargo fuzz`) and under the stable harness
//! ([`harness`]), so a finding of either replays in both.
#![forbid(unsafe_code)]

pub mod harness;
pub mod mutate;

use std::sync::OnceLock;

use jerry_contracts::envelope::SessionContext;
use jerry_contracts::registry;
use jerry_contracts::validation::{self, Options, Report, Validator, codes};
use serde_json::Value;

/// The registry's schema names in byte order: the first byte of a `validate` input picks one
/// (`names[byte % names.len()]`). `scripts/fuzz.sh` makes seeds for every fixture with the same
/// order (`LC_ALL=C sort`).
pub fn schema_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<&'static str> = registry::schemas().iter().map(|s| s.name).collect();
        names.sort_unstable();
        names
    })
}

/// Target `validate`: `data` through `validate` (schema detected) and the typed envelope reader;
/// then `data[1..]` through `validate_as` with the schema `data[0]` picks, and through both
/// halves of the schema layer (the generated type and the interpreter), which must agree.
pub fn validate(data: &[u8]) {
    let parsed = serde_json::from_slice::<Value>(data).ok();
    check_report(&validation::validate(data), parsed.as_ref());
    if let (Ok(envelope), Some(value)) = (SessionContext::from_slice(data), &parsed) {
        round_trip("the envelope", &envelope, value);
    }
    if let Some((&selector, document)) = data.split_first() {
        let names = schema_names();
        let name = names[usize::from(selector) % names.len()];
        let parsed = serde_json::from_slice::<Value>(document).ok();
        check_report(&validation::validate_as(name, document), parsed.as_ref());
        if let Some(value) = &parsed {
            agree(name, value);
            let agent = registry::lookup(name).and_then(|s| s.agent_id.as_deref());
            if let Some(agent) = agent
                && let Some(Ok(output)) = jerry_contracts::envelope::Payload::from_agent(Some(agent), value)
            {
                round_trip(agent, &output, value);
            }
        }
    }
}

/// Target `ndjson`: `data` read the way `jerry-contracts validate --ndjson` reads a stream
/// (crates/cli/src/validate.rs, `judge_lines`): split after every `\n`, trailing `\r`/`\n`
/// dropped, blank lines skipped, every other line judged; a valid nse-requirements output makes
/// its requirement ids known to the lines after it.
pub fn ndjson(data: &[u8]) {
    let mut validator = Validator::new();
    for mut line in data.split_inclusive(|&b| b == b'\n') {
        while let [rest @ .., b'\n' | b'\r'] = line {
            line = rest;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = serde_json::from_slice::<Value>(line).ok();
        let report = validator.validate(line);
        check_report(&report, parsed.as_ref());
        learn_requirements(&mut validator, &report, parsed.as_ref());
    }
}

/// As the command line does it (crates/cli/src/validate.rs, `learn_requirements`).
fn learn_requirements(validator: &mut Validator, report: &Report, value: Option<&Value>) {
    if report.schema != Some("agents/nse/requirements_output") || !report.is_valid() {
        return;
    }
    let Some(value) = value else { return };
    let ids = value.get("requirements").and_then(Value::as_array).into_iter().flatten();
    let mut options: Options = validator.options().clone();
    options.known_requirements.extend(ids.filter_map(|r| r.get("id")?.as_str().map(str::to_owned)));
    *validator = Validator::with_options(options);
}

/// The checks every report must pass; `parsed` is the document, when the bytes are JSON.
fn check_report(report: &Report, parsed: Option<&Value>) {
    let malformed = report.codes() == ["SCH-012"];
    assert_eq!(malformed, parsed.is_none(), "SCH-012 must be reported exactly when the bytes are not JSON: {report:?}");
    for record in &report.records {
        assert!(codes::lookup(&record.error_code).is_some(), "unknown code {}", record.error_code);
        let path = record.path.as_deref().unwrap_or_default();
        assert!(
            path.is_empty() || path.starts_with('/'),
            "{} has path {path:?}, not a JSON Pointer",
            record.error_code
        );
    }
}

/// The generated type of `name` and the schema interpreter must agree on `value`.
fn agree(name: &str, value: &Value) {
    let Some(info) = registry::lookup(name) else { return };
    let Some(entry) = jerry_contracts::typed::find(info.path, "") else { return };
    let interpreted = Validator::interpret(name, value);
    let typed = entry.check(value);
    match (&typed, interpreted.is_empty()) {
        (Ok(()), true) | (Err(_), false) => {}
        // docs/decisions.md D-110: an i64 field refuses integers past 64 bits the schema allows.
        (Err(violations), true) if violations.iter().all(|v| v.message.contains("64-bit")) => {}
        (Ok(()), false) => panic!("{name}: the type accepts what the schema rejects: {interpreted:?}"),
        (Err(violations), true) => panic!("{name}: the type rejects what the schema accepts: {violations:?}"),
    }
}

/// What was read from `value` must be written back as `value`.
fn round_trip<T: serde::Serialize>(what: &str, typed: &T, value: &Value) {
    let written = serde_json::to_value(typed).unwrap_or(Value::Null);
    assert!(
        jerry_contracts::validation::json_equal(&written, value),
        "{what} is not written back as read:\nread    {value}\nwritten {written}"
    );
}
