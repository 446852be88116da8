//! JSON numbers that keep their source text: every `number` and `integer` field of the generated
//! types is a [`Number`], so a document read and written back keeps each number exactly as it
//! was written (`1` stays `1` in a `number` field, `1.0` stays `1.0` in an `integer` field, and
//! `0.1000000000000000055511151231257827` keeps all its digits), while code works with a plain
//! `f64` or `i64` (docs/design.md D-112).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, DeserializeSeed, MapAccess, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::__private::raw::RAW_TOKEN;

/// A JSON number as a value of `T` (`f64` for `number`, `i64` for `integer`) together with its
/// source text when that text is not the one serde_json writes for the value.
///
/// Reading keeps the text only when it differs from the canonical form (`1` in a `number`
/// field, `1e2`, `0.50`, digits beyond `f64` precision), so most numbers carry none. Writing
/// with serde_json gives the kept text back verbatim; every other serializer gets the value.
///
/// Equality, order and hashing compare values: `Number::from(1.0) == "1".parse().unwrap()`.
/// A number built from a value ([`Number::new`], `From<T>`) has no text; changing the value
/// drops the text.
///
/// ```
/// use jerry_contracts::Number;
///
/// let read: Number<f64> = serde_json::from_str("0.50").unwrap();
/// assert_eq!(read.get(), 0.5);
/// assert_eq!(serde_json::to_string(&read).unwrap(), "0.50");
/// assert_eq!(serde_json::to_string(&Number::new(0.5)).unwrap(), "0.5");
/// ```
#[derive(Clone, Default)]
pub struct Number<T> {
    value: T,
    text: Option<Box<RawValue>>,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f64 {}
    impl Sealed for i64 {}
}

/// The value types a [`Number`] holds: `f64` (JSON Schema `number`) and `i64` (`integer`).
pub trait Numeric: sealed::Sealed + Copy + PartialOrd + fmt::Debug + fmt::Display + Serialize + FromStr {
    /// The value of a JSON number's text, or why this type cannot hold it.
    #[doc(hidden)]
    fn from_json(text: &str) -> Result<Self, String>;
    /// The value of a number a non-JSON deserializer reports as a signed integer.
    #[doc(hidden)]
    fn from_i64(value: i64) -> Result<Self, String>;
    /// The value of a number a non-JSON deserializer reports as an unsigned integer.
    #[doc(hidden)]
    fn from_u64(value: u64) -> Result<Self, String>;
    /// The value of a number a non-JSON deserializer reports as a float.
    #[doc(hidden)]
    fn from_f64(value: f64) -> Result<Self, String>;
    /// Whether `text` is what serde_json writes for `self`.
    #[doc(hidden)]
    fn is_canonical(self, text: &str) -> bool;
    /// [`Numeric::from_json`] and [`Numeric::is_canonical`] at once (one pass where the text is
    /// plain).
    #[doc(hidden)]
    fn read_json(text: &str) -> Result<(Self, bool), String> {
        let value = Self::from_json(text)?;
        Ok((value, value.is_canonical(text)))
    }
    /// What a type error calls this type ("a number", "an integer").
    #[doc(hidden)]
    const EXPECTING: &'static str;
}

impl Numeric for f64 {
    const EXPECTING: &'static str = "a number";

    fn from_json(text: &str) -> Result<Self, String> {
        if let Some(plain) = plain_decimal(text) {
            return Ok(plain.value);
        }
        match text.parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(value),
            _ => Err(format!("number {} is out of range", shown(text))),
        }
    }

    fn from_i64(value: i64) -> Result<Self, String> {
        Ok(value as f64)
    }

    fn from_u64(value: u64) -> Result<Self, String> {
        Ok(value as f64)
    }

    fn from_f64(value: f64) -> Result<Self, String> {
        Ok(value)
    }

    fn is_canonical(self, text: &str) -> bool {
        self.is_finite() && (plainly_shortest(text) || ryu::Buffer::new().format_finite(self) == text)
    }

    fn read_json(text: &str) -> Result<(Self, bool), String> {
        match plain_decimal(text) {
            Some(Plain { value, shortest: true }) => Ok((value, true)),
            Some(Plain { value, shortest: false }) => Ok((value, ryu::Buffer::new().format_finite(value) == text)),
            None => {
                let value = Self::from_json(text)?;
                Ok((value, value.is_canonical(text)))
            }
        }
    }
}

