//! The catalogue of generated types (test hooks): which Rust type each schema location maps to,
//! and a check of a JSON value through that type (deserialise, then its garde rules) whose
//! violations name the place as a JSON Pointer with the document's own property names; and the
//! first-error typed reads the crate's own readers use. Users read with [`crate::typed`], which
//! answers with a [`crate::validation::Report`].

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::violation::{Stage, Violation};

/// One generated type and the schema it comes from.
#[derive(Debug, Clone, Copy)]
pub struct TypeEntry {
    /// Schema file under `schemas/`, e.g. `agents/ps/researcher_output.json`.
    pub schema: &'static str,
    /// JSON Pointer of the type's schema in that file (`""` for the root).
    pub pointer: &'static str,
    /// Public path of the Rust type, e.g. `agents::ps::ResearcherOutput`.
    pub rust_path: &'static str,
    /// What the generated code fills in: the functions behind the methods.
    pub(crate) hooks: Hooks,
}

/// A typed value read by `typed::transcode`, ready to be written to any serde format.
#[cfg(feature = "testing")]
pub type Transcoded = Box<dyn erased_serde::Serialize>;

/// The functions behind a [`TypeEntry`]'s methods, filled in by generated code. Only the typed
/// check serves the validator (the schema layer of a document's root type); the rest are the
/// tests' (`testing` feature), so a user's build does not instantiate every type's reads and
/// writes for them.
#[derive(Debug, Clone, Copy)]
pub struct Hooks {
    /// The typed check.
    pub check: fn(&Value) -> Result<(), Vec<Violation>>,
    /// The round trip.
    #[cfg(feature = "testing")]
    pub round_trip: fn(&Value) -> Result<Value, Violation>,
    /// The soundness probe.
    #[cfg(feature = "testing")]
    pub written: fn(&Value) -> Result<Option<Value>, Violation>,
    /// The soundness probe with a change only Rust code can make.
    #[cfg(feature = "testing")]
    pub poked: fn(&Value, &mut crate::__private::poke::Tweak) -> Result<Option<Value>, Violation>,
    /// The type read from any serde format and handed back to be written to any (test hook).
    #[cfg(feature = "testing")]
    pub transcode: for<'de> fn(&mut dyn erased_serde::Deserializer<'de>) -> Result<Transcoded, erased_serde::Error>,
    /// The relay of JSON text.
    #[cfg(feature = "testing")]
    pub relay: fn(&[u8]) -> Result<String, Violation>,
    /// The skim's verdict on JSON text ([`crate::__private::skim`]).
    #[cfg(feature = "testing")]
    pub skim: fn(&[u8]) -> bool,
    /// The verdict the skim must equal: the typed read of JSON text, then `garde`.
    #[cfg(feature = "testing")]
    pub read_valid: fn(&[u8]) -> bool,
    /// The derived schema.
    #[cfg(feature = "schemars")]
    pub json_schema: fn() -> Value,
}

impl TypeEntry {
    /// Checks `value` through the type: every violation, each with its JSON Pointer. A value that
    /// does not have the type's shape stops at the first shape error (serde reads one error).
    pub fn check(&self, value: &Value) -> Result<(), Vec<Violation>> {
        (self.hooks.check)(value)
    }

    /// Reads `value` as the type and writes it back: a document of the type's schema comes back
    /// unchanged (nothing given is lost).
    #[cfg(feature = "testing")]
    pub fn round_trip(&self, value: &Value) -> Result<Value, Violation> {
        (self.hooks.round_trip)(value)
    }

    /// Reads `value` as the type and, when the typed value passes `validate()`, writes it back:
    /// `Ok(None)` when it does not validate. Whatever this writes must be a document the schema
    /// accepts (the soundness property, tests/properties.rs).
    #[cfg(feature = "testing")]
    pub fn written(&self, value: &Value) -> Result<Option<Value>, Violation> {
        (self.hooks.written)(value)
    }

    /// Reads JSON text as the type and writes it back compactly: every member comes back with
    /// the same value, and every number with the same text (docs/design.md D-112). Declared
    /// members are written in the schema's order, then undeclared ones in their own order.
    #[cfg(feature = "testing")]
    pub fn relay(&self, json: &[u8]) -> Result<String, Violation> {
        (self.hooks.relay)(json)
    }

    /// The schema schemars derives from the type (draft-07).
    #[cfg(feature = "schemars")]
    pub fn derived_schema(&self) -> Value {
        (self.hooks.json_schema)()
    }
}

/// Every generated type, in flat-name order.
#[cfg(feature = "testing")]
pub fn entries() -> &'static [TypeEntry] {
    crate::generated::TYPES
}

