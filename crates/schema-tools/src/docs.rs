//! Schema documentation: one Markdown page per schema file (`docs/schemas/<path>.md`) and an index
//! (`docs/schemas/README.md`) with the agent handoff graph.
//!
//! A page gives the schema's title, description, `$id`, version and Rust type; a property table per
//! object (the root, every definition, every inline object), with each `$ref` linked to the page
//! and anchor of its target; the schema's valid fixtures as examples; and, for agent outputs, who
//! produces and who consumes the document. The type column renders the contract model's type
//! expression of each place (`model::Expr`), as the Python types do; the constraints column lists
//! the model's constraints of the place (`model::Constraint`), and an agent-output dispatch its
//! branches (`model::Body::Dispatch`). Every anchor a link points at is an explicit
//! `<a id="…"></a>`, so links can be checked without a Markdown renderer.
//!
//! The output is deterministic: properties are listed required first (in `required` order), then
//! by name; definitions, pages and agents are sorted; nothing depends on the clock or on the
//! iteration order of a JSON object.
//!
//! [`write()`] puts the pages in a directory, removes the stale ones there, and keeps a manifest
//! ([`MANIFEST`], `.jerry-contracts-docs`) in that directory of the pages and directories it
//! wrote. It overwrites or removes only a file that this manifest lists as a page *and* that still
//! starts with the generated-page [`MARKER`], and removes only the empty directories the manifest
//! says a run made; it never searches the directory for pages (so other checkouts' pages below it
//! are safe), never follows a symbolic link (at the output directory or any of its ancestors,
//! however the path is spelled), and writes into a non-empty directory without a manifest only
//! with `force` — which still overwrites nothing that is there. The manifest is read as hostile
//! input: a malformed one is an error, and nothing is changed.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs;
use std::io::{self, ErrorKind, Read, Write};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::fixtures::{self, FixtureSet};
use jerry_contracts_codegen::corpus::{Corpus, CorpusError, Problem, Schema, relative_path};
use jerry_contracts_codegen::model::{Body, Constraint, Expr, Field, Keyword, Layer, Model, SchemaModel, TypeModel};
use jerry_contracts_codegen::plan::{self, Plan, TypeDef};

/// Name of the index page, relative to the output directory.
pub const INDEX: &str = "README.md";

/// The schema whose page also lists the rows of the cross-pollination matrix.
pub const MATRIX_SCHEMA: &str = "workflows/cross_pollination.json";

/// The crate the generated types live in, as a path prefix.
const CRATE: &str = "jerry_contracts";

/// The generated-page marker: the first line of every page [`render`] gives. [`write()`] overwrites
/// and removes only files that start with it and that its [`MANIFEST`] lists.
pub const MARKER: &str = "<!-- Generated from schemas/ by `jerry-contracts docs`; do not edit by hand. -->";

/// Name of the manifest [`write()`] keeps in the output directory: the pages and directories its
/// runs wrote there, the only ones it may overwrite or remove.
pub const MANIFEST: &str = ".jerry-contracts-docs";

/// The first line of every manifest.
pub const MANIFEST_HEADER: &str =
    "# jerry-contracts docs manifest v1: the pages and directories this tool wrote here; do not edit";

/// The largest manifest [`write()`] reads (4 MiB); a larger one is refused.
pub const MANIFEST_LIMIT: u64 = 4 * 1024 * 1024;

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
    let model = Model::new(&corpus, &plan).map_err(DocsError::Schemas)?;
    let (fixture_sets, problems) = fixtures::discover(fixtures_dir, &corpus);
    if !problems.is_empty() {
        return Err(DocsError::Fixtures(problems));
    }
    let matrix = read_matrix(matrix_file)?;
    let types: Types = model.types.iter().map(|t| (t.flat.clone(), t)).collect();
    let mut constraints: Constraints = BTreeMap::new();
    for constraint in &model.constraints {
        let of_schema = constraints.entry(constraint.schema.as_str()).or_default();
        of_schema.entry(constraint.pointer.as_str()).or_default().push(constraint);
    }
    let anchors = corpus.schemas.iter().map(|s| (s.path.clone(), anchors_of(s, &plan, &types))).collect();
    let site = Site {
        corpus: &corpus,
        plan: &plan,
        schemas: model.schemas.iter().map(|s| (s.file.as_str(), s)).collect(),
        types,
        constraints,
        anchors,
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
    /// Pages whose file already had the right content, so was not rewritten (this includes a file
    /// the manifest did not list yet that was byte for byte the page: it is adopted).
    pub unchanged: usize,
    /// Stale pages removed: pages the manifest listed that `pages` no longer holds.
    pub removed: usize,
}

