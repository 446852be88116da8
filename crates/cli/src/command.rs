//! The `jerry-contracts` command line: parses the arguments and maps each subcommand's outcome
//! to an exit status: 0 all clean, 1 problems found, 2 usage or I/O error (a failed write
//! included; a reader that went away early is a quiet stop). Each subcommand's work lives in its
//! own module. The binary (`main.rs`) and the Python package's `jerry-contracts` command both run
//! [`run`].

use std::ffi::OsString;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use jerry_contracts::validation::Options;
use jerry_contracts_schema_tools::compat;

use crate::output::{self, Status, finish};
use crate::{complain, lint, store, tools, validate};

/// Parses a byte count: digits, optionally followed by K, M or G (KiB, MiB, GiB).
fn byte_count(text: &str) -> Result<usize, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" | "k" | "KiB" => 10,
        "M" | "m" | "MiB" => 20,
        "G" | "g" | "GiB" => 30,
        _ => return Err(format!("{text:?} is not a byte count (digits, then optionally K, M or G)")),
    };
    let number: usize = digits.parse().map_err(|_| format!("{text:?} is not a byte count"))?;
    number.checked_mul(1 << shift).ok_or_else(|| format!("{text:?} is too large"))
}

use clap::builder::TypedValueParser as _;
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
        /// schema_name, optionally with a definition: NAME#/definitions/X); when absent, named by
        /// the directory's schemas.map or detected per document.
        #[arg(long)]
        schema: Option<String>,
        /// Output: compiler-style text (records at file:line:column), one JSON object per
        /// document per line, GitHub Actions annotations, one JUnit XML report, or one SARIF
        /// 2.1.0 log.
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
        /// The largest document, and the longest NDJSON line, judged: a longer one is reported
        /// (SCH-015) without being read on. Bytes, or with K, M or G.
        #[arg(long, value_parser = byte_count, default_value = "64M")]
        max_bytes: usize,
        /// The most records listed for one document; past it one last record (SCH-016) counts
        /// the rest, and is an error when any of them is.
        #[arg(long, default_value_t = Options::DEFAULT_MAX_RECORDS)]
        max_records: usize,
        /// With --root: the largest artifact hashed to check its checksum; a larger one gets
        /// REF-001 instead of a hash. Bytes, or with K, M or G.
        #[arg(long, value_parser = byte_count, default_value = "256M")]
        max_artifact_bytes: usize,
        /// Follow symbolic links to directories while walking a directory (a link back to a
        /// directory being walked is still not walked twice).
        #[arg(long)]
        follow: bool,
        /// Exit 0 when the inputs hold no document at all (by default that is exit 2).
        #[arg(long)]
        allow_empty: bool,
        /// Strict mode: the project's conventions beyond what the seeds state (CNV-* records)
        /// are errors, not warnings (docs/conventions.md).
        #[arg(long)]
        strict: bool,
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
        /// The largest document migrated: a longer one is reported without being read on.
        /// Bytes, or with K, M or G.
        #[arg(long, value_parser = byte_count, default_value = "64M")]
        max_bytes: usize,
        /// Files, or `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print a valid document of a schema.
    Example {
        /// Schema name (see `list`), path, $id, agent id or mission schema_name.
        name: String,
    },
    /// Print the artifact store's tables for PostgreSQL (the DDL rendered from the contracts,
    /// as versioned migrations, in one transaction): pipe it to `psql`.
    Sql {
        /// Print only the migrations after this one (the newest a database has applied, from
        /// its `jerry_contracts_migrations` table); 0 for a database without the tables.
        #[arg(long, default_value_t = 0)]
        after: u32,
    },
    /// The artifact store in PostgreSQL: create its tables, write validated mission artifacts,
    /// read them back.
    Store {
        #[command(subcommand)]
        action: StoreAction,
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
    /// status 1 when the bump the two schemas declare ($id or schema_version) is smaller. With
    /// --mode, check a list of versions (oldest first) in a registry's compatibility mode: each
    /// refused change is shown by a document valid under one version and invalid under the
    /// other, and exit status 1 when a version's declared bump is smaller than the mode needs
    /// (with no declared versions, when a change is refused).
    Diff {
        /// The versions of the schema, oldest first: two, or with --mode two or more.
        #[arg(required = true, num_args = 2.., value_name = "VERSION")]
        versions: Vec<PathBuf>,
        /// Compatibility mode: backward (the new version accepts what the old did), forward
        /// (the old accepts what the new does), full (both); the -transitive forms check every
        /// earlier version, not only the previous one.
        #[arg(long, value_parser = mode_parser())]
        mode: Option<compat::Mode>,
        /// Members an open object does not declare: outside the contract (seed 000 §7.1: a new
        /// optional property is compatible), or instances like any other (the registries'
        /// reading: adding a constrained property to an open object is not backward compatible).
        #[arg(long, value_parser = undeclared_parser(), default_value = "outside", requires = "mode")]
        undeclared: compat::Undeclared,
        /// Output: one line per change, or one JSON object.
        #[arg(long, value_enum, default_value = "human")]
        format: DiffFormat,
    },
    /// Write the schema reference (one Markdown page per schema, an index with the agent handoff
    /// graph) from the schemas, their fixtures and the cross-pollination matrix of a checkout.
    Docs {
        /// Where the pages go. A run overwrites or removes only the pages an earlier run recorded
        /// in that directory's manifest (`.jerry-contracts-docs`) that still carry the
        /// generated-page marker, never anything below another directory; a path with a symbolic
        /// link at any component is refused.
        #[arg(long, default_value = "docs/schemas")]
        out: PathBuf,
        /// Write into a non-empty directory that has no manifest yet (it never lets a run remove
        /// or overwrite a file the manifest does not list).
        #[arg(long)]
        force: bool,
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

/// `diff --mode`: a registry's compatibility mode, by its name (`backward`, …).
fn mode_parser() -> impl clap::builder::TypedValueParser<Value = compat::Mode> {
    clap::builder::PossibleValuesParser::new(compat::Mode::ALL.map(compat::Mode::as_str))
        .map(|name| compat::Mode::ALL.into_iter().find(|m| m.as_str() == name).unwrap_or(compat::Mode::Backward))
}

/// `diff --undeclared`: the rule for members an open object does not declare, by its name.
fn undeclared_parser() -> impl clap::builder::TypedValueParser<Value = compat::Undeclared> {
    clap::builder::PossibleValuesParser::new(compat::Undeclared::ALL.map(compat::Undeclared::as_str)).map(|name| {
        compat::Undeclared::ALL.into_iter().find(|u| u.as_str() == name).unwrap_or(compat::Undeclared::Outside)
    })
}

/// How `diff` prints its verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DiffFormat {
    /// One line per change, then the verdict.
    Human,
    /// One JSON object.
    Json,
}

#[derive(Debug, Subcommand)]
enum StoreAction {
    /// Create the store's tables, or apply the migrations the database lacks, in one
    /// transaction. Exit status 2 on a database error.
    Migrate {
        /// The database: a URL (postgresql://user@host/db) or libpq key-value pairs
        /// (host=/var/run/postgresql dbname=colony); no TLS.
        #[arg(long)]
        database: String,
    },
    /// Validate mission artifacts through all four layers and against what is stored (their
    /// mission, their task), then write them in one transaction: all of them, or none when any
    /// is refused. The same document again is `unchanged`; another under a stored key is a
    /// conflict, never an overwrite. Exit status 0 when every document was written or already
    /// stored, 1 when any was refused, 2 on a conflict, an unreadable input or a database error.
    Put {
        /// The database (see `store migrate`).
        #[arg(long)]
        database: String,
        /// The largest document read: a longer one stops the command before anything is
        /// written. Bytes, or with K, M or G.
        #[arg(long, value_parser = byte_count, default_value = "64M")]
        max_bytes: usize,
        /// Files, or `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print a stored artifact's text exactly as it was put. Exit status 1 when none is stored
    /// under the key, 2 on a database error.
    Get {
        /// The database (see `store migrate`).
        #[arg(long)]
        database: String,
        /// The artifact's schema: registry name (mission/worker_result) or schema_name.
        schema: String,
        /// Its mission's id.
        mission_id: String,
        /// Its id within the mission (the mission id for the envelope and the task graph).
        id: String,
    },
    /// Print the statements that bring a database's tables to this version: with
    /// `--database`, the migrations that database lacks (nothing when it is current); without,
    /// every migration after `--after`, as `jerry-contracts sql` does. Exit status 2 on a
    /// database error.
    Sql {
        /// The database to read the applied migrations from (see `store migrate`).
        #[arg(long, conflicts_with = "after")]
        database: Option<String>,
        /// Print only the migrations after this one.
        #[arg(long, default_value_t = 0)]
        after: u32,
    },
}

/// Runs the command line `args` (the program name first, as `std::env::args_os` gives it),
/// writing to standard output and standard error, and returns the exit status.
pub fn run<I, T>(args: I) -> Status
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            let printed = err.print().and_then(|()| std::io::stdout().flush());
            // `--help` and `--version` print to standard output: a failed write is a failure.
            return if err.use_stderr() || printed.is_err() { 2 } else { 0 };
        }
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    dispatch(cli.command, &mut out)
}

