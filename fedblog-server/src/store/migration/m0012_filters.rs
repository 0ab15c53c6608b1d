//! Filters: the `filters`, `filter_keywords` and `filter_statuses` tables, in the portable schema
//! builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{
    big_integer, boolean, text, timestamp_with_time_zone as ts, timestamp_with_time_zone_null,
};

/// Creates `filters`, `filter_keywords` and `filter_statuses` with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables in the order `down` drops them.
const TABLES: [&str; 3] = ["filter_statuses", "filter_keywords", "filters"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("filters")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(text("title"))
                // The contexts, comma-separated (`home,public`).
                .col(text("context"))
                .col(text("action"))
                .col(timestamp_with_time_zone_null("expires_at"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // An owner's filters, read on every timeline page it reads.
        m.create_index(index("ix_filters_account_id", "filters", &["account_id"]))
            .await?;

        m.create_table(
            Table::create()
                .table("filter_keywords")
                .col(big_integer("id").primary_key())
                .col(big_integer("filter_id"))
                .col(text("keyword"))
                .col(boolean("whole_word"))
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_filter_keywords_filter_id",
            "filter_keywords",
            &["filter_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("filter_statuses")
                .col(big_integer("id").primary_key())
                .col(big_integer("filter_id"))
                .col(big_integer("status_id"))
                .to_owned(),
        )
        .await?;
        // A status is in a filter once.
        m.create_index(
            index(
                "ux_filter_statuses_filter_status",
                "filter_statuses",
                &["filter_id", "status_id"],
            )
            .unique()
            .to_owned(),
        )
        .await?;
        // The filter statuses naming a status, removed with it.
        m.create_index(index(
            "ix_filter_statuses_status_id",
            "filter_statuses",
            &["status_id"],
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
