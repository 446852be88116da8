//! Which schema a document follows, when the caller does not say: the envelope by its
//! `schema_version` and agents, a mission artifact by its `schema_name`, an agent output by its
//! `agent_id`; and the envelope's version policy (seed 001's compatibility matrix).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

use super::{codes, record};
use crate::common::ErrorRecord;
use crate::registry::{self, SchemaInfo};

/// What identifies a document's schema: the fields [`detect`] looks at.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Signals<'a> {
    schema_version: Option<Cow<'a, str>>,
    schema_name: Option<Cow<'a, str>>,
    agent_id: Option<Cow<'a, str>>,
    source_agent: Option<IgnoredAny>,
    target_agent: Option<IgnoredAny>,
    session_id: Option<IgnoredAny>,
}

impl<'a> Signals<'a> {
    /// The signals of a parsed document (`None` when it is not an object).
    pub(crate) fn of(value: &'a Value) -> Option<Self> {
        let object = value.as_object()?;
        let text = |key: &str| object.get(key).and_then(Value::as_str).map(Cow::Borrowed);
        let present = |key: &str| object.contains_key(key).then_some(IgnoredAny);
        Some(Self {
            schema_version: text("schema_version"),
            schema_name: text("schema_name"),
            agent_id: text("agent_id"),
            source_agent: present("source_agent"),
            target_agent: present("target_agent"),
            session_id: present("session_id"),
        })
    }

    /// The signals read straight from JSON bytes, skipping everything else (`None` when the bytes
    /// are not a JSON object with string-valued signals, or a signal is given twice).
    ///
    /// The probe stops reading once the answer is settled: an envelope's member and its
    /// `schema_version` have been seen (they decide before anything else can). What it does not
    /// read, the typed read that follows does, with the same verdict on a malformed or duplicate
    /// member as the complete path.
    pub(crate) fn probe(bytes: &'a [u8]) -> Option<Self> {
        match scan::signals(bytes) {
            Some(signals) => Some(signals),
            None => Self::read(bytes),
        }
    }

    /// [`Signals::probe`] through serde_json: exact on any input, and the judge of everything the
    /// scan leaves to it.
    fn read(bytes: &'a [u8]) -> Option<Self> {
        let mut signals = Signals::default();
        let mut stopped = false;
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        // The visitor stops early by failing; `stopped` tells that stop from a real failure.
        let read = deserializer.deserialize_map(Probe { signals: &mut signals, stopped: &mut stopped });
        let complete = read.is_ok() && deserializer.end().is_ok();
        (complete || stopped).then_some(signals)
    }

    /// Whether the signals seen so far decide [`detect`]'s answer whatever follows: an envelope
    /// member and the version.
    fn settled(&self) -> bool {
        self.schema_version.is_some()
            && (self.source_agent.is_some() || self.target_agent.is_some() || self.session_id.is_some())
    }

    /// The envelope's `schema_version`, if the document has one.
    pub(crate) fn schema_version(&self) -> Option<&str> {
        self.schema_version.as_deref()
    }
}

/// The quick form of [`Signals::probe`]: a structural scan of the top-level object that finds
/// member names and skips values without decoding them.
///
/// It answers only the plain case, where it is exact on valid JSON: names and string signals
/// without escapes, each signal once, a string where a string signal is expected. Anything else
/// (an escape, a repeat, a non-string signal, bytes that do not scan) is `None`, and the
/// serde_json probe decides. What the scan skips is not checked here: the typed read that follows
/// reads the whole document, so a malformed one still goes down the complete path.
pub(crate) mod scan {
    use std::borrow::Cow;

    use serde::de::IgnoredAny;

    use super::Signals;

