//! The schema change classifier (`jerry_contracts_schema_tools::diff`): constructed pairs for every
//! class and kind, the real corpus (session_context v1.0.0 → v1.1.0, a researcher_output edit),
//! and a hold-out check that plants one known change, chosen by a seeded PRNG, in corpus schemas.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::fs;
use std::path::{Path, PathBuf};

use jerry_contracts_schema_tools::diff::{
    Bump, Change, ChangeKind, Class, Version, declared_bump, declared_version, diff, required_bump, verdict,
};
use serde_json::{Value, json};

use Class::{Major as MAJ, Minor as MIN, Patch as PAT};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn read(relative: &str) -> Value {
    serde_json::from_str(&fs::read_to_string(corpus_dir().join(relative)).unwrap()).unwrap()
}

fn summary(changes: &[Change]) -> Vec<(Class, String)> {
    changes.iter().map(|c| (c.class, c.pointer.clone())).collect()
}

/// Asserts the exact (class, pointer) list and the required bump of one pair.
#[track_caller]
fn check(name: &str, old: &Value, new: &Value, expected: &[(Class, &str)], bump: Bump) {
    let changes = diff(old, new);
    let expected: Vec<(Class, String)> = expected.iter().map(|(c, p)| (*c, (*p).to_owned())).collect();
    assert_eq!(summary(&changes), expected, "{name}: {changes:#?}");
    assert_eq!(required_bump(&changes), bump, "{name}");
}

/// Asserts the kinds, in order, of the changes of one pair.
#[track_caller]
fn kinds(old: &Value, new: &Value, expected: &[ChangeKind]) {
    let changes = diff(old, new);
    assert_eq!(changes.iter().map(|c| c.kind).collect::<Vec<_>>(), expected, "{changes:#?}");
}

fn object() -> Value {
    json!({
        "type": "object",
        "required": ["a"],
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "integer"},
        },
    })
}

/// `object()` after `edit`.
fn edited(edit: impl FnOnce(&mut Value)) -> Value {
    let mut value = object();
    edit(&mut value);
    value
}

fn at<'a>(value: &'a mut Value, pointer: &str) -> &'a mut Value {
    value.pointer_mut(pointer).unwrap_or_else(|| panic!("no {pointer}"))
}

#[test]
fn no_change_and_annotation_changes() {
    check("identical", &object(), &object(), &[], Bump::None);
    // Key order and `required` order are not changes.
    let reordered = json!({
        "properties": {"b": {"type": "integer"}, "a": {"type": "string"}},
        "required": ["a"],
        "type": "object",
    });
    check("reordered", &object(), &reordered, &[], Bump::None);
    let described = edited(|v| v["description"] = json!("an object"));
    check("description only", &object(), &described, &[(PAT, "/description")], Bump::Patch);
    let annotated = edited(|v| {
        let a = at(v, "/properties/a");
        a["title"] = json!("A");
        a["examples"] = json!(["x"]);
        a["default"] = json!("x");
        a["$comment"] = json!("why");
    });
    check(
        "annotations",
        &object(),
        &annotated,
        &[
            (PAT, "/properties/a/$comment"),
            (PAT, "/properties/a/default"),
            (PAT, "/properties/a/examples"),
            (PAT, "/properties/a/title"),
        ],
        Bump::Patch,
    );
    kinds(&object(), &described, &[ChangeKind::AnnotationChanged]);
}

#[test]
fn properties_and_required() {
    let removed = edited(|v| drop(at(v, "/properties").as_object_mut().unwrap().remove("b")));
    check("property removed", &object(), &removed, &[(MAJ, "/properties/b")], Bump::Major);
    kinds(&object(), &removed, &[ChangeKind::PropertyRemoved]);

    let renamed = edited(|v| {
        let b = at(v, "/properties").as_object_mut().unwrap().remove("b").unwrap();
        v["properties"]["c"] = b;
    });
    check("property renamed", &object(), &renamed, &[(MAJ, "/properties/b")], Bump::Major);
    kinds(&object(), &renamed, &[ChangeKind::PropertyRenamed]);
    assert_eq!(diff(&object(), &renamed)[0].description, "property `b` renamed to `c`");

    let renamed_required = edited(|v| {
        let a = at(v, "/properties").as_object_mut().unwrap().remove("a").unwrap();
        v["properties"]["a2"] = a;
        v["required"] = json!(["a2"]);
    });
    check(
        "required property renamed",
        &object(),
        &renamed_required,
        &[(MAJ, "/properties/a"), (MAJ, "/required"), (MIN, "/required")],
        Bump::Major,
    );

    let newly_required = edited(|v| v["required"] = json!(["a", "b"]));
    check("existing property made required", &object(), &newly_required, &[(MAJ, "/required")], Bump::Major);
    kinds(&object(), &newly_required, &[ChangeKind::RequiredAdded]);

    let new_required = edited(|v| {
        v["properties"]["c"] = json!({"type": "boolean"});
        v["required"] = json!(["a", "c"]);
    });
    check(
        "new required property",
        &object(),
        &new_required,
        &[(MIN, "/properties/c"), (MAJ, "/required")],
        Bump::Major,
    );

    let new_optional = edited(|v| v["properties"]["c"] = json!({"type": "boolean"}));
    check("new optional property", &object(), &new_optional, &[(MIN, "/properties/c")], Bump::Minor);
    kinds(&object(), &new_optional, &[ChangeKind::PropertyAdded]);

    let optional = edited(|v| v["required"] = json!([]));
    check("required entry removed", &object(), &optional, &[(MIN, "/required")], Bump::Minor);
    kinds(&object(), &optional, &[ChangeKind::RequiredRemoved]);
}

#[test]
fn types() {
    let retyped = edited(|v| v["properties"]["a"]["type"] = json!("integer"));
    check("type changed", &object(), &retyped, &[(MAJ, "/properties/a/type")], Bump::Major);
    kinds(&object(), &retyped, &[ChangeKind::TypeNarrowed]);

    let nullable = edited(|v| v["properties"]["a"]["type"] = json!(["string", "null"]));
    check("null added", &object(), &nullable, &[(MIN, "/properties/a/type")], Bump::Minor);
    kinds(&object(), &nullable, &[ChangeKind::TypeWidened]);
    check("null removed", &nullable, &object(), &[(MAJ, "/properties/a/type")], Bump::Major);

    let number = edited(|v| v["properties"]["b"]["type"] = json!("number"));
    check("integer widened to number", &object(), &number, &[(MIN, "/properties/b/type")], Bump::Minor);
    check("number narrowed to integer", &number, &object(), &[(MAJ, "/properties/b/type")], Bump::Major);

    let spelled = edited(|v| v["properties"]["a"]["type"] = json!(["string"]));
    check("same type, other spelling", &object(), &spelled, &[], Bump::None);

    let untyped = edited(|v| drop(v["properties"]["a"].as_object_mut().unwrap().remove("type")));
    check("type removed", &object(), &untyped, &[(MIN, "/properties/a/type")], Bump::Minor);
    check("type added", &untyped, &object(), &[(MAJ, "/properties/a/type")], Bump::Major);
}