/// Writes `pages` (as [`render`] returns them) below `out_dir`, removes the stale pages an
/// earlier run wrote there, and records what it wrote in the manifest [`MANIFEST`] in `out_dir`.
/// It deletes or overwrites only what a run of it wrote in that same directory:
///
/// - **The manifest.** `out_dir/.jerry-contracts-docs` starts with the line [`MANIFEST_HEADER`],
///   then one entry a line, sorted: `page REL/PATH.md` for each page of the last run, and
///   `dir REL/PATH` for each directory below `out_dir` that a run created (so that a later run may
///   remove it once it is empty). Paths are relative to `out_dir`, with `/`.
/// - **Reading it is reading hostile input.** It must be a regular file (a symbolic link is not
///   followed), at most [`MANIFEST_LIMIT`] bytes, UTF-8, its first line exactly the header (a
///   `\r\n` line end is read as `\n`); every entry's path is relative and made of plain names
///   (no `..`, `.`, empty name, root or backslash), and a page's ends in `.md`. Anything else is an
///   [`ErrorKind::InvalidData`] error naming the file (and the line), and nothing is written or
///   removed.
/// - **What may be overwritten or removed.** Only a file the manifest of `out_dir` lists as a
///   page, that is still a regular file (not a link) reached through real directories, and whose
///   first line is still [`MARKER`]. No directory is searched for pages, so other files, other checkouts' pages and manifests below `out_dir`, and pages
///   carrying the marker that the manifest does not list are never touched.
///   - A listed page whose marker is gone (edited by hand) is neither overwritten (an error, with
///     `force` or not) nor removed (and no longer listed).
///   - A file at a new page's path that the manifest does not list is adopted (counted unchanged,
///     and listed from now on) when it is byte for byte the page; otherwise it is an error naming
///     it ("exists and was not written by `jerry-contracts docs` here; move it away"), with
///     `force` or not.
///   - A *stale* page (listed, and not in `pages`) is removed when it passes those checks. Then
///     every directory the manifest lists as made by a run (or that this run made) and that is now
///     empty is removed, deepest first; never `out_dir` itself, never a directory someone else
///     made.
/// - **`force`.** A non-empty `out_dir` without a manifest is refused (the error says to pass
///   `--force`): it is most likely not a documentation directory. `force` lets the pages be
///   written there all the same; it never lets a file the manifest does not list be overwritten or
///   removed. An empty or missing `out_dir` needs no `force` (it is created, with its ancestors).
/// - **Links.** A symbolic link is never followed, written through or removed. `out_dir` is taken
///   apart with [`Path::components`] (so `DIR/`, `DIR/.` and `./DIR` are `DIR`), and every prefix
///   of it as given is checked — for an absolute path, every directory from `/` — so a link at
///   `out_dir` or at any of its ancestors, however spelled, is an error naming it. So is a link
///   at a page's path or at a directory between `out_dir` and a page.
/// - **Check first.** Every check (pages, `out_dir`, manifest, the file at each page's path, the
///   stale pages) is made before anything is written or removed (or `out_dir` created), so a
///   refusal leaves the tree as it was.
/// - **Atomic writes.** Each page and the manifest is written to a new temporary file
///   `.<name>.tmp-<pid>-<n>` in its directory (never a page's name, as pages end in `.md`), then
///   renamed over the target; the temporary file is removed if that fails. A page whose file
///   already has the right content is not rewritten, nor is an unchanged manifest.
/// - **Interruptions.** Before the first page is written or removed, the manifest is rewritten
///   to list the old and the new pages and directories alike; at the end it lists the new pages
///   and the directories that still exist. A run stopped half way (a full disk) thus leaves every
///   file it wrote listed, and the next run finishes the job.
///
/// Page paths must be relative, made of plain UTF-8 names without backslashes or control
/// characters, end in `.md`, and not lie below [`MANIFEST`]; every page's text must start with
/// the [`MARKER`] line (a later run would not recognise it otherwise). Every error names the
/// offending path. The checks see the tree as it is found: one changed by someone else while
/// this runs is not defended against.
pub fn write(out_dir: &Path, pages: &BTreeMap<PathBuf, String>, force: bool) -> io::Result<Written> {
    check_pages(pages)?;
    let (base, exists) = output_directory(out_dir)?;
    let manifest_path = base.join(MANIFEST);
    let old = if exists { read_manifest(&manifest_path)? } else { None };
    if exists && old.is_none() && !force && fs::read_dir(&base).map_err(|e| at(&base, e))?.next().is_some() {
        let what = format!(
            "is not empty and holds no docs manifest ({MANIFEST}), so `jerry-contracts docs` did not write it and \
             it may not be a documentation directory; pass --force to write the pages into it anyway (a file \
             already there is never overwritten or removed)"
        );
        return Err(refusal(ErrorKind::AlreadyExists, &base, &what));
    }
    let (old, old_text) = match old {
        Some((manifest, text)) => (manifest, Some(text)),
        None => (Manifest::default(), None),
    };
    // Every page is checked before any is written.
    let mut checked = Vec::with_capacity(pages.len());
    let mut planned_dirs = BTreeSet::new();
    for (relative, text) in pages {
        planned_dirs.extend(directories(&base, relative, false)?);
        let path = base.join(relative);
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
                if !same && !old.pages.contains(relative) {
                    let what = "exists and was not written by `jerry-contracts docs` here (the docs manifest does \
                                not list it); not overwriting it: move it away";
                    return Err(refusal(ErrorKind::AlreadyExists, &path, what));
                }
                if !same && !marked {
                    let what = "was written by `jerry-contracts docs` but no longer starts with the generated-page \
                                marker (edited by hand?); not overwriting it: move it away";
                    return Err(refusal(ErrorKind::AlreadyExists, &path, what));
                }
                same
            }
        };
        checked.push((relative, text, unchanged));
    }
    let mut stale = Vec::new();
    for relative in old.pages.iter().filter(|r| !pages.contains_key(*r)) {
        if is_own_page(&base, relative)? {
            stale.push(relative);
        }
    }

    if !exists {
        fs::create_dir_all(&base).map_err(|e| at(&base, e))?;
    }
    // The journal: what this run may leave behind, listed before any of it is made.
    let journal = Manifest {
        pages: old.pages.iter().chain(pages.keys()).cloned().collect(),
        dirs: old.dirs.iter().chain(&planned_dirs).cloned().collect(),
    }
    .text();
    if old_text.as_deref() != Some(journal.as_str()) {
        write_atomically(&manifest_path, &journal)?;
    }
    let mut done = Written::default();
    let mut created = BTreeSet::new();
    for (relative, text, unchanged) in checked {
        if unchanged {
            done.unchanged += 1;
            continue;
        }
        created.extend(directories(&base, relative, true)?);
        write_atomically(&base.join(relative), text)?;
        done.written += 1;
    }
    for relative in stale {
        // Still the marked regular file checked above (never a link put there since).
        if is_own_page(&base, relative)? {
            let path = base.join(relative);
            fs::remove_file(&path).map_err(|e| at(&path, e))?;
            done.removed += 1;
        }
    }
    // The directories runs made, deepest first: removed when empty, else listed again.
    let mut dirs: Vec<&PathBuf> = old.dirs.union(&created).collect();
    dirs.sort_by(|a, b| b.components().count().cmp(&a.components().count()).then_with(|| b.cmp(a)));
    let mut kept = BTreeSet::new();
    for relative in dirs {
        if !real_directories(&base, relative, true)? {
            continue; // gone, or no longer a directory of ours
        }
        let dir = base.join(relative);
        if fs::read_dir(&dir).map_err(|e| at(&dir, e))?.next().is_none() {
            fs::remove_dir(&dir).map_err(|e| at(&dir, e))?;
        } else {
            kept.insert(relative.clone());
        }
    }
    let last = Manifest { pages: pages.keys().cloned().collect(), dirs: kept }.text();
    if last != journal {
        write_atomically(&manifest_path, &last)?;
    }
    Ok(done)
}

