//! The schema corpus gate: every schema is draft-07, follows the `$schema`/`$id` conventions and
//! resolves every `$ref`; every schema has its fixtures, the maximal ones use every property, and
//! the `jsonschema` crate gives every fixture its expected verdict, keyword and pointer.
#![allow(clippy::expect_used, clippy::unwrap_used)] // a failed expectation is the test failing

mod support;

use jerry_contracts_schema_tools::fixtures;
use serde_json::Value;

/// The ten mission artifacts of seed 004 §3.
const MISSION_ARTIFACTS: [&str; 10] = [
    "mission_envelope",
    "mission_task_graph",
    "prompt_package",
    "research_artifact",
    "librarian_pass",
    "worker_result",
    "aggregation_packet",
    "review_packet",
    "policy_decision",
    "writeback_proposal",
];

#[test]
fn every_schema_is_valid_draft_07() {
    let corpus = support::corpus();
    assert!(!corpus.schemas.is_empty(), "no schemas found");
    let meta = jsonschema::draft7::meta::validator();
    let failures: Vec<String> = corpus
        .schemas
        .iter()
        .flat_map(|s| meta.iter_errors(&s.document).map(move |e| format!("{}#{}: {e}", s.path, e.instance_path())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_reference_resolves() {
    let corpus = support::corpus();
    let (references, problems) = corpus.references();
    support::assert_no_problems("resolving $refs", &problems);
    assert!(references.iter().any(|r| r.target_file == "common/types.json"));
    // The reference validator must resolve them too: compile every schema and every definition.
    let registry = support::registry(&corpus);
    for schema in &corpus.schemas {
        support::validator(&registry, &schema.id);
        for name in schema.definition_names() {
            support::validator(&registry, &format!("{}#/definitions/{name}", schema.id));
        }
    }
}

#[test]
fn the_corpus_holds_every_contract_of_the_seeds() {
    let corpus = support::corpus();
    let mut expected: Vec<String> = Vec::new();
    expected.extend(["session_context/v1.0.0.json", "session_context/v1.1.0.json"].map(String::from));
    expected.extend(["types", "findings", "artifacts", "error"].map(|n| format!("common/{n}.json")));
    for agent in
        ["researcher", "analyst", "architect", "investigator", "reporter", "reviewer", "synthesizer", "validator"]
    {
        expected.push(format!("agents/ps/{agent}_output.json"));
    }
    for agent in
        ["requirements", "risk", "architecture", "reviewer", "verification", "integration", "configuration", "reporter"]
    {
        expected.push(format!("agents/nse/{agent}_output.json"));
    }
    expected.push("workflows/cross_pollination.json".into());
    for name in MISSION_ARTIFACTS {
        expected.push(format!("mission/{name}.json"));
    }
    for name in [
        "todo",
        "evidence",
        "review_gate",
        "handoff",
        "handoff_ack",
        "recovery",
        "conflict",
        "metrics",
        "skill",
        "startup",
        "stage_output",
    ] {
        expected.push(format!("orchestration/{name}.json"));
    }
    for name in ["checkpoint", "generator_critic", "parallel_execution"] {
        expected.push(format!("infrastructure/{name}.json"));
    }
    let missing: Vec<&String> = expected.iter().filter(|p| corpus.get(p).is_none()).collect();
    assert!(missing.is_empty(), "missing schemas: {missing:?}");
}

#[test]
fn every_schema_has_its_fixtures() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    support::assert_no_problems("fixture requirements", &fixtures::check_requirements(&corpus, &sets));
    let uncovered: Vec<String> = sets.iter().flat_map(|s| fixtures::uncovered_properties(&corpus, s)).collect();
    assert!(uncovered.is_empty(), "properties no valid fixture uses:\n{}", uncovered.join("\n"));
}

#[test]
fn every_fixture_gets_its_expected_verdict() {
    let corpus = support::corpus();
    let sets = support::fixture_sets(&corpus);
    let registry = support::registry(&corpus);
    let mut failures = Vec::new();
    let mut judged = 0;
    for set in &sets {
        let schema = corpus.get(&set.target.schema).expect("discovered sets name loaded schemas");
        let validator = support::validator(&registry, &set.target.uri(&schema.id));
        for fixture in &set.valid {
            judged += 1;
            for (keyword, pointer, message) in support::errors(&validator, &fixture.document) {
                failures.push(format!("{}: rejected ({keyword} at {pointer:?}: {message})", fixture.path.display()));
            }
        }
        // A convention's fixture follows everything the seeds state: the reference validator
        // (which ignores `x-convention`) accepts it; tests/conventions.rs judges the convention.
        for fixture in &set.convention {
            judged += 1;
            for (keyword, pointer, message) in support::errors(&validator, &fixture.document) {
                failures.push(format!(
                    "{}: a convention's fixture rejected by the seeds' rules ({keyword} at {pointer:?}: {message})",
                    fixture.path.display()
                ));
            }
        }
        for fixture in &set.invalid {
            judged += 1;
            let errors = support::errors(&validator, &fixture.document);
            let expect = &fixture.expect;
            let [(keyword, pointer, _)] = errors.as_slice() else {
                failures.push(format!("{}: expected one error, got {errors:?}", fixture.path.display()));
                continue;
            };
            if (keyword, pointer) != (&expect.keyword, &expect.pointer) {
                failures.push(format!(
                    "{}: expected {} at {:?}, got {keyword} at {pointer:?}",
                    fixture.path.display(),
                    expect.keyword,
                    expect.pointer
                ));
            }
        }
    }
    assert!(judged > 900, "only {judged} fixtures judged");
    assert!(failures.is_empty(), "{} of {judged} fixtures misjudged:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_example_in_a_schema_is_valid() {
    let corpus = support::corpus();
    let registry = support::registry(&corpus);
    let examples = corpus.examples();
    assert!(examples.len() > 20, "examples found: {}", examples.len());
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|(schema, pointer, example)| {
            let validator = support::validator(&registry, &format!("{}#{pointer}", schema.id));
            let errors = support::errors(&validator, example);
            (!errors.is_empty()).then(|| format!("{}#{pointer}: example {example} is invalid: {errors:?}", schema.path))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn patterns_use_ecma_digits() {
    // `\d` in a JSON Schema pattern is ECMA-262: ASCII digits only.
    let corpus = support::corpus();
    let registry = support::registry(&corpus);
    let id = "https://jerry.dev/schemas/common/types.json#/definitions/requirement_id";
    let validator = support::validator(&registry, id);
    assert!(validator.is_valid(&Value::from("REQ-NSE-001")));
    assert!(!validator.is_valid(&Value::from("REQ-NSE-\u{0660}\u{0660}\u{0661}")));
}

#[test]
fn the_cross_pollination_matrix_matches_its_schema() {
    let corpus = support::corpus();
    let registry = support::registry(&corpus);
    let validator = support::validator(&registry, "https://jerry.dev/schemas/workflows/cross_pollination.json");
    let text =
        std::fs::read_to_string(support::root().join("data/cross_pollination_matrix.json")).expect("matrix file");
    let matrix: Vec<Value> = serde_json::from_str(&text).expect("matrix is a JSON array");
    assert_eq!(matrix.len(), 6, "seed 000 L2 §1 lists six handoffs");
    for (i, row) in matrix.iter().enumerate() {
        let errors = support::errors(&validator, row);
        assert!(errors.is_empty(), "row {i}: {errors:?}");
    }
}

#[test]
fn the_seed_examples_are_the_fixtures() {
    // The filled-in copies of seed blocks that cannot be valid as written (docs/seed-blocks.md)
    // are fixtures too, byte for byte.
    let root = support::root();
    let pairs = [
        ("001_producer_handoff.json", "session_context/v1.0.0/valid/seed_producer_example.json".to_owned()),
        ("003_101_todo.json", "orchestration/todo/valid/seed_example.json".to_owned()),
    ];
    let missions = MISSION_ARTIFACTS;
    let mission_pairs = missions.map(|m| (format!("004_{m}.json"), format!("mission/{m}/valid/seed_shape.json")));
    let all: Vec<(String, String)> = pairs.into_iter().map(|(a, b)| (a.to_owned(), b)).chain(mission_pairs).collect();
    for (example, fixture) in all {
        let a = std::fs::read(root.join("examples/seeds").join(&example)).expect("example");
        let b = std::fs::read(root.join("tests/fixtures").join(&fixture)).expect("fixture");
        assert!(a == b, "examples/seeds/{example} differs from tests/fixtures/{fixture}");
    }
}

#[test]
fn every_seed_example_is_named_in_the_map_and_valid() {
    // The README's main job judges examples/seeds with its schemas.map; the same verdict here.
    let dir = support::root().join("examples/seeds");
    let map = std::fs::read_to_string(dir.join("schemas.map")).expect("schemas.map");
    let named: std::collections::BTreeMap<&str, &str> = map
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_once(' ').expect("FILE SCHEMA"))
        .map(|(file, schema)| (file, schema.trim()))
        .collect();
    let files: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples/seeds")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    assert!(files.len() >= 17, "only {} seed examples", files.len());
    for file in &files {
        let schema = named.get(file.as_str()).unwrap_or_else(|| panic!("{file} is not in examples/seeds/schemas.map"));
        let bytes = std::fs::read(dir.join(file)).expect("example");
        let report = jerry_contracts::validation::validate_as(schema, &bytes);
        assert!(report.is_valid(), "{file} is not valid against {schema}: {:?}", report.records);
        assert!(report.records.iter().all(|r| !r.error_code.starts_with("SCH-")), "{file}: {:?}", report.records);
    }
    assert_eq!(named.len(), files.len(), "schemas.map names a file that is not there");
}
