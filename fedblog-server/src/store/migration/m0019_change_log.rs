//! The change log of processes sharing a PostgreSQL database: a sequence that every process
//! moves after it writes records others may hold in their caches, and reads to learn whether
//! another one did (see `store/changes.rs`). SQLite, which one server process owns, has none.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

/// Creates the sequence on PostgreSQL.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DbBackend::Postgres {
            // One number at a time (no per-session cache), so `last_value` is every process's newest.
            m.get_connection()
                .execute_unprepared("CREATE SEQUENCE fedblog_changes AS bigint CACHE 1")
                .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DbBackend::Postgres {
            m.get_connection()
                .execute_unprepared("DROP SEQUENCE IF EXISTS fedblog_changes")
                .await?;
        }
        Ok(())
    }
}