/// The entries of a manifest, relative to the output directory.
#[derive(Debug, Default)]
struct Manifest {
    pages: BTreeSet<PathBuf>,
    dirs: BTreeSet<PathBuf>,
}

impl Manifest {
    /// The manifest file's text: the header, then the entries sorted, one a line.
    fn text(&self) -> String {
        let mut lines: Vec<String> = self
            .dirs
            .iter()
            .map(|d| format!("dir {}", slashed(d)))
            .chain(self.pages.iter().map(|p| format!("page {}", slashed(p))))
            .collect();
        lines.sort_unstable();
        let mut text = format!("{MANIFEST_HEADER}\n");
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }
}

/// A relative path of plain names with `/` between them.
fn slashed(relative: &Path) -> String {
    relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// A manifest entry's path: relative, plain names separated by single `/`s, none `.` or `..`, no
/// backslash or control character.
fn entry_path(text: &str) -> Option<PathBuf> {
    let names = text.split('/');
    let plain = |name: &str| !name.is_empty() && name != "." && name != ".." && !name.contains('\\');
    if text.chars().any(char::is_control) || !names.clone().all(plain) {
        return None;
    }
    let path = PathBuf::from(text);
    let normal = path.components().all(|c| matches!(c, Component::Normal(_)));
    (normal && path.components().count() == names.count()).then_some(path)
}

/// Reads the manifest at `path`: `None` when there is none, the entries and the file's text
/// otherwise. See [`write()`] for what is refused.
fn read_manifest(path: &Path) -> io::Result<Option<(Manifest, String)>> {
    let bad = |line: Option<usize>, what: &str| {
        let place = line.map(|n| format!(" line {n}:")).unwrap_or_default();
        io::Error::new(ErrorKind::InvalidData, format!("{}:{place} {what}", path.display()))
    };
    let too_large = || bad(None, &format!("is larger than {MANIFEST_LIMIT} bytes, so it is not a docs manifest"));
    let meta = match fs::symlink_metadata(path) {
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(at(path, err)),
        Ok(meta) => meta,
    };
    if meta.file_type().is_symlink() {
        return Err(bad(None, "is a symbolic link, which is never followed; the docs manifest must be a regular file"));
    }
    if !meta.is_file() {
        return Err(bad(None, "is not a regular file, so it is not a docs manifest"));
    }
    if meta.len() > MANIFEST_LIMIT {
        return Err(too_large());
    }
    let bytes = read_head(path, MANIFEST_LIMIT + 1)?;
    if bytes.len() as u64 > MANIFEST_LIMIT {
        return Err(too_large());
    }
    let text = String::from_utf8(bytes).map_err(|err| {
        let valid = err.as_bytes().get(..err.utf8_error().valid_up_to()).unwrap_or_default();
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        bad(Some(line), "is not UTF-8")
    })?;
    let body = text.strip_suffix('\n').unwrap_or(&text);
    let mut manifest = Manifest::default();
    for (index, raw) in body.split('\n').enumerate() {
        let number = index + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if index == 0 {
            if line != MANIFEST_HEADER {
                return Err(bad(Some(1), &format!("is not the docs manifest header `{MANIFEST_HEADER}`")));
            }
            continue;
        }
        let entry = line.split_once(' ').and_then(|(kind, relative)| Some((kind, entry_path(relative)?)));
        match entry {
            Some(("page", page)) if page.extension().is_some_and(|e| e == "md") => {
                manifest.pages.insert(page);
            }
            Some(("dir", dir)) => {
                manifest.dirs.insert(dir);
            }
            _ => {
                let what = "is not `page REL/PATH.md` or `dir REL/PATH` (a relative path of plain names \
                            separated by `/`: no `.`, `..`, empty name, leading `/` or backslash)";
                return Err(bad(Some(number), what));
            }
        }
    }
    Ok(Some((manifest, text)))
}

/// Checks the pages [`write()`] is given: their paths, and that each text starts with [`MARKER`].
fn check_pages(pages: &BTreeMap<PathBuf, String>) -> io::Result<()> {
    for (relative, text) in pages {
        let page = relative.to_str().and_then(|p| entry_path(&p.replace(std::path::MAIN_SEPARATOR, "/")));
        let is_page = page.as_deref() == Some(relative.as_path())
            && relative.extension().is_some_and(|e| e == "md")
            && relative.components().next().is_none_or(|c| c.as_os_str() != MANIFEST);
        if !is_page {
            let what = "is not a page path: it must be relative, stay below the output directory, be made of \
                        plain UTF-8 names (no backslash or control character), end in `.md` and not lie below \
                        the docs manifest";
            return Err(refusal(ErrorKind::InvalidInput, relative, what));
        }
        if let Some(page) = relative.ancestors().skip(1).find(|a| pages.contains_key(*a)) {
            let what = format!("is below {}, which is a page, not a directory", page.display());
            return Err(refusal(ErrorKind::InvalidInput, relative, &what));
        }
        if !is_marked(text.as_bytes()) {
            let what = "does not start with the generated-page marker line, so a later run could not tell it \
                        was generated";
            return Err(refusal(ErrorKind::InvalidInput, relative, what));
        }
    }
    Ok(())
}

/// `out_dir` taken apart with [`Path::components`] (which drops trailing slashes and interior
/// `.`s), and whether it exists. Every prefix of it, as given, must be a directory and not a
/// symbolic link (a missing one ends the check: the rest is missing too).
fn output_directory(out_dir: &Path) -> io::Result<(PathBuf, bool)> {
    let mut base = PathBuf::new();
    let mut exists = true;
    for component in out_dir.components() {
        base.push(component);
        if !exists || matches!(component, Component::Prefix(_) | Component::RootDir) {
            continue;
        }
        match fs::symlink_metadata(&base) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let what = format!(
                    "is a symbolic link, which is never followed (the output directory {} goes through it); \
                     pass a path without links",
                    out_dir.display()
                );
                return Err(refusal(ErrorKind::InvalidInput, &base, &what));
            }
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(refusal(ErrorKind::InvalidInput, &base, "is not a directory")),
            Err(err) if err.kind() == ErrorKind::NotFound => exists = false,
            Err(err) => return Err(at(&base, err)),
        }
    }
    if base.as_os_str().is_empty() {
        return Err(refusal(ErrorKind::InvalidInput, out_dir, "is not a directory name"));
    }
    Ok((base, exists))
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

