//! Fuzz target `validate`: arbitrary bytes through `validation::validate`, through
//! `validation::validate_as` with a schema picked by the first byte, and through the typed
//! envelope reader (see `jerry_contracts_fuzz::validate`).
#![cfg_attr(feature = "libfuzzer", no_main)]
#![forbid(unsafe_code)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| jerry_contracts_fuzz::validate(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() -> std::process::ExitCode {
    jerry_contracts_fuzz::harness::main("validate", jerry_contracts_fuzz::validate)
}
