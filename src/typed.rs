//! The catalogue of generated types: which Rust type each schema location maps to, and a check
//! of a JSON value through that type — deserialise, then run its garde rules — whose violations
//! name the place as a JSON Pointer with the document's own property names.

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
    /// The typed check (filled in by generated code).
    #[doc(hidden)]
    pub check: fn(&Value) -> Result<(), Vec<Violation>>,
    /// The round trip (filled in by generated code).
    #[doc(hidden)]
    pub round_trip: fn(&Value) -> Result<Value, Violation>,
    /// The soundness probe (filled in by generated code).
    #[doc(hidden)]
    pub written: fn(&Value) -> Result<Option<Value>, Violation>,
    /// The soundness probe with a change only Rust code can make (filled in by generated code).
    #[cfg(feature = "testing")]
    #[doc(hidden)]
    pub poked: fn(&Value, &mut crate::poke::Tweak) -> Result<Option<Value>, Violation>,
    /// The relay of JSON text (filled in by generated code).
    #[doc(hidden)]
    pub relay: fn(&[u8]) -> Result<String, Violation>,
    /// The skim's verdict on JSON text ([`crate::skim`]; filled in by generated code).
    #[doc(hidden)]
    pub skim: fn(&[u8]) -> bool,
    /// The verdict the skim must equal: the typed read of JSON text, then `garde` (filled in by
    /// generated code).
    #[doc(hidden)]
    pub read_valid: fn(&[u8]) -> bool,
    /// The derived schema (filled in by generated code).
    #[cfg(feature = "schemars")]
    #[doc(hidden)]
    pub json_schema: fn() -> Value,
}

impl TypeEntry {
    /// Checks `value` through the type: every violation, each with its JSON Pointer. A value that
    /// does not have the type's shape stops at the first shape error (serde reads one error).
    pub fn check(&self, value: &Value) -> Result<(), Vec<Violation>> {
        (self.check)(value)
    }

    /// Reads `value` as the type and writes it back: a document of the type's schema comes back
    /// unchanged (nothing given is lost).
    pub fn round_trip(&self, value: &Value) -> Result<Value, Violation> {
        (self.round_trip)(value)
    }

    /// Reads `value` as the type and, when the typed value passes `validate()`, writes it back:
    /// `Ok(None)` when it does not validate. Whatever this writes must be a document the schema
    /// accepts (the soundness property, tests/properties.rs).
    pub fn written(&self, value: &Value) -> Result<Option<Value>, Violation> {
        (self.written)(value)
    }

    /// [`TypeEntry::written`] after `tweak` changed the typed value (feature `testing`).
    #[cfg(feature = "testing")]
    #[doc(hidden)]
    pub fn poked(&self, value: &Value, tweak: &mut crate::poke::Tweak) -> Result<Option<Value>, Violation> {
        (self.poked)(value, tweak)
    }

    /// Reads JSON text as the type and writes it back compactly: every member comes back with
    /// the same value, and every number with the same text (docs/decisions.md D-112). Declared
    /// members are written in the schema's order, then undeclared ones in their own order.
    pub fn relay(&self, json: &[u8]) -> Result<String, Violation> {
        (self.relay)(json)
    }

