//! Python bindings of jerry-contracts: the native part (`jerry_contracts._native`) of the
//! `jerry_contracts` package. The package's Python files (`python/jerry_contracts/`) re-export
//! it, define the exception classes and carry the type stubs.
//!
//! Documents cross into Rust as bytes: a `str` as its UTF-8 text, `bytes` as they are, anything
//! else (a parsed `dict` or `list`) as the text `json.dumps` writes for it. Going through text
//! rather than building a `serde_json::Value` keeps numbers exact (Python integers of any size
//! and floats are written as the shortest text that reads back the same value, where a `Value`
//! holds at most a `u64`/`i64`/`f64`), and judges a parsed document by the very path a file
//! takes, so the Python verdict is the CLI's. Values cross back the same way, as JSON text read
//! by `json.loads`. The GIL is released while Rust validates.

mod json_text;

use std::borrow::Cow;
use std::path::PathBuf;

use jerry_contracts::common::{ErrorRecord, ErrorRecordSeverity};
use jerry_contracts::validation::{self, Options};
use jerry_contracts::{examples, registry, versions};
use jerry_contracts_schema_tools::diff as schema_diff;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyIterator, PyList, PyString};

/// A Python object read from JSON text by `json.loads`.
fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// A `serde_json::Value` as the Python object `json.loads` makes of its text.
fn value_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    loads(py, &text)
}

/// An instance of an exception class of `jerry_contracts.errors`, made with one argument.
fn raise<'py>(py: Python<'py>, class: &str, arg: impl IntoPyObject<'py>) -> PyErr {
    let made = py.import("jerry_contracts.errors").and_then(|m| m.getattr(class)).and_then(|c| c.call1((arg,)));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(err) => err,
    }
}

/// The bytes of a document given as `str`, `bytes`, `bytearray`, or any value `json.dumps` writes
/// (as the text it writes: by [`json_text::write`] when the value is made of `json.loads`' types,
/// else by `json.dumps` itself).
fn document_bytes<'a>(doc: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(bytes) = doc.downcast::<PyBytes>() {
        return Ok(Cow::Borrowed(bytes.as_bytes()));
    }
    if let Ok(text) = doc.downcast::<PyString>() {
        return Ok(Cow::Owned(text.to_cow()?.into_owned().into_bytes()));
    }
    if let Ok(array) = doc.downcast::<PyByteArray>() {
        // Copied: another thread may change a bytearray while the GIL is released.
        return Ok(Cow::Owned(array.to_vec()));
    }
    if let Some(text) = json_text::write(doc) {
        return Ok(Cow::Owned(text));
    }
    let json = doc.py().import("json")?;
    let kwargs = pyo3::types::PyDict::new(doc.py());
    kwargs.set_item("ensure_ascii", false)?;
    kwargs.set_item("allow_nan", false)?;
    let text = json.call_method("dumps", (doc,), Some(&kwargs))?;
    let text = text.downcast::<PyString>()?.to_cow()?.into_owned();
    Ok(Cow::Owned(text.into_bytes()))
}

/// One finding of a validation run: a record of the `common/error.json` type.
#[pyclass(module = "jerry_contracts", name = "Record", frozen, eq)]
#[derive(PartialEq)]
struct Record {
    inner: ErrorRecord,
}

#[pymethods]
impl Record {
    /// The code (`SCH-004`).
    #[getter]
    fn error_code(&self) -> &str {
        &self.inner.error_code
    }

    /// The human-readable message.
    #[getter]
    fn message(&self) -> &str {
        &self.inner.message
    }

