//! The schema change classifier: every change between two versions of a draft-07 JSON Schema,
//! each classed MAJOR, MINOR or PATCH (seed §7.1), and the check of the version bump the two
//! versions declare against the least bump their changes need.
//!
//! [`diff`] walks both schemas side by side — `properties`, `items`, `additionalProperties`,
//! `definitions`, `if`/`then`/`else`, `allOf`/`anyOf`/`oneOf` (elementwise) and the other
//! subschema keywords — and reports each change with the JSON Pointer of its schema location.
//! The class answers one question: is every instance the old version accepted still accepted
//! by the new one? A change that can reject an old instance (or that the classifier cannot prove
//! harmless, such as a changed `pattern`) is MAJOR; one that only accepts more is MINOR; one
//! that touches annotations only (`description`, `title`, `examples`, `default`, `$comment`) is
//! PATCH. Properties a schema does not declare are outside its contract, which is why a new
//! optional property is MINOR even where `additionalProperties` is open.
//!
//! `$ref` targets are compared as URIs, never dereferenced: each is resolved against its
//! document's `$id`, so `v1.0.0.json#/definitions/trace` written in `v1.1.0.json` is the very
//! target `#/definitions/trace` was in `v1.0.0.json`. Two rules follow from that, both for a
//! new version that keeps using parts of the previous one by reference:
//!
//! - a definition removed from the new version that the new version still references at its old
//!   location (directly, or through another definition it references there) has moved, not
//!   gone: PATCH;
//! - a schema whose new version is `{"$ref": <the previous version of this very location>}`
//!   is unchanged (PATCH); and a conditional added whose `else` is such a reference, and whose
//!   `if` requires properties the old schema did not declare, changes only instances carrying
//!   those undeclared properties — MINOR, by the same reasoning as a new optional property. The
//!   keywords the old schema had and the new one dropped live on in that `else`, so they are not
//!   reported as removed.
//!
//! As draft-07 prescribes, the siblings of `$ref` other than annotations are ignored.
//!
//! Values are compared as JSON Schema compares them (the equality of `const` and `enum`), not
//! as they are spelled: numbers by value, exactly (`1`, `1.0` and `1e0` are one value, so
//! `enum: [1]` → `enum: [1.0]` is no change; `9007199254740993` and `9007199254740992` stay two),
//! arrays item by item, objects by their keys and values. That holds for `enum` and `const`, for
//! `default`, `examples` and the other annotations, and for the numeric keywords (`multipleOf`,
//! the bounds).
//!
//! The classifier takes O(n log n) time in the size of the schemas (for a bounded nesting depth):
//! lists (`enum`, `required`, `dependencies`) and property maps are compared through sorted
//! copies or ordered maps, never element by element against each other, and the changes keep the
//! order of the lists they come from.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::ops::Bound;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// How far a change reaches: the version component it forces up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Annotations only; every instance validates exactly as before.
    Patch,
    /// Backward compatible: every instance valid before is still valid.
    Minor,
    /// Breaking, or not provably compatible: some instance valid before may be rejected.
    Major,
}

impl Class {
    /// The bump a change of this class needs.
    pub fn bump(self) -> Bump {
        match self {
            Self::Patch => Bump::Patch,
            Self::Minor => Bump::Minor,
            Self::Major => Bump::Major,
        }
    }

    /// `"MAJOR"`, `"MINOR"` or `"PATCH"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Patch => "PATCH",
            Self::Minor => "MINOR",
            Self::Major => "MAJOR",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A semantic-version bump, ordered from none to major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Bump {
    /// No bump: the versions are equal (or, when declared, the new one is not higher).
    #[default]
    None,
    /// x.y.Z
    Patch,
    /// x.Y.0
    Minor,
    /// X.0.0
    Major,
}

impl Bump {
    /// `"none"`, `"patch"`, `"minor"` or `"major"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Patch => "patch",
            Self::Minor => "minor",
            Self::Major => "major",
        }
    }
}

impl fmt::Display for Bump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What changed. Most kinds fix the [`Class`] of their [`Change`] (given in brackets); the few
/// that can go either way (`ConditionalAdded`, `ConstraintChanged`, `Subschema*`) say when each applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// A property added to `properties` (MINOR).
    PropertyAdded,
    /// A property removed from `properties` (MAJOR).
    PropertyRemoved,
    /// A property removed and another, with an equal schema, added (MAJOR).
    PropertyRenamed,
    /// A name added to `required` (MAJOR).
    RequiredAdded,
    /// A name removed from `required` (MINOR).
    RequiredRemoved,
    /// `type` added, or a type no longer accepted (MAJOR).
    TypeNarrowed,
    /// `type` removed, or a type newly accepted (MINOR).
    TypeWidened,
    /// `enum` added, or enum values removed (MAJOR).
    EnumNarrowed,
    /// `enum` removed, or enum values added (MINOR).
    EnumWidened,
    /// A lower bound raised or added, an upper bound lowered or added (MAJOR).
    BoundNarrowed,
    /// A lower bound lowered or removed, an upper bound raised or removed (MINOR).
    BoundWidened,
    /// `pattern` added (MAJOR).
    PatternAdded,
    /// `pattern` changed: a changed regular expression cannot be proven looser (MAJOR).
    PatternChanged,
    /// `pattern` removed (MINOR).
    PatternRemoved,
    /// `format` added (MAJOR).
    FormatAdded,
    /// `format` changed (MAJOR).
    FormatChanged,
    /// `format` removed (MINOR).
    FormatRemoved,
    /// `const` added (MAJOR).
    ConstAdded,
    /// `const` changed (MAJOR).
    ConstChanged,
    /// `const` removed (MINOR).
    ConstRemoved,
    /// `uniqueItems` turned on (MAJOR).
    UniqueItemsAdded,
    /// `uniqueItems` turned off (MINOR).
    UniqueItemsRemoved,
    /// `additionalProperties` tightened: open → `false` or a schema, a schema → `false` (MAJOR).
    AdditionalPropertiesTightened,
    /// `additionalProperties` loosened: `false` → a schema or open, a schema → open (MINOR).
    AdditionalPropertiesWidened,
    /// A definition added (MINOR).
    DefinitionAdded,
    /// A definition removed (MAJOR).
    DefinitionRemoved,
    /// A definition removed from the new version that the new version still references at its
    /// location in the previous version (PATCH).
    DefinitionMoved,
    /// A `$ref` pointing elsewhere (MAJOR).
    RefRetargeted,
    /// An inline schema replaced by a `$ref` (MAJOR: the two cannot be compared without resolving).
    RefAdded,
    /// A `$ref` replaced by an inline schema (MAJOR, for the same reason).
    RefRemoved,
    /// An inline schema replaced by a `$ref` to the previous version of this very location (PATCH).
    RefDelegated,
    /// An `if`/`then`/`else` conditional added (MAJOR, or MINOR when it only affects instances
    /// carrying properties the old schema did not declare).
    ConditionalAdded,
    /// An `if`/`then`/`else` conditional removed (MINOR).
    ConditionalRemoved,
    /// The `if` condition changed (MAJOR).
    ConditionChanged,
    /// An element added to `allOf`/`anyOf`/`oneOf` or a tuple `items` (MINOR for `anyOf`, else MAJOR).
    SubschemaAdded,
    /// An element removed from `allOf`/`anyOf`/`oneOf` or a tuple `items` (MINOR for `allOf` and
    /// tuple items, else MAJOR).
    SubschemaRemoved,
    /// Another validation keyword added (`multipleOf`, `not`, `contains`, `items`, …) (MAJOR).
    ConstraintAdded,
    /// Another validation keyword removed (MINOR).
    ConstraintRemoved,
    /// Another validation keyword changed (MAJOR unless provably looser).
    ConstraintChanged,
    /// `$schema` names another dialect (MAJOR).
    DialectChanged,
    /// `$id` changed (PATCH: the identity of the document, not what it accepts).
    IdChanged,
    /// An annotation (`description`, `title`, `examples`, `default`, `$comment`, or any keyword
    /// draft-07 does not validate with) changed (PATCH).
    AnnotationChanged,
}

