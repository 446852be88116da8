//! Generates the contract types from `schemas/` into `OUT_DIR/contracts.rs` with the
//! `jerry-contracts-codegen` crate. Cargo reruns this only when a schema or this file changes; a
//! schema the generator cannot carry into types fails the build, naming the file and JSON Pointer.

use std::path::{Path, PathBuf};
use std::{env, fs, process};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let schemas = manifest.join("schemas");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", schemas.display());
    let mut files = Vec::new();
    collect(&schemas, &mut files);
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let source = match jerry_contracts_codegen::generate(&schemas) {
        Ok(source) => source,
        Err(err) => fail(&format!("cannot generate the contract types from {}:\n{err}", schemas.display())),
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default()).join("contracts.rs");
    if let Err(err) = fs::write(&out, source) {
        fail(&format!("cannot write {}: {err}", out.display()));
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    process::exit(1);
}
