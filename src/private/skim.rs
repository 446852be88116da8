//! Check-only reads ("skims"): every generated type also implements [`Skim`], a pass over a JSON
//! value that answers whether the type's read *and* its `garde` rules would accept it, while
//! building as little as it can: strings are looked at where they lie in the input (borrowed),
//! objects keep only which members were seen, unknown members are skipped. The generator emits
//! the impls from the same field attributes the typed read and `garde` use, so a skim accepts
//! exactly the values the typed read plus `validate()` accepts (`tests/skim.rs` holds them to
//! it on every fixture and on generated documents).
//!
//! A skim only says "clean" or "not clean": the validator skims first and, on anything but
//! clean, takes the typed path, which names every problem. On the way, a skim hands the few
//! values the rule layers read to a [`Cx`] (the envelope's agents and session, an agent
//! output's confidence and artifacts), so the rules run without the document being built.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::__private::read::Key;
use crate::pattern::EcmaPattern;

pub(crate) mod facts;

/// A check-only read of a value of `Self`'s JSON shape (see the module docs).
pub trait Skim {
    /// Reads one value from `deserializer`, failing unless the typed read and `validate()` of
    /// `Self` would both accept it; values the rule layers read go to `cx`.
    fn skim<'de, D: Deserializer<'de>>(deserializer: D, cx: &mut Cx<'de>) -> Result<(), D::Error>;
}

/// The error of a skim that is not clean: it carries no message, since the typed path that
/// runs next names the problem.
pub fn fail<E: de::Error>() -> E {
    E::custom("not clean")
}

/// What a skim collects for the rule layers, and the state it needs on the way.
#[derive(Debug)]
pub struct Cx<'de> {
    pub(crate) facts: facts::Facts<'de>,
    /// Whether the rules read the output of an agent (`None`: the generic payload) whole: then
    /// the skim reads it as its type and keeps it, rather than keep only the facts.
    read_whole: fn(Option<&str>) -> bool,
}

impl Cx<'_> {
    /// A context for a verdict alone: nothing is kept for rules, every output is skimmed.
    pub fn new() -> Self {
        Self::for_rules(|_| false)
    }

    /// A context for the rule layers, which read the outputs `read_whole` names whole.
    pub(crate) fn for_rules(read_whole: fn(Option<&str>) -> bool) -> Self {
        Self { facts: facts::Facts::default(), read_whole }
    }
}

impl Default for Cx<'_> {
    fn default() -> Self {
        Self::new()
    }
}

/// Skims a whole document held as bytes, as [`crate::__private::read::from_bytes`] reads it (whole-input
/// UTF-8, then text, then nothing but whitespace after the value).
pub(crate) fn document<'de, T: Skim>(bytes: &'de [u8], cx: &mut Cx<'de>) -> bool {
    let Ok(text) = simdutf8::basic::from_utf8(bytes) else { return false };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    T::skim(&mut deserializer, cx).is_ok() && deserializer.end().is_ok()
}

/// A [`DeserializeSeed`] that skims a `T`.
pub struct Seed<'c, 'de, T: ?Sized>(pub &'c mut Cx<'de>, pub PhantomData<fn() -> T>);

impl<'c, 'de, T: ?Sized> Seed<'c, 'de, T> {
    /// The seed skimming a `T` into `cx`.
    pub fn new(cx: &'c mut Cx<'de>) -> Self {
        Self(cx, PhantomData)
    }
}

impl<'de, T: Skim + ?Sized> DeserializeSeed<'de> for Seed<'_, 'de, T> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        T::skim(deserializer, self.0)
    }
}

/// Skims through the typed read itself: for values that cost nothing to build (booleans,
/// numbers, enums, constants) and for the few that the pass does not take apart.
macro_rules! skim_by_reading {
    ($($ty:ty),* $(,)?) => {$(
        impl Skim for $ty {
            fn skim<'de, D: Deserializer<'de>>(deserializer: D, _cx: &mut Cx<'de>) -> Result<(), D::Error> {
                <$ty as serde::Deserialize>::deserialize(deserializer).map(drop)
            }
        }
    )*};
}

