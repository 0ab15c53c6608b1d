//! Quote posts (Mastodon 4.5): `quotes`, one row per status that quotes another (with the state
//! of its approval and the ActivityPub ids of its request and authorization), and
//! `status_quote_policies`, the quote approval policy of each status. Both go with the quoting
//! (or policed) status; a quote outlives the status it quotes, to show it as deleted.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, text, text_null, timestamp_with_time_zone as ts,
};

/// Creates `quotes` and `status_quote_policies`.
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
                .table("quotes")
                .col(big_integer("id").primary_key())
                // The quoting status: one quote each.
                .col(big_integer("status_id").unique_key())
                .col(big_integer("account_id"))
                .col(big_integer_null("quoted_status_id"))
                .col(big_integer_null("quoted_account_id"))
                // `pending`, `accepted`, `rejected`, `revoked` or `deleted`.
                .col(text("state"))
                .col(text_null("activity_uri"))
                .col(text_null("approval_uri"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_quotes_status")
                        .from("quotes", "status_id")
                        .to("statuses", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        // The quotes of a status, listed and counted by state.
        m.create_index(
            Index::create()
                .name("ix_quotes_quoted_status")
                .table("quotes")
                .col("quoted_status_id")
                .col("state")
                .col("id")
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("status_quote_policies")
                .col(big_integer("status_id").primary_key())
                // Mastodon's bitmap: automatic audiences << 16 | manual audiences.
                .col(big_integer("policy"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_status_quote_policies_status")
                        .from("status_quote_policies", "status_id")
                        .to("statuses", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("status_quote_policies").to_owned())
            .await?;
        m.drop_table(Table::drop().table("quotes").to_owned()).await
    }
}
