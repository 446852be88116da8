//! Every `pattern` in `schemas/` (the seed reading's and the conventions') is in the generated
//! pattern table, runs on the DFA the generator serialised for it, and matches exactly the
//! strings the ECMA-262 engine (regress) matches: on every string in the fixtures, and on strings
//! built at the edges where the two dialects differ (Unicode digits and letters, the four ECMA
//! line terminators, ECMA whitespace, astral characters).

use std::path::Path;

use serde_json::Value;

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
}

fn collect(value: &Value, patterns: &mut Vec<String>, strings: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                match (key.as_str(), member) {
                    ("pattern", Value::String(p)) => patterns.push(p.clone()),
                    // Sources name keywords (`"pattern": "seed 000:167"`); they hold no schema.
                    ("x-source", _) => {}
                    _ => collect(member, patterns, strings),
                }
                strings.push(key.clone());
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, patterns, strings)),
        Value::String(s) => strings.push(s.clone()),
        _ => {}
    }
}

fn corpus(dir: &str) -> (Vec<String>, Vec<String>) {
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
    let (mut patterns, mut strings) = (Vec::new(), Vec::new());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            collect(&value, &mut patterns, &mut strings);
        }
    }
    patterns.sort();
    patterns.dedup();
    strings.sort();
    strings.dedup();
    (patterns, strings)
}

/// Strings around one that matches: each character swapped for look-alikes the dialects treat
/// differently, and the string with line terminators and whitespace around it.
fn variants(text: &str) -> Vec<String> {
    const SWAPS: [&str; 12] = ["٣", "𝟙", "é", "\n", "\r", "\u{2028}", "\u{2029}", "\u{a0}", "\u{feff}", "𝄞", "_", "\t"];
    let mut out = vec![text.to_owned()];
    let chars: Vec<char> = text.chars().collect();
    for (i, _) in chars.iter().enumerate().take(24) {
        for swap in SWAPS {
            let mut changed: String = chars[..i].iter().collect();
            changed.push_str(swap);
            changed.extend(&chars[i + 1..]);
            out.push(changed);
        }
    }
    for edge in ["\n", "\u{2028}", " ", "\u{3000}"] {
        out.push(format!("{edge}{text}"));
        out.push(format!("{text}{edge}"));
    }
    out
}

#[test]
fn schema_patterns_run_in_linear_time_with_the_ecma_meaning() {
    let (patterns, schema_strings) = corpus("schemas");
    let (_, fixture_strings) = corpus("tests/fixtures");
    assert!(patterns.len() >= 40, "patterns found: {}", patterns.len());
    let table = jerry_contracts::pattern::table();
    // The table holds the schemas' patterns and nothing else.
    let mut tabled: Vec<&str> = table.sources().collect();
    tabled.sort_unstable();
    assert_eq!(tabled, patterns.iter().map(String::as_str).collect::<Vec<_>>());
    let mut texts: Vec<String> = fixture_strings.into_iter().chain(schema_strings).collect();
    texts.extend(
        ["F-001", "F-٠٠١", "REQ-ABC-001", "1.1.0", "≤30m", "a.b_c", "sha256:", "shall", "", "\u{2028}shall"]
            .map(str::to_owned),
    );
    // The backtracking engine is quadratic on some patterns: long texts stay out of its way.
    texts.retain(|text| text.len() <= 400);
    let mut compared = 0_usize;
    let mut matched = 0_usize;
    for source in &patterns {
        let mut varied = 0;
        let pattern = table.find(source).unwrap_or_else(|| panic!("{source} is not in the pattern table"));
        assert!(pattern.problem().is_none(), "{source}: {:?}", pattern.problem());
        assert!(pattern.is_linear(), "{source} is not on the linear-time engine");
        assert!(pattern.is_dense(), "{source} has no dense DFA");
        let ecma = regress::Regex::new(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        for text in &texts {
            let seeds = if varied < 60 && ecma.find(text).is_some() {
                varied += 1;
                variants(text)
            } else {
                vec![text.clone()]
            };
            for candidate in seeds {
                let expected = ecma.find(&candidate).is_some();
                assert_eq!(pattern.is_match(&candidate), expected, "{source} on {candidate:?}");
                compared += 1;
                matched += usize::from(expected);
            }
        }
    }
    assert!(matched > 1_000 && compared > 50_000, "{matched} matches among {compared} comparisons");
}
