//! `docs::render` on a corpus of one schema: the constraints column lists the contract model's
//! constraints of each place (its own, its items' and map values', then its conventions), and
//! the required column marks a member the conventions require; the header (title, description,
//! `$id`, version, conventions) is the model's entry for the schema file.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::fs;
use std::path::PathBuf;

use jerry_contracts_schema_tools::docs;

const SCHEMA: &str = r#"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://jerry.dev/schemas/demo/record.json",
  "title": "Record",
  "type": "object",
  "required": ["tags"],
  "properties": {
    "tags": {
      "type": "array",
      "minItems": 1,
      "uniqueItems": true,
      "items": {"type": "string", "pattern": "^[ab]$", "maxLength": 3, "x-source": {"pattern": "seed 000:1", "maxLength": "seed 000:2"}},
      "x-source": {"minItems": "seed 000:3", "uniqueItems": "seed 000:4"}
    },
    "scores": {
      "type": "object",
      "additionalProperties": {"type": "number", "minimum": 0, "x-source": {"minimum": "seed 000:5"}}
    },
    "note": {
      "type": "string",
      "default": "none",
      "x-convention": {"maxLength": 40, "x-source": {"maxLength": "convention D-1"}}
    },
    "level": {"type": "string", "enum": ["low", "high"], "x-source": {"enum": "seed 000:6"}}
  },
  "x-source": {"required": "seed 000:7"},
  "x-convention": {"required": ["note"], "x-source": {"required": "convention D-1"}}
}"#;

/// The row of member `name` in the page's property table.
fn row<'p>(page: &'p str, name: &str) -> &'p str {
    let start = format!("| `{name}` |");
    page.lines().find(|line| line.starts_with(&start)).unwrap_or_else(|| panic!("no row for {name} in\n{page}"))
}

#[test]
fn the_constraints_column_lists_the_models_constraints() {
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    fs::create_dir_all(schemas.join("demo")).unwrap();
    fs::write(schemas.join("demo/record.json"), SCHEMA).unwrap();
    let fixtures = dir.path().join("fixtures");
    fs::create_dir_all(&fixtures).unwrap();
    let matrix = dir.path().join("matrix.json");
    fs::write(&matrix, "[]").unwrap();

    let pages = docs::render(&schemas, &fixtures, &matrix).unwrap_or_else(|e| panic!("{e}"));
    let page = &pages[&PathBuf::from("demo/record.md")];

    // Its own assertions in the keyword table's order, then its items'.
    let tags = row(page, "tags");
    assert!(
        tags.contains("| yes | minItems 1<br>uniqueItems<br>items: pattern `^[ab]$`<br>items: maxLength 3 |"),
        "{tags}"
    );
    // A map's values.
    let scores = row(page, "scores");
    assert!(scores.contains("| values: minimum 0 |"), "{scores}");
    // The default, then the conventions; the root's conventions make the member required by
    // convention.
    let note = row(page, "note");
    assert!(note.contains("| convention | default `\"none\"`<br>convention: maxLength 40 |"), "{note}");
    let level = row(page, "level");
    assert!(level.contains("| enum `\"low\"`, `\"high\"` |"), "{level}");
}

#[test]
fn the_header_renders_the_models_schema_entry() {
    let artifact = r#"{
      "$schema": "http://json-schema.org/draft-07/schema#",
      "$id": "https://jerry.dev/schemas/mission/demo.json",
      "title": "  Demo artifact  ",
      "description": "An artifact of the demo.",
      "type": "object",
      "properties": {
        "schema_version": {"type": "string", "const": "2.3.4", "x-source": {"const": "seed 004 §1"}},
        "note": {"type": "string", "x-convention": {"maxLength": 40, "x-source": {"maxLength": "convention D-1"}}}
      }
    }"#;
    let library = r#"{
      "$schema": "http://json-schema.org/draft-07/schema#",
      "$id": "https://jerry.dev/schemas/demo/library.json",
      "definitions": {"word": {"type": "string"}}
    }"#;
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    fs::create_dir_all(schemas.join("mission")).unwrap();
    fs::create_dir_all(schemas.join("demo")).unwrap();
    fs::write(schemas.join("mission/demo.json"), artifact).unwrap();
    fs::write(schemas.join("demo/library.json"), library).unwrap();
    let fixtures = dir.path().join("fixtures");
    fs::create_dir_all(&fixtures).unwrap();
    let matrix = dir.path().join("matrix.json");
    fs::write(&matrix, "[]").unwrap();

    let pages = docs::render(&schemas, &fixtures, &matrix).unwrap_or_else(|e| panic!("{e}"));
    let page = &pages[&PathBuf::from("mission/demo.md")];
    let lines: Vec<&str> = page.lines().collect();
    assert!(lines.contains(&"# Demo artifact"), "{page}");
    assert!(lines.contains(&"An artifact of the demo."), "{page}");
    assert!(lines.contains(&"- **`$id`:** `https://jerry.dev/schemas/mission/demo.json`"), "{page}");
    assert!(lines.contains(&"- **Version:** `2.3.4`"), "{page}");
    assert!(lines.iter().any(|l| l.starts_with("- **Conventions:**")), "{page}");

    let page = &pages[&PathBuf::from("demo/library.md")];
    let lines: Vec<&str> = page.lines().collect();
    assert!(lines.contains(&"# demo/library.json"), "{page}");
    assert!(lines.contains(&"- **Version:** —"), "{page}");
    assert!(!lines.iter().any(|l| l.starts_with("- **Conventions:**")), "{page}");
}