    pub(super) fn signals<'a>(bytes: &'a [u8]) -> Option<Signals<'a>> {
        let mut signals = Signals::default();
        let mut at = expect(bytes, whitespace(bytes, 0), b'{')?;
        at = whitespace(bytes, at);
        if bytes.get(at) == Some(&b'}') {
            return Some(signals);
        }
        loop {
            let (name, after) = plain_string(bytes, at)?;
            at = whitespace(bytes, expect(bytes, whitespace(bytes, after), b':')?);
            let text = |slot: &mut Option<Cow<'a, str>>| -> Option<usize> {
                let (value, after) = plain_string(bytes, at)?;
                slot.replace(Cow::Borrowed(value)).is_none().then_some(after)
            };
            let present = |slot: &mut Option<IgnoredAny>| -> Option<usize> {
                slot.replace(IgnoredAny).is_none().then_some(())?;
                value_end(bytes, at)
            };
            at = match name {
                "schema_version" => text(&mut signals.schema_version)?,
                "schema_name" => text(&mut signals.schema_name)?,
                "agent_id" => text(&mut signals.agent_id)?,
                "source_agent" => present(&mut signals.source_agent)?,
                "target_agent" => present(&mut signals.target_agent)?,
                "session_id" => present(&mut signals.session_id)?,
                _ => value_end(bytes, at)?,
            };
            if signals.settled() {
                return Some(signals);
            }
            at = whitespace(bytes, at);
            match bytes.get(at)? {
                b',' => at = whitespace(bytes, at + 1),
                b'}' => return Some(signals),
                _ => return None,
            }
        }
    }

    /// The document's first member name, and its value when that is a plain string.
    pub(super) fn first_member(bytes: &[u8]) -> Option<(&str, Option<&str>)> {
        let at = whitespace(bytes, expect(bytes, whitespace(bytes, 0), b'{')?);
        let (name, after) = plain_string(bytes, at)?;
        let at = whitespace(bytes, expect(bytes, whitespace(bytes, after), b':')?);
        Some((name, plain_string(bytes, at).map(|(text, _)| text)))
    }

    /// The index of the first non-whitespace byte at or after `at`.
    pub(crate) fn whitespace(bytes: &[u8], mut at: usize) -> usize {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(at) {
            at += 1;
        }
        at
    }

    /// The index after `byte`, which must be at `at`.
    pub(crate) fn expect(bytes: &[u8], at: usize, byte: u8) -> Option<usize> {
        (bytes.get(at) == Some(&byte)).then_some(at + 1)
    }

    /// A string without escapes at `at`, and the index after it.
    pub(crate) fn plain_string(bytes: &[u8], at: usize) -> Option<(&str, usize)> {
        let start = expect(bytes, at, b'"')?;
        let end = start + memchr::memchr2(b'"', b'\\', bytes.get(start..)?)?;
        if bytes[end] != b'"' {
            return None;
        }
        Some((std::str::from_utf8(&bytes[start..end]).ok()?, end + 1))
    }

    /// The index after the string at `at` (escapes skipped, not decoded).
    pub(crate) fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
        let mut at = at + 1;
        loop {
            at += memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
            if bytes[at] == b'"' {
                return Some(at + 1);
            }
            at += 2;
        }
    }

    /// The index after the value at `at`: a string, an object or array (nesting counted, strings
    /// skipped), or a scalar (up to the next delimiter).
    pub(crate) fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
        match bytes.get(at)? {
            b'"' => string_end(bytes, at),
            b'{' | b'[' => {
                let mut depth = 0_usize;
                let mut at = at;
                loop {
                    match bytes.get(at)? {
                        b'"' => {
                            at = string_end(bytes, at)?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(at + 1);
                            }
                        }
                        _ => {}
                    }
                    at += 1;
                }
            }
            _ => {
                let rest = bytes.get(at..)?;
                let len = rest.iter().position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'));
                Some(at + len.unwrap_or(rest.len()))
            }
        }
    }
}

/// The visitor of [`Signals::read`]: reads the document's members, keeping the signals.
struct Probe<'s, 'a> {
    signals: &'s mut Signals<'a>,
    stopped: &'s mut bool,
}

impl<'a> Visitor<'a> for Probe<'_, 'a> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'a>>(self, mut map: A) -> Result<(), A::Error> {
        fn once<T, E: de::Error>(slot: &mut Option<T>, value: T, key: &str) -> Result<(), E> {
            match slot.replace(value) {
                None => Ok(()),
                Some(_) => Err(E::custom(format_args!("duplicate member {key:?}"))),
            }
        }
        let signals = &mut *self.signals;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::SchemaVersion => once(&mut signals.schema_version, map.next_value_seed(Text)?, "schema_version")?,
                Key::SchemaName => once(&mut signals.schema_name, map.next_value_seed(Text)?, "schema_name")?,
                Key::AgentId => once(&mut signals.agent_id, map.next_value_seed(Text)?, "agent_id")?,
                Key::SourceAgent => once(&mut signals.source_agent, map.next_value()?, "source_agent")?,
                Key::TargetAgent => once(&mut signals.target_agent, map.next_value()?, "target_agent")?,
                Key::SessionId => once(&mut signals.session_id, map.next_value()?, "session_id")?,
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            if signals.settled() {
                *self.stopped = true;
                return Err(de::Error::custom("the schema is settled"));
            }
        }
        Ok(())
    }
}

