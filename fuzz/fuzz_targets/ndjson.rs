//! Fuzz target `ndjson`: arbitrary bytes split into lines the way `jerry-contracts validate
//! --ndjson` splits a stream, each line judged (see `jerry_contracts_fuzz::ndjson`).
#![cfg_attr(feature = "libfuzzer", no_main)]
#![forbid(unsafe_code)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| jerry_contracts_fuzz::ndjson(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() -> std::process::ExitCode {
    jerry_contracts_fuzz::harness::main("ndjson", jerry_contracts_fuzz::ndjson)
}
