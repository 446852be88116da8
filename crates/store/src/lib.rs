//! The colony's artifact store in PostgreSQL (issue 30, D-216, D-217): the tables that
//! `jerry_contracts::store` renders from the contracts, and a [`Store`] that writes only what
//! the validator accepts and reads back exactly what was written.
//!
//! - [`Store::put`] runs all four layers of validation, then the cross-artifact references
//!   against what is stored (an artifact's mission must be stored, REF-008; a task-scoped
//!   artifact's task must be in its mission's stored task graph, REF-009), and writes in one
//!   transaction. An invalid document is never written. The same bytes under the same key
//!   again are a no-op ([`Outcome::Unchanged`]); other bytes under a stored key are
//!   [`StoreError::Conflict`], never an overwrite.
//! - [`Store::put_many`] does the same for a batch in one transaction, one multi-row `INSERT`
//!   a table: the batch is written whole or not at all, and each document gets its outcome.
//! - [`Store::get`], [`Store::mission`] and [`Store::tasks`] read what is stored: an artifact's
//!   text exactly as it was put.
//!
//! ```no_run
//! # fn main() -> Result<(), jerry_contracts_store::StoreError> {
//! use jerry_contracts_store::{Outcome, Store};
//!
//! let mut store = Store::connect("host=/var/run/postgresql dbname=colony")?;
//! store.migrate()?;
//! let put = store.put(br#"{"schema_name": "mission_envelope", "schema_version": "v1"}"#)?;
//! if put.outcome == Outcome::Refused {
//!     for record in &put.report.records {
//!         eprintln!("{} at {}: {}", record.error_code, record.path.as_deref().unwrap_or(""), record.message);
//!     }
//! }
//! # Ok(()) }
//! ```

use std::collections::{HashMap, HashSet};

use jerry_contracts::store::{self as tables, ArtifactTable, MIGRATIONS_TABLE};
use jerry_contracts::validation::{Report, Validator, codes, record};
use postgres::error::SqlState;
use postgres::{Client, NoTls, Statement, Transaction};
use serde_json::Value;

/// What became of one document given to [`Store::put`] or [`Store::put_many`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Valid, and written.
    Written,
    /// Valid, and already stored with the same bytes: nothing written.
    Unchanged,
    /// Refused: its report has an error (a validation layer's, or a reference to a mission or
    /// task that is not stored). Nothing written.
    Refused,
    /// Valid, but another document of its batch was refused, so nothing of the batch was
    /// written.
    Withheld,
}

/// One document's report and outcome.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Put {
    /// Every record of every layer, and of the store's references (REF-008, REF-009).
    pub report: Report,
    /// What became of it.
    pub outcome: Outcome,
}

/// One stored artifact, as [`Store::mission`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredArtifact {
    /// Its schema, by registry name (`mission/worker_result`).
    pub schema: &'static str,
    /// Its id within the mission (the mission id for the envelope and the task graph).
    pub id: String,
    /// Its text, exactly as it was put.
    pub document: String,
}

/// Why a store operation failed. A document that is merely invalid is not an error: its
/// [`Put`] says [`Outcome::Refused`] with the report.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused or failed (connection, SQL, a constraint the validator did not
    /// foresee); the transaction was rolled back.
    #[error("the database: {0}")]
    Database(#[from] postgres::Error),
    /// Another artifact is stored under this key: a stored artifact is never overwritten.
    #[error(
        "{schema} `{id}` of mission {mission_id} is already stored with other content (document {index} of the call): a stored artifact is never overwritten"
    )]
    Conflict {
        /// The artifact's schema (registry name).
        schema: &'static str,
        /// Its mission.
        mission_id: String,
        /// Its id within the mission.
        id: String,
        /// Its place in the call's documents (0 for `put`).
        index: usize,
    },
    /// A valid document that is not a mission artifact (a handoff, an orchestration record):
    /// the store keeps the mission artifacts of seed 004 §14.
    #[error("document {index} of the call is {}, not a mission artifact the store keeps", .schema.unwrap_or("of no known schema"))]
    NotAnArtifact {
        /// The schema it was judged against, if any.
        schema: Option<&'static str>,
        /// Its place in the call's documents.
        index: usize,
    },
    /// A valid artifact without a member its row is keyed by (`mission_id` or its id are
    /// conventions outside the envelope, so the seeds accept an artifact without them).
    #[error("document {index} of the call ({schema}) has no string `{member}`: the store keys its rows by it")]
    Unkeyed {
        /// The artifact's schema (registry name).
        schema: &'static str,
        /// The member it lacks.
        member: &'static str,
        /// Its place in the call's documents.
        index: usize,
    },
    /// A schema name that names no table of the store.
    #[error("{0} is not a schema the store keeps (one of: {list})", list = tables::TABLES.iter().map(|t| t.schema).collect::<Vec<_>>().join(", "))]
    UnknownSchema(String),
    /// The database has migrations this library does not know: it was migrated by a newer one.
    #[error("the database has migration {found} of the store's tables, newer than this library's {known}")]
    NewerDatabase {
        /// The newest migration the database has.
        found: u32,
        /// The newest this library knows.
        known: u32,
    },
}

