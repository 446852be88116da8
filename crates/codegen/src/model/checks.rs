//! The value checks one schema node asks of its value: the keyword table's [`Check`] of each
//! value rule the node holds, kept only where draft-07 applies it (a rule on strings is ignored
//! on a number, and so do the types), with the values the schema gives. The Rust renderer spells
//! them as garde rules and in words; the planner asks whether a node needs a check of its own.

use serde_json::{Map, Value};

use super::keyword::{Bound, Check, Keyword, UriForm};

/// A bounded range, with the bounds as the schema writes them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Bounds<'s> {
    /// The least value allowed, if bounded below.
    pub min: Option<&'s Value>,
    /// The greatest value allowed, if bounded above.
    pub max: Option<&'s Value>,
}

impl<'s> Bounds<'s> {
    /// Whether either end is bounded.
    pub fn is_bounded(&self) -> bool {
        self.min.is_some() || self.max.is_some()
    }

    fn set(&mut self, bound: Bound, value: &'s Value) {
        match bound {
            Bound::Min => self.min = Some(value),
            Bound::Max => self.max = Some(value),
        }
    }
}

/// What one schema node asks of its value (not of its subschemas').
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checks<'s> {
    /// An integer (`type` says `integer`): bounds are written as integers.
    pub integer: bool,
    /// A `number` that may not be an integer, or an array of them: each must be finite, which no
    /// JSON text can break but a built value can.
    pub finite: bool,
    /// [`Check::Range`].
    pub range: Bounds<'s>,
    /// [`Check::Characters`].
    pub characters: Bounds<'s>,
    /// [`Check::Pattern`]: the ECMA-262 pattern.
    pub pattern: Option<&'s str>,
    /// [`Check::Format`]: the format, whichever it is (only a [`UriForm`] is a check on the
    /// value; [`Checks::uri_form`]).
    pub format: Option<&'s str>,
    /// [`Check::Items`].
    pub items: Bounds<'s>,
    /// [`Check::UniqueItems`].
    pub unique_items: bool,
}

impl<'s> Checks<'s> {
    /// The checks `schema` asks of its value.
    pub fn of(schema: &'s Map<String, Value>) -> Self {
        let types = json_types(schema);
        let mut checks =
            Checks { integer: types.contains(&"integer"), finite: holds_floats(schema), ..Checks::default() };
        for (name, value) in schema {
            let Some(keyword) = Keyword::parse(name) else { continue };
            let Some(check) = keyword.check() else { continue };
            if !keyword.value_rule_on().iter().any(|on| types.contains(on)) {
                continue;
            }
            match check {
                Check::Range(bound) => checks.range.set(bound, value),
                Check::Characters(bound) => checks.characters.set(bound, value),
                Check::Pattern => checks.pattern = value.as_str(),
                Check::Format => checks.format = value.as_str(),
                Check::Items(bound) => checks.items.set(bound, value),
                Check::UniqueItems => checks.unique_items = value == &Value::Bool(true),
            }
        }
        checks
    }

    /// The format's URI form, when the format is one: a check on the value.
    pub fn uri_form(&self) -> Option<UriForm> {
        self.format.and_then(UriForm::of)
    }
}

/// The JSON types `type` names (one, or a list), in order.
fn json_types(schema: &Map<String, Value>) -> Vec<&str> {
    match schema.get(Keyword::Type.as_str()) {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether a value of this schema is an `f64` (a `number` that may not be an integer, not a
/// reference), or a list of them.
pub fn holds_floats(schema: &Map<String, Value>) -> bool {
    let float = |s: &Map<String, Value>| {
        let types = json_types(s);
        types.contains(&"number") && !types.contains(&"integer") && !s.contains_key(Keyword::Ref.as_str())
    };
    float(schema) || schema.get(Keyword::Items.as_str()).and_then(Value::as_object).is_some_and(float)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn checks_of(schema: &Value) -> Checks<'_> {
        Checks::of(schema.as_object().expect("an object"))
    }

    #[test]
    fn a_rule_counts_only_on_the_types_it_applies_to() {
        let string = json!({"type": "string", "minLength": 1, "pattern": "^a", "minimum": 3, "format": "uri"});
        let checks = checks_of(&string);
        assert_eq!(checks.characters.min, Some(&json!(1)));
        assert_eq!(checks.pattern, Some("^a"));
        assert_eq!(checks.range, Bounds::default(), "minimum is ignored on a string");
        assert_eq!(checks.uri_form(), Some(UriForm::Uri));

        let nullable = json!({"type": ["integer", "null"], "maximum": 9, "minLength": 2});
        let checks = checks_of(&nullable);
        assert!(checks.integer && !checks.finite);
        assert_eq!(checks.range.max, Some(&json!(9)));
        assert!(!checks.characters.is_bounded());

        let floats = json!({"type": "array", "items": {"type": "number"}, "uniqueItems": true, "maxItems": 4});
        let checks = checks_of(&floats);
        assert!(checks.finite && checks.unique_items);
        assert_eq!(checks.items.max, Some(&json!(4)));
        assert!(!checks_of(&json!({"type": "array", "uniqueItems": false})).unique_items);
        assert_eq!(checks_of(&json!({"type": "string", "format": "date"})).uri_form(), None);
        assert!(!checks_of(&json!({"type": "number", "$ref": "#/definitions/x"})).finite);
    }
}
