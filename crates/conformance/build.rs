//! Generates the conformance corpus's types: every schema group of `suite/*.json` (in the
//! style of the JSON-Schema-Test-Suite) becomes a schema file `<suite>/<name>.json` under
//! `OUT_DIR/schemas`, and the library's own generator turns that corpus into Rust types, as it does
//! for the library's `schemas/` (here at build time, into `OUT_DIR`).

use std::path::{Path, PathBuf};
use std::{env, fs, process};

use serde_json::{Value, json};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    let suite = manifest.join("suite");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", suite.display());
    let schemas = out.join("schemas");
    let _ = fs::remove_dir_all(&schemas);
    let mut files: Vec<PathBuf> = match fs::read_dir(&suite) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(err) => fail(&format!("cannot read {}: {err}", suite.display())),
    };
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        write_groups(file, &schemas);
    }
    let generated = match jerry_contracts_codegen::generate_with(&schemas, jerry_contracts_codegen::Embed::Absolute) {
        Ok(generated) => generated,
        Err(err) => fail(&format!("cannot generate the conformance types:\n{err}")),
    };
    if let Err(err) = fs::write(out.join("conformance.rs"), generated.source) {
        fail(&format!("cannot write the generated source: {err}"));
    }
    // The pattern table's DFAs, which the source includes from OUT_DIR.
    for (name, bytes) in &generated.files {
        if let Err(err) = fs::write(out.join(name), bytes) {
            fail(&format!("cannot write {name}: {err}"));
        }
    }
}

/// Writes each group's schema of the suite file `file` as `<stem>/<name>.json` under `dir`.
fn write_groups(file: &Path, dir: &Path) {
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let text = fs::read_to_string(file).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", file.display())));
    let groups: Vec<Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("{}: not a suite: {e}", file.display())));
    let target = dir.join(&stem);
    if let Err(err) = fs::create_dir_all(&target) {
        fail(&format!("cannot create {}: {err}", target.display()));
    }
    for (index, group) in groups.iter().enumerate() {
        let name = group.get("name").and_then(Value::as_str);
        let schema = group.get("schema").and_then(Value::as_object);
        let (Some(name), Some(schema)) = (name, schema) else {
            fail(&format!("{}#/{index}: a group needs a \"name\" and an object \"schema\"", file.display()))
        };
        let mut schema = schema.clone();
        schema.insert("$schema".into(), json!("http://json-schema.org/draft-07/schema#"));
        schema.insert("$id".into(), json!(format!("https://jerry.dev/schemas/{stem}/{name}.json")));
        let text = serde_json::to_string_pretty(&Value::Object(schema)).unwrap_or_default();
        if let Err(err) = fs::write(target.join(format!("{name}.json")), text) {
            fail(&format!("cannot write the schema of {name}: {err}"));
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    process::exit(1);
}
