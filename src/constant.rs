//! JSON constants as Rust types: [`True`], the type of a property declared `"const": true`
//! (a generated struct's field such as `accepted: True`), which holds no other value.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The JSON constant `true`, for a property declared `"const": true`.
///
/// Serialises as `true`; deserialises from `true` only. Anything else is an error such as
/// `expected the constant true, found false`. Deserialising needs a self-describing format
/// (JSON is one), so the message can say what was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct True;

impl Serialize for True {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(true)
    }
}

impl<'de> Deserialize<'de> for True {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TrueVisitor;

        fn found<E: de::Error>(what: impl fmt::Display) -> Result<True, E> {
            Err(E::custom(format_args!("expected the constant true, found {what}")))
        }

        impl<'de> Visitor<'de> for TrueVisitor {
            type Value = True;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the constant true")
            }

            fn visit_bool<E: de::Error>(self, value: bool) -> Result<True, E> {
                if value { Ok(True) } else { found("false") }
            }

            fn visit_i64<E: de::Error>(self, value: i64) -> Result<True, E> {
                found(value)
            }

            fn visit_u64<E: de::Error>(self, value: u64) -> Result<True, E> {
                found(value)
            }

            fn visit_f64<E: de::Error>(self, value: f64) -> Result<True, E> {
                found(value)
            }

            fn visit_str<E: de::Error>(self, value: &str) -> Result<True, E> {
                found(format_args!("{value:?}"))
            }

            fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<True, E> {
                found("bytes")
            }

            fn visit_unit<E: de::Error>(self) -> Result<True, E> {
                found("null")
            }

            fn visit_none<E: de::Error>(self) -> Result<True, E> {
                found("null")
            }

            fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<True, D::Error> {
                True::deserialize(deserializer)
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<True, A::Error> {
                found("an array")
            }

            fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<True, A::Error> {
                found("an object")
            }
        }

        deserializer.deserialize_any(TrueVisitor)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for True {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "True".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "jerry_contracts::constant::True".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "boolean", "const": true})
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use serde_json::json;

    use super::*;

    #[test]
    fn true_round_trips_and_rejects_everything_else() {
        assert_eq!(serde_json::to_value(True).unwrap(), json!(true));
        assert_eq!(serde_json::from_value::<True>(json!(true)).unwrap(), True);
        assert_eq!(serde_json::from_str::<True>("true").unwrap(), True);
        for (input, found) in [
            (json!(false), "false"),
            (json!(null), "null"),
            (json!(1), "1"),
            (json!(-1), "-1"),
            (json!(1.5), "1.5"),
            (json!("true"), "\"true\""),
            (json!([true]), "an array"),
            (json!({"a": true}), "an object"),
        ] {
            let error = serde_json::from_value::<True>(input.clone()).unwrap_err().to_string();
            assert_eq!(error, format!("expected the constant true, found {found}"), "for {input}");
            let error = serde_json::from_str::<True>(&input.to_string()).unwrap_err().to_string();
            assert!(error.starts_with(&format!("expected the constant true, found {found}")), "{error}");
        }
    }

    #[test]
    fn true_in_a_struct() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Flag {
            accepted: True,
        }
        let flag: Flag = serde_json::from_str(r#"{"accepted": true}"#).unwrap();
        assert_eq!(serde_json::to_string(&flag).unwrap(), r#"{"accepted":true}"#);
        let error = serde_json::from_str::<Flag>(r#"{"accepted": false}"#).unwrap_err().to_string();
        assert!(error.starts_with("expected the constant true, found false"), "{error}");
    }
}