/// A connection to the artifact store.
pub struct Store {
    client: Client,
    validator: Validator,
    /// `put`'s one statement a table, prepared once on this connection.
    statements: HashMap<&'static str, Statement>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("closed", &self.client.is_closed()).finish_non_exhaustive()
    }
}

/// A document of a call, once judged valid: its table and key.
struct Keyed<'d> {
    index: usize,
    table: &'static ArtifactTable,
    mission_id: String,
    id: String,
    task_id: Option<String>,
    text: &'d str,
    /// The task ids a task graph lists (empty for other artifacts).
    tasks: Vec<String>,
}

impl Store {
    /// Connects to the database named by `params`: a URL (`postgresql://user@host/db`) or
    /// key-value pairs (`host=/var/run/postgresql dbname=colony`), as libpq reads them. The
    /// connection is not encrypted (no TLS).
    pub fn connect(params: &str) -> Result<Store, StoreError> {
        Ok(Store::from_client(Client::connect(params, NoTls)?, Validator::new()))
    }

    /// A store over an open connection, judging documents with `validator` (its options:
    /// strict mode, size limits, a repository root).
    pub fn from_client(client: Client, validator: Validator) -> Store {
        Store { client, validator, statements: HashMap::new() }
    }

    /// The newest migration of the store's tables the database has (0 for none).
    pub fn applied(&mut self) -> Result<u32, StoreError> {
        let exists: bool = self.client.query_one("SELECT to_regclass($1) IS NOT NULL", &[&MIGRATIONS_TABLE])?.get(0);
        if !exists {
            return Ok(0);
        }
        let newest: Option<i32> =
            self.client.query_one(&format!("SELECT max(version) FROM {MIGRATIONS_TABLE}"), &[])?.get(0);
        Ok(newest.map_or(0, |v| u32::try_from(v).unwrap_or(0)))
    }

