//! `jerry-contracts validate`: judges documents from files, directories (every `*.json` and
//! `*.ndjson` below them), standard input, or NDJSON streams (one document a line, read line by
//! line so memory stays flat), and prints one verdict per document — compiler-style text or one
//! JSON object per line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jerry_contracts::common::ErrorRecord;
use jerry_contracts::validation::{Limited, Options, Report, Validator, read_limited, too_large};
use serde_json::{Value, json};

use crate::complain;
use crate::output::{escape, json_name, name};

/// How verdicts are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Compiler-style messages with the pointer and the offending value.
    Human,
    /// One JSON object per document per line.
    Json,
    /// GitHub Actions workflow commands: each record annotates its file at its line and column
    /// (ten of each kind a step, then a notice of what did not fit), and a verdict a document.
    Github,
    /// One JUnit XML report: a test case a document, failing with its error records.
    Junit,
    /// One SARIF 2.1.0 log: the error catalogue as rules, each record a result at its file,
    /// line and column and its JSON Pointer.
    Sarif,
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
    /// The largest document, and the longest NDJSON line, judged (bytes).
    pub max_bytes: usize,
    /// The most records listed per document.
    pub max_records: usize,
    /// With a root: the largest artifact hashed.
    pub max_artifact_bytes: usize,
    /// Follow symbolic links to directories during a walk.
    pub follow: bool,
    /// Exit 0 when the inputs hold no document at all.
    pub allow_empty: bool,
    /// Strict mode: convention findings (`CNV-*`) are errors, not warnings.
    pub strict: bool,
    /// Files, directories, or `-` for standard input.
    pub paths: Vec<PathBuf>,
}

impl Request {
    /// What makes the request unusable before any input is read: a `--schema` no schema has as
    /// a name, a `--root` that is not a directory.
    pub fn usage_error(&self) -> Option<String> {
        if let Some(name) = &self.schema
            && let Err(problem) = schema_name(name)
        {
            return Some(format!("--schema {}: {problem}", escape(name)));
        }
        if let Some(root) = &self.root {
            match std::fs::metadata(root) {
                Ok(metadata) if metadata.is_dir() => {}
                Ok(_) => return Some(format!("--root {}: not a directory", name(root))),
                Err(err) => return Some(format!("--root {}: {err}", name(root))),
            }
        }
        None
    }
}

/// Totals of a run, for the exit status.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Documents judged.
    pub documents: usize,
    /// Documents with at least one error.
    pub invalid: usize,
    /// Inputs, or entries of a walk, that could not be read.
    pub io_errors: usize,
    /// The GitHub format's annotations, written and left out.
    pub annotations: crate::ci_formats::Annotations,
    /// The SARIF log being written.
    pub sarif: crate::sarif::Log,
}

/// Checks a schema name as `--schema` and `schemas.map` take it: any name the registry knows,
/// optionally followed by `#` and the JSON Pointer of a definition
/// (`session_context/v1.0.0#/definitions/agent_reference`).
fn schema_name(name: &str) -> Result<(), String> {
    let (file, fragment) = match name.split_once('#') {
        Some((file, pointer)) => (file, Some(pointer)),
        None => (name, None),
    };
    let Some(info) = jerry_contracts::registry::lookup(file) else {
        return Err("no schema is named so (see `jerry-contracts list`)".to_owned());
    };
    let Some(pointer) = fragment else { return Ok(()) };
    // A fragment names a subschema: a JSON Pointer (`/definitions/X`) to an object or boolean.
    let schema = jerry_contracts_pointer::tokens(pointer)
        .ok()
        .filter(|_| pointer.starts_with('/'))
        .and_then(|_| info.document.pointer(pointer))
        .filter(|value| value.is_object() || value.is_boolean());
    if schema.is_none() {
        return Err(format!(
            "{} has no schema at #{} (name a definition: {}#/definitions/NAME)",
            info.name,
            escape(pointer),
            info.name
        ));
    }
    Ok(())
}

/// The name of the file, in each directory, that names the schema of the documents in it whose
/// schema cannot be told from their content (orchestration records, definitions): one line per
/// document, `FILE SCHEMA`, `#` comments.
pub const SCHEMA_MAP: &str = "schemas.map";