    /// The schema schemars derives from the type (draft-07).
    #[cfg(feature = "schemars")]
    pub fn derived_schema(&self) -> Value {
        (self.json_schema)()
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
pub fn deserialize<T: DeserializeOwned>(value: &Value) -> Result<T, Violation> {
    serde_path_to_error::deserialize(value).map_err(violation)
}

/// Reads `T` straight from JSON bytes in one pass; only when that fails are the bytes read again,
/// tracking the path, to give the first error its JSON Pointer.
///
/// ```
/// use jerry_contracts::agents::ps::ResearcherOutput;
///
/// let err = jerry_contracts::typed::from_slice::<ResearcherOutput>(br#"{"agent_id": "ps-researcher", "agent_id": "ps-researcher"}"#)
///     .unwrap_err();
/// assert_eq!(err.pointer, "/agent_id");
/// assert!(err.message.starts_with("duplicate member `agent_id`"));
/// ```
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Violation> {
    crate::read::from_bytes(bytes).map_err(|_| {
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

const NESTED_PREFIX: &str = "at ";
const NESTED_SUFFIX: &str = ": ";

/// The message a type that deserialises its own content gives serde for an inner violation,
/// so that [`deserialize`] can restore the full pointer.
pub fn nested(violation: &Violation) -> String {
    if violation.pointer.is_empty() {
        violation.message.clone()
    } else {
        format!("{NESTED_PREFIX}{}{NESTED_SUFFIX}{}", violation.pointer, violation.message)
    }
}

/// The typed check of a type with garde rules (used by generated code).
#[doc(hidden)]
pub fn check_validated<T>(value: &Value) -> Result<(), Vec<Violation>>
where
    T: DeserializeOwned + garde::Validate<Context = ()>,
{
    let typed: T = deserialize(value).map_err(|v| vec![v])?;
    typed.validate().map_err(|report| {
        report
            .iter()
            .map(|(path, error)| Violation {
                pointer: crate::pointer::from_garde_path(path),
                message: error.message().to_owned(),
                stage: Stage::Constraint,
            })
            .collect()
    })
}

/// The soundness probe of a type with garde rules (used by generated code).
#[doc(hidden)]
pub fn written_validated<T>(value: &Value) -> Result<Option<Value>, Violation>
where
    T: DeserializeOwned + serde::Serialize + garde::Validate<Context = ()>,
{
    let typed: T = deserialize(value)?;
    if typed.validate().is_err() {
        return Ok(None);
    }
    write(&typed).map(Some)
}

/// The soundness probe of a type with garde rules after a tweak (used by generated code).
#[cfg(feature = "testing")]
#[doc(hidden)]
pub fn poked_validated<T>(value: &Value, tweak: &mut crate::poke::Tweak) -> Result<Option<Value>, Violation>
where
    T: DeserializeOwned + serde::Serialize + garde::Validate<Context = ()> + crate::poke::Poke,
{
    let mut typed: T = deserialize(value)?;
    crate::poke::apply(&mut typed, tweak);
    if typed.validate().is_err() {
        return Ok(None);
    }
    write(&typed).map(Some)
}

/// The soundness probe of a type that is valid by construction, after a tweak (used by
/// generated code).
#[cfg(feature = "testing")]
#[doc(hidden)]
pub fn poked_shape<T>(value: &Value, tweak: &mut crate::poke::Tweak) -> Result<Option<Value>, Violation>
where
    T: DeserializeOwned + serde::Serialize + crate::poke::Poke,
{
    let mut typed: T = deserialize(value)?;
    crate::poke::apply(&mut typed, tweak);
    write(&typed).map(Some)
}

/// The soundness probe of a type that is valid by construction (used by generated code).
#[doc(hidden)]
pub fn written_shape<T: DeserializeOwned + serde::Serialize>(value: &Value) -> Result<Option<Value>, Violation> {
    let typed: T = deserialize(value)?;
    write(&typed).map(Some)
}

fn write<T: serde::Serialize>(typed: &T) -> Result<Value, Violation> {
    serde_json::to_value(typed).map_err(|err| Violation {
        pointer: String::new(),
        message: err.to_string(),
        stage: Stage::Shape,
    })
}

/// Reads JSON text and writes it back (used by generated code).
#[doc(hidden)]
pub fn relay<T: DeserializeOwned + serde::Serialize>(json: &[u8]) -> Result<String, Violation> {
    let typed: T = from_slice(json)?;
    serde_json::to_string(&typed).map_err(|err| Violation {
        pointer: String::new(),
        message: err.to_string(),
        stage: Stage::Shape,
    })
}

/// Deserialises and serialises back (used by generated code).
#[doc(hidden)]
pub fn round_trip<T: DeserializeOwned + serde::Serialize>(value: &Value) -> Result<Value, Violation> {
    let typed: T = deserialize(value)?;
    serde_json::to_value(&typed).map_err(|err| Violation {
        pointer: String::new(),
        message: err.to_string(),
        stage: Stage::Shape,
    })
}

/// Whether `bytes` skim clean as a `T` ([`crate::skim`]).
#[doc(hidden)]
pub fn skimmed<T: crate::skim::Skim>(bytes: &[u8]) -> bool {
    crate::skim::document::<T>(bytes, &mut crate::skim::Cx::new())
}

/// Whether `bytes` read as a `T` that passes its `garde` rules.
#[doc(hidden)]
pub fn read_validated<T: DeserializeOwned + garde::Validate<Context = ()>>(bytes: &[u8]) -> bool {
    crate::read::from_bytes::<T>(bytes).is_ok_and(|typed| typed.validate().is_ok())
}

/// Whether `bytes` read as a `T` (a type without rules).
#[doc(hidden)]
pub fn read_shaped<T: DeserializeOwned>(bytes: &[u8]) -> bool {
    crate::read::from_bytes::<T>(bytes).is_ok()
}

/// The typed check of a type that is valid by construction (enums, constants, format types;
/// used by generated code).
#[doc(hidden)]
pub fn check_shape<T: DeserializeOwned>(value: &Value) -> Result<(), Vec<Violation>> {
    deserialize::<T>(value).map(drop).map_err(|v| vec![v])
}

/// The draft-07 schema schemars derives for `T`.
#[cfg(feature = "schemars")]
#[doc(hidden)]
pub fn json_schema<T: schemars::JsonSchema>() -> Value {
    schemars::generate::SchemaSettings::draft07().into_generator().into_root_schema_for::<T>().to_value()
}

/// A serde_path_to_error path as a JSON Pointer. Where the missing thing is a field, serde
/// reports the path of the object that lacks it, which is the pointer JSON Schema uses too.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
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
