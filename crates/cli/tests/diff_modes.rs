//! `diff --mode` end to end (issue 31, item 5): the registries' compatibility modes over a list
//! of versions, the explicit rule for members open objects do not declare, the declared-bump
//! check under the mode, and a document for every refused change, which the test judges again
//! with the `jsonschema` crate on its own.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

fn diff(args: &[&str]) -> (i32, Value, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_jerry-contracts"))
        .arg("diff")
        .args(["--format", "json"])
        .args(args)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code().unwrap_or(-1), report, stderr)
}

fn write(dir: &Path, name: &str, schema: Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, schema.to_string()).unwrap();
    path.to_str().unwrap().to_owned()
}

fn object(version: &str, required: &[&str], properties: Value) -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": format!("https://example.com/task/v{version}.json"),
        "type": "object",
        "required": required,
        "properties": properties,
    })
}

/// The changes of the report's pairs, as (pair index, pointer) → change.
fn change<'a>(report: &'a Value, pair: usize, pointer: &str) -> &'a Value {
    report["pairs"][pair]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["pointer"] == pointer)
        .unwrap_or_else(|| panic!("no change at {pointer} in pair {pair}: {report:#}"))
}

/// Every refused change's document, judged again: valid under the version it names as valid,
/// invalid under the other. Returns how many were checked.
fn witnesses_hold(report: &Value) -> usize {
    let mut checked = 0;
    for pair in report["pairs"].as_array().unwrap() {
        for change in pair["changes"].as_array().unwrap() {
            for direction in ["backward", "forward"] {
                let standing = &change[direction];
                if standing["standing"] != "refused" {
                    continue;
                }
                let witness = &standing["witness"];
                assert_eq!(witness["target"], "", "a whole document: {witness}");
                let judge = |path: &Value| {
                    let schema: Value =
                        serde_json::from_slice(&std::fs::read(path.as_str().unwrap()).unwrap()).unwrap();
                    jsonschema::options()
                        .should_validate_formats(true)
                        .build(&schema)
                        .unwrap()
                        .is_valid(&witness["document"])
                };
                assert!(judge(&witness["valid_under"]), "{change:#}");
                assert!(!judge(&witness["invalid_under"]), "{change:#}");
                checked += 1;
            }
        }
    }
    checked
}

/// Three versions: v1.1.0 adds an enum value and an optional property; v2.0.0 narrows four ways.
fn three(dir: &Path) -> Vec<String> {
    vec![
        write(
            dir,
            "v1.json",
            object(
                "1.0.0",
                &["id"],
                json!({
                    "id": {"type": "string", "pattern": "^T-[0-9]{3}$"},
                    "n": {"type": "integer", "minimum": 0},
                    "kind": {"enum": ["a", "b"]},
                }),
            ),
        ),
        write(
            dir,
            "v2.json",
            object(
                "1.1.0",
                &["id"],
                json!({
                    "id": {"type": "string", "pattern": "^T-[0-9]{3}$"},
                    "n": {"type": "integer", "minimum": 0},
                    "kind": {"enum": ["a", "b", "c"]},
                    "note": {"type": "string", "maxLength": 10},
                }),
            ),
        ),
        write(
            dir,
            "v3.json",
            object(
                "2.0.0",
                &["id", "kind"],
                json!({
                    "id": {"type": "string", "pattern": "^T-[0-9]{4}$"},
                    "n": {"type": "integer", "minimum": 1},
                    "kind": {"enum": ["a", "c"]},
                    "note": {"type": "string", "maxLength": 10},
                }),
            ),
        ),
    ]
}

#[test]
fn backward_refuses_what_old_documents_break_and_shows_each() {
    let dir = tempfile::tempdir().unwrap();
    let versions = three(dir.path());
    let args: Vec<&str> = ["--mode", "backward"].into_iter().chain(versions.iter().map(String::as_str)).collect();
    let (code, report, err) = diff(&args);
    assert_eq!(code, 0, "each version declares the bump it needs: {report:#}{err}");
    assert_eq!(report["pairs"].as_array().unwrap().len(), 2, "backward checks each version against the previous one");
    assert_eq!(report["pairs"][0]["compatible"], true);
    // An enum value and an optional property added: compatible, MINOR.
    assert_eq!(change(&report, 0, "/properties/kind/enum")["backward"]["standing"], "compatible");
    assert_eq!(change(&report, 0, "/properties/note")["class"], "MINOR");
    // Four narrowings, each refused with a document that shows it.
    for pointer in ["/properties/id/pattern", "/properties/kind/enum", "/properties/n/minimum", "/required"] {
        let refused = change(&report, 1, pointer);
        assert_eq!(refused["backward"]["standing"], "refused", "{refused:#}");
        assert_eq!(refused["class"], "MAJOR");
    }
    let enum_witness = &change(&report, 1, "/properties/kind/enum")["backward"]["witness"];
    assert_eq!(enum_witness["document"]["kind"], "b", "the removed value is what old documents had");
    assert!(enum_witness["reason"].as_str().unwrap().starts_with("/kind:"), "{enum_witness}");
    assert_eq!(witnesses_hold(&report), 4);
    assert_eq!(report["bumps"][1]["required"], "major");
}