/// Checks the directories between `base` and the page at `relative`: each must be a directory,
/// not a symbolic link. Returns the missing ones (relative to `base`, outermost first), which are
/// created when `create` is set.
fn directories(base: &Path, relative: &Path, create: bool) -> io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let Some(parent) = relative.parent() else { return Ok(missing) };
    let mut current = PathBuf::new();
    for component in parent.components() {
        current.push(component);
        if !missing.is_empty() && !create {
            missing.push(current.clone()); // below a missing one
            continue;
        }
        let dir = base.join(&current);
        match fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(meta) if meta.file_type().is_symlink() => {
                let what = "is a symbolic link, which is never followed; remove it";
                return Err(refusal(ErrorKind::InvalidInput, &dir, what));
            }
            Ok(_) => return Err(refusal(ErrorKind::InvalidInput, &dir, "is in the way of a page: not a directory")),
            Err(err) if err.kind() == ErrorKind::NotFound => {
                if create {
                    fs::create_dir(&dir).map_err(|e| at(&dir, e))?;
                }
                missing.push(current.clone());
            }
            Err(err) => return Err(at(&dir, err)),
        }
    }
    Ok(missing)
}

/// Whether every directory from `base` down to `relative` (excluding `relative` itself unless
/// `itself`) is a real directory, not a symbolic link. Missing is `false`, not an error.
fn real_directories(base: &Path, relative: &Path, itself: bool) -> io::Result<bool> {
    let within = if itself { Some(relative) } else { relative.parent() };
    let mut current = base.to_path_buf();
    for component in within.into_iter().flat_map(Path::components) {
        current.push(component);
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Ok(false),
            Err(err) if err.kind() == ErrorKind::NotFound => return Ok(false),
            Err(err) => return Err(at(&current, err)),
        }
    }
    Ok(true)
}

/// Whether the page at `relative` (listed in the manifest) may be removed: a regular file,
/// reached through real directories, whose first line is still [`MARKER`].
fn is_own_page(base: &Path, relative: &Path) -> io::Result<bool> {
    if !real_directories(base, relative, false)? {
        return Ok(false);
    }
    let path = base.join(relative);
    match fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => Ok(is_marked(&read_head(&path, HEAD)?)),
        Ok(_) => Ok(false),
        Err(err) if err.kind() == ErrorKind::NotFound => Ok(false),
        Err(err) => Err(at(&path, err)),
    }
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
fn anchors_of(schema: &Schema, plan: &Plan, types: &Types) -> BTreeMap<String, String> {
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
    for (name, pointer) in &definitions {
        claim(pointer.clone(), sanitize(name));
    }
    let mut tables = Vec::new();
    if schema.has_root_type() {
        claim(String::new(), "root".to_owned());
        tables.extend(nested_tables(&schema.path, "", plan, types));
    }
    for (_, pointer) in &definitions {
        tables.extend(nested_tables(&schema.path, pointer, plan, types));
    }
    for pointer in tables {
        let wanted = sanitize(&pointer.trim_start_matches('/').replace('/', "-"));
        claim(pointer, wanted);
    }
    anchors
}

/// `(name, pointer)` of every definition, sorted by name.
fn definitions_of(schema: &Schema) -> Vec<(String, String)> {
    schema
        .definition_names()
        .into_iter()
        .map(|name| {
            let pointer = format!("/definitions/{}", jerry_contracts_pointer::escape(&name));
            (name, pointer)
        })
        .collect()
}

/// An HTML id made of `[A-Za-z0-9_-]`.
fn sanitize(text: &str) -> String {
    let id: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '-' }).collect();
    if id.is_empty() { "anchor".to_owned() } else { id }
}

