//! `jerry-contracts validate`: judges documents from files, directories (every `*.json` and
//! `*.ndjson` below them), standard input, or NDJSON streams (one document a line, read line by
//! line so memory stays flat), and prints one verdict per document — compiler-style text or one
//! JSON object per line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jerry_contracts::common::{ErrorRecord, ErrorRecordSeverity};
use jerry_contracts::validation::{Options, Report, Validator};
use serde_json::{Value, json};

/// How verdicts are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Compiler-style messages with the pointer and the offending value.
    Human,
    /// One JSON object per document per line.
    Json,
}

/// What `validate` was asked to do.
#[derive(Debug, Clone)]
pub struct Request {
    /// Schema name; detected per document when absent.
    pub schema: Option<String>,
    /// Output format.
    pub format: Format,
    /// Repository root for artifact checks.
    pub root: Option<PathBuf>,
    /// Expected session id.
    pub session: Option<String>,
    /// Read every input as NDJSON.
    pub ndjson: bool,
    /// Files, directories, or `-` for standard input.
    pub paths: Vec<PathBuf>,
}

/// Totals of a run, for the exit status.
#[derive(Debug, Default, Clone, Copy)]
pub struct Outcome {
    /// Documents judged.
    pub documents: usize,
    /// Documents with at least one error.
    pub invalid: usize,
    /// Inputs that could not be read.
    pub io_errors: usize,
}

/// One input: a file (or stdin) and whether it is NDJSON.
struct Input {
    path: PathBuf,
    ndjson: bool,
}