#[test]
fn forward_and_full_refuse_what_the_old_version_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let versions = three(dir.path());
    let args: Vec<&str> = ["--mode", "forward"].into_iter().chain(versions.iter().map(String::as_str)).collect();
    let (code, report, _) = diff(&args);
    assert_eq!(code, 1, "v1.1.0 declares minor, but forward needs major for the new enum value: {report:#}");
    let added = change(&report, 0, "/properties/kind/enum");
    assert_eq!(added["forward"]["standing"], "refused");
    assert_eq!(added["forward"]["witness"]["document"]["kind"], "c");
    assert_eq!(report["bumps"][0]["ok"], false);
    // Narrowings refuse no new document.
    assert_eq!(change(&report, 1, "/properties/n/minimum")["forward"]["standing"], "compatible");
    assert_eq!(change(&report, 1, "/required")["class"], "MINOR");
    // A changed pattern refuses in both directions.
    assert_eq!(change(&report, 1, "/properties/id/pattern")["forward"]["witness"]["document"]["id"], "T-0000");

    let args: Vec<&str> = ["--mode", "full"].into_iter().chain(versions.iter().map(String::as_str)).collect();
    let (code, report, _) = diff(&args);
    assert_eq!(code, 1);
    let pattern = change(&report, 1, "/properties/id/pattern");
    assert_eq!(
        (pattern["backward"]["standing"].as_str(), pattern["forward"]["standing"].as_str()),
        (Some("refused"), Some("refused"))
    );
    assert!(witnesses_hold(&report) >= 6);
}

/// A property dropped from an open object, then declared again with another type: each step is
/// backward compatible, but a document of the first version is refused by the third.
#[test]
fn transitive_modes_check_every_earlier_version() {
    let dir = tempfile::tempdir().unwrap();
    let versions = [
        write(dir.path(), "v1.json", object("1.0.0", &[], json!({"x": {"type": "string"}}))),
        write(dir.path(), "v2.json", object("1.1.0", &[], json!({}))),
        write(dir.path(), "v3.json", object("1.2.0", &[], json!({"x": {"type": "integer"}}))),
    ];
    let run = |mode: &str| {
        let args: Vec<&str> = ["--mode", mode].into_iter().chain(versions.iter().map(String::as_str)).collect();
        diff(&args)
    };
    let (code, report, _) = run("backward");
    assert_eq!(code, 0, "{report:#}");
    assert!(report["pairs"].as_array().unwrap().iter().all(|p| p["compatible"] == true));
    let (code, report, _) = run("backward-transitive");
    assert_eq!(code, 1, "{report:#}");
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3, "v2 against v1; v3 against v1 and v2");
    let (old, new) = (pairs[1]["old"].as_str().unwrap(), pairs[1]["new"].as_str().unwrap());
    assert!(old.ends_with("v1.json") && new.ends_with("v3.json"));
    let narrowed = change(&report, 1, "/properties/x/type");
    assert_eq!(narrowed["backward"]["witness"]["document"], json!({"x": "example"}));
    assert_eq!(report["bumps"][1]["required"], "major");
    assert_eq!(witnesses_hold(&report), 1);
}

/// The registries' most common complaint: an optional property added to an open schema. By
/// default (undeclared members outside the contract) it is compatible; with `--undeclared any`
/// backward refuses it, showing an old document that already carried the member.
#[test]
fn the_rule_for_undeclared_members_is_explicit() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "v1.json", object("1.0.0", &["id"], json!({"id": {"type": "string"}})));
    let new = write(
        dir.path(),
        "v2.json",
        object("1.1.0", &["id"], json!({"id": {"type": "string"}, "note": {"type": "string"}})),
    );
    let (code, report, _) = diff(&["--mode", "full", &old, &new]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["undeclared"], "outside");
    assert_eq!(change(&report, 0, "/properties/note")["class"], "MINOR");

    let (code, report, _) = diff(&["--mode", "backward", "--undeclared", "any", &old, &new]);
    assert_eq!(code, 1, "{report:#}");
    let added = change(&report, 0, "/properties/note");
    assert_eq!(added["backward"]["standing"], "refused");
    assert!(!added["backward"]["witness"]["document"]["note"].is_string(), "{added:#}");
    assert_eq!(witnesses_hold(&report), 1);
    // Forward never refuses it: the old version is open.
    let (code, report, _) = diff(&["--mode", "forward", "--undeclared", "any", &old, &new]);
    assert_eq!((code, change(&report, 0, "/properties/note")["forward"]["standing"].as_str()), (0, Some("compatible")));

    // A closed old version refuses the new member going forward, whichever the rule.
    let mut closed = object("1.0.0", &["id"], json!({"id": {"type": "string"}}));
    closed["additionalProperties"] = json!(false);
    let closed = write(dir.path(), "closed.json", closed);
    let (code, report, _) = diff(&["--mode", "forward", &closed, &new]);
    assert_eq!(code, 1, "{report:#}");
    let witness = &change(&report, 0, "/properties/note")["forward"]["witness"];
    assert!(witness["document"]["note"].is_string(), "{witness}");
}

