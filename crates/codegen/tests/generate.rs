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
    jerry_contracts_codegen::generate(dir.path()).map(|generated| generated.source).map_err(|e| e.to_string())
}

#[test]
fn the_corpus_generates() {
    let source = jerry_contracts_codegen::generate(&corpus_dir()).expect("the corpus generates").source;
    for name in ["pub mod agents", "pub mod ps", "ResearcherOutput", "pub mod v1_1", "RequirementId", "ConfidenceScore"]
    {
        assert!(source.contains(name), "generated source lacks {name}");
    }
    // Issue 28, item 3: at most 25,000 generated lines for today's corpus, the whole file
    // (header, types, tables, module tree and embedded schemas).
    let lines = source.lines().count();
    assert!(lines <= 25_000, "the generated Rust has {lines} lines, past the budget of 25,000");
    // serde's derives by their imported names: a type's derive list on one line.
    assert!(!source.contains("#[derive(\n"), "a derive list broken over lines");
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

/// typify panics on an enum whose values it cannot name apart (the JSON-Schema-Test-Suite's
/// `"foo\nbar"` and `"foo\rbar"`); the generator refuses it first, naming file and pointer.
#[test]
fn an_enum_typify_cannot_name_fails_naming_its_place() {
    let err = generate_with("agents/ps/researcher_output.json", |s| {
        s["properties"]["findings"]["items"]["properties"]["category"]["enum"] = json!(["foo\nbar", "foo\rbar"]);
    })
    .expect_err("two values with one variant name");
    assert!(
        err.contains(
            "agents/ps/researcher_output.json#/properties/findings/items/properties/category/enum: enum values"
        ),
        "{err}"
    );
    // Values typify tells apart on its first try (`FooBar`, `Foobar`) or its second (`a-b` and
    // `aB`: `AXb`, `AB`) still generate.
    generate_with("agents/ps/researcher_output.json", |s| {
        s["properties"]["findings"]["items"]["properties"]["category"]["enum"] = json!(["foo\nbar", "foobar"]);
    })
    .expect("typify names them");
    let source = generate_with("agents/ps/researcher_output.json", |s| {
        s["properties"]["findings"]["items"]["properties"]["category"]["enum"] = json!(["a-b", "aB", "insight"]);
    })
    .expect("typify names them");
    assert!(source.contains("AXb") && source.contains("AB"), "the second naming");
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

#[test]
fn a_pattern_whose_dfa_is_too_large_fails_naming_its_place() {
    // The classic exponential DFA: the 22nd character from the end is an `a`.
    let err = generate_with("common/types.json", |s| {
        s["definitions"]["risk_id"]["pattern"] = json!("(a|b)*a(a|b){21}$");
    })
    .expect_err("a DFA past the limit");
    assert!(
        err.contains("common/types.json#/definitions/risk_id/pattern: pattern") && err.contains("DFA cannot be built"),
        "{err}"
    );
}

#[test]
fn every_pattern_of_a_schema_is_in_the_table_whatever_its_type() {
    // `pattern` on an integer: validators ignore it on numbers, and the schema layer compiles it
    // all the same, so the table holds its DFA.
    let dir = one_schema(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://jerry.dev/schemas/probe/thing.json",
        "type": "object",
        "properties": {"count": {"type": "integer", "pattern": "^[0-9]{2}$"}, "name": {"type": "string", "pattern": "^n-[a-z]+$"}},
    }));
    let generated = jerry_contracts_codegen::generate(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert!(generated.source.contains(r#"("^n-[a-z]+$", 0usize,"#), "the garde pattern comes first");
    assert!(generated.source.contains(r#"("^[0-9]{2}$","#), "the integer's pattern is in the table");
    let [(little_name, little), (big_name, big), (trees_name, trees)] = generated.files.as_slice() else {
        panic!("two DFA files and the trees")
    };
    assert_eq!((*little_name, *big_name, *trees_name), ("patterns-le.dfa", "patterns-be.dfa", "schema-trees.ndjson"));
    assert_eq!(little.len(), big.len());
    assert!(little.len() % 8 == 0 && !little.is_empty());
    // The schema layer's tree carries the integer's pattern too.
    let tree: Value = serde_json::from_slice(trees).expect("one line of JSON");
    let count = tree["seed"]["/properties/count"].as_u64().expect("the member's node") as usize;
    assert_eq!(tree["nodes"][count]["schema"]["pattern"], json!("^[0-9]{2}$"));
    assert_eq!(tree["nodes"][count]["schema"]["types"], json!({"mask": 32, "declared": "integer"}));
}

#[test]
fn the_schema_layer_tree_resolves_references_and_reads_conventions() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("probe")).unwrap();
    let common = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://jerry.dev/schemas/probe/common.json",
        "definitions": {"name": {"type": "string", "minLength": 1, "x-convention": {"maxLength": 40, "x-source": {"maxLength": "convention D-1"}}}},
    });
    let thing = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://jerry.dev/schemas/probe/thing.json",
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"$ref": "common.json#/definitions/name"}, "flag": {"const": null}},
        "additionalProperties": false,
    });
    fs::write(dir.path().join("probe/common.json"), common.to_string()).unwrap();
    fs::write(dir.path().join("probe/thing.json"), thing.to_string()).unwrap();
    // The tree renderer on its own: the Rust renderer refuses the `const: null` and the closed
    // object with properties, which the schema layer reads all the same.
    let corpus = jerry_contracts_codegen::Corpus::load(dir.path()).unwrap();
    let trees = jerry_contracts_codegen::schema_tree::render(&corpus).unwrap_or_else(|e| panic!("{e:?}"));
    let lines: Vec<Value> =
        std::str::from_utf8(&trees).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "one tree a schema file");
    let tree = lines.iter().find(|t| t["path"] == "probe/thing.json").expect("thing's tree");
    let node = |id: &Value| &tree["nodes"][id.as_u64().unwrap() as usize];
    let root = node(&tree["seed"][""]);
    assert_eq!(root["schema"]["required"], json!(["name"]));
    // `additionalProperties: false` is a `false` schema in the seed reading.
    assert_eq!(node(&root["schema"]["additional"]), &json!("never"));
    // `const: null` is kept, not read as absent.
    assert_eq!(node(&tree["seed"]["/properties/flag"])["schema"], json!({"const": null}));
    // The reference is resolved into the other file's node, located there.
    let name = node(&tree["seed"]["/properties/name"]);
    let target = &name["ref"];
    assert_eq!(node(target)["schema"]["min_length"], json!(1));
    let (file, pointer) = (
        &tree["locations"][target.as_u64().unwrap() as usize][0],
        &tree["locations"][target.as_u64().unwrap() as usize][1],
    );
    assert_eq!(tree["files"][file.as_u64().unwrap() as usize], json!("https://jerry.dev/schemas/probe/common.json"));
    assert_eq!(pointer, &json!("/definitions/name"));
    // The convention reading asserts the `x-convention` only, and quotes its sources.
    let convention_name = node(&node(&tree["convention"]["/properties/name"])["ref"]);
    assert_eq!(convention_name["schema"], json!({"max_length": 40, "convention": {"maxLength": "convention D-1"}}));
}

