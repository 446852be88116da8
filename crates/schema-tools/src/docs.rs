//! Schema documentation: one Markdown page per schema file (`docs/schemas/<path>.md`) and an index
//! (`docs/schemas/README.md`) with the agent handoff graph.
//!
//! A page gives the schema's title, description, `$id`, version and Rust type; a property table per
//! object (the root, every definition, every inline object), with each `$ref` linked to the page
//! and anchor of its target; the schema's valid fixtures as examples; and, for agent outputs, who
//! produces and who consumes the document. Every anchor a link points at is an explicit
//! `<a id="…"></a>`, so links can be checked without a Markdown renderer.
//!
//! The output is deterministic: properties are listed required first (in `required` order), then
//! by name; definitions, pages and agents are sorted; nothing depends on the clock or on the
//! iteration order of a JSON object.
//!
//! [`write()`] puts the pages in a directory and removes the stale ones there. Every page starts
//! with the generated-page [`MARKER`], and `write` overwrites or removes only files that carry it
//! (unless told to overwrite with `force`); it never follows a symbolic link.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs;
use std::io::{self, ErrorKind, Read, Write};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::fixtures::{self, FixtureSet};
use jerry_contracts_codegen::corpus::{Corpus, CorpusError, Problem, Schema, relative_path};
use jerry_contracts_codegen::plan::{self, Plan, TypeDef};

/// Name of the index page, relative to the output directory.
pub const INDEX: &str = "README.md";

/// The schema whose page also lists the rows of the cross-pollination matrix.
pub const MATRIX_SCHEMA: &str = "workflows/cross_pollination.json";

/// The crate the generated types live in, as a path prefix.
const CRATE: &str = "jerry_contracts";

/// The generated-page marker: the first line of every page [`render`] gives. [`write()`] overwrites
/// and removes only files that start with it.
pub const MARKER: &str = "<!-- Generated from schemas/ by `jerry-contracts docs`; do not edit by hand. -->";

/// Groups of the index: directory prefix under `schemas/` and heading, in reading order.
const GROUPS: &[(&str, &str)] = &[
    ("session_context/", "Envelope"),
    ("common/", "Common"),
    ("agents/ps/", "PS agents"),
    ("agents/nse/", "NSE agents"),
    ("workflows/", "Workflows"),
    ("mission/", "Mission"),
    ("orchestration/", "Orchestration"),
    ("infrastructure/", "Infrastructure"),
];

/// Why the documentation could not be rendered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DocsError {
    /// The schema directory could not be read.
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    /// Problems in the schemas (convention breaches, broken `$ref`s, types that cannot be planned).
    #[error("{} problem(s) in the schemas:\n{}", .0.len(), lines(.0))]
    Schemas(Vec<Problem>),
    /// Problems in the fixture tree.
    #[error("{} problem(s) in the fixtures:\n{}", .0.len(), lines(.0))]
    Fixtures(Vec<Problem>),
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: io::Error,
    },
    /// The cross-pollination matrix is not an array of well-formed rows.
    #[error("{}: {message}", path.display())]
    Matrix {
        /// The matrix file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

fn lines(problems: &[Problem]) -> String {
    problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// Renders the documentation of the schemas under `schemas_dir`, with the valid fixtures under
/// `fixtures_dir` as examples and the handoffs of `matrix_file` (the cross-pollination matrix).
/// Returns page path (relative to the output directory, e.g. `agents/ps/researcher_output.md`)
/// → Markdown text; [`INDEX`] is the index.
pub fn render(
    schemas_dir: &Path,
    fixtures_dir: &Path,
    matrix_file: &Path,
) -> Result<BTreeMap<PathBuf, String>, DocsError> {
    let corpus = Corpus::load(schemas_dir)?;
    if !corpus.problems.is_empty() {
        return Err(DocsError::Schemas(corpus.problems));
    }
    let (_, problems) = corpus.references();
    if !problems.is_empty() {
        return Err(DocsError::Schemas(problems));
    }
    let plan = plan::plan(&corpus).map_err(DocsError::Schemas)?;
    let (fixture_sets, problems) = fixtures::discover(fixtures_dir, &corpus);
    if !problems.is_empty() {
        return Err(DocsError::Fixtures(problems));
    }
    let matrix = read_matrix(matrix_file)?;
    let site = Site {
        corpus: &corpus,
        plan: &plan,
        anchors: corpus.schemas.iter().map(|s| (s.path.clone(), anchors_of(s))).collect(),
        agents: agents_of(&corpus),
        matrix,
        fixtures: fixture_sets,
        fixtures_dir,
        ambiguous: ambiguous_names(&plan),
    };
    let mut pages = BTreeMap::new();
    for schema in &corpus.schemas {
        let page = page_of(&schema.path);
        let text = Page::new(&site, schema).render()?;
        pages.insert(PathBuf::from(page), text);
    }
    pages.insert(PathBuf::from(INDEX), site.index());
    Ok(pages)
}

/// Public names that more than one planned type has.
fn ambiguous_names(plan: &Plan) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut twice = BTreeSet::new();
    for t in &plan.types {
        if !seen.insert(t.public.clone()) {
            twice.insert(t.public.clone());
        }
    }
    twice
}

/// What [`write()`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Written {
    /// Pages written: new ones, and ones whose content changed.
    pub written: usize,
    /// Pages whose file already had the right content, so was not rewritten.
    pub unchanged: usize,
    /// Stale generated pages removed (pages that `pages` no longer holds).
    pub removed: usize,
}

