//! JSON text held in memory (an unknown member, a kept number's text, a member read ahead of a
//! payload's `agent_id`), read from and written to any serde format.
//!
//! serde_json hands over a value's exact text when asked for its raw-value name; every other
//! deserializer reports the value as it is, and it is written out here as JSON text. Writing
//! goes the other way: serde_json's serializer (and wrappers that keep its error type, such as
//! `serde_path_to_error`) gets the text verbatim; every other serializer gets ordinary values,
//! so that no format ever sees serde_json's private raw-value token (docs/design.md D-154).

use std::collections::HashSet;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;

/// The name serde_json gives a raw value; asking for it gets a value's source text (a number's,
/// a captured member's).
pub const RAW_TOKEN: &str = "$serde_json::private::RawValue";

/// The message of a duplicate-member error; [`crate::validation`] recognises it.
pub const DUPLICATE: &str = "duplicate member ";

/// The nesting a value read from another format may have: the JSON reader's limit
/// (`read::too_deep`, D-137).
const MAX_DEPTH: usize = 128;

/// Whether `S` is serde_json's serializer (or a wrapper keeping its error type), which writes a
/// raw value's text verbatim.
pub fn is_serde_json<S: Serializer>() -> bool {
    typeid::of::<S::Error>() == typeid::of::<serde_json::Error>()
}

/// The JSON text of the next value of any deserializer: the exact text from serde_json, the
/// value written as JSON from any other format.
pub fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Box<RawValue>, D::Error> {
    deserializer.deserialize_newtype_struct(RAW_TOKEN, Capture)
}

/// [`read`] as a seed, for `next_value_seed`.
pub struct Seed;

impl<'de> DeserializeSeed<'de> for Seed {
    type Value = Box<RawValue>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Box<RawValue>, D::Error> {
        read(deserializer)
    }
}

/// A raw value written as its text to serde_json, and as ordinary values to every other format.
pub struct Written<'a>(pub &'a RawValue);

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if is_serde_json::<S>() {
            return self.0.serialize(serializer);
        }
        // The text is one JSON value (a `RawValue` is checked when made); a number no format
        // value holds (beyond `f64`) is an error, not a silent change.
        let value: serde_json::Value = serde_json::from_str(self.0.get()).map_err(|err| {
            serde::ser::Error::custom(format_args!(
                "`{}` cannot be written in this format: {err}",
                crate::shorten::shortened(self.0.get(), 40)
            ))
        })?;
        value.serialize(serializer)
    }
}

/// The first visit of [`read`]: serde_json's raw-value map, or a value of another format.
struct Capture;

impl<'de> Visitor<'de> for Capture {
    type Value = Box<RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value with a JSON form")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Box<RawValue>, D::Error> {
        let mut out = String::new();
        deserializer.deserialize_any(Json { out: &mut out, depth: 0 })?;
        finish(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Box<RawValue>, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return finish(String::from("{}"));
        };
        if first == RAW_TOKEN {
            // serde_json's answer: the value's text, checked again as one JSON value since a map
            // of another format may carry the same key.
            let text: String = map.next_value()?;
            return RawValue::from_string(text).map_err(de::Error::custom);
        }
        let mut out = String::new();
        Json { out: &mut out, depth: 0 }.members(Some(first), map)?;
        finish(out)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_i64(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_i128(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_u64(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_u128(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_f64(v))
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_char(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_str(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_bytes(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_unit())
    }
    fn visit_none<E: de::Error>(self) -> Result<Box<RawValue>, E> {
        scalar(|json| json.visit_unit())
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Box<RawValue>, D::Error> {
        self.visit_newtype_struct(deserializer)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Box<RawValue>, A::Error> {
        let mut out = String::new();
        Json { out: &mut out, depth: 0 }.visit_seq(seq)?;
        finish(out)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Box<RawValue>, A::Error> {
        let mut out = String::new();
        Json { out: &mut out, depth: 0 }.visit_enum(data)?;
        finish(out)
    }
}

fn scalar<E: de::Error>(write: impl FnOnce(Json<'_>) -> Result<(), E>) -> Result<Box<RawValue>, E> {
    let mut out = String::new();
    write(Json { out: &mut out, depth: 0 })?;
    finish(out)
}

/// The text written: one JSON value by construction, checked by serde_json as it is boxed.
fn finish<E: de::Error>(out: String) -> Result<Box<RawValue>, E> {
    RawValue::from_string(out).map_err(E::custom)
}

/// Writes the value visited as JSON text into `out`.
struct Json<'a> {
    out: &'a mut String,
    depth: usize,
}

impl Json<'_> {
    fn nested(&mut self) -> Json<'_> {
        Json { out: self.out, depth: self.depth + 1 }
    }

    fn enter<E: de::Error>(&self) -> Result<(), E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format_args!("the value is nested more than {MAX_DEPTH} levels deep")));
        }
        Ok(())
    }

    fn string(&mut self, text: &str) {
        // Writing a `str` as JSON into a `String` cannot fail.
        if let Ok(quoted) = serde_json::to_string(text) {
            self.out.push_str(&quoted);
        }
    }

    /// The members of an object whose first name was already read.
    fn members<'de, A: MapAccess<'de>>(mut self, first: Option<String>, mut map: A) -> Result<(), A::Error> {
        self.enter()?;
        self.out.push('{');
        let mut seen = HashSet::new();
        let mut next = first;
        if next.is_none() {
            next = map.next_key_seed(Name)?;
        }
        while let Some(name) = next {
            if !seen.insert(name.clone()) {
                return Err(de::Error::custom(format_args!("{}`{name}`", DUPLICATE)));
            }
            if seen.len() > 1 {
                self.out.push(',');
            }
            self.string(&name);
            self.out.push(':');
            map.next_value_seed(self.nested())?;
            next = map.next_key_seed(Name)?;
        }
        self.out.push('}');
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Json<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Json<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value with a JSON form")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        match serde_json::Number::from_f64(v) {
            Some(number) => {
                let _ = write!(self.out, "{number}");
                Ok(())
            }
            None => Err(E::custom(format_args!("the number {v} has no JSON form"))),
        }
    }
    fn visit_char<E: de::Error>(mut self, v: char) -> Result<(), E> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<(), E> {
        self.string(v);
        Ok(())
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        Err(E::custom(format_args!("a byte string ({} bytes) has no JSON form", v.len())))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.out.push_str("null");
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        self.enter()?;
        self.out.push('[');
        let mut first = true;
        loop {
            let mark = self.out.len();
            if !first {
                self.out.push(',');
            }
            if seq.next_element_seed(self.nested())?.is_none() {
                self.out.truncate(mark);
                break;
            }
            first = false;
        }
        self.out.push(']');
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.members(None, map)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(de::Error::custom("a tagged value (an enum variant) has no JSON form"))
    }
}