skim_by_reading!(
    bool,
    crate::formats::Date,
    crate::formats::DateTime,
    crate::formats::Uuid,
    crate::constant::True,
    serde_json::Value,
    serde_json::Map<String, serde_json::Value>,
);

impl Skim for String {
    fn skim<'de, D: Deserializer<'de>>(deserializer: D, _cx: &mut Cx<'de>) -> Result<(), D::Error> {
        deserializer.deserialize_str(Text::ANY)
    }
}

impl<T: Skim> Skim for Box<T> {
    fn skim<'de, D: Deserializer<'de>>(deserializer: D, cx: &mut Cx<'de>) -> Result<(), D::Error> {
        T::skim(deserializer, cx)
    }
}

/// `null` or a `T`, as serde reads an `Option<T>`.
impl<T: Skim> Skim for Option<T> {
    fn skim<'de, D: Deserializer<'de>>(deserializer: D, cx: &mut Cx<'de>) -> Result<(), D::Error> {
        deserializer.deserialize_option(Nullable(Seed::<T>::new(cx)))
    }
}

impl<T: Skim> Skim for Vec<T> {
    fn skim<'de, D: Deserializer<'de>>(deserializer: D, cx: &mut Cx<'de>) -> Result<(), D::Error> {
        Items::<T> { cx, min: 0, max: usize::MAX, item: PhantomData }.deserialize(deserializer)
    }
}

impl<T: Skim> Skim for std::collections::BTreeMap<String, T> {
    fn skim<'de, D: Deserializer<'de>>(deserializer: D, cx: &mut Cx<'de>) -> Result<(), D::Error> {
        Members::<T> { cx, min: 0, max: usize::MAX, value: PhantomData }.deserialize(deserializer)
    }
}

/// `null`, or what the inner seed accepts (an optional field read as serde reads `Option`).
pub struct Nullable<S>(pub S);

impl<'de, S: DeserializeSeed<'de, Value = ()>> DeserializeSeed<'de> for Nullable<S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de, Value = ()>> Visitor<'de> for Nullable<S> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null or a value")
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.0.deserialize(deserializer)
    }
}

/// A string field's rules (`garde`'s `length(chars, …)`, `pattern`, and the `uri` and
/// `uri_reference` checks), applied to the string where it lies in the input.
#[derive(Clone, Copy)]
pub struct Text {
    /// Fewest characters.
    pub min: usize,
    /// Most characters.
    pub max: usize,
    /// The pattern the string must match.
    pub pattern: Option<&'static std::sync::LazyLock<EcmaPattern>>,
    /// `format: uri`.
    pub uri: bool,
    /// `format: uri-reference`.
    pub uri_reference: bool,
}

impl Text {
    /// Any string.
    pub const ANY: Text = Text { min: 0, max: usize::MAX, pattern: None, uri: false, uri_reference: false };

    fn accepts(&self, text: &str) -> bool {
        // garde counts characters; a count is needed only when the bytes do not settle it
        // (a character is one to four bytes).
        let bytes = text.len();
        let length_ok = if bytes >= self.min.saturating_mul(4) && bytes <= self.max {
            true
        } else if bytes < self.min {
            false
        } else {
            let chars = text.chars().count();
            chars >= self.min && chars <= self.max
        };
        length_ok
            && self.pattern.is_none_or(|pattern| pattern.is_match(text))
            && (!self.uri || crate::__private::uri(text, &()).is_ok())
            && (!self.uri_reference || super::uri::uri_reference(text, &()).is_ok())
    }
}

impl<'de> DeserializeSeed<'de> for Text {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        if self.accepts(v) { Ok(()) } else { Err(fail()) }
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        // As serde's `String` reads bytes: when they are UTF-8.
        match std::str::from_utf8(v) {
            Ok(text) => self.visit_str(text),
            Err(_) => Err(fail()),
        }
    }
}

