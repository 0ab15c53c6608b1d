//! What staff decide about hashtags (`PUT /api/v1/admin/tags/:id`): `tags.trendable`, `usable`
//! and `listable` (`NULL`: not decided, Mastodon's defaults apply) and `reviewed_at`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{boolean_null, timestamp_with_time_zone_null as ts_null};

/// Adds the review columns to `tags`.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The columns added, in order.
const COLUMNS: [&str; 4] = ["trendable", "usable", "listable", "reviewed_at"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite adds one at a time.
        for column in COLUMNS {
            let def = if column == "reviewed_at" {
                ts_null(column)
            } else {
                boolean_null(column)
            };
            m.alter_table(Table::alter().table("tags").add_column(def).to_owned())
                .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for column in COLUMNS.into_iter().rev() {
            m.alter_table(Table::alter().table("tags").drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}
