//! The runtime of the generated deserialisers: object keys read without a copy where the input
//! allows it, unknown members kept as raw JSON text, duplicate members refused (the error placed
//! at the member, `located`), the payload dispatch's read of the members up to `agent_id`, and a
//! [`Value`] reader that refuses duplicates too, so that every read path gives the same verdict
//! on the same bytes.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::located::{Step, at};
pub use super::raw::DUPLICATE;
use crate::extra::Extra;

/// An object key: borrowed from the input when it has no escapes.
pub struct Key<'de>(pub Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Fails on the value of a member whose name was already read, placing the error at the member.
pub fn duplicate<'de, A: MapAccess<'de>>(map: &mut A, name: &str) -> Result<(), A::Error> {
    struct Refuse<'a>(&'a str);
    impl<'de> DeserializeSeed<'de> for Refuse<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
            Err(de::Error::custom(format_args!("{DUPLICATE}`{}`", self.0)))
        }
    }
    super::located::next_value_seed_at(map, name, Refuse(name))
}

/// Reads the value of member `name` of `map` into `slot` with `seed`: the one read of a declared
/// member in the `Object` derive. A member the object named before is an error at its second
/// occurrence; an error from inside the value is placed at the member. One function for every
/// member of the same kind (the seed's type), instead of the same steps written out in every
/// struct's reader.
#[inline]
pub fn member<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    map: &mut A,
    name: &str,
    slot: &mut Option<S::Value>,
    seed: S,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return duplicate(map, name);
    }
    *slot = Some(super::located::next_value_seed_at(map, name, seed)?);
    Ok(())
}

/// An object read as a map (a schema's `additionalProperties`, a `BTreeMap<String, T>` field) as
/// serde reads a `BTreeMap`, except that a name given twice is an error naming it, as in every
/// other object the crate reads: serde's own read keeps the last value and loses the first.
pub struct DistinctMembers<T>(pub std::collections::BTreeMap<String, T>);

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for DistinctMembers<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members<T>(std::marker::PhantomData<fn() -> T>);
        impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for Members<T> {
            type Value = DistinctMembers<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<DistinctMembers<T>, A::Error> {
                let mut members = std::collections::BTreeMap::new();
                while let Some(Key(name)) = map.next_key()? {
                    if members.contains_key(name.as_ref()) {
                        duplicate(&mut map, &name)?;
                    }
                    let value = super::located::next_value_at::<_, T>(&mut map, &name)?;
                    members.insert(name.into_owned(), value);
                }
                Ok(DistinctMembers(members))
            }
        }
        deserializer.deserialize_map(Members(std::marker::PhantomData))
    }
}

/// The seed of a [`DistinctMembers`] read that gives its map (the `Object` derive's read of a
/// field holding one).
pub const fn distinct_members<T>() -> DistinctMembersSeed<T> {
    DistinctMembersSeed(std::marker::PhantomData)
}

/// See [`distinct_members`].
pub struct DistinctMembersSeed<T>(std::marker::PhantomData<fn() -> T>);

impl<'de, T: serde::Deserialize<'de>> DeserializeSeed<'de> for DistinctMembersSeed<T> {
    type Value = std::collections::BTreeMap<String, T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        <DistinctMembers<T> as serde::Deserialize<'de>>::deserialize(deserializer).map(|members| members.0)
    }
}

/// Reads the value of an undeclared member into `extra` as raw text, refusing a repeated name,
/// here or in any object inside the value (a reader of the kept text must not meet one either).
pub fn unknown<'de, A: MapAccess<'de>>(map: &mut A, extra: &mut Extra, name: Key<'de>) -> Result<(), A::Error> {
    if extra.contains_key(&name.0) {
        return duplicate(map, &name.0);
    }
    let raw = super::located::next_value_seed_at(map, &name.0, super::raw::Seed)?;
    NestedCaptures::note(raw.get());
    if raw.get().starts_with(['{', '[']) {
        serde_json::from_str::<Distinct>(raw.get()).map_err(|err| {
            let message = err.to_string();
            let cut = message.rfind(" at line ").map_or(message.as_str(), |at| &message[..at]);
            de::Error::custom(format_args!("{cut} (inside the undeclared member `{}`)", name.0))
        })?;
    }
    // Not present, as just checked.
    let _ = extra.read(name.0.into_owned(), raw);
    Ok(())
}

