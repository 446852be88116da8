//! Envelope versions: the compatibility matrix of seed 001 ("Version Compatibility") and the
//! migration 1.0.0 → 1.1.0 of seed 000 §7.2. Migration is lossless: every field of the original
//! document is kept, and only `schema_version` changes.

use serde_json::Value;

pub use crate::version::{LATEST, SUPPORTED, Version, VersionError};

/// Whether a consumer of one version can read what a producer of another wrote (seed 001).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compatibility {
    /// Same minor version.
    Yes,
    /// A newer consumer reading an older producer.
    Backward,
    /// An older consumer reading a newer producer: it ignores (and keeps) the fields it does
    /// not know.
    IgnoresNewFields,
    /// Different major versions.
    No,
}

/// Seed 001's matrix: 1.0.x/1.0.x yes; 1.1.x reads 1.0.x (backward); 1.0.x reads 1.1.x
/// (ignoring new fields); 2.0.x does not read 1.x.x.
pub fn compatibility(consumer: Version, producer: Version) -> Compatibility {
    if consumer.major != producer.major {
        Compatibility::No
    } else if consumer.minor == producer.minor {
        Compatibility::Yes
    } else if consumer.minor > producer.minor {
        Compatibility::Backward
    } else {
        Compatibility::IgnoresNewFields
    }
}

/// The version of an envelope document, refusing any major version but 1.
pub fn envelope_version(document: &Value) -> Result<Version, VersionError> {
    let text = document.get("schema_version").and_then(Value::as_str).ok_or(VersionError::Missing)?;
    let version: Version = text.parse()?;
    if version.major != 1 {
        return Err(VersionError::UnsupportedMajor(text.to_owned()));
    }
    Ok(version)
}

/// An envelope version as validation reads it (the schema's pattern `^1\\.[0-9]+\\.[0-9]+$`,
/// leading zeros and numbers of any length allowed): whether it is 1.0.x (it begins `1.0.`, as
/// detection reads it), which migration rewrites, or a later 1.x, which it keeps. Any other
/// version is refused as [`envelope_version`] refuses it.
fn envelope_line(document: &Value) -> Result<bool, VersionError> {
    let text = document.get("schema_version").and_then(Value::as_str).ok_or(VersionError::Missing)?;
    let parts: Vec<&str> = text.split('.').collect();
    let numeric = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    if let [major, minor, patch] = parts[..]
        && numeric(major)
        && numeric(minor)
        && numeric(patch)
    {
        if major == "1" {
            // As detection tells the two schemas apart: `1.0.` begins a 1.0.x version.
            return Ok(minor == "0");
        }
        return Err(VersionError::UnsupportedMajor(text.to_owned()));
    }
    // Not a version validation takes: the strict reading says why.
    envelope_version(document).map(|version| version.minor == 0)
}

/// Migrates an envelope to `target` (only `"1.1.0"` is defined), keeping every field. A 1.1.x
/// (or later 1.x) document is returned unchanged; 2.x and malformed versions are refused. Every
/// version validation takes as 1.x is read as it reads it (`1.0.007` is a 1.0.x). Seed 000 §7.2
/// says to add `payload_schema_ref` and `workflow_state` as null; both are optional in 1.1.0 and
/// neither is nullable there, so they are left absent (docs/decisions.md D-105).
pub fn migrate(mut document: Value, target: &str) -> Result<Value, VersionError> {
    if target != LATEST {
        return Err(VersionError::UnknownTarget(target.to_owned()));
    }
    if !document.is_object() {
        return Err(VersionError::NotAnObject);
    }
    if !envelope_line(&document)? {
        return Ok(document);
    }
    if let Some(object) = document.as_object_mut() {
        object.insert("schema_version".to_owned(), Value::from(LATEST));
    }
    let report = crate::validation::Validator::new().validate_value(Some("session_context/v1.1.0"), &document);
    let schema_errors: Vec<String> = report
        .errors()
        .filter(|r| r.error_code.starts_with("SCH-"))
        .map(|r| format!("{} at {}: {}", r.error_code, r.path.as_deref().unwrap_or(""), r.message))
        .collect();
    if !schema_errors.is_empty() {
        return Err(VersionError::NotValidAfter { target: target.to_owned(), reasons: schema_errors.join("; ") });
    }
    Ok(document)
}

