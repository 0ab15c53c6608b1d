//! The full-text index of statuses (`store/search.rs`), one schema per engine, and the table
//! where `search reindex` keeps its position.
//!
//! SQLite: `status_search`, a contentless FTS5 table whose rowid is the status id (it keeps
//! the words' positions, not the text), and a trigger taking a deleted status out of it.
//! PostgreSQL: `status_search`, a `tsvector` per status under a GIN index, which a deleted
//! status takes with it (`ON DELETE CASCADE`). Both: `search_reindex`, one row.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

/// Creates the index tables (and on SQLite the trigger).
#[derive(DeriveMigrationName)]
pub struct Migration;

/// SQLite: the index, with diacritics folded (`é` is `e`), and the trigger deleting a status's
/// row with the status (a reblog has none). `contentless_delete` lets rows of a contentless
/// table be deleted and replaced.
const SQLITE_UP: [&str; 3] = [
    "CREATE VIRTUAL TABLE IF NOT EXISTS status_search USING fts5(text, content='', \
     contentless_delete=1, tokenize='unicode61 remove_diacritics 2')",
    "CREATE TRIGGER IF NOT EXISTS status_search_delete AFTER DELETE ON statuses \
     WHEN old.reblog_of_id IS NULL \
     BEGIN DELETE FROM status_search WHERE rowid = old.id; END",
    "CREATE TABLE IF NOT EXISTS search_reindex (id INTEGER PRIMARY KEY, position BIGINT NULL)",
];

const SQLITE_DOWN: [&str; 3] = [
    "DROP TRIGGER IF EXISTS status_search_delete",
    "DROP TABLE IF EXISTS status_search",
    "DROP TABLE IF EXISTS search_reindex",
];

/// PostgreSQL: the words of each status (see `store/search.rs` for what `tsv` holds).
const POSTGRES_UP: [&str; 3] = [
    "CREATE TABLE IF NOT EXISTS status_search (\
     status_id BIGINT PRIMARY KEY REFERENCES statuses (id) ON DELETE CASCADE, \
     tsv tsvector NOT NULL)",
    "CREATE INDEX IF NOT EXISTS ix_status_search_tsv ON status_search USING GIN (tsv)",
    "CREATE TABLE IF NOT EXISTS search_reindex (id INTEGER PRIMARY KEY, position BIGINT NULL)",
];

const POSTGRES_DOWN: [&str; 2] = [
    "DROP TABLE IF EXISTS status_search",
    "DROP TABLE IF EXISTS search_reindex",
];

/// Runs `statements` one by one.
async fn run(m: &SchemaManager<'_>, statements: &[&str]) -> Result<(), DbErr> {
    for sql in statements {
        m.get_connection().execute_unprepared(sql).await?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        match m.get_database_backend() {
            DbBackend::Postgres => run(m, &POSTGRES_UP).await,
            _ => run(m, &SQLITE_UP).await,
        }
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        match m.get_database_backend() {
            DbBackend::Postgres => run(m, &POSTGRES_DOWN).await,
            _ => run(m, &SQLITE_DOWN).await,
        }
    }
}