/// Any JSON value, read only to check that no object in it names a member twice: nothing is
/// kept (a name is compared where it lies in the input when it has no escapes).
pub struct Distinct;

impl<'de> de::Deserialize<'de> for Distinct {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DistinctVisitor)
    }
}

struct DistinctVisitor;

impl<'de> Visitor<'de> for DistinctVisitor {
    type Value = Distinct;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Distinct, E> {
        Ok(Distinct)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Distinct, E> {
        Ok(Distinct)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Distinct, E> {
        Ok(Distinct)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Distinct, E> {
        Ok(Distinct)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Distinct, E> {
        Ok(Distinct)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Distinct, E> {
        Ok(Distinct)
    }
    fn visit_none<E: de::Error>(self) -> Result<Distinct, E> {
        Ok(Distinct)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Distinct, D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Distinct, A::Error> {
        while seq.next_element::<Distinct>()?.is_some() {}
        Ok(Distinct)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Distinct, A::Error> {
        // Few members: a list; many: a set (no quadratic path on a wide object).
        let mut few: Vec<Cow<'de, str>> = Vec::new();
        let mut many: Option<std::collections::HashSet<Cow<'de, str>>> = None;
        while let Some(Key(name)) = map.next_key()? {
            let repeated = match &mut many {
                Some(set) => set.contains(&name),
                None => few.contains(&name),
            };
            if repeated {
                duplicate(&mut map, &name)?;
            }
            match &mut many {
                Some(set) => {
                    set.insert(name);
                }
                None if few.len() < 8 => few.push(name),
                None => {
                    let mut set: std::collections::HashSet<_> = few.drain(..).collect();
                    set.insert(name);
                    many = Some(set);
                }
            }
            map.next_value::<Distinct>()?;
        }
        Ok(Distinct)
    }
}

/// The error for a required member that is missing.
pub fn missing<E: de::Error>(name: &'static str) -> E {
    E::missing_field(name)
}

/// A [`Value`] read like `serde_json::from_slice::<Value>`, except that an object holding a
/// member name twice is an error (serde_json keeps the last value).
pub struct StrictValue(pub Value);

impl<'de> de::Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        loop {
            match seq.next_element::<StrictValue>() {
                Ok(Some(StrictValue(item))) => items.push(item),
                Ok(None) => break,
                Err(err) => return Err(super::located::at_index(err, items.len())),
            }
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(Key(name)) = map.next_key()? {
            if object.contains_key(name.as_ref()) {
                duplicate(&mut map, &name)?;
            }
            let StrictValue(value) = super::located::next_value_at::<_, StrictValue>(&mut map, &name)?;
            object.insert(name.into_owned(), value);
        }
        Ok(Value::Object(object))
    }
}

/// Parses `bytes` as JSON into a [`Value`], refusing duplicate members, and a document whose
/// parsed form would take more than [`TREE_LIMIT`] bytes ([`tree_cost`]).
pub fn value_from_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    if tree_cost(bytes) > TREE_LIMIT {
        return Err(<serde_json::Error as serde::de::Error>::custom(TOO_COSTLY));
    }
    from_bytes::<StrictValue>(bytes).map(|v| v.0)
}

/// Writes `value` as JSON text and parses that into a [`Value`], as [`value_from_slice`] parses a
/// document: what a typed value is judged as (D-166). Written so rather than with
/// `serde_json::to_value`, a generated type is written by the one serializer that writes it as
/// text, not by one more for `Value`; and the value judged is the document the gate would be
/// given (a member written twice is refused, not silently overwritten).
pub fn written_value<T: serde::Serialize + ?Sized>(value: &T) -> Result<Value, serde_json::Error> {
    value_from_slice(&serde_json::to_vec(value)?)
}

/// The most memory the objects and arrays of a parsed document ([`Value`]) may take beyond its
/// values: 1 GiB. A document is read whole into a `Value` only where the typed readers cannot
/// judge it (a schema error to list, a convention in doubt, a schema without a fast path); past
/// this it is not judged (SCH-015), so that memory stays bounded whatever the text holds
/// (D-135): the values take at most 16 bytes a byte of text, the containers at most this.
pub const TREE_LIMIT: u64 = 1 << 30;

/// What [`value_from_slice`] says of a document past [`TREE_LIMIT`].
pub const TOO_COSTLY: &str = "the objects and arrays of the document would take more memory than the limit";

/// An upper bound, in bytes, of the memory the objects and arrays of `bytes` take parsed into a
/// [`Value`], beyond their values: a map node for every `{` (serde_json's `BTreeMap`: about 640
/// bytes even for one member) and a vector's spare room for every `[` (128 bytes). Counted at
/// memchr speed; brackets inside strings are counted too, so it only over-estimates. (The values
/// themselves take at most 16 bytes a byte of text: a 32-byte `Value` for every two bytes.)
pub fn tree_cost(bytes: &[u8]) -> u64 {
    let (mut objects, mut arrays) = (0u64, 0u64);
    for at in memchr::memchr2_iter(b'{', b'[', bytes) {
        if bytes.get(at) == Some(&b'{') {
            objects += 1;
        } else {
            arrays += 1;
        }
    }
    objects.saturating_mul(672).saturating_add(arrays.saturating_mul(128))
}

/// The deepest nesting of arrays and objects any reader of this crate takes, the same at every
/// place in a document (in a payload or an unknown member as at the top): a document nested
/// exactly this deep is read; one level more is refused (SCH-012), at the bracket that opens it.
pub const DEPTH_LIMIT: usize = 128;

/// Where `bytes` first nests arrays and objects deeper than [`DEPTH_LIMIT`]: the 1-based line and
/// byte column of the bracket that opens the level past it, as serde_json counts places. `None`
/// when it does not (or when the text is malformed before that: the parser says where).
///
/// Linear: no more than `DEPTH_LIMIT` opening brackets in all (counted at memchr speed) cannot
/// nest past it, and the bytes are walked only otherwise, strings skipped at memchr speed.
pub fn too_deep(bytes: &[u8]) -> Option<(usize, usize)> {
    if !more_openings_than(bytes, DEPTH_LIMIT) {
        return None;
    }
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => loop {
                at += 1;
                at += memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
                if bytes.get(at) == Some(&b'"') {
                    break;
                }
                // An escape: the byte after the backslash is part of it.
                at += 1;
            },
            b'[' | b'{' => {
                depth += 1;
                if depth > DEPTH_LIMIT {
                    let line_start = memchr::memrchr(b'\n', bytes.get(..at)?).map_or(0, |newline| newline + 1);
                    let line = 1 + memchr::memchr_iter(b'\n', bytes.get(..at)?).count();
                    return Some((line, at - line_start + 1));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    None
}

/// Where `value` first nests arrays and objects deeper than [`DEPTH_LIMIT`], as [`too_deep`]
/// judges text: the JSON Pointer of the array or object that opens the level past it. Walked
/// with a stack of at most `DEPTH_LIMIT` frames, so a value of any depth is judged without
/// recursion (and then need not be written, or read, recursively).
pub fn value_too_deep(value: &Value) -> Option<String> {
    enum Members<'v> {
        Items(std::iter::Enumerate<std::slice::Iter<'v, Value>>),
        Entries(serde_json::map::Iter<'v>),
    }
    /// The step that leads to a container, kept borrowed: a pointer is written only when the
    /// walk finds the nesting past the limit.
    enum Step<'v> {
        Index(usize),
        Member(&'v str),
    }
    fn members(value: &Value) -> Option<Members<'_>> {
        match value {
            Value::Array(items) => Some(Members::Items(items.iter().enumerate())),
            Value::Object(entries) => Some(Members::Entries(entries.iter())),
            _ => None,
        }
    }
    // Each frame: the step that leads to a container (none for the root), and the members of it
    // not yet walked.
    let mut frames: Vec<(Option<Step<'_>>, Members<'_>)> = vec![(None, members(value)?)];
    loop {
        let (_, walking) = frames.last_mut()?;
        let next = match walking {
            Members::Items(items) => items.next().map(|(index, item)| (Step::Index(index), item)),
            Members::Entries(entries) => entries.next().map(|(key, item)| (Step::Member(key.as_str()), item)),
        };
        let Some((step, item)) = next else {
            frames.pop();
            if frames.is_empty() {
                return None;
            }
            continue;
        };
        let Some(inner) = members(item) else { continue };
        frames.push((Some(step), inner));
        if frames.len() > DEPTH_LIMIT {
            let mut pointer = String::new();
            for (step, _) in &frames {
                match step {
                    Some(Step::Index(index)) => pointer.push_str(&format!("/{index}")),
                    Some(Step::Member(name)) => jerry_contracts_pointer::push(&mut pointer, name),
                    None => {}
                }
            }
            return Some(pointer);
        }
    }
}

/// Where `err` (an error reading `bytes`) is: serde_json's line and column, or, for nesting past
/// [`DEPTH_LIMIT`] (judged before serde_json reads), the bracket that opens the level past it.
pub fn place(bytes: &[u8], err: &serde_json::Error) -> (usize, usize) {
    if err.line() == 0
        && super::located::split(&err.to_string()).1.starts_with(RECURSION)
        && let Some(place) = too_deep(bytes)
    {
        return place;
    }
    (err.line(), err.column())
}

/// Whether `bytes` holds more than `limit` opening brackets (`[` or `{`, strings included):
/// memchr's SIMD count of each byte (a few hundred instructions for a 3 KB handoff, where a
/// byte loop costs one or two a byte).
fn more_openings_than(bytes: &[u8], limit: usize) -> bool {
    let square = memchr::memchr_iter(b'[', bytes).count();
    square > limit || square + memchr::memchr_iter(b'{', bytes).count() > limit
}

/// The error a reader gives for a document nested past [`DEPTH_LIMIT`]; [`malformed`] says where.
fn too_deep_error() -> serde_json::Error {
    <serde_json::Error as serde::de::Error>::custom(RECURSION)
}

/// How serde_json's message for nesting past its limit begins (ours says the same).
const RECURSION: &str = "recursion limit exceeded";

/// What is wrong with `bytes`, which serde_json refused with `err`, said as the cause rather than
/// serde_json's short message where that is vague: a UTF-8 byte order mark at the start (JSON
/// text must not have one, RFC 8259 §8.1), text that is not UTF-8, a number outside the 64-bit
/// float range (named), nesting past [`DEPTH_LIMIT`]. Begins with `line L column C: `.
pub fn malformed(bytes: &[u8], err: &serde_json::Error) -> String {
    let (line, column) = (err.line(), err.column());
    let message = err.to_string();
    let what = message.rfind(" at line ").map_or(message.as_str(), |at| &message[..at]);
    // The place an error inside a member names is the pointer's to give, not the message's.
    let what = super::located::split(what).1;
    if message.starts_with(TOO_COSTLY) {
        return format!("{TOO_COSTLY} ({} MiB); it was not read", TREE_LIMIT >> 20);
    }
    if let Some(encoding) = wide_encoding(bytes) {
        return format!(
            "line 1 column 1: the document is {encoding} text; JSON text must be UTF-8 (RFC 8259 §8.1): \
             convert it (for example `iconv -f {} -t UTF-8`)",
            encoding.split(' ').next().unwrap_or(encoding)
        );
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return "line 1 column 1: the document starts with a UTF-8 byte order mark (EF BB BF), which JSON \
                text must not have (RFC 8259 §8.1); remove it"
            .to_owned();
    }
    let cause = if bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
        "the document is empty".to_owned()
    } else if what.starts_with(RECURSION) {
        let (line, column) = place(bytes, err);
        return format!("line {line} column {column}: arrays and objects nested deeper than {DEPTH_LIMIT} levels");
    } else if what.starts_with("number out of range") {
        match number_at(bytes, line, column) {
            Some(number) => format!("the number {number} is out of range (a JSON number here must fit a 64-bit float)"),
            None => what.to_owned(),
        }
    } else if what.starts_with("invalid unicode code point") && simdutf8::basic::from_utf8(bytes).is_err() {
        format!("{what}: the document is not UTF-8 text")
    } else {
        what.to_owned()
    };
    format!("line {line} column {column}: {cause}")
}

/// The encoding of text that is UTF-16 or UTF-32, told from a byte order mark or, without one,
/// from where the zero bytes of its first (ASCII) character fall (RFC 4627 §3's method).
fn wide_encoding(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32 (little-endian, with a byte order mark)"),
        [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32 (big-endian, with a byte order mark)"),
        [0xFF, 0xFE, ..] => Some("UTF-16 (little-endian, with a byte order mark)"),
        [0xFE, 0xFF, ..] => Some("UTF-16 (big-endian, with a byte order mark)"),
        [a, 0, 0, 0, ..] if *a != 0 => Some("UTF-32 (little-endian)"),
        [0, 0, 0, b, ..] if *b != 0 => Some("UTF-32 (big-endian)"),
        [a, 0, ..] if *a != 0 => Some("UTF-16 (little-endian)"),
        [0, b, ..] if *b != 0 => Some("UTF-16 (big-endian)"),
        _ => None,
    }
}

/// The number token at or just before (`line`, `column`) (serde_json's 1-based place of an
/// error, counted in bytes), at most 64 characters of it.
fn number_at(bytes: &[u8], line: usize, column: usize) -> Option<String> {
    let start_of_line = if line <= 1 { 0 } else { memchr::memchr_iter(b'\n', bytes).nth(line - 2).map(|at| at + 1)? };
    let at = (start_of_line + column).min(bytes.len());
    let numeric = |b: &u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
    // The error's place is on the number's last byte or just past it.
    let end = (start_of_line..at).rev().find(|&i| numeric(&bytes[i]))? + 1;
    let begin = (start_of_line..end).rev().take_while(|&i| numeric(&bytes[i])).last()?;
    let token = std::str::from_utf8(&bytes[begin..end]).ok()?;
    Some(crate::shorten::shortened(token, 64))
}

/// Reads a `T` from JSON bytes like `serde_json::from_slice`, but checks the input as UTF-8
/// once, as a whole, and then reads it as text. `from_slice` checks every string it meets on its
/// own, which costs about a sixth of a typed read of a handoff (docs/performance.md); the whole
/// input at once is one SIMD scan (simdutf8). Bytes that are not UTF-8 are read as bytes, so the
/// error is serde_json's own, at its line and column. Outside strings JSON is ASCII, so the two
/// reads accept the same documents and give the same values.
///
/// Nesting is judged once, for the whole document, against [`DEPTH_LIMIT`] ([`too_deep`]), so a
/// raw capture (an unknown member, a payload) is held to it as every other place is; serde_json's
/// own limit (one level less, and not applied inside raw captures) is then off.
pub(crate) fn from_bytes<'de, T: serde::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, serde_json::Error> {
    judged(bytes, simdutf8::basic::from_utf8(bytes).ok())
}

/// [`from_bytes`] for a type that reads every member it meets (a generated type: an undeclared
/// member is captured through [`unknown`], never skipped), with the nesting judged only when
/// needed. The read first runs with serde_json's own limit on (127 levels, one under
/// [`DEPTH_LIMIT`]), which holds every place such a type reads except the inside of a raw capture
/// (an unknown member, a payload member read ahead of `agent_id`): a read that succeeds so and
/// captured no array or object ([`NestedCaptures`]) is nested within the limit, and the
/// judgement (a count of the whole input's brackets, about a thirtieth of a handoff's read) is
/// not needed. Anything else (an error, a capture of an array or object) goes the judged way of
/// [`from_bytes`], so errors and verdicts are its own. (A type that skips members, serde's
/// `IgnoredAny`, would leave their nesting unjudged: it takes [`from_bytes`].)
pub(crate) fn from_bytes_whole<'de, T: serde::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, serde_json::Error> {
    let text = simdutf8::basic::from_utf8(bytes).ok();
    if let Some(text) = text {
        let (read, nested) = NestedCaptures::watch(|| {
            let mut deserializer = serde_json::Deserializer::from_str(text);
            let value = T::deserialize(&mut deserializer)?;
            deserializer.end().map(|()| value)
        });
        if let Ok(value) = read
            && (!nested || too_deep(bytes).is_none())
        {
            return Ok(value);
        }
    }
    judged(bytes, text)
}

/// The nesting judged, then the read with serde_json's limit off: as text when `text` is the
/// input checked as UTF-8, else as bytes (serde_json's own error, at its line and column).
fn judged<'de, T: serde::Deserialize<'de>>(bytes: &'de [u8], text: Option<&'de str>) -> Result<T, serde_json::Error> {
    if too_deep(bytes).is_some() {
        return Err(too_deep_error());
    }
    let Some(text) = text else { return Err(not_utf8::<T>(bytes)) };
    finish(serde_json::Deserializer::from_str(text))
}

/// The first error of bytes that are not UTF-8 (they never read), as serde_json's slice reader
/// gives it, without reading a generated type by one more reader (D-166). The text up to the
/// first byte that is not UTF-8 is read as `T`: the two readers read it alike, so an error there
/// other than its end (which the slice reader does not meet) is the slice reader's. Otherwise the
/// slice reader's first error is at or after that byte, where the read of any value meets it
/// ([`Distinct`] keeps nothing, and checks strings as UTF-8).
fn not_utf8<'de, T: serde::Deserialize<'de>>(bytes: &'de [u8]) -> serde_json::Error {
    let valid = simdutf8::compat::from_utf8(bytes).err().map_or(bytes.len(), |err| err.valid_up_to());
    if let Some(Ok(prefix)) = bytes.get(..valid).map(std::str::from_utf8)
        && let Err(err) = finish::<_, T>(serde_json::Deserializer::from_str(prefix))
        && !super::located::split(&err.to_string()).1.starts_with("EOF while parsing")
    {
        return err;
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    match <Distinct as de::Deserialize>::deserialize(&mut deserializer).and_then(|Distinct| deserializer.end()) {
        Err(err) => err,
        // Not reached: bytes that are not UTF-8 are not JSON.
        Ok(()) => de::Error::custom("the document is not UTF-8 text"),
    }
}

/// Whether a read on this thread captured an array or object as raw text (an unknown member, a
/// payload member read ahead of `agent_id`): serde_json's depth limit does not reach inside a
/// capture, and a capture read again starts its own count, so [`from_bytes_whole`] judges the nesting
/// of such a document.
pub(crate) struct NestedCaptures;

thread_local! {
    static NESTED_CAPTURE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl NestedCaptures {
    /// Notes a capture of `raw` (its text).
    fn note(raw: &str) {
        if raw.starts_with(['{', '[']) {
            NESTED_CAPTURE.with(|flag| flag.set(true));
        }
    }

    /// Runs `read`, and says whether it captured an array or object (a read inside another
    /// keeps the outer one's note).
    fn watch<R>(read: impl FnOnce() -> R) -> (R, bool) {
        let outer = NESTED_CAPTURE.with(|flag| flag.replace(false));
        let result = read();
        let nested = NESTED_CAPTURE.with(|flag| flag.replace(outer || flag.get()));
        (result, nested)
    }
}

/// Reads one `T` and the end of the input, with serde_json's depth limit off (the caller judged
/// the nesting).
fn finish<'de, R: serde_json::de::Read<'de>, T: serde::Deserialize<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
) -> Result<T, serde_json::Error> {
    deserializer.disable_recursion_limit();
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// A member named twice in one object: where, and what the reader said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateMember {
    /// The JSON Pointer of the second occurrence.
    pub pointer: String,
    /// The message, naming the member and the line and column.
    pub message: String,
}

/// Reads `bytes` again when [`value_from_slice`] failed: the duplicate member it failed on, if that
/// was the reason.
pub fn duplicate_member(bytes: &[u8]) -> Option<DuplicateMember> {
    let err = serde_json::from_slice::<StrictValue>(bytes).err()?;
    let message = err.to_string();
    let (pointer, message) = super::located::split(&message);
    if !message.starts_with(DUPLICATE) {
        return None;
    }
    Some(DuplicateMember { pointer, message: message.to_owned() })
}

/// The `agent_id` member read first, replayed as a string to every reader, except one that asks
/// for raw JSON (an unknown member kept as text), which gets the JSON text.
struct PlainString {
    text: String,
    raw: Box<RawValue>,
}

impl<'de> Deserializer<'de> for PlainString {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_string(self.text)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        de::value::StringDeserializer::new(self.text).deserialize_enum(name, variants, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        if name == super::raw::RAW_TOKEN {
            let mut json = serde_json::Deserializer::from_reader(self.raw.get().as_bytes());
            return json.deserialize_newtype_struct(name, visitor).map_err(de::Error::custom);
        }
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// A payload's members as [`tag_first`] found them.
pub enum Tagged<'de, A> {
    /// `agent_id` came first, a string without escapes (the usual case): the agent it names, and
    /// the map of the payload's members from `agent_id` on, read in the one pass.
    First(String, Prefixed<'de, A>),
    /// Anything else: the agent named by the first `agent_id`, if it is a string, and the whole
    /// object as JSON text, to be read again ([`replayed`] says what went wrong in it).
    Text(Option<String>, String),
}

/// The `agent_id` member of a payload, read first, followed by the members not yet read.
pub struct Prefixed<'de, A> {
    first: Option<(Cow<'de, str>, PlainString)>,
    value: Option<(Cow<'de, str>, PlainString)>,
    rest: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Prefixed<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.first.take() {
            let read = seed.deserialize(de::value::CowStrDeserializer::new(key.clone())).map(Some);
            self.value = Some((key, value));
            return read;
        }
        self.rest.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.value.take() {
            Some((key, plain)) => seed.deserialize(plain).map_err(|err| de::Error::custom(at(err, Step::Member(&key)))),
            None => self.rest.next_value_seed(seed),
        }
    }
}

/// Reads the members of a payload up to its `agent_id`, for the dispatch on it: one pass when
/// `agent_id` comes first as a plain string, as it usually does. Otherwise every member is read
/// as its JSON text and the object is handed back as text, to be read again as the type the agent
/// names: a reader that replayed the members read ahead through a reader of their own
/// instantiated every payload type's serde code once more (D-166).
pub fn tag_first<'de, A: MapAccess<'de>>(mut map: A) -> Result<Tagged<'de, A>, A::Error> {
    let mut text = String::from("{");
    let mut agent = None;
    let mut named = false;
    while let Some(Key(name)) = map.next_key()? {
        let raw = super::located::next_value_seed_at(&mut map, &name, super::raw::Seed)?;
        NestedCaptures::note(raw.get());
        if name == "agent_id" && !named {
            named = true;
            let json = raw.get();
            let plain = json.strip_prefix('"').and_then(|t| t.strip_suffix('"')).filter(|t| !t.contains(['\\', '"']));
            if let (Some(plain), true) = (plain, text.len() == 1) {
                let plain = plain.to_owned();
                let first = PlainString { text: plain.clone(), raw };
                return Ok(Tagged::First(plain, Prefixed { first: Some((name, first)), value: None, rest: map }));
            }
            agent = serde_json::from_str::<String>(json).ok();
        }
        if text.len() > 1 {
            text.push(',');
        }
        // A name read from JSON text writes back as JSON text.
        text.push_str(&serde_json::to_string(name.as_ref()).map_err(de::Error::custom)?);
        text.push(':');
        text.push_str(raw.get());
    }
    text.push('}');
    Ok(Tagged::Text(agent, text))
}

/// The error of reading a payload again from its text ([`Tagged::Text`]), for the reader of the
/// document: its place is kept, its line and column (in the payload's text, not the document's)
/// are left for the document's reader to give.
pub fn replayed<E: de::Error>(err: serde_json::Error) -> E {
    let message = err.to_string();
    let position = format!(" at line {} column {}", err.line(), err.column());
    E::custom(message.strip_suffix(&position).unwrap_or(&message))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value's nesting is judged as its text's: the limit itself is read, one level more is
    /// refused at the container that opens it, named by its pointer; the walk is not recursive.
    #[test]
    fn value_too_deep_judges_a_value_as_too_deep_judges_its_text() {
        fn nest(depth: usize) -> Value {
            let mut value = Value::Null;
            for level in 0..depth {
                value = if level % 2 == 0 {
                    Value::Array(vec![Value::Bool(true), value])
                } else {
                    serde_json::json!({"a/b": value, "z": 1})
                };
            }
            value
        }
        for depth in [0, 1, 127, 128, 129, 130, 300] {
            let value = nest(depth);
            let text = value.to_string();
            assert_eq!(value_too_deep(&value).is_some(), too_deep(text.as_bytes()).is_some(), "depth {depth}");
        }
        let pointer = value_too_deep(&nest(129)).expect("129 levels are past the limit");
        assert_eq!(pointer.matches("/a~1b").count() + pointer.matches("/1").count(), 128, "{pointer}");
        let mut deep = Value::Null;
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        assert_eq!(value_too_deep(&deep).map(|p| p.len()), Some(2 * 128));
        while let Value::Array(mut items) = deep {
            deep = items.pop().unwrap_or(Value::Null);
        }
    }

    /// Whole-input UTF-8 then text, or bytes: the same values and the same errors as
    /// `serde_json::from_slice`, on text and on bytes that are not UTF-8 inside and outside strings.
    #[test]
    fn from_bytes_reads_what_from_slice_reads() {
        let cases: [&[u8]; 7] = [
            br#"{"a": "x\u00e9y", "b": [1, 2.5, -0], "c": null}"#,
            "{\"é\": \"𝄞\"}".as_bytes(),
            b"{\"a\": \"\xff\"}",
            b"{\"a\": \"ok\"} \xc3",
            b"\xef\xbb\xbf{}",
            b"{\"a\": \"\xed\xa0\x80\"}",
            br#"{"a": "\ud800"}"#,
        ];
        for bytes in cases {
            let ours = from_bytes::<Value>(bytes).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Value>(bytes).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{}", String::from_utf8_lossy(bytes));
        }
    }

    proptest::proptest! {
        /// Any bytes inside and outside a string: the same value or the same error.
        #[test]
        fn from_bytes_agrees_on_any_bytes(inside in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..24),
                                          after in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3)) {
            let mut bytes = br#"{"a": ""#.to_vec();
            bytes.extend(&inside);
            bytes.extend(br#""}"#);
            bytes.extend(&after);
            let ours = from_bytes::<Value>(&bytes).map_err(|e| e.to_string());
            let theirs = serde_json::from_slice::<Value>(&bytes).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(ours, theirs);
        }

        /// A generated type, bytes inside a string it reads and after a member it refuses (a
        /// number where text belongs): the same verdict and the same error, its place aside
        /// (bytes that are not UTF-8 are judged without reading the type by one more reader).
        #[test]
        fn from_bytes_agrees_on_any_bytes_as_a_generated_type(
            inside in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..16),
            refused in proptest::prelude::any::<bool>(),
            after in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3),
        ) {
            let mut bytes = br#"{"overall": 0.5, "reasoning": ""#.to_vec();
            bytes.extend(&inside);
            bytes.extend(if refused { &br#"", "breakdown": 7}"#[..] } else { &br#""}"#[..] });
            bytes.extend(&after);
            let said = |err: serde_json::Error| crate::__private::located::split(&err.to_string()).1.to_owned();
            let ours = from_bytes::<crate::common::ConfidenceScore>(&bytes).map(drop).map_err(said);
            let theirs = serde_json::from_slice::<crate::common::ConfidenceScore>(&bytes).map(drop).map_err(said);
            proptest::prop_assert_eq!(ours, theirs);
        }
    }
}
