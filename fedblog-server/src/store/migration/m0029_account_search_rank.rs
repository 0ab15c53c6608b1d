//! An index of the accounts in the order account search ranks them (`search_accounts` in
//! `store/directory.rs`): by followers, most first, then by id.
//!
//! A common piece of a name (three letters) matches thousands of accounts; ranking all of them
//! to show the first 40 reads thousands of index entries by id. Walking the accounts in rank
//! order instead, checking each, stops after the first page's worth of matches: a few hundred
//! to a few thousand entries read in order, no sort. The search tries that walk first, over a
//! bounded number of accounts, and ranks the matches found by the trigram and username indexes
//! of m0026 (`ix_accounts_search`) when the walk finds too few (a rare piece of a name).
//!
//! SQLite: `ix_accounts_search_rank` on `(followers_count DESC, id)`, carrying the columns the
//! walk checks (`suspended_at`, `username_lower`, `display_name`), so that the walk reads this
//! index only, never the (wide) table rows. It is a plain index: `accounts` is not rebuilt, and
//! the triggers of m0026 stay as they are. A later migration that rebuilds `accounts` must
//! create this index again, with the triggers of m0026.
//!
//! PostgreSQL: `ix_accounts_search_rank` on `(followers_count DESC, id)` only: the walk reads the
//! rows it checks from the table (a B-tree entry is limited to about 2.7 kB, which a long remote
//! display name carried in the index could pass, failing its insert). The `pg_trgm` index of
//! m0026 is unchanged.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DbBackend};

/// Creates the rank index.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The index on SQLite: rank order, then the columns the walk checks.
const SQLITE_UP: &str = "CREATE INDEX IF NOT EXISTS ix_accounts_search_rank ON accounts \
     (followers_count DESC, id, suspended_at, username_lower, display_name)";

/// The index on PostgreSQL: rank order only.
const POSTGRES_UP: &str =
    "CREATE INDEX IF NOT EXISTS ix_accounts_search_rank ON accounts (followers_count DESC, id)";

/// Drops the index (both engines).
const DOWN: &str = "DROP INDEX IF EXISTS ix_accounts_search_rank";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// One statement; in a transaction on both engines all the same.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        match m.get_database_backend() {
            DbBackend::Sqlite => {
                db.execute_unprepared(SQLITE_UP).await?;
            }
            DbBackend::Postgres => {
                db.execute_unprepared(POSTGRES_UP).await?;
            }
            _ => {}
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        match m.get_database_backend() {
            DbBackend::Sqlite | DbBackend::Postgres => {
                db.execute_unprepared(DOWN).await?;
            }
            _ => {}
        }
        Ok(())
    }
}
