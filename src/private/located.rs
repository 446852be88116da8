//! The place of a read's first error, carried in the error itself: each member and array element
//! the generated reads (and the runtime's own map and value reads) go into wraps an error from
//! inside it with its name or index, so the error of one read says where it is, in any serde
//! format, without reading the input a second time through a path-tracking deserializer (which
//! instantiated every generated type's serde code once more: D-166).
//!
//! The place goes in front of the message as `at /a/0/b: ` ([`at`], read back by [`split`]). In
//! that text a `%` or `:` of a member name is written `%25` or `%3A`, so that a name holding
//! `": "` cannot end the place early; [`split`] gives the place back as the JSON Pointer itself.
//! serde_json keeps an error's line and column through the wrapping (its `custom` reads them back
//! from the end of the message).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};

/// How a placed message begins: the place follows.
const PREFIX: &str = "at /";
/// Where a placed message's place ends.
const END: &str = ": ";

/// One step into a value: a member by name or an element by index.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    /// The member of that name.
    Member(&'a str),
    /// The element at that index.
    Index(usize),
}

impl fmt::Display for Step<'_> {
    /// The step as a JSON Pointer token, `~`, `/`, `%` and `:` escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Index(index) => write!(f, "{index}"),
            Self::Member(name) => {
                for c in name.chars() {
                    match c {
                        '~' => f.write_str("~0")?,
                        '/' => f.write_str("~1")?,
                        '%' => f.write_str("%25")?,
                        ':' => f.write_str("%3A")?,
                        c => fmt::Write::write_char(f, c)?,
                    }
                }
                Ok(())
            }
        }
    }
}

/// `err`, an error met inside `step`, with the step put in front of its place.
pub fn at<E: de::Error>(err: E, step: Step<'_>) -> E {
    let message = err.to_string();
    match message.strip_prefix(PREFIX) {
        Some(rest) => E::custom(format_args!("{PREFIX}{step}/{rest}")),
        None => E::custom(format_args!("{PREFIX}{step}{END}{message}")),
    }
}

/// The place a message names (a JSON Pointer, `""` when it names none) and the message without it.
pub fn split(message: &str) -> (String, &str) {
    let Some((place, rest)) = message.strip_prefix(PREFIX).and_then(|m| m.split_once(END)) else {
        return (String::new(), message);
    };
    let mut pointer = String::with_capacity(place.len() + 1);
    pointer.push('/');
    let mut chars = place.char_indices();
    while let Some((i, c)) = chars.next() {
        match (c, place.get(i..i + 3)) {
            ('%', Some("%25")) => {
                pointer.push('%');
                chars.nth(1);
            }
            ('%', Some("%3A")) => {
                pointer.push(':');
                chars.nth(1);
            }
            (c, _) => pointer.push(c),
        }
    }
    (pointer, rest)
}

/// Reads the value of member `name` of `map` as `T`, placing any error from inside it there.
/// The read is `next_value` itself; only the error takes the cold path that names the member.
#[inline(always)]
pub fn next_value_at<'de, A: de::MapAccess<'de>, T: de::Deserialize<'de>>(
    map: &mut A,
    name: &str,
) -> Result<T, A::Error> {
    match map.next_value::<T>() {
        Ok(value) => Ok(value),
        Err(err) => Err(at_member(err, name)),
    }
}

/// Reads the value of member `name` of `map` with `seed`, placing any error from inside it there.
#[inline(always)]
pub fn next_value_seed_at<'de, A: de::MapAccess<'de>, S: DeserializeSeed<'de>>(
    map: &mut A,
    name: &str,
    seed: S,
) -> Result<S::Value, A::Error> {
    match map.next_value_seed(seed) {
        Ok(value) => Ok(value),
        Err(err) => Err(at_member(err, name)),
    }
}

/// [`at`] a member, out of the way of the reads that succeed.
#[cold]
#[inline(never)]
pub fn at_member<E: de::Error>(err: E, name: &str) -> E {
    at(err, Step::Member(name))
}

