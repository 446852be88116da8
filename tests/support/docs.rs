//! The schema pages of `docs/schemas/` as the docs renderer makes them, and the files below a
//! directory, both keyed by their relative path with forward slashes (shared by
//! `tests/docs_schemas.rs` and `tests/artifacts.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The rendered schema pages, keyed by their path under `docs/schemas/`.
pub fn pages() -> &'static BTreeMap<String, String> {
    static PAGES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let rendered = jerry_contracts_schema_tools::docs::render(
            &root().join("schemas"),
            &root().join("tests/fixtures"),
            &root().join("data/cross_pollination_matrix.json"),
        )
        .unwrap_or_else(|err| panic!("the schema documentation does not render: {err}"));
        rendered.into_iter().map(|(path, text)| (slashes(&path), text)).collect()
    })
}

/// A relative path with forward slashes.
pub fn slashes(path: &Path) -> String {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Every file below `dir` with the given extension, relative to `dir`.
pub fn files(dir: &Path, extension: &str) -> BTreeSet<String> {
    fn walk(base: &Path, dir: &Path, extension: &str, out: &mut BTreeSet<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, extension, out);
            } else if path.extension().is_some_and(|e| e == extension) {
                out.insert(slashes(path.strip_prefix(base).unwrap()));
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, extension, &mut out);
    out
}