impl ChangeKind {
    /// The kind in snake case, as `--format json` prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PropertyAdded => "property_added",
            Self::PropertyRemoved => "property_removed",
            Self::PropertyRenamed => "property_renamed",
            Self::RequiredAdded => "required_added",
            Self::RequiredRemoved => "required_removed",
            Self::TypeNarrowed => "type_narrowed",
            Self::TypeWidened => "type_widened",
            Self::EnumNarrowed => "enum_narrowed",
            Self::EnumWidened => "enum_widened",
            Self::BoundNarrowed => "bound_narrowed",
            Self::BoundWidened => "bound_widened",
            Self::PatternAdded => "pattern_added",
            Self::PatternChanged => "pattern_changed",
            Self::PatternRemoved => "pattern_removed",
            Self::FormatAdded => "format_added",
            Self::FormatChanged => "format_changed",
            Self::FormatRemoved => "format_removed",
            Self::ConstAdded => "const_added",
            Self::ConstChanged => "const_changed",
            Self::ConstRemoved => "const_removed",
            Self::UniqueItemsAdded => "unique_items_added",
            Self::UniqueItemsRemoved => "unique_items_removed",
            Self::AdditionalPropertiesTightened => "additional_properties_tightened",
            Self::AdditionalPropertiesWidened => "additional_properties_widened",
            Self::DefinitionAdded => "definition_added",
            Self::DefinitionRemoved => "definition_removed",
            Self::DefinitionMoved => "definition_moved",
            Self::RefRetargeted => "ref_retargeted",
            Self::RefAdded => "ref_added",
            Self::RefRemoved => "ref_removed",
            Self::RefDelegated => "ref_delegated",
            Self::ConditionalAdded => "conditional_added",
            Self::ConditionalRemoved => "conditional_removed",
            Self::ConditionChanged => "condition_changed",
            Self::SubschemaAdded => "subschema_added",
            Self::SubschemaRemoved => "subschema_removed",
            Self::ConstraintAdded => "constraint_added",
            Self::ConstraintRemoved => "constraint_removed",
            Self::ConstraintChanged => "constraint_changed",
            Self::DialectChanged => "dialect_changed",
            Self::IdChanged => "id_changed",
            Self::AnnotationChanged => "annotation_changed",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change between the two versions of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// JSON Pointer of the schema location (in the old version for removals and renames, else in
    /// the new one; the two agree everywhere the walk descends). Empty for the root schema itself.
    pub pointer: String,
    /// What changed.
    pub kind: ChangeKind,
    /// How far the change reaches.
    pub class: Class,
    /// A one-line human description, e.g. `pattern changed from "^a$" to "^b$"`.
    pub description: String,
}

impl Change {
    /// The change as JSON: `{"class", "kind", "pointer", "description"}`.
    pub fn to_json(&self) -> Value {
        json!({
            "class": self.class.as_str(),
            "kind": self.kind.as_str(),
            "pointer": self.pointer,
            "description": self.description,
        })
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{} {pointer}: {}", self.class, self.description)
    }
}

/// The changes between two versions, the least bump they need, the bump the versions declare,
/// and whether the declared bump is enough.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Every change, as [`diff`] lists them.
    pub changes: Vec<Change>,
    /// The least bump the changes need ([`required_bump`]).
    pub required: Bump,
    /// The bump between the declared versions ([`declared_bump`]), if both declare one.
    pub declared: Option<Bump>,
    /// `declared >= required`; when no bump is declared, `required <= Patch`.
    pub ok: bool,
}

impl Verdict {
    /// The verdict as JSON: `{"changes": [...], "required", "declared" (null when none), "ok"}`.
    pub fn to_json(&self) -> Value {
        json!({
            "changes": self.changes.iter().map(Change::to_json).collect::<Vec<_>>(),
            "required": self.required.as_str(),
            "declared": self.declared.map(Bump::as_str),
            "ok": self.ok,
        })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.changes.is_empty() {
            writeln!(f, "no changes")?;
        }
        for change in &self.changes {
            writeln!(f, "{change}")?;
        }
        let declared = self.declared.map_or("no version", Bump::as_str);
        let judgement = match (self.ok, self.declared) {
            (true, _) => "ok",
            (false, Some(_)) => "too small",
            (false, None) => "a version bump is needed",
        };
        write!(f, "least version bump needed: {}; declared: {declared} — {judgement}", self.required)
    }
}

/// A version a schema declares, `MAJOR.MINOR.PATCH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// X.0.0
    pub major: u64,
    /// x.Y.0
    pub minor: u64,
    /// x.y.Z
    pub patch: u64,
}

impl Version {
    /// Parses `1.2.3`, `v1.2.3`, `1.2` or `v1` (missing components are zero; a `-pre` or `+build`
    /// suffix is ignored), with the `semver` crate: a partial version is what it calls a
    /// comparator without an operator.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.strip_prefix(['v', 'V']).unwrap_or(text);
        let core = text.split(['-', '+']).next().unwrap_or_default();
        if !core.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let version = semver::Comparator::parse(core).ok().filter(|c| c.op == semver::Op::Caret)?;
        Some(Self { major: version.major, minor: version.minor.unwrap_or(0), patch: version.patch.unwrap_or(0) })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// Why [`load`] or [`verdict_files`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not JSON.
    #[error("{} is not JSON: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parse error, with line and column.
        #[source]
        source: serde_json::Error,
    },
    /// The file is JSON but not a schema (neither an object nor a boolean).
    #[error("{} is not a JSON Schema: the document is neither an object nor a boolean", path.display())]
    NotASchema {
        /// The file.
        path: PathBuf,
    },
}

/// Reads and parses one schema file.
pub fn load(path: &Path) -> Result<Value, DiffError> {
    let text = jerry_contracts_codegen::files::read_text(path)
        .map_err(|source| DiffError::Read { path: path.to_owned(), source })?;
    let value: Value =
        serde_json::from_str(&text).map_err(|source| DiffError::Parse { path: path.to_owned(), source })?;
    if value.is_object() || value.is_boolean() {
        Ok(value)
    } else {
        Err(DiffError::NotASchema { path: path.to_owned() })
    }
}

/// [`verdict`] on two schema files.
pub fn verdict_files(old: &Path, new: &Path) -> Result<Verdict, DiffError> {
    Ok(verdict(&load(old)?, &load(new)?))
}

/// Every change between two versions of a draft-07 schema, ordered by pointer (changes at the
/// same pointer in the order the walk found them).
pub fn diff(old: &Value, new: &Value) -> Vec<Change> {
    let old_doc = base_document(old);
    let new_doc = base_document(new);
    let reachable = match (&old_doc, &new_doc) {
        (Some(o), Some(n)) if o != n => reachable_from(old, new, o, n),
        _ => BTreeSet::new(),
    };
    let mut walker = Walker { old_doc, new_doc, reachable, changes: Vec::new() };
    walker.schema("", old, new);
    let mut changes = walker.changes;
    changes.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    changes
}

/// The least bump the changes need: the highest class among them, [`Bump::None`] for none.
pub fn required_bump(changes: &[Change]) -> Bump {
    changes.iter().map(|c| c.class.bump()).max().unwrap_or(Bump::None)
}

/// The version a schema declares: the last `MAJOR.MINOR.PATCH` in its `$id` (`…/v1.1.0.json` →
/// 1.1.0), else a top-level `version` string, else `properties.schema_version.const` (`v1` →
/// 1.0.0).
pub fn declared_version(schema: &Value) -> Option<Version> {
    if let Some(version) = schema.get("$id").and_then(Value::as_str).and_then(last_semver) {
        return Some(version);
    }
    if let Some(version) = schema.get("version").and_then(Value::as_str).and_then(Version::parse) {
        return Some(version);
    }
    schema.pointer("/properties/schema_version/const").and_then(Value::as_str).and_then(Version::parse)
}

/// The bump between the versions the two schemas declare ([`declared_version`]); `None` unless
/// both declare one. A new version equal to or lower than the old one is `Some(Bump::None)`.
pub fn declared_bump(old: &Value, new: &Value) -> Option<Bump> {
    let (old, new) = (declared_version(old)?, declared_version(new)?);
    Some(if new <= old {
        Bump::None
    } else if new.major != old.major {
        Bump::Major
    } else if new.minor != old.minor {
        Bump::Minor
    } else {
        Bump::Patch
    })
}

/// The changes, the least bump they need, the declared bump and whether it is enough.
pub fn verdict(old: &Value, new: &Value) -> Verdict {
    let changes = diff(old, new);
    let required = required_bump(&changes);
    let declared = declared_bump(old, new);
    let ok = match declared {
        Some(declared) => declared >= required,
        None => required <= Bump::Patch,
    };
    Verdict { changes, required, declared, ok }
}