/// The declared members of an object in reading order: the required ones in the order of the
/// `required` list, then the others by name, each with whether it is required.
fn reading_order<'f>(fields: &'f [Field], required: &[String]) -> Vec<(&'f Field, bool)> {
    let mut out: Vec<(&Field, bool)> = Vec::new();
    let mut listed = BTreeSet::new();
    for name in required {
        if let Some(field) = fields.iter().find(|f| &f.name == name)
            && listed.insert(name.as_str())
        {
            out.push((field, true));
        }
    }
    let mut rest: Vec<&Field> = fields.iter().filter(|f| !listed.contains(f.name.as_str())).collect();
    rest.sort_by(|a, b| a.name.cmp(&b.name));
    out.extend(rest.into_iter().map(|f| (f, false)));
    out
}

/// The model's types by flat name.
type Types<'a> = BTreeMap<String, &'a TypeModel>;

/// The model's constraints of each schema object, by schema file, then pointer, in the model's
/// order (the keyword table's, within one object).
type Constraints<'a> = BTreeMap<&'a str, BTreeMap<&'a str, Vec<&'a Constraint>>>;

/// The places of the inline object types below the type planned at `pointer` of `file` (not
/// that type itself), depth first in reading order: each gets a table of its own. Members,
/// array items and map values are followed; a type named from elsewhere (a `$ref`) and the
/// branches of a union are not.
fn nested_tables(file: &str, pointer: &str, plan: &Plan, types: &Types) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = plan.at(file, pointer).and_then(|d| types.get(&d.flat)) {
        nested_in_type(t, types, &mut out);
    }
    out
}

fn nested_in_type(t: &TypeModel, types: &Types, out: &mut Vec<String>) {
    match &t.body {
        Body::Object { fields, required } => {
            for (field, _) in reading_order(fields, required) {
                nested_in_expr(&field.expr, &t.file, &field.pointer, types, out);
            }
        }
        Body::Alias(expr) => nested_in_expr(expr, &t.file, &t.pointer, types, out),
        Body::Dispatch { .. } => {}
    }
}

/// The inline object types in `expr`, the expression of the subschema at `at` of `file`.
fn nested_in_expr(expr: &Expr, file: &str, at: &str, types: &Types, out: &mut Vec<String>) {
    match expr {
        Expr::Named(flat) => {
            // Only a type planned at this very place is inline; any other is named from here.
            let Some(t) = types.get(flat).filter(|t| t.file == file && t.pointer == at) else { return };
            if matches!(t.body, Body::Object { .. }) {
                out.push(at.to_owned());
            }
            nested_in_type(t, types, out);
        }
        Expr::Array(item) => nested_in_expr(item, file, &format!("{at}/items"), types, out),
        Expr::Map(value) => nested_in_expr(value, file, &format!("{at}/additionalProperties"), types, out),
        Expr::Nullable(inner) => nested_in_expr(inner, file, at, types, out),
        _ => {}
    }
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
    /// The model's schema files by path: a page's header and the index render from them.
    schemas: BTreeMap<&'a str, &'a SchemaModel>,
    /// The model's types by flat name: the type column renders their expressions.
    types: Types<'a>,
    /// The model's constraints by schema file and pointer: the constraints column lists them.
    constraints: Constraints<'a>,
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
    /// module has a type of the same name (`v1_1::Payload`).
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
                let model = self.schemas.get(schema.path.as_str());
                let title = model.and_then(|m| m.title.as_deref()).map_or_else(|| schema.path.clone(), prose);
                let rust =
                    self.plan.at(&schema.path, "").map_or_else(|| "definitions".to_owned(), |t| code(&rust_path(t)));
                let description = model.and_then(|m| m.description.as_deref()).map(prose).unwrap_or_default();
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
    /// Places the model has no type expression for (the page is not written).
    unmodelled: std::cell::RefCell<Vec<Problem>>,
}