/// Runs the request, printing to `out` (verdicts) and `err` (I/O problems, progress).
pub fn run(request: &Request, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<Outcome> {
    let mut outcome = Outcome::default();
    let mut inputs = Vec::new();
    for path in &request.paths {
        if let Err(e) = expand(path, request.ndjson, &mut inputs) {
            writeln!(err, "jerry-contracts validate: {}: {e}", path.display())?;
            outcome.io_errors += 1;
        }
    }
    let mut validator = Validator::with_options(Options {
        root: request.root.clone(),
        expected_session: request.session.clone(),
        known_requirements: Default::default(),
    });
    let progress = inputs.len() > 20 && io::stderr().is_terminal();
    let total = inputs.len();
    for (n, input) in inputs.iter().enumerate() {
        if progress {
            write!(err, "\r[{}/{total}] {}\x1b[K", n + 1, input.path.display())?;
        }
        let shown = if input.path.as_os_str() == "-" { "<stdin>".to_owned() } else { input.path.display().to_string() };
        let reader: Box<dyn Read> = if input.path.as_os_str() == "-" {
            Box::new(io::stdin().lock())
        } else {
            match File::open(&input.path) {
                Ok(file) => Box::new(file),
                Err(e) => {
                    writeln!(err, "jerry-contracts validate: {shown}: {e}")?;
                    outcome.io_errors += 1;
                    continue;
                }
            }
        };
        let result = if input.ndjson {
            judge_lines(request, &mut validator, &shown, reader, out, &mut outcome)
        } else {
            judge_whole(request, &mut validator, &shown, reader, out, &mut outcome)
        };
        if let Err(e) = result {
            writeln!(err, "jerry-contracts validate: {shown}: {e}")?;
            outcome.io_errors += 1;
        }
    }
    if progress {
        write!(err, "\r\x1b[K")?;
    }
    if request.format == Format::Human {
        writeln!(
            out,
            "{} document{}: {} valid, {} invalid",
            outcome.documents,
            if outcome.documents == 1 { "" } else { "s" },
            outcome.documents - outcome.invalid,
            outcome.invalid
        )?;
    }
    Ok(outcome)
}

/// Files below `path` (or `path` itself), in name order.
fn expand(path: &Path, ndjson: bool, inputs: &mut Vec<Input>) -> io::Result<()> {
    if path.as_os_str() == "-" {
        inputs.push(Input { path: path.to_owned(), ndjson });
        return Ok(());
    }
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_dir() {
        let is_ndjson = ndjson || path.extension().is_some_and(|e| e == "ndjson");
        inputs.push(Input { path: path.to_owned(), ndjson: is_ndjson });
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() || entry.extension().is_some_and(|e| e == "json" || e == "ndjson") {
            expand(&entry, ndjson, inputs)?;
        }
    }
    Ok(())
}

fn judge_whole(
    request: &Request,
    validator: &mut Validator,
    shown: &str,
    mut reader: Box<dyn Read>,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> io::Result<()> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    judge(request, validator, shown, &bytes, out, outcome)
}

/// The most lines, and bytes of lines, judged at once: the window that bounds memory while the
/// workers judge a stream in parallel.
const WINDOW_LINES: usize = 4096;
const WINDOW_BYTES: usize = 16 << 20;

/// The lines of one window: (line number, bytes).
type Window = Vec<(usize, Vec<u8>)>;

/// Judges an NDJSON stream a window of lines at a time, the lines of a window in parallel on
/// every core, and prints the reports in input order. The next window is read, and judged, while
/// the reports of the one before are printed; memory holds at most two windows.
fn judge_lines(
    request: &Request,
    validator: &mut Validator,
    shown: &str,
    reader: Box<dyn Read>,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let mut number = 0usize;
    std::thread::scope(|scope| {
        let start = |window: Arc<Window>, validator: Validator| {
            let shared = Arc::clone(&window);
            (window, scope.spawn(move || judge_window(request, &validator, &shared, workers)))
        };
        let (first, mut after) = read_window(&mut reader, &mut number);
        let mut current = start(Arc::new(first), validator.clone());
        loop {
            let next = match after {
                Next::More => {
                    let (window, following) = read_window(&mut reader, &mut number);
                    after = following;
                    Some(start(Arc::new(window), validator.clone()))
                }
                Next::End | Next::Failed(_) => None,
            };
            let (window, handle) = current;
            // A worker that panicked is a bug; its lines are judged again here so none is skipped.
            let reports = handle.join().unwrap_or_else(|_| judge_window(request, validator, &window, workers));
            let learned = finish(request, validator, shown, &window, reports, workers, out, outcome)?;
            current = match next {
                // Judged before this window's requirements were learned: judged again.
                Some((window, handle)) if learned => {
                    let _stale = handle.join();
                    start(window, validator.clone())
                }
                Some(next) => next,
                // The lines read before a read error are judged and printed, then the error told.
                None => {
                    return match after {
                        Next::Failed(err) => Err(err),
                        Next::More | Next::End => Ok(()),
                    };
                }
            };
        }
    })
}

/// What follows a window.
enum Next {
    /// More lines.
    More,
    /// The end of the stream.
    End,
    /// A read error, after the window's lines.
    Failed(io::Error),
}

/// The next window of non-blank lines, and what follows it.
fn read_window(reader: &mut impl BufRead, number: &mut usize) -> (Window, Next) {
    let mut window = Window::new();
    let mut bytes = 0;
    while window.len() < WINDOW_LINES && bytes < WINDOW_BYTES {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => return (window, Next::End),
            Ok(_) => {}
            Err(err) => return (window, Next::Failed(err)),
        }
        *number += 1;
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        bytes += line.len();
        window.push((*number, line));
    }
    (window, Next::More)
}