/// A string newtype whose skim is a [`Text`] (`SessionId`, `AgentId`, …): a kept or captured
/// member of one is taken as text where it lies in the input, under these rules.
pub trait AsText {
    /// The newtype's rules.
    fn text() -> Text;
}

/// A string kept for the rules: checked as [`Text`] checks it, and handed back borrowed from the
/// input unless it holds escapes.
pub struct TextKeep(pub Text);

impl<'de> DeserializeSeed<'de> for TextKeep {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TextKeep {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        if self.0.accepts(v) { Ok(Cow::Borrowed(v)) } else { Err(fail()) }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        if self.0.accepts(v) { Ok(Cow::Owned(v.to_owned())) } else { Err(fail()) }
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Cow<'de, str>, E> {
        match std::str::from_utf8(v) {
            Ok(text) => self.visit_str(text),
            Err(_) => Err(fail()),
        }
    }
}

/// A number field's rules: `garde`'s `range`. (Its `finite` rule needs no check here: a number
/// read from JSON text is always finite, `Number<f64>` refuses `1e999`.)
pub struct Range<T> {
    /// The lower bound, inclusive.
    pub min: Option<T>,
    /// The upper bound, inclusive.
    pub max: Option<T>,
}

impl<'de, T> DeserializeSeed<'de> for Range<T>
where
    T: crate::number::Numeric + garde::rules::range::Bounds<Size = T>,
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        use garde::rules::range::Bounds;
        let value: T = crate::number::value(deserializer)?;
        let lower = self.min.unwrap_or(<T as Bounds>::MIN);
        let upper = self.max.unwrap_or(<T as Bounds>::MAX);
        if value.validate_bounds(lower, upper).is_ok() { Ok(()) } else { Err(fail()) }
    }
}

impl<T: crate::number::Numeric> Skim for crate::Number<T> {
    fn skim<'de, D: Deserializer<'de>>(deserializer: D, _cx: &mut Cx<'de>) -> Result<(), D::Error> {
        crate::number::value::<T, D>(deserializer).map(drop)
    }
}

/// An array field: `garde`'s `length(min, max)` on the count, each item skimmed as a `T`.
pub struct Items<'c, 'de, T> {
    /// Where the items' facts go.
    pub cx: &'c mut Cx<'de>,
    /// Fewest items.
    pub min: usize,
    /// Most items.
    pub max: usize,
    /// The item type.
    pub item: PhantomData<fn() -> T>,
}

impl<'de, T: Skim> DeserializeSeed<'de> for Items<'_, 'de, T> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Skim> Visitor<'de> for Items<'_, 'de, T> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut count = 0usize;
        while seq.next_element_seed(Seed::<T>::new(self.cx))?.is_some() {
            count += 1;
        }
        if count >= self.min && count <= self.max { Ok(()) } else { Err(fail()) }
    }
}

/// A one-field struct the generator derives `garde::Validate` on, carrying a field's `garde`
/// attribute, so that a value read whole is checked exactly as the field is (a list whose items
/// must be unique, a map, a value kept for the rules).
pub trait Checked: garde::Validate<Context = ()> {
    /// The field's type.
    type Value;
    /// The struct around `value`.
    fn wrap(value: Self::Value) -> Self;
    /// The value back.
    fn unwrap(self) -> Self::Value;
}

/// The [`Checked`] of a field without `garde` rules: every value passes.
pub struct Unchecked<T>(T);

impl<T> garde::Validate for Unchecked<T> {
    type Context = ();
    fn validate_into(&self, _: &(), _: &mut dyn FnMut() -> garde::Path, _: &mut garde::Report) {}
}

impl<T> Checked for Unchecked<T> {
    type Value = T;
    fn wrap(value: T) -> Self {
        Self(value)
    }
    fn unwrap(self) -> T {
        self.0
    }
}