#[test]
fn a_keyword_the_schema_layer_tree_cannot_carry_fails_naming_its_place() {
    // Past the corpus checks (the tree renderer on its own): a size that is no size, a type that
    // is none, a keyword nobody knows (met in both readings, named once).
    let dir = one_schema(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://jerry.dev/schemas/probe/thing.json",
        "type": "object",
        "properties": {"name": {"type": "string", "minLength": -1, "frobnicate": 1}, "kind": {"type": "strin"}},
    }));
    let corpus = jerry_contracts_codegen::Corpus::load(dir.path()).unwrap();
    let problems = jerry_contracts_codegen::schema_tree::render(&corpus).expect_err("no tree");
    let places: Vec<String> = problems.iter().map(|p| format!("{}#{}", p.file, p.pointer)).collect();
    assert!(places.contains(&"probe/thing.json#/properties/name/minLength".to_owned()), "{places:?}");
    assert!(places.contains(&"probe/thing.json#/properties/kind/type".to_owned()), "{places:?}");
    assert!(places.contains(&"probe/thing.json#/properties/name/frobnicate".to_owned()), "{places:?}");
    assert_eq!(places.len(), 3, "each problem once, not once a reading: {places:?}");
}

/// A corpus of one schema file, `probe/thing.json`.
fn one_schema(schema: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("probe")).unwrap();
    fs::write(dir.path().join("probe/thing.json"), serde_json::to_string_pretty(&schema).unwrap()).unwrap();
    dir
}

