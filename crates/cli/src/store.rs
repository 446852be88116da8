//! `jerry-contracts store`: the artifact store in PostgreSQL (`jerry-contracts-store`, D-217):
//! `migrate` creates or updates its tables, `sql` prints what a database lacks of them, `put`
//! validates artifacts and writes them in one transaction, `get` prints one back exactly as it
//! was put.

use std::io::{self, Write};
use std::path::PathBuf;

use jerry_contracts::validation::{Limited, read_limited};
use jerry_contracts_store::{Outcome, Store, StoreError};

use crate::complain;
use crate::output::{Status, escape, name};

/// Connects, or says why not (exit 2).
fn connect(command: &str, database: &str) -> Option<Store> {
    match Store::connect(database) {
        Ok(store) => Some(store),
        Err(err) => {
            complain!("jerry-contracts store {command}: {}", escape(&err.to_string()));
            None
        }
    }
}

/// `store migrate --database URL`: applies the migrations the database lacks.
pub fn migrate(database: &str, out: &mut dyn Write) -> io::Result<Status> {
    let Some(mut store) = connect("migrate", database) else { return Ok(2) };
    match store.migrate().and_then(|applied| Ok((applied, store.applied()?))) {
        Ok((applied, newest)) => {
            writeln!(out, "applied {applied} migration(s); the database is at migration {newest}")?;
            Ok(0)
        }
        Err(err) => {
            complain!("jerry-contracts store migrate: {}", escape(&err.to_string()));
            Ok(2)
        }
    }
}

/// `store sql [--database URL | --after N]`: the migrations a database lacks (read from it), or
/// those after migration `after`.
pub fn sql(database: Option<&str>, after: u32, out: &mut dyn Write) -> io::Result<Status> {
    let after = match database {
        None => after,
        Some(database) => {
            let Some(mut store) = connect("sql", database) else { return Ok(2) };
            match store.applied() {
                Ok(applied) => applied,
                Err(err) => {
                    complain!("jerry-contracts store sql: {}", escape(&err.to_string()));
                    return Ok(2);
                }
            }
        }
    };
    out.write_all(jerry_contracts::store::ddl_after(after).as_bytes())?;
    Ok(0)
}

/// `store put --database URL PATH...`: every document judged, then written in one transaction
/// if all are valid. One line a document (`PATH: written|unchanged|refused|withheld`), a refused
/// one's records below it as `validate` prints them. Exit 0 when all were written or already stored, 1 when any was
/// refused (nothing written), 2 on an unreadable input, a conflict or a database error.
pub fn put(database: &str, max_bytes: usize, paths: &[PathBuf], out: &mut dyn Write) -> io::Result<Status> {
    let mut documents = Vec::with_capacity(paths.len());
    for path in paths {
        let shown = if path.as_os_str() == "-" { "<stdin>".to_owned() } else { name(path) };
        let read = if path.as_os_str() == "-" {
            read_limited(io::stdin().lock(), max_bytes)
        } else {
            std::fs::File::open(path).and_then(|file| read_limited(file, max_bytes))
        };
        match read {
            Ok(Limited::Whole(bytes)) => documents.push((shown, bytes)),
            Ok(Limited::TooLarge { .. }) => {
                complain!(
                    "jerry-contracts store put: {shown}: over the limit of {max_bytes} bytes (--max-bytes); nothing written"
                );
                return Ok(2);
            }
            Err(err) => {
                complain!("jerry-contracts store put: {shown}: {err}; nothing written");
                return Ok(2);
            }
        }
    }
    let Some(mut store) = connect("put", database) else { return Ok(2) };
    let texts: Vec<&[u8]> = documents.iter().map(|(_, bytes)| bytes.as_slice()).collect();
    let puts = match store.put_many(&texts) {
        Ok(puts) => puts,
        Err(err) => {
            let at = match &err {
                StoreError::Conflict { index, .. }
                | StoreError::NotAnArtifact { index, .. }
                | StoreError::Unkeyed { index, .. } => {
                    documents.get(*index).map(|(shown, _)| format!("{shown}: ")).unwrap_or_default()
                }
                _ => String::new(),
            };
            complain!("jerry-contracts store put: {at}{}; nothing written", escape(&err.to_string()));
            return Ok(2);
        }
    };
    let mut status = 0;
    for ((shown, _), put) in documents.iter().zip(&puts) {
        let word = match put.outcome {
            Outcome::Written => "written",
            Outcome::Unchanged => "unchanged",
            Outcome::Refused => "refused",
            Outcome::Withheld => "withheld (another document of the batch was refused)",
            _ => "?",
        };
        writeln!(out, "{shown}: {word}")?;
        if put.outcome == Outcome::Refused {
            status = 1;
            for record in &put.report.records {
                crate::validate::print_record(shown, shown, record, out)?;
            }
        }
    }
    Ok(status)
}

/// `store get --database URL SCHEMA MISSION_ID ID`: the artifact's text exactly as it was put.
/// Exit 1 when nothing is stored under the key.
pub fn get(database: &str, schema: &str, mission_id: &str, id: &str, out: &mut dyn Write) -> io::Result<Status> {
    let Some(mut store) = connect("get", database) else { return Ok(2) };
    match store.get(schema, mission_id, id) {
        Ok(Some(document)) => {
            out.write_all(document.as_bytes())?;
            Ok(0)
        }
        Ok(None) => {
            complain!(
                "jerry-contracts store get: no {} `{}` of mission {} is stored",
                escape(schema),
                escape(id),
                escape(mission_id)
            );
            Ok(1)
        }
        Err(err) => {
            complain!("jerry-contracts store get: {}", escape(&err.to_string()));
            Ok(2)
        }
    }
}