/// [`at`] an element, out of the way of the reads that succeed.
#[cold]
#[inline(never)]
pub fn at_index<E: de::Error>(err: E, index: usize) -> E {
    at(err, Step::Index(index))
}

/// A seed that can be used again (for each element of an array).
pub trait Each<'de>: DeserializeSeed<'de> + Copy {}

impl<'de, S: DeserializeSeed<'de> + Copy> Each<'de> for S {}

/// Reads `T` itself (serde's `PhantomData` seed, which is `Copy` for every `T`).
pub const fn whole<T>() -> Whole<T> {
    Whole(PhantomData)
}

/// See [`whole`].
pub struct Whole<T>(PhantomData<fn() -> T>);

impl<T> Clone for Whole<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Whole<T> {}

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for Whole<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize(deserializer)
    }
}

/// An array read as a `Vec`, each element with `S`, an error inside an element placed at its
/// index. Reads what serde's `Vec` reads, with its messages.
#[derive(Clone, Copy)]
pub struct Elements<S>(pub S);

impl<'de, S: Each<'de>> DeserializeSeed<'de> for Elements<S> {
    type Value = Vec<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<S::Value>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, S: Each<'de>> Visitor<'de> for Elements<S> {
    type Value = Vec<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<S::Value>, A::Error> {
        let mut items = Vec::new();
        loop {
            match seq.next_element_seed(self.0) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(items),
                Err(err) => return Err(at_index(err, items.len())),
            }
        }
    }
}

/// A value that may be `null` (serde's `Option`), read with `S` when it is not.
#[derive(Clone, Copy)]
pub struct Optional<S>(pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Optional<S> {
    type Value = Option<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<S::Value>, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Optional<S> {
    type Value = Option<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<S::Value>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<S::Value>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<S::Value>, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}

/// An optional member that, when given, must hold a value: read with `S`, `null` refused as `S`
/// refuses it (serde's `Option` would read `null` as absent and accept what the schema rejects).
#[derive(Clone, Copy)]
pub struct Present<S>(pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Present<S> {
    type Value = Option<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<S::Value>, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Holder(Vec<Option<Vec<u8>>>);

    impl<'de> de::Deserialize<'de> for Holder {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            Elements(Optional(Elements(whole::<u8>()))).deserialize(deserializer).map(Holder)
        }
    }

    fn placed(text: &str) -> (String, String) {
        let err = serde_json::from_str::<Holder>(text).expect_err("refused");
        let message = err.to_string();
        let (pointer, rest) = split(&message);
        (pointer, rest.to_owned())
    }

    #[test]
    fn an_error_names_its_place_and_keeps_its_line_and_column() {
        assert_eq!(
            placed("[null, [1, 2],\n [3, 300]]"),
            ("/2/1".to_owned(), "invalid value: integer `300`, expected u8 at line 2 column 8".to_owned())
        );
        // Text that is not JSON: the error is placed at the element the reader stopped at.
        assert_eq!(placed("[[1 2]]").0, "/0/1");
        assert_eq!(placed("{}").0, "");
        let read = serde_json::from_str::<Holder>("[null, [], [7]]").expect("read");
        assert_eq!(read.0, [None, Some(vec![]), Some(vec![7])]);
    }

    #[test]
    fn a_member_name_cannot_end_the_place_early() {
        for name in ["a: b", "%3A", "~/%", "", ": "] {
            let err: serde_json::Error = at(at(de::Error::custom("wrong"), Step::Index(4)), Step::Member(name));
            let message = err.to_string();
            let (pointer, rest) = split(&message);
            let mut expected = String::new();
            jerry_contracts_pointer::push(&mut expected, name);
            assert_eq!((pointer, rest), (format!("{expected}/4"), "wrong"), "{name:?}");
        }
        assert_eq!(split("no place here"), (String::new(), "no place here"));
    }
}
