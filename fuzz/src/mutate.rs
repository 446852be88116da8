//! The stable harness's input generator: a seeded pseudo-random stream of mutations of the
//! corpus. Input `i` of a run depends only on the seed, `i` and the corpus, so any input can be
//! made again without the ones before it (the supervisor uses that to save an input whose run
//! killed the process).
//!
//! Mutations: byte flips and overwrites, insertions of JSON tokens that matter here (deep
//! nesting, `NaN`, `1e400`, integers past 64 bits, lone surrogates, a BOM, duplicate keys),
//! deletions, duplications, splices of two corpus files, and structural mutations of the parsed
//! document (a value replaced by an interesting one or by a subtree of another corpus document,
//! a property removed, an array item repeated), written back compact or pretty. Structural
//! mutations keep the schema-picking first byte of a `validate` input; for NDJSON they work on
//! one line, and whole documents are added as new lines.

use serde_json::{Map, Number, Value};

/// A small, fast, seedable generator (SplitMix64); no dependency, same stream everywhere.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The generator of input `index` of a run seeded with `seed`.
    pub fn for_input(seed: u64, index: u64) -> Self {
        let mut rng = Self(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        rng.bits();
        rng
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { usize::try_from(self.bits() % n as u64).unwrap_or(0) }
    }

    /// True with probability 1/`n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A random element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// Bytes worth putting in a JSON document.
const BYTES: &[u8] = b"{}[]\",:\\0123456789-+.eE \n\r\t\x00\x7f\x80\xbf\xc3\xef\xff";

/// Text worth inserting into a JSON document.
const TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "\"",
    ",",
    ":",
    "null",
    "true",
    "false",
    "NaN",
    "Infinity",
    "-Infinity",
    "-0",
    "0.0",
    "1.0",
    "3.0",
    "1e2",
    "1e400",
    "-1e400",
    "1e-400",
    "184467440737095516160",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775809",
    "0.30000000000000004",
    "\"\\ud800\"",
    "\"\\udc00\"",
    "\"\\u0000\"",
    "\\u",
    "\\",
    "\u{feff}",
    "\u{fffd}",
    "\u{1f600}",
    "\"é\"",
    "\r\n",
    "\n",
    "\n\n",
    " ",
    "\"agent_id\":\"ps-analyst\",",
    "\"agent_id\":\"nse-requirements\",",
    "\"schema_version\":\"2.0.0\",",
    "\"schema_version\":\"1.0.0\",",
    "\"session_id\":\"x\",",
    "\"payload_schema_ref\":\"agents/ps/analyst_output.json\",",
    "\"schema_name\":\"worker_result\",",
    "\"id\":\"F-001\",",
    "\"id\":\"REQ-NSE-FUN-001\",",
    "\"2026-02-30T25:61:61Z\"",
    "\"2026-01-10T14:30:00Z\"",
    "\"1970-01-01\"",
    "\"../../etc/passwd\"",
    "\"sha256:0000000000000000000000000000000000000000000000000000000000000000\"",
    "\"http://\"",
    "\"a:b\"",
];

/// Values worth putting in place of another.
fn interesting(rng: &mut Rng) -> Value {
    let float = |f: f64| Number::from_f64(f).map_or(Value::Null, Value::Number);
    match rng.below(30) {
        0 => Value::Null,
        1 => Value::Bool(rng.one_in(2)),
        2 => Value::from(0),
        3 => Value::from(-1),
        4 => Value::from(rng.below(7)),
        5 => float(0.5),
        6 => float(1.5),
        7 => float(3.0),
        8 => float(1e308),
        9 => Value::from(i64::MAX),
        10 => Value::from(u64::MAX),
        11 => Value::from(i64::MIN),
        12 => Value::String(String::new()),
        13 => Value::String("x".repeat(rng.below(1200))),
        14 => Value::String("é".repeat(rng.below(600))),
        15 => Value::String(["F-001", "F-1", "Q-001", "RISK-001", "REQ-NSE-FUN-001", "REQ-1"][rng.below(6)].to_owned()),
        16 => Value::String(
            ["ps-researcher", "ps-analyst", "nse-requirements", "nse-risk", "nse-x"][rng.below(5)].to_owned(),
        ),
        17 => Value::String(["1.0.0", "1.1.0", "1.9.9", "2.0.0", "1", "v1", "01.1.0"][rng.below(7)].to_owned()),
        18 => Value::String(
            [
                "2026-01-10T14:30:00Z",
                "2026-01-10T14:30:00.123+05:30",
                "2026-02-30",
                "2026-13-01T00:00:00Z",
                "2026-01-10T24:00:00Z",
            ][rng.below(5)]
            .to_owned(),
        ),
        19 => Value::String("\u{0}\u{1f}\u{7f}\u{feff}\u{fffd}".to_owned()),
        20 => Value::Array(Vec::new()),
        21 => Value::Object(Map::new()),
        22 => nested(rng.below(140)),
        23 => Value::String(format!("sha256:{}", "ab".repeat(rng.below(40)))),
        24 => {
            Value::String(["projects/x.md", "/etc/passwd", "../x", "C:\\x", "a//b", "", "."][rng.below(7)].to_owned())
        }
        25 => Value::String(["https://x", "x", "urn:a", "http://[::1", "a b"][rng.below(5)].to_owned()),
        26 => float(-0.0),
        27 => float(5.000_000_000_000_001),
        28 => Value::from(rng.below(30)),
        _ => Value::String("abc".to_owned()),
    }
}