/// The last `digits.digits.digits` in `text`.
fn last_semver(text: &str) -> Option<Version> {
    let bytes = text.as_bytes();
    let number = |from: usize| {
        let len = bytes.iter().skip(from).take_while(|b| b.is_ascii_digit()).count();
        let value = text.get(from..from + len).and_then(|digits| digits.parse::<u64>().ok());
        value.map(|v| (v, from + len))
    };
    let mut found = None;
    for start in 0..bytes.len() {
        let starts_number = bytes.get(start).is_some_and(u8::is_ascii_digit)
            && (start == 0 || bytes.get(start - 1).is_some_and(|b| !b.is_ascii_digit() && *b != b'.'));
        if !starts_number {
            continue;
        }
        let parsed = (|| {
            let (major, end) = number(start)?;
            (bytes.get(end) == Some(&b'.')).then_some(())?;
            let (minor, end) = number(end + 1)?;
            (bytes.get(end) == Some(&b'.')).then_some(())?;
            let (patch, _) = number(end + 1)?;
            Some(Version { major, minor, patch })
        })();
        if parsed.is_some() {
            found = parsed;
        }
    }
    found
}

/// Keywords draft-07 validates with (or that hold subschemas); every other keyword is an
/// annotation as far as the classifier is concerned.
const VALIDATION: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "definitions",
    "$defs",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "items",
    "additionalItems",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
    "maxProperties",
    "minProperties",
    "required",
    "properties",
    "patternProperties",
    "additionalProperties",
    "dependencies",
    "propertyNames",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "format",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords in [`VALIDATION`] that constrain no instance by themselves.
const STRUCTURAL: &[&str] = &["$schema", "$id", "definitions", "$defs"];

/// Bounds: keyword, and whether it is a lower bound.
const BOUNDS: &[(&str, bool)] = &[
    ("minimum", true),
    ("exclusiveMinimum", true),
    ("maximum", false),
    ("exclusiveMaximum", false),
    ("minLength", true),
    ("maxLength", false),
    ("minItems", true),
    ("maxItems", false),
    ("minProperties", true),
    ("maxProperties", false),
];

/// Keywords whose values are data, not subschemas.
const DATA_KEYWORDS: &[&str] = &["const", "enum", "examples", "default"];

fn is_annotation(key: &str) -> bool {
    !VALIDATION.contains(&key)
}

/// Whether a schema object constrains instances at all.
fn constrains(map: &Map<String, Value>) -> bool {
    map.keys().any(|k| VALIDATION.contains(&k.as_str()) && !STRUCTURAL.contains(&k.as_str()))
}

/// Whether a schema value accepts everything (`true`, or an object without constraints).
fn permissive(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        Value::Object(map) => !constrains(map),
        _ => false,
    }
}

fn child(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", jerry_contracts_pointer::escape(token))
}

/// A value for a description, cut to a readable length.
fn show(value: &Value) -> String {
    const LIMIT: usize = 80;
    match value {
        Value::String(text) if text.chars().count() > LIMIT => {
            Value::String(format!("{}…", text.chars().take(LIMIT - 1).collect::<String>())).to_string()
        }
        _ => {
            let text = value.to_string();
            if text.chars().count() > LIMIT {
                format!("{}…", text.chars().take(LIMIT - 1).collect::<String>())
            } else {
                text
            }
        }
    }
}

fn names(values: &[&str]) -> String {
    values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
}

/// Compares two JSON numbers by value, exactly ([`compare_number_values`]); `None` when either
/// is not a number.
fn compare_numbers(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Some(compare_number_values(x, y)),
        _ => None,
    }
}

/// Whether two JSON values are equal as JSON Schema compares them (`const`, `enum`): numbers by
/// value (`1`, `1.0` and `1e0` are equal), arrays item by item, objects by key set and values.
fn same(a: &Value, b: &Value) -> bool {
    compare_values(a, b).is_eq()
}

/// [`same`] for keywords that may be absent.
fn same_opt(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// The document URI of a schema: its root `$id` without fragment.
pub(crate) fn base_document(schema: &Value) -> Option<String> {
    let id = schema.get("$id")?.as_str()?;
    let document = id.split('#').next().unwrap_or_default();
    (!document.is_empty()).then(|| document.to_owned())
}

/// Resolves a `$ref` against the document URI `base` (RFC 3986, textually): the target document
/// and the percent-decoded fragment.
pub(crate) fn resolve(base: Option<&str>, reference: &str) -> (String, String) {
    let (location, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let document = match base {
        _ if has_scheme(location) => location.to_owned(),
        Some(base) if !location.is_empty() => join(base, location),
        Some(base) => base.to_owned(),
        None => location.to_owned(),
    };
    // A malformed fragment names no schema object: kept as written, it points at nothing.
    let pointer =
        jerry_contracts_pointer::percent_decode(fragment).map_or_else(|_| fragment.to_owned(), |p| p.into_owned());
    (document, pointer)
}

fn has_scheme(text: &str) -> bool {
    text.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// Resolves a relative reference against an absolute (or at least hierarchical) base.
fn join(base: &str, location: &str) -> String {
    let authority_start = base.find("://").map(|i| i + 3);
    let (origin, path) = match authority_start {
        Some(start) => {
            let end = base.get(start..).and_then(|rest| rest.find('/')).map_or(base.len(), |j| start + j);
            base.split_at_checked(end).unwrap_or((base, ""))
        }
        None => ("", base),
    };
    if let Some(rest) = location.strip_prefix("//") {
        let scheme = base.split_once(':').map_or("", |(scheme, _)| scheme);
        return format!("{scheme}://{rest}");
    }
    let merged = if location.starts_with('/') {
        location.to_owned()
    } else {
        match path.rfind('/') {
            Some(k) => format!("{}{location}", path.get(..=k).unwrap_or_default()),
            None => location.to_owned(),
        }
    };
    format!("{origin}{}", remove_dot_segments(&merged))
}

fn remove_dot_segments(path: &str) -> String {
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    let mut out: Vec<&str> = Vec::new();
    let mut trailing = false;
    for (i, segment) in segments.iter().enumerate() {
        trailing = false;
        match *segment {
            "." => trailing = true,
            ".." => {
                out.pop();
                trailing = true;
            }
            "" if i != last => {}
            other => out.push(other),
        }
    }
    let mut joined = out.join("/");
    if trailing && !joined.is_empty() {
        joined.push('/');
    }
    if absolute { format!("/{joined}") } else { joined }
}

/// Every `$ref` string in schema positions below `node`.
pub(crate) fn collect_refs<'a>(node: &'a Value, out: &mut Vec<&'a str>) {
    match node {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
                out.push(reference);
            }
            for (key, value) in map {
                if !DATA_KEYWORDS.contains(&key.as_str()) {
                    collect_refs(value, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, out)),
        _ => {}
    }
}

/// The pointers of the old document the new one references, directly or through what it
/// references there.
fn reachable_from(old: &Value, new: &Value, old_doc: &str, new_doc: &str) -> BTreeSet<String> {
    let mut queue: Vec<String> = Vec::new();
    let mut refs = Vec::new();
    collect_refs(new, &mut refs);
    for reference in refs {
        let (document, pointer) = resolve(Some(new_doc), reference);
        if document == old_doc {
            queue.push(pointer);
        }
    }
    let mut seen = BTreeSet::new();
    while let Some(pointer) = queue.pop() {
        if !seen.insert(pointer.clone()) {
            continue;
        }
        let Some(node) = old.pointer(&pointer) else { continue };
        let mut refs = Vec::new();
        collect_refs(node, &mut refs);
        for reference in refs {
            let (document, pointer) = resolve(Some(old_doc), reference);
            if document == old_doc && !seen.contains(&pointer) {
                queue.push(pointer);
            }
        }
    }
    seen
}

/// A `$ref` target relative to the schema that holds it.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A location inside the referring document itself.
    Local(String),
    /// A location in another document.
    External(String, String),
}

/// The type set a `type` keyword allows; `Ok(None)` when absent (every type).
fn type_set(value: Option<&Value>) -> Result<Option<BTreeSet<&str>>, ()> {
    match value {
        None => Ok(None),
        Some(Value::String(t)) => Ok(Some(BTreeSet::from([t.as_str()]))),
        Some(Value::Array(items)) => items.iter().map(|t| t.as_str().ok_or(())).collect::<Result<_, _>>().map(Some),
        Some(_) => Err(()),
    }
}

/// Whether a type in `types` accepts every instance of `candidate`.
fn accepts(types: &BTreeSet<&str>, candidate: &str) -> bool {
    types.contains(candidate) || (candidate == "integer" && types.contains("number"))
}

/// Which way an open/closed keyword like `additionalProperties` stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Openness {
    Open,
    Closed,
    Schema,
    Malformed,
}

pub(crate) fn openness(value: Option<&Value>) -> Openness {
    match value {
        None | Some(Value::Bool(true)) => Openness::Open,
        Some(Value::Bool(false)) => Openness::Closed,
        Some(Value::Object(map)) if !constrains(map) => Openness::Open,
        Some(Value::Object(_)) => Openness::Schema,
        Some(_) => Openness::Malformed,
    }
}

