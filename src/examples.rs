//! Example documents generated from the schemas: every required field, and every optional field
//! that is not a list or a map, filled with a value that meets its constraints (a string matching
//! its pattern, a number within its bounds, the first enum value, the constant); lists have their
//! minimum number of items. An optional field whose placeholder value a validation rule rejects
//! (a `payload_schema_ref` naming no schema, say) is left out. The test suite holds every
//! generated example to all four validation layers.

use serde_json::{Map, Value, json};

use crate::registry::{self, SchemaInfo};

/// Why no example could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExampleError {
    /// No schema has that name.
    #[error("no schema is named {0:?}")]
    UnknownSchema(String),
    /// The schema uses a construct the generator cannot satisfy.
    #[error("{schema}#{pointer}: cannot generate a value: {reason}")]
    Unsupported {
        /// Schema path.
        schema: String,
        /// JSON Pointer of the construct.
        pointer: String,
        /// What is in the way.
        reason: String,
    },
}

/// A valid document of the schema named `name` (any name [`registry::lookup`] takes).
pub fn example(name: &str) -> Result<Value, ExampleError> {
    let info = registry::lookup(name).ok_or_else(|| ExampleError::UnknownSchema(name.to_owned()))?;
    let mut document = Generator { depth: 0 }.value(info, "", &info.document)?;
    // An envelope example says the version it is an example of (the shared 1.x.y pattern's
    // shortest match is 1.0.0, which would make a v1.1.0 example read as a v1.0.0 envelope).
    if let (Some(version), Some(object)) = (envelope_version(info), document.as_object_mut()) {
        object.insert("schema_version".to_owned(), Value::from(version));
    }
    // Leave out optional placeholders a rule rejects; a field the schema requires stays.
    let validator = crate::validation::Validator::new();
    for _ in 0..8 {
        let report = validator.validate_value(Some(info.name), &document);
        let mut removed = false;
        for record in report.errors() {
            let Some(pointer) = record.path.as_deref().filter(|p| !p.is_empty()) else { continue };
            let mut trial = document.clone();
            if remove(&mut trial, pointer)
                && validator.validate_value(Some(info.name), &trial).codes().iter().all(|c| *c != "SCH-001")
            {
                document = trial;
                removed = true;
                break;
            }
        }
        if !removed {
            break;
        }
    }
    Ok(document)
}

/// The version of an envelope schema (`session_context/v1.1.0` → `1.1.0`).
fn envelope_version(info: &SchemaInfo) -> Option<&'static str> {
    info.name.strip_prefix("session_context/v")
}

/// Removes the value at `pointer` from its parent object; false when there is none.
fn remove(document: &mut Value, pointer: &str) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else { return false };
    let Ok(key) = jerry_contracts_pointer::unescape(last) else { return false };
    document.pointer_mut(parent).and_then(Value::as_object_mut).is_some_and(|o| o.remove(key.as_ref()).is_some())
}

struct Generator {
    depth: usize,
}

impl Generator {
    fn value(&mut self, info: &'static SchemaInfo, pointer: &str, node: &Value) -> Result<Value, ExampleError> {
        let unsupported = |reason: &str| ExampleError::Unsupported {
            schema: info.path.to_owned(),
            pointer: pointer.to_owned(),
            reason: reason.to_owned(),
        };
        if self.depth > 64 {
            return Err(unsupported("the schema nests deeper than 64 levels"));
        }
        let Some(map) = node.as_object() else { return Ok(Value::Null) };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let (target, target_pointer) = resolve(info, reference).ok_or_else(|| unsupported("unresolved $ref"))?;
            let sub = target.document.pointer(&target_pointer).ok_or_else(|| unsupported("unresolved $ref"))?;
            self.depth += 1;
            let result = self.value(target, &target_pointer, sub);
            self.depth -= 1;
            return result;
        }
        if let Some(constant) = map.get("const") {
            return Ok(constant.clone());
        }
        if let Some(first) = map.get("enum").and_then(Value::as_array).and_then(|e| e.iter().find(|v| !v.is_null())) {
            return Ok(first.clone());
        }
        if let Some(otherwise) = map.get("else") {
            // The dispatch shape: the fallback branch takes any payload without an agent's id.
            return self.value(info, &format!("{pointer}/else"), otherwise);
        }
        let kind = match map.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(types)) => {
                types.iter().filter_map(Value::as_str).find(|t| *t != "null").unwrap_or("null")
            }
            _ if map.contains_key("properties") => "object",
            _ => return Ok(json!({})),
        };
        match kind {
            "object" => {
                let mut object = Map::new();
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let properties = map.get("properties").and_then(Value::as_object);
                for (name, sub) in properties.into_iter().flatten() {
                    if !required.contains(&name.as_str()) && !fills_optional(info, sub) {
                        continue;
                    }
                    self.depth += 1;
                    let value = self.value(info, &format!("{pointer}/properties/{name}"), sub);
                    self.depth -= 1;
                    object.insert(name.clone(), value?);
                }
                Ok(Value::Object(object))
            }
            "array" => {
                let count = map.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                let items = map.get("items").cloned().unwrap_or(json!({}));
                let mut values: Vec<Value> = Vec::new();
                for index in 0..count {
                    self.depth += 1;
                    let value = self.value(info, &format!("{pointer}/items"), &items);
                    self.depth -= 1;
                    let mut value = value?;
                    if values.contains(&value) && map.get("uniqueItems") == Some(&Value::Bool(true)) {
                        value = distinct(info, &items, index as usize)
                            .ok_or_else(|| unsupported("cannot make distinct items"))?;
                    }
                    values.push(value);
                }
                Ok(Value::Array(values))
            }
            "string" => string(map).ok_or_else(|| unsupported("no string meets the pattern and length together")),
            "integer" | "number" => {
                let minimum = map.get("minimum").and_then(Value::as_f64).unwrap_or(0.0);
                let maximum = map.get("maximum").and_then(Value::as_f64).unwrap_or(f64::MAX);
                let value = if minimum <= 0.0 && maximum >= 0.0 { 0.0 } else { minimum };
                Ok(if kind == "integer" { json!(value.ceil() as i64) } else { json!(value) })
            }
            "boolean" => Ok(Value::Bool(false)),
            "null" => Ok(Value::Null),
            other => Err(unsupported(&format!("type {other}"))),
        }
    }
}

