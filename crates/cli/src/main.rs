//! The `jerry-contracts` binary: the command line of [`jerry_contracts_cli::command`], its status
//! as the process's exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(jerry_contracts_cli::command::run(std::env::args_os()))
}