impl<'a> Page<'a> {
    fn new(site: &'a Site<'a>, schema: &'a Schema) -> Self {
        Self { site, schema, page: page_of(&schema.path), out: String::new(), unmodelled: Default::default() }
    }

    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn render(mut self) -> Result<String, DocsError> {
        let schema = self.schema;
        let model = self.site.schemas.get(schema.path.as_str()).copied().ok_or_else(|| {
            DocsError::Schemas(vec![Problem::new(&schema.path, "", "the contract model has no entry for this schema")])
        })?;
        self.line(MARKER);
        self.line(&format!("# {}", model.title.as_deref().map_or_else(|| schema.path.clone(), prose)));
        if let Some(description) = &model.description {
            self.line("");
            self.line(&prose(description));
        }
        self.line("");
        self.line(&format!("- **Schema:** {}", code(&format!("schemas/{}", model.file))));
        self.line(&format!("- **`$id`:** {}", code(&model.id)));
        self.line(&format!("- **Version:** {}", model.version.as_deref().map_or_else(|| "—".to_owned(), code)));
        let rust = match self.site.plan.at(&schema.path, "") {
            Some(t) => code(&rust_path(t)),
            None => "— (a definition library: one type per definition)".to_owned(),
        };
        self.line(&format!("- **Rust type:** {rust}"));
        self.line(&format!("- **Index:** [all schemas]({})", relative_link(&self.page, INDEX)));
        if model.conventions {
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
            self.body("", "###");
        }
        let definitions = definitions_of(schema);
        if !definitions.is_empty() {
            self.line("");
            self.line("## Definitions");
            for (name, pointer) in definitions {
                self.definition(&name, &pointer)?;
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
        let unmodelled = self.unmodelled.into_inner();
        if !unmodelled.is_empty() {
            return Err(DocsError::Schemas(unmodelled));
        }
        Ok(self.out)
    }

    fn anchor(&self, pointer: &str) -> Option<&str> {
        self.site.anchors.get(&self.schema.path).and_then(|a| a.get(pointer)).map(String::as_str)
    }

    fn definition(&mut self, name: &str, pointer: &str) -> Result<(), DocsError> {
        let anchor = self.anchor(pointer).map_or_else(|| sanitize(name), str::to_owned);
        let planned = self.site.plan.at(&self.schema.path, pointer);
        self.line("");
        self.line(&format!("<a id=\"{anchor}\"></a>"));
        self.line("");
        let title = planned.map_or_else(|| code(name), |t| format!("{} — {}", code(name), code(&t.public)));
        self.line(&format!("### {title}"));
        if let Some(description) = self.type_description(pointer) {
            self.line("");
            self.line(&prose(description));
        }
        if let Some(t) = planned {
            self.line("");
            self.line(&format!("Rust type: {}", code(&rust_path(t))));
        }
        self.body(pointer, "####");
        let examples = self.examples(Some(name))?;
        if !examples.is_empty() {
            self.line("");
            self.line("#### Examples");
            self.out.push_str(&examples);
        }
        Ok(())
    }

    /// The table of a root or definition, then the tables of its inline objects under `heading`.
    fn body(&mut self, pointer: &str, heading: &str) {
        self.line("");
        match self.type_at(pointer).map(|t| &t.body) {
            Some(Body::Dispatch { branches, fallback }) => self.dispatch(branches, fallback),
            Some(Body::Object { .. }) => self.object_table(pointer),
            _ => self.summary_table(pointer),
        }
        for at in nested_tables(&self.schema.path, pointer, self.site.plan, &self.site.types) {
            self.line("");
            if let Some(anchor) = self.anchor(&at).map(str::to_owned) {
                self.line(&format!("<a id=\"{anchor}\"></a>"));
                self.line("");
            }
            let planned = self.site.plan.at(&self.schema.path, &at);
            let name = planned.map(|t| code(&t.public));
            let title = name.map_or_else(|| code(&at), |n| format!("{} — {n}", code(&at)));
            self.line(&format!("{heading} {title}"));
            if let Some(description) = self.type_description(&at) {
                self.line("");
                self.line(&prose(description));
            }
            self.line("");
            self.object_table(&at);
        }
    }

    /// The table of the object type planned at `pointer` (`node` its schema): one row a declared
    /// member, from the model's fields, required ones first in the `required` list's order, then
    /// the others by name.
    fn object_table(&mut self, pointer: &str) {
        self.line("| property | type | required | constraints | description |");
        self.line("|---|---|---|---|---|");
        let Some((fields, required)) = self.object(pointer) else {
            let problem =
                Problem::new(&self.schema.path, pointer, "the contract model has no object type for this place");
            self.unmodelled.borrow_mut().push(problem);
            return;
        };
        let conventional: BTreeSet<&str> = self
            .constraints_at(&format!("{pointer}/x-convention"))
            .iter()
            .filter(|c| c.keyword == Keyword::Required)
            .filter_map(|c| c.value.as_str())
            .collect();
        for (field, is_required) in reading_order(fields, required) {
            let row = format!(
                "| {} | {} | {} | {} | {} |",
                cell(&code(&field.name)),
                cell(&self.type_label(&field.pointer)),
                match (is_required, conventional.contains(field.name.as_str())) {
                    (true, _) => "yes",
                    (false, true) => "convention",
                    (false, false) => "",
                },
                cell(&self.constraint_list(&field.pointer, field.default.as_ref()).join("<br>")),
                cell(&self.description(field)),
            );
            self.line(&row);
        }
    }

    /// The model's type planned at `pointer` of this page's schema.
    fn type_at(&self, pointer: &str) -> Option<&'a TypeModel> {
        let site = self.site;
        let planned = site.plan.at(&self.schema.path, pointer)?;
        site.types.get(&planned.flat).copied()
    }

    /// The description of the type the model plans at `pointer` of this page's schema.
    fn type_description(&self, pointer: &str) -> Option<&'a str> {
        self.type_at(pointer)?.description.as_deref()
    }

    /// The model's fields of the object type planned at `pointer` of this page's schema, and the
    /// members it requires in the `required` list's order.
    fn object(&self, pointer: &str) -> Option<(&'a [Field], &'a [String])> {
        match &self.type_at(pointer)?.body {
            Body::Object { fields, required } => Some((fields, required)),
            _ => None,
        }
    }

    /// A one-row table for a type that is not an object with properties: its type, its
    /// constraints and its `default`, then the examples its schema gives.
    fn summary_table(&mut self, pointer: &str) {
        self.line("| type | constraints |");
        self.line("|---|---|");
        let planned = self.type_at(pointer);
        let listed = self.constraint_list(pointer, planned.and_then(|t| t.default.as_ref())).join("<br>");
        let row = format!("| {} | {} |", cell(&self.type_label(pointer)), cell(&listed));
        self.line(&row);
        if let Some(examples) = planned.and_then(|t| t.examples.as_ref()) {
            self.line("");
            let listed: Vec<String> = examples.iter().map(|e| code(&json(e))).collect();
            self.line(&format!("Examples in the schema: {}", listed.join(", ")));
        }
    }

    /// The agent-output dispatch (`if`/`then`/`else` on `agent_id`), from the model: each
    /// agent's output type, then the fallback.
    fn dispatch(&mut self, branches: &[(String, String)], fallback: &str) {
        self.line(
            "Dispatch on `agent_id`: a document whose `agent_id` names an agent below must satisfy that \
             agent's output schema; any other document the fallback.",
        );
        self.line("");
        self.line("| `agent_id` | schema |");
        self.line("|---|---|");
        for (agent, target) in branches {
            let row = format!("| {} | {} |", cell(&code(agent)), cell(&self.named_link(target)));
            self.line(&row);
        }
        let row = format!("| any other, or none | {} |", cell(&self.named_link(fallback)));
        self.line(&row);
    }

