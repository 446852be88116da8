//! The tools the `jerry-contracts` command and the tests use on the schema corpus, beside
//! generation: [`diff`] classifies the changes between two versions of a schema and checks the
//! declared version bump, [`compat`] checks a list of versions in the registries' compatibility
//! modes with a [`witness`] document for each refused change, [`docs`] renders the schema reference (`docs/schemas/`), and
//! [`fixtures`] discovers the fixture tree and checks its coverage; [`uri`] writes paths as
//! URIs.
//!
//! Loading the corpus and resolving its `$ref`s is shared with generation, so it lives in
//! `jerry-contracts-codegen`; nothing here is needed to build the library.

pub mod compat;
pub mod diff;
pub mod docs;
pub mod fixtures;
pub mod patterns;
pub mod uri;
pub mod witness;

pub use fixtures::{BoundaryCase, Expectation, FixtureSet, InvalidFixture, Target, ValidFixture};
