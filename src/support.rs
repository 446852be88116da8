//! Runtime support used by the generated types; not needed by callers.
//!
//! The generated contract types name these items in their attributes: [`True`] for
//! `"const": true`, [`EcmaPattern`] for `pattern`, [`uri_reference`] and [`unique_items`] as
//! `garde` custom rules, [`double_option`] for optional nullable fields and [`json_pointer`] to
//! report where a validation error is. Under the `schemars` feature, [`nullable`],
//! [`extend_format_uri_reference`] and [`unique`] are `schemars` transforms that put the
//! corresponding keywords back into generated schemas.

use std::fmt;
use std::net::Ipv6Addr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

// ---------------------------------------------------------------------------------------------
// `"const": true`
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// `pattern`
// ---------------------------------------------------------------------------------------------

/// A JSON Schema `pattern`: an ECMA-262 regular expression, matched the way JSON Schema
/// matches it (anywhere in the string unless anchored; `\d` and `[0-9]` mean ASCII digits
/// only).
///
/// Generated code keeps one per pattern in a static and names it in a `garde` rule:
///
/// ```
/// use std::sync::LazyLock;
/// use jerry_contracts::support::EcmaPattern;
///
/// static P3: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new("^F-[0-9]{3}$"));
///
/// #[derive(garde::Validate)]
/// struct Finding {
///     #[garde(pattern(P3))]
///     id: String,
/// }
///
/// use garde::Validate as _;
/// assert!(Finding { id: "F-001".into() }.validate().is_ok());
/// assert!(Finding { id: "F-٠٠١".into() }.validate().is_err());
/// ```
pub struct EcmaPattern {
    source: &'static str,
    engine: Engine,
}

/// The engine that runs a pattern: `regex` (linear time) whenever the pattern translates to its
/// syntax with the same meaning ([`crate::ecma::translate`]), else regress (ECMA-262 itself).
/// A translated pattern whose dense DFA stays within [`DFA_LIMIT`] (every schema pattern) is
/// matched by the DFA; the `regex` answers whenever the DFA cannot (it never gives up on the
/// schemas' patterns, which have no Unicode word boundary).
enum Engine {
    Linear { dfa: Option<Box<DenseDfa>>, regex: regex::Regex },
    Ecma(regress::Regex),
}

/// A dense DFA over bytes (UTF-8 aware, as `regex` is).
type DenseDfa = regex_automata::dfa::dense::DFA<Vec<u32>>;

/// The most memory one pattern's DFA (and its determinisation) may take; past it, the pattern
/// is left to `regex` alone.
const DFA_LIMIT: usize = 1 << 18;

/// The dense DFA for a translated pattern, if it stays within [`DFA_LIMIT`].
fn dense(translated: &str) -> Option<Box<DenseDfa>> {
    use regex_automata::dfa::dense;
    let config = dense::Config::new().dfa_size_limit(Some(DFA_LIMIT)).determinize_size_limit(Some(DFA_LIMIT));
    dense::Builder::new().configure(config).build(translated).ok().map(Box::new)
}

impl EcmaPattern {
    /// Compiles `source` as an ECMA-262 regular expression (no flags).
    ///
    /// # Panics
    ///
    /// If `source` is not a valid ECMA-262 regular expression. Only the generated code calls
    /// this, with patterns from the schemas, and the build checks every one of them, so this
    /// cannot happen at run time. Use [`EcmaPattern::try_new`] for a pattern from elsewhere.
    pub fn new(source: &'static str) -> Self {
        match Self::try_new(source) {
            Ok(pattern) => pattern,
            Err(error) => panic!("invalid ECMA-262 pattern {source:?}: {error}"),
        }
    }

    /// Compiles `source` as an ECMA-262 regular expression (no flags), or says why it is not
    /// one.
    pub fn try_new(source: &'static str) -> Result<Self, regress::Error> {
        // regress judges the syntax: only a valid ECMA-262 pattern is translated.
        let ecma = regress::Regex::new(source)?;
        let translated = crate::ecma::translate(source);
        let linear =
            translated.as_deref().and_then(|translated| Some((translated, regex::Regex::new(translated).ok()?)));
        let engine = match linear {
            Some((translated, regex)) => Engine::Linear { dfa: dense(translated), regex },
            None => Engine::Ecma(ecma),
        };
        Ok(Self { source, engine })
    }

    /// Whether the pattern runs on the linear-time engine (a bound on matching time whatever the
    /// text), rather than the backtracking ECMA-262 one.
    pub fn is_linear(&self) -> bool {
        matches!(self.engine, Engine::Linear { .. })
    }

    /// Whether the pattern is matched by a dense DFA (a table walk per byte, no shared cache):
    /// true of every pattern in the schemas (tests/patterns.rs).
    pub fn is_dense(&self) -> bool {
        matches!(self.engine, Engine::Linear { dfa: Some(_), .. })
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether the pattern matches anywhere in `text` (an unanchored search, as JSON Schema's
    /// `pattern` is).
    pub fn is_match(&self, text: &str) -> bool {
        match &self.engine {
            Engine::Linear { dfa, regex } => {
                use regex_automata::{Input, dfa::Automaton};
                let answer = dfa.as_ref().and_then(|dfa| dfa.try_search_fwd(&Input::new(text).earliest(true)).ok());
                match answer {
                    Some(found) => found.is_some(),
                    None => regex.is_match(text),
                }
            }
            Engine::Ecma(regex) => regex.find(text).is_some(),
        }
    }
}

impl fmt::Debug for EcmaPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("EcmaPattern").field(&self.source).finish()
    }
}

