//! Rate-limit counters: the `rate_limit_counters` table, one row per limit, subject and window,
//! shared by every process of a deployment (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{big_integer, text, timestamp_with_time_zone as ts};

/// Creates the table and its expiry index.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("rate_limit_counters")
                .col(text("counter_key").primary_key())
                .col(big_integer("count"))
                .col(ts("expires_at"))
                .to_owned(),
        )
        .await?;
        // Expired counters are swept by their end.
        m.create_index(index(
            "ix_rate_limit_counters_expires_at",
            "rate_limit_counters",
            &["expires_at"],
        ))
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("rate_limit_counters").to_owned())
            .await
    }
}