/// Migrates an envelope given as JSON text, changing nothing but what the migration says: the
/// result is the input text with the value of `schema_version` replaced, so every other member,
/// every number's text, the member order and the layout stay as they were. The same checks as
/// [`migrate`] apply; a 1.1.x document comes back unchanged.
pub fn migrate_text(json: &[u8], target: &str) -> Result<String, VersionError> {
    let document = crate::__private::read::value_from_slice(json)
        .map_err(|e| VersionError::NotJson(crate::__private::read::malformed(json, &e)))?;
    let text =
        std::str::from_utf8(json).map_err(|e| VersionError::NotJson(format!("the document is not UTF-8 text: {e}")))?;
    let before = if document.is_object() { envelope_line(&document) } else { Err(VersionError::NotAnObject) };
    migrate(document, target)?;
    if !before? {
        return Ok(text.to_owned());
    }
    // Where the top-level `schema_version` is written: the strict read above refused duplicates,
    // so there is one. Member names are read as strings (escapes and all); values are skipped.
    let old = version_text(text).ok_or(VersionError::Missing)?;
    // The raw value borrows from `text`: its offset there is where the version is written.
    let start = old.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + old.len();
    let new = serde_json::to_string(LATEST).map_err(|e| VersionError::NotJson(e.to_string()))?;
    Ok(format!("{}{new}{}", &text[..start], &text[end..]))
}

/// The raw text of the top-level `schema_version` member of the JSON object `text` (its name may
/// be written with escapes, such as `"schema\u005fversion"`).
fn version_text(text: &str) -> Option<&str> {
    use serde::de::{Deserializer as _, MapAccess, Visitor};
    struct Find;
    impl<'de> Visitor<'de> for Find {
        type Value = Option<&'de serde_json::value::RawValue>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                let raw: &'de serde_json::value::RawValue = map.next_value()?;
                if name == "schema_version" {
                    found = Some(raw);
                }
            }
            Ok(found)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    deserializer.deserialize_map(Find).ok().flatten().map(serde_json::value::RawValue::get)
}

/// JSON text without the whitespace between tokens (strings and numbers are kept as written),
/// for writing a document on one line.
pub fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(text: &str) -> Version {
        text.parse().unwrap_or(Version { major: 99, minor: 99, patch: 99 })
    }

    #[test]
    fn the_seed_matrix() {
        assert_eq!(compatibility(v("1.0.0"), v("1.0.3")), Compatibility::Yes);
        assert_eq!(compatibility(v("1.1.0"), v("1.0.0")), Compatibility::Backward);
        assert_eq!(compatibility(v("1.0.0"), v("1.1.0")), Compatibility::IgnoresNewFields);
        assert_eq!(compatibility(v("2.0.0"), v("1.1.0")), Compatibility::No);
    }

    #[test]
    fn compact_keeps_strings_and_numbers() {
        assert_eq!(compact("{ \"a b\" : [1.50, \"x \\\" y\" ]\n}"), "{\"a b\":[1.50,\"x \\\" y\"]}");
    }

    #[test]
    fn versions_parse_strictly() {
        assert_eq!(v("1.10.2"), Version { major: 1, minor: 10, patch: 2 });
        for bad in ["1.0", "1.0.0.0", "01.0.0", "1.x.0", "", "1..0", "1.0.0-rc.1", "1.0.0+b", " 1.0.0", "+1.0.0"] {
            assert!(bad.parse::<Version>().is_err(), "{bad}");
        }
    }

    #[test]
    fn migration_keeps_every_field_and_refuses_what_it_cannot_do() {
        let original = json!({
            "schema_version": "1.0.0", "session_id": "sess-1",
            "source_agent": {"id": "ps-analyst", "family": "ps"}, "target_agent": {"id": "nse-risk", "family": "nse"},
            "timestamp": "2026-01-10T14:30:00Z",
            "payload": {"key_findings": [], "confidence": {"overall": 0.7, "reasoning": "r"}, "vendor": 1},
            "x-extension": true
        });
        let migrated = migrate(original.clone(), "1.1.0").expect("migrates");
        let mut expected = original;
        expected["schema_version"] = json!("1.1.0");
        assert_eq!(migrated, expected);
        assert_eq!(migrate(migrated.clone(), "1.1.0").as_ref(), Ok(&migrated));
        let mut future = migrated;
        future["schema_version"] = json!("2.0.0");
        assert!(matches!(migrate(future, "1.1.0"), Err(VersionError::UnsupportedMajor(_))));
        assert!(matches!(migrate(json!({}), "1.1.0"), Err(VersionError::Missing)));
        assert!(matches!(migrate(json!({"schema_version": "1.0.0"}), "3.0.0"), Err(VersionError::UnknownTarget(_))));
    }
}
