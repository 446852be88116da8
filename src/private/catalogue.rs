//! The catalogue of generated types (test hooks): which Rust type each schema location maps to,
//! and a check of a JSON value through that type (deserialise, then its garde rules) whose
//! violations name the place as a JSON Pointer with the document's own property names; and the
//! first-error typed reads the crate's own readers use. Users read with [`crate::typed`], which
//! answers with a [`crate::validation::Report`].

use serde::de::DeserializeOwned;
use serde_json::Value;

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
    pub(crate) hooks: crate::__private::typed::Hooks,
}

impl TypeEntry {
    /// Checks `value` through the type: every violation, each with its JSON Pointer. A value that
    /// does not have the type's shape stops at the first shape error (serde reads one error).
    pub fn check(&self, value: &Value) -> Result<(), Vec<Violation>> {
        (self.hooks.check)(value)
    }

    /// Reads `value` as the type and writes it back: a document of the type's schema comes back
    /// unchanged (nothing given is lost).
    pub fn round_trip(&self, value: &Value) -> Result<Value, Violation> {
        (self.hooks.round_trip)(value)
    }

    /// Reads `value` as the type and, when the typed value passes `validate()`, writes it back:
    /// `Ok(None)` when it does not validate. Whatever this writes must be a document the schema
    /// accepts (the soundness property, tests/properties.rs).
    pub fn written(&self, value: &Value) -> Result<Option<Value>, Violation> {
        (self.hooks.written)(value)
    }

    /// Reads JSON text as the type and writes it back compactly: every member comes back with
    /// the same value, and every number with the same text (docs/decisions.md D-112). Declared
    /// members are written in the schema's order, then undeclared ones in their own order.
    pub fn relay(&self, json: &[u8]) -> Result<String, Violation> {
        (self.hooks.relay)(json)
    }

    /// The schema schemars derives from the type (draft-07).
    #[cfg(feature = "schemars")]
    pub fn derived_schema(&self) -> Value {
        (self.hooks.json_schema)()
    }
}

/// Which step of the typed check found a violation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The value does not have the type's shape (a missing field, a wrong type, an unknown enum
    /// value, a malformed date): serde's error.
    Shape,
    /// A constraint the type's garde rules check (pattern, range, length, count, uniqueness).
    Constraint,
}

/// One violation found by a typed check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON Pointer of the offending value (for a missing field, of the object lacking it).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// The step that found it.
    pub stage: Stage,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

/// Every generated type, in flat-name order.
pub fn entries() -> &'static [TypeEntry] {
    crate::generated::TYPES
}

/// The type generated for the schema at `pointer` in `schema` (a path under `schemas/`).
pub fn find(schema: &str, pointer: &str) -> Option<&'static TypeEntry> {
    entries().iter().find(|e| e.schema == schema && e.pointer == pointer)
}

/// Deserialises `value` as `T`, reporting the first shape error with its pointer.
pub fn read_value<T: DeserializeOwned>(value: &Value) -> Result<T, Violation> {
    serde_path_to_error::deserialize(value).map_err(violation)
}

/// Reads `T` straight from JSON bytes in one pass; only when that fails are the bytes read again,
/// tracking the path, to give the first error its JSON Pointer.
pub fn read_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Violation> {
    read_slice_with(bytes, false)
}

/// [`read_slice`] for a contract type; one that reads every member
/// ([`crate::Contract::READS_EVERY_MEMBER`]) leaves the nesting to the reader where it can
/// (`read::from_bytes_whole`).
pub fn read_contract_slice<T: crate::Contract>(bytes: &[u8]) -> Result<T, Violation> {
    read_slice_with(bytes, T::READS_EVERY_MEMBER)
}

fn read_slice_with<T: DeserializeOwned>(bytes: &[u8], reads_every_member: bool) -> Result<T, Violation> {
    let read = if reads_every_member {
        crate::__private::read::from_bytes_whole(bytes)
    } else {
        crate::__private::read::from_bytes(bytes)
    };
    read.map_err(|_| {
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
            Err(err) => violation(err),
            // Not reached: the same bytes fail the same way; report the first error regardless.
            Ok(_) => Violation { pointer: String::new(), message: "unreadable".to_owned(), stage: Stage::Shape },
        }
    })
}

fn violation<E: std::fmt::Display>(err: serde_path_to_error::Error<E>) -> Violation {
    let mut pointer = pointer_of(err.path());
    let mut message = err.into_inner().to_string();
    // A type that deserialises its content itself (the payload dispatch) reports the inner
    // place in its message; move it into the pointer.
    if let Some((inner, rest)) = message.strip_prefix(NESTED_PREFIX).and_then(|m| m.split_once(NESTED_SUFFIX)) {
        pointer.push_str(inner);
        message = rest.to_owned();
    }
    Violation { pointer, message, stage: Stage::Shape }
}

pub const NESTED_PREFIX: &str = "at ";
pub const NESTED_SUFFIX: &str = ": ";

/// A serde_path_to_error path as a JSON Pointer. Where the missing thing is a field, serde
/// reports the path of the object that lacks it, which is the pointer JSON Schema uses too.
pub fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            // A number reads its source text through serde_json's raw-value map.
            Segment::Map { key } if key == crate::number::RAW_TOKEN => {}
            Segment::Map { key } => {
                jerry_contracts_pointer::push(&mut pointer, key);
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    pointer
}