/// The `index`-th variant of a string item, for lists whose items must differ.
fn distinct(info: &'static SchemaInfo, items: &Value, index: usize) -> Option<Value> {
    let resolved = items
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(info, r))
        .and_then(|(target, pointer)| target.document.pointer(&pointer).cloned());
    let node = resolved.as_ref().unwrap_or(items).as_object()?;
    let text = match node.get("pattern").and_then(Value::as_str) {
        Some(pattern) => shortest_variant(pattern, index)?,
        None => format!("example {}", index + 1),
    };
    Some(Value::String(text))
}

/// Whether an optional property is filled: anything but a list, a map or an untyped value.
fn fills_optional(info: &'static SchemaInfo, node: &Value) -> bool {
    let resolved = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(info, r))
        .and_then(|(target, pointer)| target.document.pointer(&pointer).cloned());
    let node = resolved.as_ref().unwrap_or(node);
    let kind = node.get("type");
    let is = |t: &str| kind.is_some_and(|k| k == t || k.as_array().is_some_and(|a| a.contains(&Value::from(t))));
    if is("array") || (is("object") && node.get("properties").is_none()) {
        return false;
    }
    kind.is_some() || node.get("properties").is_some() || node.get("enum").is_some() || node.get("const").is_some()
}

fn resolve(info: &'static SchemaInfo, reference: &str) -> Option<(&'static SchemaInfo, String)> {
    registry::resolve(info, reference).ok()
}

fn string(map: &Map<String, Value>) -> Option<Value> {
    let text = match map.get("format").and_then(Value::as_str) {
        Some("date") => "2026-01-10".to_owned(),
        Some("date-time") => "2026-01-10T14:30:00Z".to_owned(),
        Some("uuid") => "3f2b8c1e-9a4d-4e7b-b6c2-5d1e8f0a7c93".to_owned(),
        Some("uri") => "https://jerry.dev/".to_owned(),
        _ => match map.get("pattern").and_then(Value::as_str) {
            Some(pattern) => shortest_match(pattern)?,
            None => "example".to_owned(),
        },
    };
    let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = map.get("maxLength").and_then(Value::as_u64).map_or(usize::MAX, |m| m as usize);
    let mut text = text;
    if text.chars().count() < min {
        if map.contains_key("pattern") {
            return None;
        }
        text.extend(std::iter::repeat_n('x', min - text.chars().count()));
    }
    if text.chars().count() > max {
        if map.contains_key("pattern") {
            return None;
        }
        text = text.chars().take(max).collect();
    }
    Some(Value::String(text))
}

/// The shortest string an ECMA-262 pattern of the simple kind the corpus uses matches: literals,
/// escapes (`\d`, `\w`, `\s`, `\.`), classes (`[A-Z]`, `[^/]`), groups, alternation, anchors and
/// the quantifiers `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`. `None` for anything else.
pub fn shortest_match(pattern: &str) -> Option<String> {
    shortest_variant(pattern, 0)
}