/// Learns requirement ids from the window's reports in order (judging the rest of the window
/// again when it learns some), and prints the reports. Whether any were learned.
#[allow(clippy::too_many_arguments)]
fn finish(
    request: &Request,
    validator: &mut Validator,
    shown: &str,
    window: &Window,
    mut reports: Vec<Report>,
    workers: usize,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> io::Result<bool> {
    let mut learned_any = false;
    for (index, (number, line)) in window.iter().enumerate() {
        if learn_requirements(validator, &reports[index], line) {
            learned_any = true;
            // What follows in this window was judged without these requirements.
            let rest = judge_window(request, validator, &window[index + 1..], workers);
            reports.truncate(index + 1);
            reports.extend(rest);
        }
        let report = &reports[index];
        tally(report, outcome);
        print(request, &format!("{shown}:{number}"), report, out)?;
    }
    Ok(learned_any)
}

/// The reports of `window`'s lines, in order, judged on up to `workers` threads.
fn judge_window(request: &Request, validator: &Validator, window: &[(usize, Vec<u8>)], workers: usize) -> Vec<Report> {
    let judge = |bytes: &[u8]| report(request, validator, bytes);
    if workers < 2 || window.len() < 2 {
        return window.iter().map(|(_, line)| judge(line)).collect();
    }
    let chunk = window.len().div_ceil(workers);
    std::thread::scope(|scope| {
        let handles: Vec<_> = window
            .chunks(chunk)
            .map(|lines| scope.spawn(move || lines.iter().map(|(_, line)| judge(line)).collect::<Vec<Report>>()))
            .collect();
        // A worker that panicked is a bug; its lines are judged again here so none is skipped.
        handles
            .into_iter()
            .zip(window.chunks(chunk))
            .flat_map(|(handle, lines)| {
                handle.join().unwrap_or_else(|_| lines.iter().map(|(_, line)| judge(line)).collect())
            })
            .collect()
    })
}

fn tally(report: &Report, outcome: &mut Outcome) {
    outcome.documents += 1;
    if !report.is_valid() {
        outcome.invalid += 1;
    }
}

fn print(request: &Request, source: &str, report: &Report, out: &mut dyn Write) -> io::Result<()> {
    match request.format {
        Format::Json => print_json(source, report, out),
        Format::Human => print_human(source, report, out),
    }
}

/// The report on one document: against the schema the request names, else the detected one.
fn report(request: &Request, validator: &Validator, bytes: &[u8]) -> Report {
    match &request.schema {
        Some(name) => validator.validate_as(name, bytes),
        None => validator.validate(bytes),
    }
}

fn judge(
    request: &Request,
    validator: &mut Validator,
    source: &str,
    bytes: &[u8],
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> io::Result<()> {
    let report = report(request, validator, bytes);
    learn_requirements(validator, &report, bytes);
    tally(&report, outcome);
    print(request, source, &report, out)
}

/// Requirement ids a valid nse-requirements output defines become known to the rest of the run
/// (REF-002 judges references against them). Whether any was new.
fn learn_requirements(validator: &mut Validator, report: &Report, bytes: &[u8]) -> bool {
    if report.schema != Some("agents/nse/requirements_output") || !report.is_valid() {
        return false;
    }
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else { return false };
    let ids = value.get("requirements").and_then(Value::as_array).into_iter().flatten();
    let mut options = validator.options().clone();
    let before = options.known_requirements.len();
    options.known_requirements.extend(ids.filter_map(|r| r.get("id")?.as_str().map(str::to_owned)));
    let learned = options.known_requirements.len() > before;
    *validator = Validator::with_options(options);
    learned
}

/// One `--format json` line. The members are declared in the order a `serde_json::Map` keeps
/// them (sorted), which is the order the lines have always had.
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    errors: Value,
    schema: Option<&'a str>,
    source: &'a str,
    valid: bool,
}

fn print_json(source: &str, report: &Report, out: &mut dyn Write) -> io::Result<()> {
    // A report's records go through a `Value` (sorted members, as before); an empty list, the
    // common case, costs nothing.
    let errors = if report.records.is_empty() { Value::Array(Vec::new()) } else { json!(report.records) };
    let line = JsonLine { errors, schema: report.schema, source, valid: report.is_valid() };
    let mut text = serde_json::to_vec(&line).map_err(io::Error::other)?;
    text.push(b'\n');
    out.write_all(&text)
}

fn print_human(source: &str, report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for record in &report.records {
        print_record(source, record, out)?;
    }
    let schema = report.schema.unwrap_or("unknown schema");
    let verdict = if report.is_valid() { "valid" } else { "invalid" };
    writeln!(out, "{source}: {verdict} ({schema})")
}

fn print_record(source: &str, record: &ErrorRecord, out: &mut dyn Write) -> io::Result<()> {
    let level = match record.severity {
        ErrorRecordSeverity::Error => "error",
        ErrorRecordSeverity::Warning => "warning",
        ErrorRecordSeverity::Info => "info",
    };
    writeln!(out, "{level}[{}]: {}", record.error_code, record.message)?;
    writeln!(out, "  --> {source}#{}", record.path.as_deref().unwrap_or(""))?;
    match (&record.actual, &record.expected) {
        (Some(actual), Some(expected)) => writeln!(out, "   = found {}, expected {}", short(actual), short(expected))?,
        (Some(actual), None) => writeln!(out, "   = found {}", short(actual))?,
        (None, Some(expected)) => writeln!(out, "   = expected {}", short(expected))?,
        (None, None) => {}
    }
    if let Some(principle) = &record.constitutional_principle {
        writeln!(out, "   = principle {principle}")?;
    }
    if let Some(remediation) = &record.remediation {
        writeln!(out, "   = help: {remediation}")?;
    }
    Ok(())
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 120 { format!("{}…", text.chars().take(120).collect::<String>()) } else { text }
}
