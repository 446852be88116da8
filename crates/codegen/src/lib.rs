//! The generator of `jerry-contracts`: loading and checking the schema corpus, the
//! contract model, and generating the Rust types (typify's type space for the shapes, declared
//! by this crate, then passes for everything typify does not carry), the Python type hints of
//! `jerry_contracts.types`, the TypeScript types of the npm package and the artifact store's
//! PostgreSQL tables.
//!
//! The API: [`generate()`], [`python_types`], [`typescript_types`] [`store_ddl`] and [`store_tables`]; the
//! corpus ([`corpus`]), the plan of named types ([`plan`]), the contract model ([`model`]) and
//! its views ([`constraints`]), the Python, TypeScript and SQL renderers ([`python`],
//! [`typescript`], [`sql`]), the schema layer's compiled trees ([`schema_tree`]), the golden
//! view ([`golden`]), the schemas'
//! fingerprint the generated Rust records and the build checks ([`fingerprint`]) and the file
//! readers the tools share ([`files`]). The Rust renderer's passes (`generate`, `declarations`,
//! `attributes`, `newtypes`, `constructors`, `enums`, `skim`, `serde_impls`, `agents`, `poke`,
//! `keywords`, `naming`, `spelling`) are private.
//!
//! The library does not depend on this crate: its generated Rust is committed (D-168), written
//! by the bless (`scripts/bless.sh`, whose first step is this crate's binary) and held fresh by
//! the workspace's `tests/artifacts.rs`; nothing here reaches the library's users. The tools
//! built on the corpus (schema diff, reference docs, fixture discovery) are in
//! `jerry-contracts-schema-tools`.

mod agents;
mod attributes;
pub mod constraints;
mod constructors;
pub mod corpus;
mod declarations;
mod enums;
pub mod files;
mod generate;
pub mod golden;
mod keywords;
pub mod model;
mod naming;
mod newtypes;
pub mod plan;
mod poke;
pub mod python;
mod renderer;
pub mod schema_tree;
mod serde_impls;
mod skim;
mod spelling;
pub mod sql;
pub mod typescript;

use std::path::Path;

pub use constraints::Constraint;
pub use corpus::{Corpus, CorpusError, Problem, Reference, Schema};
pub use jerry_contracts_fingerprint as fingerprint;

/// How to regenerate every committed generated artifact (quoted in their headers).
pub const REGENERATE: &str = "JERRY_BLESS=1 cargo test --test artifacts";

/// Where the generated Rust is committed, relative to the workspace root (the library includes
/// it; its build script checks the header's fingerprint of the schemas, D-168).
pub const GENERATED_PATH: &str = "src/generated/contracts.rs";

/// Why the types could not be generated: every problem, each with its schema file and pointer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodegenError {
    /// The schema directory could not be read.
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    /// Problems in the schemas.
    #[error("{} problem(s) in the schemas:\n{}", .0.len(), .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Schemas(Vec<Problem>),
}

/// How the generated source names the schema files it embeds for the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Embed {
    /// By their path under the including crate's root, `CARGO_MANIFEST_DIR/schemas/…`: the
    /// committed form, the same in every checkout ([`generate`]).
    UnderCrateRoot,
    /// By their absolute path where they are now: for a build script that generates a corpus
    /// of its own into `OUT_DIR` (the conformance crate), and writes [`Generated::files`] there.
    Absolute,
}

/// What the generator writes: the Rust source and the files it includes from beside itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The Rust source ([`GENERATED_PATH`] in the committed form).
    pub source: String,
    /// The files the source includes, by name, to be written in the source's directory (the
    /// committed form) or in `OUT_DIR` ([`Embed::Absolute`]): the pattern table's DFAs and the
    /// schema layer's compiled trees ([`schema_tree`]).
    pub files: Vec<(&'static str, Vec<u8>)>,
}

/// Generates the Rust source for every schema under `schemas`, as committed at
/// [`GENERATED_PATH`]: a header that records the fingerprint of every schema file it comes
/// from, the types, and the schema files embedded for the registry ([`Embed::UnderCrateRoot`]);
/// and the pattern table's DFA files and the schema layer's trees, committed beside it.
pub fn generate(schemas: &Path) -> Result<Generated, CodegenError> {
    generate_with(schemas, Embed::UnderCrateRoot)
}

