//! Status edits: the `status_edits` table keeping each status's revisions, in the portable
//! schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{big_integer, boolean, text, timestamp_with_time_zone as ts};

/// Creates `status_edits` and its index.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("status_edits")
                // Ids are app-generated, never auto-incremented; they order the revisions.
                .col(big_integer("id").primary_key())
                .col(big_integer("status_id"))
                .col(big_integer("account_id"))
                .col(text("text"))
                .col(text("content"))
                .col(text("spoiler_text"))
                .col(boolean("sensitive"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // A status's history oldest first, and the rows deleted with it. (No foreign key, as
        // the other status tables since m0006: the store deletes them explicitly.)
        m.create_index(index(
            "ix_status_edits_status_id_id",
            "status_edits",
            &["status_id", "id"],
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("status_edits").to_owned())
            .await?;
        Ok(())
    }
}