/// `depth` nested arrays (at 127 and more, the text no longer parses: serde_json's limit).
fn nested(depth: usize) -> Value {
    (0..depth).fold(Value::from(1), |inner, _| Value::Array(vec![inner]))
}

/// The number of values in `value` (itself included), without recursion.
fn count(value: &Value) -> usize {
    let mut n = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    n
}

/// The `n`th value of `value` in pre-order (`0` is `value` itself).
fn nth_mut(value: &mut Value, n: usize) -> Option<&mut Value> {
    let mut n = n;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        if n == 0 {
            return Some(v);
        }
        n -= 1;
        match v {
            Value::Array(items) => stack.extend(items.iter_mut().rev()),
            Value::Object(map) => stack.extend(map.values_mut().rev()),
            _ => {}
        }
    }
    None
}

fn nth(value: &Value, n: usize) -> Option<&Value> {
    let mut n = n;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        if n == 0 {
            return Some(v);
        }
        n -= 1;
        match v {
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(map) => stack.extend(map.values().rev()),
            _ => {}
        }
    }
    None
}

/// A corpus entry, with its parse (whole, or each line of it) made once.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The document, when the bytes are one JSON document.
    pub document: Option<Value>,
}

impl Entry {
    /// An entry of `bytes`.
    pub fn new(bytes: Vec<u8>) -> Self {
        let document = serde_json::from_slice(&bytes).ok();
        Self { bytes, document }
    }
}

/// Input `index` of a run seeded with `seed`, at most `max_len` bytes (unless a corpus file is
/// longer and left whole).
pub fn input(seed: u64, index: u64, corpus: &[Entry], max_len: usize) -> Vec<u8> {
    let mut rng = Rng::for_input(seed, index);
    let Some(base) = rng.pick(corpus) else { return Vec::new() };
    let mut data = base.bytes.clone();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        mutate(&mut rng, &mut data, corpus);
        if data.len() > max_len {
            data.truncate(max_len);
        }
    }
    data
}

fn mutate(rng: &mut Rng, data: &mut Vec<u8>, corpus: &[Entry]) {
    let len = data.len();
    match rng.below(16) {
        0 if len > 0 => {
            let at = rng.below(len);
            data[at] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let at = rng.below(len);
            data[at] = u8::try_from(rng.below(256)).unwrap_or(0);
        }
        2 if len > 0 => {
            let at = rng.below(len);
            data[at] = BYTES[rng.below(BYTES.len())];
        }
        3 | 4 => {
            let token = TOKENS[rng.below(TOKENS.len())];
            let times = if rng.one_in(8) { 1 + rng.below(200) } else { 1 };
            let at = rng.below(len + 1);
            let inserted = token.repeat(times);
            data.splice(at..at, inserted.bytes());
        }
        5 if len > 0 => {
            let at = rng.below(len);
            let n = 1 + rng.below((len - at).min(32));
            data.drain(at..at + n);
        }
        6 if len > 0 => {
            let at = rng.below(len);
            let n = 1 + rng.below((len - at).min(256));
            let chunk = data[at..at + n].to_vec();
            let to = rng.below(len + 1);
            data.splice(to..to, chunk);
        }
        7 => {
            // Splice: the head of this input and the tail of another corpus file.
            if let Some(other) = rng.pick(corpus) {
                let cut = rng.below(len + 1);
                let from = rng.below(other.bytes.len() + 1);
                data.truncate(cut);
                data.extend_from_slice(&other.bytes[from..]);
            }
        }
        8 => {
            // A whole corpus document, compact, as a line of its own (NDJSON).
            if let Some(document) = rng.pick(corpus).and_then(|e| e.document.as_ref()) {
                let line = serde_json::to_vec(document).unwrap_or_default();
                let at = line_start(data, rng.below(len + 1));
                let mut insert = line;
                insert.push(b'\n');
                data.splice(at..at, insert);
            }
        }
        _ => structural(rng, data, corpus),
    }
}

