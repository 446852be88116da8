//! Boundary cases, found and made from the schemas: [`sites`] walks a document together with
//! its schema and lists, for every constraint of the corpus that applies to some value of the
//! document, where it applies; [`candidates`] proposes values exactly at a constraint's limit
//! and values one step past it (one character off a pattern, one past a length, count or
//! range, a format one step wrong, an enum value or constant one letter off). The boundary
//! test keeps, per constraint, the candidates the reference validator judges as intended.
#![allow(dead_code, clippy::expect_used, clippy::unwrap_used, missing_docs)]

use jerry_contracts_codegen::model::{Keyword, Layer};
use jerry_contracts_codegen::{Constraint, Corpus};
use serde_json::{Value, json};

/// Where one constraint applies in one document.
#[derive(Debug, Clone)]
pub struct Site {
    /// The constraint's id.
    pub constraint: String,
    /// Its keyword.
    pub keyword: String,
    /// The keyword's value (for `required`, the property name).
    pub limit: Value,
    /// Whether the schema object holding the keyword says `"type": "integer"`.
    pub integer: bool,
    /// The schema object holding the keyword (for the other keywords beside it).
    pub schema: Value,
    /// JSON Pointer of the constrained value (for `required`, of the required member).
    pub pointer: String,
    /// The value there.
    pub value: Value,
}

/// Judges a value against the schema at a URI (`$id#pointer`): used for `if` conditions.
pub type Holds<'a> = dyn Fn(&str, &Value) -> bool + 'a;

/// Every place in `document` where a constraint applies, when `document` is judged against the
/// schema at `pointer` in `file`.
pub fn sites(corpus: &Corpus, holds: &Holds<'_>, file: &str, pointer: &str, document: &Value) -> Vec<Site> {
    let node = corpus.get(file).and_then(|s| s.document.pointer(pointer)).cloned().expect("schema node");
    let mut out = Vec::new();
    let walk = Walk { corpus, holds };
    walk.visit(file, pointer, &node, document, "", &mut out, 0);
    out
}

struct Walk<'a> {
    corpus: &'a Corpus,
    holds: &'a Holds<'a>,
}

