//! The conformance corpus's generated types: `build.rs` writes one schema per group of
//! `suite/*.json` and runs the library's generator on them, so that the tests in
//! `tests/conformance.rs` can judge every case through the generated types and through the
//! library's schema layer. Nothing here is hand-written but this file.
#![allow(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/conformance.rs"));