/// The start of the line that `at` is in.
fn line_start(data: &[u8], at: usize) -> usize {
    data[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1)
}

/// A structural mutation of the document `data` is, or else of one line of it that is one.
fn structural(rng: &mut Rng, data: &mut Vec<u8>, corpus: &[Entry]) {
    if let Ok(mut document) = serde_json::from_slice::<Value>(data) {
        mutate_value(rng, &mut document, corpus);
        *data = write(rng, &document);
        return;
    }
    // A `validate` input: the schema-picking byte, then the document.
    if let Some((&selector, rest)) = data.split_first()
        && let Ok(mut document) = serde_json::from_slice::<Value>(rest)
    {
        mutate_value(rng, &mut document, corpus);
        *data = write(rng, &document);
        data.insert(0, selector);
        return;
    }
    let lines: Vec<(usize, usize)> = {
        let mut start = 0;
        let mut out = Vec::new();
        for (i, &b) in data.iter().enumerate() {
            if b == b'\n' {
                out.push((start, i));
                start = i + 1;
            }
        }
        out.push((start, data.len()));
        out
    };
    let Some(&(start, end)) = rng.pick(&lines) else { return };
    let Ok(mut document) = serde_json::from_slice::<Value>(&data[start..end]) else { return };
    mutate_value(rng, &mut document, corpus);
    let line = serde_json::to_vec(&document).unwrap_or_default();
    data.splice(start..end, line);
}

fn write(rng: &mut Rng, document: &Value) -> Vec<u8> {
    if rng.one_in(2) { serde_json::to_vec(document) } else { serde_json::to_vec_pretty(document) }.unwrap_or_default()
}

fn mutate_value(rng: &mut Rng, document: &mut Value, corpus: &[Entry]) {
    let n = count(document);
    let Some(target) = nth_mut(document, rng.below(n)) else { return };
    match rng.below(8) {
        0 | 1 => *target = interesting(rng),
        2 | 3 => {
            // A subtree of another corpus document (most often one with the same keys nearby).
            if let Some(other) = rng.pick(corpus).and_then(|e| e.document.as_ref())
                && let Some(subtree) = nth(other, rng.below(count(other)))
            {
                *target = subtree.clone();
            }
        }
        4 => match target {
            Value::Object(map) if !map.is_empty() => {
                let key = map.keys().nth(rng.below(map.len())).cloned().unwrap_or_default();
                map.remove(&key);
            }
            Value::Array(items) if !items.is_empty() => {
                items.remove(rng.below(items.len()));
            }
            other => *other = interesting(rng),
        },
        5 => match target {
            Value::Array(items) if !items.is_empty() => {
                let item = items[rng.below(items.len())].clone();
                let times = if rng.one_in(4) { 1 + rng.below(100) } else { 1 };
                for _ in 0..times {
                    items.insert(rng.below(items.len() + 1), item.clone());
                }
            }
            Value::Object(map) => {
                // A property another corpus document has, with its value there.
                if let Some(Value::Object(other)) = rng.pick(corpus).and_then(|e| e.document.as_ref())
                    && let Some((key, value)) = other.iter().nth(rng.below(other.len()))
                {
                    map.insert(key.clone(), value.clone());
                }
            }
            other => *other = Value::Array(vec![other.clone(), other.clone()]),
        },
        6 => {
            // Wrapped: in an array, or as an object's property.
            let inner = target.take();
            *target = if rng.one_in(2) {
                Value::Array(vec![inner])
            } else {
                Value::Object(Map::from_iter([("a".to_owned(), inner)]))
            };
        }
        _ => {
            if let Value::Number(number) = target {
                let f = number.as_f64().unwrap_or(0.0);
                let changed = match rng.below(4) {
                    0 => f + 1.0,
                    1 => f - 1.0,
                    2 => -f,
                    _ => f * 1e10,
                };
                *target = Number::from_f64(changed).map_or(Value::Null, Value::Number);
            } else if let Value::String(text) = target {
                match rng.below(3) {
                    0 => text.push_str(&text.clone()),
                    1 => text.truncate(
                        text.char_indices().nth(rng.below(text.chars().count() + 1)).map_or(text.len(), |(i, _)| i),
                    ),
                    _ => text.insert(
                        text.char_indices().nth(rng.below(text.chars().count() + 1)).map_or(text.len(), |(i, _)| i),
                        'é',
                    ),
                }
            } else {
                *target = interesting(rng);
            }
        }
    }
}
