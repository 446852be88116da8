//! Build-time tooling for `jerry-contracts`: loading and checking the schema corpus, the
//! contract model, and generating the Rust types (typify for the shapes, then passes for
//! everything typify drops) and the Python type hints of `jerry_contracts.types`.
//!
//! The API: [`generate()`] and [`python_types`]; the corpus ([`corpus`]), the plan of named
//! types ([`plan`]), the contract model ([`model`]) and its views ([`constraints`]), the Python
//! renderer's committed path ([`python`]), the golden view ([`golden`]) and the file readers the
//! tools share ([`files`]). The Rust renderer's passes (`generate`, `attributes`, `newtypes`,
//! `constructors`, `enums`, `skim`, `serde_impls`, `agents`, `poke`, `keywords`, `naming`,
//! `spelling`) are private.
//!
//! This crate is a build dependency of the library; nothing in it reaches the library's users at
//! run time. The tools built on the corpus (schema diff, reference docs, fixture discovery) are in
//! `jerry-contracts-schema-tools`.

mod agents;
mod attributes;
pub mod constraints;
mod constructors;
pub mod corpus;
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
mod serde_impls;
mod skim;
mod spelling;

use std::path::Path;

pub use constraints::Constraint;
pub use corpus::{Corpus, CorpusError, Problem, Reference, Schema};

/// How to regenerate every committed generated artifact (quoted in their headers).
pub const REGENERATE: &str = "JERRY_BLESS=1 cargo test --test artifacts";

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

/// Generates the Rust source for every schema under `schemas`.
pub fn generate(schemas: &Path) -> Result<String, CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    // The model reads every type; a shape it cannot carry fails the build here too.
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    let mut source = generate::source(&plan, &model).map_err(CodegenError::Schemas)?;
    source.push_str(&generate::embedded(&corpus, schemas));
    Ok(source)
}

/// Generates the Python module `jerry_contracts.types` (the `TypedDict`s of [`python`]) for every
/// schema under `schemas`, under the names of the Rust types.
pub fn python_types(schemas: &Path) -> Result<String, CodegenError> {
    let (corpus, plan) = load_plan(schemas)?;
    let model = model::Model::new(&corpus, &plan).map_err(CodegenError::Schemas)?;
    python::source(&model).map_err(CodegenError::Schemas)
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