impl Walk<'_> {
    #[allow(clippy::too_many_arguments)]
    fn visit(
        &self,
        file: &str,
        pointer: &str,
        node: &Value,
        instance: &Value,
        at: &str,
        out: &mut Vec<Site>,
        depth: usize,
    ) {
        assert!(depth < 64, "{file}#{pointer}: schema too deep");
        let corpus = self.corpus;
        let Some(map) = node.as_object() else { return };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let (target_file, target_pointer) = corpus.resolve(file, reference).expect("resolves");
            let target = corpus.get(&target_file).and_then(|s| s.document.pointer(&target_pointer)).cloned().unwrap();
            self.visit(&target_file, &target_pointer, &target, instance, at, out, depth + 1);
            return;
        }
        let integer = map.get("type") == Some(&json!("integer"));
        let site = |keyword: Keyword, limit: &Value, pointer_in_doc: String, value: &Value| {
            let constraint = Constraint {
                schema: file.to_owned(),
                pointer: pointer.to_owned(),
                keyword,
                value: limit.clone(),
                layer: Layer::Schema,
                source: None,
            };
            Site {
                constraint: constraint.id(),
                keyword: keyword.to_string(),
                limit: limit.clone(),
                integer,
                schema: node.clone(),
                pointer: pointer_in_doc,
                value: value.clone(),
            }
        };
        for keyword in Keyword::assertions() {
            let Some(limit) = map.get(keyword.as_str()) else { continue };
            let applies = match keyword.as_str() {
                "pattern" | "format" | "minLength" | "maxLength" => instance.is_string(),
                "minimum" | "maximum" => instance.is_number(),
                "minItems" | "maxItems" => instance.is_array(),
                "uniqueItems" => instance.is_array() && limit == &Value::Bool(true),
                _ => true,
            };
            if applies {
                out.push(site(keyword, limit, at.to_owned(), instance));
            }
        }
        if let Some(object) = instance.as_object() {
            for name in map.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                if let Some(member) = object.get(name) {
                    out.push(site(
                        Keyword::Required,
                        &json!(name),
                        format!("{at}/{}", jerry_contracts_pointer::escape(name)),
                        member,
                    ));
                }
            }
            let declared = map.get("properties").and_then(Value::as_object);
            for (name, member) in object {
                let here = format!("{at}/{}", jerry_contracts_pointer::escape(name));
                match declared.and_then(|d| d.get(name)) {
                    Some(sub) => {
                        let sub_pointer = format!("{pointer}/properties/{}", jerry_contracts_pointer::escape(name));
                        self.visit(file, &sub_pointer, sub, member, &here, out, depth + 1);
                    }
                    None => {
                        if let Some(sub) = map.get("additionalProperties").filter(|a| a.is_object()) {
                            let sub_pointer = format!("{pointer}/additionalProperties");
                            self.visit(file, &sub_pointer, sub, member, &here, out, depth + 1);
                        }
                    }
                }
            }
        }
        if let (Some(items), Some(elements)) = (map.get("items").filter(|i| i.is_object()), instance.as_array()) {
            for (i, element) in elements.iter().enumerate() {
                self.visit(file, &format!("{pointer}/items"), items, element, &format!("{at}/{i}"), out, depth + 1);
            }
        }
        for (i, sub) in map.get("allOf").and_then(Value::as_array).into_iter().flatten().enumerate() {
            self.visit(file, &format!("{pointer}/allOf/{i}"), sub, instance, at, out, depth + 1);
        }
        if map.contains_key("if") {
            // The condition is judged in place (it may hold `$ref`s), then one branch applies.
            let id = corpus.get(file).map(|s| s.id.clone()).unwrap_or_default();
            let holds = (self.holds)(&format!("{id}#{pointer}/if"), instance);
            let branch = if holds { "then" } else { "else" };
            if let Some(sub) = map.get(branch) {
                self.visit(file, &format!("{pointer}/{branch}"), sub, instance, at, out, depth + 1);
            }
        }
    }
}

/// One proposed value: what it is for people, and the value.
pub type Candidate = (String, Value);