#[test]
fn enums_and_consts() {
    let e = |values: Value| json!({"properties": {"e": {"type": "string", "enum": values}}});
    check("enum value removed", &e(json!(["x", "y"])), &e(json!(["x"])), &[(MAJ, "/properties/e/enum")], Bump::Major);
    check("enum value added", &e(json!(["x"])), &e(json!(["x", "y"])), &[(MIN, "/properties/e/enum")], Bump::Minor);
    check(
        "enum value replaced",
        &e(json!(["x", "y"])),
        &e(json!(["x", "z"])),
        &[(MAJ, "/properties/e/enum"), (MIN, "/properties/e/enum")],
        Bump::Major,
    );
    kinds(&e(json!(["x", "y"])), &e(json!(["x", "z"])), &[ChangeKind::EnumNarrowed, ChangeKind::EnumWidened]);
    check("enum reordered", &e(json!(["x", "y"])), &e(json!(["y", "x"])), &[], Bump::None);
    let plain = json!({"properties": {"e": {"type": "string"}}});
    check("enum added", &plain, &e(json!(["x"])), &[(MAJ, "/properties/e/enum")], Bump::Major);
    check("enum removed", &e(json!(["x"])), &plain, &[(MIN, "/properties/e/enum")], Bump::Minor);

    let c = |value: Value| json!({"properties": {"k": {"const": value}}});
    let free = json!({"properties": {"k": {}}});
    check("const added", &free, &c(json!("v1")), &[(MAJ, "/properties/k/const")], Bump::Major);
    check("const changed", &c(json!("v1")), &c(json!("v2")), &[(MAJ, "/properties/k/const")], Bump::Major);
    check("const removed", &c(json!("v1")), &free, &[(MIN, "/properties/k/const")], Bump::Minor);
    kinds(&free, &c(json!("v1")), &[ChangeKind::ConstAdded]);
    kinds(&c(json!("v1")), &c(json!("v2")), &[ChangeKind::ConstChanged]);
    kinds(&c(json!("v1")), &free, &[ChangeKind::ConstRemoved]);
}