/// Generates from a corpus of one schema file, `probe/thing.json`.
fn generate_one(schema: Value) -> String {
    let dir = one_schema(schema);
    jerry_contracts_codegen::generate(dir.path()).unwrap_or_else(|e| panic!("{e}")).source
}

/// The lines of the generated item declared by `decl` (`pub struct Thing {`, `pub ref_id:`),
/// from the first doc line above it to the declaration itself.
fn item_lines<'a>(source: &'a str, decl: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = source.lines().collect();
    let at = lines.iter().position(|l| l.trim_start().starts_with(decl)).unwrap_or_else(|| panic!("no {decl}"));
    let mut start = at;
    // Back over the item's docs and attributes, to the item or field before it.
    while start > 0 {
        let above = lines[start - 1].trim_start();
        if above.starts_with("pub ") || above.ends_with(['{', ';']) || above == "}" {
            break;
        }
        start -= 1;
    }
    lines[start..=at].to_vec()
}

#[test]
fn field_docs_state_constraints_and_not_the_name() {
    let source = generate_one(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://jerry.dev/schemas/probe/thing.json",
        "description": "A probe thing.",
        "type": "object",
        "required": ["ref_id", "score", "tags", "agent_id", "label"],
        "properties": {
            "ref_id": {"type": "string", "pattern": "^REQ-\\d{3}$", "description": "The requirement it traces to"},
            "score": {"type": "number", "minimum": 0, "maximum": 1},
            "tags": {"type": "array", "minItems": 1, "maxItems": 50, "uniqueItems": true, "items": {"type": "string"}},
            "agent_id": {"type": "string", "description": "The agent id"},
            "label": {"type": "string", "maxLength": 80, "description": "label"},
        }
    }));
    let field = |name: &str| item_lines(&source, &format!("pub {name}:")).join("\n");
    let ref_id = field("ref_id");
    assert!(
        ref_id.contains("/// The requirement it traces to\n")
            && ref_id.contains("/// Constraints: pattern `^REQ-\\d{3}$`."),
        "{ref_id}"
    );
    // The derived schema keeps the schema's own description, not the constraint line.
    assert!(ref_id.contains("schemars(description = \"The requirement it traces to\")"), "{ref_id}");
    assert!(field("score").contains("/// Constraints: 0 to 1.\n"), "{}", field("score"));
    assert!(field("tags").contains("/// Constraints: 1 to 50 items; unique items.\n"), "{}", field("tags"));
    // A doc that only says the field's name is dropped; a constrained field keeps its constraints.
    let agent_id = field("agent_id");
    assert!(!agent_id.contains("///"), "{agent_id}");
    let label = field("label");
    assert!(!label.contains("/// label") && label.contains("/// Constraints: at most 80 characters.\n"), "{label}");
    let thing = item_lines(&source, "pub struct Thing {").join("\n");
    assert!(thing.starts_with("    /// A probe thing.\n    ///\n    /// Schema: `"), "{thing}");
}