/// A member name: a string (a name of another type has no JSON form).
struct Name;

impl<'de> DeserializeSeed<'de> for Name {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_string(self)
    }
}

impl Visitor<'_> for Name {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name (a string)")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<String, E> {
        Ok(v.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_json_text_is_kept_exactly() {
        let mut deserializer = serde_json::Deserializer::from_str(r#" {"b": 1.50, "a": [1e2, "x"]} "#);
        let raw = read(&mut deserializer).unwrap();
        assert_eq!(raw.get(), r#"{"b": 1.50, "a": [1e2, "x"]}"#);
        let value: serde_json::Value = serde_json::json!({"n": 1.5, "s": "é\"", "l": [null, true, -3]});
        let raw = read(value.clone()).unwrap();
        assert_eq!(serde_json::from_str::<serde_json::Value>(raw.get()).unwrap(), value);
    }

    #[test]
    fn other_formats_are_written_as_json() {
        use serde::de::IntoDeserializer;
        use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
        let map = MapDeserializer::<_, Error>::new(vec![("a", 1.25f64), ("b", -2.0)].into_iter());
        assert_eq!(read(map).unwrap().get(), r#"{"a":1.25,"b":-2.0}"#);
        let seq = SeqDeserializer::<_, Error>::new(vec!["x", "y\n"].into_iter());
        assert_eq!(read(seq).unwrap().get(), r#"["x","y\n"]"#);
        assert_eq!(read(IntoDeserializer::<Error>::into_deserializer(u128::MAX)).unwrap().get(), u128::MAX.to_string());
        let nan = read(IntoDeserializer::<Error>::into_deserializer(f64::NAN)).unwrap_err();
        assert!(nan.to_string().contains("no JSON form"), "{nan}");
        let twice = MapDeserializer::<_, Error>::new(vec![("a", 1), ("a", 2)].into_iter());
        assert!(read(twice).unwrap_err().to_string().contains("duplicate member `a`"));
        let bytes = read(IntoDeserializer::<Error>::into_deserializer(&b"\x00"[..])).unwrap_err();
        assert!(bytes.to_string().contains("byte string"), "{bytes}");
    }

    #[test]
    fn depth_is_bounded() {
        use serde::de::value::{Error, SeqDeserializer};
        // 200 nested sequences, built from the inside out.
        fn nest(depth: usize) -> serde_json::Value {
            (0..depth).fold(serde_json::Value::Null, |inner, _| serde_json::Value::Array(vec![inner]))
        }
        let deep = nest(200);
        let serde_json::Value::Array(items) = deep else { unreachable!() };
        let err = read(SeqDeserializer::<_, Error>::new(items.into_iter().map(ValueDe))).unwrap_err();
        assert!(err.to_string().contains("nested more than 128"), "{err}");

        /// A `Value` seen as a deserializer that is not serde_json's (no raw text).
        struct ValueDe(serde_json::Value);
        impl<'de> de::IntoDeserializer<'de, Error> for ValueDe {
            type Deserializer = Self;
            fn into_deserializer(self) -> Self {
                self
            }
        }
        impl<'de> Deserializer<'de> for ValueDe {
            type Error = Error;
            fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                match self.0 {
                    serde_json::Value::Array(items) => {
                        visitor.visit_seq(SeqDeserializer::new(items.into_iter().map(ValueDe)))
                    }
                    _ => visitor.visit_unit(),
                }
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
                unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
            }
        }
    }

    #[test]
    fn writing_to_another_format_gives_values() {
        let raw = RawValue::from_string(r#"{"a": 1.50, "b": [1e2]}"#.to_owned()).unwrap();
        assert_eq!(serde_json::to_string(&Written(&raw)).unwrap(), r#"{"a": 1.50, "b": [1e2]}"#);
        // `serde_json::Value` is a serializer with serde_json's error type that understands raw text.
        let value = serde_json::to_value(Written(&raw)).unwrap();
        assert_eq!(value, serde_json::json!({"a": 1.5, "b": [100.0]}));
        // A serializer of another kind (serde's own test of a `Serialize` into tokens would do; a
        // string of Debug output from an erased serializer is enough to see no token).
        let mut out = Vec::new();
        let mut serializer = serde_json::Serializer::new(&mut out);
        let mut track = serde_path_to_error::Track::new();
        Written(&raw).serialize(serde_path_to_error::Serializer::new(&mut serializer, &mut track)).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), r#"{"a": 1.50, "b": [1e2]}"#);
    }
}