/// Writes `pages` (as [`render`] returns them) below `out_dir` and removes the stale generated
/// pages there, touching nothing it did not generate:
///
/// - A *generated page* is a regular `*.md` file whose first line is [`MARKER`]. Only generated
///   pages are overwritten or removed. A file without the marker at a page's path is an error and
///   nothing is written, unless `force` is set: then it is overwritten (if it is a regular file).
///   Removal is for generated pages only, `force` or not.
/// - Symbolic links are never followed, written through or removed: a link at a page's path, at a
///   directory between `out_dir` and a page, or at `out_dir` itself is an error naming it (the
///   ancestors of `out_dir` are the caller's choice and may be links). The search for stale pages
///   does not descend into linked directories, so a link cycle cannot trap it.
/// - A non-empty `out_dir` that holds no generated page is refused unless `force` is set (the
///   error says to pass `--force`): it is most likely not a documentation directory.
/// - Every page's path is checked before anything is written (or `out_dir` created), so a
///   refusal leaves the tree as it was.
/// - Each page is written atomically: to a new temporary file `.<name>.tmp-<pid>-<n>` in its
///   directory (never a page's name, as pages end in `.md`), then renamed over the target; the
///   temporary file is removed if that fails. A page whose file already has the right content is
///   not rewritten.
/// - Generated pages below `out_dir` that `pages` does not hold are removed, then the directories
///   that removal leaves empty (below `out_dir`, never `out_dir` itself).
///
/// `out_dir` is created, with its ancestors, when missing. Page paths must be relative, made of
/// plain components, and end in `.md`. Every error names the offending path. The checks see the
/// tree as it is found: one changed by someone else while this runs is not defended against.
pub fn write(out_dir: &Path, pages: &BTreeMap<PathBuf, String>, force: bool) -> io::Result<Written> {
    for relative in pages.keys() {
        let plain = relative.components().all(|c| matches!(c, Component::Normal(_)));
        if !plain || relative.as_os_str().is_empty() || relative.extension().is_none_or(|e| e != "md") {
            let what = "is not a page path: it must be relative, stay below the output directory and end in `.md`";
            return Err(refusal(ErrorKind::InvalidInput, relative, what));
        }
        if let Some(page) = relative.ancestors().skip(1).find(|a| pages.contains_key(*a)) {
            let what = format!("is below {}, which is a page, not a directory", page.display());
            return Err(refusal(ErrorKind::InvalidInput, relative, &what));
        }
    }
    let exists = match fs::symlink_metadata(out_dir) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let what = "is a symbolic link, which is never followed; pass the directory it points to";
            return Err(refusal(ErrorKind::InvalidInput, out_dir, what));
        }
        Ok(meta) if !meta.is_dir() => return Err(refusal(ErrorKind::InvalidInput, out_dir, "is not a directory")),
        Ok(_) => true,
        Err(err) if err.kind() == ErrorKind::NotFound => false,
        Err(err) => return Err(at(out_dir, err)),
    };
    let (generated, occupied) = if exists { generated_pages(out_dir)? } else { (BTreeSet::new(), false) };
    if occupied && generated.is_empty() && !force {
        let what = "is not empty and holds no generated page (no `*.md` file starting with the generated-page \
                    marker), so it may not be a documentation directory; pass --force to write into it anyway";
        return Err(refusal(ErrorKind::AlreadyExists, out_dir, what));
    }
    // Every page is checked before any is written.
    let mut checked = Vec::with_capacity(pages.len());
    for (relative, text) in pages {
        directories(out_dir, relative, false)?;
        let path = out_dir.join(relative);
        let unchanged = match fs::symlink_metadata(&path) {
            Err(err) if err.kind() == ErrorKind::NotFound => false,
            Err(err) => return Err(at(&path, err)),
            Ok(meta) if meta.file_type().is_symlink() => {
                let what = "is a symbolic link, which is never written through; remove it";
                return Err(refusal(ErrorKind::InvalidInput, &path, what));
            }
            Ok(meta) if !meta.is_file() => {
                return Err(refusal(ErrorKind::InvalidInput, &path, "is in the way of a page: not a regular file"));
            }
            Ok(meta) => {
                let (same, marked) = compare_page(&path, meta.len(), text)?;
                if !same && !marked && !force {
                    let what = "exists and was not generated (it does not start with the generated-page marker); \
                                not overwriting it: move it away, or pass --force to overwrite it";
                    return Err(refusal(ErrorKind::AlreadyExists, &path, what));
                }
                same
            }
        };
        checked.push((relative, text, unchanged));
    }
    if !exists {
        fs::create_dir_all(out_dir).map_err(|e| at(out_dir, e))?;
    }
    let mut done = Written::default();
    for (relative, text, unchanged) in checked {
        if unchanged {
            done.unchanged += 1;
            continue;
        }
        directories(out_dir, relative, true)?;
        write_atomically(&out_dir.join(relative), text)?;
        done.written += 1;
    }
    for relative in generated.iter().filter(|r| !pages.contains_key(*r)) {
        let path = out_dir.join(relative);
        // Still the regular file the search found (never a link put there since).
        if !fs::symlink_metadata(&path).map_err(|e| at(&path, e))?.is_file() {
            continue;
        }
        fs::remove_file(&path).map_err(|e| at(&path, e))?;
        done.removed += 1;
        let mut dir = relative.parent();
        while let Some(current) = dir.filter(|d| !d.as_os_str().is_empty()) {
            let full = out_dir.join(current);
            let is_dir = fs::symlink_metadata(&full).is_ok_and(|m| m.is_dir());
            if !is_dir || fs::read_dir(&full).map_err(|e| at(&full, e))?.next().is_some() {
                break;
            }
            fs::remove_dir(&full).map_err(|e| at(&full, e))?;
            dir = current.parent();
        }
    }
    Ok(done)
}

/// An I/O error with the path it concerns.
fn at(path: &Path, err: io::Error) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {err}", path.display()))
}

/// A refusal to touch `path`, saying why.
fn refusal(kind: ErrorKind, path: &Path, what: &str) -> io::Error {
    io::Error::new(kind, format!("{}: {what}", path.display()))
}

/// How many bytes of a file [`is_marked`] needs: the marker and a line end.
const HEAD: u64 = MARKER.len() as u64 + 2;

/// Whether a file's first bytes are [`MARKER`] as a whole line.
fn is_marked(head: &[u8]) -> bool {
    head.strip_prefix(MARKER.as_bytes())
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(b"\n") || rest.starts_with(b"\r\n"))
}

/// Reads at most `limit` bytes from the start of the regular file at `path`.
fn read_head(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = fs::File::open(path).map_err(|e| at(path, e))?;
    let mut head = Vec::new();
    file.take(limit).read_to_end(&mut head).map_err(|e| at(path, e))?;
    Ok(head)
}

