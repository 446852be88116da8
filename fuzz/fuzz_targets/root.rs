//! Fuzz target `root`: arbitrary bytes as a program that builds a directory tree with files,
//! FIFOs and links, and artifact references into it, judged with `--root` against an oracle
//! that resolves each path whole (see `jerry_contracts_fuzz::root`).
#![cfg_attr(feature = "libfuzzer", no_main)]
#![forbid(unsafe_code)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| jerry_contracts_fuzz::root(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() -> std::process::ExitCode {
    jerry_contracts_fuzz::harness::main("root", jerry_contracts_fuzz::root)
}
