//! The classifier scales as O(n log n) with the length of lists and property maps. The counting
//! test proves it without a clock: it counts the comparisons of the set difference every list
//! comparison goes through. The end-to-end tests run sizes that a quadratic classifier takes
//! many seconds (or minutes) on, and check the result.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::cell::Cell;
use std::cmp::Ordering;

use jerry_contracts_schema_tools::diff::{Bump, ChangeKind, Class, diff, missing_from, verdict};
use serde_json::{Map, Value, json};

thread_local! {
    static COMPARISONS: Cell<u64> = const { Cell::new(0) };
}

/// A number that counts every comparison made on it.
#[derive(Debug)]
struct Counted(u64);

impl PartialEq for Counted {
    fn eq(&self, other: &Self) -> bool {
        COMPARISONS.with(|c| c.set(c.get() + 1));
        self.0 == other.0
    }
}

impl Eq for Counted {}

impl PartialOrd for Counted {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Counted {
    fn cmp(&self, other: &Self) -> Ordering {
        COMPARISONS.with(|c| c.set(c.get() + 1));
        self.0.cmp(&other.0)
    }
}

/// `0..n` in a scrambled but fixed order (multiplication by an odd number permutes `0..2^k`).
fn scrambled(n: u64, multiplier: u64) -> impl Iterator<Item = u64> {
    let size = n.next_power_of_two();
    (0..size).map(move |i| i.wrapping_mul(multiplier) % size).filter(move |v| *v < n)
}

#[test]
fn set_difference_makes_n_log_n_comparisons() {
    let n: u64 = 100_000;
    // `a` holds 0..n, `b` holds 1..=n: 0 is missing from `b`.
    let a: Vec<Counted> = scrambled(n, 0x9E37_79B9).map(Counted).collect();
    let b: Vec<Counted> = scrambled(n, 0x85EB_CA6B).map(|v| Counted(v + 1)).collect();
    COMPARISONS.with(|c| c.set(0));

    let missing = missing_from(&a, &b);

    let comparisons = COMPARISONS.with(Cell::get);
    assert_eq!(missing, [&Counted(0)]);
    // n log2 n is 1.7 million here; comparing each element with each, 5 billion.
    let log2 = u64::from(n.ilog2()) + 1;
    assert!(comparisons <= 4 * n * log2, "{comparisons} comparisons for {n} elements");
}

#[test]
fn set_difference_keeps_order_and_duplicates() {
    let a = [5, 3, 9, 3, 1, 7];
    let b = [9, 7, 8];
    assert_eq!(missing_from(&a, &b), [&5, &3, &3, &1]);
    assert!(missing_from(&a, &a).is_empty());
    assert_eq!(missing_from(&a, &[]).len(), a.len());
}

fn enum_schema(values: impl IntoIterator<Item = Value>) -> Value {
    json!({"type": "string", "enum": values.into_iter().collect::<Vec<_>>()})
}

#[test]
fn a_value_added_to_a_long_enum_is_one_minor_change() {
    let n = 100_000;
    let old = enum_schema((0..n).map(|i| json!(format!("value-{i}"))));
    let new = enum_schema((0..n).map(|i| json!(format!("value-{i}"))).chain([json!("extra")]));

    let v = verdict(&old, &new);

    assert_eq!(v.changes.len(), 1, "{:?}", v.changes.first());
    assert_eq!(v.changes[0].kind, ChangeKind::EnumWidened);
    assert_eq!(v.changes[0].class, Class::Minor);
    assert_eq!(v.changes[0].description, r#"enum values added: "extra""#);
    assert_eq!(v.required, Bump::Minor);
}

#[test]
fn enum_changes_list_values_in_schema_order() {
    let n = 100_000;
    // Reversed, with two values gone and two (a number and its float twin) added.
    let old = enum_schema((0..n).map(|i| json!(format!("value-{i}"))));
    let new = enum_schema(
        (0..n)
            .rev()
            .filter(|i| *i != 70_000 && *i != 20_000)
            .map(|i| json!(format!("value-{i}")))
            .chain([json!(1.0), json!(1)]),
    );

    let changes = diff(&old, &new);

    let described: Vec<(ChangeKind, &str)> = changes.iter().map(|c| (c.kind, c.description.as_str())).collect();
    assert_eq!(
        described,
        [
            (ChangeKind::EnumNarrowed, r#"enum values removed: "value-20000", "value-70000""#),
            (ChangeKind::EnumWidened, "enum values added: 1.0, 1"),
        ]
    );
}

/// An object schema with the given properties: integers when the name ends in 7, else strings.
fn object(names: impl IntoIterator<Item = String>, required: &[String]) -> Value {
    let properties: Map<String, Value> = names
        .into_iter()
        .map(|name| {
            let kind = if name.ends_with('7') { "integer" } else { "string" };
            (name, json!({"type": kind}))
        })
        .collect();
    json!({"type": "object", "properties": properties, "required": required})
}

#[test]
fn many_renamed_properties_pair_by_schema_and_name() {
    let n = 20_000;
    let old_names: Vec<String> = (0..n).map(|i| format!("p{i:05}")).collect();
    // The second half renamed: `p10000` → `q10000`, …, with the same schemas.
    let new_names: Vec<String> =
        (0..n).map(|i| if i < n / 2 { format!("p{i:05}") } else { format!("q{i:05}") }).collect();
    let required: Vec<String> = old_names.clone();
    let old = object(old_names, &required);
    let new = object(new_names, &required[..n / 2]);

    let changes = diff(&old, &new);

    let renames: Vec<&str> =
        changes.iter().filter(|c| c.kind == ChangeKind::PropertyRenamed).map(|c| c.description.as_str()).collect();
    assert_eq!(renames.len(), n / 2);
    for (i, description) in (n / 2..n).zip(&renames) {
        assert_eq!(*description, format!("property `p{i:05}` renamed to `q{i:05}`"));
    }
    let required_removed = changes.iter().filter(|c| c.kind == ChangeKind::RequiredRemoved).count();
    assert_eq!(required_removed, n / 2);
    assert_eq!(changes.len(), n, "only renames and required names dropped");
    // In `required` order: the first name dropped comes first.
    let first = changes.iter().find(|c| c.kind == ChangeKind::RequiredRemoved).unwrap();
    assert_eq!(first.description, format!("`p{:05}` is no longer required", n / 2));
}

#[test]
fn a_property_added_among_many_is_one_change_each_for_properties_and_required() {
    let n = 20_000;
    let names: Vec<String> = (0..n).map(|i| format!("p{i:05}")).collect();
    let old = object(names.clone(), &names);
    let mut more = names.clone();
    more.push("extra".to_owned());
    let new = object(more.clone(), &more);

    let changes = diff(&old, &new);

    let described: Vec<(ChangeKind, &str)> = changes.iter().map(|c| (c.kind, c.description.as_str())).collect();
    assert_eq!(
        described,
        [
            (ChangeKind::PropertyAdded, "property `extra` added (required: see /required)"),
            (ChangeKind::RequiredAdded, "`extra` is now required"),
        ]
    );
}

#[test]
fn many_definitions_moved_to_the_previous_version() {
    let n = 20_000;
    let old_id = "https://example.com/schemas/thing/v1.0.0.json";
    let new_id = "https://example.com/schemas/thing/v1.1.0.json";
    let definitions: Map<String, Value> = (0..n).map(|i| (format!("d{i}"), json!({"type": "string"}))).collect();
    let local: Map<String, Value> =
        (0..n).map(|i| (format!("p{i}"), json!({"$ref": format!("#/definitions/d{i}")}))).collect();
    let moved: Map<String, Value> =
        (0..n).map(|i| (format!("p{i}"), json!({"$ref": format!("v1.0.0.json#/definitions/d{i}")}))).collect();
    let old = json!({"$id": old_id, "type": "object", "definitions": definitions, "properties": local});
    let new = json!({"$id": new_id, "type": "object", "properties": moved});

    let v = verdict(&old, &new);

    let moved_count = v.changes.iter().filter(|c| c.kind == ChangeKind::DefinitionMoved).count();
    assert_eq!(moved_count, n);
    assert_eq!(v.changes.len(), n + 1, "the moves and the new $id");
    assert_eq!(v.required, Bump::Patch);
    assert!(v.ok);
}
