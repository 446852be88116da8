//! Build-time tooling for `jerry-contracts`: loading and checking the schema corpus, discovering
//! the fixture tree, and generating the Rust types (typify for the shapes, an attribute pass for
//! everything typify drops).
//!
//! This crate is a build dependency of the library and a dependency of the CLI; nothing in it
//! reaches the library's users at run time.

pub mod agents;
pub mod attributes;
pub mod constraints;
pub mod constructors;
pub mod corpus;
pub mod diff;
pub mod docs;
/// The translation of ECMA-262 patterns to `regex` syntax, shared with the library as source.
#[path = "../../../src/ecma.rs"]
mod ecma;
pub mod files;
pub mod fixtures;
pub mod generate;
pub mod keywords;
pub mod naming;
pub mod newtypes;
pub mod plan;
pub mod poke;
pub mod serde_impls;
pub mod skim;
pub mod spelling;

use std::path::Path;

pub use constraints::Constraint;
pub use corpus::{Corpus, CorpusError, Problem, Reference, Schema};
pub use fixtures::{BoundaryCase, Expectation, FixtureSet, InvalidFixture, Target, ValidFixture};

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
    let corpus = Corpus::load(schemas)?;
    if !corpus.problems.is_empty() {
        return Err(CodegenError::Schemas(corpus.problems));
    }
    let (_, problems) = corpus.references();
    if !problems.is_empty() {
        return Err(CodegenError::Schemas(problems));
    }
    let plan = plan::plan(&corpus).map_err(CodegenError::Schemas)?;
    let mut source = generate::source(&plan).map_err(CodegenError::Schemas)?;
    source.push_str(&generate::embedded(&corpus, schemas));
    Ok(source)
}
