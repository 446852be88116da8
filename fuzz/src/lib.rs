//! The fuzz targets of jerry-contracts and the checks they make on every input (docs/fuzzing.md).
//!
//! A target must not panic, overflow its stack or hang on any input; besides, it checks that the
//! report it gets makes sense, so that a wrong answer is a finding too:
//!
//! - the report is exactly one SCH-012 (or SCH-014, a repeated member) record when, and only
//!   when, the bytes are not JSON (or name a member twice);
//! - every record's code is in the catalogue, and its path is a JSON Pointer (`""` or `/…`);
//! - on a document of a named schema, the generated type and the schema interpreter agree on
//!   whether it is valid (the one intended difference is let through: an integer beyond 64 bits
//!   where the schema sets no bound, which the type's i64 refuses, docs/design.md D-110);
//! - what the typed readers read (the envelope, an agent output) is written back as it was read:
//!   the same JSON, up to the spelling of numbers (`100.0` comes back as `100`, D-110).
//!
//! - the command's own NDJSON reader gives the library's verdicts, line for line, and its
//!   directory walk takes every document once, cycles or not (targets `ndjson`, `walk`).
//! - `--root`'s artifact checks (a path resolved a component at a time) say what an oracle that
//!   resolves each path whole says, and never block on a FIFO or device (target `root`,
//!   [`root()`]).
//! - `docs::write` (`jerry-contracts docs --out`) changes nothing outside its output directory
//!   but the pages its manifest lists, never writes through a link, and changes nothing at all
//!   when it refuses (target `docs_out`, [`docs_out()`]).
//!
//! The same functions run under libFuzzer (`cargo fuzz`) and under the stable harness
//! ([`harness`]), so a finding of either replays in both.
#![forbid(unsafe_code)]

mod docs_out;
pub mod harness;
pub mod mutate;
mod root;

pub use docs_out::docs_out;
pub use root::root;

/// The nse-risk output the `root` target hands its artifact references in.
const RISK_OUTPUT: &str = include_str!("../../tests/fixtures/agents/nse/risk_output/valid/maximal.json");

use std::sync::OnceLock;

use jerry_contracts::envelope::AnySessionContext;
use jerry_contracts::registry;
use jerry_contracts::validation::{self, Report, Validator, codes};
use jerry_contracts_cli::validate::{self as cli, Outcome};
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
    let parsed = strict(data);
    check_report(&validation::validate(data), parsed.as_ref());
    if let (Ok(envelope), Some(value)) = (AnySessionContext::from_slice(data), &parsed) {
        round_trip("the envelope", &envelope, value);
    }
    if let Some((&selector, document)) = data.split_first() {
        let names = schema_names();
        let name = names[usize::from(selector) % names.len()];
        let parsed = strict(document);
        check_report(&validation::validate_as(name, document), parsed.as_ref());
        if let Some(value) = &parsed {
            agree(name, value);
            let agent = registry::lookup(name).and_then(|s| s.agent_id.as_deref());
            if let Some(agent) = agent
                && let Some(Ok(output)) =
                    jerry_contracts::session_context::v1_1::Payload::from_agent(Some(agent), value)
            {
                round_trip(agent, &output, value);
            }
        }
    }
}

/// The limit the fuzz targets give the command's reader (`--max-bytes`): small, so that inputs
/// of a fuzzing run reach it.
const MAX_BYTES: usize = 4096;

