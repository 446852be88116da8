//! Writes the generated Rust (`src/generated/contracts.rs`, and the pattern DFAs and the schema
//! layer's trees beside it) from
//! `schemas/` without building the library, which includes that file: the first step of
//! `scripts/bless.sh`, for a change after which the committed file no longer compiles. `cargo run -p jerry-contracts-codegen [-- ROOT]`,
//! ROOT the repository's root (default: the workspace this crate is in).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."), PathBuf::from);
    let root = root.canonicalize().unwrap_or(root);
    let generated = match jerry_contracts_codegen::generate(&root.join("schemas")) {
        Ok(generated) => generated,
        Err(err) => {
            eprintln!("error: cannot generate the contract types from {}:\n{err}", root.join("schemas").display());
            return ExitCode::FAILURE;
        }
    };
    let path = root.join(jerry_contracts_codegen::GENERATED_PATH);
    let directory = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut outputs: Vec<(PathBuf, &[u8])> = vec![(path.clone(), generated.source.as_bytes())];
    outputs.extend(generated.files.iter().map(|(name, bytes)| (directory.join(name), bytes.as_slice())));
    for (path, bytes) in outputs {
        let unchanged = std::fs::read(&path).is_ok_and(|committed| committed == bytes);
        if unchanged {
            println!("{} is fresh", path.display());
            continue;
        }
        match std::fs::write(&path, bytes) {
            Ok(()) => println!("wrote {}", path.display()),
            Err(err) => {
                eprintln!("error: cannot write {}: {err}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