/// A plain decimal's value, and whether its text is plainly what ryu writes for it.
struct Plain {
    value: f64,
    /// What [`plainly_shortest`] says of the text, found on the same pass.
    shortest: bool,
}

/// The value of a plain decimal `-?D*(.D*)?` (at least one digit) of at most 15 significant digits
/// and at most 22 after the point, as `str::parse` reads it, computed on the spot: the digits as
/// an integer (below 10^15, exact in a double) divided by a power of ten (at most 10^22, exact),
/// one correctly rounded operation on exact operands, so the same double as `str::parse`'s
/// correctly rounded reading (Clinger's fast path). `None` only means "ask `str::parse`".
fn plain_decimal(text: &str) -> Option<Plain> {
    /// The powers of ten a double holds exactly.
    const POWERS: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let (negative, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        all => (false, all),
    };
    let (mut mantissa, mut significant, mut integer) = (0u64, 0usize, 0usize);
    let mut fraction: Option<usize> = None;
    for &b in digits {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(b - b'0');
                significant += usize::from(mantissa != 0);
                match &mut fraction {
                    Some(after) => *after += 1,
                    None => integer += 1,
                }
                if significant > 15 {
                    return None;
                }
            }
            b'.' if fraction.is_none() => fraction = Some(0),
            _ => return None,
        }
    }
    let after = fraction.unwrap_or(0);
    if integer + after == 0 || after >= POWERS.len() {
        return None;
    }
    // `mantissa < 10^15 < 2^53`: the conversion is exact.
    let value = mantissa as f64 / POWERS[after];
    // `plainly_shortest`'s cases, on what the pass saw: at most 15 significant digits already.
    let (first, last) = (digits.first().copied(), digits.last().copied());
    let shortest = match (integer, after) {
        (0, _) | (_, 0) => false,
        (1, _) if first == Some(b'0') => after - significant <= 4 && significant >= 1 && last != Some(b'0'),
        _ if first == Some(b'0') => false,
        (_, 1) if last == Some(b'0') => true,
        _ => last != Some(b'0'),
    };
    Some(Plain { value: if negative { -value } else { value }, shortest })
}

/// Whether `text` is, without asking ryu, what ryu writes for the value it denotes: a plain
/// decimal `-?I.F` with at most 15 significant digits, no needless zero, and a magnitude ryu writes
/// without an exponent (below 10^16, and at most four zeros after the point before the first
/// digit when the integer part is 0).
///
/// Why that is enough: any two decimals of at most 15 significant digits round to different
/// doubles (`f64::DIGITS` is 15), so no shorter decimal reads as the same double, and ryu writes
/// the shortest. `false` only means "ask ryu".
fn plainly_shortest(text: &str) -> bool {
    let unsigned = text.strip_prefix('-').unwrap_or(text).as_bytes();
    let Some(point) = unsigned.iter().position(|&b| b == b'.') else { return false };
    let (integer, fraction) = (&unsigned[..point], &unsigned[point + 1..]);
    let digits = |part: &[u8]| !part.is_empty() && part.iter().all(u8::is_ascii_digit);
    if !digits(integer) || !digits(fraction) || (integer.len() > 1 && integer[0] == b'0') {
        return false;
    }
    if integer == b"0" {
        // 0.000ddd: the zeros after the point are not significant; ryu writes at most four.
        let zeros = fraction.iter().take_while(|&&b| b == b'0').count();
        let significant = fraction.len() - zeros;
        return zeros <= 4 && (1..=15).contains(&significant) && fraction.last() != Some(&b'0');
    }
    if fraction == b"0" {
        // I.0: ryu writes an integral value below 10^16 this way; its digits are I's without
        // trailing zeros.
        let significant = integer.len() - integer.iter().rev().take_while(|&&b| b == b'0').count();
        return integer.len() <= 16 && significant <= 15;
    }
    integer.len() + fraction.len() <= 15 && fraction.last() != Some(&b'0')
}

impl Numeric for i64 {
    const EXPECTING: &'static str = "an integer";