/// Values at the limit of `site`'s constraint (to be accepted) and values one step past it (to
/// be rejected by that constraint alone), best first. `required` has neither: its invalid case
/// removes the member.
pub fn candidates(site: &Site) -> (Vec<Candidate>, Vec<Candidate>) {
    let text = site.value.as_str().unwrap_or_default();
    let chars: Vec<char> = text.chars().collect();
    let count = |key: &str| {
        site.limit.as_u64().map(|n| n as usize).or_else(|| site.schema.get(key)?.as_u64().map(|n| n as usize))
    };
    match site.keyword.as_str() {
        "pattern" => {
            let pattern = site.limit.as_str().unwrap_or_default();
            let mut invalid = Vec::new();
            if pattern.contains("\\d")
                && let Some(i) = chars.iter().rposition(char::is_ascii_digit)
            {
                invalid.push((
                    "an Arabic-Indic digit where \\d wants an ASCII one".to_owned(),
                    replaced(&chars, i, '\u{0661}'),
                ));
            }
            for i in (0..chars.len()).rev() {
                invalid.push((format!("character {} deleted", i + 1), removed(&chars, i)));
            }
            for extra in ['#', '0', 'a', 'A', '-'] {
                invalid.push((format!("{extra:?} appended"), Value::from(format!("{text}{extra}"))));
            }
            for i in (0..chars.len()).rev() {
                let other = if chars[i].is_ascii_digit() {
                    'x'
                } else if chars[i].is_alphabetic() {
                    '7'
                } else {
                    'x'
                };
                invalid.push((format!("character {} replaced by {other:?}", i + 1), replaced(&chars, i, other)));
                invalid.push((format!("character {} replaced by '#'", i + 1), replaced(&chars, i, '#')));
            }
            invalid.push(("'#' prepended".to_owned(), Value::from(format!("#{text}"))));
            (vec![("the fixture's matching value".to_owned(), site.value.clone())], invalid)
        }
        "minLength" | "maxLength" => {
            let limit = count(&site.keyword).unwrap_or(0);
            let past = if site.keyword == "minLength" { limit.checked_sub(1) } else { Some(limit + 1) };
            let past = past.map(|n| sized(&chars, n));
            let valid = vec![(format!("exactly {limit} characters"), sized(&chars, limit))];
            let shown = if site.keyword == "minLength" { limit.saturating_sub(1) } else { limit + 1 };
            let invalid =
                past.into_iter().map(|v| (format!("{shown} characters, past {} {limit}", site.keyword), v)).collect();
            (valid, invalid)
        }
        "minimum" | "maximum" => {
            let limit = site.limit.as_f64().unwrap_or(0.0);
            let up = site.keyword == "maximum";
            let (at, past) = if site.integer {
                let limit = limit as i64;
                (json!(limit), json!(if up { limit + 1 } else { limit - 1 }))
            } else {
                let next = if up { next_up(limit) } else { next_down(limit) };
                (site.limit.clone(), json!(next))
            };
            let rule = format!("{past}, just past {} {}", site.keyword, site.limit);
            (vec![(format!("exactly {}", site.limit), at)], vec![(rule, past)])
        }
        "minItems" | "maxItems" => {
            let items = site.value.as_array().cloned().unwrap_or_default();
            let limit = count(&site.keyword).unwrap_or(0);
            let past = if site.keyword == "minItems" { limit.checked_sub(1) } else { Some(limit + 1) };
            let valid = resized(&items, limit).map(|v| (format!("exactly {limit} items"), v)).into_iter().collect();
            let invalid = past
                .and_then(|n| resized(&items, n).map(|v| (format!("{n} items, past {} {limit}", site.keyword), v)))
                .into_iter()
                .collect();
            (valid, invalid)
        }
        "uniqueItems" => {
            let items = site.value.as_array().cloned().unwrap_or_default();
            let Some(first) = items.first().cloned() else { return (Vec::new(), Vec::new()) };
            let mut duplicated = items.clone();
            duplicated.push(first.clone());
            let mut valid = Vec::new();
            if let Some(text) = first.as_str() {
                let near: Vec<char> = text.chars().collect();
                for i in (0..near.len()).rev() {
                    let mut distinct = items.clone();
                    distinct.push(replaced(&near, i, if near[i] == 'x' { 'y' } else { 'x' }));
                    valid.push((
                        format!("a first item's near twin (character {} changed)", i + 1),
                        Value::Array(distinct),
                    ));
                }
            }
            if items.len() > 1 {
                valid.push(("distinct items".to_owned(), site.value.clone()));
            }
            (valid, vec![("the first item repeated".to_owned(), Value::Array(duplicated))])
        }
        "format" => formats(site.limit.as_str().unwrap_or_default(), text),
        "enum" => {
            let values = site.limit.as_array().cloned().unwrap_or_default();
            let valid = values
                .iter()
                .rev()
                .filter(|v| *v != &site.value)
                .chain([&site.value])
                .map(|v| (format!("{v}, listed"), v.clone()))
                .collect();
            (valid, off_by_one_letter(&site.value))
        }
        "const" => (vec![("the constant".to_owned(), site.limit.clone())], off_by_one_letter(&site.limit)),
        _ => (Vec::new(), Vec::new()),
    }
}