/// Whether the regular file at `path` (`len` bytes long) already holds `text`, and whether it
/// carries [`MARKER`]. Only a file of the right length is read whole.
fn compare_page(path: &Path, len: u64, text: &str) -> io::Result<(bool, bool)> {
    if len == text.len() as u64 {
        let content = read_head(path, len.saturating_add(1))?;
        Ok((content == text.as_bytes(), is_marked(&content)))
    } else {
        Ok((false, is_marked(&read_head(path, HEAD)?)))
    }
}

/// Checks the directories between `out_dir` and the page at `relative`: each must be a directory,
/// not a symbolic link. A missing one is created when `create` is set; otherwise the check stops
/// there (the ones below it are missing too).
fn directories(out_dir: &Path, relative: &Path, create: bool) -> io::Result<()> {
    let Some(parent) = relative.parent() else { return Ok(()) };
    let mut dir = out_dir.to_path_buf();
    for component in parent.components() {
        dir.push(component);
        match fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(meta) if meta.file_type().is_symlink() => {
                let what = "is a symbolic link, which is never followed; remove it";
                return Err(refusal(ErrorKind::InvalidInput, &dir, what));
            }
            Ok(_) => return Err(refusal(ErrorKind::InvalidInput, &dir, "is in the way of a page: not a directory")),
            Err(err) if err.kind() == ErrorKind::NotFound && create => {
                fs::create_dir(&dir).map_err(|e| at(&dir, e))?;
            }
            Err(err) if err.kind() == ErrorKind::NotFound => return Ok(()),
            Err(err) => return Err(at(&dir, err)),
        }
    }
    Ok(())
}

/// The generated pages below `out_dir` (regular `*.md` files carrying [`MARKER`]), relative to it,
/// and whether `out_dir` holds anything at all. Symbolic links are neither followed nor listed.
fn generated_pages(out_dir: &Path) -> io::Result<(BTreeSet<PathBuf>, bool)> {
    let mut found = BTreeSet::new();
    let mut occupied = false;
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let dir = out_dir.join(&relative);
        for entry in fs::read_dir(&dir).map_err(|e| at(&dir, e))? {
            let entry = entry.map_err(|e| at(&dir, e))?;
            occupied = true;
            // The entry's own type: a symbolic link is a link here, whatever it points to.
            let kind = entry.file_type().map_err(|e| at(&entry.path(), e))?;
            let child = relative.join(entry.file_name());
            if kind.is_dir() {
                pending.push(child);
            } else if kind.is_file()
                && child.extension().is_some_and(|e| e == "md")
                && is_marked(&read_head(&entry.path(), HEAD)?)
            {
                found.insert(child);
            }
        }
    }
    Ok((found, occupied))
}

/// Writes `text` to a new temporary file next to `path`, then renames it over `path` (which
/// replaces a directory entry, never writing through a link). The temporary file is removed when
/// anything fails.
fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(refusal(ErrorKind::InvalidInput, path, "is not a page path"));
    };
    let pid = std::process::id();
    let mut attempt = 0_u32;
    let (temp, mut file) = loop {
        let mut temp_name = OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".tmp-{pid}-{attempt}"));
        let temp = dir.join(temp_name);
        match fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => break (temp, file),
            Err(err) if err.kind() == ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(err) => return Err(at(&temp, err)),
        }
    };
    let written = file.write_all(text.as_bytes()).and_then(|()| file.sync_all()).map_err(|e| at(&temp, e));
    drop(file);
    let result = written.and_then(|()| fs::rename(&temp, path).map_err(|e| at(path, e)));
    if result.is_err() {
        // Best effort: the error that matters is the one returned.
        let _ = fs::remove_file(&temp);
    }
    result
}

/// One row of the cross-pollination matrix.
#[derive(Debug, Clone)]
struct MatrixRow {
    source: String,
    target: String,
    from: String,
    to: String,
    validation: String,
}

fn read_matrix(path: &Path) -> Result<Vec<MatrixRow>, DocsError> {
    let text = jerry_contracts_codegen::files::read_text(path)
        .map_err(|source| DocsError::Read { path: path.to_owned(), source })?;
    let bad = |message: String| DocsError::Matrix { path: path.to_owned(), message };
    let value: Value = serde_json::from_str(&text).map_err(|err| bad(format!("not valid JSON: {err}")))?;
    let rows = value.as_array().ok_or_else(|| bad("must be an array of rows".to_owned()))?;
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let field = |pointer: &str| {
            row.pointer(pointer)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| bad(format!("row {i}: {pointer} must be a string")))
        };
        out.push(MatrixRow {
            source: field("/source_agent")?,
            target: field("/target_agent")?,
            from: field("/payload_mapping/from")?,
            to: field("/payload_mapping/to")?,
            validation: field("/validation")?,
        });
    }
    Ok(out)
}

/// An agent with an output schema.
#[derive(Debug, Clone)]
struct Agent {
    /// Page of its output schema.
    page: String,
    /// The non-null values of its `next_agent_hint` enum, in schema order.
    hints: Vec<String>,
    /// Whether `next_agent_hint` may be `null` (the chain may end here).
    may_end: bool,
}

/// Agents by id: every schema whose root has a constant `agent_id` is that agent's output.
fn agents_of(corpus: &Corpus) -> BTreeMap<String, Agent> {
    let mut agents = BTreeMap::new();
    for schema in &corpus.schemas {
        let Some(id) = schema.document.pointer("/properties/agent_id/const").and_then(Value::as_str) else {
            continue;
        };
        let hint = schema.document.pointer("/properties/next_agent_hint");
        let values = hint.and_then(|h| h.get("enum")).and_then(Value::as_array);
        let hints = values.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect();
        let may_end = values.is_some_and(|v| v.contains(&Value::Null))
            || hint.and_then(|h| h.get("type")).and_then(Value::as_array).is_some_and(|t| t.contains(&"null".into()));
        agents.entry(id.to_owned()).or_insert(Agent { page: page_of(&schema.path), hints, may_end });
    }
    agents
}

/// Page path of a schema path: `agents/ps/researcher_output.json` → `agents/ps/researcher_output.md`.
fn page_of(schema_path: &str) -> String {
    format!("{}.md", schema_path.strip_suffix(".json").unwrap_or(schema_path))
}