    /// Applies the migrations the database lacks, in one transaction; returns how many.
    pub fn migrate(&mut self) -> Result<usize, StoreError> {
        let applied = self.applied()?;
        let known = tables::MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0);
        if applied > known {
            return Err(StoreError::NewerDatabase { found: applied, known });
        }
        let pending = tables::MIGRATIONS.iter().filter(|m| m.version > applied).count();
        if pending > 0 {
            // ddl_after holds its own BEGIN and COMMIT.
            self.client.batch_execute(&tables::ddl_after(applied))?;
        }
        Ok(pending)
    }

    /// Validates `document` and writes it if it is valid (see the crate's documentation). A new
    /// artifact costs one statement, one round trip to the server: an `INSERT … ON CONFLICT DO
    /// NOTHING` whose foreign keys check the mission and the task (a violation is REF-008 or
    /// REF-009). Only when something is stored under the key does a second read tell
    /// `Unchanged` from a conflict.
    pub fn put(&mut self, document: &[u8]) -> Result<Put, StoreError> {
        let mut report = self.validator.validate(document);
        if !report.is_valid() {
            return Ok(Put { report, outcome: Outcome::Refused });
        }
        let item = key(0, document, &report)?;
        let statement = match self.statements.get(item.table.table) {
            Some(statement) => statement.clone(),
            None => {
                let statement = self.client.prepare(&put_statement(item.table))?;
                self.statements.insert(item.table.table, statement.clone());
                statement
            }
        };
        let outcome = match self.client.query_opt(&statement, &[&item.text]) {
            Ok(Some(_)) => Outcome::Written,
            Ok(None) => {
                let stored = self.client.query_opt(
                    &format!(
                        "SELECT document FROM {} WHERE mission_id = $1::text::uuid AND {}",
                        item.table.table,
                        id_condition(item.table, "", "$2")
                    ),
                    &[&item.mission_id, &item.id],
                )?;
                match stored {
                    Some(row) if row.get::<_, String>(0) == item.text => Outcome::Unchanged,
                    _ => return Err(item.conflict()),
                }
            }
            Err(err) => {
                let constraint = err.as_db_error().and_then(|e| e.constraint()).unwrap_or_default();
                if err.code() != Some(&SqlState::FOREIGN_KEY_VIOLATION) {
                    return Err(err.into());
                } else if constraint == format!("{}_mission_fk", item.table.table) {
                    report.push(mission_not_stored(&item));
                } else if constraint == format!("{}_task_fk", item.table.table) {
                    report.push(task_not_stored(&item));
                } else {
                    return Err(err.into());
                }
                Outcome::Refused
            }
        };
        Ok(Put { report, outcome })
    }

    /// Validates every document and writes the batch in one transaction if all are valid:
    /// nothing of it when any is refused (the others are [`Outcome::Withheld`]). The outcomes
    /// come in the documents' order. The look-ups are one query a table for the whole batch, the
    /// writes one multi-row `INSERT` a table.
    pub fn put_many(&mut self, documents: &[&[u8]]) -> Result<Vec<Put>, StoreError> {
        let mut puts: Vec<Put> = Vec::with_capacity(documents.len());
        let mut keyed: Vec<Keyed<'_>> = Vec::new();
        for (index, document) in documents.iter().enumerate() {
            let report = self.validator.validate(document);
            if !report.is_valid() {
                puts.push(Put { report, outcome: Outcome::Refused });
                continue;
            }
            keyed.push(key(index, document, &report)?);
            puts.push(Put { report, outcome: Outcome::Written });
        }
        let mut transaction = self.client.transaction()?;
        references(&mut transaction, &keyed, &mut puts)?;
        if puts.iter().any(|p| p.outcome == Outcome::Refused) {
            for put in puts.iter_mut().filter(|p| p.outcome == Outcome::Written) {
                put.outcome = Outcome::Withheld;
            }
            return Ok(puts);
        }
        let unchanged = stored_already(&mut transaction, &keyed)?;
        // A table at a time, in the DDL's order, so a mission precedes its graph and the graph
        // its task-scoped artifacts.
        for table in tables::TABLES {
            let mut texts: Vec<&str> = Vec::new();
            for item in keyed.iter().filter(|k| k.table.table == table.table) {
                if unchanged.contains(&item.index) {
                    if let Some(put) = puts.get_mut(item.index) {
                        put.outcome = Outcome::Unchanged;
                    }
                } else {
                    texts.push(item.text);
                }
            }
            if !texts.is_empty() {
                transaction.execute(
                    &format!(
                        "INSERT INTO {} (document, payload) SELECT d, d::jsonb FROM unnest($1::text[]) AS d",
                        table.table
                    ),
                    &[&texts],
                )?;
            }
        }
        transaction.commit()?;
        Ok(puts)
    }

    /// The text of the artifact of schema `schema` (registry name or `schema_name`) with id
    /// `id` in mission `mission_id`, exactly as it was put; for the envelope and the task graph,
    /// whose id is their mission's, `id` is the mission id.
    pub fn get(&mut self, schema: &str, mission_id: &str, id: &str) -> Result<Option<String>, StoreError> {
        let table = tables::table_of(schema).ok_or_else(|| StoreError::UnknownSchema(schema.to_owned()))?;
        let Some(mission) = uuid_text(mission_id) else { return Ok(None) };
        let row = self.client.query_opt(
            &format!(
                "SELECT document FROM {} WHERE mission_id = $1::text::uuid AND {}",
                table.table,
                id_condition(table, "", "$2")
            ),
            &[&mission, &id],
        )?;
        Ok(row.map(|r| r.get(0)))
    }

    /// Every stored artifact of mission `mission_id`, table by table in the DDL's order, each
    /// table's by id.
    pub fn mission(&mut self, mission_id: &str) -> Result<Vec<StoredArtifact>, StoreError> {
        let Some(mission) = uuid_text(mission_id) else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        for table in tables::TABLES {
            let rows = self.client.query(
                &format!(
                    "SELECT {}::text, document FROM {} WHERE mission_id = $1::text::uuid ORDER BY 1",
                    table.id, table.table
                ),
                &[&mission],
            )?;
            out.extend(rows.iter().map(|r| StoredArtifact { schema: table.schema, id: r.get(0), document: r.get(1) }));
        }
        Ok(out)
    }

    /// The task records of mission `mission_id`'s stored task graph, by task id, each as the
    /// JSON PostgreSQL writes for it (the graph's own text is [`Store::get`]'s).
    pub fn tasks(&mut self, mission_id: &str) -> Result<Vec<String>, StoreError> {
        let Some(mission) = uuid_text(mission_id) else { return Ok(Vec::new()) };
        let rows = self.client.query(
            "SELECT payload::text FROM colony_tasks WHERE mission_id = $1::text::uuid ORDER BY task_id",
            &[&mission],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

/// The condition that a row of `table` (its columns named with `prefix`) has the id `id` (a
/// parameter or a column): the id column's text, or for a table keyed by the mission alone, the
/// mission id's canonical (lower-case) text.
fn id_condition(table: &ArtifactTable, prefix: &str, id: &str) -> String {
    if table.id == "mission_id" {
        format!("{prefix}mission_id::text = lower({id})")
    } else {
        format!("{prefix}{} = {id}", table.id)
    }
}

impl Keyed<'_> {
    /// The conflict of this document with what is stored under its key.
    fn conflict(&self) -> StoreError {
        StoreError::Conflict {
            schema: self.table.schema,
            mission_id: self.mission_id.clone(),
            id: self.id.clone(),
            index: self.index,
        }
    }
}

/// `put`'s statement for `table`: the insert of the document `$1`, nothing when a row is
/// stored under its key, returning a row when it wrote one.
fn put_statement(table: &ArtifactTable) -> String {
    let key = if table.id == "mission_id" { "mission_id".to_owned() } else { format!("mission_id, {}", table.id) };
    format!(
        "INSERT INTO {} (document, payload) VALUES ($1::text, $1::text::jsonb) ON CONFLICT ({key}) DO NOTHING RETURNING true",
        table.table
    )
}

/// REF-008 for `item`.
fn mission_not_stored(item: &Keyed<'_>) -> jerry_contracts::common::ErrorRecord {
    record(&codes::REF_MISSION_NOT_STORED, "/mission_id", format!("mission {} has no stored envelope", item.mission_id))
}

/// REF-009 for `item`.
fn task_not_stored(item: &Keyed<'_>) -> jerry_contracts::common::ErrorRecord {
    let task = item.task_id.as_deref().unwrap_or_default();
    record(
        &codes::REF_TASK_NOT_STORED,
        "/task_id",
        format!("task {task} is not in mission {}'s stored task graph", item.mission_id),
    )
}

/// `text` if it is a UUID as the schemas write one (8-4-4-4-12 hexadecimal digits), so that a
/// look-up by another text finds nothing instead of failing the cast.
fn uuid_text(text: &str) -> Option<&str> {
    let groups: Vec<&str> = text.split('-').collect();
    let shaped = groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    shaped.then_some(text)
}

/// The table and key of a valid document, or why the store cannot keep it.
fn key<'d>(index: usize, document: &'d [u8], report: &Report) -> Result<Keyed<'d>, StoreError> {
    let not_an_artifact = || StoreError::NotAnArtifact { schema: report.schema, index };
    let table = report.schema.and_then(tables::table_of).ok_or_else(not_an_artifact)?;
    // Valid, so UTF-8 JSON text (the validator judged it).
    let text = std::str::from_utf8(document).map_err(|_| not_an_artifact())?;
    let value: Value = serde_json::from_str(text).map_err(|_| not_an_artifact())?;
    let member = |name: &'static str| {
        value.get(name).and_then(Value::as_str).map(str::to_owned).ok_or(StoreError::Unkeyed {
            schema: table.schema,
            member: name,
            index,
        })
    };
    // UUIDs compare in one case: PostgreSQL writes them in lower case.
    let mission_id = member("mission_id")?.to_ascii_lowercase();
    let id = if table.id == "mission_id" { mission_id.clone() } else { member(table.id)? };
    let task_id =
        if table.task_scoped { value.get("task_id").and_then(Value::as_str).map(str::to_owned) } else { None };
    let tasks = value
        .get("tasks")
        .and_then(Value::as_array)
        .filter(|_| table.schema == "mission/mission_task_graph")
        .map(|tasks| tasks.iter().filter_map(|t| t.get("task_id").and_then(Value::as_str)).map(str::to_owned).collect())
        .unwrap_or_default();
    Ok(Keyed { index, table, mission_id, id, task_id, text, tasks })
}