/// The walk over both versions, collecting changes.
struct Walker {
    old_doc: Option<String>,
    new_doc: Option<String>,
    /// Pointers into the old document that the new document references (see [`reachable_from`]).
    reachable: BTreeSet<String>,
    changes: Vec<Change>,
}

impl Walker {
    fn push(&mut self, pointer: String, kind: ChangeKind, class: Class, description: String) {
        self.changes.push(Change { pointer, kind, class, description });
    }

    /// A keyword whose value cannot be interpreted: any change is MAJOR.
    fn opaque(&mut self, pointer: String, key: &str, old: Option<&Value>, new: Option<&Value>) {
        if !same_opt(old, new) {
            let show = |v: Option<&Value>| v.map_or_else(|| "nothing".to_owned(), show);
            let description = format!("`{key}` changed from {} to {}", show(old), show(new));
            self.push(pointer, ChangeKind::ConstraintChanged, Class::Major, description);
        }
    }

    fn schema(&mut self, pointer: &str, old: &Value, new: &Value) {
        if old == new {
            return;
        }
        let empty = Map::new();
        let as_map = |v: &'_ Value| -> Option<bool> {
            match v {
                Value::Object(_) | Value::Bool(true) => Some(true),
                Value::Bool(false) => Some(false),
                _ => None,
            }
        };
        match (as_map(old), as_map(new)) {
            (Some(true), Some(true)) => {
                let old = old.as_object().unwrap_or(&empty);
                let new = new.as_object().unwrap_or(&empty);
                self.object(pointer, old, new);
            }
            (Some(false), Some(false)) => {}
            (Some(true), Some(false)) => self.push(
                pointer.to_owned(),
                ChangeKind::ConstraintAdded,
                Class::Major,
                "schema now rejects every value (`false`)".to_owned(),
            ),
            (Some(false), Some(true)) => self.push(
                pointer.to_owned(),
                ChangeKind::ConstraintRemoved,
                Class::Minor,
                "schema no longer rejects every value (was `false`)".to_owned(),
            ),
            _ => self.push(
                pointer.to_owned(),
                ChangeKind::ConstraintChanged,
                Class::Major,
                format!("schema changed from {} to {}", show(old), show(new)),
            ),
        }
    }

    fn object(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        self.dialect(pointer, old, new);
        self.id(pointer, old, new);
        self.annotations(pointer, old, new);
        self.definitions(pointer, "definitions", old, new);
        self.definitions(pointer, "$defs", old, new);
        // draft-07 ignores every sibling of `$ref`: compare the targets and stop.
        match (old.get("$ref"), new.get("$ref")) {
            (None, None) => {}
            (Some(o), Some(n)) => {
                if !self.same_target(o, n) {
                    let description = format!("$ref retargeted from {} to {}", show(o), show(n));
                    self.push(child(pointer, "$ref"), ChangeKind::RefRetargeted, Class::Major, description);
                }
                return;
            }
            (None, Some(n)) => {
                if self.delegates(pointer, n) {
                    let description = format!("now a reference to the previous version of this schema ({})", show(n));
                    self.push(child(pointer, "$ref"), ChangeKind::RefDelegated, Class::Patch, description);
                } else {
                    let description = format!("inline schema replaced by a reference to {}", show(n));
                    self.push(child(pointer, "$ref"), ChangeKind::RefAdded, Class::Major, description);
                }
                return;
            }
            (Some(o), None) => {
                let description = format!("reference to {} replaced by an inline schema", show(o));
                self.push(child(pointer, "$ref"), ChangeKind::RefRemoved, Class::Major, description);
                return;
            }
        }
        let filled;
        let new = if self.delegating_conditional(pointer, old, new) {
            // The old keywords the new schema dropped still apply through its `else`.
            let mut map = new.clone();
            for (key, value) in old {
                let carried = VALIDATION.contains(&key.as_str()) && !["if", "then", "else"].contains(&key.as_str());
                if carried && !map.contains_key(key) {
                    map.insert(key.clone(), value.clone());
                }
            }
            filled = map;
            &filled
        } else {
            new
        };
        self.types(pointer, old, new);
        self.enums(pointer, old, new);
        use ChangeKind as K;
        self.value_keyword(pointer, "const", old, new, [K::ConstAdded, K::ConstChanged, K::ConstRemoved]);
        for &(key, lower) in BOUNDS {
            self.bound(pointer, key, lower, old, new);
        }
        self.value_keyword(pointer, "pattern", old, new, [K::PatternAdded, K::PatternChanged, K::PatternRemoved]);
        self.value_keyword(pointer, "format", old, new, [K::FormatAdded, K::FormatChanged, K::FormatRemoved]);
        for key in ["contentEncoding", "contentMediaType"] {
            self.value_keyword(
                pointer,
                key,
                old,
                new,
                [K::ConstraintAdded, K::ConstraintChanged, K::ConstraintRemoved],
            );
        }
        self.multiple_of(pointer, old, new);
        self.unique_items(pointer, old, new);
        self.required(pointer, old, new);
        self.properties(pointer, old, new);
        self.additional(
            pointer,
            "additionalProperties",
            old,
            new,
            (K::AdditionalPropertiesTightened, K::AdditionalPropertiesWidened),
        );
        self.keyed_schemas(pointer, "patternProperties", old, new);
        self.optional_schema(pointer, "propertyNames", old.get("propertyNames"), new.get("propertyNames"), true);
        self.dependencies(pointer, old, new);
        self.items(pointer, old, new);
        self.additional(pointer, "additionalItems", old, new, (K::ConstraintAdded, K::ConstraintRemoved));
        self.optional_schema(pointer, "contains", old.get("contains"), new.get("contains"), false);
        self.conditional(pointer, old, new);
        for key in ["allOf", "anyOf", "oneOf"] {
            self.combinator(pointer, key, old, new);
        }
        self.not(pointer, old, new);
    }

    fn dialect(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("$schema"), new.get("$schema"));
        if o == n {
            return;
        }
        let normal = |v: Option<&Value>| {
            v.and_then(Value::as_str).map(|s| {
                let s = s.trim_end_matches('#');
                s.strip_prefix("https://").or_else(|| s.strip_prefix("http://")).unwrap_or(s).to_owned()
            })
        };
        let description = format!(
            "$schema changed from {} to {}",
            o.map_or_else(|| "nothing".to_owned(), show),
            n.map_or_else(|| "nothing".to_owned(), show)
        );
        let (kind, class) = if normal(o) == normal(n) {
            (ChangeKind::AnnotationChanged, Class::Patch)
        } else {
            (ChangeKind::DialectChanged, Class::Major)
        };
        self.push(child(pointer, "$schema"), kind, class, description);
    }

    fn id(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("$id"), new.get("$id"));
        if o != n {
            let show = |v: Option<&Value>| v.map_or_else(|| "nothing".to_owned(), show);
            let description = format!("$id changed from {} to {}", show(o), show(n));
            self.push(child(pointer, "$id"), ChangeKind::IdChanged, Class::Patch, description);
        }
    }

    fn annotations(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let keys: BTreeSet<&String> = old.keys().chain(new.keys()).filter(|k| is_annotation(k)).collect();
        for key in keys {
            let description = match (old.get(key), new.get(key)) {
                (Some(o), Some(n)) if same(o, n) => continue,
                (Some(o), Some(n)) => format!("{key} changed from {} to {}", show(o), show(n)),
                (None, Some(n)) => format!("{key} {} added", show(n)),
                (Some(o), None) => format!("{key} {} removed", show(o)),
                (None, None) => continue,
            };
            self.push(child(pointer, key), ChangeKind::AnnotationChanged, Class::Patch, description);
        }
    }

    fn definitions(&mut self, pointer: &str, key: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get(key), new.get(key));
        if o == n {
            return;
        }
        let empty = Map::new();
        let (Some(o), Some(n)) = (o.map_or(Some(&empty), Value::as_object), n.map_or(Some(&empty), Value::as_object))
        else {
            return self.opaque(child(pointer, key), key, o, n);
        };
        let at = child(pointer, key);
        let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
        keys.sort();
        keys.dedup();
        for name in keys {
            let location = child(&at, name);
            match (o.get(name), n.get(name)) {
                (Some(a), Some(b)) => self.schema(&location, a, b),
                (None, Some(_)) => {
                    self.push(location, ChangeKind::DefinitionAdded, Class::Minor, format!("definition `{name}` added"))
                }
                (Some(_), None) => {
                    if self.is_reachable(&location) {
                        let description = format!(
                            "definition `{name}` removed here; the new version still references it in the previous \
                             version"
                        );
                        self.push(location, ChangeKind::DefinitionMoved, Class::Patch, description);
                    } else {
                        let description = format!("definition `{name}` removed");
                        self.push(location, ChangeKind::DefinitionRemoved, Class::Major, description);
                    }
                }
                (None, None) => {}
            }
        }
    }

    /// Whether `pointer`, or a location below it, is in [`Walker::reachable`].
    fn is_reachable(&self, pointer: &str) -> bool {
        if self.reachable.contains(pointer) {
            return true;
        }
        // The pointers below `pointer` sort together, from the first one at or after `pointer/`.
        let prefix = format!("{pointer}/");
        let mut after = self.reachable.range::<str, _>((Bound::Included(prefix.as_str()), Bound::Unbounded));
        after.next().is_some_and(|p| p.starts_with(&prefix))
    }

    fn target(document: Option<&str>, reference: &str) -> Target {
        let (target, pointer) = resolve(document, reference);
        if target == document.unwrap_or_default() { Target::Local(pointer) } else { Target::External(target, pointer) }
    }

    fn same_target(&self, old: &Value, new: &Value) -> bool {
        let (Some(o), Some(n)) = (old.as_str(), new.as_str()) else { return old == new };
        let old_doc = self.old_doc.as_deref();
        let new_doc = self.new_doc.as_deref();
        match (Self::target(old_doc, o), Self::target(new_doc, n)) {
            (Target::Local(a), Target::Local(b)) => a == b,
            (Target::External(d1, p1), Target::External(d2, p2)) => d1 == d2 && p1 == p2,
            // The new version points into the old document, where the old one pointed.
            (Target::Local(a), Target::External(d, p)) => Some(d.as_str()) == old_doc && p == a,
            (Target::External(d, p), Target::Local(b)) => Some(d.as_str()) == new_doc && p == b,
        }
    }

    /// Whether `reference` (written in the new document) names the previous version of the
    /// schema at `pointer`.
    fn delegates(&self, pointer: &str, reference: &Value) -> bool {
        let (Some(old_doc), Some(reference)) = (self.old_doc.as_deref(), reference.as_str()) else { return false };
        if self.new_doc.as_deref() == Some(old_doc) {
            return false;
        }
        let (document, target) = resolve(self.new_doc.as_deref(), reference);
        document == old_doc && target == pointer
    }

    /// A conditional added whose `else` is the previous version of this schema.
    fn delegating_conditional(&self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) -> bool {
        !old.contains_key("if")
            && new.contains_key("if")
            && new
                .get("else")
                .and_then(Value::as_object)
                .filter(|e| e.keys().all(|k| k == "$ref" || is_annotation(k)))
                .and_then(|e| e.get("$ref"))
                .is_some_and(|r| self.delegates(pointer, r))
    }

    fn types(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("type"), new.get("type"));
        if o == n {
            return;
        }
        let at = child(pointer, "type");
        let (Ok(old_types), Ok(new_types)) = (type_set(o), type_set(n)) else { return self.opaque(at, "type", o, n) };
        let show = |v: Option<&Value>| v.map_or_else(|| "nothing".to_owned(), show);
        match (old_types, new_types) {
            (None, None) => {}
            (None, Some(_)) => {
                self.push(at, ChangeKind::TypeNarrowed, Class::Major, format!("type {} added", show(n)));
            }
            (Some(_), None) => {
                self.push(at, ChangeKind::TypeWidened, Class::Minor, format!("type {} removed", show(o)));
            }
            (Some(old_types), Some(new_types)) => {
                let lost: Vec<&str> = old_types.iter().copied().filter(|t| !accepts(&new_types, t)).collect();
                let gained: Vec<&str> = new_types.iter().copied().filter(|t| !accepts(&old_types, t)).collect();
                if !lost.is_empty() {
                    let description =
                        format!("type changed from {} to {} ({} no longer accepted)", show(o), show(n), names(&lost));
                    self.push(at, ChangeKind::TypeNarrowed, Class::Major, description);
                } else if !gained.is_empty() {
                    let description = format!("type widened from {} to {}", show(o), show(n));
                    self.push(at, ChangeKind::TypeWidened, Class::Minor, description);
                }
            }
        }
    }

    fn enums(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("enum"), new.get("enum"));
        if o == n {
            return;
        }
        let at = child(pointer, "enum");
        match (o.map(Value::as_array), n.map(Value::as_array)) {
            (None, Some(Some(_))) => self.push(
                at,
                ChangeKind::EnumNarrowed,
                Class::Major,
                format!("enum added: {}", show(n.unwrap_or(&Value::Null))),
            ),
            (Some(Some(_)), None) => self.push(at, ChangeKind::EnumWidened, Class::Minor, "enum removed".to_owned()),
            (Some(Some(a)), Some(Some(b))) => {
                let list = |values: Vec<&Value>| values.into_iter().map(show).collect::<Vec<_>>().join(", ");
                let removed = missing_by(a, b, compare_values);
                let added = missing_by(b, a, compare_values);
                if !removed.is_empty() {
                    let description = format!("enum values removed: {}", list(removed));
                    self.push(at.clone(), ChangeKind::EnumNarrowed, Class::Major, description);
                }
                if !added.is_empty() {
                    self.push(at, ChangeKind::EnumWidened, Class::Minor, format!("enum values added: {}", list(added)));
                }
            }
            _ => self.opaque(at, "enum", o, n),
        }
    }

    /// A keyword that constrains when present: added or changed is MAJOR, removed MINOR.
    fn value_keyword(
        &mut self,
        pointer: &str,
        key: &str,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        [added, changed, removed]: [ChangeKind; 3],
    ) {
        let at = child(pointer, key);
        match (old.get(key), new.get(key)) {
            (Some(o), Some(n)) if !same(o, n) => {
                self.push(at, changed, Class::Major, format!("{key} changed from {} to {}", show(o), show(n)))
            }
            (None, Some(n)) => self.push(at, added, Class::Major, format!("{key} {} added", show(n))),
            (Some(o), None) => self.push(at, removed, Class::Minor, format!("{key} {} removed", show(o))),
            _ => {}
        }
    }

    fn bound(&mut self, pointer: &str, key: &str, lower: bool, old: &Map<String, Value>, new: &Map<String, Value>) {
        let at = child(pointer, key);
        let (o, n) = match (old.get(key), new.get(key)) {
            (None, None) => return,
            (None, Some(n)) => {
                return self.push(at, ChangeKind::BoundNarrowed, Class::Major, format!("{key} {} added", show(n)));
            }
            (Some(o), None) => {
                return self.push(at, ChangeKind::BoundWidened, Class::Minor, format!("{key} {} removed", show(o)));
            }
            (Some(o), Some(n)) => (o, n),
        };
        let Some(order) = compare_numbers(o, n) else { return self.opaque(at, key, Some(o), Some(n)) };
        let (verb, narrowed) = match order {
            Ordering::Equal => return,
            Ordering::Less => ("raised", lower),
            Ordering::Greater => ("lowered", !lower),
        };
        let description = format!("{key} {verb} from {} to {}", show(o), show(n));
        if narrowed {
            self.push(at, ChangeKind::BoundNarrowed, Class::Major, description);
        } else {
            self.push(at, ChangeKind::BoundWidened, Class::Minor, description);
        }
    }

    fn multiple_of(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let at = child(pointer, "multipleOf");
        match (old.get("multipleOf"), new.get("multipleOf")) {
            (Some(o), Some(n)) if !same(o, n) => {
                // Every multiple of `o` is a multiple of `n` when `n` divides `o`.
                let divides = match (o.as_u64(), n.as_u64()) {
                    (Some(o), Some(n)) => n != 0 && o % n == 0,
                    _ => false,
                };
                let class = if divides { Class::Minor } else { Class::Major };
                let description = format!("multipleOf changed from {} to {}", show(o), show(n));
                self.push(at, ChangeKind::ConstraintChanged, class, description);
            }
            (None, Some(n)) => {
                self.push(at, ChangeKind::ConstraintAdded, Class::Major, format!("multipleOf {} added", show(n)))
            }
            (Some(o), None) => {
                self.push(at, ChangeKind::ConstraintRemoved, Class::Minor, format!("multipleOf {} removed", show(o)))
            }
            _ => {}
        }
    }

    fn unique_items(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("uniqueItems"), new.get("uniqueItems"));
        if o == n {
            return;
        }
        let at = child(pointer, "uniqueItems");
        let flag = |v: Option<&Value>| match v {
            None => Some(false),
            Some(v) => v.as_bool(),
        };
        match (flag(o), flag(n)) {
            (Some(false), Some(true)) => {
                self.push(at, ChangeKind::UniqueItemsAdded, Class::Major, "uniqueItems added".to_owned())
            }
            (Some(true), Some(false)) => {
                self.push(at, ChangeKind::UniqueItemsRemoved, Class::Minor, "uniqueItems removed".to_owned())
            }
            (Some(_), Some(_)) => {}
            _ => self.opaque(at, "uniqueItems", o, n),
        }
    }

    fn required(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("required"), new.get("required"));
        if o == n {
            return;
        }
        let at = child(pointer, "required");
        let (Some(a), Some(b)) = (string_list(o), string_list(n)) else { return self.opaque(at, "required", o, n) };
        let mut seen = BTreeSet::new();
        for name in missing_from(&b, &a).into_iter().filter(|name| seen.insert(**name)) {
            self.push(at.clone(), ChangeKind::RequiredAdded, Class::Major, format!("`{name}` is now required"));
        }
        for name in missing_from(&a, &b).into_iter().filter(|name| seen.insert(**name)) {
            let description = format!("`{name}` is no longer required");
            self.push(at.clone(), ChangeKind::RequiredRemoved, Class::Minor, description);
        }
    }

    fn properties(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("properties"), new.get("properties"));
        if o == n {
            return;
        }
        let at = child(pointer, "properties");
        let empty = Map::new();
        let (Some(o), Some(n)) = (o.map_or(Some(&empty), Value::as_object), n.map_or(Some(&empty), Value::as_object))
        else {
            return self.opaque(at, "properties", o, n);
        };
        let mut removed: Vec<&String> = o.keys().filter(|k| !n.contains_key(*k)).collect();
        let mut added: Vec<&String> = n.keys().filter(|k| !o.contains_key(*k)).collect();
        let mut common: Vec<&String> = o.keys().filter(|k| n.contains_key(*k)).collect();
        removed.sort();
        added.sort();
        common.sort();
        // The added properties by schema, each group in name order: a removed property is renamed
        // to the first added one, by name, with an equal schema that no other has taken yet.
        let mut by_schema: BTreeMap<ByValue<'_>, VecDeque<&String>> = BTreeMap::new();
        for name in &added {
            if let Some(schema) = n.get(*name) {
                by_schema.entry(ByValue(schema)).or_default().push_back(name);
            }
        }
        let mut renamed_to = BTreeSet::new();
        for name in removed {
            let location = child(&at, name);
            let target =
                o.get(name).and_then(|schema| by_schema.get_mut(&ByValue(schema))).and_then(VecDeque::pop_front);
            if let Some(target) = target {
                renamed_to.insert(target);
                let description = format!("property `{name}` renamed to `{target}`");
                self.push(location, ChangeKind::PropertyRenamed, Class::Major, description);
            } else {
                self.push(location, ChangeKind::PropertyRemoved, Class::Major, format!("property `{name}` removed"));
            }
        }
        let required_now: BTreeSet<&str> =
            new.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        for name in added.into_iter().filter(|a| !renamed_to.contains(a)) {
            let is_required = required_now.contains(name.as_str());
            let description = if is_required {
                format!("property `{name}` added (required: see /required)")
            } else {
                format!("optional property `{name}` added")
            };
            self.push(child(&at, name), ChangeKind::PropertyAdded, Class::Minor, description);
        }
        for name in common {
            if let (Some(a), Some(b)) = (o.get(name), n.get(name)) {
                self.schema(&child(&at, name), a, b);
            }
        }
    }

    /// `additionalProperties` / `additionalItems`: open (absent, `true`, `{}`), closed (`false`)
    /// or a schema.
    fn additional(
        &mut self,
        pointer: &str,
        key: &str,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        (tightened, widened): (ChangeKind, ChangeKind),
    ) {
        let (o, n) = (old.get(key), new.get(key));
        if o == n {
            return;
        }
        let at = child(pointer, key);
        use Openness::{Closed, Malformed, Open, Schema};
        match (openness(o), openness(n)) {
            (Open, Open) | (Schema, Schema) => {
                if let (Some(a), Some(b)) = (o, n) {
                    self.schema(&at, a, b);
                }
            }
            (Closed, Closed) => {}
            (Open, Closed) => self.push(at, tightened, Class::Major, format!("{key} now false")),
            (Open, Schema) => self.push(at, tightened, Class::Major, format!("{key} now restricted to a schema")),
            (Schema, Closed) => self.push(at, tightened, Class::Major, format!("{key} changed from a schema to false")),
            (Closed, Schema) => self.push(at, widened, Class::Minor, format!("{key} changed from false to a schema")),
            (Closed, Open) => self.push(at, widened, Class::Minor, format!("{key} no longer false")),
            (Schema, Open) => self.push(at, widened, Class::Minor, format!("{key} no longer restricted")),
            (Malformed, _) | (_, Malformed) => self.opaque(at, key, o, n),
        }
    }

    /// A keyword holding one subschema, absent meaning no constraint. `empty_is_open` says whether
    /// `{}`/`true` there constrains nothing (true for `propertyNames`, not for `contains`).
    fn optional_schema(
        &mut self,
        pointer: &str,
        key: &str,
        old: Option<&Value>,
        new: Option<&Value>,
        empty_is_open: bool,
    ) {
        let at = child(pointer, key);
        match (old, new) {
            (Some(o), Some(n)) => self.schema(&at, o, n),
            (None, Some(n)) if !(empty_is_open && permissive(n)) => {
                self.push(at, ChangeKind::ConstraintAdded, Class::Major, format!("{key} added"))
            }
            (Some(o), None) if !(empty_is_open && permissive(o)) => {
                self.push(at, ChangeKind::ConstraintRemoved, Class::Minor, format!("{key} removed"))
            }
            _ => {}
        }
    }

    /// `patternProperties`: one subschema per regular expression.
    fn keyed_schemas(&mut self, pointer: &str, key: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get(key), new.get(key));
        if o == n {
            return;
        }
        let at = child(pointer, key);
        let empty = Map::new();
        let (Some(o), Some(n)) = (o.map_or(Some(&empty), Value::as_object), n.map_or(Some(&empty), Value::as_object))
        else {
            return self.opaque(at, key, o, n);
        };
        let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
        keys.sort();
        keys.dedup();
        for name in keys {
            let location = child(&at, name);
            match (o.get(name), n.get(name)) {
                (Some(a), Some(b)) => self.schema(&location, a, b),
                (None, Some(_)) => self.push(
                    location,
                    ChangeKind::ConstraintAdded,
                    Class::Major,
                    format!("{key} entry `{name}` added"),
                ),
                (Some(_), None) => self.push(
                    location,
                    ChangeKind::ConstraintRemoved,
                    Class::Minor,
                    format!("{key} entry `{name}` removed"),
                ),
                (None, None) => {}
            }
        }
    }

    fn dependencies(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("dependencies"), new.get("dependencies"));
        if o == n {
            return;
        }
        let at = child(pointer, "dependencies");
        let empty = Map::new();
        let (Some(o), Some(n)) = (o.map_or(Some(&empty), Value::as_object), n.map_or(Some(&empty), Value::as_object))
        else {
            return self.opaque(at, "dependencies", o, n);
        };
        let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
        keys.sort();
        keys.dedup();
        for name in keys {
            let location = child(&at, name);
            match (o.get(name), n.get(name)) {
                (Some(Value::Array(a)), Some(Value::Array(b))) => {
                    let gained: Vec<&str> =
                        missing_by(b, a, compare_values).into_iter().filter_map(Value::as_str).collect();
                    let lost: Vec<&str> =
                        missing_by(a, b, compare_values).into_iter().filter_map(Value::as_str).collect();
                    if !gained.is_empty() {
                        let description = format!("`{name}` now also requires {}", names(&gained));
                        self.push(location.clone(), ChangeKind::ConstraintAdded, Class::Major, description);
                    }
                    if !lost.is_empty() {
                        let description = format!("`{name}` no longer requires {}", names(&lost));
                        self.push(location, ChangeKind::ConstraintRemoved, Class::Minor, description);
                    }
                }
                (Some(a @ (Value::Object(_) | Value::Bool(_))), Some(b @ (Value::Object(_) | Value::Bool(_)))) => {
                    self.schema(&location, a, b)
                }
                (None, Some(_)) => self.push(
                    location,
                    ChangeKind::ConstraintAdded,
                    Class::Major,
                    format!("dependency of `{name}` added"),
                ),
                (Some(_), None) => self.push(
                    location,
                    ChangeKind::ConstraintRemoved,
                    Class::Minor,
                    format!("dependency of `{name}` removed"),
                ),
                (a, b) => self.opaque(location, "dependencies", a, b),
            }
        }
    }

    fn items(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get("items"), new.get("items"));
        if o == n {
            return;
        }
        let at = child(pointer, "items");
        match (o, n) {
            (Some(Value::Array(a)), Some(Value::Array(b))) => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    self.schema(&child(&at, &i.to_string()), x, y);
                }
                for i in a.len()..b.len() {
                    let description = format!("tuple item {i} constrained");
                    self.push(child(&at, &i.to_string()), ChangeKind::SubschemaAdded, Class::Major, description);
                }
                for i in b.len()..a.len() {
                    let description = format!("tuple item {i} no longer constrained");
                    self.push(child(&at, &i.to_string()), ChangeKind::SubschemaRemoved, Class::Minor, description);
                }
            }
            (Some(Value::Array(_)), Some(_)) => self.push(
                at,
                ChangeKind::ConstraintChanged,
                Class::Major,
                "items changed from a tuple to a single schema".to_owned(),
            ),
            (Some(_), Some(Value::Array(_))) => self.push(
                at,
                ChangeKind::ConstraintChanged,
                Class::Major,
                "items changed from a single schema to a tuple".to_owned(),
            ),
            _ => self.optional_schema(pointer, "items", o, n, true),
        }
    }

    /// Walks `old` and `new` at `at`; if that finds anything beyond PATCH, replaces it all with
    /// one MAJOR change (for `if` and `not`, whose direction cannot be read off the parts).
    fn collapsed(&mut self, at: String, old: &Value, new: &Value, kind: ChangeKind, description: String) {
        let start = self.changes.len();
        self.schema(&at, old, new);
        if self.changes.iter().skip(start).any(|c| c.class > Class::Patch) {
            self.changes.truncate(start);
            self.push(at, kind, Class::Major, description);
        }
    }

    fn conditional(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let at = child(pointer, "if");
        match (old.get("if"), new.get("if")) {
            (None, None) => {}
            (Some(o), Some(n)) => {
                let description = "`if` condition changed".to_owned();
                self.collapsed(at, o, n, ChangeKind::ConditionChanged, description);
                self.optional_schema(pointer, "then", old.get("then"), new.get("then"), true);
                self.optional_schema(pointer, "else", old.get("else"), new.get("else"), true);
            }
            (None, Some(condition)) => {
                let delegating = self.delegating_conditional(pointer, old, new);
                let undeclared = undeclared_condition(condition, old);
                let (class, description) = match undeclared {
                    Some(names_) if delegating => (
                        Class::Minor,
                        format!(
                            "conditional added: instances with {} (not declared before) are validated by `then`, all \
                             others by the previous version of this schema",
                            names(&names_.iter().map(String::as_str).collect::<Vec<_>>())
                        ),
                    ),
                    Some(names_) if !new.contains_key("else") => (
                        Class::Minor,
                        format!(
                            "conditional added: only instances with {} (not declared before) must satisfy `then`",
                            names(&names_.iter().map(String::as_str).collect::<Vec<_>>())
                        ),
                    ),
                    _ => (Class::Major, "conditional if/then/else added".to_owned()),
                };
                self.push(at, ChangeKind::ConditionalAdded, class, description);
            }
            (Some(_), None) => {
                let description = "conditional if/then/else removed".to_owned();
                self.push(at, ChangeKind::ConditionalRemoved, Class::Minor, description);
            }
        }
    }

    fn combinator(&mut self, pointer: &str, key: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let (o, n) = (old.get(key), new.get(key));
        if o == n {
            return;
        }
        let at = child(pointer, key);
        // An extra `allOf` member or `oneOf` alternative can reject instances (a `oneOf` one when an
        // instance also matches another alternative); an extra `anyOf` alternative only accepts more.
        let (added, removed) = match key {
            "allOf" => (Class::Major, Class::Minor),
            "anyOf" => (Class::Minor, Class::Major),
            _ => (Class::Major, Class::Major),
        };
        match (o.map(Value::as_array), n.map(Value::as_array)) {
            (Some(Some(a)), Some(Some(b))) => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    self.schema(&child(&at, &i.to_string()), x, y);
                }
                for i in a.len()..b.len() {
                    let description = format!("{key} subschema {i} added");
                    self.push(child(&at, &i.to_string()), ChangeKind::SubschemaAdded, added, description);
                }
                for i in b.len()..a.len() {
                    let description = format!("{key} subschema {i} removed");
                    self.push(child(&at, &i.to_string()), ChangeKind::SubschemaRemoved, removed, description);
                }
            }
            (None, Some(Some(_))) => self.push(at, ChangeKind::ConstraintAdded, Class::Major, format!("{key} added")),
            (Some(Some(_)), None) => {
                self.push(at, ChangeKind::ConstraintRemoved, Class::Minor, format!("{key} removed"))
            }
            _ => self.opaque(at, key, o, n),
        }
    }

    fn not(&mut self, pointer: &str, old: &Map<String, Value>, new: &Map<String, Value>) {
        let at = child(pointer, "not");
        match (old.get("not"), new.get("not")) {
            (Some(o), Some(n)) => self.collapsed(at, o, n, ChangeKind::ConstraintChanged, "not changed".to_owned()),
            (None, Some(_)) => self.push(at, ChangeKind::ConstraintAdded, Class::Major, "not added".to_owned()),
            (Some(_), None) => self.push(at, ChangeKind::ConstraintRemoved, Class::Minor, "not removed".to_owned()),
            (None, None) => {}
        }
    }
}

