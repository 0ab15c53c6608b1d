//! Custom emojis: the `custom_emojis` table, one row per `(shortcode, domain)`, this server's
//! own under the domain `''` (a unique index treats `''` as a value on both engines, which it
//! does not NULL), in the portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, boolean, text, text_null, timestamp_with_time_zone as ts,
};

use super::index;

/// Creates `custom_emojis` and its unique index on `(shortcode, domain)`.
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
                .table("custom_emojis")
                .col(big_integer("id").primary_key())
                .col(text("shortcode"))
                // Lower-cased; `''` for this server's own.
                .col(text("domain").default(""))
                .col(text_null("uri"))
                .col(text("image_url"))
                .col(text("static_url"))
                .col(boolean("visible_in_picker"))
                .col(text_null("category"))
                .col(boolean("disabled"))
                .col(ts("updated_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(
            index(
                "ux_custom_emojis_shortcode_domain",
                "custom_emojis",
                &["shortcode", "domain"],
            )
            .unique()
            .to_owned(),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("custom_emojis").to_owned())
            .await
    }
}