#[test]
fn the_corpus_reads_as_written_by_hand() {
    let source = jerry_contracts_codegen::generate(&corpus_dir()).expect("the corpus generates").source;
    // Types named in strings are spelled as source spells them.
    for line in source.lines().filter(|l| l.contains("with = \"")) {
        assert!(!line.contains(":: ") && !line.contains(" <"), "{line}");
    }
    let lines: Vec<&str> = source.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let text = line.trim_start();
        // Docs come first: no doc line below an attribute of the same item.
        if text.starts_with("///") && i > 0 {
            let above = lines[i - 1].trim_start();
            assert!(
                !(above.starts_with("#[") || above.ends_with(")]")),
                "a doc after an attribute at line {}:\n{}\n{line}",
                i + 1,
                lines[i - 1]
            );
        }
        // No field's doc is only its name.
        if let Some(field) = text.strip_prefix("pub ").and_then(|t| t.split_once(':')).map(|(name, _)| name) {
            let docs: Vec<&str> = lines[..i]
                .iter()
                .rev()
                .take_while(|l| !l.trim_end().ends_with(',') && !l.trim_end().ends_with('{'))
                .filter_map(|l| l.trim_start().strip_prefix("///"))
                .collect();
            let said: String = docs.concat().chars().filter(|c| !matches!(c, '`' | '_' | ' ')).collect();
            let name: String = field.trim_start_matches("r#").chars().filter(|c| *c != '_').collect();
            assert!(docs.is_empty() || said.to_lowercase() != name.to_lowercase(), "{field}: {docs:?}");
        }
    }
}

#[test]
fn requirement_ids_in_a_map_fail_naming_the_agent() {
    let err = generate_with("agents/nse/risk_output.json", |s| {
        s["properties"]["owners_by_requirement"] = json!({
            "type": "object",
            "additionalProperties": {"$ref": "../../common/types.json#/definitions/requirement_id"}
        });
    })
    .expect_err("ids in a map cannot be visited");
    assert!(
        err.contains("agents/nse/risk_output.json")
            && err.contains("requirement ids at /owners_by_requirement sit inside a map or a union"),
        "{err}"
    );
}

#[test]
fn the_model_places_every_requirement_id_of_an_agent() {
    use jerry_contracts_codegen::model::{IdRole, Model, Step};
    let corpus = jerry_contracts_codegen::Corpus::load(&corpus_dir()).unwrap();
    let plan = jerry_contracts_codegen::plan::plan(&corpus).unwrap();
    let model = Model::new(&corpus, &plan).unwrap();
    let requirements = model.agents.iter().find(|a| a.agent_id == "nse-requirements").expect("nse-requirements");
    assert_eq!(requirements.family, "nse");
    assert!(requirements.disclaimer_required);
    let defined: Vec<&[Step]> = requirements
        .requirement_ids
        .iter()
        .filter(|place| place.role == IdRole::Defines)
        .map(|place| place.steps.as_slice())
        .collect();
    assert_eq!(defined, [[Step::Member("requirements".into()), Step::Each, Step::Member("id".into())].as_slice()]);
    assert!(!requirements.references_requirements(), "its ids are all definitions");
    let verification = model.agents.iter().find(|a| a.agent_id == "nse-verification").expect("nse-verification");
    assert!(verification.references_requirements() && !verification.defines_requirements());
    let researcher = model.agents.iter().find(|a| a.agent_id == "ps-researcher").expect("ps-researcher");
    assert!(!researcher.disclaimer_required && researcher.requirement_ids.is_empty());
    assert_eq!(model.agents.len(), 16, "every agent output of the corpus");
}

#[test]
fn a_type_named_as_serde_s_derives_fails_naming_its_place() {
    // The generated module imports serde's `Serialize` and `Deserialize` for the derive lists.
    let dir = one_schema(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://jerry.dev/schemas/probe/thing.json",
        "type": "object",
        "properties": {"how": {"$ref": "#/definitions/serialize"}},
        "definitions": {"serialize": {"type": "object", "properties": {"compact": {"type": "boolean"}}}},
    }));
    let err = jerry_contracts_codegen::generate(dir.path()).expect_err("a type named Serialize").to_string();
    assert!(err.contains("probe/thing.json#/definitions/serialize") && err.contains("shadow serde's derive"), "{err}");
}
