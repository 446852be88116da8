//! Adding an agent is adding its schema: a copy of this package with one more nse-* agent schema
//! (and nothing else changed) refuses to build until its generated Rust is regenerated (D-168),
//! as a developer's `scripts/bless.sh` does; regenerated, it is built, and a standalone output of the new agent gets every rule
//! that applies to all agents, CON-001 included, on every path (bytes, parsed value, typed
//! value). The agent knowledge the rules read is generated (`AgentOutput`, `AgentInfo`); a hand
//! table that forgot the new agent would skip its rules silently.
//!
//! The copy builds in its own target directory (`target/tests/new-agent`, kept between runs):
//! a nested cargo cannot share the directory the running `cargo test` holds locked.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The new agent's schema: the nse-reporter output with another `agent_id` and `$id`, and a field
/// of requirement references the reporter does not have.
fn new_schema() -> Value {
    let text = fs::read_to_string(Path::new(ROOT).join("schemas/agents/nse/reporter_output.json"))
        .unwrap_or_else(|e| panic!("reporter schema: {e}"));
    let mut schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("reporter schema: {e}"));
    schema["$id"] = json!("https://jerry.dev/schemas/agents/nse/safety_output.json");
    schema["title"] = json!("nse-safety output");
    schema["description"] = json!("Output schema for nse-safety agent (a new agent, for the test)");
    schema["properties"]["agent_id"] = json!({ "const": "nse-safety" });
    schema["properties"]["hazard_traces"] = json!({
        "type": "array",
        "items": { "$ref": "../../common/types.json#/definitions/requirement_id" }
    });
    schema
}

/// A standalone output of the new agent that breaks the rules of all agents: no disclaimer
/// (CON-001), a confidence without reasoning (CON-004) and below 0.3 (SEM-002), no artifacts
/// (CON-005), a reference to a requirement the run does not know (REF-002).
fn document() -> Value {
    json!({
        "agent_id": "nse-safety",
        "nasa_processes": [{ "process_number": 16, "name": "Technical Assessment" }],
        "report_type": "monthly_status",
        "executive_summary": "Hazard analysis status for the surface habitat.",
        "se_metrics": {},
        "confidence": { "overall": 0.1 },
        "hazard_traces": ["REQ-NSE-999"]
    })
}

/// The probe run in the copy: prints the codes each path reports, one path a line.
const PROBE: &str = r#"
use jerry_contracts::Validate;
use jerry_contracts::agents::nse::SafetyOutput;
use jerry_contracts::validation::{Options, Validator};

fn main() {
    let bytes = std::fs::read(std::env::args().nth(1).expect("document path")).expect("document");
    let mut options = Options::default();
    options.known_requirements.insert("REQ-NSE-001".to_owned());
    let validator = Validator::with_options(options);
    let codes = |report: jerry_contracts::validation::Report| report.codes().join(" ");
    println!("bytes: {}", codes(validator.validate_as("agents/nse/safety_output", &bytes)));
    println!("detected: {}", codes(validator.validate(&bytes)));
    let value: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
    println!("value: {}", codes(validator.validate_value(Some("agents/nse/safety_output"), &value)));
    let typed: SafetyOutput = serde_json::from_value(value).expect("typed");
    assert!(typed.validate_schema().is_valid(), "{}", typed.validate_schema());
    // The gate on the typed value (default options: no requirement id known, so no REF-002).
    assert!(typed.validate().has(&jerry_contracts::validation::codes::CON_DISCLAIMER));
    println!("typed: {}", codes(validator.validate_typed(&typed)));
    let info = jerry_contracts::AgentInfo::find("nse-safety").expect("agent info");
    println!("info: {} {:?} {}", info.id, info.family, info.disclaimer_required);
}
"#;