    /// `"error"`, `"warning"` or `"info"`.
    #[getter]
    fn severity(&self) -> &'static str {
        severity(&self.inner)
    }

    /// The JSON Pointer of the value the record is about (`""` for the root).
    #[getter]
    fn path(&self) -> Option<&str> {
        self.inner.path.as_deref()
    }

    /// The line of the value at `path` in the document's text (from 1); `None` for a record
    /// not placed in a text.
    #[getter]
    fn line(&self) -> Option<u64> {
        validation::placed(&self.inner).map(|(line, _)| line)
    }

    /// The column of that value in its line (from 1, in Unicode scalar values).
    #[getter]
    fn column(&self) -> Option<u64> {
        validation::placed(&self.inner).map(|(_, column)| column)
    }

    /// The schema keyword's location, if known.
    #[getter]
    fn keyword_location(&self) -> Option<&str> {
        self.inner.keyword_location.as_deref()
    }

    /// What was expected (any JSON value), or `None`.
    #[getter]
    fn expected<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner.expected.as_ref().map(|v| value_to_py(py, v)).transpose()
    }

    /// What was found (any JSON value), or `None`.
    #[getter]
    fn actual<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner.actual.as_ref().map(|v| value_to_py(py, v)).transpose()
    }

    /// How to fix it, if said.
    #[getter]
    fn remediation(&self) -> Option<&str> {
        self.inner.remediation.as_deref()
    }

    /// The constitutional principle it violates, if any.
    #[getter]
    fn constitutional_principle(&self) -> Option<&str> {
        self.inner.constitutional_principle.as_deref()
    }

    /// Members beyond those `common/error.json` declares, as a dict.
    #[getter]
    fn extra<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        value_to_py(py, &serde_json::Value::Object(self.inner.extra.to_map()))
    }

    /// The record as the `common/error.json` object (absent members left out).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.inner).map_err(|e| PyValueError::new_err(e.to_string()))?;
        loads(py, &text)
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Record {}>", self.inner)
    }
}

fn severity(record: &ErrorRecord) -> &'static str {
    match record.severity {
        ErrorRecordSeverity::Error => "error",
        ErrorRecordSeverity::Warning => "warning",
        ErrorRecordSeverity::Info => "info",
    }
}

/// Every record a validation run produced for one document.
#[pyclass(module = "jerry_contracts", name = "Report", frozen)]
struct Report {
    inner: validation::Report,
    records: Vec<Py<Record>>,
}

impl Report {
    fn new(py: Python<'_>, inner: validation::Report) -> PyResult<Self> {
        let records =
            inner.records.iter().map(|r| Py::new(py, Record { inner: r.clone() })).collect::<PyResult<Vec<_>>>()?;
        Ok(Self { inner, records })
    }

    fn with_severity(&self, py: Python<'_>, wanted: ErrorRecordSeverity) -> Vec<Py<Record>> {
        self.records.iter().filter(|r| r.get().inner.severity == wanted).map(|r| r.clone_ref(py)).collect()
    }
}

#[pymethods]
impl Report {
    /// The schema the document was judged against (registry name), if one was found.
    #[getter]
    fn schema(&self) -> Option<&'static str> {
        self.inner.schema
    }

    /// True when no record has severity `error` (warnings are allowed).
    #[getter]
    fn valid(&self) -> bool {
        self.inner.is_valid()
    }

    /// Every record, in the order found.
    #[getter]
    fn records(&self, py: Python<'_>) -> Vec<Py<Record>> {
        self.records.iter().map(|r| r.clone_ref(py)).collect()
    }

    /// The records of severity `error`.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<Py<Record>> {
        self.with_severity(py, ErrorRecordSeverity::Error)
    }

    /// The records of severity `warning`.
    #[getter]
    fn warnings(&self, py: Python<'_>) -> Vec<Py<Record>> {
        self.with_severity(py, ErrorRecordSeverity::Warning)
    }

    /// The codes of all records, in order.
    fn codes(&self) -> Vec<String> {
        self.inner.records.iter().map(|r| r.error_code.clone()).collect()
    }

    /// `{"schema", "valid", "records"}`, the records as `common/error.json` objects.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&serde_json::json!({
            "schema": self.inner.schema,
            "valid": self.inner.is_valid(),
            "records": self.inner.records,
        }))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        loads(py, &text)
    }

    /// Raises `InvalidDocument` (carrying this report) unless the document is valid; else
    /// returns the report.
    fn raise_for_errors(slf: Bound<'_, Self>) -> PyResult<Bound<'_, Self>> {
        if slf.get().inner.is_valid() {
            Ok(slf)
        } else {
            let py = slf.py();
            Err(raise(py, "InvalidDocument", slf))
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.records.iter().map(|r| r.clone_ref(py)))?.try_iter()
    }

    fn __len__(&self) -> usize {
        self.records.len()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let verdict = if self.inner.is_valid() { "valid" } else { "invalid" };
        format!("<Report {} {verdict}, {} records>", self.inner.schema.unwrap_or("(no schema)"), self.records.len())
    }
}

