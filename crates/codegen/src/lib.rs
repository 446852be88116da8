//! Build-time tooling for `jerry-contracts`: loading and checking the schema corpus, discovering
//! the fixture tree, and (from the code-generation issue on) generating the Rust types.
//!
//! This crate is a build dependency of the library and a dependency of the CLI; nothing in it
//! reaches the library's users at run time.

pub mod corpus;
pub mod fixtures;

pub use corpus::{Corpus, CorpusError, Problem, Reference, Schema};
pub use fixtures::{Expectation, FixtureSet, InvalidFixture, Target, ValidFixture};