/// Target `ndjson`: `data` as an NDJSON stream, judged twice. First line by line through the
/// library, split the way `jerry-contracts validate --ndjson` splits a stream (after every
/// `\n`, trailing `\r`/`\n` dropped, blank lines skipped), a valid nse-requirements output
/// making its requirement ids known to the lines after it. Then through the command's own reader
/// ([`jerry_contracts_cli::validate::run`], windows judged in parallel, ids learned as it goes,
/// a line over the limit stopping the stream): it must give one verdict per line, in order, up to
/// and including the first line over the limit, and each the library's.
pub fn ndjson(data: &[u8]) {
    let mut validator = Validator::new();
    let mut expected = Vec::new();
    for (index, raw) in data.split_inclusive(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let content = raw.strip_suffix(b"\n").unwrap_or(raw);
        if content.len() > MAX_BYTES {
            expected.push((number, false, vec!["SCH-015".to_owned()]));
            break;
        }
        let mut line = content;
        while let [rest @ .., b'\n' | b'\r'] = line {
            line = rest;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = strict(line);
        let report = validator.validate(line);
        check_report(&report, parsed.as_ref());
        let ids = Validator::requirements_taught(&report, line);
        validator.learn_requirements(ids);
        expected.push((number, report.is_valid(), report.codes().iter().map(|c| (*c).to_owned()).collect()));
    }
    let over = expected.last().is_some_and(|(_, _, codes)| codes == &["SCH-015"]);
    let (verdicts, outcome) = command(data, true);
    assert_eq!(verdicts, expected, "the command's reader and the library disagree");
    assert_eq!(outcome.io_errors, usize::from(over), "only a line over the limit stops the stream");
}

/// Runs the command's `validate` on `data` written to a scratch file (as NDJSON or as one
/// document), and its verdicts as (line number, valid, codes).
fn command(data: &[u8], ndjson: bool) -> (Vec<(usize, bool, Vec<String>)>, Outcome) {
    let scratch = Scratch::new();
    let file = scratch.path.join(if ndjson { "input.ndjson" } else { "input.json" });
    std::fs::write(&file, data).expect("the scratch file is written");
    let request = request(vec![file], false);
    let mut out = Vec::new();
    let mut outcome = Outcome::default();
    cli::run(&request, &mut out, &mut outcome).expect("writing to memory cannot fail");
    let verdicts = json_lines(&out)
        .into_iter()
        .map(|line| {
            let source = line["source"].as_str().unwrap_or_default();
            let number = source.rsplit(':').next().and_then(|n| n.parse().ok()).unwrap_or(0);
            let codes = line["errors"]
                .as_array()
                .map(|errors| errors.iter().filter_map(|e| e["error_code"].as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            (number, line["valid"] == Value::Bool(true), codes)
        })
        .collect();
    (verdicts, outcome)
}

/// A `validate --format json --allow-empty --max-bytes 4096` request for `paths`.
fn request(paths: Vec<std::path::PathBuf>, follow: bool) -> cli::Request {
    cli::Request {
        schema: None,
        format: cli::Format::Json,
        root: None,
        session: None,
        ndjson: false,
        max_bytes: MAX_BYTES,
        max_records: jerry_contracts::validation::Options::DEFAULT_MAX_RECORDS,
        max_artifact_bytes: jerry_contracts::validation::Options::DEFAULT_MAX_ARTIFACT_BYTES,
        follow,
        allow_empty: true,
        strict: false,
        paths,
    }
}

/// The JSON lines the command wrote.
fn json_lines(out: &[u8]) -> Vec<Value> {
    out.split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).expect("every output line is JSON"))
        .collect()
}

/// A directory of its own below the system's temporary directory, removed when dropped
/// (`remove_dir_all` removes links, never what they point to).
struct Scratch {
    path: std::path::PathBuf,
}

impl Scratch {
    fn new() -> Self {
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("jerry-fuzz-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("the scratch directory is made");
        Self { path }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Target `walk`: `data` is a program that builds a directory tree (directories, `*.json` and
/// other files, directories named `*.json`, empty files, links to `.`, to directories and files of
/// the tree, and dangling ones); the command's `validate` then walks it, without and with
/// `--follow`. Without, it must judge every regular `*.json` file and every link named `*.json` to
/// one exactly once, and count each dangling link named `*.json` as an I/O error; with, it must
/// end (link cycles are cut) and judge no path twice.
#[cfg(unix)]
pub fn walk(data: &[u8]) {
    use std::os::unix::fs::symlink;
    let scratch = Scratch::new();
    let root = scratch.path.join("tree");
    std::fs::create_dir(&root).expect("the tree's root is made");
    let mut dirs = vec![root.clone()];
    let mut files = Vec::new();
    const CONTENTS: [&[u8]; 4] = [b"{}", b"[1, 2", br#"{"agent_id": "ps-researcher"}"#, b""];
    for (n, op) in data.chunks(2).take(48).enumerate() {
        let (kind, arg) = (op[0], usize::from(op.get(1).copied().unwrap_or(0)));
        let dir = dirs[arg % dirs.len()].clone();
        let made = match kind % 8 {
            0 if dirs.len() < 12 => {
                std::fs::create_dir(dir.join(format!("d{n}"))).map(|()| dirs.push(dir.join(format!("d{n}"))))
            }
            1 | 2 => {
                let file = dir.join(format!("f{n}.json"));
                let written = std::fs::write(&file, CONTENTS[arg % CONTENTS.len()]);
                files.push(file);
                written
            }
            3 => std::fs::write(dir.join(format!("t{n}.txt")), b"{}"),
            4 => {
                std::fs::create_dir(dir.join(format!("x{n}.json"))).map(|()| dirs.push(dir.join(format!("x{n}.json"))))
            }
            5 => symlink(".", dir.join(format!("l{n}"))),
            6 => {
                let target = if arg % 3 == 0 || files.is_empty() {
                    root.join("nowhere.json")
                } else {
                    files[arg % files.len()].clone()
                };
                symlink(target, dir.join(format!("l{n}.json")))
            }
            _ => symlink(&dirs[(arg / 2) % dirs.len()], dir.join(format!("l{n}"))),
        };
        let _ = made; // a name made twice is simply not made again
    }
    // What a walk that does not follow links must take.
    let mut expected = Vec::new();
    let mut dangling = 0;
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("the tree is readable").flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            let named = path.extension().is_some_and(|e| e == "json");
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_symlink() {
                match std::fs::metadata(&path) {
                    Ok(target) if target.is_file() && named => expected.push(path),
                    Err(_) if named => dangling += 1,
                    _ => {}
                }
            } else if kind.is_file() && named {
                expected.push(path);
            }
        }
    }
    let judged = |follow: bool| {
        let mut out = Vec::new();
        let mut outcome = Outcome::default();
        cli::run(&request(vec![root.clone()], follow), &mut out, &mut outcome).expect("writing to memory cannot fail");
        let sources: Vec<String> =
            json_lines(&out).iter().map(|l| l["source"].as_str().unwrap_or_default().to_owned()).collect();
        (sources, outcome)
    };
    let (mut sources, outcome) = judged(false);
    sources.sort();
    let mut expected: Vec<String> = expected.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    expected.sort();
    assert_eq!(sources, expected, "a walk that does not follow links takes each document once");
    assert_eq!(outcome.io_errors, dangling, "each dangling link named *.json is an I/O error");
    let (mut sources, _) = judged(true);
    let count = sources.len();
    sources.sort();
    sources.dedup();
    assert_eq!(sources.len(), count, "a walk that follows links judges no path twice");
}

/// Target `walk` where there are no symbolic links: nothing to do.
#[cfg(not(unix))]
pub fn walk(_data: &[u8]) {}

/// The document, when the bytes are JSON that names no member twice (the library's strict read:
/// a repeated member is SCH-014 on every path).
fn strict(bytes: &[u8]) -> Option<Value> {
    jerry_contracts::__private::read::value_from_slice(bytes).ok()
}

/// The checks every report must pass; `parsed` is the document, when the bytes are JSON.
fn check_report(report: &Report, parsed: Option<&Value>) {
    let malformed = report.codes() == ["SCH-012"] || report.codes() == ["SCH-014"];
    assert_eq!(
        malformed,
        parsed.is_none(),
        "SCH-012 or SCH-014 (alone) must be reported exactly when the bytes are not JSON without repeated members: {report:?}"
    );
    for record in &report.records {
        assert!(codes::find(&record.error_code).is_some(), "unknown code {}", record.error_code);
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
    let Some(entry) = jerry_contracts::__private::typed::find(info.path, "") else { return };
    let interpreted = jerry_contracts::__validation::interpret(name, value);
    let typed = entry.check(value);
    match (&typed, interpreted.is_empty()) {
        (Ok(()), true) | (Err(_), false) => {}
        // docs/design.md D-110: an i64 field refuses integers past 64 bits the schema allows.
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