/// Reads a field whole and checks it with its [`Checked`] struct `C`.
pub struct Whole<C>(PhantomData<fn() -> C>);

impl<C: Checked> Whole<C> {
    /// The seed.
    pub fn new() -> Self {
        Self(PhantomData)
    }

    /// `value` when `C`'s rules pass.
    pub fn checked<E: de::Error>(value: C::Value) -> Result<C::Value, E> {
        let wrapped = C::wrap(value);
        if garde::Validate::validate(&wrapped).is_ok() { Ok(wrapped.unwrap()) } else { Err(fail()) }
    }
}

impl<C: Checked> Default for Whole<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, C: Checked> DeserializeSeed<'de> for Whole<C>
where
    C::Value: serde::Deserialize<'de>,
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let value = <C::Value as serde::Deserialize>::deserialize(deserializer)?;
        Self::checked::<D::Error>(value).map(drop)
    }
}

/// A skim that also reads the few fields the rule layers look at: the generator implements it
/// for the types listed in `crates/codegen/src/skim.rs` (`KEEPS`), with a `<Type>Kept` view.
pub trait Keep: Skim {
    /// The fields kept (strings borrowed from the input where they have no escapes).
    type View<'de>;
    /// Skims one value, as [`Skim::skim`] does, and returns its kept fields.
    fn keep<'de, D: Deserializer<'de>>(deserializer: D, cx: &mut Cx<'de>) -> Result<Self::View<'de>, D::Error>;
}

/// A [`DeserializeSeed`] that keeps a `T` ([`Keep`]).
pub struct KeepSeed<'c, 'de, T>(&'c mut Cx<'de>, PhantomData<fn() -> T>);

impl<'c, 'de, T> KeepSeed<'c, 'de, T> {
    /// The seed keeping a `T`.
    pub fn new(cx: &'c mut Cx<'de>) -> Self {
        Self(cx, PhantomData)
    }
}

impl<'de, T: Keep> DeserializeSeed<'de> for KeepSeed<'_, 'de, T> {
    type Value = T::View<'de>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T::View<'de>, D::Error> {
        T::keep(deserializer, self.0)
    }
}

/// A [`DeserializeSeed`] that keeps every item of an array of `T`.
pub struct KeepItems<'c, 'de, T>(&'c mut Cx<'de>, PhantomData<fn() -> T>);

impl<'c, 'de, T> KeepItems<'c, 'de, T> {
    /// The seed keeping the items.
    pub fn new(cx: &'c mut Cx<'de>) -> Self {
        Self(cx, PhantomData)
    }
}

impl<'de, T: Keep> DeserializeSeed<'de> for KeepItems<'_, 'de, T> {
    type Value = Vec<T::View<'de>>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T::View<'de>>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Keep> Visitor<'de> for KeepItems<'_, 'de, T> {
    type Value = Vec<T::View<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T::View<'de>>, A::Error> {
        let mut views = Vec::new();
        while let Some(view) = seq.next_element_seed(KeepSeed::<T>::new(self.0))? {
            views.push(view);
        }
        Ok(views)
    }
}

/// A member the rule layers read, read whole: the generator hands each captured member (see
/// `crates/codegen/src/skim.rs`) to the context under its name.
pub trait Capture<'de> {
    /// Keeps `self`, the value of member `name`, in `cx`.
    fn capture(self, cx: &mut Cx<'de>, name: &'static str);
}