/// Relative link from one page to another (both relative to the output directory).
fn relative_link(from_page: &str, to_page: &str) -> String {
    let mut from_dirs: Vec<&str> = from_page.split('/').collect();
    from_dirs.pop();
    let to: Vec<&str> = to_page.split('/').collect();
    let Some((file, to_dirs)) = to.split_last() else { return to_page.to_owned() };
    let common = from_dirs.iter().zip(to_dirs).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from_dirs.len() - common];
    parts.extend(&to_dirs[common..]);
    parts.push(file);
    parts.join("/")
}

/// The anchors of one schema's page, by JSON Pointer: definitions take their name, the root
/// `root`, inline objects their pointer with `/` as `-`; a clash takes a numeric suffix.
fn anchors_of(schema: &Schema) -> BTreeMap<String, String> {
    let mut anchors = BTreeMap::new();
    let mut used = BTreeSet::new();
    let mut claim = |pointer: String, wanted: String| {
        let mut anchor = wanted.clone();
        let mut n = 2;
        while used.contains(&anchor) {
            anchor = format!("{wanted}-{n}");
            n += 1;
        }
        used.insert(anchor.clone());
        anchors.entry(pointer).or_insert(anchor);
    };
    let definitions = definitions_of(schema);
    for (name, pointer, _) in &definitions {
        claim(pointer.clone(), sanitize(name));
    }
    let mut tables = Vec::new();
    if schema.has_root_type() {
        claim(String::new(), "root".to_owned());
        nested_objects(&schema.document, "", &mut tables);
    }
    for (_, pointer, node) in &definitions {
        nested_objects(node, pointer, &mut tables);
    }
    for (pointer, _) in tables {
        let wanted = sanitize(&pointer.trim_start_matches('/').replace('/', "-"));
        claim(pointer, wanted);
    }
    anchors
}

/// `(name, pointer, schema)` of every definition, sorted by name.
fn definitions_of(schema: &Schema) -> Vec<(String, String, &Value)> {
    schema
        .definition_names()
        .into_iter()
        .filter_map(|name| {
            let pointer = format!("/definitions/{}", jerry_contracts_pointer::escape(&name));
            schema.document.pointer(&pointer).map(|node| (name, pointer, node))
        })
        .collect()
}

/// An HTML id made of `[A-Za-z0-9_-]`.
fn sanitize(text: &str) -> String {
    let id: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '-' }).collect();
    if id.is_empty() { "anchor".to_owned() } else { id }
}

/// Whether a schema is an inline object with declared properties (it gets a table of its own).
fn is_object(node: &Value) -> bool {
    node.get("$ref").is_none() && node.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty())
}

/// The properties of an object schema in reading order: required ones in `required` order, then
/// the others by name.
fn ordered_properties(node: &Value) -> Vec<(&str, &Value, bool)> {
    let Some(properties) = node.get("properties").and_then(Value::as_object) else { return Vec::new() };
    let required: Vec<&str> =
        node.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let mut out: Vec<(&str, &Value, bool)> = Vec::new();
    let mut listed = BTreeSet::new();
    for name in &required {
        if let Some((key, value)) = properties.get_key_value(*name) {
            if listed.insert(key.as_str()) {
                out.push((key.as_str(), value, true));
            }
        }
    }
    let required: BTreeSet<&str> = required.into_iter().collect();
    let mut rest: Vec<(&str, &Value)> =
        properties.iter().filter(|(k, _)| !required.contains(k.as_str())).map(|(k, v)| (k.as_str(), v)).collect();
    rest.sort_by(|a, b| a.0.cmp(b.0));
    out.extend(rest.into_iter().map(|(k, v)| (k, v, false)));
    out
}

/// Inline objects with declared properties below `node` (not `node` itself), depth first in
/// reading order, as `(pointer, schema)`.
fn nested_objects<'v>(node: &'v Value, pointer: &str, out: &mut Vec<(String, &'v Value)>) {
    if node.get("$ref").is_some() || node.get("if").is_some() {
        return;
    }
    for (name, child, _) in ordered_properties(node) {
        visit(child, format!("{pointer}/properties/{}", jerry_contracts_pointer::escape(name)), out);
    }
    if let Some(items) = node.get("items").filter(|i| i.is_object()) {
        visit(items, format!("{pointer}/items"), out);
    }
    if let Some(values) = node.get("additionalProperties").filter(|a| a.is_object()) {
        visit(values, format!("{pointer}/additionalProperties"), out);
    }
}

fn visit<'v>(node: &'v Value, pointer: String, out: &mut Vec<(String, &'v Value)>) {
    if is_object(node) {
        out.push((pointer.clone(), node));
    }
    nested_objects(node, &pointer, out);
}

/// `jerry_contracts::<module>::<Name>` of a planned type.
fn rust_path(t: &TypeDef) -> String {
    let mut parts = vec![CRATE.to_owned()];
    parts.extend(t.module.iter().cloned());
    parts.push(t.public.clone());
    parts.join("::")
}

