//! Hostile input: documents built to exhaust the stack, the memory or the patience of a
//! validator. Every case must end in a clear error record or a correct verdict — never a panic,
//! a stack overflow, or memory out of proportion to the input. The fuzz targets in `fuzz/` look
//! for the cases nobody thought of; this file pins the ones somebody did (docs/fuzzing.md).
//!
//! What the library does with each case, as asserted here:
//!
//! | input | verdict |
//! |---|---|
//! | 100 000 nested arrays or objects, as the document, a property or an envelope's payload | one SCH-012 "nested deeper than 128 levels" at line/column (serde_json's limit of 128 levels) |
//! | nesting just under the limit (127 levels) | parsed and judged (SCH-002, the `actual` cut 3 levels deep) |
//! | a document over the size limit (64 MiB by default, `Options::max_bytes`) | one SCH-015, not read |
//! | a 100 MB string where any string goes (the limit raised) | valid |
//! | a 100 MB string breaking `maxLength`, `pattern`, `enum`, `const` | one record whose `actual` is the first 200 characters and `…` |
//! | 1 000 000 valid array items | valid |
//! | 1 000 000 invalid array items | one record per item, each at its own pointer (100 000: the volume of a million is the same code path, and too slow for a debug test run) |
//! | duplicate keys | the last one wins (serde_json's `Value`), deterministically; a typed struct read directly refuses them ("duplicate field") |
//! | invalid UTF-8, in a string or at top level; a lone surrogate escape | SCH-012 at line/column |
//! | `NaN`, `Infinity`, `-Infinity` (and `+1`, `0x10`, `.5`, `01`) | SCH-012 at line/column |
//! | an integer beyond 2^64 where the schema bounds it (`likelihood`) | read as a float: SCH-004 out of range |
//! | an integer beyond 2^63 where the schema sets no maximum | SCH-002 "beyond the 64-bit range" from the type (docs/design.md D-110) |
//! | `1e400` | SCH-012 "the number 1e400 is out of range" |
//! | `3.0`, `3e0` where an integer is required | an integer, to the schema layer and the type alike (D-110); `1e2` is 100: SCH-004 |
//! | empty input or whitespace only | SCH-012 "the document is empty" |
//! | a UTF-8 BOM | SCH-012 "starts with a UTF-8 byte order mark" (named, not skipped: D-120) |
//! | trailing garbage, NUL or newline in a string | SCH-012 at line/column |
//!
//! The NDJSON reader of the command line (10 000 lines, a 10 MB line) is tested in
//! `crates/cli/tests/hostile_ndjson.rs`, where the binary can be run.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use jerry_contracts::agents::ps::ResearcherOutput;
use jerry_contracts::envelope::{AnySessionContext, EnvelopeError};
use jerry_contracts::validation::{Options, Report, Validator, validate, validate_as};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const RESEARCHER: &str = "agents/ps/researcher_output";
const ENVELOPE: &str = "session_context/v1.1.0";

/// A valid ps-researcher output with `{topic}`, `{summary}`, `{id}` … holes, written compactly
/// so that the columns of a parse error are easy to predict.
const RESEARCHER_TEMPLATE: &str = concat!(
    r#"{"agent_id":{agent},"research_topic":{topic},"#,
    r#""findings":{findings},"#,
    r#""sources":[],"confidence":{"overall":0.8,"reasoning":"two independent surveys agree"},"#,
    r#""artifacts":[{"path":"projects/PROJ-007/research/survey.md","type":"research","format":"markdown"}]{extra}}"#,
);

const ONE_FINDING: &str = r#"[{"id":"F-001","summary":"Cross-strapped buses survive one failure.","category":"gap"}]"#;

/// A researcher document with the given raw JSON text in each hole.
fn researcher_with(agent: &str, topic: &str, findings: &str, extra: &str) -> Vec<u8> {
    RESEARCHER_TEMPLATE
        .replace("{agent}", agent)
        .replace("{topic}", topic)
        .replace("{findings}", findings)
        .replace("{extra}", extra)
        .into_bytes()
}

