//! Media attachments: the `media_attachments` table, the ordered `media_ids` of statuses and of
//! their revisions, and the poll options of revisions, in the portable schema builder (SQLite and
//! PostgreSQL).

use sea_orm_migration::prelude::*;

use super::{add_column, drop_column, index};
use sea_orm_migration::schema::{
    big_integer, big_integer_null, boolean, double_null, text, text_null,
    timestamp_with_time_zone as ts,
};

/// Creates `media_attachments` with its indexes and adds the new `statuses` and `status_edits`
/// columns.
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
                .table("media_attachments")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                // NULL: unattached (waiting to be posted, or detached from a deleted status).
                .col(big_integer_null("status_id"))
                .col(big_integer_null("scheduled_status_id"))
                .col(text("kind"))
                .col(text("file_key"))
                .col(big_integer("file_size"))
                .col(text_null("preview_key"))
                .col(text_null("thumbnail_key"))
                .col(text_null("description"))
                .col(double_null("focus_x"))
                .col(double_null("focus_y"))
                // Mastodon's `meta` without `focus`, as JSON text.
                .col(text("meta"))
                .col(text_null("blurhash"))
                .col(boolean("processed"))
                .col(text_null("remote_url"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // An account's uploads, listed and deleted with it.
        m.create_index(index(
            "ix_media_attachments_account_id",
            "media_attachments",
            &["account_id"],
        ))
        .await?;
        // A status's media, detached when it is deleted.
        m.create_index(index(
            "ix_media_attachments_status_id",
            "media_attachments",
            &["status_id"],
        ))
        .await?;

        // Ordered attachment ids, comma-separated ('' for none). `statuses.has_media` stays, kept
        // equal to `media_ids <> ''` by the store, as timelines filter on it; existing statuses
        // had no attachment records, so '' is right for them.
        add_column(m, "statuses", text("media_ids").default("").take()).await?;
        add_column(m, "status_edits", text("media_ids").default("").take()).await?;
        // A revision's poll option titles as a JSON array; NULL: no poll.
        add_column(m, "status_edits", text_null("poll_options")).await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_column(m, "status_edits", "poll_options").await?;
        drop_column(m, "status_edits", "media_ids").await?;
        drop_column(m, "statuses", "media_ids").await?;
        m.drop_table(Table::drop().table("media_attachments").to_owned())
            .await?;
        Ok(())
    }
}