impl fmt::Display for EcmaPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.source)
    }
}

impl garde::rules::AsStr for EcmaPattern {
    fn as_str(&self) -> &str {
        self.source
    }
}

impl garde::rules::pattern::Matcher for EcmaPattern {
    fn is_match(&self, haystack: &str) -> bool {
        EcmaPattern::is_match(self, haystack)
    }
}

// ---------------------------------------------------------------------------------------------
// `format: uri-reference`
// ---------------------------------------------------------------------------------------------

/// A field type that [`uri_reference`] can check.
pub trait UriReferenceValue {
    /// The text to check, or `None` when there is nothing to check (an absent optional value).
    fn uri_reference_text(&self) -> Option<&str>;
}

impl UriReferenceValue for str {
    fn uri_reference_text(&self) -> Option<&str> {
        Some(self)
    }
}

impl UriReferenceValue for String {
    fn uri_reference_text(&self) -> Option<&str> {
        Some(self)
    }
}

/// Absent or `null` (an optional, possibly nullable field): nothing to check.
impl<T: UriReferenceValue> UriReferenceValue for Option<T> {
    fn uri_reference_text(&self) -> Option<&str> {
        self.as_ref().and_then(UriReferenceValue::uri_reference_text)
    }
}

/// `garde` custom rule for `format: uri-reference`: the value must be an RFC 3986
/// URI-reference, that is a URI (`https://x/y?q#f`) or a relative reference
/// (`agents/ps/researcher_output.json`, `#frag`, `//host/x`, the empty string). Only ASCII is
/// allowed; anything else must be percent-encoded. `None` passes.
///
/// Used as `#[garde(custom(crate::support::uri_reference))]`.
pub fn uri_reference<T: UriReferenceValue + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    match value.uri_reference_text().map(check_uri_reference) {
        None | Some(Ok(())) => Ok(()),
        Some(Err(reason)) => Err(garde::Error::new(format!("not a valid URI reference (RFC 3986): {reason}"))),
    }
}

/// `garde` custom rule for `format: uri`: an RFC 3986 URI, i.e. a URI reference that starts with
/// a scheme (the schema interpreter applies the same check). `None` passes.
///
/// Used as `#[garde(custom(crate::support::uri))]`.
pub fn uri<T: UriReferenceValue + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    let Some(text) = value.uri_reference_text() else { return Ok(()) };
    if !has_scheme(text) {
        return Err(garde::Error::new(
            "not a valid URI (RFC 3986): an absolute URI starts with a scheme, such as https:",
        ));
    }
    uri_reference(text, &())
}

/// Whether `text` starts with an RFC 3986 `scheme ":"`. A URI reference with one is a URI.
pub fn has_scheme(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
            .is_some_and(|end| bytes.get(end) == Some(&b':'))
}

/// `unreserved` and `sub-delims`: the characters of a `reg-name` besides percent-encodings.
const REG_NAME: u8 = 1;
const COLON: u8 = 2;
const AT: u8 = 4;
const SLASH: u8 = 8;
const QUESTION: u8 = 16;
/// `pchar`.
const PCHAR: u8 = REG_NAME | COLON | AT;
/// `segment`s and the slashes between them.
const PATH: u8 = PCHAR | SLASH;
/// `query` and `fragment`, which share one grammar.
const QUERY: u8 = PATH | QUESTION;
/// `userinfo`.
const USERINFO: u8 = REG_NAME | COLON;

/// The character classes of an ASCII byte (0 for none, and for `%`, which [`scan`] handles).
fn class(byte: u8) -> u8 {
    CLASSES[usize::from(byte)]
}

/// [`class_of`] for every byte, looked up rather than matched (a URI reference is scanned a byte
/// at a time).
const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0usize;
    while byte < 256 {
        table[byte] = class_of(byte as u8);
        byte += 1;
    }
    table
};

const fn class_of(byte: u8) -> u8 {
    match byte {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => REG_NAME,
        b'-' | b'.' | b'_' | b'~' => REG_NAME,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => REG_NAME,
        b':' => COLON,
        b'@' => AT,
        b'/' => SLASH,
        b'?' => QUESTION,
        _ => 0,
    }
}

/// The end of the run of bytes in `allowed` (percent-encodings included) from `at`, or the
/// position of a broken percent-encoding.
fn scan(bytes: &[u8], mut at: usize, allowed: u8) -> Result<usize, usize> {
    while let Some(&byte) = bytes.get(at) {
        if class(byte) & allowed != 0 {
            at += 1;
        } else if byte == b'%' {
            match bytes.get(at + 1..at + 3) {
                Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => at += 3,
                _ => return Err(at),
            }
        } else {
            break;
        }
    }
    Ok(at)
}

/// Describes the character at byte `at` of `text` for an error message.
fn character_at(text: &str, at: usize) -> String {
    match text.get(at..).and_then(|rest| rest.chars().next()) {
        Some(c) => format!("character {c:?} at byte {at} is not allowed there"),
        None => format!("unexpected end at byte {at}"),
    }
}

