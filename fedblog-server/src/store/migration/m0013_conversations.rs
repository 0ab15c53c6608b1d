//! Conversations and links: the `conversations` and `conversation_statuses` tables (each
//! account's direct-message threads) and `status_links` (the preview-card link of each status,
//! for the link timeline), in the portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{big_integer, big_integer_null, boolean, text};

/// Creates `conversations`, `conversation_statuses` and `status_links` with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables in the order `down` drops them.
const TABLES: [&str; 3] = ["status_links", "conversation_statuses", "conversations"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("conversations")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("thread_id"))
                // The other participants' ids, ascending, comma-separated ('' for none).
                .col(text("participants"))
                // The newest status (NULL only between a status's removal and the row's).
                .col(big_integer_null("last_status_id"))
                .col(boolean("unread"))
                .to_owned(),
        )
        .await?;
        // One conversation per account, thread and participants, even when two adds race.
        m.create_index(
            index(
                "ux_conversations_account_thread_participants",
                "conversations",
                &["account_id", "thread_id", "participants"],
            )
            .unique()
            .to_owned(),
        )
        .await?;
        // An account's conversations by their last status: its pages.
        m.create_index(index(
            "ix_conversations_account_last_status",
            "conversations",
            &["account_id", "last_status_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("conversation_statuses")
                .col(big_integer("conversation_id"))
                .col(big_integer("status_id"))
                .primary_key(Index::create().col("conversation_id").col("status_id"))
                .to_owned(),
        )
        .await?;
        // The conversations of a status, which leaves them with it.
        m.create_index(index(
            "ix_conversation_statuses_status_id",
            "conversation_statuses",
            &["status_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("status_links")
                .col(big_integer("status_id").primary_key())
                .col(text("url"))
                .to_owned(),
        )
        .await?;
        // The statuses carrying a link: the link timeline.
        m.create_index(index(
            "ix_status_links_url_status",
            "status_links",
            &["url", "status_id"],
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