/// [`generate`], with the embedded schema files named as `embed` says (and the DFA files
/// included from the source's directory under the crate root, or from `OUT_DIR`).
pub fn generate_with(schemas: &Path, embed: Embed) -> Result<Generated, CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    // The model reads every type; a shape it cannot carry fails the generation here too.
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    let files =
        fingerprint::schemas(schemas).map_err(|e| CodegenError::Schemas(vec![Problem::new("schemas/", "", e)]))?;
    let mut source = format!(
        "// Generated by jerry-contracts-codegen from schemas/; do not edit. Regenerate with\n\
         // `scripts/bless.sh` (or `{REGENERATE}`).\n\
         // The build refuses this file when a schema file differs from the fingerprint below.\n{}\n",
        fingerprint::render(&files)
    );
    let place = match embed {
        Embed::UnderCrateRoot => generate::DataPlace { variable: "CARGO_MANIFEST_DIR", directory: "/src/generated/" },
        Embed::Absolute => generate::DataPlace { variable: "OUT_DIR", directory: "/" },
    };
    let (dfas, ranges) = generate::dfa_files(&plan);
    source.push_str(&generate::source(&plan, &model, place, &ranges).map_err(CodegenError::Schemas)?);
    let base = match embed {
        Embed::UnderCrateRoot => None,
        Embed::Absolute => Some(schemas.canonicalize().unwrap_or_else(|_| schemas.to_path_buf())),
    };
    source.push_str(&generate::embedded(&corpus, base.as_deref()).map_err(CodegenError::Schemas)?);
    let trees = schema_tree::render(&corpus).map_err(CodegenError::Schemas)?;
    let mut files: Vec<(&'static str, Vec<u8>)> = generate::DFA_FILES.into_iter().zip(dfas).collect();
    files.push((schema_tree::TREE_FILE, trees));
    Ok(Generated { source, files })
}

/// Generates the Python module `jerry_contracts.types` (the `TypedDict`s of [`python`]) for every
/// schema under `schemas`, under the names of the Rust types.
pub fn python_types(schemas: &Path) -> Result<String, CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    python::source(&model).map_err(CodegenError::Schemas)
}

/// Generates the TypeScript types of the npm package (`contracts.d.ts`, [`typescript`]) for every
/// schema under `schemas`, under the names of the Rust types.
pub fn typescript_types(schemas: &Path) -> Result<String, CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    typescript::source(&model).map_err(CodegenError::Schemas)
}

/// Generates the type guards of the npm package (`guards.js` and `guards.d.ts`,
/// [`typescript::guards`]) for every schema under `schemas`.
pub fn typescript_guards(schemas: &Path) -> Result<(String, String), CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    typescript::guards(&model).map_err(CodegenError::Schemas)
}

/// Renders the artifact store's tables for PostgreSQL ([`sql::ddl`]) from the schemas under
/// `schemas`.
pub fn store_ddl(schemas: &Path) -> Result<String, CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    sql::ddl(&model).map_err(CodegenError::Schemas)
}

/// Renders the artifact store's table list as Rust ([`sql::tables`]) from the schemas under
/// `schemas`.
pub fn store_tables(schemas: &Path) -> Result<String, CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    sql::tables(&model).map_err(CodegenError::Schemas)
}

/// Loads the corpus, checks it and its references, and plans the types.
fn load_plan(schemas: &Path) -> Result<(Corpus, plan::Plan), CodegenError> {
    let corpus = Corpus::load(schemas)?;
    if !corpus.problems.is_empty() {
        return Err(CodegenError::Schemas(corpus.problems));
    }
    let (_, problems) = corpus.references();
    if !problems.is_empty() {
        return Err(CodegenError::Schemas(problems));
    }
    let plan = plan::plan(&corpus).map_err(CodegenError::Schemas)?;
    Ok((corpus, plan))
}
