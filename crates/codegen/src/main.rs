//! Writes the generated Rust (`src/generated/contracts.rs`) from `schemas/` without building the
//! library, which includes that file: the first step of `scripts/bless.sh`, for a change after
//! which the committed file no longer compiles. `cargo run -p jerry-contracts-codegen [-- ROOT]`,
//! ROOT the repository's root (default: the workspace this crate is in).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."), PathBuf::from);
    let root = root.canonicalize().unwrap_or(root);
    let source = match jerry_contracts_codegen::generate(&root.join("schemas")) {
        Ok(source) => source,
        Err(err) => {
            eprintln!("error: cannot generate the contract types from {}:\n{err}", root.join("schemas").display());
            return ExitCode::FAILURE;
        }
    };
    let path = root.join(jerry_contracts_codegen::GENERATED_PATH);
    let unchanged = std::fs::read_to_string(&path).is_ok_and(|committed| committed == source);
    if unchanged {
        println!("{} is fresh", path.display());
        return ExitCode::SUCCESS;
    }
    match std::fs::write(&path, source) {
        Ok(()) => {
            println!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: cannot write {}: {err}", path.display());
            ExitCode::FAILURE
        }
    }
}