/// Checks RFC 3986 `URI-reference` syntax; the error is the reason.
fn check_uri_reference(text: &str) -> Result<(), String> {
    let bytes = text.as_bytes();
    // The common case at once: a relative path of plain characters (no `:`, `%`, `?`, `#`) that
    // does not open with an authority is a `path-absolute`, `path-noscheme` or `path-empty`.
    if !bytes.starts_with(b"//") && bytes.iter().all(|&b| class(b) & (REG_NAME | AT | SLASH) != 0) {
        return Ok(());
    }
    let broken = |at: usize| format!("broken percent-encoding at byte {at} (expected % and two hexadecimal digits)");

    // `scheme ":"`: a letter, then letters, digits, `+`, `-` and `.`, then the colon.
    let scheme = match bytes.first() {
        Some(first) if first.is_ascii_alphabetic() => bytes
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
            .filter(|&end| bytes[end] == b':'),
        _ => None,
    };
    let mut at = scheme.map_or(0, |end| end + 1);

    if bytes[at..].starts_with(b"//") {
        let start = at + 2;
        let end =
            bytes[start..].iter().position(|b| matches!(b, b'/' | b'?' | b'#')).map_or(bytes.len(), |i| start + i);
        check_authority(text, start, end)?;
        at = end;
    } else if scheme.is_none() {
        // A relative reference's first segment cannot hold a colon: `a:b` would read as a URI
        // with scheme `a`, and `1a:b` has no valid scheme at all.
        let first_segment = bytes.iter().position(|b| matches!(b, b'/' | b'?' | b'#')).unwrap_or(bytes.len());
        if let Some(colon) = bytes[..first_segment].iter().position(|&b| b == b':') {
            return Err(format!(
                "the colon at byte {colon} makes the first segment read as a scheme, which is not a valid one"
            ));
        }
    }

    at = scan(bytes, at, PATH).map_err(broken)?;
    if bytes.get(at) == Some(&b'?') {
        at = scan(bytes, at + 1, QUERY).map_err(broken)?;
    }
    if bytes.get(at) == Some(&b'#') {
        at = scan(bytes, at + 1, QUERY).map_err(broken)?;
    }
    if at == bytes.len() { Ok(()) } else { Err(character_at(text, at)) }
}

/// Checks `authority = [ userinfo "@" ] host [ ":" port ]` in `text[start..end]`, which holds
/// no `/`, `?` or `#`.
fn check_authority(text: &str, start: usize, end: usize) -> Result<(), String> {
    let bytes = &text.as_bytes()[..end];
    let broken = |at: usize| format!("broken percent-encoding at byte {at} (expected % and two hexadecimal digits)");

    let mut at = start;
    if let Some(sign) = bytes[start..].iter().position(|&b| b == b'@') {
        let userinfo_end = scan(bytes, start, USERINFO).map_err(broken)?;
        if userinfo_end != start + sign {
            return Err(character_at(text, userinfo_end));
        }
        at = userinfo_end + 1;
    }

    // host: IP-literal, or reg-name (of which IPv4address is a special case).
    if bytes.get(at) == Some(&b'[') {
        let Some(close) = bytes[at..].iter().position(|&b| b == b']').map(|i| at + i) else {
            return Err(format!("the IP literal opened at byte {at} is not closed"));
        };
        // Both ends are ASCII brackets, so this slice is on character boundaries.
        let literal = text.get(at + 1..close).unwrap_or_default();
        if !is_ip_literal(literal) {
            return Err(format!("{literal:?} is not an IPv6 address or an IPvFuture literal"));
        }
        at = close + 1;
    } else {
        at = scan(bytes, at, REG_NAME).map_err(broken)?;
    }

    // [ ":" port ]
    if bytes.get(at) == Some(&b':') {
        at += 1;
        at += bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    }
    if at == end { Ok(()) } else { Err(character_at(text, at)) }
}

/// `IPv6address / IPvFuture`, the inside of an RFC 3986 `IP-literal` (no zone identifier).
fn is_ip_literal(literal: &str) -> bool {
    match literal.as_bytes() {
        // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        [b'v' | b'V', rest @ ..] => {
            let version = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            match rest.get(version..) {
                Some([b'.', tail @ ..]) => {
                    version > 0 && !tail.is_empty() && tail.iter().all(|&b| class(b) & (REG_NAME | COLON) != 0)
                }
                _ => false,
            }
        }
        _ => literal.parse::<Ipv6Addr>().is_ok(),
    }
}

// ---------------------------------------------------------------------------------------------
// `uniqueItems: true`
// ---------------------------------------------------------------------------------------------

/// Values [`finite`] checks: `f64`, and options and lists of them.
pub trait FiniteValue {
    /// Whether every number held is finite.
    fn is_finite_value(&self) -> bool;
}

impl FiniteValue for f64 {
    fn is_finite_value(&self) -> bool {
        self.is_finite()
    }
}

impl FiniteValue for crate::Number<f64> {
    fn is_finite_value(&self) -> bool {
        self.get().is_finite()
    }
}

impl<T: FiniteValue> FiniteValue for Option<T> {
    fn is_finite_value(&self) -> bool {
        self.as_ref().is_none_or(FiniteValue::is_finite_value)
    }
}

impl<T: FiniteValue> FiniteValue for Vec<T> {
    fn is_finite_value(&self) -> bool {
        self.iter().all(FiniteValue::is_finite_value)
    }
}

/// The garde rule on every float: JSON has no NaN or infinity (serde_json would write `null`).
pub fn finite<T: FiniteValue + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    if value.is_finite_value() { Ok(()) } else { Err(garde::Error::new("not a finite number")) }
}

/// A field type that [`unique_items`] can check.
pub trait UniqueItems {
    /// The first repeated item, as the indices `(earlier, later)` of two equal items with
    /// `later` as small as possible, or `None` when the items are unique (or absent).
    fn first_repeat(&self) -> Option<(usize, usize)>;
}