/// The members of a payload up to its `agent_id`, for the skim's dispatch: the same reading as
/// [`crate::__private::read::tag_first`], but the members read ahead are kept as their text in the input
/// (nothing is copied when `agent_id` comes first, as it usually does).
///
/// A member read ahead that is an array or an object is noted in `cx` (`Facts::replayed_nesting`):
/// its replay is read by a reader of its own, whose depth limit starts again, so the validator,
/// which leaves the nesting of an envelope unjudged when the skim is clean and every place was
/// held to serde_json's limit (`Validator::validate`), judges it then.
pub fn tag_first<'de, A: MapAccess<'de>>(mut map: A, cx: &mut Cx<'de>) -> Result<Tagged<'de, A>, A::Error> {
    let mut before = Vec::new();
    while let Some(Key(name)) = map.next_key()? {
        let raw: &'de RawValue = map.next_value()?;
        if raw.get().starts_with(['{', '[']) {
            cx.facts.replayed_nesting = true;
        }
        if name == "agent_id" {
            let text = raw.get();
            let agent =
                match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).filter(|t| !t.contains(['\\', '"'])) {
                    Some(plain) => Some(Cow::Borrowed(plain)),
                    None => serde_json::from_str::<String>(text).ok().map(Cow::Owned),
                };
            let replay = Replay { before: before.into_iter(), agent: Some((name, raw)), value: None, rest: Some(map) };
            return Ok((agent, replay));
        }
        before.push((name, raw));
    }
    Ok((None, Replay { before: before.into_iter(), agent: None, value: None, rest: None }))
}

/// The agent a payload names, if it names one, and the map that replays its members.
pub type Tagged<'de, A> = (Option<Cow<'de, str>>, Replay<'de, A>);

/// A map of members read ahead (as their text) followed by the members not yet read.
pub struct Replay<'de, A> {
    before: std::vec::IntoIter<(Cow<'de, str>, &'de RawValue)>,
    agent: Option<(Cow<'de, str>, &'de RawValue)>,
    value: Option<&'de RawValue>,
    rest: Option<A>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, raw)) = self.before.next().or_else(|| self.agent.take()) {
            self.value = Some(raw);
            return seed.deserialize(de::value::CowStrDeserializer::<A::Error>::new(key)).map(Some);
        }
        match &mut self.rest {
            Some(rest) => rest.next_key_seed(seed),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.value.take() {
            Some(raw) => {
                let mut deserializer = serde_json::Deserializer::from_str(raw.get());
                seed.deserialize(&mut deserializer).map_err(|_| fail())
            }
            None => match &mut self.rest {
                Some(rest) => rest.next_value_seed(seed),
                None => Err(fail()),
            },
        }
    }
}

/// Skims an agent output of type `T` in a payload dispatched on `agent` (`None`: the generic
/// payload). An output whose rules read more than the context keeps is read whole instead, and
/// kept as the dispatch type `P` (what `keep` makes of it).
pub fn output<'de, T, P, D>(
    deserializer: D,
    cx: &mut Cx<'de>,
    agent: Option<&'static str>,
    keep: fn(T) -> P,
) -> Result<(), D::Error>
where
    T: Skim + serde::Deserialize<'de> + garde::Validate<Context = ()>,
    P: std::any::Any + Send + Sync,
    D: Deserializer<'de>,
{
    cx.facts.agent = agent;
    if (cx.read_whole)(agent) {
        let value = T::deserialize(deserializer)?;
        if garde::Validate::validate(&value).is_err() {
            return Err(fail());
        }
        cx.facts.kept = Some(std::sync::Arc::new(keep(value)));
        Ok(())
    } else {
        T::skim(deserializer, cx)
    }
}

/// The names of the undeclared members of one object, to refuse a name given twice as the typed
/// read does.
#[derive(Default)]
pub struct Unknown<'de>(Names<'de>);

impl<'de> Unknown<'de> {
    /// Skips the value of the undeclared member `key`, failing if the name came before.
    pub fn skip<A: MapAccess<'de>>(&mut self, map: &mut A, key: Key<'de>) -> Result<(), A::Error> {
        if !self.0.insert(key.0) {
            return Err(fail());
        }
        // No object inside the value may name a member twice either (the typed read refuses it).
        map.next_value::<crate::__private::read::Distinct>().map(drop)
    }
}