    fn from_json(text: &str) -> Result<Self, String> {
        if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
            return text.parse::<i64>().map_err(|_| format!("integer {} is beyond the 64-bit range", shown(text)));
        }
        // JSON Schema counts a number with a zero fraction (`100.0`, `1e2`) as an integer
        // (docs/design.md D-110).
        match text.parse::<f64>() {
            Ok(value) if value.is_finite() && value.fract() == 0.0 => Self::from_f64(value),
            Ok(value) if value.is_finite() => {
                Err(format!("invalid type: floating point `{}`, expected an integer", shown(text)))
            }
            _ => Err(format!("number {} is out of range", shown(text))),
        }
    }

    fn from_i64(value: i64) -> Result<Self, String> {
        Ok(value)
    }

    fn from_u64(value: u64) -> Result<Self, String> {
        i64::try_from(value).map_err(|_| format!("integer {value} is beyond the 64-bit range"))
    }

    fn from_f64(value: f64) -> Result<Self, String> {
        // 2^63 is exactly representable; every integral f64 in [-2^63, 2^63) converts exactly.
        const LIMIT: f64 = 9_223_372_036_854_775_808.0;
        if value.fract() != 0.0 || !value.is_finite() {
            return Err(format!("invalid type: floating point `{value}`, expected an integer"));
        }
        if !(-LIMIT..LIMIT).contains(&value) {
            return Err(format!("integer {value} is beyond the 64-bit range"));
        }
        Ok(value as i64)
    }

    fn is_canonical(self, text: &str) -> bool {
        itoa::Buffer::new().format(self) == text
    }

    fn read_json(text: &str) -> Result<(Self, bool), String> {
        let (negative, digits) = match text.as_bytes() {
            [b'-', rest @ ..] => (true, rest),
            all => (false, all),
        };
        // At most 18 digits: below 10^18, no overflow.
        if !(1..=18).contains(&digits.len()) || !digits.iter().all(u8::is_ascii_digit) {
            let value = Self::from_json(text)?;
            return Ok((value, value.is_canonical(text)));
        }
        let magnitude = digits.iter().fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
        // itoa writes no leading zero and no `-0`.
        let canonical = digits[0] != b'0' || (digits.len() == 1 && !negative);
        Ok((if negative { -magnitude } else { magnitude }, canonical))
    }
}

/// A number's text in a message, cut short when long.
fn shown(text: &str) -> String {
    crate::shorten::shortened(text, 40)
}

impl<T: Numeric> Number<T> {
    /// The number with value `value`, written as serde_json writes it.
    pub fn new(value: T) -> Self {
        Number { value, text: None }
    }

    /// The value.
    pub fn get(&self) -> T {
        self.value
    }

    /// Replaces the value (and forgets the source text).
    pub fn set(&mut self, value: T) {
        *self = Number::new(value);
    }

    /// The source text, when it is not what serde_json writes for the value.
    pub fn source_text(&self) -> Option<&str> {
        self.text.as_deref().map(RawValue::get)
    }

    /// Reads one JSON number's text, keeping the text when it is not canonical.
    fn from_text(text: &str) -> Result<Self, String> {
        let (value, canonical) = T::read_json(text)?;
        let text = if canonical {
            None
        } else {
            Some(RawValue::from_string(text.to_owned()).map_err(|e| format!("not a JSON number: {e}"))?)
        };
        Ok(Number { value, text })
    }

    /// A value read without its text (a deserializer other than serde_json's): an integer read
    /// into a float field keeps its integer text.
    fn from_integer_text(value: T, text: impl fmt::Display) -> Self {
        let text = text.to_string();
        if value.is_canonical(&text) {
            Number::new(value)
        } else {
            Number::from_text(&text).unwrap_or(Number::new(value))
        }
    }
}

impl<T: Numeric> From<T> for Number<T> {
    fn from(value: T) -> Self {
        Number::new(value)
    }
}

impl From<i32> for Number<i64> {
    fn from(value: i32) -> Self {
        Number::new(i64::from(value))
    }
}

impl From<i32> for Number<f64> {
    fn from(value: i32) -> Self {
        Number::new(f64::from(value))
    }
}

impl<T: Numeric> std::ops::Deref for Number<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: Numeric> fmt::Debug for Number<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source_text() {
            Some(text) => write!(f, "{:?} ({text})", self.value),
            None => fmt::Debug::fmt(&self.value, f),
        }
    }
}