    /// A Markdown link to the model's type of flat name `flat`, named by its Rust type.
    fn named_link(&self, flat: &str) -> String {
        match self.site.types.get(flat) {
            Some(t) => self.type_link(&t.file, &t.pointer),
            None => {
                let problem = Problem::new(&self.schema.path, "", format!("the contract model has no type {flat}"));
                self.unmodelled.borrow_mut().push(problem);
                code(flat)
            }
        }
    }

    /// The model's constraints of the schema object at `pointer` of this page's schema.
    fn constraints_at(&self, pointer: &str) -> &'a [&'a Constraint] {
        let site = self.site;
        let listed = site.constraints.get(self.schema.path.as_str()).and_then(|at| at.get(pointer));
        listed.map_or(&[], Vec::as_slice)
    }

    /// The constraints column of the subschema at `pointer`: its assertions in the keyword
    /// table's order (the order of docs/constraints.md), its `default`, those of its items
    /// (`items: …`) and map values (`values: …`), then its conventions (warnings, errors only in
    /// strict mode), after the seed's constraints. (No schema gives items or map values a
    /// `default`; the model keeps one for properties and named types only.)
    fn constraint_list(&self, pointer: &str, default: Option<&Value>) -> Vec<String> {
        let mut out = self.assertions(pointer);
        if let Some(default) = default {
            out.push(format!("default {}", code(&json(default))));
        }
        for (child, label) in [(Keyword::Items, "items"), (Keyword::AdditionalProperties, "values")] {
            let at = format!("{pointer}/{child}");
            if self.constrains_within(&at) {
                out.extend(self.constraint_list(&at, None).into_iter().map(|c| format!("{label}: {c}")));
            }
        }
        let convention = format!("{pointer}/{}", Keyword::XConvention);
        out.extend(self.assertions(&convention).into_iter().map(|c| format!("convention: {c}")));
        let closed = |c: &&&Constraint| c.keyword == Keyword::AdditionalProperties && c.layer == Layer::Convention;
        if self.constraints_at(&convention).iter().any(|c| closed(&c)) {
            out.push("convention: no undeclared members".to_owned());
        }
        out
    }

    /// Whether the model has a constraint of the schema object at `pointer` or of one inside it.
    fn constrains_within(&self, pointer: &str) -> bool {
        let Some(of_schema) = self.site.constraints.get(self.schema.path.as_str()) else { return false };
        // The keys that start with `pointer` follow it in order; among them, `pointer` itself
        // and those below it.
        of_schema
            .range::<str, _>((std::ops::Bound::Included(pointer), std::ops::Bound::Unbounded))
            .map_while(|(at, _)| at.strip_prefix(pointer))
            .any(|rest| rest.is_empty() || rest.starts_with('/'))
    }

    /// The assertions of the schema object at `pointer`, each as the constraints column shows it.
    fn assertions(&self, pointer: &str) -> Vec<String> {
        self.constraints_at(pointer).iter().filter(|c| c.keyword.is_assertion()).map(|c| shown(c)).collect()
    }

    /// The type column of the subschema at `pointer`, from the model's expression of it: named
    /// types as links, arrays as `array of X`, maps as `map of X`, nullable values as
    /// `X or null`, inline objects as links to their table.
    fn type_label(&self, pointer: &str) -> String {
        match self.expression(pointer) {
            Some(expr) => self.expr_label(expr, pointer),
            None => {
                let problem = Problem::new(&self.schema.path, pointer, "the contract model has no type for this place");
                self.unmodelled.borrow_mut().push(problem);
                String::new()
            }
        }
    }

    /// The model's expression of the subschema at `pointer` of this page's schema: a declared
    /// property's, or a named type's own.
    fn expression(&self, pointer: &str) -> Option<&'a Expr> {
        let site = self.site;
        let file = self.schema.path.as_str();
        let planned = |at: &str| site.plan.at(file, at).and_then(|t| site.types.get(&t.flat));
        // A property: its field's expression (which names a type planned at its place).
        if let Some((object, name)) = pointer.rsplit_once("/properties/")
            && let Some(Body::Object { fields, .. }) = planned(object).map(|t| &t.body)
            && let Ok(name) = jerry_contracts_pointer::unescape(name)
            && let Some(field) = fields.iter().find(|f| f.name == name)
        {
            return Some(&field.expr);
        }
        // A named type of its own (a definition that is not an object).
        match &planned(pointer)?.body {
            Body::Alias(expr) => Some(expr),
            Body::Object { .. } | Body::Dispatch { .. } => None,
        }
    }

    /// An expression in words (see [`Page::type_label`]); `at` is the pointer of the subschema
    /// it is the expression of.
    fn expr_label(&self, expr: &Expr, at: &str) -> String {
        let inner = |label: String| if label.contains(" or ") { format!("({label})") } else { label };
        match expr {
            Expr::Named(flat) => {
                let Some(t) = self.site.types.get(flat) else { return code(flat) };
                if t.file != self.schema.path || t.pointer != at {
                    return self.type_link(&t.file, &t.pointer);
                }
                // A type planned at this very place (an inline object, enum or constant).
                match &t.body {
                    Body::Object { .. } => match self.anchor(at) {
                        Some(anchor) => format!("[{}](#{anchor})", t.public),
                        None => "object".to_owned(),
                    },
                    Body::Alias(expr) => self.expr_label(expr, at),
                    Body::Dispatch { .. } => "object (dispatch on `agent_id`)".to_owned(),
                }
            }
            Expr::String { .. } => "string".to_owned(),
            Expr::Integer => "integer".to_owned(),
            Expr::Number => "number".to_owned(),
            Expr::Boolean => "boolean".to_owned(),
            Expr::Null => "null".to_owned(),
            Expr::Const { value, .. } => json_type(value).to_owned(),
            Expr::Enum { values, .. } => {
                let kinds: BTreeSet<&str> = values.iter().map(json_type).collect();
                kinds.into_iter().collect::<Vec<_>>().join(" or ")
            }
            // An array or object whose members the schema leaves open is said as its JSON type.
            Expr::Array(item) if matches!(&**item, Expr::Any(any) if any.pointer == at) => "array".to_owned(),
            Expr::Map(value) if matches!(&**value, Expr::Any(any) if any.pointer == at) => "object".to_owned(),
            Expr::Array(item) => format!("array of {}", inner(self.expr_label(item, &format!("{at}/items")))),
            Expr::Map(value) => {
                format!("map of {}", inner(self.expr_label(value, &format!("{at}/additionalProperties"))))
            }
            Expr::Union(members) => members.iter().map(|m| self.expr_label(m, at)).collect::<Vec<_>>().join(" or "),
            Expr::Nullable(value) => format!("{} or null", self.expr_label(value, at)),
            Expr::Any(_) => "any".to_owned(),
        }
    }

    /// A Markdown link to the planned type at `pointer` of `file`, named by its Rust type.
    fn type_link(&self, file: &str, pointer: &str) -> String {
        let name = match self.site.plan.at(file, pointer) {
            Some(t) => self.site.type_name(t),
            None => pointer.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(file).to_owned(),
        };
        let anchor = self.site.anchors.get(file).and_then(|a| a.get(pointer));
        let target = if file == self.schema.path {
            match anchor {
                Some(anchor) => format!("#{anchor}"),
                None => relative_link(&self.page, &self.page),
            }
        } else {
            let page = relative_link(&self.page, &page_of(file));
            match anchor {
                Some(anchor) if !pointer.is_empty() => format!("{page}#{anchor}"),
                _ => page,
            }
        };
        format!("[{name}]({target})")
    }

    /// The description column: the property's own description (else, for a property that names
    /// a type, the type's), and the property's examples.
    fn description(&self, field: &Field) -> String {
        let inherited = || match &field.expr {
            Expr::Named(flat) => self.site.types.get(flat).and_then(|t| t.description.as_deref()),
            _ => None,
        };
        let mut text = field.description.as_deref().or_else(inherited).map(prose).unwrap_or_default();
        if let Some(examples) = &field.examples {
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
/// The JSON type of a value (`integer` for a number without a fraction or exponent).
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// One assertion as the constraints column shows it: the keyword, then its value (an enum's
/// values, a constant, a pattern and a format as code; `uniqueItems` alone).
fn shown(constraint: &Constraint) -> String {
    let name = constraint.keyword.as_str();
    match (constraint.keyword, &constraint.value) {
        (Keyword::Enum, Value::Array(values)) => {
            let listed: Vec<String> = values.iter().map(|v| code(&json(v))).collect();
            format!("enum {}", listed.join(", "))
        }
        (Keyword::Const | Keyword::Enum, value) => format!("{name} {}", code(&json(value))),
        (Keyword::Pattern | Keyword::Format, Value::String(text)) => format!("{name} {}", code(text)),
        (Keyword::Pattern | Keyword::Format, value) => format!("{name} {}", code(&json(value))),
        (Keyword::UniqueItems, _) => name.to_owned(),
        (_, value) => format!("{name} {}", json(value)),
    }
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
    fn an_assertion_shows_its_keyword_and_value() {
        let constraint = |keyword: Keyword, value: Value| Constraint {
            schema: "demo.json".to_owned(),
            pointer: String::new(),
            keyword,
            value,
            layer: Layer::Schema,
            source: None,
        };
        assert_eq!(shown(&constraint(Keyword::Enum, json!(["a", null]))), "enum `\"a\"`, `null`");
        assert_eq!(shown(&constraint(Keyword::Const, json!({"b": 1}))), "const `{\"b\": 1}`");
        assert_eq!(shown(&constraint(Keyword::Pattern, json!("^a|b$"))), "pattern `^a|b$`");
        assert_eq!(shown(&constraint(Keyword::Format, json!("uri"))), "format `uri`");
        assert_eq!(shown(&constraint(Keyword::UniqueItems, json!(true))), "uniqueItems");
        assert_eq!(shown(&constraint(Keyword::MinItems, json!(1))), "minItems 1");
        assert_eq!(cell("`^a|b$`"), "`^a\\|b$`");
    }

    #[test]
    fn properties_read_required_first() {
        let field = |name: &str| Field {
            name: name.to_owned(),
            pointer: format!("/properties/{name}"),
            required: matches!(name, "z" | "a"),
            expr: Expr::Boolean,
            default: None,
            description: None,
            examples: None,
        };
        let fields = [field("b"), field("a"), field("z"), field("c")];
        let required = ["z".to_owned(), "a".to_owned(), "z".to_owned(), "gone".to_owned()];
        let names: Vec<(&str, bool)> =
            reading_order(&fields, &required).into_iter().map(|(f, r)| (f.name.as_str(), r)).collect();
        assert_eq!(names, [("z", true), ("a", true), ("b", false), ("c", false)]);
    }

    #[test]
    fn json_is_canonical() {
        assert_eq!(json(&json!({"b": [1, "x"], "a": null})), r#"{"a": null, "b": [1, "x"]}"#);
        assert_eq!(node_id("ps-researcher"), "ps_researcher");
        assert_eq!(mermaid_text("a \"b\""), "a #quot;b#quot;");
    }
}
