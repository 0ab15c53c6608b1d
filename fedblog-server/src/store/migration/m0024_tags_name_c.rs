//! An index on `tags.name` in the C collation on PostgreSQL, so that a search for hashtags by
//! the start of their name (a range in byte order, `COLLATE "C"`, see `store/tags.rs`) reads an
//! index rather than the whole table. SQLite's column is compared in byte order already and its
//! unique index serves.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

/// Creates the index on PostgreSQL.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DbBackend::Postgres {
            m.get_connection()
                .execute_unprepared(
                    r#"CREATE INDEX IF NOT EXISTS ix_tags_name_c ON tags ((name COLLATE "C"))"#,
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        if m.get_database_backend() == DbBackend::Postgres {
            m.get_connection()
                .execute_unprepared("DROP INDEX IF EXISTS ix_tags_name_c")
                .await?;
        }
        Ok(())
    }
}