/// The number as JSON writes it: the source text when kept.
impl<T: Numeric> fmt::Display for Number<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source_text() {
            Some(text) => f.write_str(text),
            None => {
                let mut out = Vec::new();
                serde_json::to_writer(&mut out, &self.value).map_err(|_| fmt::Error)?;
                f.write_str(std::str::from_utf8(&out).map_err(|_| fmt::Error)?)
            }
        }
    }
}

/// Parses JSON number text (`"1.50"` keeps its text); any text `T` parses is accepted, but only
/// JSON number text is kept.
impl<T: Numeric> FromStr for Number<T> {
    type Err = <T as FromStr>::Err;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let value: T = text.parse()?;
        Ok(Number::from_text(text).unwrap_or(Number::new(value)))
    }
}

impl<T: Numeric> PartialEq for Number<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Numeric> PartialEq<T> for Number<T> {
    fn eq(&self, other: &T) -> bool {
        self.value == *other
    }
}

impl<T: Numeric> PartialOrd for Number<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.value.partial_cmp(&other.value)
    }
}

impl<T: Numeric> PartialOrd<T> for Number<T> {
    fn partial_cmp(&self, other: &T) -> Option<Ordering> {
        self.value.partial_cmp(other)
    }
}

impl Eq for Number<i64> {}

impl Ord for Number<i64> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.cmp(&other.value)
    }
}

impl Hash for Number<i64> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}

impl<T: Numeric> Serialize for Number<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.text {
            // Only serde_json writes raw text; every other format gets the value.
            Some(text) if crate::__private::raw::is_serde_json::<S>() => text.serialize(serializer),
            _ => self.value.serialize(serializer),
        }
    }
}

impl<'de, T: Numeric> Deserialize<'de> for Number<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // serde_json answers this name with the value's source text; other deserializers call
        // `visit_newtype_struct` and the value is read as it is reported.
        deserializer.deserialize_newtype_struct(RAW_TOKEN, NumberVisitor(PhantomData))
    }
}

struct NumberVisitor<T>(PhantomData<T>);

impl<'de, T: Numeric> Visitor<'de> for NumberVisitor<T> {
    type Value = Number<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Number<T>, A::Error> {
        if map.next_key::<RawKey>()?.is_none() {
            return Err(de::Error::invalid_type(Unexpected::Map, &self));
        }
        map.next_value_seed(TextSeed(PhantomData))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Number<T>, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Number<T>, E> {
        T::from_i64(value).map(|v| Number::from_integer_text(v, value)).map_err(E::custom)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Number<T>, E> {
        T::from_u64(value).map(|v| Number::from_integer_text(v, value)).map_err(E::custom)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Number<T>, E> {
        T::from_f64(value).map(Number::new).map_err(E::custom)
    }
}

/// The key of serde_json's raw-value map.
struct RawKey;

impl<'de> Deserialize<'de> for RawKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = RawKey;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<RawKey, E> {
                if key == RAW_TOKEN { Ok(RawKey) } else { Err(de::Error::invalid_type(Unexpected::Map, &self)) }
            }
        }

        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// The source text of one value, read as a number.
struct TextSeed<T>(PhantomData<T>);

impl<'de, T: Numeric> DeserializeSeed<'de> for TextSeed<T> {
    type Value = Number<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Number<T>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, T: Numeric> Visitor<'de> for TextSeed<T> {
    type Value = Number<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Number<T>, E> {
        match text.as_bytes().first() {
            Some(b'-' | b'0'..=b'9') => Number::from_text(text).map_err(E::custom),
            _ => Err(E::invalid_type(unexpected(text), &self)),
        }
    }
}

/// Reads only the value of a number, as [`Number`]'s read does but without keeping its text: the
/// check a skim makes ([`crate::__private::skim`]). Accepts exactly what that read accepts.
pub(crate) fn value<'de, T: Numeric, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_newtype_struct(RAW_TOKEN, ValueVisitor(PhantomData))
}

struct ValueVisitor<T>(PhantomData<T>);

impl<'de, T: Numeric> Visitor<'de> for ValueVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        if map.next_key::<RawKey>()?.is_none() {
            return Err(de::Error::invalid_type(Unexpected::Map, &self));
        }
        map.next_value_seed(ValueText(PhantomData))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<T, E> {
        T::from_i64(value).map_err(E::custom)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<T, E> {
        T::from_u64(value).map_err(E::custom)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<T, E> {
        T::from_f64(value).map_err(E::custom)
    }
}

struct ValueText<T>(PhantomData<T>);

impl<'de, T: Numeric> DeserializeSeed<'de> for ValueText<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, T: Numeric> Visitor<'de> for ValueText<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        match text.as_bytes().first() {
            Some(b'-' | b'0'..=b'9') => T::from_json(text).map_err(E::custom),
            _ => Err(E::invalid_type(unexpected(text), &self)),
        }
    }
}

