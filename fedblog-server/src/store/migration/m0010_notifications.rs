//! Notifications and timeline markers: the `notifications` and `markers` tables, in the portable
//! schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, boolean, text, timestamp_with_time_zone as ts,
};

/// Creates `notifications` and `markers` with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables in the order `down` drops them.
const TABLES: [&str; 2] = ["markers", "notifications"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("notifications")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("from_account_id"))
                .col(text("kind"))
                .col(big_integer_null("status_id"))
                .col(text("group_key"))
                .col(boolean("filtered"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // An account's notifications, read newest first by cursor.
        m.create_index(index(
            "ix_notifications_account_id_id",
            "notifications",
            &["account_id", "id"],
        ))
        .await?;
        // Those about a status, deleted with it.
        m.create_index(index(
            "ix_notifications_status_id",
            "notifications",
            &["status_id"],
        ))
        .await?;
        // Those from an account, retracted after a block and deleted with it.
        m.create_index(index(
            "ix_notifications_from_account_id",
            "notifications",
            &["from_account_id"],
        ))
        .await?;

        let mut pk = Index::create();
        pk.col("account_id").col("timeline");
        m.create_table(
            Table::create()
                .table("markers")
                .col(big_integer("account_id"))
                .col(text("timeline"))
                .col(big_integer("last_read_id"))
                .col(big_integer("version"))
                .col(ts("updated_at"))
                .primary_key(&mut pk)
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in TABLES {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