/// A valid researcher document but for its confidence breakdown, which names a member twice.
fn breakdown_twice() -> Vec<u8> {
    let reasoning = r#""reasoning":"two independent surveys agree""#;
    String::from_utf8_lossy(&researcher(r#""t""#))
        .replace(reasoning, &format!(r#"{reasoning},"breakdown":{{"a":0.5,"a":0.6}}"#))
        .into_bytes()
}

/// A valid researcher document with `topic` (raw JSON) as its `research_topic`.
fn researcher(topic: &str) -> Vec<u8> {
    researcher_with(r#""ps-researcher""#, topic, ONE_FINDING, "")
}

/// A v1.1.0 envelope carrying `payload` (raw JSON).
fn envelope(payload: &str) -> Vec<u8> {
    format!(
        concat!(
            r#"{{"schema_version":"1.1.0","session_id":"sess-2026-04-14-hab042","#,
            r#""source_agent":{{"id":"ps-researcher","family":"ps"}},"#,
            r#""target_agent":{{"id":"ps-analyst","family":"ps"}},"#,
            r#""timestamp":"2026-04-14T12:00:00Z","payload":{}}}"#
        ),
        payload
    )
    .into_bytes()
}

/// A valid nse-risk output whose one risk has `likelihood` (raw JSON).
fn risk(likelihood: &str) -> Vec<u8> {
    format!(
        concat!(
            r#"{{"agent_id":"nse-risk","nasa_processes":[{{"process_number":13,"name":"Technical Risk Management"}}],"#,
            r#""risks":[{{"id":"RISK-001","title":"Oxygen Generation Assembly cell stack degradation","#,
            r#""likelihood":{},"consequence":4,"risk_score":12}}],"risk_matrix":{{}},"#,
            r#""confidence":{{"overall":0.74,"reasoning":"flight data from two missions"}},"#,
            r#""artifacts":[{{"path":"projects/PROJ-007/risk/register.md","type":"risk","format":"markdown"}}],"disclaimer_included":true}}"#
        ),
        likelihood
    )
    .into_bytes()
}

fn nested_arrays(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth)
}

fn nested_objects(depth: usize) -> String {
    r#"{"a":"#.repeat(depth) + "1" + &"}".repeat(depth)
}

// ---------------------------------------------------------------------------------------------
// Verdicts
// ---------------------------------------------------------------------------------------------

/// Asserts that `report` is exactly one SCH-012 record whose message contains `what`, and returns
/// the line and column the message gives.
#[track_caller]
fn malformed(report: &Report, what: &str) -> (usize, usize) {
    assert_eq!(report.codes(), ["SCH-012"], "{report:#?}");
    assert_eq!(report.schema, None);
    assert!(!report.is_valid());
    let record = &report.records[0];
    assert_eq!(record.path.as_deref(), Some(""));
    assert!(record.message.contains(what), "{:?} does not say {what:?}", record.message);
    // "Malformed JSON: line L column C: what"
    let place = record.message.split("line ").nth(1).expect("the message gives a line");
    let (line, rest) = place.split_once(" column ").expect("and a column");
    let column = rest.split(':').next().expect("then the parser's message");
    (line.parse().expect("a line number"), column.parse().expect("a column number"))
}

/// The `(code, pointer, keyword)` of every record, for compact assertions.
fn records(report: &Report) -> Vec<(String, String, String)> {
    report
        .records
        .iter()
        .map(|r| {
            let keyword = r.extra.get_str("keyword").unwrap_or_default();
            (r.error_code.clone(), r.path.clone().unwrap_or_default(), keyword.into_owned())
        })
        .collect()
}

fn one(code: &str, pointer: &str, keyword: &str) -> Vec<(String, String, String)> {
    vec![(code.to_owned(), pointer.to_owned(), keyword.to_owned())]
}

/// Asserts that no record of `report` is larger than a few kilobytes: an offending value is
/// quoted, not copied.
#[track_caller]
fn records_are_small(report: &Report) {
    for record in &report.records {
        let size = serde_json::to_string(record).map_or(usize::MAX, |text| text.len());
        assert!(size < 4096, "a record of {size} bytes: {}…", record.message.chars().take(200).collect::<String>());
    }
}

#[test]
fn the_documents_used_here_are_valid() {
    for (name, bytes) in [
        ("researcher", researcher(r#""Radiation-tolerant flash storage""#)),
        ("envelope", envelope(std::str::from_utf8(&researcher(r#""t""#)).unwrap())),
        ("risk", risk("3")),
    ] {
        let report = validate(&bytes);
        assert!(report.records.is_empty(), "{name}: {report:#?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Nesting
// ---------------------------------------------------------------------------------------------

#[test]
fn nesting_100_000_levels_deep_is_malformed_json_not_a_stack_overflow() {
    for document in [nested_arrays(100_000), nested_objects(100_000), "[".repeat(100_000), r#"{"a":"#.repeat(100_000)] {
        let (line, column) = malformed(&validate(document.as_bytes()), "nested deeper than 128 levels");
        assert_eq!(line, 1);
        // The bracket that opens level 129 (D-137).
        assert!((129..=129 * 5).contains(&column), "column {column}");
        // The same with the schema named: the parse fails first.
        malformed(&validate_as(RESEARCHER, document.as_bytes()), "nested deeper than 128 levels");
    }
    // One level a line: the line number says where the limit was hit.
    let (line, column) = malformed(&validate("[\n".repeat(100_000).as_bytes()), "nested deeper than 128 levels");
    assert_eq!((line, column), (129, 1));
}

#[test]
fn nesting_100_000_levels_deep_in_a_property_is_malformed_json() {
    for deep in [nested_arrays(100_000), nested_objects(100_000)] {
        // As the research topic of a researcher output.
        let document = researcher(&deep);
        let (line, column) = malformed(&validate(&document), "nested deeper than 128 levels");
        let topic_at = RESEARCHER_TEMPLATE.find("{topic}").unwrap();
        assert_eq!(line, 1);
        assert!(column > topic_at && column <= topic_at + 129 * 5, "column {column}");
        malformed(&validate_as(RESEARCHER, &document), "nested deeper than 128 levels");
        // As the payload of an envelope, and inside the payload.
        for document in [envelope(&deep), envelope(std::str::from_utf8(&researcher(&deep)).unwrap())] {
            malformed(&validate(&document), "nested deeper than 128 levels");
            malformed(&validate_as(ENVELOPE, &document), "nested deeper than 128 levels");
            match AnySessionContext::from_slice(&document) {
                Err(EnvelopeError::Json { line, column, message }) => {
                    assert_eq!(line, 1);
                    assert!(column > 0);
                    assert!(message.contains("nested deeper than 128 levels"), "{message}");
                }
                other => panic!("expected a JSON error, got {other:?}"),
            }
        }
    }
}

#[test]
fn nesting_just_under_the_limit_is_judged_and_quoted_briefly() {
    // The document object is one level, the topic 126 more: 127 levels parse.
    let document = researcher(&nested_arrays(126));
    let report = validate(&document);
    assert_eq!(records(&report), one("SCH-002", "/research_topic", "type"));
    records_are_small(&report);
    assert_eq!(report.records[0].actual, Some(json!([[["[… 1 items]"]]])));
    // 127 more are exactly the limit, 128 levels: judged too (D-137). 128 more are not.
    assert_eq!(records(&validate(&researcher(&nested_arrays(127)))), one("SCH-002", "/research_topic", "type"));
    malformed(&validate(&researcher(&nested_arrays(128))), "nested deeper than 128 levels");
    // Where any value goes (an unknown property), a deep value is kept and the document valid.
    let document =
        researcher_with(r#""ps-researcher""#, r#""t""#, ONE_FINDING, &format!(r#","x":{}"#, nested_objects(126)));
    let report = validate(&document);
    assert!(report.records.is_empty(), "{report:#?}");
    // The envelope reads it as well, payload and all.
    let payload = String::from_utf8(researcher_with(
        r#""ps-researcher""#,
        r#""t""#,
        ONE_FINDING,
        &format!(r#","x":{}"#, nested_objects(125)),
    ))
    .unwrap();
    let handoff = AnySessionContext::from_slice(&envelope(&payload)).expect("reads");
    assert_eq!(handoff.schema_version(), "1.1.0");
}

// ---------------------------------------------------------------------------------------------
// Size
// ---------------------------------------------------------------------------------------------

/// 100 MB of text as a JSON string (with its quotes), built once for every case below.
/// A validator that takes documents past the default size limit of 64 MiB.
fn roomy() -> Validator {
    Validator::with_options(jerry_contracts::validation::Options::default().with_max_bytes(1 << 30))
}

fn hundred_megabytes() -> Vec<u8> {
    const SIZE: usize = 100 * 1024 * 1024;
    let mut text = Vec::with_capacity(SIZE + 2);
    text.push(b'"');
    while text.len() < SIZE + 1 {
        text.extend_from_slice(b"abcdefghij");
    }
    text.truncate(SIZE + 1);
    text.push(b'"');
    text
}

/// `template` with `hole` replaced by `filler`, built without an intermediate `String`.
fn splice(template: &[u8], hole: &str, filler: &[u8]) -> Vec<u8> {
    let at = template.windows(hole.len()).position(|w| w == hole.as_bytes()).expect("the hole is there");
    let mut document = Vec::with_capacity(template.len() + filler.len());
    document.extend_from_slice(&template[..at]);
    document.extend_from_slice(filler);
    document.extend_from_slice(&template[at + hole.len()..]);
    document
}

#[test]
fn a_100_mb_string_is_judged_and_quoted_briefly() {
    let big = hundred_megabytes();
    let cut = Value::String(format!("{}…", "abcdefghij".repeat(20)));
    let hole = r#""HOLE""#;

    // Past the default size limit (64 MiB): one SCH-015, the document not read.
    assert_eq!(validate(&splice(&researcher(hole), hole, &big)).codes(), ["SCH-015"]);
    // Where any string goes: valid.
    let report = roomy().validate(&splice(&researcher(hole), hole, &big));
    assert!(report.records.is_empty(), "{:?}", records(&report));

    // Where the string breaks a rule: one record, the value cut after 200 characters.
    let finding = |field: &str, value: &str| {
        ONE_FINDING.replace(&format!(r#""{field}":{value}"#), &format!(r#""{field}":{hole}"#))
    };
    let cases = [
        (
            finding("summary", r#""Cross-strapped buses survive one failure.""#),
            "/findings/0/summary",
            "SCH-005",
            "maxLength",
        ),
        (finding("id", r#""F-001""#), "/findings/0/id", "SCH-003", "pattern"),
        (finding("category", r#""gap""#), "/findings/0/category", "SCH-007", "enum"),
    ];
    for (findings, pointer, code, keyword) in cases {
        let template = researcher_with(r#""ps-researcher""#, r#""t""#, &findings, "");
        let report = roomy().validate(&splice(&template, hole, &big));
        assert_eq!(records(&report), one(code, pointer, keyword));
        assert_eq!(report.records[0].actual.as_ref(), Some(&cut), "{pointer}");
        records_are_small(&report);
    }
    // A 100 MB agent id, against the named schema: the constant is not met.
    let template = researcher_with(hole, r#""t""#, ONE_FINDING, "");
    let report = roomy().validate_as(RESEARCHER, &splice(&template, hole, &big));
    assert_eq!(records(&report), one("SCH-008", "/agent_id", "const"));
    assert_eq!(report.records[0].actual.as_ref(), Some(&cut));
    records_are_small(&report);
}

#[test]
fn an_unknown_agent_id_is_quoted_whole_up_to_80_characters() {
    for (length, quoted) in [(80, "x".repeat(80)), (81, format!("{}…", "x".repeat(80)))] {
        let document = format!(r#"{{"agent_id": "nse-{}"}}"#, "x".repeat(length - 4));
        let report = validate(document.as_bytes());
        let quoted = format!("{:?}", format!("nse-{}", &quoted[4..]));
        assert!(report.records[0].message.contains(&quoted), "{length}: {}", report.records[0].message);
    }
}

#[test]
fn a_100_mb_unknown_agent_id_is_quoted_briefly() {
    let hole = r#""HOLE""#;
    let template = researcher_with(hole, r#""t""#, ONE_FINDING, "");
    let report = roomy().validate(&splice(&template, hole, &hundred_megabytes()));
    assert_eq!(records(&report), one("SCH-011", "/agent_id", ""));
    records_are_small(&report);
    let mission = splice(br#"{"schema_name":"HOLE","schema_version":"v1"}"#, hole, &hundred_megabytes());
    let report = roomy().validate(&mission);
    assert_eq!(records(&report), one("SCH-011", "/schema_name", ""));
    records_are_small(&report);
}

/// `count` copies of `item` as a JSON array.
fn array_of(item: &str, count: usize) -> String {
    let mut array = String::with_capacity(count * (item.len() + 1) + 2);
    array.push('[');
    for i in 0..count {
        if i > 0 {
            array.push(',');
        }
        array.push_str(item);
    }
    array.push(']');
    array
}

#[test]
fn a_million_valid_items_are_valid() {
    let gaps = array_of(r#""drift data""#, 1_000_000);
    let report =
        validate(&researcher_with(r#""ps-researcher""#, r#""t""#, ONE_FINDING, &format!(r#","research_gaps":{gaps}"#)));
    assert!(report.records.is_empty(), "{:?}", records(&report));
}

/// `count` findings with an invalid id: one SCH-003 record each, at its own pointer.
fn judge_invalid_findings(count: usize) {
    let findings = array_of(r#"{"id":"F-1","summary":"s","category":"gap"}"#, count);
    let document = researcher_with(r#""ps-researcher""#, r#""t""#, &findings, "");
    // Every record, with the cap raised to the count (by default a report lists 1 000: D-135).
    let report = Validator::with_options(Options::default().with_max_records(count)).validate(&document);
    assert_eq!(report.records.len(), count);
    for (i, record) in report.records.iter().enumerate() {
        assert_eq!(record.error_code, "SCH-003");
        assert_eq!(record.path.as_deref(), Some(format!("/findings/{i}/id").as_str()));
    }
}

#[test]
fn a_hundred_thousand_invalid_items_get_a_record_each() {
    judge_invalid_findings(100_000);
}

#[test]
fn a_duplicate_member_is_refused_on_every_path() {
    // `{"agent_id": "ps-researcher", "agent_id": "ps-analyst", …}`: a reader keeping the first
    // value and one keeping the last would see different documents, so none is judged.
    let duplicate = |code: &str, pointer: &str, name: &str, report: &Report| {
        assert_eq!(report.codes(), [code], "{:?}", records(report));
        assert_eq!(report.records[0].path.as_deref(), Some(pointer));
        assert!(report.records[0].message.contains(&format!("duplicate member `{name}`")), "{:?}", report.records[0]);
    };
    for agents in [r#""ps-researcher","agent_id":"ps-analyst""#, r#""ps-analyst","agent_id":"ps-researcher""#] {
        let document = researcher_with(agents, r#""t""#, ONE_FINDING, "");
        duplicate("SCH-014", "/agent_id", "agent_id", &validate(&document));
        duplicate("SCH-014", "/agent_id", "agent_id", &validate_as("agents/ps/researcher_output", &document));
        // (read in order, the type may stop earlier, at `ps-analyst`)
        let typed = serde_json::from_slice::<ResearcherOutput>(&document).expect_err("a typed read refuses it");
        // (its message names the place, as every error of a generated type's read does: D-166)
        assert!(
            typed.to_string().starts_with("at /agent_id: duplicate member `agent_id`")
                || agents.starts_with(r#""ps-analyst""#),
            "{typed}"
        );
    }
    // A declared member, valid then invalid and invalid then valid, at any depth.
    let cases = [
        (researcher_with(r#""ps-researcher""#, r#""t""#, ONE_FINDING, r#","confidence":{"overall":7}"#), "/confidence"),
        (researcher_with(r#""ps-researcher""#, r#""t""#, &format!(r#"[],"findings":{ONE_FINDING}"#), ""), "/findings"),
        (
            researcher_with(
                r#""ps-researcher""#,
                r#""t""#,
                r#"[{"id":"F-001","id":"F-002","summary":"s","category":"gap"}]"#,
                "",
            ),
            "/findings/0/id",
        ),
        // Undeclared members too.
        (researcher_with(r#""ps-researcher""#, r#""t""#, ONE_FINDING, r#","x-a":1,"x-a":1"#), "/x-a"),
        // A member of an object read as a map (`additionalProperties`): serde's `BTreeMap` read
        // keeps the last value, and the skim once read the map that way.
        (breakdown_twice(), "/confidence/breakdown/a"),
    ];
    for (document, pointer) in cases {
        let name = pointer.rsplit('/').next().unwrap();
        duplicate("SCH-014", pointer, name, &validate(&document));
        let typed = serde_json::from_slice::<ResearcherOutput>(&document).expect_err("a typed read refuses it");
        assert!(typed.to_string().starts_with(&format!("at {pointer}: duplicate member `{name}`")), "{typed}");
        let tracked = jerry_contracts::typed::from_slice::<ResearcherOutput>(&document).expect_err("refused");
        // The same record the bytes path gives.
        assert_eq!(tracked.records, validate(&document).records, "{tracked}");
    }
    // Inside the value of an undeclared member (kept as its text), and inside a member of
    // free-form JSON (checkpoint `outputs[].payload`): refused on every path too.
    for (extra, pointer) in
        [(r#","x-a":{"b":1,"b":2}"#, "/x-a/b"), (r#","x-a":[0,{"c":{"b":1,"b":[]}}]"#, "/x-a/1/c/b")]
    {
        let document = researcher_with(r#""ps-researcher""#, r#""t""#, ONE_FINDING, extra);
        duplicate("SCH-014", pointer, "b", &validate(&document));
        duplicate("SCH-014", pointer, "b", &validate_as(RESEARCHER, &document));
        let typed = serde_json::from_slice::<ResearcherOutput>(&document).expect_err("a typed read refuses it");
        assert!(typed.to_string().contains("duplicate member `b`"), "{typed}");
    }
    let checkpoint = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/infrastructure/checkpoint/valid/maximal.json"),
    )
    .unwrap();
    let mut checkpoint: Value = serde_json::from_str(&checkpoint).unwrap();
    checkpoint["state"]["outputs"][0]["payload"] = json!({"marker": 1});
    let text = serde_json::to_string(&checkpoint).unwrap().replace(r#"{"marker":1}"#, r#"{"marker":1,"marker":2}"#);
    duplicate("SCH-014", "/state/outputs/0/payload/marker", "marker", &validate(text.as_bytes()));
    let typed = serde_json::from_str::<jerry_contracts::infrastructure::Checkpoint>(&text).expect_err("refused");
    assert!(typed.to_string().contains("duplicate member `marker`"), "{typed}");
    let payload = String::from_utf8(breakdown_twice()).unwrap();
    duplicate("SCH-014", "/payload/confidence/breakdown/a", "a", &validate(&envelope(&payload)));
    // Through the envelope: two payloads, and a duplicate inside the payload.
    let two_payloads = envelope(r#"{"key_findings":[],"confidence":{"overall":0.5}},"payload":7"#);
    duplicate("SCH-014", "/payload", "payload", &validate(&two_payloads));
    assert!(matches!(AnySessionContext::from_slice(&two_payloads), Err(EnvelopeError::Json { .. })));
    let inner = envelope(r#"{"key_findings":[],"key_findings":[],"confidence":{"overall":0.5}}"#);
    duplicate("SCH-014", "/payload/key_findings", "key_findings", &validate(&inner));
    let typed = serde_json::from_slice::<jerry_contracts::session_context::v1_1::SessionContext>(&inner);
    assert!(typed.expect_err("refused").to_string().contains("duplicate member `key_findings`"));
}

// ---------------------------------------------------------------------------------------------
// Bytes that are not JSON
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_utf8_is_malformed_json_at_its_place() {
    // In a string: the column is that of the bad byte's string.
    let document = researcher("\"ab\u{0}\"").iter().map(|&b| if b == 0 { 0xFF } else { b }).collect::<Vec<u8>>();
    let (line, column) = malformed(&validate(&document), "invalid unicode code point");
    assert_eq!(line, 1);
    let bad = document.iter().position(|&b| b == 0xFF).unwrap();
    assert!(column > bad && column <= bad + 3, "column {column}, the byte at {bad}");
    // On the third line.
    let (line, _) =
        malformed(&validate(b"{\n\"agent_id\": \"ps-researcher\",\n\"research_topic\": \"\xC3\x28\"}"), "unicode");
    assert_eq!(line, 3);
    // In a key, and at top level.
    malformed(&validate(b"{\"agent\xFF\": 1}"), "invalid unicode code point");
    assert_eq!(malformed(&validate(b"\xFF\xFE{}"), "UTF-16 (little-endian, with a byte order mark)"), (1, 1));
    assert_eq!(malformed(&validate(b"{}\xFF"), "trailing characters"), (1, 3));
    // A lone surrogate, escaped.
    malformed(&validate(&researcher(r#""\ud800""#)), "hex escape");
    malformed(&validate(&researcher(r#""\udc00""#)), "lone leading surrogate");
    // The envelope says the same.
    assert!(matches!(AnySessionContext::from_slice(b"\xFF"), Err(EnvelopeError::Json { line: 1, column: 1, .. })));
}

#[test]
fn nan_and_infinity_are_not_json() {
    for literal in ["NaN", "Infinity", "-Infinity", "+1", "0x10", ".5", "01"] {
        let document = risk(literal);
        let report = validate(&document);
        let (line, column) = malformed(&report, "");
        assert_eq!(line, 1, "{literal}");
        let at = String::from_utf8(document).unwrap().find(r#""likelihood":"#).unwrap() + r#""likelihood":"#.len();
        assert!(column >= at && column <= at + literal.len() + 1, "{literal}: column {column}, literal at {at}");
    }
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

#[test]
fn numbers_beyond_64_bits_are_out_of_range_not_a_panic() {
    let likelihood = "/risks/0/likelihood";
    for (literal, keyword, actual) in [
        // Past u64, serde_json reads the nearest f64 (2^64 × 10, about 1.8e20).
        ("184467440737095516160", "maximum", json!(18_446_744_073_709_551_616.0_f64 * 10.0)),
        ("-184467440737095516160", "minimum", json!(-18_446_744_073_709_551_616.0_f64 * 10.0)),
        ("18446744073709551615", "maximum", json!(u64::MAX)),
        ("9223372036854775808", "maximum", json!(9_223_372_036_854_775_808_u64)),
        ("-9223372036854775809", "minimum", json!(-9.223372036854776e18)),
        ("1e300", "maximum", json!(1e300)),
        // JSON Schema: 100.0 is the integer 100, out of range.
        ("1e2", "maximum", json!(100.0)),
        ("1E2", "maximum", json!(100.0)),
    ] {
        let report = validate(&risk(literal));
        assert_eq!(records(&report), one("SCH-004", likelihood, keyword), "{literal}");
        assert_eq!(report.records[0].actual.as_ref(), Some(&actual), "{literal}");
    }
    // A float past f64: serde_json refuses it.
    for literal in ["1e400", "-1e400", "184467440737095516160e300"] {
        // The message names the number, not only the fact.
        malformed(&validate(&risk(literal)), &format!("the number {literal} is out of range"));
    }
    // And the bounds the schema sets are judged exactly: 5 is in (the score 12 is then wrong, a
    // semantic matter), 5.000000000000001 is a fraction.
    assert_eq!(validate(&risk("5")).codes(), ["SEM-003"]);
    assert_eq!(records(&validate(&risk("5.000000000000001"))), {
        let mut both = one("SCH-002", likelihood, "type");
        both.extend(one("SCH-004", likelihood, "maximum"));
        both
    });
}

#[test]
fn an_integral_float_is_an_integer_on_both_paths() {
    // JSON Schema (draft 6 on): an integer is a number without a fraction, 3.0 included; the
    // generated types agree (docs/design.md D-110).
    let entry = jerry_contracts::__private::typed::find("agents/nse/risk_output.json", "").unwrap();
    for literal in ["3.0", "3e0", "0.3e1", "300e-2", "3.000"] {
        let value: Value = serde_json::from_slice(&risk(literal)).unwrap();
        assert_eq!(jerry_contracts::__validation::interpret("agents/nse/risk_output", &value), [], "{literal}");
        assert_eq!(entry.check(&value), Ok(()), "{literal}");
        let report = validate(&risk(literal));
        assert!(report.records.is_empty(), "{literal}: {report:#?}");
    }
}

#[test]
fn an_integer_beyond_64_bits_where_any_integer_goes_is_refused_by_the_type() {
    // `risk_matrix.critical_risks` is an integer with a minimum and no maximum: the schema
    // accepts any size, the type holds an i64 and refuses the rest (docs/design.md D-110).
    let pointer = "/risk_matrix/critical_risks";
    let with = |count: &str| {
        String::from_utf8(risk("3"))
            .unwrap()
            .replace(r#""risk_matrix":{}"#, &format!(r#""risk_matrix":{{"critical_risks":{count}}}"#))
    };
    assert!(validate(with("9223372036854775807").as_bytes()).records.is_empty());
    assert!(validate(with("9.2e18").as_bytes()).records.is_empty());
    for literal in ["9223372036854775808", "18446744073709551615", "184467440737095516160", "1e300"] {
        let document = with(literal);
        let value: Value = serde_json::from_str(&document).unwrap();
        assert_eq!(jerry_contracts::__validation::interpret("agents/nse/risk_output", &value), [], "{literal}");
        let report = validate(document.as_bytes());
        assert_eq!(report.codes(), ["SCH-002"], "{literal}: {report:#?}");
        assert_eq!(report.records[0].path.as_deref(), Some(pointer), "{literal}");
        assert!(report.records[0].message.contains("64-bit"), "{literal}: {}", report.records[0].message);
        assert_eq!(report, validate(document.as_bytes()), "{literal}: the same verdict every time");
    }
    // Below the minimum, however far: the schema says so.
    let report = validate(with("-184467440737095516160").as_bytes());
    assert_eq!(records(&report), one("SCH-004", pointer, "minimum"));
}

// ---------------------------------------------------------------------------------------------
// Framing
// ---------------------------------------------------------------------------------------------

#[test]
fn empty_blank_bom_and_trailing_garbage_are_malformed() {
    assert_eq!(malformed(&validate(b""), "the document is empty"), (1, 0));
    assert_eq!(malformed(&validate(b" \t\r\n  \n"), "the document is empty"), (3, 0));
    // RFC 8259 §8.1: a parser MAY ignore a byte order mark; this one names it (D-120).
    let document = [b"\xEF\xBB\xBF".as_slice(), &researcher(r#""t""#)].concat();
    assert_eq!(malformed(&validate(&document), "starts with a UTF-8 byte order mark"), (1, 1));
    // Trailing garbage after a valid document; trailing whitespace is fine.
    let valid = researcher(r#""t""#);
    let at = valid.len() + 2;
    for garbage in [&b" x"[..], b" {}", b" 1", b" \"\"", b" ]", b" \x00"] {
        let document = [valid.as_slice(), garbage].concat();
        assert_eq!(malformed(&validate(&document), "trailing characters"), (1, at), "{garbage:?}");
    }
    assert!(validate(&[valid.as_slice(), b" \n\t\r\n"].concat()).records.is_empty());
    // Two documents on one line are one malformed document.
    malformed(&validate(&[valid.as_slice(), &valid].concat()), "trailing characters");
    // A NUL byte or a control character in a string.
    malformed(&validate(&researcher("\"a\u{0}b\"")), "control character");
    malformed(&validate(&researcher("\"a\nb\"")), "control character");
}

#[test]
fn unknown_schema_names_and_non_objects_are_records_not_panics() {
    for document in [&b"null"[..], b"1", b"\"ps-researcher\"", b"[]", b"{}", b"true", b"-0", b"1e308"] {
        assert_eq!(validate(document).codes(), ["SCH-011"], "{}", String::from_utf8_lossy(document));
    }
    let name = "x".repeat(1 << 20);
    let report = validate_as(&name, b"{}");
    assert_eq!(report.codes(), ["SCH-011"]);
    assert_eq!(validate_as("", b"{}").codes(), ["SCH-011"]);
}

// ---------------------------------------------------------------------------------------------
// Found by fuzzing (docs/fuzzing.md)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_uri_is_judged_alike_by_the_convention_layer_and_the_reference() {
    // `mission/research_artifact.json#/properties/results/items/properties/url` is `format: uri`,
    // a convention (D-31): strict mode reports it exactly when the reference validator would.
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mission/research_artifact/valid/minimal_conventional.json"
    ))
    .unwrap();
    let schema = jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&json!({"type": "string", "format": "uri"}))
        .unwrap();
    let strict = Validator::with_options(jerry_contracts::validation::Options::default().with_strict(true));
    for url in [
        "https://x/\u{e9}",
        "https://x/\u{fffd}",
        "https://x/a b",
        "https://x/%zz",
        "https://x/a\\b",
        "https://\u{e9}.com/",
        "http://x:99999/",
        "https://www.nasa.gov/reference/",
    ] {
        let mut document: Value = serde_json::from_str(&fixture).unwrap();
        document["results"][0]["url"] = json!(url);
        let bytes = serde_json::to_vec(&document).unwrap();
        let report = strict.validate(&bytes);
        assert_eq!(
            report.records.is_empty(),
            schema.is_valid(&json!(url)),
            "{url:?}: strict validation says {:?}, the reference validator the opposite",
            report.codes()
        );
        // By default the convention is a warning: the document stays valid either way.
        assert!(validate(&bytes).is_valid(), "{url:?}");
    }
}

/// serde's derived read of a unit-variant enum also takes an object naming the variant
/// (`{"insight": null}`), which serde_json offers; the schemas' string enums refuse it, and so does
/// every path of the crate: the gate (the skim's fast path included) and the typed reads.
#[test]
fn an_enum_value_given_as_an_object_is_refused_on_every_path() {
    let seed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/session_context/v1.1.0/valid/seed_example_1.json"),
    )
    .unwrap();
    let base: Value = serde_json::from_str(&seed).unwrap();
    let cases = [
        ("/payload/findings/0/category", json!({"insight": null})),
        ("/source_agent/family", json!({"ps": null})),
        ("/payload/cognitive_mode", json!({"divergent": null})),
    ];
    for (place, hostile) in cases {
        let mut document = base.clone();
        *document.pointer_mut(place).unwrap() = hostile.clone();
        let bytes = serde_json::to_vec(&document).unwrap();
        let report = validate(&bytes);
        assert!(!report.is_valid(), "{place}: {hostile} accepted");
        assert!(
            // SCH-002 for an enum (wrong type), SCH-008 for a constant.
            report.records.iter().any(|r| r.error_code.starts_with("SCH-00") && r.path.as_deref() == Some(place)),
            "{place}: {:?}",
            report.records
        );
        assert!(
            jerry_contracts::typed::from_slice::<jerry_contracts::session_context::v1_1::SessionContext>(&bytes)
                .is_err(),
            "{place}: the typed read took {hostile}"
        );
        assert!(AnySessionContext::from_slice(&bytes).is_err(), "{place}");
    }
}

#[test]
fn a_parsed_value_nested_past_the_limit_is_refused_as_its_text_is() {
    // D-166: a `Value` is read as its JSON text, so the nesting limit text is held to holds for
    // it too, wherever it nests (here an undeclared member, which the schema allows): one level
    // under the limit is judged valid on both paths, one level over is refused on both, the
    // value at the place where its nesting passes the limit. Found without recursion: the walk
    // of a 100,000-deep value does not overflow the stack.
    let document = |depth: usize| {
        let bytes = researcher_with(r#""ps-researcher""#, r#""t""#, ONE_FINDING, r#","x-deep":0"#);
        let mut value: Value = serde_json::from_slice(&bytes).unwrap();
        let mut deep = json!(0);
        for _ in 0..depth {
            // (`json!([deep])` would copy the value through its serializer, recursively)
            deep = Value::Array(vec![deep]);
        }
        value["x-deep"] = deep;
        value
    };
    let validator = Validator::new();
    // The document's root object is one level; the member's arrays add the rest.
    let within = document(127);
    assert!(
        validator.validate_value(None, &within).is_valid(),
        "{:?}",
        validator.validate_value(None, &within).records
    );
    assert!(validate(within.to_string().as_bytes()).is_valid());
    let past = document(128);
    let report = validator.validate_value(None, &past);
    assert_eq!(report.codes(), ["SCH-012"], "{:?}", report.records);
    let error = &report.records[0];
    // The 128th array, at level 129.
    assert_eq!(error.path.as_deref(), Some(format!("/x-deep{}", "/0".repeat(127)).as_str()), "{error:?}");
    assert!(error.message.contains("nested deeper than 128 levels"), "{error:?}");
    malformed(&validate(past.to_string().as_bytes()), "nested deeper than 128 levels");
    // The type's own read refuses it there too.
    let typed = jerry_contracts::typed::deserialize::<ResearcherOutput>(&past).expect_err("refused");
    assert!(typed.records.iter().any(|r| r.path == error.path), "{typed}");
    let mut deepest = document(100_000);
    assert_eq!(validator.validate_value(None, &deepest).codes(), ["SCH-012"]);
    // Take the nesting apart iteratively: dropping it recursively would overflow the stack.
    let mut deep = deepest["x-deep"].take();
    while let Value::Array(mut items) = deep {
        deep = items.pop().unwrap_or(Value::Null);
    }
}
