//! Trend reviews: the `trend_reviews` table (`ModerationStore::set_trend_review` and
//! `trend_reviews`), what staff decided about statuses, links and publishers as candidates for
//! trends, one row per kind and target, in the portable schema builder (SQLite and PostgreSQL).
//! Hashtags keep theirs on `tags` (m0033).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer, boolean, text, timestamp_with_time_zone as ts};

/// Adds the `trend_reviews` table.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // The latest decision per (kind, target): the primary key is the upsert's conflict
        // target and serves the reads of a page's reviews.
        let mut key = Index::create();
        key.col("kind").col("target_id");
        m.create_table(
            Table::create()
                .table("trend_reviews")
                // `status`, `link` or `publisher`.
                .col(text("kind"))
                .col(big_integer("target_id"))
                .col(boolean("trendable"))
                .col(ts("reviewed_at"))
                .primary_key(&mut key)
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("trend_reviews").to_owned())
            .await
    }
}
