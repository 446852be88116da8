//! Fuzz target `docs_out`: arbitrary bytes as a program that builds a directory tree with pages,
//! manifests and links, into which `docs::write` then writes (see `jerry_contracts_fuzz::docs_out`).
#![cfg_attr(feature = "libfuzzer", no_main)]
#![forbid(unsafe_code)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| jerry_contracts_fuzz::docs_out(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() -> std::process::ExitCode {
    jerry_contracts_fuzz::harness::main("docs_out", jerry_contracts_fuzz::docs_out)
}
