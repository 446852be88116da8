//! Every committed generated artifact is fresh, judged in one test that names every stale one:
//!
//! | artifact | rendered by |
//! |---|---|
//! | `src/generated/contracts.rs` | `jerry_contracts_codegen::generate`: the contract types the crate includes |
//! | `src/generated/patterns-le.dfa`, `patterns-be.dfa` | `jerry_contracts_codegen::generate`: the schemas' pattern DFAs it includes |
//! | `src/generated/schema-trees.ndjson` | `jerry_contracts_codegen::generate`: the schema layer's compiled trees it includes |
//! | `docs/error-codes.md` | `validation::codes::markdown` |
//! | `docs/constraints.md` | `jerry_contracts_codegen::constraints::table` |
//! | `docs/schemas/` | `jerry_contracts_schema_tools::docs::render` (also `jerry-contracts docs`) |
//! | `tests/public-api.txt` | rustdoc's JSON, listed by `tests/support/public_api.rs` |
//! | `crates/python/python/jerry_contracts/types.py` | `jerry_contracts_codegen::python_types` |
//! | `crates/node/contracts.d.ts` | `jerry_contracts_codegen::typescript_types` |
//! | `crates/node/guards.js`, `crates/node/guards.d.ts` | `jerry_contracts_codegen::typescript_guards` |
//! | `src/generated/store_v1.sql` | `jerry_contracts_codegen::store_ddl`: the artifact store's tables |
//! | `src/generated/store_tables.rs` | `jerry_contracts_codegen::store_tables`: their list, for the library |
//! | `docs/generated-types.rs` | `jerry_contracts_codegen::golden::render`: the generated Rust of a few types |
//!
//! After a deliberate change, `JERRY_BLESS=1 cargo test --test artifacts` (or
//! `scripts/bless.sh`) rewrites every stale artifact and fails the run all the same, since a
//! blessed run compared nothing: run the tests again without it to see the check pass.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

#[path = "support/public_api.rs"]
mod public_api;
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const BLESS: &str = "JERRY_BLESS=1 cargo test --test artifacts";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One generated file: its path under the repository and what the generator makes of it now.
struct Artifact {
    path: String,
    fresh: Vec<u8>,
}

impl Artifact {
    fn text(path: impl Into<String>, fresh: String) -> Self {
        Self { path: path.into(), fresh: fresh.into_bytes() }
    }
}

/// Why a committed file is stale, or `None` when it equals `fresh`: where the first difference
/// is (a line of text, a byte of a binary file), so the listing says more than "differs".
fn staleness(committed: Option<&[u8]>, fresh: &[u8]) -> Option<String> {
    let committed = committed?;
    if committed == fresh {
        return None;
    }
    let (Ok(committed), Ok(fresh)) = (std::str::from_utf8(committed), std::str::from_utf8(fresh)) else {
        let byte = committed.iter().zip(fresh).position(|(a, b)| a != b).unwrap_or(committed.len().min(fresh.len()));
        return Some(format!("differs from byte {byte}"));
    };
    let line = committed
        .lines()
        .zip(fresh.lines())
        .position(|(a, b)| a != b)
        .map_or_else(|| committed.lines().count().min(fresh.lines().count()) + 1, |index| index + 1);
    Some(format!("differs from line {line}"))
}

/// The generated Rust and its DFA files, fresh from the schemas.
fn generated() -> jerry_contracts_codegen::Generated {
    jerry_contracts_codegen::generate(&root().join("schemas")).unwrap_or_else(|e| panic!("the corpus generates: {e}"))
}