/// The elements of `a` that `b` does not hold, in `a`'s order (every occurrence), with
/// O((|a| + |b|) log |b|) comparisons: `b` is sorted once, then binary-searched.
///
/// Public only so the tests can count its comparisons; not part of the stable API.
#[doc(hidden)]
pub fn missing_from<'a, T: Ord>(a: &'a [T], b: &[T]) -> Vec<&'a T> {
    missing_by(a, b, T::cmp)
}

/// [`missing_from`] with the order `compare`, which must be total and agree with the equality the
/// caller means (equal elements compare `Equal`, and only they).
fn missing_by<'a, T>(a: &'a [T], b: &[T], compare: impl Fn(&T, &T) -> Ordering) -> Vec<&'a T> {
    let mut sorted: Vec<&T> = b.iter().collect();
    sorted.sort_unstable_by(|x, y| compare(x, y));
    a.iter().filter(|x| sorted.binary_search_by(|y| compare(y, x)).is_err()).collect()
}

/// A total order on JSON values whose equality is JSON Schema's (the equality of `const` and
/// `enum`): two values compare `Equal` exactly when JSON Schema holds them equal. Kinds are ordered
/// null, boolean, number, string, array, object. Numbers are ordered by value, exactly
/// ([`compare_number_values`]: `1`, `1.0` and `1e0` are `Equal`, `9007199254740993` and
/// `9007199254740992.0` are not). Arrays compare item by item, then by length; objects by size,
/// then entry by entry in key order (whatever order the map keeps its entries in), so two objects
/// are `Equal` when they have the same keys with `Equal` values.
fn compare_values(a: &Value, b: &Value) -> Ordering {
    fn sorted_entries(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
        let mut entries: Vec<(&String, &Value)> = map.iter().collect();
        entries.sort_unstable_by(|p, q| p.0.cmp(q.0));
        entries
    }
    fn rank(value: &Value) -> u8 {
        match value {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_) => 2,
            Value::String(_) => 3,
            Value::Array(_) => 4,
            Value::Object(_) => 5,
        }
    }
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => compare_number_values(x, y),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => x
            .iter()
            .zip(y)
            .map(|(p, q)| compare_values(p, q))
            .find(|order| order.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        (Value::Object(x), Value::Object(y)) => x.len().cmp(&y.len()).then_with(|| {
            sorted_entries(x)
                .into_iter()
                .zip(sorted_entries(y))
                .map(|((k1, v1), (k2, v2))| k1.cmp(k2).then_with(|| compare_values(v1, v2)))
                .find(|order| order.is_ne())
                .unwrap_or(Ordering::Equal)
        }),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Orders two JSON numbers by their values, exactly: two integers as integers (never through an
/// `f64`, so `9007199254740993` and `9007199254740992` differ), two floats as floats (`0.0` and
/// `-0.0` are equal), and an integer against a float without rounding either. A float is the
/// value serde_json read, the `f64` nearest its text. The validator's `const`/`enum` equality
/// compares numbers the same way (`src/validation/schema.rs`), so what the classifier calls no
/// change is no change to what a document may hold.
fn compare_number_values(a: &serde_json::Number, b: &serde_json::Number) -> Ordering {
    let integer = |n: &serde_json::Number| n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
    match (integer(a), integer(b), a.as_f64(), b.as_f64()) {
        (Some(x), Some(y), _, _) => x.cmp(&y),
        (Some(x), None, _, Some(y)) => compare_integer_float(x, y),
        (None, Some(y), Some(x), _) => compare_integer_float(y, x).reverse(),
        // Finite, as serde_json numbers are, so `partial_cmp` always answers.
        (_, _, Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => Ordering::Equal,
    }
}

/// Orders an integer and a finite float exactly.
fn compare_integer_float(integer: i128, float: f64) -> Ordering {
    // 2^127: no i128 reaches it.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if float >= LIMIT {
        return Ordering::Less;
    }
    if float < -LIMIT {
        return Ordering::Greater;
    }
    let whole = float.trunc();
    // In range and integral: the conversion is exact.
    #[allow(clippy::cast_possible_truncation)]
    let whole_integer = whole as i128;
    integer.cmp(&whole_integer).then_with(|| {
        if float > whole {
            Ordering::Less
        } else if float < whole {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    })
}

/// A JSON value ordered by [`compare_values`], as a map key.
struct ByValue<'a>(&'a Value);

impl PartialEq for ByValue<'_> {
    fn eq(&self, other: &Self) -> bool {
        compare_values(self.0, other.0).is_eq()
    }
}

impl Eq for ByValue<'_> {}

impl PartialOrd for ByValue<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByValue<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        compare_values(self.0, other.0)
    }
}

