//! # jerry-contracts
//!
//! Typed contracts for the JSON documents that ps-* and nse-* agents, orchestrators and the
//! mission colony pass to each other.
//!
//! The canonical JSON Schemas (draft-07) live in `schemas/` of this package; every file there
//! has `$id` = [`SCHEMA_ID_BASE`] + its path under `schemas/`, and cross-file `$ref`s are
//! relative. The schemas are the single source of truth: generated types, validation, the
//! `jerry-contracts` CLI and the reference documentation all derive from them.

// The generated code names this crate by its path, so that format types can be given to typify
// as external types.
extern crate self as jerry_contracts;

include!(concat!(env!("OUT_DIR"), "/contracts.rs"));

/// Every schema's `$id` is this prefix followed by the schema's path under `schemas/`,
/// e.g. `https://jerry.dev/schemas/agents/ps/researcher_output.json`.
pub const SCHEMA_ID_BASE: &str = "https://jerry.dev/schemas/";

/// The meta-schema every contract declares in `$schema`: JSON Schema draft-07.
pub const SCHEMA_DIALECT: &str = "http://json-schema.org/draft-07/schema#";

pub mod formats;
pub mod support;
pub mod typed;