#[test]
fn every_committed_generated_artifact_is_fresh() {
    let corpus = jerry_contracts_codegen::Corpus::load(&root().join("schemas")).expect("the corpus loads");
    let pages = support::docs::pages();
    let schemas = root().join("schemas");
    let mut artifacts = vec![
        Artifact::text("docs/error-codes.md", jerry_contracts::validation::codes::markdown()),
        Artifact::text("docs/constraints.md", jerry_contracts_codegen::constraints::table(&corpus)),
        Artifact::text("tests/public-api.txt", public_api::listed()),
        Artifact::text(
            jerry_contracts_codegen::python::TYPES_PATH,
            jerry_contracts_codegen::python_types(&schemas).expect("the Python types generate"),
        ),
        Artifact::text(
            jerry_contracts_codegen::typescript::TYPES_PATH,
            jerry_contracts_codegen::typescript_types(&schemas).expect("the TypeScript types generate"),
        ),
        Artifact::text(
            jerry_contracts_codegen::sql::TABLES_PATH,
            jerry_contracts_codegen::store_tables(&schemas).expect("the store's table list renders"),
        ),
        Artifact::text(
            jerry_contracts_codegen::sql::COMMITTED_PATH,
            jerry_contracts_codegen::store_ddl(&schemas).expect("the store's tables render"),
        ),
    ];
    let (guards, guard_types) = jerry_contracts_codegen::typescript_guards(&schemas).expect("the type guards generate");
    artifacts.push(Artifact::text(jerry_contracts_codegen::typescript::GUARDS_PATH, guards));
    artifacts.push(Artifact::text(jerry_contracts_codegen::typescript::GUARDS_TYPES_PATH, guard_types));
    let generated = generated();
    artifacts.push(Artifact::text(
        jerry_contracts_codegen::golden::GOLDEN_PATH,
        jerry_contracts_codegen::golden::render(&generated.source).unwrap_or_else(|e| panic!("the golden view: {e}")),
    ));
    let directory = Path::new(jerry_contracts_codegen::GENERATED_PATH).parent().unwrap_or(Path::new(""));
    for (name, bytes) in generated.files {
        artifacts.push(Artifact { path: directory.join(name).to_string_lossy().into_owned(), fresh: bytes });
    }
    artifacts.push(Artifact::text(jerry_contracts_codegen::GENERATED_PATH, generated.source));
    artifacts.extend(pages.iter().map(|(page, text)| Artifact::text(format!("docs/schemas/{page}"), text.clone())));

    let mut stale: Vec<String> = Vec::new();
    for artifact in &artifacts {
        let committed = std::fs::read(root().join(&artifact.path)).ok();
        match (&committed, staleness(committed.as_deref(), &artifact.fresh)) {
            (None, _) => stale.push(format!("{} (missing)", artifact.path)),
            (Some(_), Some(why)) => stale.push(format!("{} ({why})", artifact.path)),
            (Some(_), None) => {}
        }
    }
    let schema_dir = root().join("docs/schemas");
    let orphans: Vec<String> =
        support::docs::files(&schema_dir, "md").into_iter().filter(|page| !pages.contains_key(page)).collect();
    stale.extend(orphans.iter().map(|page| format!("docs/schemas/{page} (no schema renders it)")));

    if std::env::var_os("JERRY_BLESS").is_some() {
        for artifact in artifacts.iter().filter(|a| !a.path.starts_with("docs/schemas/")) {
            let path = root().join(&artifact.path);
            std::fs::write(&path, &artifact.fresh).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        // The pages go through the writer `jerry-contracts docs` uses: it keeps a manifest and
        // removes only pages it wrote before.
        let owned: BTreeMap<PathBuf, String> = pages.iter().map(|(p, t)| (PathBuf::from(p), t.clone())).collect();
        jerry_contracts_schema_tools::docs::write(&schema_dir, &owned, false).expect("write docs/schemas");
        panic!(
            "JERRY_BLESS: rewrote the generated artifacts; stale were ({}):\n  {}\nrun the tests again without \
             JERRY_BLESS to check them",
            stale.len(),
            stale.join("\n  ")
        );
    }
    assert!(
        stale.is_empty(),
        "{} committed generated artifacts are stale; regenerate them with `{BLESS}` (or scripts/bless.sh), \
         never by hand:\n  {}",
        stale.len(),
        stale.join("\n  ")
    );
}

/// The check can fail: a committed text that differs is named with its first differing line, a
/// binary file with its first differing byte.
#[test]
fn a_stale_artifact_is_named_with_its_first_difference() {
    assert_eq!(staleness(Some(b"a\nb\n"), b"a\nb\n"), None);
    assert_eq!(staleness(Some(b"a\nb\n"), b"a\nc\n").as_deref(), Some("differs from line 2"));
    assert_eq!(staleness(Some(b"a\n"), b"a\nb\n").as_deref(), Some("differs from line 2"));
    assert_eq!(staleness(None, b"a"), None, "a missing file is reported by the caller");
    assert_eq!(staleness(Some(&[0, 1, 0xff]), &[0, 2, 0xff]).as_deref(), Some("differs from byte 1"));
    assert_eq!(staleness(Some(&[0, 0xff]), &[0, 0xff, 3]).as_deref(), Some("differs from byte 2"));
}
