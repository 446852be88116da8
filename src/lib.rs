//! # jerry-contracts
//!
//! Typed contracts for the JSON documents that ps-* and nse-* agents, orchestrators and the
//! mission colony pass to each other.
//!
//! The canonical JSON Schemas (draft-07) live in `schemas/` of this package; every file there
//! has `$id` = [`SCHEMA_ID_BASE`] + its path under `schemas/`, and cross-file `$ref`s are
//! relative. The schemas are the single source of truth: generated types, validation, the
//! `jerry-contracts` CLI and the reference documentation all derive from them.
//!
//! Every schema has a generated type in a module tree that mirrors `schemas/`
//! (`agents::ps::ResearcherOutput`, `session_context::v1_1::SessionContext`, `mission::…`).
//! Deserialising checks the shape, enums, constants and formats; [`Validate::validate`] is the
//! gate on the value: every layer (patterns, ranges, lengths in characters, counts, and the
//! semantic, constitutional, cross-reference and convention rules), the same
//! [`validation::Report`] as validating the JSON the value writes; serialising writes back every
//! field that was read, unknown ones included.
//!
//! ```
//! use jerry_contracts::Validate;
//! use jerry_contracts::session_context::v1_1::{Payload, SessionContext};
//!
//! let text = r#"{
//!   "schema_version": "1.1.0", "session_id": "sess-2026-01-10-xyz789",
//!   "source_agent": {"id": "ps-researcher", "family": "ps"},
//!   "target_agent": {"id": "nse-requirements", "family": "nse"},
//!   "timestamp": "2026-01-10T14:30:00+01:00",
//!   "payload": {
//!     "agent_id": "ps-researcher", "research_topic": "Handoff contracts", "sources": [],
//!     "findings": [{"id": "F-001", "summary": "Schemas catch drift", "category": "insight"}],
//!     "confidence": {"overall": 0.82, "reasoning": "Two independent sources agree"}
//!   }
//! }"#;
//! let handoff: SessionContext = serde_json::from_str(text)?;
//! handoff.validate().into_result()?; // every layer, as the gate judges the JSON it writes
//! let Payload::PsResearcher(output) = &handoff.payload else { panic!("a researcher payload") };
//! assert_eq!(output.findings[0].id, "F-001");
//! assert_eq!(handoff.timestamp.as_str(), "2026-01-10T14:30:00+01:00");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// The generated code names this crate by its path, so that format types can be given to typify
// as external types.
extern crate self as jerry_contracts;

// The contract types, generated from `schemas/` and committed (D-168); the build script checks
// that they were generated from the schemas as they are.
include!("generated/contracts.rs");

/// Every schema's `$id` is this prefix followed by the schema's path under `schemas/`,
/// e.g. `https://jerry.dev/schemas/agents/ps/researcher_output.json`.
pub const SCHEMA_ID_BASE: &str = "https://jerry.dev/schemas/";

/// The meta-schema every contract declares in `$schema`: JSON Schema draft-07.
pub const SCHEMA_DIALECT: &str = "http://json-schema.org/draft-07/schema#";

/// Runtime items only the generated code names; not part of the API.
#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
/// Items of the validator only the generated code and the tests name; not part of the API.
#[doc(hidden)]
#[path = "validation_hooks.rs"]
pub mod __validation;
mod agent;
pub mod constant;
mod contract;
pub mod envelope;
pub mod examples;
mod extra;
pub mod formats;
mod invalid;
mod number;
pub mod pattern;
mod pointer;
pub mod registry;
mod shorten;
pub mod store;
pub mod typed;
pub mod validation;
mod version;
pub mod versions;

pub use agent::{AgentInfo, AgentOutput, IdRole, IdUse};
pub use contract::Contract;
pub use extra::Extra;
pub use invalid::InvalidValue;
pub use number::{Number, Numeric};
pub use validation::typed_value::Validate;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
