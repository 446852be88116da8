//! The `jerry-contracts` command line. Each subcommand lives in its own module; this file parses
//! arguments and maps outcomes to exit codes: 0 all clean, 1 problems found, 2 usage or I/O error.

mod lint;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Lint, validate and document the jerry agent-handoff contracts.
#[derive(Debug, Parser)]
#[command(name = "jerry-contracts", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check every schema against the draft-07 meta-schema, resolve every `$ref`, and judge
    /// every fixture. Prints one line per schema and a summary.
    Lint {
        /// The schema directory.
        #[arg(long, default_value = "schemas")]
        schemas: PathBuf,
        /// The fixture directory.
        #[arg(long, default_value = "tests/fixtures")]
        fixtures: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Lint { schemas, fixtures } => match lint::lint(&lint::LintOptions { schemas, fixtures }) {
            Ok(report) => {
                print!("{}", report.render());
                if report.problem_count() == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) }
            }
            Err(message) => {
                eprintln!("jerry-contracts lint: {message}");
                ExitCode::from(2)
            }
        },
    }
}
