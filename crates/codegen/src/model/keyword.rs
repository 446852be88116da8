//! Every JSON Schema keyword the generator knows, in one table: what it is to the corpus (an
//! assertion, a cited constraint, a convention, an annotation, the dispatch shape) and how it
//! reaches the types. The checks of `keywords`, the constraint walk of the model and the
//! renderers ask this table; no other place lists keywords.

use std::fmt;

/// One keyword the generator knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // each variant is the keyword it names; `as_str` spells it
pub enum Keyword {
    Schema,
    Id,
    Comment,
    Title,
    Description,
    Examples,
    Default,
    Definitions,
    Ref,
    Type,
    Properties,
    Required,
    AdditionalProperties,
    Items,
    Enum,
    Const,
    Pattern,
    MinLength,
    MaxLength,
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MinItems,
    MaxItems,
    UniqueItems,
    MinProperties,
    MaxProperties,
    Format,
    If,
    Then,
    Else,
    AllOf,
    XSource,
    XConvention,
}

/// What the table says of a keyword.
struct Entry {
    keyword: Keyword,
    name: &'static str,
    /// How the keyword reaches the types; `None`: the generator refuses it.
    carried: Option<&'static str>,
    /// A constraint whose every use must name its source in `x-source`.
    cited: bool,
    /// An assertion on the value (the constraint inventory; `required` is one per name).
    assertion: bool,
    /// May stand in an `x-convention` object.
    convention: bool,
    /// May stand beside `$ref` (draft-07 ignores every sibling of `$ref`).
    ref_sibling: bool,
    /// Only in the agent-output dispatch shape.
    dispatch_only: bool,
    /// Says something of the schema, not of the value (documentation, sources, conventions).
    annotation: bool,
    /// The JSON types a value rule checked on the field (by garde) applies to; empty for any
    /// other keyword. Draft-07 ignores the rule on a value of another type, and so do the types.
    value_rule_on: &'static [&'static str],
    /// What a value rule asks of the value, as the types check it; `None` for any other keyword.
    check: Option<Check>,
}

/// Which end of a range a keyword bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bound {
    /// The least value allowed (`minimum`, `minLength`, `minItems`).
    Min,
    /// The greatest value allowed (`maximum`, `maxLength`, `maxItems`).
    Max,
}

/// What a value rule asks of a value, as the types check it. The table gives each value rule
/// its check; the renderers spell checks (the Rust renderer as garde rules, the documentation
/// in words), never keywords, so a new value rule is a row here and an arm in each renderer's
/// match, which the compiler asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Check {
    /// A number within a bound (`minimum`, `maximum`).
    Range(Bound),
    /// A string's length in characters within a bound (`minLength`, `maxLength`).
    Characters(Bound),
    /// A string that matches an ECMA-262 pattern (`pattern`).
    Pattern,
    /// A string in a format (`format`): a URI form ([`UriForm`]) is checked on the value, any
    /// other format is a type of its own that checks itself.
    Format,
    /// An array's length in items within a bound (`minItems`, `maxItems`).
    Items(Bound),
    /// Array items that are all distinct (`uniqueItems: true`).
    UniqueItems,
}

/// A `format` checked on the value by a rule of its own (RFC 3986); the other carried formats
/// ([`FORMATS`]) are strict types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UriForm {
    /// `uri`: an absolute URI.
    Uri,
    /// `uri-reference`: a URI or a relative reference.
    UriReference,
}

impl UriForm {
    /// The URI form a `format` value names, if it names one.
    pub fn of(format: &str) -> Option<UriForm> {
        match format {
            "uri" => Some(UriForm::Uri),
            "uri-reference" => Some(UriForm::UriReference),
            _ => None,
        }
    }
}

const fn entry(keyword: Keyword, name: &'static str, carried: Option<&'static str>) -> Entry {
    Entry {
        keyword,
        name,
        carried,
        cited: false,
        assertion: false,
        convention: false,
        ref_sibling: false,
        dispatch_only: false,
        annotation: false,
        value_rule_on: &[],
        check: None,
    }
}

const STRING: &[&str] = &["string"];
const NUMBER: &[&str] = &["number", "integer"];
const ARRAY: &[&str] = &["array"];

/// A value rule: a cited assertion the types check on a value of the JSON types `on`.
const fn rule(
    keyword: Keyword,
    name: &'static str,
    carried: &'static str,
    on: &'static [&'static str],
    check: Check,
) -> Entry {
    Entry { value_rule_on: on, check: Some(check), ..constraint(keyword, name, Some(carried), true, true) }
}

/// A cited constraint: `assertion` says whether the inventory lists it, `convention` whether
/// the convention layer may apply it.
const fn constraint(
    keyword: Keyword,
    name: &'static str,
    carried: Option<&'static str>,
    assertion: bool,
    convention: bool,
) -> Entry {
    Entry { cited: true, assertion, convention, ..entry(keyword, name, carried) }
}