/// A JSON value from its text (numbers keep the spelling that matters: `1.0` is a float, `1e2` too).
fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn enum_and_const_values_are_compared_as_json_schema_compares_them() {
    // Numbers by value: `1`, `1.0` and `1e0` are the same value, so nothing changes.
    let e = |values: &str| json!({"properties": {"e": {"enum": parsed(values)}}});
    let at = "/properties/e/enum";
    check("1 -> 1.0", &e("[1]"), &e("[1.0]"), &[], Bump::None);
    check("1.0 -> 1", &e("[1.0]"), &e("[1]"), &[], Bump::None);
    check("100 -> 1e2", &e(r#"[100, "x"]"#), &e(r#"["x", 1e2]"#), &[], Bump::None);
    check("-0.0 -> 0", &e("[-0.0, 0.5]"), &e("[0, 5e-1]"), &[], Bump::None);
    check("nested", &e(r#"[[1, {"a": 2}]]"#), &e(r#"[[1.0, {"a": 2.0}]]"#), &[], Bump::None);
    // Different values still narrow and widen.
    check("1 -> 2", &e("[1]"), &e("[2]"), &[(MAJ, at), (MIN, at)], Bump::Major);
    check("1, 2 -> 1.0", &e("[1, 2]"), &e("[1.0]"), &[(MAJ, at)], Bump::Major);
    check("1.0 -> 1, 2", &e("[1.0]"), &e("[1, 2]"), &[(MIN, at)], Bump::Minor);
    check("1 -> 1.5", &e("[1]"), &e("[1.5]"), &[(MAJ, at), (MIN, at)], Bump::Major);
    check("items in order", &e("[[1, 2]]"), &e("[[2, 1]]"), &[(MAJ, at), (MIN, at)], Bump::Major);
    // Exactly, past 2^53: 9007199254740993 is no f64, and not 9007199254740992.
    let big = [("9007199254740993", "9007199254740992"), ("9007199254740993", "9007199254740992.0")];
    for (old, new) in big {
        check(old, &e(&format!("[{old}]")), &e(&format!("[{new}]")), &[(MAJ, at), (MIN, at)], Bump::Major);
    }
    check("2^53 as float", &e("[9007199254740992]"), &e("[9007199254740992.0]"), &[], Bump::None);
    check(
        "u64::MAX",
        &e("[18446744073709551615]"),
        &e("[18446744073709551615.0]"),
        &[(MAJ, at), (MIN, at)],
        Bump::Major,
    );

    let c = |value: &str| json!({"properties": {"k": {"const": parsed(value)}}});
    let at = "/properties/k/const";
    check("const 1 -> 1.0", &c("1"), &c("1.0"), &[], Bump::None);
    check("const 100 -> 1e2", &c("100"), &c("1e2"), &[], Bump::None);
    check(
        "const object",
        &c(r#"{"a": [1, {"b": 2}], "c": 3}"#),
        &c(r#"{"c": 3e0, "a": [1.0, {"b": 2}]}"#),
        &[],
        Bump::None,
    );
    check("const 1 -> 2", &c("1"), &c("2"), &[(MAJ, at)], Bump::Major);
    check("const big", &c("9007199254740993"), &c("9007199254740992"), &[(MAJ, at)], Bump::Major);
    check("const big float", &c("9007199254740993"), &c("9007199254740992.0"), &[(MAJ, at)], Bump::Major);
    check("const object changed", &c(r#"{"a": 1}"#), &c(r#"{"a": 1, "b": 1}"#), &[(MAJ, at)], Bump::Major);

    // The annotations holding values, and the numeric keywords, by the same equality.
    let d = |key: &str, value: &str| json!({"properties": {"k": {key: parsed(value)}}});
    check("default 1 -> 1.0", &d("default", "1"), &d("default", "1.0"), &[], Bump::None);
    check("examples", &d("examples", "[1, 2]"), &d("examples", "[1.0, 2e0]"), &[], Bump::None);
    check("default 1 -> 2", &d("default", "1"), &d("default", "2"), &[(PAT, "/properties/k/default")], Bump::Patch);
    check("multipleOf 2 -> 2.0", &d("multipleOf", "2"), &d("multipleOf", "2.0"), &[], Bump::None);
    let max = "/properties/k/maximum";
    check("maximum 10 -> 1e1", &d("maximum", "10"), &d("maximum", "1e1"), &[], Bump::None);
    let (exact, rounded) = ("9007199254740993", "9007199254740992.0");
    check("maximum lowered past 2^53", &d("maximum", exact), &d("maximum", rounded), &[(MAJ, max)], Bump::Major);
    check("maximum raised past 2^53", &d("maximum", rounded), &d("maximum", exact), &[(MIN, max)], Bump::Minor);
}

#[test]
fn bounds() {
    let old = json!({"properties": {
        "n": {"type": "integer", "minimum": 0, "maximum": 10},
        "s": {"type": "string"},
        "l": {"type": "array", "minItems": 1, "maxItems": 5},
    }});
    let narrowed = json!({"properties": {
        "n": {"type": "integer", "minimum": 1, "maximum": 9},
        "s": {"type": "string", "minLength": 1, "maxLength": 64},
        "l": {"type": "array", "minItems": 2, "maxItems": 4},
    }});
    let narrowed_at = [
        (MAJ, "/properties/l/maxItems"),
        (MAJ, "/properties/l/minItems"),
        (MAJ, "/properties/n/maximum"),
        (MAJ, "/properties/n/minimum"),
        (MAJ, "/properties/s/maxLength"),
        (MAJ, "/properties/s/minLength"),
    ];
    check("bounds narrowed", &old, &narrowed, &narrowed_at, Bump::Major);
    assert!(diff(&old, &narrowed).iter().all(|c| c.kind == ChangeKind::BoundNarrowed));
    let widened_at: Vec<(Class, &str)> = narrowed_at.iter().map(|(_, p)| (MIN, *p)).collect();
    check("bounds widened (the reverse)", &narrowed, &old, &widened_at, Bump::Minor);
    assert!(diff(&narrowed, &old).iter().all(|c| c.kind == ChangeKind::BoundWidened));

    let unbounded = json!({"properties": {"n": {"type": "integer"}, "s": {"type": "string"}, "l": {"type": "array"}}});
    check(
        "bounds removed",
        &old,
        &unbounded,
        &[
            (MIN, "/properties/l/maxItems"),
            (MIN, "/properties/l/minItems"),
            (MIN, "/properties/n/maximum"),
            (MIN, "/properties/n/minimum"),
        ],
        Bump::Minor,
    );
    let same = json!({"properties": {"n": {"type": "integer", "minimum": 0.0, "maximum": 10}, "s": {"type": "string"},
        "l": {"type": "array", "minItems": 1, "maxItems": 5}}});
    check("0 and 0.0 are the same bound", &old, &same, &[], Bump::None);

    let o = json!({"type": "object", "maxProperties": 3});
    let n = json!({"type": "object", "maxProperties": 4, "minProperties": 1, "exclusiveMinimum": 0});
    check(
        "object bounds, exclusive bounds",
        &o,
        &n,
        &[(MAJ, "/exclusiveMinimum"), (MIN, "/maxProperties"), (MAJ, "/minProperties")],
        Bump::Major,
    );
}

#[test]
fn patterns_and_formats() {
    let p = |pattern: &str| json!({"properties": {"x": {"type": "string", "pattern": pattern}}});
    let plain = json!({"properties": {"x": {"type": "string"}}});
    check("pattern changed", &p("^a$"), &p("^b$"), &[(MAJ, "/properties/x/pattern")], Bump::Major);
    assert_eq!(
        diff(&p("^a$"), &p("^b$"))[0].to_string(),
        r#"MAJOR /properties/x/pattern: pattern changed from "^a$" to "^b$""#
    );
    check("pattern loosened is still changed", &p("^a$"), &p("^a*$"), &[(MAJ, "/properties/x/pattern")], Bump::Major);
    check("pattern added", &plain, &p("^a$"), &[(MAJ, "/properties/x/pattern")], Bump::Major);
    check("pattern removed", &p("^a$"), &plain, &[(MIN, "/properties/x/pattern")], Bump::Minor);
    kinds(&plain, &p("^a$"), &[ChangeKind::PatternAdded]);
    kinds(&p("^a$"), &p("^b$"), &[ChangeKind::PatternChanged]);
    kinds(&p("^a$"), &plain, &[ChangeKind::PatternRemoved]);

    let f = |format: &str| json!({"properties": {"x": {"type": "string", "format": format}}});
    check("format added", &plain, &f("date"), &[(MAJ, "/properties/x/format")], Bump::Major);
    check("format changed", &f("date"), &f("date-time"), &[(MAJ, "/properties/x/format")], Bump::Major);
    check("format removed", &f("date"), &plain, &[(MIN, "/properties/x/format")], Bump::Minor);
    kinds(&plain, &f("date"), &[ChangeKind::FormatAdded]);
    kinds(&f("date"), &f("uuid"), &[ChangeKind::FormatChanged]);
    kinds(&f("date"), &plain, &[ChangeKind::FormatRemoved]);

    // The spec's example pointer, deep in items.
    let finding = |pattern: &str| {
        json!({"properties": {"findings": {"type": "array", "items": {"type": "object",
            "properties": {"id": {"type": "string", "pattern": pattern}}}}}})
    };
    check(
        "pattern inside items",
        &finding("^F-[0-9]{3}$"),
        &finding("^F-[0-9]{4}$"),
        &[(MAJ, "/properties/findings/items/properties/id/pattern")],
        Bump::Major,
    );
}

#[test]
fn additional_properties_and_unique_items() {
    let ap = |value: Option<Value>| {
        let mut v = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        if let Some(value) = value {
            v["additionalProperties"] = value;
        }
        v
    };
    let (open, t, f) = (ap(None), ap(Some(json!(true))), ap(Some(json!(false))));
    let schema = ap(Some(json!({"type": "string"})));
    check("true → false", &t, &f, &[(MAJ, "/additionalProperties")], Bump::Major);
    check("absent → false", &open, &f, &[(MAJ, "/additionalProperties")], Bump::Major);
    check("absent → schema", &open, &schema, &[(MAJ, "/additionalProperties")], Bump::Major);
    check("schema → false", &schema, &f, &[(MAJ, "/additionalProperties")], Bump::Major);
    check("false → absent", &f, &open, &[(MIN, "/additionalProperties")], Bump::Minor);
    check("false → schema", &f, &schema, &[(MIN, "/additionalProperties")], Bump::Minor);
    check("schema → true", &schema, &t, &[(MIN, "/additionalProperties")], Bump::Minor);
    check("absent → true", &open, &t, &[], Bump::None);
    kinds(&t, &f, &[ChangeKind::AdditionalPropertiesTightened]);
    kinds(&f, &t, &[ChangeKind::AdditionalPropertiesWidened]);
    let narrower = ap(Some(json!({"type": "string", "maxLength": 3})));
    check("schema walked", &schema, &narrower, &[(MAJ, "/additionalProperties/maxLength")], Bump::Major);

    let u = |unique: Option<bool>| {
        let mut v = json!({"type": "array", "items": {"type": "string"}});
        if let Some(unique) = unique {
            v["uniqueItems"] = json!(unique);
        }
        v
    };
    check("uniqueItems added", &u(None), &u(Some(true)), &[(MAJ, "/uniqueItems")], Bump::Major);
    check("uniqueItems removed", &u(Some(true)), &u(Some(false)), &[(MIN, "/uniqueItems")], Bump::Minor);
    check("uniqueItems false is absent", &u(None), &u(Some(false)), &[], Bump::None);
    kinds(&u(None), &u(Some(true)), &[ChangeKind::UniqueItemsAdded]);
    kinds(&u(Some(true)), &u(None), &[ChangeKind::UniqueItemsRemoved]);
}

#[test]
fn definitions_and_refs() {
    let old = json!({
        "properties": {"a": {"$ref": "#/definitions/x"}, "b": {"$ref": "../common/types.json#/definitions/id"}},
        "definitions": {"x": {"type": "string"}, "y": {"type": "integer"}},
    });
    let mut new = old.clone();
    new["definitions"].as_object_mut().unwrap().remove("y");
    check("definition removed", &old, &new, &[(MAJ, "/definitions/y")], Bump::Major);
    kinds(&old, &new, &[ChangeKind::DefinitionRemoved]);

    let mut new = old.clone();
    new["definitions"]["z"] = json!({"type": "boolean"});
    check("definition added", &old, &new, &[(MIN, "/definitions/z")], Bump::Minor);
    kinds(&old, &new, &[ChangeKind::DefinitionAdded]);

    let mut new = old.clone();
    new["definitions"]["x"]["minLength"] = json!(2);
    check("definition changed, reported once", &old, &new, &[(MAJ, "/definitions/x/minLength")], Bump::Major);

    let mut new = old.clone();
    new["properties"]["a"]["$ref"] = json!("#/definitions/y");
    new["properties"]["b"]["$ref"] = json!("../common/types.json#/definitions/uuid");
    check("$ref retargeted", &old, &new, &[(MAJ, "/properties/a/$ref"), (MAJ, "/properties/b/$ref")], Bump::Major);
    kinds(&old, &new, &[ChangeKind::RefRetargeted, ChangeKind::RefRetargeted]);

    let mut new = old.clone();
    new["properties"]["a"] = json!({"type": "string"});
    check("$ref inlined", &old, &new, &[(MAJ, "/properties/a/$ref")], Bump::Major);
    kinds(&old, &new, &[ChangeKind::RefRemoved]);
    check("$ref introduced", &new, &old, &[(MAJ, "/properties/a/$ref")], Bump::Major);
    kinds(&new, &old, &[ChangeKind::RefAdded]);

    // draft-07 ignores the siblings of `$ref`; annotations there are still PATCH.
    let mut new = old.clone();
    new["properties"]["a"]["minLength"] = json!(3);
    new["properties"]["a"]["description"] = json!("A");
    check("$ref siblings", &old, &new, &[(PAT, "/properties/a/description")], Bump::Patch);
}

#[test]
fn versioned_documents_share_definitions() {
    let v1 = json!({
        "$id": "https://example.com/s/v1.0.0.json",
        "properties": {"t": {"$ref": "#/definitions/trace"}, "p": {"$ref": "#/definitions/payload"}},
        "definitions": {
            "trace": {"type": "object", "properties": {"span": {"$ref": "#/definitions/span"}}},
            "span": {"type": "string"},
            "payload": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}}},
            "unused": {"type": "string"},
        },
    });
    // v1.1.0 keeps using v1.0.0's trace (and, through it, span) and payload by reference.
    let v11 = json!({
        "$id": "https://example.com/s/v1.1.0.json",
        "properties": {"t": {"$ref": "v1.0.0.json#/definitions/trace"}, "p": {"$ref": "v1.0.0.json#/definitions/payload"}},
    });
    check(
        "moved definitions",
        &v1,
        &v11,
        &[
            (PAT, "/$id"),
            (PAT, "/definitions/payload"),
            (PAT, "/definitions/span"),
            (PAT, "/definitions/trace"),
            (MAJ, "/definitions/unused"),
        ],
        Bump::Major,
    );
    let moved: Vec<ChangeKind> = diff(&v1, &v11).iter().map(|c| c.kind).collect();
    assert_eq!(moved.iter().filter(|k| **k == ChangeKind::DefinitionMoved).count(), 3, "{moved:?}");
    // With the definitions kept as well, the references into the previous document point where
    // the old local references pointed: no retarget.
    let mut v11b = v11.clone();
    v11b["definitions"] = v1["definitions"].clone();
    check("cross-version reference is no retarget", &v1, &v11b, &[(PAT, "/$id")], Bump::Patch);
    // Under one $id the references are dangling and the removals are removals.
    let mut same_id = v11.clone();
    same_id["$id"] = v1["$id"].clone();
    check(
        "removed under one $id",
        &v1,
        &same_id,
        &[
            (MAJ, "/definitions/payload"),
            (MAJ, "/definitions/span"),
            (MAJ, "/definitions/trace"),
            (MAJ, "/definitions/unused"),
        ],
        Bump::Major,
    );

    // A schema replaced by a reference to its own previous version is unchanged.
    let mut delegated = v1.clone();
    delegated["$id"] = json!("https://example.com/s/v1.1.0.json");
    delegated["definitions"]["payload"] = json!({"$ref": "v1.0.0.json#/definitions/payload"});
    check("delegated definition", &v1, &delegated, &[(PAT, "/$id"), (PAT, "/definitions/payload/$ref")], Bump::Patch);
    kinds(&v1, &delegated, &[ChangeKind::IdChanged, ChangeKind::RefDelegated]);
}

#[test]
fn conditionals() {
    let base = json!({
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        "then": {"required": ["x"], "properties": {"x": {"minimum": 0}}},
        "else": {"properties": {"y": {"maxLength": 5}}},
    });
    let mut new = base.clone();
    new["then"]["properties"]["x"]["minimum"] = json!(1);
    new["else"]["properties"]["y"]["maxLength"] = json!(6);
    check(
        "then and else walked",
        &base,
        &new,
        &[(MIN, "/else/properties/y/maxLength"), (MAJ, "/then/properties/x/minimum")],
        Bump::Major,
    );
    let mut new = base.clone();
    new["if"]["properties"]["kind"]["const"] = json!("b");
    check("condition changed", &base, &new, &[(MAJ, "/if")], Bump::Major);
    kinds(&base, &new, &[ChangeKind::ConditionChanged]);
    let mut new = base.clone();
    new["if"]["description"] = json!("kind a");
    check("condition annotated", &base, &new, &[(PAT, "/if/description")], Bump::Patch);

    let plain = json!({"type": "object", "properties": {"kind": {"type": "string"}}});
    check("conditional added on a declared property", &plain, &base, &[(MAJ, "/if")], Bump::Major);
    kinds(&plain, &base, &[ChangeKind::ConditionalAdded]);
    check("conditional removed", &base, &plain, &[(MIN, "/if")], Bump::Minor);
    kinds(&base, &plain, &[ChangeKind::ConditionalRemoved]);

    // A conditional on a property the old schema did not declare, with no `else`: only instances
    // carrying that undeclared property are affected, like a new optional property.
    let mut undeclared = plain.clone();
    undeclared["if"] = json!({"properties": {"agent": {"const": "x"}}, "required": ["agent"]});
    undeclared["then"] = json!({"required": ["x"]});
    check("conditional on an undeclared property", &plain, &undeclared, &[(MIN, "/if")], Bump::Minor);
}

#[test]
fn dispatch_delegating_to_the_previous_version() {
    let old = json!({
        "$id": "https://example.com/s/v1.0.0.json",
        "definitions": {"payload": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}}}},
    });
    let dispatch = |if_: Value| {
        json!({
            "$id": "https://example.com/s/v1.1.0.json",
            "definitions": {"payload": {
                "type": "object",
                "if": if_,
                "then": {"$ref": "../agents/a.json"},
                "else": {"$ref": "v1.0.0.json#/definitions/payload"},
            }},
        })
    };
    let on_agent = dispatch(json!({"properties": {"agent_id": {"const": "a"}}, "required": ["agent_id"]}));
    check(
        "dispatch on an undeclared property",
        &old,
        &on_agent,
        &[(PAT, "/$id"), (MIN, "/definitions/payload/if")],
        Bump::Minor,
    );
    // Dispatching on a declared property can move old instances to `then`.
    let on_k = dispatch(json!({"properties": {"k": {"const": "a"}}, "required": ["k"]}));
    check(
        "dispatch on a declared property",
        &old,
        &on_k,
        &[(PAT, "/$id"), (MAJ, "/definitions/payload/if")],
        Bump::Major,
    );
    // Without `required` the condition matches instances lacking the property too.
    let unguarded = dispatch(json!({"properties": {"agent_id": {"const": "a"}}}));
    check(
        "dispatch without required",
        &old,
        &unguarded,
        &[(PAT, "/$id"), (MAJ, "/definitions/payload/if")],
        Bump::Major,
    );
}

#[test]
fn combinators_and_other_keywords() {
    let all = |members: Value| json!({"allOf": members});
    check(
        "allOf member narrowed",
        &all(json!([{"minimum": 0}])),
        &all(json!([{"minimum": 1}])),
        &[(MAJ, "/allOf/0/minimum")],
        Bump::Major,
    );
    check(
        "allOf member added",
        &all(json!([{"minimum": 0}])),
        &all(json!([{"minimum": 0}, {"maximum": 9}])),
        &[(MAJ, "/allOf/1")],
        Bump::Major,
    );
    check(
        "allOf member removed",
        &all(json!([{"minimum": 0}, {"maximum": 9}])),
        &all(json!([{"minimum": 0}])),
        &[(MIN, "/allOf/1")],
        Bump::Minor,
    );
    let any = |members: Value| json!({"anyOf": members});
    check(
        "anyOf alternative added",
        &any(json!([{"type": "string"}])),
        &any(json!([{"type": "string"}, {"type": "null"}])),
        &[(MIN, "/anyOf/1")],
        Bump::Minor,
    );
    check(
        "anyOf alternative removed",
        &any(json!([{"type": "string"}, {"type": "null"}])),
        &any(json!([{"type": "string"}])),
        &[(MAJ, "/anyOf/1")],
        Bump::Major,
    );
    check(
        "anyOf alternative widened",
        &any(json!([{"type": "string", "maxLength": 3}])),
        &any(json!([{"type": "string"}])),
        &[(MIN, "/anyOf/0/maxLength")],
        Bump::Minor,
    );
    let one = |members: Value| json!({"oneOf": members});
    check(
        "oneOf alternative added",
        &one(json!([{"type": "string"}])),
        &one(json!([{"type": "string"}, {"type": "null"}])),
        &[(MAJ, "/oneOf/1")],
        Bump::Major,
    );
    kinds(
        &one(json!([{"type": "string"}])),
        &one(json!([{"type": "string"}, {"type": "null"}])),
        &[ChangeKind::SubschemaAdded],
    );
    check("anyOf added", &json!({}), &any(json!([{"type": "string"}])), &[(MAJ, "/anyOf")], Bump::Major);
    check("allOf removed", &all(json!([{"type": "string"}])), &json!({}), &[(MIN, "/allOf")], Bump::Minor);

    check("not added", &json!({}), &json!({"not": {"type": "null"}}), &[(MAJ, "/not")], Bump::Major);
    check(
        "not changed",
        &json!({"not": {"type": "null"}}),
        &json!({"not": {"type": "string"}}),
        &[(MAJ, "/not")],
        Bump::Major,
    );
    check("not removed", &json!({"not": {"type": "null"}}), &json!({}), &[(MIN, "/not")], Bump::Minor);
    check(
        "multipleOf loosened",
        &json!({"multipleOf": 4}),
        &json!({"multipleOf": 2}),
        &[(MIN, "/multipleOf")],
        Bump::Minor,
    );
    check(
        "multipleOf changed",
        &json!({"multipleOf": 2}),
        &json!({"multipleOf": 3}),
        &[(MAJ, "/multipleOf")],
        Bump::Major,
    );
    check("multipleOf added", &json!({}), &json!({"multipleOf": 2}), &[(MAJ, "/multipleOf")], Bump::Major);
    check(
        "patternProperties entry added",
        &json!({}),
        &json!({"patternProperties": {"^x-": {"type": "string"}}}),
        &[(MAJ, "/patternProperties/^x-")],
        Bump::Major,
    );
    check(
        "dependencies added",
        &json!({}),
        &json!({"dependencies": {"a": ["b"]}}),
        &[(MAJ, "/dependencies/a")],
        Bump::Major,
    );
    check(
        "dependency loosened",
        &json!({"dependencies": {"a": ["b", "c"]}}),
        &json!({"dependencies": {"a": ["b"]}}),
        &[(MIN, "/dependencies/a")],
        Bump::Minor,
    );
    check(
        "propertyNames added",
        &json!({}),
        &json!({"propertyNames": {"maxLength": 8}}),
        &[(MAJ, "/propertyNames")],
        Bump::Major,
    );
    check("contains added", &json!({}), &json!({"contains": {}}), &[(MAJ, "/contains")], Bump::Major);
    check(
        "contentMediaType removed",
        &json!({"contentMediaType": "text/html"}),
        &json!({}),
        &[(MIN, "/contentMediaType")],
        Bump::Minor,
    );

    let tuple = |items: Value| json!({"type": "array", "items": items});
    check(
        "tuple item added",
        &tuple(json!([{"type": "string"}])),
        &tuple(json!([{"type": "string"}, {"type": "integer"}])),
        &[(MAJ, "/items/1")],
        Bump::Major,
    );
    check(
        "tuple item walked",
        &tuple(json!([{"type": "string"}])),
        &tuple(json!([{"type": "integer"}])),
        &[(MAJ, "/items/0/type")],
        Bump::Major,
    );
    check(
        "items form changed",
        &tuple(json!([{"type": "string"}])),
        &tuple(json!({"type": "string"})),
        &[(MAJ, "/items")],
        Bump::Major,
    );
    check("items added", &json!({"type": "array"}), &tuple(json!({"type": "string"})), &[(MAJ, "/items")], Bump::Major);
    check(
        "items removed",
        &tuple(json!({"type": "string"})),
        &json!({"type": "array"}),
        &[(MIN, "/items")],
        Bump::Minor,
    );

    check(
        "schema true → false",
        &json!({"properties": {"a": true}}),
        &json!({"properties": {"a": false}}),
        &[(MAJ, "/properties/a")],
        Bump::Major,
    );
    check(
        "schema false → {}",
        &json!({"properties": {"a": false}}),
        &json!({"properties": {"a": {}}}),
        &[(MIN, "/properties/a")],
        Bump::Minor,
    );
    check("schema true → {}", &json!({"properties": {"a": true}}), &json!({"properties": {"a": {}}}), &[], Bump::None);
    check(
        "not a schema",
        &json!({"properties": {"a": 1}}),
        &json!({"properties": {"a": 2}}),
        &[(MAJ, "/properties/a")],
        Bump::Major,
    );

    let dialect = |s: &str| json!({"$schema": s});
    check(
        "$schema spelled differently",
        &dialect("http://json-schema.org/draft-07/schema#"),
        &dialect("https://json-schema.org/draft-07/schema"),
        &[(PAT, "/$schema")],
        Bump::Patch,
    );
    check(
        "$schema dialect changed",
        &dialect("http://json-schema.org/draft-07/schema#"),
        &dialect("https://json-schema.org/draft/2020-12/schema"),
        &[(MAJ, "/$schema")],
        Bump::Major,
    );
    kinds(
        &dialect("http://json-schema.org/draft-07/schema#"),
        &dialect("https://json-schema.org/draft/2020-12/schema"),
        &[ChangeKind::DialectChanged],
    );
    check(
        "$id changed",
        &json!({"$id": "https://x/a.json"}),
        &json!({"$id": "https://x/b.json"}),
        &[(PAT, "/$id")],
        Bump::Patch,
    );
    check(
        "unknown keyword is an annotation",
        &json!({"x-owner": "a"}),
        &json!({"x-owner": "b"}),
        &[(PAT, "/x-owner")],
        Bump::Patch,
    );
}

#[test]
fn declared_versions() {
    let id = |v: &str| json!({"$id": format!("https://jerry.dev/schemas/session_context/{v}.json")});
    let v = |major, minor, patch| Version { major, minor, patch };
    assert_eq!(declared_version(&id("v1.1.0")), Some(v(1, 1, 0)));
    assert_eq!(declared_bump(&id("v1.0.0"), &id("v1.1.0")), Some(Bump::Minor));
    assert_eq!(declared_bump(&id("v1.1.0"), &id("v2.0.0")), Some(Bump::Major));
    assert_eq!(declared_bump(&id("v1.1.0"), &id("v1.1.7")), Some(Bump::Patch));
    assert_eq!(declared_bump(&id("v1.1.0"), &id("v1.1.0")), Some(Bump::None));
    assert_eq!(declared_bump(&id("v1.1.0"), &id("v1.0.0")), Some(Bump::None), "a downgrade is no bump");
    let version = |s: &str| json!({"$id": "https://x/a.json", "version": s});
    assert_eq!(declared_bump(&version("1.2.3"), &version("1.3.0")), Some(Bump::Minor));
    let sv = |s: &str| json!({"properties": {"schema_version": {"const": s}}});
    assert_eq!(declared_version(&sv("v1")), Some(v(1, 0, 0)));
    assert_eq!(declared_bump(&sv("v1"), &sv("v2")), Some(Bump::Major));
    // `$id` first, then `version`, then schema_version.const.
    let both =
        json!({"$id": "https://x/v3.0.0.json", "version": "1.0.0", "properties": {"schema_version": {"const": "v2"}}});
    assert_eq!(declared_version(&both), Some(v(3, 0, 0)));
    assert_eq!(declared_bump(&object(), &object()), None);
    assert_eq!(declared_bump(&sv("v1"), &object()), None, "only one side declares");
    let pattern_only = json!({"properties": {"schema_version": {"type": "string", "pattern": "^1\\.[0-9]+$"}}});
    assert_eq!(declared_version(&pattern_only), None);
}

#[test]
fn verdicts() {
    let old = json!({"$id": "https://x/v1.0.0.json", "properties": {"x": {"type": "string", "pattern": "^a$"}}});
    let mut new = old.clone();
    new["$id"] = json!("https://x/v1.1.0.json");
    new["properties"]["x"]["pattern"] = json!("^b$");
    let v = verdict(&old, &new);
    assert_eq!((v.required, v.declared, v.ok), (Bump::Major, Some(Bump::Minor), false));
    assert_eq!(
        v.to_string(),
        "PATCH /$id: $id changed from \"https://x/v1.0.0.json\" to \"https://x/v1.1.0.json\"\n\
         MAJOR /properties/x/pattern: pattern changed from \"^a$\" to \"^b$\"\n\
         least version bump needed: major; declared: minor — too small"
    );
    assert_eq!(
        v.to_json(),
        json!({
            "changes": [
                {"class": "PATCH", "kind": "id_changed", "pointer": "/$id",
                 "description": "$id changed from \"https://x/v1.0.0.json\" to \"https://x/v1.1.0.json\""},
                {"class": "MAJOR", "kind": "pattern_changed", "pointer": "/properties/x/pattern",
                 "description": "pattern changed from \"^a$\" to \"^b$\""},
            ],
            "required": "major",
            "declared": "minor",
            "ok": false,
        })
    );
    new["$id"] = json!("https://x/v2.0.0.json");
    assert!(verdict(&old, &new).ok);

    // Nothing declared: only a PATCH-or-less change passes.
    let same = verdict(&object(), &object());
    assert!(same.ok);
    assert_eq!(same.to_string(), "no changes\nleast version bump needed: none; declared: no version — ok");
    let described = verdict(&object(), &edited(|v| v["description"] = json!("d")));
    assert!(described.ok);
    let major = verdict(&object(), &edited(|v| v["required"] = json!(["a", "b"])));
    assert!(!major.ok);
    assert!(
        major
            .to_string()
            .ends_with("least version bump needed: major; declared: no version — a version bump is needed")
    );
    assert_eq!(major.to_json()["declared"], Value::Null);
}

#[test]
fn files_load_with_typed_errors() {
    use jerry_contracts_schema_tools::diff::{DiffError, load, verdict_files};
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    assert!(matches!(load(&missing), Err(DiffError::Read { .. })));
    let broken = dir.path().join("broken.json");
    fs::write(&broken, "{").unwrap();
    assert!(matches!(load(&broken), Err(DiffError::Parse { .. })));
    let number = dir.path().join("number.json");
    fs::write(&number, "3").unwrap();
    let error = load(&number).unwrap_err();
    assert!(matches!(error, DiffError::NotASchema { .. }));
    assert!(error.to_string().contains("number.json"));
    let v1 = corpus_dir().join("session_context/v1.0.0.json");
    let v11 = corpus_dir().join("session_context/v1.1.0.json");
    assert!(verdict_files(&v1, &v11).unwrap().ok);
}

#[test]
fn session_context_v1_0_to_v1_1_is_minor() {
    let (old, new) = (read("session_context/v1.0.0.json"), read("session_context/v1.1.0.json"));
    let v = verdict(&old, &new);
    println!("{v}");
    assert_eq!((v.required, v.declared, v.ok), (Bump::Minor, Some(Bump::Minor), true), "{v}");
    let beyond_patch: Vec<(Class, String)> = summary(&v.changes).into_iter().filter(|(c, _)| *c > PAT).collect();
    let expected = [
        (MIN, "/definitions/output_agent_id"),
        (MIN, "/definitions/payload/if"),
        (MIN, "/definitions/sync_barrier"),
        (MIN, "/definitions/workflow_id"),
        (MIN, "/definitions/workflow_state"),
        (MIN, "/properties/payload_schema_ref"),
        (MIN, "/properties/workflow_id"),
        (MIN, "/properties/workflow_state"),
    ];
    assert_eq!(beyond_patch, expected.map(|(c, p)| (c, p.to_owned())), "{v}");
    // The definitions v1.1.0 takes from v1.0.0 by reference moved; they are not removed.
    let moved: Vec<&str> =
        v.changes.iter().filter(|c| c.kind == ChangeKind::DefinitionMoved).map(|c| c.pointer.as_str()).collect();
    assert_eq!(
        moved,
        [
            "/definitions/agent_family",
            "/definitions/agent_model",
            "/definitions/agent_reference",
            "/definitions/schema_version",
            "/definitions/session_id",
            "/definitions/trace"
        ]
    );
    // Backwards it is a major change (properties gone), and a downgrade declares no bump.
    let back = verdict(&new, &old);
    assert_eq!((back.required, back.declared, back.ok), (Bump::Major, Some(Bump::None), false), "{back}");
}

#[test]
fn researcher_findings_min_items_raised_is_major_and_undeclared() {
    let old = read("agents/ps/researcher_output.json");
    let mut new = old.clone();
    assert_eq!(new["properties"]["findings"]["minItems"], json!(1));
    new["properties"]["findings"]["minItems"] = json!(2);
    let v = verdict(&old, &new);
    assert_eq!(summary(&v.changes), [(MAJ, "/properties/findings/minItems".to_owned())]);
    assert_eq!(v.changes[0].kind, ChangeKind::BoundNarrowed);
    assert_eq!((v.required, v.declared, v.ok), (Bump::Major, None, false));
    assert_eq!(
        v.to_string(),
        "MAJOR /properties/findings/minItems: minItems raised from 1 to 2\n\
         least version bump needed: major; declared: no version — a version bump is needed"
    );
}

// ---------------------------------------------------------------------------------------------
// Hold-out: one known change planted in corpus schemas, chosen by a seeded PRNG.

/// xorshift64*: enough randomness for picking, reproducible from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() { None } else { items.get(self.below(items.len())) }
    }
}

