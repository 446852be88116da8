//! Runtime items that only the generated code names: `garde` custom rules (`uri`,
//! `uri_reference`, `finite`, `unique_items`), the serde `with` module `double_option` and,
//! under the `schemars` feature, the transforms that put keywords back into derived schemas; the
//! strict reader the generated reads use (`read`), the skim (`skim`), the functions behind
//! each `typed::TypeEntry` (`typed`) and, under the `testing` feature, the changes only
//! Rust code can make to a typed value (`poke`).
//! Hidden from the documentation and not part of the API: they may change with the generator.
//! (The items a caller meets in the generated types are public elsewhere:
//! [`crate::constant::True`], [`crate::pattern::EcmaPattern`].)

mod catalogue;
pub mod double_option;
mod impls;
pub mod located;
#[cfg(feature = "testing")]
pub mod poke;
pub mod raw;
pub mod read;
mod rules;
pub mod skim;
#[cfg(feature = "schemars")]
mod transforms;
pub mod typed;
mod uri;
pub mod violation;

pub use crate::agent::AgentId;
pub use impls::{expecting_one_of, one_of_rule};
pub use jerry_contracts_derive::{Object, Poke, Skim};
pub use rules::{FiniteValue, UniqueItems, finite, undeclared, unique_items};
#[cfg(feature = "schemars")]
pub use transforms::{extend_format_uri, extend_format_uri_reference, nullable, unique};
pub use uri::{UriReferenceValue, has_scheme, uri, uri_reference};

/// A schema file as embedded at build time (the generated `EMBEDDED_SCHEMAS`).
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedSchema {
    /// Path under `schemas/`, e.g. `agents/ps/researcher_output.json`.
    pub path: &'static str,
    /// The schema's `$id`.
    pub id: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// The error a generated newtype's constructor gives for `value` breaking `rule`.
pub fn invalid_value(type_name: &'static str, value: &str, rule: &str) -> crate::InvalidValue {
    crate::InvalidValue::new(type_name, value, rule)
}
