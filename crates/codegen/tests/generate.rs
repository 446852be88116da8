//! The generator on the real corpus and on copies of it with a defect planted: it must generate,
//! and it must fail — naming the schema file and JSON Pointer — on anything it cannot carry.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() { copy(&path, &target) } else { fs::copy(&path, &target).map(drop).unwrap() }
    }
}

/// Generates from a copy of the corpus after `edit` changed one schema file.
fn generate_with(file: &str, edit: impl FnOnce(&mut Value)) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    copy(&corpus_dir(), dir.path());
    let path = dir.path().join(file);
    let mut schema: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut schema);
    fs::write(&path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
    jerry_contracts_codegen::generate(dir.path()).map_err(|e| e.to_string())
}

#[test]
fn the_corpus_generates() {
    let source = jerry_contracts_codegen::generate(&corpus_dir()).expect("the corpus generates");
    for name in ["pub mod agents", "pub mod ps", "ResearcherOutput", "pub mod v1_1", "RequirementId", "ConfidenceScore"]
    {
        assert!(source.contains(name), "generated source lacks {name}");
    }
}

#[test]
fn an_unsupported_keyword_fails_naming_file_and_pointer() {
    let err = generate_with("agents/nse/risk_output.json", |s| {
        s["properties"]["risks"]["items"]["properties"]["likelihood"]["multipleOf"] = json!(7);
    })
    .expect_err("multipleOf is not carried into the types");
    assert!(
        err.contains("agents/nse/risk_output.json#/properties/risks/items/properties/likelihood/multipleOf: keyword `multipleOf` is not supported"),
        "{err}"
    );
}

#[test]
fn an_unsupported_format_and_a_constraint_beside_ref_fail() {
    let err = generate_with("common/types.json", |s| {
        s["definitions"]["project_id"]["format"] = json!("email");
    })
    .expect_err("format email");
    assert!(err.contains("common/types.json#/definitions/project_id/format"), "{err}");
    let err = generate_with("agents/ps/researcher_output.json", |s| {
        s["properties"]["confidence"]["maxProperties"] = json!(3);
    })
    .expect_err("a constraint beside $ref");
    assert!(err.contains("agents/ps/researcher_output.json#/properties/confidence/maxProperties"), "{err}");
}

#[test]
fn an_invalid_pattern_fails_naming_its_place() {
    let err = generate_with("common/types.json", |s| {
        s["definitions"]["risk_id"]["pattern"] = json!("^RISK-(\\d{3}$");
    })
    .expect_err("unbalanced group");
    assert!(
        err.contains("common/types.json#/definitions/risk_id/pattern: not an ECMA-262 regular expression"),
        "{err}"
    );
}

#[test]
fn a_pattern_only_a_backtracking_engine_can_run_fails_naming_its_place() {
    for pattern in ["^(a+)\\1$", "^(?=REQ)REQ-\\d+$", "^(?<!x)y$"] {
        let err = generate_with("agents/nse/requirements_output.json", |s| {
            s["properties"]["requirements"]["items"]["properties"]["requirement"]["pattern"] = json!(pattern);
        })
        .expect_err("a backtracking-only pattern");
        assert!(
            err.contains(
                "agents/nse/requirements_output.json#/properties/requirements/items/properties/requirement/pattern: pattern"
            ) && err.contains("backtracking"),
            "{pattern}: {err}"
        );
    }
}