impl<U: PartialEq> UniqueItems for [U] {
    fn first_repeat(&self) -> Option<(usize, usize)> {
        // Items are only `PartialEq`, so compare pairs; contract arrays are short.
        self.iter()
            .enumerate()
            .skip(1)
            .find_map(|(later, item)| self[..later].iter().position(|earlier| earlier == item).map(|i| (i, later)))
    }
}

impl<U: PartialEq> UniqueItems for Vec<U> {
    fn first_repeat(&self) -> Option<(usize, usize)> {
        self.as_slice().first_repeat()
    }
}

/// Absent or `null` (an optional, possibly nullable field): nothing to check.
impl<T: UniqueItems> UniqueItems for Option<T> {
    fn first_repeat(&self) -> Option<(usize, usize)> {
        self.as_ref().and_then(UniqueItems::first_repeat)
    }
}

/// `garde` custom rule for `uniqueItems: true`: no two items may be equal. The error names
/// the first repeated item, e.g. `items 0 and 3 are equal`. `None` passes.
///
/// Used as `#[garde(custom(crate::support::unique_items))]`.
pub fn unique_items<T: UniqueItems + ?Sized>(value: &T, _ctx: &()) -> garde::Result {
    match value.first_repeat() {
        None => Ok(()),
        Some((earlier, later)) => Err(garde::Error::new(format!("items {earlier} and {later} are equal"))),
    }
}

// ---------------------------------------------------------------------------------------------
// Optional, nullable fields
// ---------------------------------------------------------------------------------------------

/// `serde` `with` module for an optional, nullable field, which can be absent, `null` or a
/// value:
///
/// | JSON            | Rust              |
/// |-----------------|-------------------|
/// | absent          | `None`            |
/// | `null`          | `Some(None)`      |
/// | a value         | `Some(Some(v))`   |
///
/// Used as `#[serde(default, skip_serializing_if = "Option::is_none", with =
/// "crate::support::double_option")]`, which writes each case back the way it was read.
pub mod double_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes `Some(None)` as `null` and `Some(Some(v))` as `v`. `None` is written as `null`
    /// too, but the field attribute skips it, so an absent field stays absent.
    pub fn serialize<S, T>(value: &Option<Option<T>>, serializer: S) -> Result<S::Ok, S::Error>
    where
        S: Serializer,
        T: Serialize,
    {
        match value {
            Some(inner) => inner.serialize(serializer),
            None => serializer.serialize_none(),
        }
    }

    /// Reads `null` as `Some(None)` and a value as `Some(Some(v))`. An absent field never
    /// reaches this: the field attribute's `default` makes it `None`.
    pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        Option::<T>::deserialize(deserializer).map(Some)
    }
}

// ---------------------------------------------------------------------------------------------
// Error locations
// ---------------------------------------------------------------------------------------------

/// Rust keywords, which a field named for a JSON property cannot be called as they are. The
/// generated code calls such a field `type_` (or it could be `r#type`); `garde` reports it by
/// Every violation of `value`'s garde rules, as (JSON Pointer, message) pairs (the generated
/// `Contract::constraint_violations`).
pub fn constraint_violations<T: garde::Validate<Context = ()>>(value: &T) -> Vec<(String, String)> {
    match value.validate() {
        Ok(()) => Vec::new(),
        Err(report) => report.iter().map(|(path, error)| (json_pointer(path), error.message().to_owned())).collect(),
    }
}

/// The RFC 6901 JSON Pointer for a `garde` error path: `""` for the root, `/findings/0/id`
/// below it, with `~` written `~0` and `/` written `~1` in keys.
///
/// `garde` names a struct field by its Rust identifier (garde 0.23 ignores `rename`), so the
/// generated types spell every field as its JSON property, with a raw identifier (`r#type`) for
/// a Rust keyword; this strips the `r#`. A newtype should be `#[garde(transparent)]`, or its
/// field adds a step `/0` that the JSON does not have.
pub fn json_pointer(path: &garde::Path) -> String {
    use garde::error::Kind;

    let mut pointer = String::new();
    // `garde` yields the innermost component first.
    for (kind, component) in path.__iter().rev() {
        if kind == Kind::None {
            // A component without a key (a newtype's only field) adds no step.
            continue;
        }
        pointer.push('/');
        let component =
            if kind == Kind::Key { component.strip_prefix("r#").unwrap_or(component) } else { component.as_str() };
        for c in component.chars() {
            match c {
                '~' => pointer.push_str("~0"),
                '/' => pointer.push_str("~1"),
                c => pointer.push(c),
            }
        }
    }
    pointer
}

// ---------------------------------------------------------------------------------------------
// schemars transforms
// ---------------------------------------------------------------------------------------------

/// Keywords that only annotate a schema. [`nullable`] keeps them on the outside when it wraps
/// a schema, so documentation still finds them.
#[cfg(feature = "schemars")]
const ANNOTATIONS: &[&str] =
    &["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"];

/// Keywords that combine or refer to other schemas: with any of them, adding `null` to `type`
/// is not enough to let `null` through.
#[cfg(feature = "schemars")]
const APPLICATORS: &[&str] = &["$ref", "allOf", "anyOf", "oneOf", "not", "if"];