/// Validates documents with a set of options; safe to share between threads.
#[pyclass(module = "jerry_contracts", name = "Validator", frozen)]
struct Validator {
    inner: validation::Validator,
}

impl Validator {
    fn run(&self, py: Python<'_>, doc: &Bound<'_, PyAny>, schema: Option<&str>) -> PyResult<Report> {
        let bytes = document_bytes(doc)?;
        let bytes: &[u8] = &bytes;
        let report = py.allow_threads(|| {
            let mut report = match schema {
                Some(name) => self.inner.validate_as(name, bytes),
                None => self.inner.validate(bytes),
            };
            report.add_positions(bytes, 1);
            report
        });
        Report::new(py, report)
    }
}

#[pymethods]
impl Validator {
    #[new]
    #[pyo3(signature = (*, root=None, session=None, strict=false, max_bytes=None, max_records=None, max_artifact_bytes=None))]
    fn new(
        root: Option<PathBuf>,
        session: Option<String>,
        strict: bool,
        max_bytes: Option<usize>,
        max_records: Option<usize>,
        max_artifact_bytes: Option<usize>,
    ) -> Self {
        let mut options = Options::default().with_strict(strict);
        if let Some(max_records) = max_records {
            options = options.with_max_records(max_records);
        }
        if let Some(max_artifact_bytes) = max_artifact_bytes {
            options = options.with_max_artifact_bytes(max_artifact_bytes);
        }
        if let Some(root) = root {
            options = options.with_root(root);
        }
        if let Some(session) = session {
            options = options.with_expected_session(session);
        }
        if let Some(max_bytes) = max_bytes {
            options = options.with_max_bytes(max_bytes);
        }
        Self { inner: validation::Validator::with_options(options) }
    }

    /// The repository root artifact references are resolved against, if any.
    #[getter]
    fn root(&self) -> Option<PathBuf> {
        self.inner.options().root.clone()
    }

    /// The session the consumer is in, if given.
    #[getter]
    fn session(&self) -> Option<String> {
        self.inner.options().expected_session.clone()
    }

    /// Whether convention findings are errors.
    #[getter]
    fn strict(&self) -> bool {
        self.inner.options().strict
    }

    /// The largest document judged, in bytes.
    #[getter]
    fn max_bytes(&self) -> usize {
        self.inner.options().max_bytes
    }

    /// The most records a report lists (past it, SCH-016 counts the rest).
    #[getter]
    fn max_records(&self) -> usize {
        self.inner.options().max_records
    }

    /// With a root: the largest artifact hashed, in bytes.
    #[getter]
    fn max_artifact_bytes(&self) -> u64 {
        self.inner.options().max_artifact_bytes
    }

    /// Validates one document (`str`, `bytes` or a parsed value), against `schema` when given,
    /// else against the schema the document shows.
    #[pyo3(signature = (doc, schema=None))]
    fn validate(&self, py: Python<'_>, doc: &Bound<'_, PyAny>, schema: Option<String>) -> PyResult<Report> {
        self.run(py, doc, schema.as_deref())
    }

    /// As `validate`, raising `InvalidDocument` when the document is not valid.
    #[pyo3(signature = (doc, schema=None))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        doc: &Bound<'py, PyAny>,
        schema: Option<String>,
    ) -> PyResult<Bound<'py, Report>> {
        let report = Bound::new(py, self.run(py, doc, schema.as_deref())?)?;
        Report::raise_for_errors(report)
    }

    /// A report for each non-blank line of an iterable of NDJSON lines, as they are read.
    #[pyo3(signature = (lines, schema=None))]
    fn validate_lines(&self, lines: &Bound<'_, PyAny>, schema: Option<String>) -> PyResult<Lines> {
        Ok(Lines {
            validator: self.inner.clone(),
            schema,
            source: lines.try_iter()?.unbind(),
            read: std::sync::atomic::AtomicUsize::new(0),
        })
    }
}

