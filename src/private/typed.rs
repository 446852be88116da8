//! The runtime of the generated type catalogue ([`TypeEntry`]): the typed check,
//! round trip, relay, skim and soundness probes each generated type's entry points at.

use serde::de::DeserializeOwned;
use serde_json::Value;

pub use super::catalogue::{Hooks, TypeEntry, read_contract_slice, read_slice, read_value};
#[cfg(feature = "testing")]
pub use super::catalogue::{entries, find};
pub use super::violation::{Stage, Violation};

/// The catalogue entry of one generated type (what the generated `TYPES` holds).
pub const fn entry(schema: &'static str, pointer: &'static str, rust_path: &'static str, hooks: Hooks) -> TypeEntry {
    TypeEntry { schema, pointer, rust_path, hooks }
}

/// The skim's verdict on JSON text as the entry's type (test hook: `tests/skim.rs`).
#[cfg(feature = "testing")]
pub fn skim(entry: &TypeEntry, bytes: &[u8]) -> bool {
    (entry.hooks.skim)(bytes)
}

/// The typed read of JSON text as the entry's type, then `garde`: the verdict the skim must
/// equal (test hook).
#[cfg(feature = "testing")]
pub fn read_valid(entry: &TypeEntry, bytes: &[u8]) -> bool {
    (entry.hooks.read_valid)(bytes)
}

/// [`TypeEntry::written`] after `tweak` changed the typed value (test hook, feature `testing`).
#[cfg(feature = "testing")]
pub fn poked(
    entry: &TypeEntry,
    value: &Value,
    tweak: &mut crate::__private::poke::Tweak,
) -> Result<Option<Value>, Violation> {
    (entry.hooks.poked)(value, tweak)
}

#[cfg(feature = "testing")]
pub use super::catalogue::Transcoded;

/// Reads the entry's type from `deserializer`, of any serde format, and returns the value to be
/// written to any format (test hook, feature `testing`: `tests/formats.rs`).
///
/// # Errors
/// The deserializer's error: the input is not a value of the type.
#[cfg(feature = "testing")]
pub fn transcode(
    entry: &TypeEntry,
    deserializer: &mut dyn erased_serde::Deserializer<'_>,
) -> Result<Transcoded, erased_serde::Error> {
    (entry.hooks.transcode)(deserializer)
}

/// [`Hooks::transcode`] for `T` (used by generated code).
#[cfg(feature = "testing")]
pub fn transcoded<T>(deserializer: &mut dyn erased_serde::Deserializer<'_>) -> Result<Transcoded, erased_serde::Error>
where
    T: DeserializeOwned + serde::Serialize + 'static,
{
    Ok(Box::new(erased_serde::deserialize::<T>(deserializer)?))
}

/// The typed check of a type with garde rules (used by generated code).
pub fn check_validated<T>(value: &Value) -> Result<(), Vec<Violation>>
where
    T: DeserializeOwned + garde::Validate<Context = ()>,
{
    let typed: T = read_value(value).map_err(|v| vec![v])?;
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
pub fn written_validated<T>(value: &Value) -> Result<Option<Value>, Violation>
where
    T: DeserializeOwned + serde::Serialize + garde::Validate<Context = ()>,
{
    let typed: T = read_value(value)?;
    if typed.validate().is_err() {
        return Ok(None);
    }
    write(&typed).map(Some)
}

/// The soundness probe of a type with garde rules after a tweak (used by generated code).
#[cfg(feature = "testing")]
pub fn poked_validated<T>(value: &Value, tweak: &mut crate::__private::poke::Tweak) -> Result<Option<Value>, Violation>
where
    T: DeserializeOwned + serde::Serialize + garde::Validate<Context = ()> + crate::__private::poke::Poke,
{
    let mut typed: T = read_value(value)?;
    crate::__private::poke::apply(&mut typed, tweak);
    if typed.validate().is_err() {
        return Ok(None);
    }
    write(&typed).map(Some)
}

/// The soundness probe of a type that is valid by construction, after a tweak (used by
/// generated code).
#[cfg(feature = "testing")]
pub fn poked_shape<T>(value: &Value, tweak: &mut crate::__private::poke::Tweak) -> Result<Option<Value>, Violation>
where
    T: DeserializeOwned + serde::Serialize + crate::__private::poke::Poke,
{
    let mut typed: T = read_value(value)?;
    crate::__private::poke::apply(&mut typed, tweak);
    write(&typed).map(Some)
}

/// The soundness probe of a type that is valid by construction (used by generated code).
pub fn written_shape<T: DeserializeOwned + serde::Serialize>(value: &Value) -> Result<Option<Value>, Violation> {
    let typed: T = read_value(value)?;
    write(&typed).map(Some)
}

fn write<T: serde::Serialize>(typed: &T) -> Result<Value, Violation> {
    super::read::written_value(typed).map_err(|err| Violation {
        pointer: String::new(),
        message: err.to_string(),
        stage: Stage::Shape,
    })
}

/// Reads JSON text and writes it back (used by generated code).
pub fn relay<T: DeserializeOwned + serde::Serialize>(json: &[u8]) -> Result<String, Violation> {
    let typed: T = read_slice(json)?;
    serde_json::to_string(&typed).map_err(|err| Violation {
        pointer: String::new(),
        message: err.to_string(),
        stage: Stage::Shape,
    })
}

/// Deserialises and serialises back (used by generated code).
pub fn round_trip<T: DeserializeOwned + serde::Serialize>(value: &Value) -> Result<Value, Violation> {
    let typed: T = read_value(value)?;
    super::read::written_value(&typed).map_err(|err| Violation {
        pointer: String::new(),
        message: err.to_string(),
        stage: Stage::Shape,
    })
}

/// Whether `bytes` skim clean as a `T` ([`crate::__private::skim`]).
pub fn skimmed<T: crate::__private::skim::Skim>(bytes: &[u8]) -> bool {
    crate::__private::skim::document::<T>(bytes, &mut crate::__private::skim::Cx::new())
}

/// Whether `bytes` read as a `T` that passes its `garde` rules.
pub fn read_validated<T: DeserializeOwned + garde::Validate<Context = ()>>(bytes: &[u8]) -> bool {
    crate::__private::read::from_bytes::<T>(bytes).is_ok_and(|typed| typed.validate().is_ok())
}

/// Whether `bytes` read as a `T` (a type without rules).
pub fn read_shaped<T: DeserializeOwned>(bytes: &[u8]) -> bool {
    crate::__private::read::from_bytes::<T>(bytes).is_ok()
}

/// The typed check of a type that is valid by construction (enums, constants, format types;
/// used by generated code).
pub fn check_shape<T: DeserializeOwned>(value: &Value) -> Result<(), Vec<Violation>> {
    read_value::<T>(value).map(drop).map_err(|v| vec![v])
}

/// The draft-07 schema schemars derives for `T`.
#[cfg(feature = "schemars")]
pub fn json_schema<T: schemars::JsonSchema>() -> Value {
    schemars::generate::SchemaSettings::draft07().into_generator().into_root_schema_for::<T>().to_value()
}

/// Every violation of `value`'s garde rules, as (JSON Pointer, message) pairs: the generated
/// `Contract::constraint_violations` of a type with rules.
pub fn constraint_violations<T: garde::Validate<Context = ()>>(value: &T) -> Vec<(String, String)> {
    match value.validate() {
        Ok(()) => Vec::new(),
        Err(report) => report
            .iter()
            .map(|(path, error)| (crate::pointer::from_garde_path(path), error.message().to_owned()))
            .collect(),
    }
}