/// `schemars` transform that makes a schema accept `null` as well as what it accepted.
///
/// - With a `type` (and no `$ref`, `allOf`, `anyOf`, `oneOf`, `not` or `if`): adds `"null"`
///   to `type` (a string becomes an array), appends `null` to `enum` when there is one, and
///   turns a `const` into an `enum` of it and `null`.
/// - With only an `enum`: appends `null` to it.
/// - Otherwise (for instance a `$ref`): wraps the schema as
///   `{"anyOf": [<the schema>, {"type": "null"}]}`, keeping its annotations (`description`,
///   `title`, `default`, …) outside.
///
/// Used as `#[schemars(transform = crate::support::nullable)]`.
#[cfg(feature = "schemars")]
pub fn nullable(schema: &mut schemars::Schema) {
    use serde_json::{Map, Value};

    let Some(object) = schema.as_object_mut() else {
        // `true` accepts null already; `false` accepted nothing, and now accepts null.
        if schema.as_bool() == Some(false) {
            *schema = schemars::json_schema!({"type": "null"});
        }
        return;
    };
    let has_applicator = APPLICATORS.iter().any(|keyword| object.contains_key(*keyword));
    let only_annotations = object.keys().all(|keyword| ANNOTATIONS.contains(&keyword.as_str()));
    if only_annotations {
        // Accepts everything, null included.
        return;
    }

    let push_null_to_enum = |object: &mut Map<String, Value>| {
        if let Some(Value::Array(values)) = object.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
    };

    if object.contains_key("type") && !has_applicator {
        match object.get_mut("type") {
            Some(Value::String(name)) if name != "null" => {
                let name = std::mem::take(name);
                object.insert("type".to_owned(), Value::Array(vec![Value::String(name), "null".into()]));
            }
            Some(Value::Array(names)) if !names.iter().any(|name| name == "null") => names.push("null".into()),
            _ => {}
        }
        push_null_to_enum(object);
        if let Some(constant) = object.remove("const") {
            let values = if constant.is_null() { vec![constant] } else { vec![constant, Value::Null] };
            object.insert("enum".to_owned(), Value::Array(values));
        }
    } else if object.contains_key("enum") && !has_applicator && !object.contains_key("const") {
        push_null_to_enum(object);
    } else {
        let mut outer = Map::new();
        for keyword in ANNOTATIONS {
            if let Some(value) = object.remove(*keyword) {
                outer.insert((*keyword).to_owned(), value);
            }
        }
        let inner = Value::Object(std::mem::take(object));
        outer.insert("anyOf".to_owned(), Value::Array(vec![inner, serde_json::json!({"type": "null"})]));
        *schema = schemars::Schema::from(outer);
    }
}

/// `schemars` transform that sets `"format": "uri-reference"` (the keyword `garde`'s
/// [`uri_reference`] rule checks).
///
/// Used as `#[schemars(transform = crate::support::extend_format_uri_reference)]`.
#[cfg(feature = "schemars")]
pub fn extend_format_uri_reference(schema: &mut schemars::Schema) {
    schema.insert("format".to_owned(), "uri-reference".into());
}

/// `schemars` transform that sets `"format": "uri"` (the [`uri`] rule checks it).
///
/// Used as `#[schemars(transform = crate::support::extend_format_uri)]`.
#[cfg(feature = "schemars")]
pub fn extend_format_uri(schema: &mut schemars::Schema) {
    schema.insert("format".to_owned(), "uri".into());
}