/// The strings of a `required`-like array; empty when absent, `None` when malformed.
pub(crate) fn string_list(value: Option<&Value>) -> Option<Vec<&str>> {
    match value {
        None => Some(Vec::new()),
        Some(v) => v.as_array()?.iter().map(Value::as_str).collect(),
    }
}

/// The names an added `if` requires, when it only tests properties the old schema did not
/// declare (so instances without them are not affected): `properties` and a non-empty `required`
/// of undeclared names, nothing else.
fn undeclared_condition(condition: &Value, old: &Map<String, Value>) -> Option<Vec<String>> {
    let condition = condition.as_object()?;
    if condition.keys().any(|k| VALIDATION.contains(&k.as_str()) && k != "properties" && k != "required") {
        return None;
    }
    let required: Vec<&str> =
        condition.get("required")?.as_array()?.iter().map(Value::as_str).collect::<Option<_>>()?;
    if required.is_empty()
        || old.contains_key("patternProperties")
        || openness(old.get("additionalProperties")) == Openness::Schema
    {
        return None;
    }
    let declared_property = old
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| required.iter().any(|name| p.contains_key(*name)));
    let wanted: BTreeSet<&str> = required.iter().copied().collect();
    let declared_required = old
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|v| v.as_str().is_some_and(|name| wanted.contains(name))));
    if declared_property || declared_required {
        return None;
    }
    Some(required.into_iter().map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_textually() {
        let base = Some("https://jerry.dev/schemas/session_context/v1.1.0.json");
        assert_eq!(
            resolve(base, "v1.0.0.json#/definitions/trace"),
            ("https://jerry.dev/schemas/session_context/v1.0.0.json".to_owned(), "/definitions/trace".to_owned())
        );
        assert_eq!(
            resolve(base, "../common/types.json#/definitions/a").0,
            "https://jerry.dev/schemas/common/types.json"
        );
        assert_eq!(resolve(base, "#/definitions/a%20b").1, "/definitions/a b");
        assert_eq!(resolve(None, "x.json#/a"), ("x.json".to_owned(), "/a".to_owned()));
        assert_eq!(resolve(base, "urn:x#/a").0, "urn:x");
    }

    /// JSON Schema's equality, for the samples below: each integral float that an `i64` or a
    /// `u64` holds is made that integer (`-0.0` included), then `==`.
    fn normal(value: &Value) -> Value {
        match value {
            Value::Number(n) if n.is_f64() => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 1.9e19 => {
                    #[allow(clippy::cast_possible_truncation)]
                    let whole = f as i128;
                    i64::try_from(whole)
                        .map(Value::from)
                        .or_else(|_| u64::try_from(whole).map(Value::from))
                        .unwrap_or_else(|_| value.clone())
                }
                _ => value.clone(),
            },
            Value::Array(items) => Value::Array(items.iter().map(normal).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), normal(v))).collect()),
            _ => value.clone(),
        }
    }

    #[test]
    fn the_value_order_agrees_with_json_schema_equality() {
        let samples: Vec<Value> = [
            "null",
            "false",
            "true",
            "0",
            "1",
            "1.0",
            "-1",
            "-1.0",
            "0.0",
            "-0.0",
            "-0",
            "18446744073709551615",
            "18446744073709551615.0",
            "-9223372036854775808",
            "-9223372036854775808.0",
            "9007199254740993",
            "9007199254740992",
            "9007199254740992.0",
            "9007199254740994.0",
            "100",
            "1e2",
            "1E2",
            "100.0",
            "1e300",
            "0.5",
            "-0.5",
            "1.5",
            "\"\"",
            "\"a\"",
            "\"b\"",
            "[]",
            "[1]",
            "[1.0]",
            "[1e0, 2]",
            "[1, 2]",
            "[2]",
            "{}",
            "{\"a\": 1}",
            "{\"b\": 1, \"a\": 2}",
            "{\"a\": 2, \"b\": 1}",
            "{\"a\": 1, \"b\": 1}",
            "{\"a\": [null, {\"x\": 1}]}",
            "{\"a\": [null, {\"x\": 1.0}]}",
        ]
        .iter()
        .map(|text| serde_json::from_str(text).unwrap())
        .collect();
        for a in &samples {
            for b in &samples {
                let order = compare_values(a, b);
                assert_eq!(order.is_eq(), normal(a) == normal(b), "{a} vs {b}: {order:?}");
                assert_eq!(order.reverse(), compare_values(b, a), "{a} vs {b}: antisymmetric");
                for c in &samples {
                    if order.is_le() && compare_values(b, c).is_le() {
                        assert!(compare_values(a, c).is_le(), "{a} <= {b} <= {c}: transitive");
                    }
                }
            }
        }
    }

    #[test]
    fn missing_elements_keep_their_order() {
        assert_eq!(missing_from(&[3, 1, 2, 1, 4], &[2, 4]), [&3, &1, &1]);
        let a = [json!("x"), json!(1), json!(2.0), json!({"k": [1]})];
        let b = [json!(1.0), json!({"k": [1.0]})];
        assert_eq!(missing_by(&a, &b, compare_values), [&json!("x"), &json!(2.0)]);
    }

    #[test]
    fn reachability_covers_locations_below() {
        let walker = Walker {
            old_doc: None,
            new_doc: None,
            reachable: ["/definitions/a/properties/x", "/definitions/ab", "/definitions/b~1c"]
                .into_iter()
                .map(str::to_owned)
                .collect(),
            changes: Vec::new(),
        };
        assert!(walker.is_reachable("/definitions/a"));
        assert!(walker.is_reachable("/definitions/a/properties"));
        assert!(walker.is_reachable("/definitions/a/properties/x"));
        assert!(walker.is_reachable("/definitions/ab"));
        assert!(!walker.is_reachable("/definitions/a/properties/x/y"));
        assert!(!walker.is_reachable("/definitions/b"), "`/definitions/b~1c` is not below `/definitions/b`");
        let only_longer = Walker { reachable: BTreeSet::from(["/definitions/ab".to_owned()]), ..walker };
        assert!(!only_longer.is_reachable("/definitions/a"));
    }

    #[test]
    fn versions_parse() {
        assert_eq!(Version::parse("v1"), Some(Version { major: 1, minor: 0, patch: 0 }));
        assert_eq!(Version::parse("2.3"), Some(Version { major: 2, minor: 3, patch: 0 }));
        assert_eq!(Version::parse("1.2.3-beta"), Some(Version { major: 1, minor: 2, patch: 3 }));
        assert_eq!(Version::parse("1.2.3.4"), None);
        assert_eq!(Version::parse("vx"), None);
        assert_eq!(Version::parse("1.*"), None);
        assert_eq!(Version::parse("^1.2"), None);
        assert_eq!(Version::parse("01.2"), None);
        assert_eq!(Version::parse(""), None);
        assert_eq!(last_semver("https://x/v1.1.0.json"), Some(Version { major: 1, minor: 1, patch: 0 }));
        assert_eq!(last_semver("https://x/a1.2.json"), None);
        assert_eq!(last_semver("https://x/2.0.0/b/v3.1.4.json"), Some(Version { major: 3, minor: 1, patch: 4 }));
    }
}