/// One input: a file (or stdin), whether it is NDJSON, and the schema its directory's
/// [`SCHEMA_MAP`] names for it.
struct Input {
    path: PathBuf,
    ndjson: bool,
    schema: Option<String>,
}

/// Runs the request, printing verdicts to `out` and I/O problems and progress to standard
/// error. The totals are kept in `outcome` as the run goes, so that they stand when writing the
/// verdicts fails (the reader went away, the disk is full): the run stops at that error.
pub fn run(request: &Request, out: &mut dyn Write, outcome: &mut Outcome) -> io::Result<()> {
    let mut inputs = Vec::new();
    for path in &request.paths {
        expand(path, request, &mut inputs, outcome);
    }
    if request.schema.is_none() {
        apply_schema_maps(&mut inputs, outcome);
    }
    let mut options = Options::default()
        .with_max_bytes(request.max_bytes)
        .with_max_records(request.max_records)
        .with_max_artifact_bytes(request.max_artifact_bytes)
        .with_strict(request.strict);
    options.root.clone_from(&request.root);
    options.expected_session.clone_from(&request.session);
    let mut validator = Arc::new(Validator::with_options(options));
    let progress = inputs.len() > 20 && io::stderr().is_terminal();
    // JUnit's counts come first in its report: its test cases are held until the run ends.
    let mut cases = Vec::new();
    let junit = request.format == Format::Junit;
    let out_or_cases: &mut dyn Write = if junit { &mut cases } else { out };
    if request.format == Format::Sarif {
        crate::sarif::Log::begin(request.strict, out_or_cases)?;
    }
    let total = inputs.len();
    for (n, input) in inputs.iter().enumerate() {
        // The name as given (JSON output relays it); human output and messages escape it.
        let shown = if input.path.as_os_str() == "-" {
            Source {
                json: "<stdin>".to_owned(),
                human: "<stdin>".to_owned(),
                file: "<stdin>".to_owned(),
                path: None,
                input: None,
                line: None,
            }
        } else {
            Source {
                json: json_name(&input.path),
                human: name(&input.path),
                file: name(&input.path),
                path: Some(json_name(&input.path)),
                input: Some(input.path.as_path().into()),
                line: None,
            }
        };
        if progress {
            let _ = write!(io::stderr(), "\r[{}/{total}] {}\x1b[K", n + 1, shown.human);
        }
        let reader: Box<dyn Read> = if input.path.as_os_str() == "-" {
            Box::new(io::stdin().lock())
        } else {
            match File::open(&input.path) {
                Ok(file) => Box::new(file),
                Err(e) => {
                    complain!("jerry-contracts validate: {}: {e}", shown.human);
                    outcome.io_errors += 1;
                    continue;
                }
            }
        };
        let schema = input.schema.as_deref().or(request.schema.as_deref());
        let result = if input.ndjson {
            judge_lines(request, schema, &mut validator, &shown, reader, out_or_cases, outcome)
        } else {
            judge_whole(request, schema, &mut validator, &shown, reader, out_or_cases, outcome)
        };
        match result {
            Ok(()) => {}
            Err(Failure::Write(e)) => return Err(e),
            Err(Failure::Read(e)) => {
                complain!("jerry-contracts validate: {}: {e}", shown.human);
                outcome.io_errors += 1;
            }
        }
    }
    if progress {
        let _ = write!(io::stderr(), "\r\x1b[K");
    }
    match request.format {
        Format::Junit => {
            return crate::ci_formats::junit_report(outcome.documents, outcome.invalid, &cases, out);
        }
        Format::Github => crate::ci_formats::github_summary(&outcome.annotations, out)?,
        Format::Sarif => outcome.sarif.end(outcome.documents, outcome.invalid, outcome.io_errors, out)?,
        Format::Human | Format::Json => {}
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
    Ok(())
}

/// How an input is named in the verdicts: as JSON output relays it, and as human output shows it
/// (escaped: [`name`]).
struct Source {
    json: String,
    human: String,
    /// The input's own name in human output, without a line number: a record's place is
    /// `file:line:column`.
    file: String,
    /// The input's path as given (the GitHub format's `file`); none for standard input.
    path: Option<String>,
    /// The input's path itself (the SARIF format's artifact, every byte kept); none for
    /// standard input.
    input: Option<std::rc::Rc<Path>>,
    /// The document's line in an NDJSON input.
    line: Option<usize>,
}

impl Source {
    /// The name of line `number` of this input.
    fn line(&self, number: usize) -> Source {
        Source {
            json: format!("{}:{number}", self.json),
            human: format!("{}:{number}", self.human),
            file: self.file.clone(),
            path: self.path.clone(),
            input: self.input.clone(),
            line: Some(number),
        }
    }
}

/// Why judging an input stopped: its reading failed (told, and the run goes on with the next
/// input), or writing the verdicts failed (the run stops).
enum Failure {
    Read(io::Error),
    Write(io::Error),
}

/// Names the schema of each input its directory's [`SCHEMA_MAP`] lists. A map that cannot be
/// read, a malformed line, an unknown schema or a listed file that is not there is told and
/// counted as an I/O error (exit 2): a map that silently fails would leave its documents to
/// detection, which cannot tell their schema.
fn apply_schema_maps(inputs: &mut [Input], outcome: &mut Outcome) {
    use std::collections::BTreeMap;
    let mut maps: BTreeMap<PathBuf, BTreeMap<String, String>> = BTreeMap::new();
    for input in inputs.iter() {
        let Some(dir) = input.path.parent().filter(|_| input.path.as_os_str() != "-") else { continue };
        if maps.contains_key(dir) {
            continue;
        }
        let map = read_schema_map(&dir.join(SCHEMA_MAP), outcome);
        maps.insert(dir.to_owned(), map);
    }
    for input in inputs.iter_mut() {
        let (Some(dir), Some(file)) = (input.path.parent(), input.path.file_name()) else { continue };
        if let Some(schema) = maps.get(dir).and_then(|map| map.get(&*file.to_string_lossy())) {
            input.schema = Some(schema.clone());
        }
    }
}

/// The entries of one [`SCHEMA_MAP`] (none when there is no such file).
fn read_schema_map(path: &Path, outcome: &mut Outcome) -> std::collections::BTreeMap<String, String> {
    let mut map = std::collections::BTreeMap::new();
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() => {}
        Ok(_) => {
            complain!("jerry-contracts validate: {}: not a regular file", name(path));
            outcome.io_errors += 1;
            return map;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return map,
        Err(e) => {
            complain!("jerry-contracts validate: {}: {e}", name(path));
            outcome.io_errors += 1;
            return map;
        }
    }
    // A map names files of one directory: a megabyte is thousands of lines.
    let text = match File::open(path).and_then(|file| read_limited(file, 1 << 20)) {
        Ok(Limited::Whole(bytes)) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                complain!("jerry-contracts validate: {}: not UTF-8 text", name(path));
                outcome.io_errors += 1;
                return map;
            }
        },
        Ok(Limited::TooLarge { .. }) => {
            complain!("jerry-contracts validate: {}: larger than 1 MiB", name(path));
            outcome.io_errors += 1;
            return map;
        }
        Err(e) => {
            complain!("jerry-contracts validate: {}: {e}", name(path));
            outcome.io_errors += 1;
            return map;
        }
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    // The line that first named each file: a file named twice is refused, naming both lines.
    let mut named: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let problem = match (words.next(), words.next(), words.next()) {
            (Some(file), Some(schema), None) => match named.get(file) {
                Some(first) => Some(format!(
                    "{} is named again (first on line {first}): a file has one schema; name it once",
                    escape(file)
                )),
                None => {
                    named.insert(file.to_owned(), number);
                    match schema_name(schema) {
                        Err(problem) => Some(format!("{}: {problem}", escape(schema))),
                        Ok(()) if !dir.join(file).is_file() => Some(format!("{}: no such file here", escape(file))),
                        Ok(()) => {
                            map.insert(file.to_owned(), schema.to_owned());
                            None
                        }
                    }
                }
            },
            _ => Some("expected `FILE SCHEMA`".to_owned()),
        };
        if let Some(problem) = problem {
            complain!("jerry-contracts validate: {}:{number}: {problem}", name(path));
            outcome.io_errors += 1;
        }
    }
    map
}