/// Adds to each document's report the references the stored artifacts (and the batch's
/// earlier ones) do not hold: a mission that is not stored (REF-008), a task that is not in the
/// mission's stored task graph (REF-009); such a document becomes [`Outcome::Refused`]. One query
/// for the missions and one for the tasks, whatever the batch's size.
fn references(transaction: &mut Transaction<'_>, keyed: &[Keyed<'_>], puts: &mut [Put]) -> Result<(), StoreError> {
    // What the batch itself brings: its envelopes and its graphs' tasks.
    let mut missions: HashSet<&str> = HashSet::new();
    let mut tasks: HashSet<(&str, &str)> = HashSet::new();
    for item in keyed {
        if item.table.table == "colony_missions" {
            missions.insert(&item.mission_id);
        }
        tasks.extend(item.tasks.iter().map(|t| (item.mission_id.as_str(), t.as_str())));
    }
    let asked: Vec<&str> = keyed
        .iter()
        .filter(|k| k.table.table != "colony_missions" && !missions.contains(k.mission_id.as_str()))
        .map(|k| k.mission_id.as_str())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    if !asked.is_empty() {
        let rows = transaction.query(
            "SELECT mission_id::text FROM colony_missions WHERE mission_id = ANY ($1::text[]::uuid[])",
            &[&asked],
        )?;
        let found: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
        for item in keyed.iter().filter(|k| k.table.table != "colony_missions") {
            let mission = item.mission_id.as_str();
            if !missions.contains(mission)
                && !found.iter().any(|f| f == mission)
                && let Some(put) = puts.get_mut(item.index)
            {
                put.report.push(mission_not_stored(item));
                put.outcome = Outcome::Refused;
            }
        }
    }
    let pending: Vec<&Keyed<'_>> = keyed
        .iter()
        .filter(|k| puts.get(k.index).is_some_and(|p| p.outcome != Outcome::Refused))
        .filter(|k| k.task_id.as_deref().is_some_and(|t| !tasks.contains(&(k.mission_id.as_str(), t))))
        .collect();
    if !pending.is_empty() {
        let (asked_missions, asked_tasks): (Vec<&str>, Vec<&str>) =
            pending.iter().map(|k| (k.mission_id.as_str(), k.task_id.as_deref().unwrap_or_default())).unzip();
        let rows = transaction.query(
            "SELECT k.m, k.t FROM unnest($1::text[], $2::text[]) AS k(m, t) \
             WHERE EXISTS (SELECT 1 FROM colony_tasks c WHERE c.mission_id = k.m::uuid AND c.task_id = k.t)",
            &[&asked_missions, &asked_tasks],
        )?;
        let found: HashSet<(String, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        for item in pending {
            let pair = (item.mission_id.clone(), item.task_id.clone().unwrap_or_default());
            if !found.contains(&pair)
                && let Some(put) = puts.get_mut(item.index)
            {
                put.report.push(task_not_stored(item));
                put.outcome = Outcome::Refused;
            }
        }
    }
    Ok(())
}

/// The documents of the batch already stored with the same bytes (their indexes), or the
/// conflict of the first stored, or repeated in the batch, with other bytes. One query a table
/// the batch writes to.
fn stored_already(transaction: &mut Transaction<'_>, keyed: &[Keyed<'_>]) -> Result<HashSet<usize>, StoreError> {
    let mut unchanged = HashSet::new();
    let mut first: HashMap<(&str, &str, &str), &Keyed<'_>> = HashMap::new();
    for item in keyed {
        let batch_key = (item.table.table, item.mission_id.as_str(), item.id.as_str());
        match first.get(&batch_key) {
            Some(earlier) if earlier.text == item.text => {
                unchanged.insert(item.index);
            }
            Some(_) => return Err(item.conflict()),
            None => {
                first.insert(batch_key, item);
            }
        }
    }
    for table in tables::TABLES {
        let mine: Vec<&Keyed<'_>> = first.values().filter(|k| k.table.table == table.table).copied().collect();
        if mine.is_empty() {
            continue;
        }
        let (missions, ids): (Vec<&str>, Vec<&str>) =
            mine.iter().map(|k| (k.mission_id.as_str(), k.id.as_str())).unzip();
        let id = id_condition(table, "t.", "k.i");
        let rows = transaction.query(
            &format!(
                "SELECT k.m, k.i, t.document FROM unnest($1::text[], $2::text[]) AS k(m, i) \
                 JOIN {} t ON t.mission_id = k.m::uuid AND {id}",
                table.table
            ),
            &[&missions, &ids],
        )?;
        for row in rows {
            let (mission, id, stored): (String, String, String) = (row.get(0), row.get(1), row.get(2));
            let Some(item) = first.get(&(table.table, mission.as_str(), id.as_str())) else { continue };
            if stored == item.text {
                unchanged.insert(item.index);
                // The batch's later copies of it are unchanged already.
            } else {
                return Err(item.conflict());
            }
        }
    }
    Ok(unchanged)
}
