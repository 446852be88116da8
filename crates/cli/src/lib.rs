//! The library behind the `jerry-contracts` command: the command line itself ([`command::run`]),
//! which the binary (`main.rs`) and the Python package's `jerry-contracts` command both call, and
//! each subcommand's work, which the fuzz targets (`fuzz/`) drive too (the command's own NDJSON
//! reader and directory walk).

pub mod ci_formats;
pub mod command;
pub mod lint;
pub mod output;
pub mod sarif;
pub mod store;
pub mod tools;
pub mod validate;