/// Runs one subcommand, its output going to `out`.
fn dispatch(command: Command, out: &mut impl Write) -> Status {
    match command {
        Command::Migrate { to, max_bytes, paths } => {
            let mut status = 0;
            let written = tools::migrate(&to, max_bytes, &paths, out, &mut status);
            finish("migrate", status, written.and_then(|()| out.flush()))
        }
        Command::Example { name } => {
            let mut status = 0;
            let written = tools::example(&name, out, &mut status);
            finish("example", status, written.and_then(|()| out.flush()))
        }
        Command::Schema { name } => {
            let mut status = 0;
            let written = tools::schema(&name, out, &mut status);
            finish("schema", status, written.and_then(|()| out.flush()))
        }
        Command::List => finish("list", 0, tools::list(out).and_then(|()| out.flush())),
        Command::Sql { after } => {
            let written = out.write_all(jerry_contracts::store::ddl_after(after).as_bytes());
            finish("sql", 0, written.and_then(|()| out.flush()))
        }
        Command::Store { action } => {
            let (command, done) = match action {
                StoreAction::Migrate { database } => ("store migrate", store::migrate(&database, out)),
                StoreAction::Put { database, max_bytes, paths } => {
                    ("store put", store::put(&database, max_bytes, &paths, out))
                }
                StoreAction::Get { database, schema, mission_id, id } => {
                    ("store get", store::get(&database, &schema, &mission_id, &id, out))
                }
                StoreAction::Sql { database, after } => ("store sql", store::sql(database.as_deref(), after, out)),
            };
            match done {
                Ok(status) => finish(command, status, out.flush()),
                Err(err) => finish(command, 2, Err(err)),
            }
        }
        Command::Validate {
            schema,
            format,
            root,
            session,
            ndjson,
            max_bytes,
            max_records,
            max_artifact_bytes,
            follow,
            allow_empty,
            strict,
            paths,
        } => {
            let request = validate::Request {
                schema,
                format,
                root,
                session,
                ndjson,
                max_bytes,
                max_records,
                max_artifact_bytes,
                follow,
                allow_empty,
                strict,
                paths,
            };
            if let Some(problem) = request.usage_error() {
                complain!("jerry-contracts validate: {problem}");
                return 2;
            }
            let mut outcome = validate::Outcome::default();
            let written = validate::run(&request, out, &mut outcome).and_then(|()| out.flush());
            let gone = written.as_ref().is_err_and(output::is_gone);
            let status = if outcome.io_errors > 0 {
                2
            } else if outcome.documents == 0 && !request.allow_empty && !gone {
                complain!(
                    "jerry-contracts validate: no documents: the inputs hold none (an empty directory, blank \
                     NDJSON, no *.json or *.ndjson file); pass --allow-empty to accept that"
                );
                2
            } else if outcome.invalid > 0 {
                1
            } else {
                0
            };
            finish("validate", status, written)
        }
        Command::Diff { versions, mode: Some(mode), undeclared, format } => {
            match compat::check(&versions, mode, undeclared, jerry_contracts::examples::shortest_variant) {
                Ok(report) => {
                    let status = if report.ok() { 0 } else { 1 };
                    let written = match format {
                        DiffFormat::Human => write!(out, "{report}"),
                        DiffFormat::Json => writeln!(out, "{}", report.to_json()),
                    };
                    for problem in &report.unresolved {
                        complain!(
                            "jerry-contracts diff: warning: cannot read a referenced schema: {}",
                            output::escape(problem)
                        );
                    }
                    finish("diff", status, written.and_then(|()| out.flush()))
                }
                Err(err) => {
                    complain!("jerry-contracts diff: {}", output::escape(&err.to_string()));
                    2
                }
            }
        }
        Command::Diff { versions, mode: None, format, .. } => {
            let [old, new] = versions.as_slice() else {
                complain!("jerry-contracts diff: {} versions given: without --mode, diff compares two", versions.len());
                return 2;
            };
            match jerry_contracts_schema_tools::diff::verdict_files(old, new) {
                Ok(verdict) => {
                    let status = if verdict.ok { 0 } else { 1 };
                    let written = match format {
                        DiffFormat::Human => writeln!(out, "{verdict}"),
                        DiffFormat::Json => writeln!(out, "{}", verdict.to_json()),
                    };
                    finish("diff", status, written.and_then(|()| out.flush()))
                }
                Err(err) => {
                    complain!("jerry-contracts diff: {}", output::escape(&err.to_string()));
                    2
                }
            }
        }
        Command::Docs { out: dir, force, schemas, fixtures, matrix } => {
            use jerry_contracts_schema_tools::docs;
            match docs::render(&schemas, &fixtures, &matrix) {
                Ok(pages) => match docs::write(&dir, &pages, force) {
                    Ok(done) => {
                        let written = writeln!(
                            out,
                            "wrote {} of {} pages to {} ({} unchanged, {} stale removed)",
                            done.written,
                            pages.len(),
                            output::name(&dir),
                            done.unchanged,
                            done.removed
                        );
                        finish("docs", 0, written.and_then(|()| out.flush()))
                    }
                    Err(err) => {
                        complain!("jerry-contracts docs: {}: {}", output::name(&dir), output::escape(&err.to_string()));
                        2
                    }
                },
                Err(err) => {
                    complain!("jerry-contracts docs: {}", output::escape(&err.to_string()));
                    // An input that cannot be read is exit 2, as for `lint`; problems in it, 1.
                    match err {
                        docs::DocsError::Corpus(_) | docs::DocsError::Read { .. } => 2,
                        _ => 1,
                    }
                }
            }
        }
        Command::Lint { schemas, fixtures } => match lint::lint(&lint::LintOptions { schemas, fixtures }) {
            Ok(report) => {
                let status = if report.problem_count() == 0 { 0 } else { 1 };
                let written = out.write_all(report.render().as_bytes());
                finish("lint", status, written.and_then(|()| out.flush()))
            }
            Err(message) => {
                complain!("jerry-contracts lint: {}", output::escape(&message.to_string()));
                2
            }
        },
    }
}

/// The defaults of `--max-bytes` and `--max-artifact-bytes` are the library's.
const _: () = assert!(Options::DEFAULT_MAX_BYTES == 64 << 20);
const _: () = assert!(Options::DEFAULT_MAX_ARTIFACT_BYTES == 256 << 20);
