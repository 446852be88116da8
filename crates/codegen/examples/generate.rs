//! Prints the code generated for a schema directory: `cargo run -p jerry-contracts-codegen --example generate -- schemas`.
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "schemas".to_owned());
    match jerry_contracts_codegen::generate(std::path::Path::new(&dir)) {
        Ok(generated) => {
            print!("{}", generated.source);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{err}");
            ExitCode::FAILURE
        }
    }
}
