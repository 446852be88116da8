//! The `jerry-contracts` command line. Each subcommand lives in its own module; this file parses
//! arguments and maps outcomes to exit codes: 0 all clean, 1 problems found, 2 usage or I/O error.

mod lint;
mod tools;
mod validate;

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
    /// Validate documents through all four layers (schema, semantic, constitutional,
    /// cross-reference). Exit status 0 when every document is valid (warnings allowed), 1 when any
    /// is invalid, 2 on a usage or I/O error.
    Validate {
        /// The schema every document follows (registry name, path, $id, agent id or mission
        /// schema_name); detected per document when absent.
        #[arg(long)]
        schema: Option<String>,
        /// Output: compiler-style text, or one JSON object per document per line.
        #[arg(long, value_enum, default_value = "human")]
        format: validate::Format,
        /// Repository root: check that artifacts exist and match their checksums.
        #[arg(long)]
        root: Option<PathBuf>,
        /// The consumer's session id: handoffs from another session get a warning.
        #[arg(long)]
        session: Option<String>,
        /// Read every input as NDJSON (one document a line); `*.ndjson` files always are.
        #[arg(long)]
        ndjson: bool,
        /// Files, directories (every *.json and *.ndjson below them), or `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Rewrite session-context envelopes as a newer version, keeping every field. Exit status 1
    /// when a document cannot be migrated (2.x, unknown versions, not JSON), 2 on I/O errors.
    Migrate {
        /// The target version.
        #[arg(long, default_value = "1.1.0")]
        to: String,
        /// Files, or `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print a valid document of a schema.
    Example {
        /// Schema name (see `list`), path, $id, agent id or mission schema_name.
        name: String,
    },
    /// Print a schema as embedded in this build.
    Schema {
        /// Schema name (see `list`), path, $id, agent id or mission schema_name.
        name: String,
    },
    /// List the schemas of the registry: name, version, agent or artifact name, title.
    List,
    /// List every change between two versions of a schema with its JSON Pointer, classify it
    /// (seed 000 §7.1: MAJOR, MINOR, PATCH), and print the least version bump it needs. Exit
    /// status 1 when the bump the two schemas declare ($id or schema_version) is smaller.
    Diff {
        /// The old schema.
        old: PathBuf,
        /// The new schema.
        new: PathBuf,
        /// Output: one line per change, or one JSON object.
        #[arg(long, value_enum, default_value = "human")]
        format: validate::Format,
    },
    /// Write the schema reference (one Markdown page per schema, an index with the agent handoff
    /// graph) from the schemas, their fixtures and the cross-pollination matrix of a checkout.
    Docs {
        /// Where the pages go (stale pages there are removed).
        #[arg(long, default_value = "docs/schemas")]
        out: PathBuf,
        /// The schema directory.
        #[arg(long, default_value = "schemas")]
        schemas: PathBuf,
        /// The fixture directory (examples on each page).
        #[arg(long, default_value = "tests/fixtures")]
        fixtures: PathBuf,
        /// The cross-pollination matrix (handoff edges).
        #[arg(long, default_value = "data/cross_pollination_matrix.json")]
        matrix: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let tool = match &cli.command {
        Command::Migrate { to, paths } => Some(tools::migrate(to, paths, &mut out)),
        Command::Example { name } => Some(tools::example(name, &mut out)),
        Command::Schema { name } => Some(tools::schema(name, &mut out)),
        Command::List => Some(tools::list(&mut out)),
        _ => None,
    };
    drop(out);
    if let Some(result) = tool {
        return result.unwrap_or_else(|err| {
            // A reader that stopped early (`| head`) is not a failure of ours.
            if err.kind() == std::io::ErrorKind::BrokenPipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("jerry-contracts: {err}");
            ExitCode::from(2)
        });
    }
    match cli.command {
        Command::Validate { schema, format, root, session, ndjson, paths } => {
            let request = validate::Request { schema, format, root, session, ndjson, paths };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            match validate::run(&request, &mut out, &mut std::io::stderr()) {
                Ok(outcome) => {
                    if std::io::Write::flush(&mut out).is_err() || outcome.io_errors > 0 {
                        ExitCode::from(2)
                    } else if outcome.invalid > 0 {
                        ExitCode::from(1)
                    } else {
                        ExitCode::SUCCESS
                    }
                }
                Err(err) => {
                    eprintln!("jerry-contracts validate: {err}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Diff { old, new, format } => match jerry_contracts_codegen::diff::verdict_files(&old, &new) {
            Ok(verdict) => {
                match format {
                    validate::Format::Human => println!("{verdict}"),
                    validate::Format::Json => println!("{}", verdict.to_json()),
                }
                if verdict.ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
            }
            Err(err) => {
                eprintln!("jerry-contracts diff: {err}");
                ExitCode::from(2)
            }
        },
        Command::Docs { out, schemas, fixtures, matrix } => {
            use jerry_contracts_codegen::docs;
            match docs::render(&schemas, &fixtures, &matrix) {
                Ok(pages) => match docs::write(&out, &pages) {
                    Ok(()) => {
                        println!("wrote {} pages to {}", pages.len(), out.display());
                        ExitCode::SUCCESS
                    }
                    Err(err) => {
                        eprintln!("jerry-contracts docs: {}: {err}", out.display());
                        ExitCode::from(2)
                    }
                },
                Err(err) => {
                    eprintln!("jerry-contracts docs: {err}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Migrate { .. } | Command::Example { .. } | Command::Schema { .. } | Command::List => ExitCode::SUCCESS,
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