/// The type generated for the schema at `pointer` in `schema` (a path under `schemas/`).
#[cfg(feature = "testing")]
pub fn find(schema: &str, pointer: &str) -> Option<&'static TypeEntry> {
    entries().iter().find(|e| e.schema == schema && e.pointer == pointer)
}

/// Deserialises `value` as `T`, reporting the first shape error with its pointer.
///
/// The value is read as its JSON text, by the reader of JSON bytes: a generated type is then read
/// by one deserializer on the way that succeeds and one on the way that finds the first error,
/// whatever it starts from, instead of one more pair for `Value` (a quarter of the crate's
/// machine code, and of a user's build, went to reading generated types from `Value`:
/// docs/design.md D-166). The error's line and column, places in text the caller never saw, are
/// left out of its message.
pub fn read_value<T: DeserializeOwned>(value: &Value) -> Result<T, Violation> {
    // Nesting past the limit is refused as the bytes reader refuses it, before the value is
    // written (which would recurse as deep as it nests).
    if let Some(pointer) = crate::__private::read::value_too_deep(value) {
        let limit = crate::__private::read::DEPTH_LIMIT;
        let message = format!("arrays and objects nested deeper than {limit} levels");
        return Err(Violation { pointer, message, stage: Stage::Shape });
    }
    let text = value.to_string();
    read_slice_with(text.as_bytes(), false, Positions::Drop)
}

/// Reads `T` straight from JSON bytes in one pass; the first error names its place (`located`),
/// which becomes the violation's JSON Pointer.
pub fn read_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Violation> {
    read_slice_with(bytes, false, Positions::Keep)
}

/// [`read_slice`] for a contract type; one that reads every member
/// ([`crate::Contract::READS_EVERY_MEMBER`]) leaves the nesting to the reader where it can
/// (`read::from_bytes_whole`).
pub fn read_contract_slice<T: crate::Contract>(bytes: &[u8]) -> Result<T, Violation> {
    read_slice_with(bytes, T::READS_EVERY_MEMBER, Positions::Keep)
}

/// Whether an error's message keeps serde_json's " at line L column C".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Positions {
    Keep,
    Drop,
}

fn read_slice_with<T: DeserializeOwned>(
    bytes: &[u8],
    reads_every_member: bool,
    positions: Positions,
) -> Result<T, Violation> {
    let read = if reads_every_member {
        crate::__private::read::from_bytes_whole(bytes)
    } else {
        crate::__private::read::from_bytes(bytes)
    };
    read.map_err(|err| violation(&err, positions))
}

/// The violation a read's error says: the place it names (`located`), and the message, with
/// serde_json's line and column or without.
fn violation(err: &serde_json::Error, positions: Positions) -> Violation {
    let message = err.to_string();
    let (pointer, mut message) = super::located::split(&message);
    if positions == Positions::Drop && err.line() != 0 {
        let position = format!(" at line {} column {}", err.line(), err.column());
        message = message.strip_suffix(&position).unwrap_or(message);
    }
    Violation { pointer, message: message.to_owned(), stage: Stage::Shape }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::ConfidenceScore;
    use serde_json::json;

    /// A value is read as its text: the same first error, at the same pointer, as the text's,
    /// without a line and column the caller never saw; nesting past the limit is refused
    /// without writing the value.
    #[test]
    fn a_value_reads_as_its_text_reads() {
        let value = json!({"reasoning": "one source", "overall": "high"});
        let from_value = read_value::<ConfidenceScore>(&value).expect_err("a string is not a score");
        let from_text = read_slice::<ConfidenceScore>(value.to_string().as_bytes()).expect_err("nor in text");
        assert_eq!(from_value.pointer, "/overall");
        assert_eq!(from_text.pointer, "/overall");
        assert!(from_text.message.contains(" at line 1 column "), "{from_text}");
        assert_eq!(
            from_value.message,
            from_text.message.rsplit_once(" at line ").map(|(message, _)| message).unwrap_or_default()
        );
        let read: ConfidenceScore = read_value(&json!({"overall": 0.5, "reasoning": "r"})).expect("a score");
        assert_eq!(read.overall, 0.5);

        let mut deep = json!(0.5);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        let refused = read_value::<ConfidenceScore>(&json!({"overall": 0.5, "reasoning": "r", "extra": deep}))
            .expect_err("nested past the limit");
        assert_eq!(refused.pointer, format!("/extra{}", "/0".repeat(127)));
        assert!(refused.message.contains("nested deeper than 128 levels"), "{refused}");
    }
}
