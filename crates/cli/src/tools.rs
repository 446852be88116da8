//! The small contract tools: `example`, `schema`, `list` and `migrate`. Each writes its result
//! to standard output and returns the exit status.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use jerry_contracts::{examples, registry, versions};

/// `jerry-contracts example NAME`: a valid document of the schema.
pub fn example(name: &str, out: &mut dyn Write) -> io::Result<ExitCode> {
    match examples::example(name) {
        Ok(document) => {
            writeln!(out, "{}", serde_json::to_string_pretty(&document).unwrap_or_default())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            eprintln!("jerry-contracts example: {err}");
            Ok(ExitCode::from(2))
        }
    }
}

/// `jerry-contracts schema NAME`: the embedded schema, as written.
pub fn schema(name: &str, out: &mut dyn Write) -> io::Result<ExitCode> {
    let Some(info) = registry::lookup(name) else {
        eprintln!("jerry-contracts schema: no schema is named {name:?} (see `jerry-contracts list`)");
        return Ok(ExitCode::from(2));
    };
    let text = jerry_contracts::EMBEDDED_SCHEMAS.iter().find(|e| e.path == info.path).map_or("", |e| e.text);
    out.write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// `jerry-contracts list`: every schema with its version, agent or artifact name, and title.
pub fn list(out: &mut dyn Write) -> io::Result<ExitCode> {
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
    Ok(ExitCode::SUCCESS)
}

/// `jerry-contracts migrate [--to VERSION] PATH...|-`: each envelope rewritten as `to`, every
/// field kept as written. One document in: the document out with only its version changed;
/// several: one JSON line each.
pub fn migrate(to: &str, paths: &[PathBuf], out: &mut dyn Write) -> io::Result<ExitCode> {
    let mut status = ExitCode::SUCCESS;
    let several = paths.len() > 1;
    for path in paths {
        let shown = if path.as_os_str() == "-" { "<stdin>".to_owned() } else { path.display().to_string() };
        let text = match read(path) {
            Ok(text) => text,
            Err(err) => {
                eprintln!("jerry-contracts migrate: {shown}: {err}");
                status = ExitCode::from(2);
                continue;
            }
        };
        match versions::migrate_text(text.as_bytes(), to) {
            Ok(migrated) if several => writeln!(out, "{}", versions::compact(&migrated))?,
            Ok(migrated) => writeln!(out, "{}", migrated.trim_end())?,
            Err(err @ versions::VersionError::NotJson(_)) => {
                eprintln!("jerry-contracts migrate: {shown}: {err}");
                status = ExitCode::from(1);
            }
            Err(err) => {
                eprintln!("jerry-contracts migrate: {shown}: cannot migrate: {err}");
                status = ExitCode::from(1);
            }
        }
    }
    Ok(status)
}

fn read(path: &Path) -> io::Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
    }
}