/// Compact JSON with object keys sorted, so the text does not depend on how `serde_json` orders maps.
fn json(value: &Value) -> String {
    match value {
        Value::Array(items) => format!("[{}]", items.iter().map(json).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> =
                keys.into_iter().map(|k| format!("{}: {}", Value::String(k.clone()), json(&map[k]))).collect();
            format!("{{{}}}", fields.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

/// Inline code, with a longer fence when the text holds a backtick.
fn code(text: &str) -> String {
    if text.contains('`') { format!("`` {text} ``") } else { format!("`{text}`") }
}

/// Prose from a schema, on one line, with `<` and `&` escaped so it cannot open an HTML tag.
fn prose(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").replace('&', "&amp;").replace('<', "&lt;")
}

/// A table cell: `|` escaped, on one line.
fn cell(text: &str) -> String {
    text.replace('\n', " ").replace('|', "\\|")
}

/// Everything the pages share.
struct Site<'a> {
    corpus: &'a Corpus,
    plan: &'a Plan,
    /// Schema path → pointer → anchor on its page.
    anchors: BTreeMap<String, BTreeMap<String, String>>,
    agents: BTreeMap<String, Agent>,
    matrix: Vec<MatrixRow>,
    fixtures: Vec<FixtureSet>,
    fixtures_dir: &'a Path,
    /// Public Rust names used in more than one module; links to them name the module too.
    ambiguous: BTreeSet<String>,
}

impl Site<'_> {
    /// How a link names a planned type: its public name, qualified by its module when another
    /// module has a type of the same name (`ps::ReviewerOutput`).
    fn type_name(&self, t: &TypeDef) -> String {
        match t.module.last() {
            Some(module) if self.ambiguous.contains(&t.public) => format!("{module}::{}", t.public),
            _ => t.public.clone(),
        }
    }

    /// A link to an agent's output page from `page`, or the plain id when it has none.
    fn agent_link(&self, page: &str, id: &str) -> String {
        match self.agents.get(id) {
            Some(agent) if agent.page == page => code(id),
            Some(agent) => format!("[{}]({})", code(id), relative_link(page, &agent.page)),
            None => code(id),
        }
    }

    /// The index page.
    fn index(&self) -> String {
        let mut out = String::new();
        out.push_str(MARKER);
        out.push_str("\n# Schema reference\n\n");
        out.push_str(&format!(
            "{} schema files under `schemas/`, each with its properties, constraints, Rust type and examples. \
             Agent outputs also say which agents produce and consume them.\n",
            self.corpus.schemas.len()
        ));
        let mut groups: Vec<(String, Vec<&Schema>)> = Vec::new();
        for (prefix, heading) in GROUPS {
            let members: Vec<&Schema> = self.corpus.schemas.iter().filter(|s| s.path.starts_with(prefix)).collect();
            if !members.is_empty() {
                groups.push(((*heading).to_owned(), members));
            }
        }
        let others: Vec<&Schema> = self
            .corpus
            .schemas
            .iter()
            .filter(|s| !GROUPS.iter().any(|(prefix, _)| s.path.starts_with(prefix)))
            .collect();
        if !others.is_empty() {
            groups.push(("Other".to_owned(), others));
        }
        for (heading, members) in groups {
            out.push_str(&format!("\n## {heading}\n\n| schema | Rust type | description |\n|---|---|---|\n"));
            for schema in members {
                let title = schema.title().map_or_else(|| schema.path.clone(), prose);
                let rust =
                    self.plan.at(&schema.path, "").map_or_else(|| "definitions".to_owned(), |t| code(&rust_path(t)));
                let description =
                    schema.document.get("description").and_then(Value::as_str).map(prose).unwrap_or_default();
                out.push_str(&format!(
                    "| {} | {} | {} |\n",
                    cell(&format!("[{title}]({}) ({})", page_of(&schema.path), code(&schema.path))),
                    cell(&rust),
                    cell(&description)
                ));
            }
        }
        out.push_str("\n## Agent handoffs\n\n");
        out.push_str(
            "An arrow for every agent its output's `next_agent_hint` may name, and a labelled arrow \
             (`from` → `to`) for every row of the cross-pollination matrix.\n\n",
        );
        out.push_str(&self.mermaid());
        out
    }

    /// The handoff graph as a Mermaid flowchart.
    fn mermaid(&self) -> String {
        let mut nodes: BTreeSet<&str> = BTreeSet::new();
        for (id, agent) in &self.agents {
            nodes.insert(id);
            nodes.extend(agent.hints.iter().map(String::as_str));
        }
        for row in &self.matrix {
            nodes.insert(&row.source);
            nodes.insert(&row.target);
        }
        let mut out = String::from("```mermaid\nflowchart LR\n");
        for node in &nodes {
            out.push_str(&format!("    {}[\"{}\"]\n", node_id(node), mermaid_text(node)));
        }
        for (id, agent) in &self.agents {
            for hint in &agent.hints {
                out.push_str(&format!("    {} --> {}\n", node_id(id), node_id(hint)));
            }
        }
        for row in &self.matrix {
            out.push_str(&format!(
                "    {} -- \"{} → {}\" --> {}\n",
                node_id(&row.source),
                mermaid_text(&row.from),
                mermaid_text(&row.to),
                node_id(&row.target)
            ));
        }
        out.push_str("```\n");
        out
    }
}

/// A Mermaid node id: `[A-Za-z0-9_]` only (`ps-researcher` → `ps_researcher`).
fn node_id(agent: &str) -> String {
    let id: String = agent.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if id.is_empty() { "_".to_owned() } else { id }
}

/// Text inside a quoted Mermaid label.
fn mermaid_text(text: &str) -> String {
    text.replace('"', "#quot;")
}

/// One schema's page being written.
struct Page<'a> {
    site: &'a Site<'a>,
    schema: &'a Schema,
    page: String,
    out: String,
}

impl<'a> Page<'a> {
    fn new(site: &'a Site<'a>, schema: &'a Schema) -> Self {
        Self { site, schema, page: page_of(&schema.path), out: String::new() }
    }

    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn render(mut self) -> Result<String, DocsError> {
        let schema = self.schema;
        let document = &schema.document;
        self.line(MARKER);
        self.line(&format!("# {}", schema.title().map_or_else(|| schema.path.clone(), prose)));
        if let Some(description) = document.get("description").and_then(Value::as_str) {
            self.line("");
            self.line(&prose(description));
        }
        self.line("");
        self.line(&format!("- **Schema:** {}", code(&format!("schemas/{}", schema.path))));
        self.line(&format!("- **`$id`:** {}", code(&schema.id)));
        self.line(&format!("- **Version:** {}", self.version()));
        let rust = match self.site.plan.at(&schema.path, "") {
            Some(t) => code(&rust_path(t)),
            None => "— (a definition library: one type per definition)".to_owned(),
        };
        self.line(&format!("- **Rust type:** {rust}"));
        self.line(&format!("- **Index:** [all schemas]({})", relative_link(&self.page, INDEX)));
        if schema.document.to_string().contains("\"x-convention\"") {
            self.line(&format!(
                "- **Conventions:** constraints marked *convention* are the project's own, beyond what the seeds state: a warning (`CNV-*`), an error only with `--strict` ([sources]({}))",
                relative_link(&self.page, "../constraints.md")
            ));
        }
        self.agents_section();
        if schema.path == MATRIX_SCHEMA {
            self.matrix_section();
        }
        if schema.has_root_type() {
            self.line("");
            self.line(r#"<a id="root"></a>"#);
            self.line("");
            self.line("## Properties");
            self.body(document, "", "###");
        }
        let definitions = definitions_of(schema);
        if !definitions.is_empty() {
            self.line("");
            self.line("## Definitions");
            for (name, pointer, node) in definitions {
                self.definition(&name, &pointer, node)?;
            }
        }
        if schema.has_root_type() {
            let examples = self.examples(None)?;
            if !examples.is_empty() {
                self.line("");
                self.line("## Examples");
                self.out.push_str(&examples);
            }
        }
        Ok(self.out)
    }

    /// The version: the envelope's from its file name, a mission artifact's from its
    /// `schema_version` constant, else none.
    fn version(&self) -> String {
        let path = &self.schema.path;
        if let Some(file) = path.strip_prefix("session_context/") {
            let version = file.trim_end_matches(".json").trim_start_matches('v');
            return code(version);
        }
        if path.starts_with("mission/") {
            if let Some(version) =
                self.schema.document.pointer("/properties/schema_version/const").and_then(Value::as_str)
            {
                return code(version);
            }
        }
        "—".to_owned()
    }

    fn anchor(&self, pointer: &str) -> Option<&str> {
        self.site.anchors.get(&self.schema.path).and_then(|a| a.get(pointer)).map(String::as_str)
    }

    fn definition(&mut self, name: &str, pointer: &str, node: &Value) -> Result<(), DocsError> {
        let anchor = self.anchor(pointer).map_or_else(|| sanitize(name), str::to_owned);
        let planned = self.site.plan.at(&self.schema.path, pointer);
        self.line("");
        self.line(&format!("<a id=\"{anchor}\"></a>"));
        self.line("");
        let title = planned.map_or_else(|| code(name), |t| format!("{} — {}", code(name), code(&t.public)));
        self.line(&format!("### {title}"));
        if let Some(description) = node.get("description").and_then(Value::as_str) {
            self.line("");
            self.line(&prose(description));
        }
        if let Some(t) = planned {
            self.line("");
            self.line(&format!("Rust type: {}", code(&rust_path(t))));
        }
        self.body(node, pointer, "####");
        let examples = self.examples(Some(name))?;
        if !examples.is_empty() {
            self.line("");
            self.line("#### Examples");
            self.out.push_str(&examples);
        }
        Ok(())
    }

    /// The table of a root or definition, then the tables of its inline objects under `heading`.
    fn body(&mut self, node: &Value, pointer: &str, heading: &str) {
        self.line("");
        if node.get("if").is_some() {
            self.dispatch(node);
        } else if is_object(node) {
            self.object_table(node, pointer);
        } else {
            self.summary_table(node, pointer);
        }
        let mut nested = Vec::new();
        nested_objects(node, pointer, &mut nested);
        for (at, child) in nested {
            self.line("");
            if let Some(anchor) = self.anchor(&at).map(str::to_owned) {
                self.line(&format!("<a id=\"{anchor}\"></a>"));
                self.line("");
            }
            let name = self.site.plan.at(&self.schema.path, &at).map(|t| code(&t.public));
            let title = name.map_or_else(|| code(&at), |n| format!("{} — {n}", code(&at)));
            self.line(&format!("{heading} {title}"));
            if let Some(description) = child.get("description").and_then(Value::as_str) {
                self.line("");
                self.line(&prose(description));
            }
            self.line("");
            self.object_table(child, &at);
        }
    }

    fn object_table(&mut self, node: &Value, pointer: &str) {
        self.line("| property | type | required | constraints | description |");
        self.line("|---|---|---|---|---|");
        let conventional: BTreeSet<&str> = node
            .get("x-convention")
            .and_then(|c| c.get("required"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for (name, child, required) in ordered_properties(node) {
            let at = format!("{pointer}/properties/{}", jerry_contracts_pointer::escape(name));
            let row = format!(
                "| {} | {} | {} | {} | {} |",
                cell(&code(name)),
                cell(&self.type_label(child, &at)),
                match (required, conventional.contains(name)) {
                    (true, _) => "yes",
                    (false, true) => "convention",
                    (false, false) => "",
                },
                cell(&constraints(child).join("<br>")),
                cell(&self.description(child)),
            );
            self.line(&row);
        }
    }

    /// A one-row table for a schema that is not an object with properties.
    fn summary_table(&mut self, node: &Value, pointer: &str) {
        self.line("| type | constraints |");
        self.line("|---|---|");
        let row = format!("| {} | {} |", cell(&self.type_label(node, pointer)), cell(&constraints(node).join("<br>")));
        self.line(&row);
        if let Some(examples) = node.get("examples").and_then(Value::as_array) {
            self.line("");
            let listed: Vec<String> = examples.iter().map(|e| code(&json(e))).collect();
            self.line(&format!("Examples in the schema: {}", listed.join(", ")));
        }
    }

    /// The agent-output dispatch (`if`/`then`/`else` on `agent_id`).
    fn dispatch(&mut self, node: &Value) {
        let branches: Vec<(&str, &str)> = node
            .pointer("/then/allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|b| {
                let constant = b.pointer("/if/properties/agent_id/const").and_then(Value::as_str)?;
                let target = b.pointer("/then/$ref").and_then(Value::as_str)?;
                Some((constant, target))
            })
            .collect();
        let fallback = node.pointer("/else/$ref").and_then(Value::as_str);
        if branches.is_empty() {
            self.line("A conditional schema (`if`/`then`/`else`); see the schema file.");
            return;
        }
        self.line(
            "Dispatch on `agent_id`: a document whose `agent_id` names an agent below must satisfy that \
             agent's output schema; any other document the fallback.",
        );
        self.line("");
        self.line("| `agent_id` | schema |");
        self.line("|---|---|");
        for (constant, target) in branches {
            let row = format!("| {} | {} |", cell(&code(constant)), cell(&self.reference_link(target)));
            self.line(&row);
        }
        if let Some(target) = fallback {
            let row = format!("| any other, or none | {} |", cell(&self.reference_link(target)));
            self.line(&row);
        }
    }

    /// A Markdown link to the target of `reference`, named by its Rust type.
    fn reference_link(&self, reference: &str) -> String {
        let Ok((file, pointer)) = self.site.corpus.resolve(&self.schema.path, reference) else {
            return code(reference);
        };
        let name = match self.site.plan.at(&file, &pointer) {
            Some(t) => self.site.type_name(t),
            None => pointer.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(file.as_str()).to_owned(),
        };
        let anchor = self.site.anchors.get(&file).and_then(|a| a.get(&pointer));
        let target = if file == self.schema.path {
            match anchor {
                Some(anchor) => format!("#{anchor}"),
                None => relative_link(&self.page, &self.page),
            }
        } else {
            let page = relative_link(&self.page, &page_of(&file));
            match anchor {
                Some(anchor) if !pointer.is_empty() => format!("{page}#{anchor}"),
                _ => page,
            }
        };
        format!("[{name}]({target})")
    }

    /// The type column: `$ref`s as links, arrays as `array of X`, maps as `map of X`, nullable
    /// values as `X or null`, inline objects as links to their table.
    fn type_label(&self, node: &Value, pointer: &str) -> String {
        if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            return self.reference_link(reference);
        }
        if node.get("if").is_some() {
            return "object (dispatch on `agent_id`)".to_owned();
        }
        let listed: Vec<&str> = match node.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let nullable = listed.contains(&"null")
            || node.get("enum").and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null));
        let mut types: Vec<&str> = listed.into_iter().filter(|t| *t != "null").collect();
        if types.is_empty() {
            if let Some(inferred) = inferred_type(node) {
                types.push(inferred);
            }
        }
        let base = match types.as_slice() {
            [] => "any".to_owned(),
            ["array"] => match node.get("items").filter(|i| i.is_object()) {
                Some(items) => {
                    let inner = self.type_label(items, &format!("{pointer}/items"));
                    if inner.contains(" or ") { format!("array of ({inner})") } else { format!("array of {inner}") }
                }
                None => "array".to_owned(),
            },
            ["object"] if is_object(node) => {
                match (self.anchor(pointer), self.site.plan.at(&self.schema.path, pointer)) {
                    (Some(anchor), Some(t)) => format!("[{}](#{anchor})", t.public),
                    (Some(anchor), None) => format!("[object](#{anchor})"),
                    _ => "object".to_owned(),
                }
            }
            ["object"] => match node.get("additionalProperties").filter(|a| a.is_object()) {
                Some(values) => {
                    let inner = self.type_label(values, &format!("{pointer}/additionalProperties"));
                    if inner.contains(" or ") { format!("map of ({inner})") } else { format!("map of {inner}") }
                }
                None => "object".to_owned(),
            },
            [single] => (*single).to_owned(),
            several => several.join(" or "),
        };
        if nullable { format!("{base} or null") } else { base }
    }

    /// The description column: the schema's own description (else its `$ref` target's), and
    /// the schema's examples.
    fn description(&self, node: &Value) -> String {
        let own = node.get("description").and_then(Value::as_str);
        let inherited = || {
            let reference = node.get("$ref").and_then(Value::as_str)?;
            let (file, pointer) = self.site.corpus.resolve(&self.schema.path, reference).ok()?;
            let target = self.site.corpus.get(&file)?.document.pointer(&pointer)?;
            target.get("description").and_then(Value::as_str)
        };
        let mut text = own.or_else(inherited).map(prose).unwrap_or_default();
        if let Some(examples) = node.get("examples").and_then(Value::as_array) {
            let listed: Vec<String> = examples.iter().map(|e| code(&json(e))).collect();
            if !text.is_empty() {
                text.push_str("<br>");
            }
            text.push_str(&format!("Examples: {}", listed.join(", ")));
        }
        text
    }

    /// Producer and consumers of an agent output; all agents for the envelope.
    fn agents_section(&mut self) {
        let site = self.site;
        if self.schema.path.starts_with("session_context/") {
            self.line("");
            self.line("## Agents");
            self.line("");
            self.line(
                "Every agent produces and consumes the envelope: it carries the handoff from `source_agent` \
                 to `target_agent`, with the producer's output as `payload`.",
            );
            let all: Vec<String> = site.agents.keys().map(|id| site.agent_link(&self.page, id)).collect();
            if !all.is_empty() {
                self.line("");
                self.line(&format!("Agents with an output schema: {}.", all.join(", ")));
            }
            return;
        }
        let Some(me) = self.schema.document.pointer("/properties/agent_id/const").and_then(Value::as_str) else {
            return;
        };
        let Some(agent) = site.agents.get(me) else { return };
        let mut consumers: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for hint in &agent.hints {
            consumers.entry(hint).or_default().push("named by `next_agent_hint`".to_owned());
        }
        let mut producers: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (id, other) in &site.agents {
            if other.hints.iter().any(|h| h == me) {
                producers.entry(id).or_default().push("its `next_agent_hint` names this agent".to_owned());
            }
        }
        for row in &site.matrix {
            let mapping =
                format!("cross-pollination {} → {} ({})", code(&row.from), code(&row.to), prose(&row.validation));
            if row.source == me {
                consumers.entry(&row.target).or_default().push(mapping.clone());
            }
            if row.target == me {
                producers.entry(&row.source).or_default().push(mapping);
            }
        }
        self.line("");
        self.line("## Agents");
        self.line("");
        self.line(&format!("- **Produced by:** {}", site.agent_link(&self.page, me)));
        let page = self.page.clone();
        let list = |entries: &BTreeMap<&str, Vec<String>>| -> Vec<String> {
            entries.iter().map(|(id, why)| format!("  - {}: {}", site.agent_link(&page, id), why.join("; "))).collect()
        };
        if consumers.is_empty() {
            self.line("- **Consumed by:** none named (the chain ends here)");
        } else {
            self.line("- **Consumed by:**");
            for entry in list(&consumers) {
                self.line(&entry);
            }
        }
        if agent.may_end {
            self.line("- **Ends the chain:** `next_agent_hint` may be `null`");
        }
        if producers.is_empty() {
            self.line("- **Receives from:** none named");
        } else {
            self.line("- **Receives from:**");
            for entry in list(&producers) {
                self.line(&entry);
            }
        }
    }

    /// The rows of the cross-pollination matrix.
    fn matrix_section(&mut self) {
        let site = self.site;
        self.line("");
        self.line("## Matrix rows");
        self.line("");
        self.line("The handoffs of the cross-pollination matrix, each a document of this schema:");
        self.line("");
        self.line("| source agent | target agent | payload mapping | validation |");
        self.line("|---|---|---|---|");
        for row in &site.matrix {
            let text = format!(
                "| {} | {} | {} | {} |",
                cell(&site.agent_link(&self.page, &row.source)),
                cell(&site.agent_link(&self.page, &row.target)),
                cell(&format!("{} → {}", code(&row.from), code(&row.to))),
                cell(&prose(&row.validation)),
            );
            self.line(&text);
        }
    }

    /// Up to two valid fixtures of the root (`definition` = `None`) or of a definition: the
    /// minimal and maximal ones when they exist, else the first ones by name.
    fn examples(&self, definition: Option<&str>) -> Result<String, DocsError> {
        let Some(set) = self
            .site
            .fixtures
            .iter()
            .find(|s| s.target.schema == self.schema.path && s.target.definition.as_deref() == definition)
        else {
            return Ok(String::new());
        };
        let mut chosen: Vec<&Path> = Vec::new();
        for name in ["minimal.json", "maximal.json"] {
            if let Some(f) = set.valid_file(name) {
                chosen.push(&f.path);
            }
        }
        for f in set.valid.iter().filter(|f| f.case.is_none()) {
            if chosen.len() >= 2 {
                break;
            }
            if !chosen.contains(&f.path.as_path()) {
                chosen.push(&f.path);
            }
        }
        let mut out = String::new();
        for path in chosen {
            let text = jerry_contracts_codegen::files::read_text(path)
                .map_err(|source| DocsError::Read { path: path.to_owned(), source })?;
            let shown = relative_path(self.site.fixtures_dir, path).unwrap_or_else(|| path.display().to_string());
            out.push_str(&format!("\n{}:\n\n```json\n{}\n```\n", code(&shown), text.trim_end()));
        }
        Ok(out)
    }
}

