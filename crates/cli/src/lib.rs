//! The library behind the `jerry-contracts` command: each subcommand's work, so that the binary
//! (`main.rs`) only parses arguments and maps outcomes to exit codes, and so that the fuzz
//! targets (`fuzz/`) can drive the command's own NDJSON reader and directory walk.

pub mod lint;
pub mod output;
pub mod tools;
pub mod validate;
