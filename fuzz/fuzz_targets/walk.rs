//! Fuzz target `walk`: arbitrary bytes as a program that builds a directory tree with links, which
//! `jerry-contracts validate` then walks (see `jerry_contracts_fuzz::walk`).
#![cfg_attr(feature = "libfuzzer", no_main)]
#![forbid(unsafe_code)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| jerry_contracts_fuzz::walk(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() -> std::process::ExitCode {
    jerry_contracts_fuzz::harness::main("walk", jerry_contracts_fuzz::walk)
}