/// `schemars` transform that sets `"uniqueItems": true` (the keyword `garde`'s
/// [`unique_items`] rule checks).
///
/// Used as `#[schemars(transform = crate::support::unique)]`.
#[cfg(feature = "schemars")]
pub fn unique(schema: &mut schemars::Schema) {
    schema.insert("uniqueItems".to_owned(), true.into());
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
        "jerry_contracts::support::True".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "boolean", "const": true})
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::collections::HashMap;
    use std::sync::LazyLock;

    use garde::Validate;
    use serde_json::json;

    use super::*;

    // --- True -----------------------------------------------------------------------------

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

    // --- EcmaPattern ----------------------------------------------------------------------

    static P3: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new("^F-[0-9]{3}$"));
    static DIGITS: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new(r"^F-\d{3}$"));
    static UNANCHORED: LazyLock<EcmaPattern> = LazyLock::new(|| EcmaPattern::new("[0-9]{3}"));

    #[derive(garde::Validate)]
    struct Finding {
        #[garde(pattern(P3))]
        id: String,
        #[garde(pattern(DIGITS))]
        alias: Option<String>,
    }

    #[test]
    fn pattern_rule_is_ecma_and_ascii() {
        assert!(Finding { id: "F-001".into(), alias: None }.validate().is_ok());
        assert!(Finding { id: "F-001".into(), alias: Some("F-002".into()) }.validate().is_ok());

        let report = Finding { id: "F-٠٠١".into(), alias: Some("F-٠٠٢".into()) }.validate().unwrap_err();
        let mut errors: Vec<(String, String)> =
            report.iter().map(|(path, error)| (json_pointer(path), error.to_string())).collect();
        errors.sort();
        assert_eq!(errors[0].0, "/alias");
        assert!(errors[0].1.contains(r"^F-\d{3}$"), "{errors:?}");
        assert_eq!(errors[1].0, "/id");
        assert!(errors[1].1.contains("^F-[0-9]{3}$"), "{errors:?}");

        assert!(Finding { id: "F-0012".into(), alias: None }.validate().is_err());
    }

    #[test]
    fn pattern_search_is_unanchored() {
        assert!(UNANCHORED.is_match("abc123def"));
        assert!(!UNANCHORED.is_match("ab12"));
        assert_eq!(UNANCHORED.source(), "[0-9]{3}");
        assert_eq!(UNANCHORED.to_string(), "[0-9]{3}");
        assert_eq!(garde::rules::AsStr::as_str(&*UNANCHORED), "[0-9]{3}");
        // ECMA-262 syntax the `regex` crate lacks.
        let lookahead = EcmaPattern::new("^(?!draft-)[a-z-]+$");
        assert!(lookahead.is_match("final-report"));
        assert!(!lookahead.is_match("draft-report"));
    }

    #[test]
    fn invalid_patterns_are_reported_by_try_new() {
        assert!(EcmaPattern::try_new("([a-z]").is_err());
        assert!(EcmaPattern::try_new("^F-[0-9]{3}$").is_ok());
    }

    #[test]
    #[should_panic(expected = "invalid ECMA-262 pattern")]
    fn new_panics_on_an_invalid_pattern() {
        let _ = EcmaPattern::new("([a-z]");
    }

    // --- uri-reference --------------------------------------------------------------------

    const URI_REFERENCE_TABLE: &[(&str, bool)] = &[
        ("agents/ps/researcher_output.json", true),
        ("../common/envelope.json#/definitions/id", true),
        ("#frag", true),
        ("#", true),
        ("", true),
        ("//host/x", true),
        ("//", true),
        ("/absolute/path", true),
        ("https://x/y?q#f", true),
        ("https://jerry.dev/schemas/agents/ps/researcher_output.json", true),
        ("mailto:someone@example.com", true),
        ("urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8", true),
        ("http://user:pw@host:8080/p%20q?a=b&c=d#x/y?z", true),
        ("http://[::1]/x", true),
        ("http://[::1]:8080", true),
        ("//user@[2001:db8::7]:443/x", true),
        ("http://[v1.fe80::a+en1]/", true),
        ("http://host:/x", true),
        ("./a:b", true),
        ("?query-only", true),
        ("a b", false),
        ("https://x/y z", false),
        (r"agents\ps\x.json", false),
        ("%zz", false),
        ("%2", false),
        ("http://[::1", false),
        ("http://[::1]x", false),
        ("http://[:::1]/", false),
        ("http://[fe80::1%25eth0]/", false),
        ("http://[v1.]/", false),
        ("http://host:80a/", false),
        ("http://a@b@c/", false),
        ("http://ho[st/", false),
        ("a:b:c", true),
        ("1a:b", false),
        ("schemas/é.json", false),
        ("#frag#again", false),
        ("http://x/<y>", false),
        ("http://x/y{z}", false),
    ];

    #[test]
    fn uri_reference_agrees_with_the_reference_validator() {
        let validator = jsonschema::draft7::options()
            .should_validate_formats(true)
            .build(&json!({"type": "string", "format": "uri-reference"}))
            .unwrap();
        for (input, expected) in URI_REFERENCE_TABLE {
            let reference = validator.is_valid(&json!(input));
            let ours = uri_reference(*input, &()).is_ok();
            assert_eq!(reference, *expected, "the reference validator's verdict on {input:?} changed");
            assert_eq!(ours, reference, "disagreement with the reference validator on {input:?}");
        }
    }

    #[test]
    fn uri_reference_sweep_agrees_with_the_reference_validator() {
        let validator = jsonschema::draft7::options()
            .should_validate_formats(true)
            .build(&json!({"type": "string", "format": "uri-reference"}))
            .unwrap();
        let seeds = [
            "https://u:p@jerry.dev:443/schemas/a.json?x=1#/definitions/b",
            "//[2001:db8::7]:80/x?y#z",
            "//[v7.a:b]/",
            "//[::ffff:192.0.2.1]",
            "../common/envelope.json#/definitions/id",
            "a:b/c",
            "%41%2f",
        ];
        let alphabet: Vec<char> = r"/?#[]@:%.-_~!$&'()*+,;=aZ09fv \é".chars().collect();
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for round in 0..30_000 {
            let mut chars: Vec<char> = seeds[round % seeds.len()].chars().collect();
            for _ in 0..=next(3) {
                let c = alphabet[next(alphabet.len())];
                match next(3) {
                    0 if !chars.is_empty() => {
                        let i = next(chars.len());
                        chars[i] = c;
                    }
                    1 => {
                        let i = next(chars.len() + 1);
                        chars.insert(i, c);
                    }
                    _ if !chars.is_empty() => {
                        let i = next(chars.len());
                        chars.remove(i);
                    }
                    _ => {}
                }
            }
            let input: String = chars.into_iter().collect();
            assert_eq!(
                uri_reference(input.as_str(), &()).is_ok(),
                validator.is_valid(&json!(input)),
                "disagreement with the reference validator on {input:?}"
            );
        }
    }

    #[test]
    fn uri_reference_rule_on_fields() {
        #[derive(garde::Validate)]
        struct Links {
            #[garde(custom(uri_reference))]
            schema: String,
            #[garde(custom(uri_reference))]
            next: Option<String>,
        }

        assert!(Links { schema: "agents/ps/researcher_output.json".into(), next: None }.validate().is_ok());
        assert!(Links { schema: "#frag".into(), next: Some("//host/x".into()) }.validate().is_ok());
        let report = Links { schema: "a b".into(), next: Some("%zz".into()) }.validate().unwrap_err();
        let mut errors: Vec<(String, String)> =
            report.iter().map(|(path, error)| (json_pointer(path), error.to_string())).collect();
        errors.sort();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].0, "/next");
        assert!(errors[0].1.contains("broken percent-encoding at byte 0"), "{errors:?}");
        assert_eq!(errors[1].0, "/schema");
        assert!(errors[1].1.starts_with("not a valid URI reference (RFC 3986): character ' '"), "{errors:?}");
        assert!(uri_reference("x y", &()).is_err());
    }

    // --- uniqueItems ----------------------------------------------------------------------

    #[test]
    fn unique_items_names_the_first_repeat() {
        assert!(unique_items(&vec![1, 2, 3], &()).is_ok());
        assert!(unique_items(&Vec::<u8>::new(), &()).is_ok());
        assert!(unique_items(&None::<Vec<u8>>, &()).is_ok());
        assert!(unique_items(&Some(vec!["a", "b"]), &()).is_ok());

        let error = unique_items(&vec!["a", "b", "c", "a", "b"], &()).unwrap_err();
        assert_eq!(error.message(), "items 0 and 3 are equal");
        let error = unique_items(&Some(vec![1, 2, 3, 3, 1]), &()).unwrap_err();
        assert_eq!(error.message(), "items 2 and 3 are equal");
        let error = unique_items(&[json!({"a": 1}), json!({"a": 1})][..], &()).unwrap_err();
        assert_eq!(error.message(), "items 0 and 1 are equal");
    }

    #[test]
    fn unique_items_rule_on_fields() {
        #[derive(garde::Validate)]
        struct Tags {
            #[garde(custom(unique_items))]
            tags: Vec<String>,
            #[garde(custom(unique_items))]
            more: Option<Vec<String>>,
        }

        assert!(Tags { tags: vec!["a".into(), "b".into()], more: None }.validate().is_ok());
        let report = Tags { tags: vec!["a".into(), "a".into()], more: Some(vec!["x".into(), "x".into()]) }
            .validate()
            .unwrap_err();
        let mut errors: Vec<(String, String)> =
            report.iter().map(|(path, error)| (json_pointer(path), error.to_string())).collect();
        errors.sort();
        assert_eq!(
            errors,
            [
                ("/more".to_owned(), "items 0 and 1 are equal".to_owned()),
                ("/tags".into(), "items 0 and 1 are equal".into())
            ]
        );
    }

    // --- double_option --------------------------------------------------------------------

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Patch {
        #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::support::double_option")]
        note: Option<Option<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::support::double_option")]
        count: Option<Option<u32>>,
    }

    #[test]
    fn double_option_round_trips_absent_null_and_value() {
        for (text, expected) in [
            (r#"{}"#, Patch { note: None, count: None }),
            (r#"{"note":null}"#, Patch { note: Some(None), count: None }),
            (r#"{"note":"hi"}"#, Patch { note: Some(Some("hi".into())), count: None }),
            (r#"{"note":null,"count":3}"#, Patch { note: Some(None), count: Some(Some(3)) }),
            (r#"{"count":null}"#, Patch { note: None, count: Some(None) }),
        ] {
            let patch: Patch = serde_json::from_str(text).unwrap();
            assert_eq!(patch, expected, "reading {text}");
            assert_eq!(serde_json::to_string(&patch).unwrap(), text, "writing {patch:?}");
        }
        assert!(serde_json::from_str::<Patch>(r#"{"count":"three"}"#).is_err());
    }

    // --- json_pointer ---------------------------------------------------------------------

    /// As the generated code writes a field for the JSON property `type`: a raw identifier.
    #[derive(garde::Validate)]
    struct Item {
        #[garde(length(min = 1))]
        r#type: String,
    }

    /// The same with a raw identifier.
    #[derive(garde::Validate)]
    struct RawItem {
        #[garde(length(min = 1))]
        r#type: String,
    }

    #[derive(garde::Validate)]
    #[garde(transparent)]
    struct Wrapper(#[garde(dive)] Item);

    #[derive(garde::Validate)]
    struct Document {
        #[garde(dive)]
        items: Vec<Item>,
        #[garde(dive)]
        by_name: HashMap<String, Item>,
        #[garde(dive)]
        maybe: Option<Item>,
        #[garde(dive)]
        wrapped: Vec<Wrapper>,
        #[garde(length(min = 1))]
        name: String,
    }

    fn item(kind: &str) -> Item {
        Item { r#type: kind.into() }
    }

    #[test]
    fn json_pointer_follows_fields_indices_and_keys() {
        let document = Document {
            items: vec![item("a"), item(""), item("c")],
            by_name: HashMap::from([("a/b~c".to_owned(), item(""))]),
            maybe: Some(item("")),
            wrapped: vec![Wrapper(item("ok")), Wrapper(item(""))],
            name: "doc".into(),
        };
        let report = document.validate().unwrap_err();
        let mut pointers: Vec<String> = report.iter().map(|(path, _)| json_pointer(path)).collect();
        pointers.sort();
        assert_eq!(pointers, ["/by_name/a~1b~0c/type", "/items/1/type", "/maybe/type", "/wrapped/1/type"]);
        assert_eq!(json_pointer(&garde::Path::empty()), "");
        assert_eq!(json_pointer(&garde::Path::new("findings").join(0).join("id")), "/findings/0/id");
        assert_eq!(json_pointer(&garde::Path::new("r#type").join("r#x").join(2)), "/type/x/2");
        // No guessing: a name that merely ends in `_` is a JSON name too.
        assert_eq!(json_pointer(&garde::Path::new("ref_").join("x_").join("_")), "/ref_/x_/_");
        assert_eq!(json_pointer(&garde::Path::new("a").join("").join("b")), "/a//b");

        #[derive(garde::Validate)]
        struct Raw {
            #[garde(dive)]
            items: Vec<RawItem>,
        }
        let raw = Raw { items: vec![RawItem { r#type: "a".into() }, RawItem { r#type: String::new() }] };
        let report = raw.validate().unwrap_err();
        let pointers: Vec<String> = report.iter().map(|(path, _)| json_pointer(path)).collect();
        assert_eq!(pointers, ["/items/1/type"]);
    }

    /// `garde` 0.23 parses `rename` but never uses it (the derive drops the alias): the path
    /// names the Rust field. If this starts failing, `garde` honours `rename` now.
    #[test]
    fn garde_ignores_rename() {
        #[derive(garde::Validate)]
        struct Renamed {
            #[garde(rename("kind"), length(min = 1))]
            sort: String,
        }

        let report = Renamed { sort: String::new() }.validate().unwrap_err();
        let pointers: Vec<String> = report.iter().map(|(path, _)| json_pointer(path)).collect();
        assert_eq!(pointers, ["/sort"]);
    }

    // --- schemars transforms --------------------------------------------------------------

    #[cfg(feature = "schemars")]
    mod schemas {
        use schemars::{Schema, json_schema};
        use serde_json::json;

        use super::super::*;

        fn transformed(f: fn(&mut Schema), schema: serde_json::Value) -> serde_json::Value {
            let mut schema = Schema::try_from(schema).unwrap();
            f(&mut schema);
            schema.to_value()
        }

        #[test]
        fn nullable_adds_null() {
            assert_eq!(transformed(nullable, json!({"type": "string"})), json!({"type": ["string", "null"]}));
            assert_eq!(
                transformed(nullable, json!({"type": ["string", "integer"]})),
                json!({"type": ["string", "integer", "null"]})
            );
            assert_eq!(transformed(nullable, json!({"type": ["string", "null"]})), json!({"type": ["string", "null"]}));
            assert_eq!(
                transformed(nullable, json!({"type": "string", "enum": ["a", "b"]})),
                json!({"type": ["string", "null"], "enum": ["a", "b", null]})
            );
            assert_eq!(transformed(nullable, json!({"enum": ["a", "b"]})), json!({"enum": ["a", "b", null]}));
            assert_eq!(
                transformed(nullable, json!({"type": "string", "const": "x"})),
                json!({"type": ["string", "null"], "enum": ["x", null]})
            );
            assert_eq!(
                transformed(nullable, json!({"$ref": "#/definitions/Item", "description": "The item."})),
                json!({"description": "The item.", "anyOf": [{"$ref": "#/definitions/Item"}, {"type": "null"}]})
            );
            assert_eq!(
                transformed(nullable, json!({"type": "object", "allOf": [{"$ref": "#/definitions/Base"}]})),
                json!({"anyOf": [{"type": "object", "allOf": [{"$ref": "#/definitions/Base"}]}, {"type": "null"}]})
            );
            assert_eq!(transformed(nullable, json!({"description": "anything"})), json!({"description": "anything"}));
            assert_eq!(transformed(nullable, json!(true)), json!(true));
            assert_eq!(transformed(nullable, json!(false)), json!({"type": "null"}));
        }

        #[test]
        fn nullable_schemas_accept_null_and_what_they_accepted() {
            let definitions = json!({"Item": {"type": "object", "required": ["id"]}});
            for (schema, accepted) in [
                (json!({"type": "string", "enum": ["a"]}), json!("a")),
                (json!({"type": "string", "const": "a"}), json!("a")),
                (json!({"$ref": "#/definitions/Item"}), json!({"id": 1})),
            ] {
                let mut nullable_schema = transformed(nullable, schema);
                nullable_schema["definitions"] = definitions.clone();
                let validator = jsonschema::draft7::new(&nullable_schema).unwrap();
                assert!(validator.is_valid(&json!(null)), "{nullable_schema}");
                assert!(validator.is_valid(&accepted), "{nullable_schema}");
                assert!(!validator.is_valid(&json!(7)), "{nullable_schema}");
            }
        }

        #[test]
        fn keyword_transforms() {
            assert_eq!(
                transformed(extend_format_uri_reference, json!({"type": "string"})),
                json!({"type": "string", "format": "uri-reference"})
            );
            assert_eq!(
                transformed(unique, json!({"type": "array", "items": {"type": "string"}})),
                json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true})
            );
        }

        #[test]
        fn transforms_in_a_derived_schema() {
            #[derive(schemars::JsonSchema)]
            #[allow(dead_code)]
            struct Contract {
                accepted: True,
                #[schemars(transform = extend_format_uri_reference)]
                schema: String,
                #[schemars(transform = unique)]
                tags: Vec<String>,
                #[schemars(transform = nullable)]
                note: String,
            }

            let schema = schemars::schema_for!(Contract);
            let properties = &schema.as_value()["properties"];
            assert_eq!(properties["accepted"], json!({"type": "boolean", "const": true}));
            assert_eq!(properties["schema"], json!({"type": "string", "format": "uri-reference"}));
            assert_eq!(properties["tags"]["uniqueItems"], json!(true));
            assert_eq!(properties["note"], json!({"type": ["string", "null"]}));
            let _ = json_schema!(true);
        }
    }
}