/// Like [`shortest_match`], with the first character class (or `\d`) taking its `variant`-th
/// character, so that different variants give different strings.
pub fn shortest_variant(pattern: &str, variant: usize) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut parser = Parser { chars: &chars, at: 0, variant };
    let text = parser.alternation()?;
    (parser.at == chars.len()).then_some(text)
}

struct Parser<'a> {
    chars: &'a [char],
    at: usize,
    /// Taken by the first class or digit escape, then zero.
    variant: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn alternation(&mut self) -> Option<String> {
        let mut best = self.sequence()?;
        while self.peek() == Some('|') {
            self.at += 1;
            let other = self.sequence()?;
            if other.chars().count() < best.chars().count() {
                best = other;
            }
        }
        Some(best)
    }

    fn sequence(&mut self) -> Option<String> {
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let times = self.quantifier()?;
            for _ in 0..times {
                text.push_str(&atom);
            }
        }
        Some(text)
    }

    fn atom(&mut self) -> Option<String> {
        let c = self.peek()?;
        self.at += 1;
        match c {
            '^' | '$' => Some(String::new()),
            '.' => Some("a".to_owned()),
            '(' => {
                if self.chars.get(self.at..self.at + 2) == Some(&['?', ':']) {
                    self.at += 2;
                }
                let inner = self.alternation()?;
                (self.peek() == Some(')')).then(|| self.at += 1)?;
                Some(inner)
            }
            '[' => self.class().map(String::from),
            '\\' => {
                let escaped = self.peek()?;
                self.at += 1;
                Some(
                    match escaped {
                        'd' => char::from(b'0' + (std::mem::take(&mut self.variant) % 10) as u8),
                        'w' => 'a',
                        's' => ' ',
                        'D' | 'W' | 'S' => 'a',
                        other => other,
                    }
                    .to_string(),
                )
            }
            '*' | '+' | '?' | '{' | ')' | '|' => None,
            literal => Some(literal.to_string()),
        }
    }

    /// A character the class `[...]` (opening bracket consumed) allows.
    fn class(&mut self) -> Option<char> {
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut ranges: Vec<(char, char)> = Vec::new();
        loop {
            let c = self.peek()?;
            self.at += 1;
            if c == ']' {
                break;
            }
            let low = if c == '\\' {
                let escaped = self.peek()?;
                self.at += 1;
                match escaped {
                    'd' => {
                        ranges.push(('0', '9'));
                        continue;
                    }
                    'w' => {
                        ranges.extend([('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')]);
                        continue;
                    }
                    's' => {
                        ranges.push((' ', ' '));
                        continue;
                    }
                    other => other,
                }
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|n| *n != ']') {
                self.at += 1;
                let high = self.peek()?;
                self.at += 1;
                ranges.push((low, high));
            } else {
                ranges.push((low, low));
            }
        }
        let variant = std::mem::take(&mut self.variant);
        if negated {
            ('a'..='z').chain('0'..='9').filter(|c| !ranges.iter().any(|(l, h)| (*l..=*h).contains(c))).nth(variant)
        } else {
            ranges.iter().flat_map(|(low, high)| *low..=*high).nth(variant)
        }
    }

    /// How many times to repeat the atom for the shortest match.
    fn quantifier(&mut self) -> Option<usize> {
        match self.peek() {
            Some('?' | '*') => {
                self.at += 1;
                Some(0)
            }
            Some('+') => {
                self.at += 1;
                Some(1)
            }
            Some('{') => {
                self.at += 1;
                let mut digits = String::new();
                while let Some(c) = self.peek().filter(char::is_ascii_digit) {
                    digits.push(c);
                    self.at += 1;
                }
                while self.peek().is_some_and(|c| c != '}') {
                    self.at += 1;
                }
                self.at += 1;
                digits.parse().ok()
            }
            _ => Some(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_matches_of_the_corpus_patterns() {
        for (pattern, expected) in [
            ("^F-[0-9]{3}$", "F-000"),
            ("^REQ-[A-Z]{3}-\\d{3}$", "REQ-AAA-000"),
            ("^(ps|nse|orch)-[a-z]+(-[a-z]+)*$", "ps-a"),
            ("^≤?\\d+m$", "0m"),
            (".*shall.*", "shall"),
            ("^sha256:[a-f0-9]{64}$", &format!("sha256:{}", "a".repeat(64))),
            ("^(/|\\./|~/)", "/"),
            ("^[^/\\\\:.][^/\\\\:]*$", "a"),
        ] {
            assert_eq!(shortest_match(pattern).as_deref(), Some(expected), "{pattern}");
        }
        assert_eq!(shortest_match("^(a"), None);
    }

    #[test]
    fn unknown_schemas_are_named() {
        assert_eq!(
            example("agents/ps/critic_output"),
            Err(ExampleError::UnknownSchema("agents/ps/critic_output".into()))
        );
    }
}