/// An annotation that may stand beside `$ref`.
const fn annotation(keyword: Keyword, name: &'static str, carried: &'static str) -> Entry {
    Entry { ref_sibling: true, annotation: true, ..entry(keyword, name, Some(carried)) }
}

const fn dispatch(keyword: Keyword, name: &'static str) -> Entry {
    Entry { dispatch_only: true, ..entry(keyword, name, Some("only in the agent-output dispatch shape")) }
}

/// The table, in the order the cited constraints of one schema object are listed
/// (`required` first, then the assertions).
const TABLE: &[Entry] = &[
    entry(Keyword::Schema, "$schema", Some("checked by the corpus loader")),
    entry(Keyword::Id, "$id", Some("checked by the corpus loader; quoted in rustdoc")),
    annotation(Keyword::Comment, "$comment", "annotation"),
    annotation(Keyword::Title, "title", "rustdoc"),
    annotation(Keyword::Description, "description", "rustdoc"),
    annotation(Keyword::Examples, "examples", "annotation (checked against the schema by the test suite)"),
    annotation(
        Keyword::Default,
        "default",
        "annotation; the field stays optional so a relayed document is not rewritten",
    ),
    entry(Keyword::Definitions, "definitions", Some("one named type per definition")),
    Entry { ref_sibling: true, ..entry(Keyword::Ref, "$ref", Some("a reference to the named type")) },
    entry(Keyword::Type, "type", Some("the Rust type; a type list with \"null\" makes the value nullable")),
    entry(Keyword::Properties, "properties", Some("struct fields")),
    constraint(Keyword::Required, "required", Some("non-optional fields"), false, true),
    rule(Keyword::Pattern, "pattern", "garde `pattern` with an ECMA-262 matcher", STRING, Check::Pattern),
    constraint(Keyword::Enum, "enum", Some("a Rust enum (with null: a nullable field)"), true, true),
    constraint(Keyword::Const, "const", Some("a one-value type that only deserialises from the constant"), true, true),
    rule(Keyword::Minimum, "minimum", "garde `range(min)`", NUMBER, Check::Range(Bound::Min)),
    rule(Keyword::Maximum, "maximum", "garde `range(max)`", NUMBER, Check::Range(Bound::Max)),
    constraint(Keyword::ExclusiveMinimum, "exclusiveMinimum", None, false, false),
    constraint(Keyword::ExclusiveMaximum, "exclusiveMaximum", None, false, false),
    rule(Keyword::MinLength, "minLength", "garde `length(chars, min)`", STRING, Check::Characters(Bound::Min)),
    rule(Keyword::MaxLength, "maxLength", "garde `length(chars, max)`", STRING, Check::Characters(Bound::Max)),
    rule(Keyword::MinItems, "minItems", "garde `length(min)`", ARRAY, Check::Items(Bound::Min)),
    rule(Keyword::MaxItems, "maxItems", "garde `length(max)`", ARRAY, Check::Items(Bound::Max)),
    rule(Keyword::UniqueItems, "uniqueItems", "garde custom rule `__private::unique_items`", ARRAY, Check::UniqueItems),
    rule(
        Keyword::Format,
        "format",
        "date, date-time, uuid: strict types in `formats`; uri and uri-reference: RFC 3986 garde custom rules",
        STRING,
        Check::Format,
    ),
    constraint(
        Keyword::AdditionalProperties,
        "additionalProperties",
        Some("a map type (schema) or the struct's `extra` map (true/absent)"),
        false,
        true,
    ),
    constraint(Keyword::MinProperties, "minProperties", None, false, false),
    constraint(Keyword::MaxProperties, "maxProperties", None, false, false),
    entry(Keyword::Items, "items", Some("Vec element type")),
    dispatch(Keyword::If, "if"),
    dispatch(Keyword::Then, "then"),
    dispatch(Keyword::Else, "else"),
    dispatch(Keyword::AllOf, "allOf"),
    Entry {
        convention: true,
        annotation: true,
        ..entry(
            Keyword::XSource,
            "x-source",
            Some(
                "annotation: where each constraint of the object comes from (the constraint table, docs/constraints.md)",
            ),
        )
    },
    Entry {
        annotation: true,
        ..entry(
            Keyword::XConvention,
            "x-convention",
            Some(
                "the convention layer (CNV-*): constraints the seeds do not state, warnings unless strict; not in the types",
            ),
        )
    },
];

/// `format` values the generator carries.
pub const FORMATS: &[&str] = &["date", "date-time", "uuid", "uri", "uri-reference"];