/// The reports of an NDJSON stream, one per non-blank line, made as the lines are read.
#[pyclass(module = "jerry_contracts", name = "Lines", frozen)]
struct Lines {
    validator: validation::Validator,
    schema: Option<String>,
    source: Py<PyIterator>,
    /// Lines read so far, blank ones included: a record's line is the stream's.
    read: std::sync::atomic::AtomicUsize,
}

#[pymethods]
impl Lines {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Report>> {
        let mut source = self.source.bind(py).clone();
        loop {
            let Some(line) = source.next() else { return Ok(None) };
            let line = line?;
            let number = self.read.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            let bytes = document_bytes(&line)?;
            let text = bytes.trim_ascii();
            if text.is_empty() {
                continue;
            }
            let report = py.allow_threads(|| {
                let mut report = match self.schema.as_deref() {
                    Some(name) => self.validator.validate_as(name, text),
                    None => self.validator.validate(text),
                };
                report.add_positions(text, number);
                report
            });
            return Report::new(py, report).map(Some);
        }
    }
}

/// Validates one document (`str`, `bytes` or a parsed value).
#[pyfunction]
#[pyo3(signature = (doc, schema=None, *, root=None, session=None, strict=false))]
fn validate(
    py: Python<'_>,
    doc: &Bound<'_, PyAny>,
    schema: Option<String>,
    root: Option<PathBuf>,
    session: Option<String>,
    strict: bool,
) -> PyResult<Report> {
    Validator::new(root, session, strict, None, None, None).run(py, doc, schema.as_deref())
}

/// A report for each non-blank line of an iterable of NDJSON lines (`bytes` or `str`).
#[pyfunction]
#[pyo3(signature = (lines, schema=None, *, root=None, session=None, strict=false))]
fn validate_lines(
    lines: &Bound<'_, PyAny>,
    schema: Option<String>,
    root: Option<PathBuf>,
    session: Option<String>,
    strict: bool,
) -> PyResult<Lines> {
    Validator::new(root, session, strict, None, None, None).validate_lines(lines, schema)
}

/// The envelope migrated to `to`: the input text with only `schema_version` changed, so every
/// number, member and space stays as written.
#[pyfunction]
#[pyo3(signature = (doc, to="1.1.0"))]
fn migrate(py: Python<'_>, doc: &Bound<'_, PyAny>, to: &str) -> PyResult<String> {
    let bytes = document_bytes(doc)?;
    let bytes: &[u8] = &bytes;
    py.allow_threads(|| versions::migrate_text(bytes, to)).map_err(|e| raise(py, "MigrationError", e.to_string()))
}

/// A schema given to `diff`: a parsed value, its JSON text, or a registry name.
fn schema_value(py: Python<'_>, schema: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    if let Ok(name) = schema.downcast::<PyString>() {
        let name = name.to_cow()?;
        if let Some(info) = registry::lookup(&name) {
            return Ok(info.document.clone());
        }
    }
    let bytes = document_bytes(schema)?;
    serde_json::from_slice(&bytes).map_err(|e| raise(py, "DiffError", format!("not a JSON schema: {e}")))
}

/// The changes from schema `old` to `new`, each `MAJOR`, `MINOR` or `PATCH`, and the least bump
/// they need: `{"changes", "required", "declared", "ok"}`, as `jerry-contracts diff --format json`.
#[pyfunction]
fn diff<'py>(py: Python<'py>, old: &Bound<'py, PyAny>, new: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let (old, new) = (schema_value(py, old)?, schema_value(py, new)?);
    let verdict = py.allow_threads(|| schema_diff::verdict(&old, &new));
    value_to_py(py, &verdict.to_json())
}

/// A valid document of the schema named `name`.
#[pyfunction]
fn example<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    match examples::example(name) {
        Ok(document) => value_to_py(py, &document),
        Err(err @ examples::ExampleError::UnknownSchema(_)) => Err(raise(py, "UnknownSchema", err.to_string())),
        Err(err) => Err(raise(py, "JerryContractsError", err.to_string())),
    }
}