/// What a raw JSON value that is not a number is, for a type error.
fn unexpected(text: &str) -> Unexpected<'_> {
    match text.as_bytes().first() {
        Some(b'"') => Unexpected::Other("a string"),
        Some(b'{') => Unexpected::Map,
        Some(b'[') => Unexpected::Seq,
        Some(b't') => Unexpected::Bool(true),
        Some(b'f') => Unexpected::Bool(false),
        Some(b'n') => Unexpected::Unit,
        _ => Unexpected::Other("a value"),
    }
}

impl garde::rules::range::Bounds for Number<f64> {
    type Size = f64;
    const MIN: f64 = f64::MIN;
    const MAX: f64 = f64::MAX;

    fn validate_bounds(&self, lower: f64, upper: f64) -> Result<(), garde::rules::range::OutOfBounds> {
        self.value.validate_bounds(lower, upper)
    }
}

impl garde::rules::range::Bounds for Number<i64> {
    type Size = i64;
    const MIN: i64 = i64::MIN;
    const MAX: i64 = i64::MAX;

    fn validate_bounds(&self, lower: i64, upper: i64) -> Result<(), garde::rules::range::OutOfBounds> {
        self.value.validate_bounds(lower, upper)
    }
}

#[cfg(feature = "schemars")]
impl<T: Numeric + schemars::JsonSchema> schemars::JsonSchema for Number<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }

    fn inline_schema() -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relay<T: Numeric>(text: &str) -> String {
        let number: Number<T> = serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        serde_json::to_string(&number).unwrap_or_default()
    }

    /// The fast reading gives `str::parse`'s double, bit for bit, wherever it answers.
    #[test]
    fn plain_decimals_read_as_str_parse_reads_them() {
        let check = |text: &str| {
            if let Some(fast) = plain_decimal(text) {
                let parsed: f64 = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(fast.value.to_bits(), parsed.to_bits(), "{text}");
                assert_eq!(fast.shortest, plainly_shortest(text), "{text}");
                let (value, canonical) = f64::read_json(text).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!((value.to_bits(), canonical), (parsed.to_bits(), parsed.is_canonical(text)), "{text}");
            }
        };
        for text in
            ["0", "-0", "-0.0", "1.", ".5", "00.10", "0.1", "0.3", "123456789012345", "0.0000000000000000000001"]
        {
            assert!(plain_decimal(text).is_some(), "{text}");
            check(text);
        }
        for text in ["", "-", ".", "1e5", "1.2.3", "+1", "1234567890123456", "0.00000000000000000000001", "1,5"] {
            assert!(plain_decimal(text).is_none(), "{text}");
        }
        // Every split of random digit strings of up to 15 significant digits.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let digits = format!("{}", state % 10u64.pow(1 + (state >> 60) as u32 % 15));
            let zeros = "0".repeat((state >> 40) as usize % 8);
            let whole = format!("{zeros}{digits}");
            for point in 0..=whole.len() {
                let (integer, fraction) = whole.split_at(point);
                check(&format!("{integer}.{fraction}"));
                check(&format!("-{integer}.{fraction}"));
            }
        }
    }

    /// The one-pass integer reading agrees with `from_json` and `is_canonical`.
    #[test]
    fn integers_read_in_one_pass_as_in_two() {
        let texts = ["0", "-0", "7", "-7", "007", "-007", "10", "123456789012345678", "999999999999999999"];
        let longer = ["1234567890123456789", "9223372036854775807", "-9223372036854775808", "1.0", "1e2", "", "-"];
        for text in texts.into_iter().chain(longer) {
            let two = i64::from_json(text).map(|value| (value, value.is_canonical(text)));
            assert_eq!(i64::read_json(text), two, "{text}");
        }
    }

    #[test]
    fn text_is_kept_only_when_it_is_not_canonical() {
        for text in
            ["1", "1.0", "0.85", "1e-7", "-0", "0.50", "12345678901234567890", "0.1000000000000000055511151231257827"]
        {
            assert_eq!(relay::<f64>(text), text);
        }
        for text in ["0", "-12", "100.0", "1e2", "-0", "9223372036854775807"] {
            assert_eq!(relay::<i64>(text), text);
        }
        let canonical: Number<f64> = serde_json::from_str("0.85").unwrap_or_default();
        assert_eq!(canonical.source_text(), None);
        let kept: Number<f64> = serde_json::from_str("1").unwrap_or_default();
        assert_eq!((kept.get(), kept.source_text()), (1.0, Some("1")));
    }

    /// The shortcut never calls a text canonical that ryu writes differently: checked on every
    /// plain decimal shape up to 17 digits around the limits (zeros, fifteen and sixteen digits,
    /// 10^16, four and five leading zeros), and on random decimals.
    #[test]
    fn the_canonical_shortcut_agrees_with_ryu() {
        fn agrees(text: &str) {
            if plainly_shortest(text) {
                let value: f64 = text.parse().unwrap_or(f64::NAN);
                assert_eq!(ryu::Buffer::new().format_finite(value), text, "shortcut accepted {text}");
            }
        }
        let mut accepted = 0;
        for text in [
            "0.85",
            "-0.5",
            "1.0",
            "100.0",
            "0.0",
            "-0.0",
            "0.00001",
            "0.000001",
            "0.10",
            "01.5",
            "123456789012345.0",
            "1234567890123456.0",
            "1000000000000000.0",
            "10000000000000000.0",
            "12345678901234.5",
            "1234567890123.45",
            "0.123456789012345",
            "0.1234567890123456",
            "0.00001234567890123",
            "9007199254740993.0",
            "0.30000000000000004",
            "1.5e3",
            "15",
            ".5",
        ] {
            agrees(text);
            accepted += usize::from(plainly_shortest(text));
        }
        assert!(accepted >= 8, "the shortcut takes the common shapes ({accepted})");
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        for _ in 0..200_000 {
            let integer_digits = next(16) as u32;
            let integer = if next(3) == 0 { "0".to_owned() } else { (1 + next(10u64.pow(integer_digits))).to_string() };
            let zeros = "0".repeat(next(6) as usize);
            let fraction_digits = next(17) as u32;
            let fraction =
                if next(5) == 0 { "0".to_owned() } else { format!("{zeros}{}", next(10u64.pow(fraction_digits))) };
            let sign = if next(2) == 0 { "" } else { "-" };
            agrees(&format!("{sign}{integer}.{fraction}"));
        }
    }

    #[test]
    fn what_the_type_cannot_hold_is_refused_with_a_reason() {
        let err =
            |text: &str| serde_json::from_str::<Number<i64>>(text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err("9223372036854775808").contains("beyond the 64-bit range"), "{}", err("9223372036854775808"));
        assert!(err("1.5").contains("expected an integer"), "{}", err("1.5"));
        assert!(err("\"1\"").contains("invalid type"), "{}", err("\"1\""));
        assert!(err("{}").contains("invalid type: map"), "{}", err("{}"));
        let float = serde_json::from_str::<Number<f64>>("1e400").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(float.contains("out of range"), "{float}");
    }

    #[test]
    fn values_compare_as_values_and_read_from_values() {
        let a: Number<f64> = serde_json::from_str("1").unwrap_or_default();
        assert_eq!(a, Number::new(1.0));
        assert!(a < Number::new(1.5) && a == 1.0);
        let from_value: Number<f64> = serde_json::from_value(serde_json::json!(2)).unwrap_or_default();
        assert_eq!(serde_json::to_string(&from_value).unwrap_or_default(), "2");
        let mut b = a.clone();
        b.set(3.0);
        assert_eq!((b.to_string(), a.to_string()), ("3.0".to_owned(), "1".to_owned()));
    }
}
