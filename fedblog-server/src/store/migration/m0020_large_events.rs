//! Where the PostgreSQL event bus keeps an event too large for a `NOTIFY` payload, which it
//! then sends by reference (its row id) instead (see `store/pg_events.rs`). SQLite, whose one
//! process has an in-memory bus, has none.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

/// Creates the table on PostgreSQL.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DbBackend::Postgres {
            m.get_connection()
                .execute_unprepared(
                    "CREATE TABLE fedblog_large_events (\
                     id bigserial PRIMARY KEY, \
                     event text NOT NULL, \
                     created_at timestamptz NOT NULL DEFAULT now())",
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DbBackend::Postgres {
            m.get_connection()
                .execute_unprepared("DROP TABLE IF EXISTS fedblog_large_events")
                .await?;
        }
        Ok(())
    }
}
