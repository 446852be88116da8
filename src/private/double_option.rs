//! `serde` `with` module for an optional, nullable field, which can be absent, `null` or a
//! value:
//!
//! | JSON            | Rust              |
//! |-----------------|-------------------|
//! | absent          | `None`            |
//! | `null`          | `Some(None)`      |
//! | a value         | `Some(Some(v))`   |
//!
//! Used as `#[serde(default, skip_serializing_if = "Option::is_none", with =
//! "::jerry_contracts::__private::double_option")]`, which writes each case back the way it was read.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Writes `Some(None)` as `null` and `Some(Some(v))` as `v`. `None` is written as `null`
/// too, but the field attribute skips it, so an absent field stays absent.
pub fn serialize<S, T>(value: &Option<Option<T>>, serializer: S) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    T: Serialize,
{
    match value {
        Some(inner) => inner.serialize(serializer),
        None => serializer.serialize_none(),
    }
}

/// Reads `null` as `Some(None)` and a value as `Some(Some(v))`. An absent field never
/// reaches this: the field attribute's `default` makes it `None`.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Patch {
        #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::__private::double_option")]
        note: Option<Option<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::__private::double_option")]
        count: Option<Option<u32>>,
    }

    #[test]
    fn double_option_round_trips_absent_null_and_value() {
        for (text, expected) in [
            (r#"{}"#, Patch { note: None, count: None }),
            (r#"{"note":null}"#, Patch { note: Some(None), count: None }),
            (r#"{"note":"hi"}"#, Patch { note: Some(Some("hi".into())), count: None }),
            (r#"{"note":null,"count":3}"#, Patch { note: Some(None), count: Some(Some(3)) }),
            (r#"{"count":null}"#, Patch { note: None, count: Some(None) }),
        ] {
            let patch: Patch = serde_json::from_str(text).unwrap();
            assert_eq!(patch, expected, "reading {text}");
            assert_eq!(serde_json::to_string(&patch).unwrap(), text, "writing {patch:?}");
        }
        assert!(serde_json::from_str::<Patch>(r#"{"count":"three"}"#).is_err());
    }
}
