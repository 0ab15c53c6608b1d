//! Quote federation: the ActivityPub ids a quote is found by when another server answers
//! about it, its `QuoteRequest` (`quotes.activity_uri`, named by an `Accept` or `Reject`) and
//! its `QuoteAuthorization` (`quotes.approval_uri`, named by the `Delete` that revokes it).

use sea_orm_migration::prelude::*;

/// Indexes `quotes.activity_uri` and `quotes.approval_uri`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_index(
            Index::create()
                .name("ix_quotes_activity_uri")
                .table("quotes")
                .col("activity_uri")
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_quotes_approval_uri")
                .table("quotes")
                .col("approval_uri")
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("ix_quotes_approval_uri")
                .table("quotes")
                .to_owned(),
        )
        .await?;
        m.drop_index(
            Index::drop()
                .name("ix_quotes_activity_uri")
                .table("quotes")
                .to_owned(),
        )
        .await
    }
}