impl Keyword {
    fn entry(self) -> &'static Entry {
        // Every keyword has exactly one row (a unit test holds the table to it).
        TABLE.iter().find(|e| e.keyword == self).unwrap_or(&TABLE[0])
    }

    /// Every keyword, in the table's order.
    pub fn all() -> impl Iterator<Item = Keyword> {
        TABLE.iter().map(|e| e.keyword)
    }

    /// The keyword spelt as in a schema.
    pub fn parse(name: &str) -> Option<Keyword> {
        TABLE.iter().find(|e| e.name == name).map(|e| e.keyword)
    }

    /// The keyword's name in a schema (`minLength`).
    pub fn as_str(self) -> &'static str {
        self.entry().name
    }

    /// How the keyword reaches the types; `None` when the generator refuses it.
    pub fn carried(self) -> Option<&'static str> {
        self.entry().carried
    }

    /// Whether the generator carries the keyword.
    pub fn is_supported(self) -> bool {
        self.carried().is_some()
    }

    /// Whether every use must name its source in `x-source` (`seed NNN:LINE` or
    /// `convention D-NN`).
    pub fn is_cited(self) -> bool {
        self.entry().cited
    }

    /// Whether the keyword asserts something of a value (the constraint inventory; `required`
    /// is listed too, one constraint per property name, on its own terms).
    pub fn is_assertion(self) -> bool {
        self.entry().assertion
    }

    /// Whether an `x-convention` object may hold it.
    pub fn in_convention(self) -> bool {
        self.entry().convention
    }

    /// Whether it may stand beside `$ref`.
    pub fn beside_ref(self) -> bool {
        self.entry().ref_sibling
    }

    /// Whether it says something of the schema rather than of the value (`title`,
    /// `description`, `examples`, `default`, `$comment`, `x-source`, `x-convention`): a schema
    /// of annotations only accepts any value.
    pub fn is_annotation(self) -> bool {
        self.entry().annotation
    }

    /// The JSON types of the values it is a garde-checked rule on (`minLength`: strings); empty
    /// for a keyword that is no value rule.
    pub fn value_rule_on(self) -> &'static [&'static str] {
        self.entry().value_rule_on
    }

    /// Whether `value`, given for this keyword, asks the types for a check on the value:
    /// `uniqueItems` only when true, `format` only for the URI forms (the other formats are
    /// types of their own, which check themselves).
    pub fn rule_in_force(self, value: &serde_json::Value) -> bool {
        match self.check() {
            Some(Check::UniqueItems) => value == &serde_json::Value::Bool(true),
            Some(Check::Format) => value.as_str().and_then(UriForm::of).is_some(),
            Some(_) => true,
            None => false,
        }
    }

    /// What the keyword asks of a value as the types check it, if it is a value rule.
    pub fn check(self) -> Option<Check> {
        self.entry().check
    }

    /// Whether it belongs to the agent-output dispatch shape only.
    pub fn dispatch_only(self) -> bool {
        self.entry().dispatch_only
    }

    /// The keywords the generator carries.
    pub fn supported() -> impl Iterator<Item = Keyword> {
        Self::all().filter(|k| k.is_supported())
    }

    /// The cited keywords, in the order one object's constraints are listed.
    pub fn cited() -> impl Iterator<Item = Keyword> {
        Self::all().filter(|k| k.is_cited())
    }

    /// The assertions of the constraint inventory (besides `required`).
    pub fn assertions() -> impl Iterator<Item = Keyword> {
        Self::all().filter(|k| k.is_assertion())
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Keyword {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Keyword {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_has_one_row_and_one_name() {
        let mut keywords: Vec<Keyword> = Keyword::all().collect();
        let mut names: Vec<&str> = TABLE.iter().map(|e| e.name).collect();
        keywords.sort();
        keywords.dedup();
        names.sort_unstable();
        names.dedup();
        assert_eq!(keywords.len(), TABLE.len(), "a keyword with two rows");
        assert_eq!(names.len(), TABLE.len(), "a name with two rows");
        for keyword in Keyword::all() {
            assert_eq!(Keyword::parse(keyword.as_str()), Some(keyword));
        }
        assert_eq!(Keyword::parse("multipleOf"), None);
    }

    #[test]
    fn the_kinds_are_consistent() {
        for keyword in Keyword::all() {
            assert!(!keyword.is_assertion() || keyword.is_cited(), "{keyword}: an assertion must cite its source");
            assert!(
                !keyword.in_convention() || keyword.is_supported(),
                "{keyword}: a convention the generator cannot check"
            );
        }
        for keyword in Keyword::all() {
            assert_eq!(
                keyword.check().is_some(),
                !keyword.value_rule_on().is_empty(),
                "{keyword}: a value rule has a check and the JSON types it applies to"
            );
        }
        assert_eq!(UriForm::of("uri-reference"), Some(UriForm::UriReference));
        assert_eq!(UriForm::of("date"), None);
        let cited: Vec<&str> = Keyword::cited().map(Keyword::as_str).collect();
        assert_eq!(cited[0], "required", "required is listed first");
        assert!(Keyword::Required.in_convention() && !Keyword::Required.is_assertion());
    }
}