/// Whether a walk takes a file of this name: `*.json` and `*.ndjson`.
fn is_document(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json" || e == "ndjson")
}

/// The inputs `path` names: itself (standard input, or a file of any kind: a FIFO named on the
/// command line is read), or every `*.json` and `*.ndjson` file below a directory, in name
/// order. The walk does not follow links to directories unless asked to (`--follow`), and then
/// stops at a link back to a directory it is already in. An entry that cannot be read is told
/// and counted as an I/O error; every other entry is still taken. Non-regular files met during a
/// walk (FIFOs, devices, sockets) are skipped with a warning.
fn expand(path: &Path, request: &Request, inputs: &mut Vec<Input>, outcome: &mut Outcome) {
    let ndjson = |path: &Path| request.ndjson || path.extension().is_some_and(|e| e == "ndjson");
    if path.as_os_str() == "-" {
        inputs.push(Input { path: path.to_owned(), ndjson: request.ndjson, schema: None });
        return;
    }
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => return inputs.push(Input { path: path.to_owned(), ndjson: ndjson(path), schema: None }),
        Err(e) => {
            complain!("jerry-contracts validate: {}: {e}", name(path));
            outcome.io_errors += 1;
            return;
        }
    }
    let walk = walkdir::WalkDir::new(path).follow_links(request.follow).sort_by_file_name();
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                let shown = e.path().map_or_else(|| name(path), name);
                if let Some(ancestor) = e.loop_ancestor() {
                    // Its files are judged once, below the directory it leads back to.
                    complain!(
                        "jerry-contracts validate: warning: {shown}: a link back to {}, not walked again",
                        name(ancestor)
                    );
                } else {
                    let cause = e.io_error().map_or_else(|| e.to_string(), ToString::to_string);
                    complain!("jerry-contracts validate: {shown}: {cause}");
                    outcome.io_errors += 1;
                }
                continue;
            }
        };
        let file_type = entry.file_type();
        if file_type.is_dir() {
            continue;
        }
        let entry_path = entry.path();
        if file_type.is_symlink() {
            // Only when links are not followed: a link to a file is taken, a link to a directory
            // is not walked, a broken link named as a document is an entry that cannot be read.
            match std::fs::metadata(entry_path) {
                Ok(target) if target.is_dir() => complain!(
                    "jerry-contracts validate: warning: {}: a link to a directory, not followed (pass --follow)",
                    name(entry_path)
                ),
                Ok(target) if target.is_file() && is_document(entry_path) => {
                    inputs.push(Input { path: entry_path.to_owned(), ndjson: ndjson(entry_path), schema: None });
                }
                // A link to a FIFO, device or socket named as a document is skipped as they are.
                Ok(_) if is_document(entry_path) => complain!(
                    "jerry-contracts validate: warning: {}: a link to a file that is not regular (a FIFO, device or \
                     socket), skipped",
                    name(entry_path)
                ),
                Ok(_) => {}
                Err(e) if is_document(entry_path) => {
                    complain!("jerry-contracts validate: {}: {e}", name(entry_path));
                    outcome.io_errors += 1;
                }
                Err(_) => {}
            }
            continue;
        }
        if !is_document(entry_path) {
            continue;
        }
        if !file_type.is_file() {
            complain!(
                "jerry-contracts validate: warning: {}: not a regular file (a FIFO, device or socket), skipped",
                name(entry_path)
            );
            continue;
        }
        inputs.push(Input { path: entry_path.to_owned(), ndjson: ndjson(entry_path), schema: None });
    }
}

