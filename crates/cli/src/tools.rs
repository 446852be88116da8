//! The small contract tools: `example`, `schema`, `list` and `migrate`. Each writes its result
//! to standard output, sets the exit status, and returns the outcome of writing.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jerry_contracts::validation::{Limited, read_limited};
use jerry_contracts::{examples, registry, versions};

use crate::complain;
use crate::output::{Status, escape, name};

/// `jerry-contracts example NAME`: a valid document of the schema.
pub fn example(name: &str, out: &mut dyn Write, status: &mut Status) -> io::Result<()> {
    match examples::example(name) {
        Ok(document) => writeln!(out, "{}", serde_json::to_string_pretty(&document).unwrap_or_default()),
        Err(err) => {
            complain!("jerry-contracts example: {}", escape(&err.to_string()));
            *status = 2;
            Ok(())
        }
    }
}

/// `jerry-contracts schema NAME`: the embedded schema, as written.
pub fn schema(name: &str, out: &mut dyn Write, status: &mut Status) -> io::Result<()> {
    let Some(info) = registry::lookup(name) else {
        complain!("jerry-contracts schema: no schema is named {:?} (see `jerry-contracts list`)", escape(name));
        *status = 2;
        return Ok(());
    };
    let text = jerry_contracts::EMBEDDED_SCHEMAS.iter().find(|e| e.path == info.path).map_or("", |e| e.text);
    out.write_all(text.as_bytes())
}

/// `jerry-contracts list`: every schema with its version, agent or artifact name, and title.
pub fn list(out: &mut dyn Write) -> io::Result<()> {
    let width = registry::schemas().iter().map(|s| s.name.len()).max().unwrap_or(0);
    for info in registry::schemas() {
        let tag = info.agent_id.as_deref().or(info.schema_name.as_deref()).unwrap_or("");
        writeln!(
            out,
            "{:<width$}  {:<7}  {:<18}  {}",
            info.name,
            info.version.as_deref().unwrap_or("-"),
            tag,
            info.title.as_deref().unwrap_or("")
        )?;
    }
    Ok(())
}

/// Exit statuses by severity: a later, milder outcome never hides an earlier, worse one.
fn worst(status: &mut Status, code: Status) {
    *status = (*status).max(code);
}

/// `jerry-contracts migrate [--to VERSION] PATH...|-`: each envelope rewritten as `to`, every
/// field kept as written. One document in: the document out with only its version changed;
/// several: one JSON line each. `status` becomes the worst outcome: 1 when a document cannot be
/// migrated (not JSON, not UTF-8, over `max_bytes`, an unknown version), 2 when an input cannot
/// be read.
pub fn migrate(
    to: &str,
    max_bytes: usize,
    paths: &[PathBuf],
    out: &mut dyn Write,
    status: &mut Status,
) -> io::Result<()> {
    let several = paths.len() > 1;
    for path in paths {
        let shown = if path.as_os_str() == "-" { "<stdin>".to_owned() } else { name(path) };
        let bytes = match read(path, max_bytes) {
            Ok(Limited::Whole(bytes)) => bytes,
            Ok(Limited::TooLarge { .. }) => {
                complain!(
                    "jerry-contracts migrate: {shown}: over the limit of {max_bytes} bytes (--max-bytes); not migrated"
                );
                worst(status, 1);
                continue;
            }
            Err(err) => {
                complain!("jerry-contracts migrate: {shown}: {err}");
                worst(status, 2);
                continue;
            }
        };
        match versions::migrate_text(&bytes, to) {
            Ok(migrated) if several => writeln!(out, "{}", versions::compact(&migrated))?,
            Ok(migrated) => writeln!(out, "{}", migrated.trim_end())?,
            Err(err @ versions::VersionError::NotJson(_)) => {
                complain!("jerry-contracts migrate: {shown}: {}", escape(&err.to_string()));
                worst(status, 1);
            }
            Err(err) => {
                complain!("jerry-contracts migrate: {shown}: cannot migrate: {}", escape(&err.to_string()));
                worst(status, 1);
            }
        }
    }
    Ok(())
}

/// The bytes of a file or of standard input (`-`), up to `max_bytes`.
fn read(path: &Path, max_bytes: usize) -> io::Result<Limited> {
    if path.as_os_str() == "-" {
        read_limited(io::stdin().lock(), max_bytes)
    } else {
        read_limited(std::fs::File::open(path)?, max_bytes)
    }
}
