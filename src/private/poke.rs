//! Test support (feature `testing`): changes one place of a typed value the way only Rust code
//! can — a non-finite number, an `extra` member named like a declared field — so that the
//! soundness property (tests/properties.rs) also covers values no document can produce. Every
//! generated type implements [`Poke`] under this feature.

use std::collections::BTreeMap;

use crate::{Extra, Number};

/// What to change, and where: the `target`-th place (in field order) that can take the change.
#[derive(Debug, Clone)]
pub struct Tweak {
    /// Which eligible place to change.
    pub target: usize,
    /// The change.
    pub kind: TweakKind,
    seen: usize,
    done: bool,
}

/// A change only Rust code can make.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TweakKind {
    /// A float field set to this value (NaN, ±∞).
    Float(f64),
    /// An `extra` member named like one of the struct's declared fields.
    DeclaredExtra,
}

impl Tweak {
    /// A change of the `target`-th eligible place (wrapping around when there are fewer).
    pub fn new(target: usize, kind: TweakKind) -> Self {
        Tweak { target, kind, seen: 0, done: false }
    }

    /// Whether a change was made.
    pub fn done(&self) -> bool {
        self.done
    }

    /// How many eligible places the value has (after one [`Poke::poke`]).
    pub fn places(&self) -> usize {
        self.seen
    }

    fn hit(&mut self) -> bool {
        let hit = !self.done && self.seen == self.target;
        self.seen += 1;
        self.done |= hit;
        hit
    }
}

/// Applies `tweak` to `value` at its target place taken modulo the number of eligible places
/// (a count first, then the change), so any target changes something when there is a place.
pub fn apply<T: Poke>(value: &mut T, tweak: &mut Tweak) {
    let mut count = Tweak::new(usize::MAX, tweak.kind);
    value.poke(&mut count);
    if count.places() > 0 {
        *tweak = Tweak::new(tweak.target % count.places(), tweak.kind);
        value.poke(tweak);
    }
}

/// A typed value [`Tweak`] can change.
pub trait Poke {
    /// Applies `tweak` if its place is in this value.
    fn poke(&mut self, tweak: &mut Tweak);
}

/// The `extra` of a struct whose declared JSON names are `declared`.
pub fn extra(extra: &mut Extra, declared: &[&str], tweak: &mut Tweak) {
    if tweak.kind == TweakKind::DeclaredExtra
        && let Some(name) = declared.first()
        && tweak.hit()
    {
        // "null" is one JSON value, so this cannot fail.
        let _ = extra.insert_raw(*name, "null");
    }
}

impl Poke for Number<f64> {
    fn poke(&mut self, tweak: &mut Tweak) {
        if let TweakKind::Float(value) = tweak.kind
            && tweak.hit()
        {
            *self = Number::new(value);
        }
    }
}

macro_rules! leaves {
    ($($ty:ty),*) => {
        $(impl Poke for $ty {
            fn poke(&mut self, _: &mut Tweak) {}
        })*
    };
}

leaves!(
    Number<i64>,
    String,
    bool,
    serde_json::Value,
    serde_json::Map<String, serde_json::Value>,
    crate::constant::True,
    crate::formats::Date,
    crate::formats::DateTime,
    crate::formats::Uuid
);

impl<T: Poke> Poke for Option<T> {
    fn poke(&mut self, tweak: &mut Tweak) {
        if let Some(value) = self {
            value.poke(tweak);
        }
    }
}

impl<T: Poke> Poke for Vec<T> {
    fn poke(&mut self, tweak: &mut Tweak) {
        self.iter_mut().for_each(|v| v.poke(tweak));
    }
}

impl<T: Poke> Poke for Box<T> {
    fn poke(&mut self, tweak: &mut Tweak) {
        (**self).poke(tweak);
    }
}

impl<K: Ord, V: Poke> Poke for BTreeMap<K, V> {
    fn poke(&mut self, tweak: &mut Tweak) {
        self.values_mut().for_each(|v| v.poke(tweak));
    }
}