/// The JSON type of a schema without `type`, from its `const`, `enum` or `properties`.
fn inferred_type(node: &Value) -> Option<&'static str> {
    let of = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    if let Some(constant) = node.get("const") {
        return Some(of(constant));
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        let kinds: BTreeSet<&str> = values.iter().map(of).filter(|k| *k != "null").collect();
        if kinds.len() == 1 {
            return kinds.into_iter().next();
        }
    }
    if node.get("properties").is_some() || node.get("additionalProperties").is_some() {
        return Some("object");
    }
    None
}

/// Every constraint of a schema, including those of its primitive array items (`items: …`) and
/// map values (`values: …`).
fn constraints(node: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if node.get("$ref").is_some() {
        if let Some(default) = node.get("default") {
            out.push(format!("default {}", code(&json(default))));
        }
        return out;
    }
    if let Some(constant) = node.get("const") {
        out.push(format!("const {}", code(&json(constant))));
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        let listed: Vec<String> = values.iter().map(|v| code(&json(v))).collect();
        out.push(format!("enum {}", listed.join(", ")));
    }
    if let Some(pattern) = node.get("pattern") {
        let text = pattern.as_str().map_or_else(|| json(pattern), str::to_owned);
        out.push(format!("pattern {}", code(&text)));
    }
    if let Some(format) = node.get("format") {
        let text = format.as_str().map_or_else(|| json(format), str::to_owned);
        out.push(format!("format {}", code(&text)));
    }
    for keyword in ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"] {
        if let Some(value) = node.get(keyword) {
            out.push(format!("{keyword} {}", json(value)));
        }
    }
    match node.get("uniqueItems") {
        Some(Value::Bool(true)) => out.push("uniqueItems".to_owned()),
        Some(Value::Bool(false)) | None => {}
        Some(other) => out.push(format!("uniqueItems {}", json(other))),
    }
    if let Some(default) = node.get("default") {
        out.push(format!("default {}", code(&json(default))));
    }
    if let Some(items) = node.get("items").filter(|i| i.is_object() && !is_object(i)) {
        out.extend(constraints(items).into_iter().map(|c| format!("items: {c}")));
    }
    if let Some(values) = node.get("additionalProperties").filter(|a| a.is_object() && !is_object(a)) {
        out.extend(constraints(values).into_iter().map(|c| format!("values: {c}")));
    }
    // The conventions (warnings, errors only in strict mode), after the seed's constraints.
    if let Some(convention) = node.get("x-convention") {
        out.extend(constraints(convention).into_iter().map(|c| format!("convention: {c}")));
        if convention.get("additionalProperties") == Some(&Value::Bool(false)) {
            out.push("convention: no undeclared members".to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn links_are_relative_between_pages() {
        assert_eq!(relative_link("agents/ps/researcher_output.md", "common/types.md"), "../../common/types.md");
        assert_eq!(relative_link("mission/worker_result.md", "mission/metadata.md"), "metadata.md");
        assert_eq!(relative_link("README.md", "agents/ps/a.md"), "agents/ps/a.md");
        assert_eq!(relative_link("agents/ps/a.md", "README.md"), "../../README.md");
        assert_eq!(relative_link("agents/ps/a.md", "agents/nse/b.md"), "../nse/b.md");
    }

    #[test]
    fn constraints_are_listed_with_items_and_values() {
        let node = json!({
            "type": "array", "minItems": 1, "uniqueItems": true,
            "items": {"type": "string", "pattern": "^a|b$", "enum": ["a", null]}
        });
        assert_eq!(
            constraints(&node),
            ["minItems 1", "uniqueItems", "items: enum `\"a\"`, `null`", "items: pattern `^a|b$`"]
        );
        let map = json!({"type": "object", "additionalProperties": {"type": "number", "minimum": 0}});
        assert_eq!(constraints(&map), ["values: minimum 0"]);
        assert_eq!(cell("`^a|b$`"), "`^a\\|b$`");
    }

    #[test]
    fn properties_read_required_first() {
        let node = json!({"required": ["z", "a"], "properties": {"b": {}, "a": {}, "z": {}, "c": {}}});
        let names: Vec<(&str, bool)> = ordered_properties(&node).into_iter().map(|(n, _, r)| (n, r)).collect();
        assert_eq!(names, [("z", true), ("a", true), ("b", false), ("c", false)]);
    }

    #[test]
    fn json_is_canonical() {
        assert_eq!(json(&json!({"b": [1, "x"], "a": null})), r#"{"a": null, "b": [1, "x"]}"#);
        assert_eq!(node_id("ps-researcher"), "ps_researcher");
        assert_eq!(mermaid_text("a \"b\""), "a #quot;b#quot;");
    }
}