/// The seeds' own envelopes: v1.1.0 reads every v1.0.0 handoff (backward), but a v1.0.0
/// reader refuses a v1.1.0 handoff whose payload is an agent's output (forward).
#[test]
fn the_envelope_versions_are_backward_but_not_forward_compatible() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/session_context");
    let (old, new): (PathBuf, PathBuf) = (root.join("v1.0.0.json"), root.join("v1.1.0.json"));
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let (code, report, err) = diff(&["--mode", "backward", old, new]);
    assert_eq!(code, 0, "{report:#}{err}");
    assert!(report["unresolved"].as_array().unwrap().is_empty(), "every $ref is read from beside the schema");
    let (code, report, _) = diff(&["--mode", "forward", old, new]);
    assert_eq!(code, 1);
    let conditional = change(&report, 0, "/definitions/payload/if");
    let witness = &conditional["forward"]["witness"];
    assert_eq!(witness["target"], "", "a whole handoff: {witness}");
    assert!(witness["document"]["payload"]["agent_id"].is_string(), "{witness}");
    assert!(witness["reason"].as_str().unwrap().starts_with("/payload"), "{witness}");
}

#[test]
fn a_list_needs_a_mode_and_the_rule_needs_a_mode() {
    let dir = tempfile::tempdir().unwrap();
    let versions = three(dir.path());
    let (code, _, err) = diff(&[&versions[0], &versions[1], &versions[2]]);
    assert_eq!(code, 2);
    assert!(err.contains("without --mode, diff compares two"), "{err}");
    let (code, _, _) = diff(&["--undeclared", "any", &versions[0], &versions[1]]);
    assert_eq!(code, 2);
    // Two versions without a mode: the classifier's verdict, as before.
    let (code, report, _) = diff(&[&versions[1], &versions[2]]);
    assert_eq!((code, report["required"].as_str()), (0, Some("major")));
}

/// A changed pattern is decided on the two patterns' automata: a looser one is backward
/// compatible, and forward refused with the shortest string that shows it; a pattern that does
/// not translate (a backreference) can only be searched, and what the search cannot show is
/// reported unproven, and refused.
#[test]
fn changed_patterns_are_decided_on_their_automata() {
    let dir = tempfile::tempdir().unwrap();
    let schema = |version: &str, pattern: &str| {
        object(version, &["code"], json!({"code": {"type": "string", "pattern": pattern}}))
    };
    let strict = write(dir.path(), "v1.json", schema("1.0.0", "^[a-z]{2,}$"));
    let loose = write(dir.path(), "v2.json", schema("1.1.0", "^[a-z0-9]{2,}$"));
    let (code, report, _) = diff(&["--mode", "backward", &strict, &loose]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(change(&report, 0, "/properties/code/pattern")["class"], "MINOR");
    let (code, report, _) = diff(&["--mode", "forward", &strict, &loose]);
    assert_eq!(code, 1);
    let witness = &change(&report, 0, "/properties/code/pattern")["forward"]["witness"];
    assert_eq!(
        witness["document"],
        json!({"code": "00"}),
        "the shortest string the looser pattern adds, first in byte order"
    );
    assert_eq!(witnesses_hold(&report), 1);

    let twice = write(dir.path(), "v3.json", schema("1.2.0", r"^([a-z])\1$"));
    let (code, report, _) = diff(&["--mode", "backward", &loose, &twice]);
    assert_eq!(code, 1, "{report:#}");
    let standing = &change(&report, 0, "/properties/code/pattern")["backward"];
    assert!(standing["standing"] == "refused" || standing["standing"] == "unproven", "{standing}");
    witnesses_hold(&report);
}

/// A change inside a definition is shown by a whole document, the definition's instance placed
/// where the schema references it (here, an array's items).
#[test]
fn a_definition_change_is_shown_in_a_whole_document() {
    let dir = tempfile::tempdir().unwrap();
    let schema = |version: &str, minimum: i64| {
        let mut schema =
            object(version, &[], json!({"list": {"type": "array", "items": {"$ref": "#/definitions/item"}}}));
        schema["definitions"] = json!({"item": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "minimum": minimum}}}});
        schema
    };
    let old = write(dir.path(), "v1.json", schema("1.0.0", 0));
    let new = write(dir.path(), "v2.json", schema("2.0.0", 1));
    let (code, report, _) = diff(&["--mode", "backward", &old, &new]);
    assert_eq!(code, 0, "a major bump is declared: {report:#}");
    let witness = &change(&report, 0, "/definitions/item/properties/n/minimum")["backward"]["witness"];
    assert_eq!(witness["document"], json!({"list": [{"n": 0}]}), "{witness}");
    assert!(witness["reason"].as_str().unwrap().starts_with("/list/0/n:"), "{witness}");
    assert_eq!(witnesses_hold(&report), 1);
}
