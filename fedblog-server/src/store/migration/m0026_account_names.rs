//! Indexes for account search (`search_accounts` in `store/directory.rs`): a prefix of the
//! lower-cased username, or a part of the display name.
//!
//! SQLite: `accounts_fts`, an FTS5 table with the `trigram` tokenizer (case-insensitive) over
//! `accounts(display_name)` as external content (it stores only the index; the text stays in
//! `accounts`), kept up to date by triggers and filled from the existing rows. It finds the
//! display names containing a text of three characters or more (the text as a phrase of
//! trigrams, case folded; the search checks the exact `LIKE` on what it finds). The username
//! prefix is a
//! range on `username_lower`, which `ux_accounts_username` (BINARY collation: byte order) serves.
//! `ix_accounts_search` covers the columns the search filters and orders by, so that the
//! matching accounts are ranked without reading their (wide) rows.
//!
//! A later migration that rebuilds `accounts` on SQLite (new table, copy, rename) drops these
//! triggers with the old table: it must create them again.
//!
//! PostgreSQL: the `pg_trgm` extension and a GIN trigram index on `lower(display_name)` (serving
//! `lower(display_name) LIKE '%text%'`), and a btree on `(username_lower COLLATE "C")` for the
//! prefix range in byte order. Creating the extension needs the CREATE privilege on the
//! database (`pg_trgm` is a trusted extension); without it the migration logs a warning and
//! goes on without the trigram index: search still works, reading every account.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend, Statement};

/// Creates the search indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The SQLite statements of `up`, in order.
const SQLITE_UP: [&str; 6] = [
    "CREATE VIRTUAL TABLE IF NOT EXISTS accounts_fts USING fts5(display_name, \
     content='accounts', content_rowid='id', tokenize='trigram case_sensitive 0')",
    // The standard external-content triggers: the index is told the old text to remove it.
    "CREATE TRIGGER IF NOT EXISTS accounts_fts_insert AFTER INSERT ON accounts BEGIN \
     INSERT INTO accounts_fts(rowid, display_name) VALUES (new.id, new.display_name); END",
    "CREATE TRIGGER IF NOT EXISTS accounts_fts_delete AFTER DELETE ON accounts BEGIN \
     INSERT INTO accounts_fts(accounts_fts, rowid, display_name) \
     VALUES ('delete', old.id, old.display_name); END",
    "CREATE TRIGGER IF NOT EXISTS accounts_fts_update AFTER UPDATE OF id, display_name \
     ON accounts BEGIN \
     INSERT INTO accounts_fts(accounts_fts, rowid, display_name) \
     VALUES ('delete', old.id, old.display_name); \
     INSERT INTO accounts_fts(rowid, display_name) VALUES (new.id, new.display_name); END",
    // Indexes the accounts already there.
    "INSERT INTO accounts_fts(accounts_fts) VALUES ('rebuild')",
    // The columns the search filters and orders by (but the domain's: a search on a domain
    // goes by `ix_accounts_domain_key`), led by the id: the matching ids are ranked from this
    // index (the search names it `INDEXED BY`) instead of the wide table rows.
    "CREATE INDEX IF NOT EXISTS ix_accounts_search ON accounts \
     (id, suspended_at, followers_count, username_lower, display_name)",
];

/// The SQLite statements of `down`, in order.
const SQLITE_DOWN: [&str; 5] = [
    "DROP INDEX IF EXISTS ix_accounts_search",
    "DROP TRIGGER IF EXISTS accounts_fts_update",
    "DROP TRIGGER IF EXISTS accounts_fts_delete",
    "DROP TRIGGER IF EXISTS accounts_fts_insert",
    "DROP TABLE IF EXISTS accounts_fts",
];

/// The savepoint around `CREATE EXTENSION`, so that its failure leaves the migration's
/// transaction usable.
const TRGM_SAVEPOINT: &str = "fedblog_m0026_pg_trgm";

/// `name` as a PostgreSQL quoted identifier.
fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Creates `pg_trgm` if it can (inside a savepoint: the migration runs in a transaction, which
/// a failed statement would otherwise abort), then returns the schema it is installed in, or
/// `None` (logged) when it is not installed.
async fn pg_trgm_schema(db: &impl ConnectionTrait) -> Result<Option<String>, DbErr> {
    db.execute_unprepared(&format!("SAVEPOINT {TRGM_SAVEPOINT}"))
        .await?;
    match db
        .execute_unprepared("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        .await
    {
        Ok(_) => {
            db.execute_unprepared(&format!("RELEASE SAVEPOINT {TRGM_SAVEPOINT}"))
                .await?;
        }
        Err(e) => {
            db.execute_unprepared(&format!("ROLLBACK TO SAVEPOINT {TRGM_SAVEPOINT}"))
                .await?;
            db.execute_unprepared(&format!("RELEASE SAVEPOINT {TRGM_SAVEPOINT}"))
                .await?;
            tracing::warn!(
                error = %e,
                "could not create the PostgreSQL extension pg_trgm: account search by display \
                 name goes without an index (it reads every account). To add it later, as a \
                 user allowed to: `CREATE EXTENSION pg_trgm; CREATE INDEX \
                 ix_accounts_display_name_trgm ON accounts USING gin (lower(display_name) \
                 gin_trgm_ops)`"
            );
        }
    }
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT n.nspname::text AS schema FROM pg_extension e \
             JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
        ))
        .await?;
    row.map(|r| r.try_get::<String>("", "schema")).transpose()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines; on PostgreSQL the extension is tried in a savepoint.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        match m.get_database_backend() {
            DbBackend::Sqlite => {
                for sql in SQLITE_UP {
                    db.execute_unprepared(sql).await?;
                }
            }
            DbBackend::Postgres => {
                db.execute_unprepared(
                    r#"CREATE INDEX IF NOT EXISTS ix_accounts_username_lower_c ON accounts ((username_lower COLLATE "C"))"#,
                )
                .await?;
                // The operator class is named in the extension's schema, which need not be on
                // the search path.
                if let Some(schema) = pg_trgm_schema(db).await? {
                    db.execute_unprepared(&format!(
                        "CREATE INDEX IF NOT EXISTS ix_accounts_display_name_trgm ON accounts \
                         USING gin (lower(display_name) {}.gin_trgm_ops)",
                        quote_ident(&schema)
                    ))
                    .await?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Drops the indexes; the extension stays (other indexes may use it).
    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        match m.get_database_backend() {
            DbBackend::Sqlite => {
                for sql in SQLITE_DOWN {
                    db.execute_unprepared(sql).await?;
                }
            }
            DbBackend::Postgres => {
                db.execute_unprepared("DROP INDEX IF EXISTS ix_accounts_display_name_trgm")
                    .await?;
                db.execute_unprepared("DROP INDEX IF EXISTS ix_accounts_username_lower_c")
                    .await?;
            }
            _ => {}
        }
        Ok(())
    }
}