fn corpus() -> Vec<(String, Value)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, Value)>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                let name = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.push((name, serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(&corpus_dir(), &corpus_dir(), &mut out);
    assert!(out.len() > 40, "the corpus is there");
    out
}

/// Pointers of the schema objects the walk compares position by position (not inside `if`/`not`,
/// whose changes are judged as a whole, nor inside data keywords).
fn sites(node: &Value, pointer: String, out: &mut Vec<String>) {
    let Some(map) = node.as_object() else { return };
    out.push(pointer.clone());
    for key in ["properties", "definitions"] {
        if let Some(children) = map.get(key).and_then(Value::as_object) {
            for (name, child) in children {
                sites(child, format!("{pointer}/{key}/{}", jerry_contracts_pointer::escape(name)), out);
            }
        }
    }
    for key in ["items", "additionalProperties", "then", "else"] {
        match map.get(key) {
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    sites(item, format!("{pointer}/{key}/{i}"), out);
                }
            }
            Some(child @ Value::Object(_)) => sites(child, format!("{pointer}/{key}"), out),
            _ => {}
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(items) = map.get(key).and_then(Value::as_array) {
            for (i, item) in items.iter().enumerate() {
                sites(item, format!("{pointer}/{key}/{i}"), out);
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mutation {
    RemoveProperty,
    RenameProperty,
    AddOptionalProperty,
    RequireProperty,
    UnrequireProperty,
    Describe,
    ChangePattern,
    RemovePattern,
    AddEnumValue,
    RemoveEnumValue,
    RaiseLowerBound,
    RaiseUpperBound,
    NullableType,
    ChangeType,
    CloseObject,
    AddDefinition,
    RemoveDefinition,
    AddUniqueItems,
    ChangeConst,
    AddFormat,
    RetargetRef,
}

const MUTATIONS: [Mutation; 21] = [
    Mutation::RemoveProperty,
    Mutation::RenameProperty,
    Mutation::AddOptionalProperty,
    Mutation::RequireProperty,
    Mutation::UnrequireProperty,
    Mutation::Describe,
    Mutation::ChangePattern,
    Mutation::RemovePattern,
    Mutation::AddEnumValue,
    Mutation::RemoveEnumValue,
    Mutation::RaiseLowerBound,
    Mutation::RaiseUpperBound,
    Mutation::NullableType,
    Mutation::ChangeType,
    Mutation::CloseObject,
    Mutation::AddDefinition,
    Mutation::RemoveDefinition,
    Mutation::AddUniqueItems,
    Mutation::ChangeConst,
    Mutation::AddFormat,
    Mutation::RetargetRef,
];

/// What a planted change must be reported as, and (where the reverse is a known change) the class
/// of undoing it.
struct Planted {
    class: Class,
    pointer: String,
    kind: ChangeKind,
    reverse: Option<Class>,
}

fn keys(value: Option<&Value>) -> Vec<String> {
    value.and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn plus_one(value: &Value) -> Option<Value> {
    value.as_u64().map(|n| json!(n + 1)).or_else(|| value.as_f64().map(|n| json!(n + 1.0)))
}

/// Plants `mutation` at one site of `schema` chosen by `rng`; `None` when no site fits.
fn plant(mutation: Mutation, schema: &mut Value, rng: &mut Rng) -> Option<Planted> {
    use ChangeKind as K;
    let mut all = Vec::new();
    sites(schema, String::new(), &mut all);
    // Siblings of `$ref` are ignored by draft-07, so only annotations may be planted there.
    let inline: Vec<String> =
        all.into_iter().filter(|p| schema.pointer(p).is_some_and(|n| n.get("$ref").is_none())).collect();
    let fits = |test: &dyn Fn(&Value) -> bool| -> Vec<String> {
        inline.iter().filter(|p| schema.pointer(p).is_some_and(test)).cloned().collect()
    };
    let planted = |class, pointer: String, kind, reverse| Some(Planted { class, pointer, kind, reverse });
    match mutation {
        Mutation::RemoveProperty | Mutation::RenameProperty => {
            let site = rng.pick(&fits(&|n| !keys(n.get("properties")).is_empty()))?.clone();
            let node = schema.pointer_mut(&site)?;
            let names = keys(node.get("properties"));
            let name = rng.pick(&names)?.clone();
            let properties = node.get_mut("properties")?.as_object_mut()?;
            let removed = properties.remove(&name)?;
            let pointer = format!("{site}/properties/{}", jerry_contracts_pointer::escape(&name));
            if mutation == Mutation::RemoveProperty {
                return planted(MAJ, pointer, K::PropertyRemoved, None);
            }
            properties.insert(format!("{name}_renamed"), removed);
            planted(MAJ, pointer, K::PropertyRenamed, Some(MAJ))
        }
        Mutation::AddOptionalProperty => {
            let site = rng.pick(&fits(&|n| n.get("properties").is_some_and(Value::is_object)))?.clone();
            schema.pointer_mut(&site)?["properties"]["zz_added"] = json!({"type": "string"});
            planted(MIN, format!("{site}/properties/zz_added"), K::PropertyAdded, Some(MAJ))
        }
        Mutation::RequireProperty => {
            let optional = |n: &Value| {
                let required = n.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
                keys(n.get("properties")).into_iter().filter(|k| !required.contains(&json!(k))).collect::<Vec<_>>()
            };
            let site = rng.pick(&fits(&|n| !optional(n).is_empty()))?.clone();
            let node = schema.pointer_mut(&site)?;
            let name = rng.pick(&optional(node))?.clone();
            match node.get_mut("required").and_then(Value::as_array_mut) {
                Some(required) => required.push(json!(name)),
                None => node["required"] = json!([name]),
            }
            planted(MAJ, format!("{site}/required"), K::RequiredAdded, Some(MIN))
        }
        Mutation::UnrequireProperty => {
            let site = rng
                .pick(&fits(&|n| n.get("required").and_then(Value::as_array).is_some_and(|r| !r.is_empty())))?
                .clone();
            let required = schema.pointer_mut(&site)?.get_mut("required")?.as_array_mut()?;
            let index = rng.below(required.len());
            required.remove(index);
            planted(MIN, format!("{site}/required"), K::RequiredRemoved, Some(MAJ))
        }
        Mutation::Describe => {
            let mut every = Vec::new();
            sites(schema, String::new(), &mut every);
            let site = rng.pick(&every)?.clone();
            schema.pointer_mut(&site)?["description"] = json!("planted description");
            planted(PAT, format!("{site}/description"), K::AnnotationChanged, Some(PAT))
        }
        Mutation::ChangePattern | Mutation::RemovePattern => {
            let site = rng.pick(&fits(&|n| n.get("pattern").is_some_and(Value::is_string)))?.clone();
            let node = schema.pointer_mut(&site)?.as_object_mut()?;
            let pointer = format!("{site}/pattern");
            if mutation == Mutation::RemovePattern {
                node.remove("pattern");
                return planted(MIN, pointer, K::PatternRemoved, Some(MAJ));
            }
            let pattern = node.get("pattern")?.as_str()?.to_owned();
            node.insert("pattern".into(), json!(format!("{pattern}|^zz$")));
            planted(MAJ, pointer, K::PatternChanged, Some(MAJ))
        }
        Mutation::AddEnumValue => {
            let site = rng.pick(&fits(&|n| n.get("enum").is_some_and(Value::is_array)))?.clone();
            schema.pointer_mut(&site)?.get_mut("enum")?.as_array_mut()?.push(json!("zz_new"));
            planted(MIN, format!("{site}/enum"), K::EnumWidened, Some(MAJ))
        }
        Mutation::RemoveEnumValue => {
            let site =
                rng.pick(&fits(&|n| n.get("enum").and_then(Value::as_array).is_some_and(|e| e.len() >= 2)))?.clone();
            let values = schema.pointer_mut(&site)?.get_mut("enum")?.as_array_mut()?;
            let index = rng.below(values.len());
            values.remove(index);
            planted(MAJ, format!("{site}/enum"), K::EnumNarrowed, Some(MIN))
        }
        Mutation::RaiseLowerBound | Mutation::RaiseUpperBound => {
            let bounds: &[&str] = if mutation == Mutation::RaiseLowerBound {
                &["minimum", "minLength", "minItems"]
            } else {
                &["maximum", "maxLength", "maxItems"]
            };
            let site = rng.pick(&fits(&|n| bounds.iter().any(|b| n.get(*b).is_some_and(Value::is_number))))?.clone();
            let node = schema.pointer_mut(&site)?;
            let present: Vec<&str> = bounds.iter().copied().filter(|b| node.get(*b).is_some()).collect();
            let bound = *rng.pick(&present)?;
            let raised = plus_one(node.get(bound)?)?;
            node[bound] = raised;
            let pointer = format!("{site}/{bound}");
            if mutation == Mutation::RaiseLowerBound {
                planted(MAJ, pointer, K::BoundNarrowed, Some(MIN))
            } else {
                planted(MIN, pointer, K::BoundWidened, Some(MAJ))
            }
        }
        Mutation::NullableType | Mutation::ChangeType => {
            let site =
                rng.pick(&fits(&|n| n.get("type").and_then(Value::as_str).is_some_and(|t| t != "null")))?.clone();
            let node = schema.pointer_mut(&site)?;
            let old = node.get("type")?.as_str()?.to_owned();
            let pointer = format!("{site}/type");
            if mutation == Mutation::NullableType {
                node["type"] = json!([old, "null"]);
                return planted(MIN, pointer, K::TypeWidened, Some(MAJ));
            }
            node["type"] = json!(if old == "boolean" { "string" } else { "boolean" });
            planted(MAJ, pointer, K::TypeNarrowed, Some(MAJ))
        }
        Mutation::CloseObject => {
            let site =
                rng.pick(&fits(&|n| n.get("properties").is_some() && n.get("additionalProperties").is_none()))?.clone();
            schema.pointer_mut(&site)?["additionalProperties"] = json!(false);
            planted(MAJ, format!("{site}/additionalProperties"), K::AdditionalPropertiesTightened, Some(MIN))
        }
        Mutation::AddDefinition => {
            let definitions = schema.get_mut("definitions")?.as_object_mut()?;
            definitions.insert("zz_planted".into(), json!({"type": "string"}));
            planted(MIN, "/definitions/zz_planted".into(), K::DefinitionAdded, Some(MAJ))
        }
        Mutation::RemoveDefinition => {
            let names = keys(schema.get("definitions"));
            let name = rng.pick(&names)?.clone();
            schema.get_mut("definitions")?.as_object_mut()?.remove(&name);
            planted(
                MAJ,
                format!("/definitions/{}", jerry_contracts_pointer::escape(&name)),
                K::DefinitionRemoved,
                Some(MIN),
            )
        }
        Mutation::AddUniqueItems => {
            let site =
                rng.pick(&fits(&|n| n.get("type") == Some(&json!("array")) && n.get("uniqueItems").is_none()))?.clone();
            schema.pointer_mut(&site)?["uniqueItems"] = json!(true);
            planted(MAJ, format!("{site}/uniqueItems"), K::UniqueItemsAdded, Some(MIN))
        }
        Mutation::ChangeConst => {
            let site = rng.pick(&fits(&|n| n.get("const").is_some_and(Value::is_string)))?.clone();
            let node = schema.pointer_mut(&site)?;
            let old = node.get("const")?.as_str()?.to_owned();
            node["const"] = json!(format!("{old}_changed"));
            planted(MAJ, format!("{site}/const"), K::ConstChanged, Some(MAJ))
        }
        Mutation::AddFormat => {
            let site =
                rng.pick(&fits(&|n| n.get("type") == Some(&json!("string")) && n.get("format").is_none()))?.clone();
            schema.pointer_mut(&site)?["format"] = json!("date-time");
            planted(MAJ, format!("{site}/format"), K::FormatAdded, Some(MIN))
        }
        Mutation::RetargetRef => {
            let names = keys(schema.get("definitions"));
            if names.len() < 2 {
                return None;
            }
            let mut every = Vec::new();
            sites(schema, String::new(), &mut every);
            let local: Vec<String> = every
                .into_iter()
                .filter(|p| {
                    let target = schema.pointer(p).and_then(|n| n.get("$ref")).and_then(Value::as_str);
                    target
                        .is_some_and(|t| t.starts_with("#/definitions/") && !t["#/definitions/".len()..].contains('/'))
                })
                .collect();
            let site = rng.pick(&local)?.clone();
            let node = schema.pointer_mut(&site)?;
            let current = node.get("$ref")?.as_str()?.trim_start_matches("#/definitions/").to_owned();
            let others: Vec<&String> = names.iter().filter(|n| **n != current).collect();
            let other = rng.pick(&others)?;
            node["$ref"] = json!(format!("#/definitions/{other}"));
            planted(MAJ, format!("{site}/$ref"), K::RefRetargeted, Some(MAJ))
        }
    }
}

#[test]
fn every_corpus_schema_equals_itself() {
    for (name, schema) in corpus() {
        assert_eq!(diff(&schema, &schema), [], "{name}");
        assert_eq!(declared_bump(&schema, &schema).unwrap_or(Bump::None), Bump::None, "{name}");
    }
}

#[test]
fn hold_out_planted_changes_are_classified() {
    let corpus = corpus();
    let mut rng = Rng(0x5EED_0000_0000_2351);
    let mut counts = std::collections::BTreeMap::<Mutation, usize>::new();
    let mut planted_total = 0;
    for round in 0..600 {
        let mutation = MUTATIONS[rng.below(MUTATIONS.len())];
        let (name, original) = rng.pick(&corpus).unwrap();
        let mut mutated = original.clone();
        let Some(planted) = plant(mutation, &mut mutated, &mut rng) else { continue };
        planted_total += 1;
        *counts.entry(mutation).or_default() += 1;
        let context = format!("round {round}: {mutation:?} in {name} at {}", planted.pointer);
        let changes = diff(original, &mutated);
        assert!(
            changes.iter().any(|c| c.class == planted.class && c.pointer == planted.pointer && c.kind == planted.kind),
            "{context}: expected {:?} {:?}, got {changes:#?}",
            planted.class,
            planted.kind
        );
        assert_eq!(required_bump(&changes), planted.class.bump(), "{context}: {changes:#?}");
        if let Some(reverse) = planted.reverse {
            let back = diff(&mutated, original);
            assert_eq!(required_bump(&back), reverse.bump(), "{context}, reversed: {back:#?}");
        }
    }
    assert!(planted_total >= 300, "only {planted_total} changes planted");
    for mutation in MUTATIONS {
        assert!(counts.get(&mutation).copied().unwrap_or(0) >= 3, "{mutation:?} planted too rarely: {counts:?}");
    }
}