/// The schema named `name`, parsed from its embedded text.
#[pyfunction]
fn schema<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let Some(info) = registry::lookup(name) else {
        return Err(raise(py, "UnknownSchema", format!("no schema is named {name:?}")));
    };
    match jerry_contracts::EMBEDDED_SCHEMAS.iter().find(|e| e.path == info.path) {
        Some(embedded) => loads(py, embedded.text),
        None => value_to_py(py, &info.document),
    }
}

/// Every schema: `name`, `path`, `id`, `title`, `version`, `agent_id`, `schema_name`.
#[pyfunction]
fn schemas(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let list: Vec<serde_json::Value> = registry::schemas()
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
    value_to_py(py, &serde_json::Value::Array(list))
}

/// Runs the `jerry-contracts` command line `argv` (the program name first) exactly as the
/// binary does, writing to the process's standard output and error, and returns its exit
/// status. The console script `jerry-contracts` of the wheel (`jerry_contracts.__main__`) calls
/// it. Each argument crosses as the bytes `os.fsencode` gives (pyo3's `OsString`), so a file
/// name that is not UTF-8 (held by Python as surrogate escapes) reaches the command intact. The GIL is released while the command runs.
#[pyfunction]
fn command(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> u8 {
    py.allow_threads(|| jerry_contracts_cli::command::run(argv))
}

/// The text [`document_bytes`] judges for a parsed document when it writes it itself, or `None`
/// when it leaves it to `json.dumps`: for the tests, which hold it to `json.dumps`' text.
#[pyfunction]
fn _json_text<'py>(py: Python<'py>, doc: &Bound<'py, PyAny>) -> Option<Bound<'py, PyBytes>> {
    json_text::write(doc).map(|text| PyBytes::new(py, &text))
}

/// What became of a document given to [`Store::put`]: `"written"`, `"unchanged"`, `"refused"`
/// or `"withheld"` (valid, but its batch had a refused document).
fn outcome_word(outcome: jerry_contracts_store::Outcome) -> &'static str {
    use jerry_contracts_store::Outcome;
    match outcome {
        Outcome::Written => "written",
        Outcome::Unchanged => "unchanged",
        Outcome::Refused => "refused",
        Outcome::Withheld => "withheld",
        _ => "unknown",
    }
}

/// A store error as the exception of `jerry_contracts.errors` it is: `StoreConflict` for a
/// stored artifact with other content, `UnknownSchema`, else `StoreError`.
fn store_error(py: Python<'_>, err: jerry_contracts_store::StoreError) -> PyErr {
    use jerry_contracts_store::StoreError;
    let class = match &err {
        StoreError::Conflict { .. } => "StoreConflict",
        StoreError::UnknownSchema(_) => "UnknownSchema",
        _ => "StoreError",
    };
    raise(py, class, err.to_string())
}

/// One document's outcome in the store: its report and what became of it.
#[pyclass(module = "jerry_contracts", name = "Put", frozen)]
struct Put {
    report: Py<Report>,
    outcome: &'static str,
}

#[pymethods]
impl Put {
    /// Every record of every layer, and of the store's references (REF-008, REF-009).
    #[getter]
    fn report(&self, py: Python<'_>) -> Py<Report> {
        self.report.clone_ref(py)
    }

    /// `"written"`, `"unchanged"`, `"refused"` or `"withheld"`.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.outcome
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<Put {} {}>", self.outcome, self.report.borrow(py).__repr__())
    }
}

/// The artifact store in PostgreSQL (`jerry-contracts-store`, D-217): validated writes, exact
/// reads. One connection, used by one thread at a time (a lock), the GIL released while it
/// works.
#[pyclass(module = "jerry_contracts", name = "Store", frozen)]
struct Store {
    inner: std::sync::Mutex<jerry_contracts_store::Store>,
}

impl Store {
    /// Runs `work` on the connection with the GIL released.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut jerry_contracts_store::Store) -> Result<T, jerry_contracts_store::StoreError> + Send,
    ) -> PyResult<T> {
        let done = py.allow_threads(|| {
            let mut store = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            work(&mut store)
        });
        done.map_err(|err| store_error(py, err))
    }
}