/// The root manifest for a package of its own: no other members, no dev-dependencies or benches,
/// the workspace's crates (the generator, the pointer helper) by absolute path, no debug info
/// (a faster build).
fn manifest() -> String {
    let text = fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap_or_else(|e| panic!("Cargo.toml: {e}"));
    let crates = Path::new(ROOT).join("crates");
    let mut out = String::new();
    let mut keep = true;
    for line in text.lines() {
        if line.starts_with('[') {
            // The copy's own `[profile.dev]` follows below.
            keep = !matches!(line.trim(), "[dev-dependencies]" | "[[bench]]" | "[profile.dev]");
        }
        if !keep {
            continue;
        }
        if line.starts_with("members") {
            out.push_str("members = []\n");
        } else {
            out.push_str(&line.replace("path = \"crates/", &format!("path = \"{}/", crates.display())));
            out.push('\n');
        }
    }
    out.push_str("\n[profile.dev]\ndebug = false\n");
    out
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let path = entry.unwrap_or_else(|e| panic!("{}: {e}", from.display())).path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| Path::new(ROOT).join("target"), PathBuf::from)
        .join("tests/new-agent")
}

#[test]
fn a_new_agent_schema_gets_every_rule() {
    let package = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
    let dir = package.path();
    copy_dir(&Path::new(ROOT).join("src"), &dir.join("src"));
    copy_dir(&Path::new(ROOT).join("schemas"), &dir.join("schemas"));
    for file in ["build.rs", "README.md", "Cargo.lock"] {
        fs::copy(Path::new(ROOT).join(file), dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    fs::write(dir.join("Cargo.toml"), manifest()).unwrap_or_else(|e| panic!("manifest: {e}"));
    let schema = serde_json::to_string_pretty(&new_schema()).unwrap_or_else(|e| panic!("schema: {e}"));
    fs::write(dir.join("schemas/agents/nse/safety_output.json"), schema).unwrap_or_else(|e| panic!("schema: {e}"));
    fs::create_dir_all(dir.join("examples")).unwrap_or_else(|e| panic!("examples: {e}"));
    fs::write(dir.join("examples/probe.rs"), PROBE).unwrap_or_else(|e| panic!("probe: {e}"));
    let doc = dir.join("document.json");
    fs::write(&doc, document().to_string()).unwrap_or_else(|e| panic!("document: {e}"));

    // The schemas moved on since the committed generated Rust: the build names the new file.
    let stale = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--offline", "--lib"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("RUSTFLAGS")
        .env_remove("JERRY_BLESS")
        .output()
        .unwrap_or_else(|e| panic!("cargo: {e}"));
    let stderr = String::from_utf8_lossy(&stale.stderr);
    assert!(!stale.status.success(), "a copy whose generated Rust is stale must not build");
    assert!(
        stderr.contains("schemas/agents/nse/safety_output.json is new") && stderr.contains("scripts/bless.sh"),
        "the build names the new schema and the command that regenerates:\n{stderr}"
    );
    let generated = jerry_contracts_codegen::generate(&dir.join("schemas")).unwrap_or_else(|e| panic!("generate: {e}"));
    let source = dir.join(jerry_contracts_codegen::GENERATED_PATH);
    fs::write(&source, &generated.source).unwrap_or_else(|e| panic!("generated: {e}"));
    for (name, bytes) in &generated.files {
        let path = source.with_file_name(name);
        fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    let output = Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--offline", "--example", "probe", "--"])
        .arg(&doc)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap_or_else(|e| panic!("cargo: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the copy with a new agent does not build or run:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let mut paths = 0;
    for line in stdout.lines() {
        let Some((path, rest)) = line.split_once(": ") else { continue };
        if path == "info" {
            assert_eq!(rest, "nse-safety Nse true", "the generated agent knowledge");
            continue;
        }
        paths += 1;
        let codes: Vec<&str> = rest.split(' ').collect();
        for code in ["CON-001", "CON-004", "CON-005", "SEM-002", "REF-002"] {
            assert!(codes.contains(&code), "{path}: the new agent's output misses {code}: {rest}");
        }
    }
    assert_eq!(paths, 4, "every path reported:\n{stdout}");
}