fn formats(format: &str, text: &str) -> (Vec<Candidate>, Vec<Candidate>) {
    let c = |rule: &str, value: &str| (rule.to_owned(), Value::from(value));
    match format {
        "date" => (
            vec![c("a leap day", "2024-02-29"), c("the fixture's date", text)],
            vec![
                c("29 February of a common year", "2023-02-29"),
                c("day 32", "2026-01-32"),
                c("month 13", "2026-13-01"),
            ],
        ),
        "date-time" => {
            let without_offset = text.trim_end_matches('Z').trim_end_matches('z');
            let without_offset = match without_offset.rfind(['+', '-']) {
                Some(i) if i > 10 => &without_offset[..i],
                _ => without_offset,
            };
            (
                vec![
                    c("a leap day with fractional seconds and an offset", "2024-02-29T23:59:59.999+14:00"),
                    c("the fixture's timestamp", text),
                ],
                vec![
                    c("no time-zone offset", without_offset),
                    c("29 February of a common year", "2023-02-29T12:00:00Z"),
                    c("hour 24", "2026-01-10T24:00:00Z"),
                ],
            )
        }
        "uuid" => {
            let chars: Vec<char> = text.chars().collect();
            let mut invalid = Vec::new();
            if !chars.is_empty() {
                invalid.push(("a 'g' for the last hex digit".to_owned(), replaced(&chars, chars.len() - 1, 'g')));
                invalid.push(("one hex digit short".to_owned(), removed(&chars, chars.len() - 1)));
            }
            (vec![c("upper-case hex digits", &text.to_uppercase()), c("the fixture's uuid", text)], invalid)
        }
        "uri" | "uri-reference" => {
            let chars: Vec<char> = text.chars().collect();
            let middle = chars.len() / 2;
            let mut invalid = vec![("a space inside".to_owned(), {
                let mut spaced: Vec<char> = chars.clone();
                spaced.insert(middle, ' ');
                Value::from(spaced.into_iter().collect::<String>())
            })];
            invalid.push(("a '%' not followed by two hex digits".to_owned(), Value::from(format!("{text}%zz"))));
            if format == "uri"
                && let Some((_, rest)) = text.split_once(':')
            {
                invalid.push(("no scheme (a relative reference)".to_owned(), Value::from(rest)));
            }
            (vec![c("the fixture's reference", text)], invalid)
        }
        _ => (Vec::new(), Vec::new()),
    }
}

fn off_by_one_letter(value: &Value) -> Vec<Candidate> {
    match value {
        Value::String(text) => {
            let chars: Vec<char> = text.chars().collect();
            let mut out = Vec::new();
            if let Some(i) = chars.iter().rposition(|c| c.is_alphabetic()) {
                let flipped = if chars[i].is_lowercase() {
                    chars[i].to_uppercase().next()
                } else {
                    chars[i].to_lowercase().next()
                };
                if let Some(flipped) = flipped.filter(|f| *f != chars[i]) {
                    out.push((format!("{text:?} with one letter's case changed"), replaced(&chars, i, flipped)));
                }
            }
            out.push((format!("{text:?} with a letter appended"), Value::from(format!("{text}s"))));
            out
        }
        Value::Bool(b) => vec![(format!("{}", !b), Value::Bool(!b))],
        Value::Number(n) => vec![("the number plus one".to_owned(), json!(n.as_f64().unwrap_or(0.0) + 1.0))],
        _ => Vec::new(),
    }
}

fn replaced(chars: &[char], i: usize, with: char) -> Value {
    let mut out = chars.to_vec();
    out[i] = with;
    Value::from(out.into_iter().collect::<String>())
}

fn removed(chars: &[char], i: usize) -> Value {
    let mut out = chars.to_vec();
    out.remove(i);
    Value::from(out.into_iter().collect::<String>())
}

/// A string of exactly `n` characters made from `chars`: a prefix, or `chars` padded with its
/// own last character (or `x`).
fn sized(chars: &[char], n: usize) -> Value {
    let mut out: Vec<char> = chars.iter().copied().take(n).collect();
    let pad = chars.last().copied().unwrap_or('x');
    while out.len() < n {
        out.push(pad);
    }
    Value::from(out.into_iter().collect::<String>())
}

/// An array of exactly `n` items made from `items`: a prefix, or `items` padded with copies of
/// its last item. `None` when `items` is empty and `n` is not.
fn resized(items: &[Value], n: usize) -> Option<Value> {
    let mut out: Vec<Value> = items.iter().take(n).cloned().collect();
    let pad = items.last().cloned();
    while out.len() < n {
        out.push(pad.clone()?);
    }
    Some(Value::Array(out))
}

/// The next `f64` above `x` (IEEE 754 `nextUp`, for finite `x`).
pub fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let bits = x.to_bits();
    f64::from_bits(if x > 0.0 { bits + 1 } else { bits - 1 })
}

/// The next `f64` below `x`.
pub fn next_down(x: f64) -> f64 {
    -next_up(-x)
}
