//! The artifact store's tables in PostgreSQL (issue 30): the DDL rendered from the contract
//! model (`crates/codegen/src/sql.rs`, D-216), as versioned migrations. This module holds SQL
//! text and the table list ([`TABLES`]); it opens no connection (the `jerry-contracts-store`
//! crate does). `jerry-contracts sql` prints [`ddl`].
//!
//! Each migration is recorded in [`MIGRATIONS_TABLE`] by the statement that applies it, in the
//! same transaction, so a database says which migrations it has; a later schema version adds a
//! migration that alters the tables (keeping their rows) rather than changing an applied one.

/// One table of the artifact store: which artifacts it holds and how a row is keyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArtifactTable {
    /// The artifact's schema, by registry name (`mission/worker_result`).
    pub schema: &'static str,
    /// The artifact's `schema_name` constant (`worker_result`).
    pub schema_name: &'static str,
    /// The table (`colony_worker_results`).
    pub table: &'static str,
    /// The member that identifies an artifact within its mission (`result_id`; `mission_id`
    /// for the envelope and the task graph, one of each a mission). A row's key is
    /// `(mission_id, id)`.
    pub id: &'static str,
    /// Whether the artifact belongs to a task of its mission's task graph (its `task_id` must
    /// be one of them).
    pub task_scoped: bool,
}

include!("generated/store_tables.rs");

/// The table of the artifacts of schema `schema` (registry name or `schema_name` constant).
pub fn table_of(schema: &str) -> Option<&'static ArtifactTable> {
    TABLES.iter().find(|t| t.schema == schema || t.schema_name == schema)
}

/// One migration of the store's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Migration {
    /// Its number: migrations apply in this order, each once.
    pub version: u32,
    /// What it does, as recorded in the migrations table.
    pub name: &'static str,
    /// Its statements (no transaction of their own).
    pub sql: &'static str,
}

/// The table that records the migrations a database has.
pub const MIGRATIONS_TABLE: &str = "jerry_contracts_migrations";

/// Every migration, oldest first.
pub const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    name: "the mission artifacts of schema version v1 (seed 004 §14)",
    sql: include_str!("generated/store_v1.sql"),
}];

/// The statements that bring a database whose newest applied migration is `applied` (0 for a
/// database without the store's tables) to the newest, in one transaction: the migrations
/// table if it is missing, then each later migration and the row that records it. Empty when
/// nothing is left to apply.
pub fn ddl_after(applied: u32) -> String {
    let pending: Vec<&Migration> = MIGRATIONS.iter().filter(|m| m.version > applied).collect();
    if pending.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "BEGIN;\n\nCREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} (\n    version integer PRIMARY KEY,\n    name text NOT NULL,\n    applied_at timestamptz NOT NULL DEFAULT now()\n);\n"
    );
    for migration in pending {
        out.push_str(&format!("\n-- Migration {}: {}\n", migration.version, migration.name));
        out.push_str(migration.sql);
        out.push_str(&format!(
            "\nINSERT INTO {MIGRATIONS_TABLE} (version, name) VALUES ({}, '{}');\n",
            migration.version,
            migration.name.replace('\'', "''")
        ));
    }
    out.push_str("\nCOMMIT;\n");
    out
}

/// The statements that create the store's tables in a database that has none of them:
/// [`ddl_after`]`(0)`.
pub fn ddl() -> String {
    ddl_after(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_from_one_in_order() {
        for (at, migration) in MIGRATIONS.iter().enumerate() {
            assert_eq!(migration.version as usize, at + 1);
        }
    }

    #[test]
    fn the_ddl_records_each_migration_it_applies() {
        let ddl = ddl();
        assert!(ddl.starts_with("BEGIN;") && ddl.ends_with("COMMIT;\n"));
        for migration in MIGRATIONS {
            assert!(ddl.contains(migration.sql));
            assert!(ddl.contains(&format!("VALUES ({}, ", migration.version)));
        }
        assert_eq!(ddl_after(MIGRATIONS.len() as u32), "");
    }
}
