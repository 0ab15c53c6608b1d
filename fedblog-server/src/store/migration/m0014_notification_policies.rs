//! Notification policies: the `notification_policies`, `notification_permissions` and
//! `notification_requests` tables, in the portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, text, timestamp_with_time_zone as ts,
};

/// Creates the three tables with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables in the order `down` drops them.
const TABLES: [&str; 3] = [
    "notification_requests",
    "notification_permissions",
    "notification_policies",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("notification_policies")
                .col(big_integer("account_id").primary_key())
                // Each `accept`, `filter` or `drop`.
                .col(text("for_not_following"))
                .col(text("for_not_followers"))
                .col(text("for_new_accounts"))
                .col(text("for_private_mentions"))
                .col(text("for_limited_accounts"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("notification_permissions")
                .col(big_integer("account_id"))
                .col(big_integer("from_account_id"))
                .primary_key(Index::create().col("account_id").col("from_account_id"))
                .to_owned(),
        )
        .await?;
        // The permissions given to an account, removed with it.
        m.create_index(index(
            "ix_notification_permissions_from",
            "notification_permissions",
            &["from_account_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("notification_requests")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("from_account_id"))
                .col(big_integer_null("last_status_id"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .to_owned(),
        )
        .await?;
        // One request per account and sender, even when two notes race; an account's pages.
        m.create_index(
            index(
                "ux_notification_requests_account_from",
                "notification_requests",
                &["account_id", "from_account_id"],
            )
            .unique()
            .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_notification_requests_account_id",
            "notification_requests",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_notification_requests_from",
            "notification_requests",
            &["from_account_id"],
        ))
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
