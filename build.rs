//! Checks that the committed generated Rust (`src/generated/contracts.rs`, which the crate
//! includes) was generated from the schemas as they are: its header records every schema file's
//! fingerprint (`jerry-contracts-fingerprint`, a crate with no dependencies), and a schema
//! changed, added or removed since fails the build, naming each file and the command that
//! regenerates the code (D-168). The generator itself runs when the artifacts are blessed, never
//! in a user's build. With `JERRY_BLESS` set (the bless run) a stale file is a warning, so that
//! the run that rewrites it can build.

use std::path::PathBuf;
use std::{env, fs, process};

use jerry_contracts_fingerprint as fingerprint;

/// Where the generated Rust is committed, under the crate's root.
const GENERATED: &str = "src/generated/contracts.rs";

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let schemas = manifest.join("schemas");
    let generated = manifest.join(GENERATED);
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", generated.display());
    println!("cargo:rerun-if-changed={}", schemas.display());
    println!("cargo:rerun-if-env-changed=JERRY_BLESS");
    let now = fingerprint::schemas(&schemas).unwrap_or_else(|e| fail(&format!("cannot read the schemas: {e}")));
    for (path, _) in &now {
        println!("cargo:rerun-if-changed={}", schemas.join(path).display());
    }
    let source = fs::read_to_string(&generated)
        .unwrap_or_else(|e| fail(&format!("cannot read the generated types {}: {e}", generated.display())));
    let stale = fingerprint::differences(&fingerprint::read(&source), &now);
    if stale.is_empty() {
        return;
    }
    let message = format!(
        "{GENERATED} was generated from other schemas ({}); regenerate it with `scripts/bless.sh`",
        stale.join(", ")
    );
    if env::var_os("JERRY_BLESS").is_some() {
        println!("cargo:warning={message}");
    } else {
        fail(&message);
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    process::exit(1);
}