/// A member name, as far as the probe cares.
enum Key {
    SchemaVersion,
    SchemaName,
    AgentId,
    SourceAgent,
    TargetAgent,
    SessionId,
    Other,
}

impl<'a> de::Deserialize<'a> for Key {
    fn deserialize<D: Deserializer<'a>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl Visitor<'_> for KeyVisitor {
            type Value = Key;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "schema_version" => Key::SchemaVersion,
                    "schema_name" => Key::SchemaName,
                    "agent_id" => Key::AgentId,
                    "source_agent" => Key::SourceAgent,
                    "target_agent" => Key::TargetAgent,
                    "session_id" => Key::SessionId,
                    _ => Key::Other,
                })
            }
        }

        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// A string signal, borrowed from the bytes unless it holds an escape.
struct Text;

impl<'a> DeserializeSeed<'a> for Text {
    type Value = Cow<'a, str>;

    fn deserialize<D: Deserializer<'a>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'a> Visitor<'a> for Text {
    type Value = Cow<'a, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'a str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(text))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(text.to_owned()))
    }
}

/// The schema a document with these signals follows, or an SCH-011 record saying why none could
/// be told.
pub(crate) fn detect(signals: Option<&Signals<'_>>) -> Result<&'static SchemaInfo, Box<ErrorRecord>> {
    let Some(signals) = signals else {
        return Err(Box::new(record(&codes::SCH_UNKNOWN_SCHEMA, "", "a contract document is a JSON object")));
    };
    let is_envelope = signals.source_agent.is_some() || signals.target_agent.is_some() || signals.session_id.is_some();
    if is_envelope {
        let version = signals.schema_version().unwrap_or("1.1.0");
        let v1_0 = version.starts_with("1.0.");
        let name = if v1_0 { "session_context/v1.0.0" } else { "session_context/v1.1.0" };
        return envelope(v1_0).ok_or_else(|| Box::new(record(&codes::SCH_UNKNOWN_SCHEMA, "", name)));
    }
    if let Some(name) = signals.schema_name.as_deref() {
        return registry::schemas().iter().find(|s| s.schema_name.as_deref() == Some(name)).ok_or_else(|| {
            Box::new(record(
                &codes::SCH_UNKNOWN_SCHEMA,
                "/schema_name",
                format!("no mission artifact is named {:?}", brief(name)),
            ))
        });
    }
    if let Some(agent) = signals.agent_id.as_deref() {
        return registry::by_agent(agent).ok_or_else(|| {
            Box::new(record(
                &codes::SCH_UNKNOWN_SCHEMA,
                "/agent_id",
                format!("no output schema for agent {:?}", brief(agent)),
            ))
        });
    }
    Err(Box::new(record(
        &codes::SCH_UNKNOWN_SCHEMA,
        "",
        "cannot tell which schema the document follows (no schema_version, schema_name or agent_id); name it",
    )))
}

/// The envelope schema of version 1.0 (`true`) or 1.1, looked up once: every envelope asks.
pub(crate) fn envelope(v1_0: bool) -> Option<&'static SchemaInfo> {
    static ENVELOPES: std::sync::OnceLock<[Option<&'static SchemaInfo>; 2]> = std::sync::OnceLock::new();
    let [old, new] = ENVELOPES
        .get_or_init(|| [registry::lookup("session_context/v1.0.0"), registry::lookup("session_context/v1.1.0")]);
    if v1_0 { *old } else { *new }
}

/// Whether the document's first member is one only an envelope has (`schema_version` other than
/// 1.0.x, `session_id`, the agents, `payload`, `payload_schema_ref`): worth reading as a v1.1.0
/// envelope before anything else (see `Validator::fast`).
pub(crate) fn opens_as_envelope(bytes: &[u8]) -> bool {
    scan::first_member(bytes).is_some_and(|(name, text)| match name {
        "schema_version" => text.is_some_and(|version| !version.starts_with("1.0.")),
        "session_id" | "source_agent" | "target_agent" | "payload" | "payload_schema_ref" => true,
        _ => false,
    })
}

/// At most 80 characters of a value quoted in a message (a hostile document may hold megabytes).
fn brief(text: &str) -> String {
    crate::shorten::shortened(text, 80)
}

/// Seed 001 "Version Compatibility": a 1.x envelope is read (a 1.0 consumer ignores what 1.1
/// adds); any other major version is refused before the schema is applied. A version that is
/// not `MAJOR.MINOR.PATCH` at all is left to the schema's pattern.
pub(crate) fn version_check(info: &SchemaInfo, version: Option<&str>) -> Option<ErrorRecord> {
    if !info.path.starts_with("session_context/") {
        return None;
    }
    let version = version?;
    let parsed: crate::version::Version = version.parse().ok()?;
    (parsed.major != 1).then(|| {
        super::with_values(
            record(
                &codes::SCH_VERSION,
                "/schema_version",
                format!("version {version} is not 1.x; this consumer reads 1.0.x and 1.1.x envelopes"),
            ),
            Some(Value::from("1.x.y")),
            Some(Value::from(version)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan answers as the serde_json probe does, or leaves the answer to it; on bytes that
    /// are not JSON its answer does not matter (the typed read refuses them).
    fn agree(bytes: &[u8]) -> bool {
        let scanned = scan::signals(bytes);
        let read = Signals::read(bytes);
        match (&scanned, &read) {
            (None, _) => true,
            (Some(s), Some(r)) if s == r => true,
            _ => serde_json::from_slice::<IgnoredAny>(bytes).is_err(),
        }
    }

    fn documents(dir: &std::path::Path, out: &mut Vec<Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                documents(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.extend(std::fs::read(&path));
            }
        }
    }

    #[test]
    fn the_scan_agrees_with_the_serde_probe() {
        let mut corpus = Vec::new();
        documents(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut corpus);
        assert!(corpus.len() > 500, "fixtures found: {}", corpus.len());
        let mut answered = 0;
        for bytes in &corpus {
            // As written, compact with sorted members (payload first), and with members reversed.
            let mut variants = vec![bytes.clone()];
            if let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(bytes) {
                variants.extend(serde_json::to_vec(&object).ok());
                let reversed: Vec<String> =
                    object.iter().rev().map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), v)).collect();
                variants.push(format!("{{ {} }}", reversed.join(" ,\n")).into_bytes());
            }
            for variant in &variants {
                assert!(agree(variant), "{}", String::from_utf8_lossy(variant));
                answered += usize::from(scan::signals(variant).is_some());
            }
        }
        assert!(answered * 10 > corpus.len() * 25, "the scan answers most documents: {answered}");
        for case in [
            &br#"{"schema_version": "1.1.0", "session_id": "s"}"#[..],
            br#"{"payload": {"schema_version": "9", "x": ["}", "\"", {"a": [1, 2]}]}, "session_id": 1, "schema_version": "1.0.0"}"#,
            br#"{"schema\u005fversion": "1.0.0", "session_id": "s"}"#,
            br#"{"schema_version": "1.\u0030.0", "session_id": "s"}"#,
            br#"{"schema_version": 1, "session_id": "s"}"#,
            br#"{"agent_id": "ps-researcher", "agent_id": "ps-analyst"}"#,
            br#"{"session_id": "a", "session_id": "b", "schema_version": "1.1.0"}"#,
            br#"{"agent_id": "ps-researcher", "n": -1.5e3, "t": true, "z": null}"#,
            br#" { } "#,
            br#"[]"#,
            br#"{"a": "unterminated"#,
            br#"{"a": [[[["#,
            br#"{"a" 1}"#,
            b"",
        ] {
            assert!(agree(case), "{}", String::from_utf8_lossy(case));
        }
        let sorted = br#"{"payload": {"agent_id": "x"}, "schema_version": "1.0.0", "session_id": "s", "z": ["#;
        let signals = scan::signals(sorted);
        assert_eq!(signals.as_ref().and_then(Signals::schema_version), Some("1.0.0"), "settled before the end");
        // Escapes and brackets inside skipped strings do not derail the scan.
        let escaped = br#"{"payload": {"a": "\"}, \"schema_version\": \"2\"", "b": ["\\", "]}{"]}, "schema_version": "1.1.0", "target_agent": {}}"#;
        let signals = scan::signals(escaped);
        assert_eq!(signals.as_ref().and_then(Signals::schema_version), Some("1.1.0"));
        assert!(agree(escaped));
    }
}
