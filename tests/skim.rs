//! The skim ([`jerry_contracts::__private::skim`]) against the typed read plus `garde`: on the text of every
//! fixture, for its target type and for every root type, the skim is clean exactly when the
//! typed read accepts the document and `validate()` passes. (The mutation property test in
//! `tests/properties.rs` holds them to the same on generated documents at their boundaries.)
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts::__private::typed;

#[test]
fn the_skim_accepts_exactly_what_the_typed_read_and_garde_accept() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let roots: Vec<_> = typed::entries().iter().filter(|e| e.pointer.is_empty()).collect();
    let mut disagreements = Vec::new();
    let (mut judged, mut clean) = (0, 0);
    for set in &sets {
        let entry = typed::find(&set.target.schema, &set.target.pointer()).expect("a generated type");
        let fixtures = set.valid.iter().map(|f| (&f.path, &f.document));
        for (path, document) in fixtures.chain(set.invalid.iter().map(|f| (&f.path, &f.document))) {
            // The file's own text; a boundary case (`boundary.json#3`) as written by serde_json.
            let text = std::fs::read(path).unwrap_or_else(|_| serde_json::to_vec(document).expect("JSON"));
            let mut variants = vec![text.clone()];
            // The same document with its first member repeated: a duplicate on every path.
            if let Some(open) = text.iter().position(|&b| b == b'{')
                && let Ok(serde_json::Value::Object(map)) = serde_json::from_slice::<serde_json::Value>(&text)
                && let Some((key, value)) = map.iter().next()
            {
                let mut twice = text[..=open].to_vec();
                twice.extend_from_slice(format!("{}:{},", serde_json::json!(key), value).as_bytes());
                twice.extend_from_slice(&text[open + 1..]);
                variants.push(twice);
            }
            for bytes in &variants {
                for entry in std::iter::once(entry).chain(roots.iter().copied()) {
                    judged += 1;
                    let (skimmed, read) = (
                        jerry_contracts::__private::typed::skim(entry, bytes),
                        jerry_contracts::__private::typed::read_valid(entry, bytes),
                    );
                    clean += usize::from(skimmed);
                    if skimmed != read {
                        disagreements.push(format!(
                            "{} as {}: skim {skimmed}, typed read + garde {read}",
                            path.display(),
                            entry.rust_path
                        ));
                    }
                }
            }
        }
    }
    assert!(judged > 50_000 && clean > 900, "only {judged} judgements, {clean} clean");
    assert!(disagreements.is_empty(), "{} of {judged} disagree:\n{}", disagreements.len(), disagreements.join("\n"));
}

/// An object read as a map (`breakdown`: `additionalProperties` numbers in [0, 1]) is skimmed
/// member by member: the skim agrees with the typed read on the values, the count of members, a
/// name given twice (early, and past the handful compared in a list) and the wrong shapes.
#[test]
fn maps_are_skimmed_as_the_typed_read_reads_them() {
    use jerry_contracts::common::ConfidenceScore;
    let many: Vec<String> = (0..20).map(|i| format!(r#""m{i}": 0.5"#)).collect();
    let cases = [
        (r#"{"a": 0.9, "b": 0}"#, true),
        ("{}", true),
        (&format!("{{{}}}", many.join(", ")), true),
        (r#"{"a": 0.9, "a": 0.8}"#, false),
        (&format!(r#"{{{}, "m3": 0.1}}"#, many.join(", ")), false),
        (r#"{"a": 1.5}"#, false),
        (r#"{"a": -0.1}"#, false),
        (r#"{"a": "0.5"}"#, false),
        (r#"{"a": null}"#, false),
        ("null", false),
        ("[]", false),
        (r#"{"a": 1e999}"#, false),
    ];
    for (breakdown, expected) in cases {
        let document = format!(r#"{{"overall": 0.8, "reasoning": "r", "breakdown": {breakdown}}}"#);
        let bytes = document.as_bytes();
        assert_eq!(typed::read_validated::<ConfidenceScore>(bytes), expected, "typed read of {document}");
        assert_eq!(typed::skimmed::<ConfidenceScore>(bytes), expected, "skim of {document}");
    }
}