/// The member names met in one object. A handful are compared in a list; past that, in a set, so
/// that an object of many members costs linear time.
#[derive(Default)]
struct Names<'de> {
    few: Vec<Cow<'de, str>>,
    many: Option<HashSet<Cow<'de, str>>>,
}

/// How many names are compared in a list before a set takes over.
const FEW: usize = 8;

impl<'de> Names<'de> {
    /// Notes `name`; `false` when it came before.
    fn insert(&mut self, name: Cow<'de, str>) -> bool {
        if let Some(set) = &mut self.many {
            return set.insert(name);
        }
        if self.few.contains(&name) {
            return false;
        }
        if self.few.len() < FEW {
            self.few.push(name);
        } else {
            let mut set: HashSet<_> = self.few.drain(..).collect();
            set.insert(name);
            self.many = Some(set);
        }
        true
    }
}

/// An object read as a map (a schema's `additionalProperties`, a `BTreeMap<String, T>` field):
/// every member's value skimmed as a `T`, the count held to `garde`'s `length(min, max)`, and no
/// name given twice (the typed read refuses it). Nothing is built.
pub struct Members<'c, 'de, T> {
    /// Where the values' facts go.
    pub cx: &'c mut Cx<'de>,
    /// Fewest members.
    pub min: usize,
    /// Most members.
    pub max: usize,
    /// The value type.
    pub value: PhantomData<fn() -> T>,
}

impl<'de, T: Skim> DeserializeSeed<'de> for Members<'_, 'de, T> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: Skim> Visitor<'de> for Members<'_, 'de, T> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut names = Names::default();
        let mut count = 0usize;
        while let Some(Key(name)) = map.next_key()? {
            if !names.insert(name) {
                return Err(fail());
            }
            map.next_value_seed(Seed::<T>::new(self.cx))?;
            count += 1;
        }
        if count >= self.min && count <= self.max { Ok(()) } else { Err(fail()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_counts_characters_only_when_the_bytes_do_not_settle_it() {
        let rules = Text { min: 2, max: 3, ..Text::ANY };
        for (text, expected) in [("", false), ("a", false), ("ab", true), ("abc", true), ("abcd", false)] {
            assert_eq!(rules.accepts(text), expected, "{text:?}");
        }
        // Two characters in four bytes, three in six, four in eight.
        for (text, expected) in [("éé", true), ("ééé", true), ("éééé", false), ("é", false)] {
            assert_eq!(rules.accepts(text), expected, "{text:?}");
        }
        assert!(Text { min: 1, ..Text::ANY }.accepts("x"));
        assert!(!Text { min: 1, ..Text::ANY }.accepts(""));
    }

    #[test]
    fn unknown_names_given_twice_are_refused_in_the_list_and_in_the_set() {
        for count in [3usize, 40] {
            let mut members: Vec<String> = (0..count).map(|i| format!("\"m{i}\":{i}")).collect();
            let clean = format!("{{{}}}", members.join(","));
            members.push("\"m1\":0".to_owned());
            let twice = format!("{{{}}}", members.join(","));
            for (text, expected) in [(clean, true), (twice, false)] {
                struct Object;
                impl Skim for Object {
                    fn skim<'de, D: Deserializer<'de>>(deserializer: D, _cx: &mut Cx<'de>) -> Result<(), D::Error> {
                        struct V;
                        impl<'de> Visitor<'de> for V {
                            type Value = ();
                            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                                f.write_str("an object")
                            }
                            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
                                let mut unknown = Unknown::default();
                                while let Some(key) = map.next_key::<Key<'de>>()? {
                                    unknown.skip(&mut map, key)?;
                                }
                                Ok(())
                            }
                        }
                        deserializer.deserialize_map(V)
                    }
                }
                assert_eq!(document::<Object>(text.as_bytes(), &mut Cx::new()), expected, "{count} members");
            }
        }
    }
}