#[pymethods]
impl Store {
    /// Connects to the database named by `database`: a URL or libpq key-value pairs (no TLS).
    #[new]
    fn new(py: Python<'_>, database: &str) -> PyResult<Self> {
        let connected = py.allow_threads(|| jerry_contracts_store::Store::connect(database));
        let store = connected.map_err(|err| store_error(py, err))?;
        Ok(Store { inner: std::sync::Mutex::new(store) })
    }

    /// Applies the migrations of the store's tables the database lacks; how many.
    fn migrate(&self, py: Python<'_>) -> PyResult<usize> {
        self.with(py, |store| store.migrate())
    }

    /// The newest migration the database has (0 for none).
    fn applied(&self, py: Python<'_>) -> PyResult<u32> {
        self.with(py, |store| store.applied())
    }

    /// Validates `doc` (all four layers, then its mission and task against what is stored) and
    /// writes it if it is valid.
    fn put(&self, py: Python<'_>, doc: &Bound<'_, PyAny>) -> PyResult<Put> {
        let bytes = document_bytes(doc)?.into_owned();
        let put = self.with(py, |store| store.put(&bytes))?;
        Ok(Put { report: Py::new(py, Report::new(py, put.report)?)?, outcome: outcome_word(put.outcome) })
    }

    /// As `put`, for a batch written in one transaction: all of it, or none when any document
    /// is refused. The outcomes come in the documents' order.
    fn put_many(&self, py: Python<'_>, docs: &Bound<'_, PyAny>) -> PyResult<Vec<Put>> {
        let mut all = Vec::new();
        for doc in docs.try_iter()? {
            all.push(document_bytes(&doc?)?.into_owned());
        }
        let puts = self.with(py, |store| store.put_many(&all.iter().map(Vec::as_slice).collect::<Vec<_>>()))?;
        puts.into_iter()
            .map(|put| {
                Ok(Put { report: Py::new(py, Report::new(py, put.report)?)?, outcome: outcome_word(put.outcome) })
            })
            .collect()
    }

    /// The stored text of an artifact, exactly as it was put, or `None`.
    fn get(&self, py: Python<'_>, schema: &str, mission_id: &str, id: &str) -> PyResult<Option<String>> {
        self.with(py, |store| store.get(schema, mission_id, id))
    }

    /// Every stored artifact of a mission: `{"schema", "id", "document"}` each.
    fn mission<'py>(&self, py: Python<'py>, mission_id: &str) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        let stored = self.with(py, |store| store.mission(mission_id))?;
        stored
            .into_iter()
            .map(|artifact| {
                let dict = pyo3::types::PyDict::new(py);
                dict.set_item("schema", artifact.schema)?;
                dict.set_item("id", artifact.id)?;
                dict.set_item("document", artifact.document)?;
                Ok(dict)
            })
            .collect()
    }

    /// The task records of a mission's stored task graph, as JSON text, by task id.
    fn tasks(&self, py: Python<'_>, mission_id: &str) -> PyResult<Vec<String>> {
        self.with(py, |store| store.tasks(mission_id))
    }
}

/// The native module, `jerry_contracts._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Record>()?;
    module.add_class::<Report>()?;
    module.add_class::<Validator>()?;
    module.add_class::<Lines>()?;
    module.add_class::<Put>()?;
    module.add_class::<Store>()?;
    module.add_function(wrap_pyfunction!(validate, module)?)?;
    module.add_function(wrap_pyfunction!(validate_lines, module)?)?;
    module.add_function(wrap_pyfunction!(migrate, module)?)?;
    module.add_function(wrap_pyfunction!(diff, module)?)?;
    module.add_function(wrap_pyfunction!(example, module)?)?;
    module.add_function(wrap_pyfunction!(schema, module)?)?;
    module.add_function(wrap_pyfunction!(schemas, module)?)?;
    module.add_function(wrap_pyfunction!(command, module)?)?;
    module.add_function(wrap_pyfunction!(_json_text, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