fn judge_whole(
    request: &Request,
    schema: Option<&str>,
    validator: &mut Arc<Validator>,
    shown: &Source,
    reader: Box<dyn Read>,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> Result<(), Failure> {
    let report = match read_limited(reader, request.max_bytes).map_err(Failure::Read)? {
        Limited::Whole(bytes) => {
            let mut report = report(schema, validator, &bytes);
            learn(validator, &report, &bytes);
            report.add_positions(&bytes, 1);
            report
        }
        Limited::TooLarge { read } => too_large(read, request.max_bytes),
    };
    tally(&report, outcome);
    print(request, shown, &report, out, outcome).map_err(Failure::Write)
}

/// Teaches the run the requirement ids a valid nse-requirements output defines (REF-002 judges
/// references against them), in place. Whether any was new.
fn learn(validator: &mut Arc<Validator>, report: &Report, bytes: &[u8]) -> bool {
    let ids = Validator::requirements_taught(report, bytes);
    // No other holder of the validator is alive here, so this does not copy it.
    !ids.is_empty() && Arc::make_mut(validator).learn_requirements(ids)
}

/// The most lines, and bytes of lines, judged at once: the window that bounds memory while the
/// workers judge a stream in parallel.
const WINDOW_LINES: usize = 4096;
const WINDOW_BYTES: usize = 16 << 20;
/// The most bytes of reports a window's workers hold before they stop and leave the rest of the
/// window to be judged a line at a time ([`judge_window`]).
const WINDOW_REPORT_BYTES: usize = 32 << 20;

/// One line of a stream: its bytes, or how long it was when over the limit (its bytes are not
/// kept).
enum Line {
    Text(Vec<u8>),
    TooLarge(u64),
}

/// The lines of one window: (line number, line).
type Window = Vec<(usize, Line)>;

/// The window after the one being printed, as it is being judged.
enum Ahead<'scope> {
    /// Judged on a worker thread with the validator as it was when the window was read.
    Judging(Arc<Window>, std::thread::ScopedJoinHandle<'scope, Vec<Report>>),
    /// Read, but to be judged with what the window before taught the run.
    Stale(Arc<Window>),
}

/// Judges an NDJSON stream a window of lines at a time, the lines of a window in parallel on
/// every core, and prints the reports in input order. The next window is read, and judged, while
/// the reports of the one before are printed; memory holds at most two windows.
fn judge_lines(
    request: &Request,
    schema: Option<&str>,
    validator: &mut Arc<Validator>,
    shown: &Source,
    reader: Box<dyn Read>,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> Result<(), Failure> {
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let mut number = 0usize;
    std::thread::scope(|scope| {
        let start = |window: Arc<Window>, validator: Arc<Validator>| {
            let shared = Arc::clone(&window);
            Ahead::Judging(window, scope.spawn(move || judge_window(request, schema, &validator, &shared, workers)))
        };
        let (first, mut after) = read_window(&mut reader, &mut number, request.max_bytes);
        let mut current = start(Arc::new(first), Arc::clone(validator));
        loop {
            let mut ahead = match after {
                Next::More => {
                    let (window, following) = read_window(&mut reader, &mut number, request.max_bytes);
                    after = following;
                    Some(start(Arc::new(window), Arc::clone(validator)))
                }
                Next::End | Next::Failed(_) => None,
            };
            let (window, reports) = match current {
                // A worker that panicked is a bug; its lines are judged again here so none is skipped.
                Ahead::Judging(window, handle) => {
                    let reports =
                        handle.join().unwrap_or_else(|_| judge_window(request, schema, validator, &window, workers));
                    (window, reports)
                }
                Ahead::Stale(window) => {
                    let reports = judge_window(request, schema, validator, &window, workers);
                    (window, reports)
                }
            };
            finish(request, schema, validator, shown, &window, reports, &mut ahead, out, outcome)
                .map_err(Failure::Write)?;
            current = match ahead {
                Some(Ahead::Stale(window)) => start(window, Arc::clone(validator)),
                Some(judging) => judging,
                // The lines read before a read error are judged and printed, then the error told.
                None => {
                    return match after {
                        Next::Failed(err) => Err(Failure::Read(err)),
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
fn read_window(reader: &mut impl BufRead, number: &mut usize, max_bytes: usize) -> (Window, Next) {
    let mut window = Window::new();
    let mut bytes = 0;
    while window.len() < WINDOW_LINES && bytes < WINDOW_BYTES {
        let line = match read_line(reader, max_bytes) {
            Ok(None) => return (window, Next::End),
            Ok(Some(line)) => line,
            Err(err) => return (window, Next::Failed(err)),
        };
        *number += 1;
        match line {
            Line::Text(text) if text.iter().all(u8::is_ascii_whitespace) => {}
            Line::Text(text) => {
                bytes += text.len();
                window.push((*number, Line::Text(text)));
            }
            too_large @ Line::TooLarge(_) => {
                window.push((*number, too_large));
                let stop = format!(
                    "line {number} is over the limit of {max_bytes} bytes (--max-bytes); the rest of the input is not read"
                );
                return (window, Next::Failed(io::Error::other(stop)));
            }
        }
    }
    (window, Next::More)
}

/// The next line of `reader` without its line end (`\n`, `\r\n`), or `None` at the end. The limit
/// counts the line without its line end. Reading stops at the limit: a line longer than
/// `max_bytes` is read no further than two bytes past it (room for a `\r` that may end it), so
/// an endless line costs bounded time and memory, and the caller reads no more of the stream.
fn read_line(reader: &mut impl BufRead, max_bytes: usize) -> io::Result<Option<Line>> {
    let mut text = Vec::new();
    let mut any = false;
    let cap = max_bytes.saturating_add(2);
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (piece, used, ended) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (&buffer[..at], at + 1, true),
            None => (buffer, buffer.len(), false),
        };
        let room = cap - text.len();
        if piece.len() >= room {
            reader.consume(room);
            return Ok(Some(Line::TooLarge((text.len() + room) as u64)));
        }
        text.extend_from_slice(piece);
        reader.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if text.last() == Some(&b'\r') {
        text.pop();
    }
    if text.len() > max_bytes {
        return Ok(Some(Line::TooLarge(text.len() as u64)));
    }
    Ok(Some(Line::Text(text)))
}

/// Prints the window's reports in order, learning requirement ids from them as it goes. A line
/// judged before an id it could use was learned (the workers judge a window with what the run
/// knew when it was read) is judged again first, so every report is what judging the lines one
/// after another would give; each line is judged at most twice. Before the run learns, the
/// window ahead is stopped and marked stale (it is judged again with what was learned).
#[allow(clippy::too_many_arguments)]
fn finish(
    request: &Request,
    schema: Option<&str>,
    validator: &mut Arc<Validator>,
    shown: &Source,
    window: &Window,
    reports: Vec<Report>,
    ahead: &mut Option<Ahead<'_>>,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> io::Result<()> {
    let mut learned = false;
    let mut reports = reports.into_iter();
    for (number, line) in window {
        // One report per line; should a worker have given fewer, the line is judged here.
        let mut report = reports.next().unwrap_or_else(|| judge_line(request, schema, validator, line));
        if let Line::Text(bytes) = line {
            if learned && Validator::reads_known_requirements(report.schema) {
                report = self::report(schema, validator, bytes);
            }
            if !Validator::requirements_taught(&report, bytes).is_empty() {
                if let Some(Ahead::Judging(..)) = ahead
                    && let Some(Ahead::Judging(window, handle)) = ahead.take()
                {
                    // Its reports are stale; joining drops its hold on the validator, so
                    // learning below does not copy it.
                    let _stale = handle.join();
                    *ahead = Some(Ahead::Stale(window));
                }
                learned |= learn(validator, &report, bytes);
            }
        }
        if let Line::Text(bytes) = line {
            // Records point into the stream: the document is the line's text, on line `number`.
            report.add_positions(bytes, *number);
        }
        tally(&report, outcome);
        print(request, &shown.line(*number), &report, out, outcome)?;
    }
    Ok(())
}

/// The report on one line of a stream.
fn judge_line(request: &Request, schema: Option<&str>, validator: &Validator, line: &Line) -> Report {
    match line {
        Line::Text(bytes) => report(schema, validator, bytes),
        Line::TooLarge(length) => too_large(*length, request.max_bytes),
    }
}

/// The reports of the first lines of `window`, in order, judged on up to `workers` threads that
/// take the lines in turn. Judging stops once the reports held weigh more than
/// [`WINDOW_REPORT_BYTES`] (a window of lines that each break a rule a thousand times would
/// otherwise hold gigabytes): the lines left are judged, and printed, one at a time by
/// [`finish`], so memory stays bounded whatever the stream holds.
fn judge_window(
    request: &Request,
    schema: Option<&str>,
    validator: &Validator,
    window: &[(usize, Line)],
    workers: usize,
) -> Vec<Report> {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let next = AtomicUsize::new(0);
    let held = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        while held.load(Relaxed) <= WINDOW_REPORT_BYTES {
            let at = next.fetch_add(1, Relaxed);
            let Some((_, line)) = window.get(at) else { break };
            let report = judge_line(request, schema, validator, line);
            held.fetch_add(report.weight(), Relaxed);
            done.push((at, report));
        }
        done
    };
    let mut judged = if workers < 2 || window.len() < 2 {
        work()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers.min(window.len())).map(|_| scope.spawn(work)).collect();
            // A worker that panicked is a bug: the lines it took are judged again by `finish`.
            handles.into_iter().flat_map(|handle| handle.join().unwrap_or_default()).collect()
        })
    };
    judged.sort_unstable_by_key(|(at, _)| *at);
    // The lines judged without a gap from the first; any after a gap are judged again.
    judged.into_iter().enumerate().take_while(|(n, (at, _))| n == at).map(|(_, (_, report))| report).collect()
}

fn tally(report: &Report, outcome: &mut Outcome) {
    outcome.documents += 1;
    if !report.is_valid() {
        outcome.invalid += 1;
    }
}

fn print(
    request: &Request,
    source: &Source,
    report: &Report,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> io::Result<()> {
    match request.format {
        Format::Json => print_json(&source.json, report, out),
        Format::Human => print_human(source, report, out),
        Format::Github => {
            crate::ci_formats::github(source.path.as_deref(), &source.human, report, &mut outcome.annotations, out)
        }
        Format::Junit => crate::ci_formats::junit_case(&source.human, report, out),
        Format::Sarif => outcome.sarif.document(source.input.as_deref(), source.line, report, out),
    }
}

/// The report on one document: against the schema named for it, else the detected one.
fn report(schema: Option<&str>, validator: &Validator, bytes: &[u8]) -> Report {
    match schema {
        Some(name) => validator.validate_as(name, bytes),
        None => validator.validate(bytes),
    }
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

/// The verdict and records of one document; `source` is already escaped.
fn print_human(source: &Source, report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for record in &report.records {
        print_record(&source.human, &source.file, record, out)?;
    }
    let source = &source.human;
    let schema = report.schema.unwrap_or("unknown schema");
    let verdict = if report.is_valid() { "valid" } else { "invalid" };
    writeln!(out, "{source}: {verdict} ({schema})")
}

/// One record as compiler-style lines; every text from the document or the file system is
/// escaped (the values are JSON text, whose own escapes leave some controls as they are). A
/// record placed in the text ([`Report::add_positions`]) is shown at `file:line:column`, others
/// at `source` (the input, with its line for NDJSON); the JSON Pointer follows either.
pub(crate) fn print_record(source: &str, file: &str, record: &ErrorRecord, out: &mut dyn Write) -> io::Result<()> {
    let level = crate::ci_formats::severity(record);
    writeln!(out, "{level}[{}]: {}", escape(&record.error_code), escape(&record.message))?;
    let at = match jerry_contracts::validation::placed(record) {
        Some((line, column)) => format!("{file}:{line}:{column}"),
        None => source.to_owned(),
    };
    writeln!(out, "  --> {at}#{}", escape(record.path.as_deref().unwrap_or("")))?;
    match (&record.actual, &record.expected) {
        (Some(actual), Some(expected)) => writeln!(out, "   = found {}, expected {}", short(actual), short(expected))?,
        (Some(actual), None) => writeln!(out, "   = found {}", short(actual))?,
        (None, Some(expected)) => writeln!(out, "   = expected {}", short(expected))?,
        (None, None) => {}
    }
    if let Some(principle) = &record.constitutional_principle {
        writeln!(out, "   = principle {}", escape(principle))?;
    }
    if let Some(remediation) = &record.remediation {
        writeln!(out, "   = help: {}", escape(remediation))?;
    }
    Ok(())
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    let text = escape(&text);
    if text.chars().count() > 120 {
        format!("{}…", text.chars().take(120).collect::<String>())
    } else {
        text.into_owned()
    }
}
