//! Preview cards: `preview_cards` (one per URL: what was read of the page a status links to),
//! `status_preview_cards` (the card each status shows; it goes with its status and its card, by
//! foreign keys) and `preview_card_publishers` (the domains of the cards, which staff review
//! for trends), in the portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, integer, text, text_null, timestamp_with_time_zone as ts,
    timestamp_with_time_zone_null as ts_null,
};

use super::index;

/// Creates `preview_cards`, `status_preview_cards` and `preview_card_publishers`.
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
                .table("preview_cards")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                // Unique: one card per URL.
                .col(text("url").unique_key())
                .col(text("title"))
                .col(text("description"))
                // `link`, `photo`, `video` or `rich`.
                .col(text("card_type"))
                .col(text("author_name"))
                .col(text("author_url"))
                .col(text("provider_name"))
                .col(text("provider_url"))
                .col(text("html"))
                .col(integer("width"))
                .col(integer("height"))
                // The file key of the stored image.
                .col(text_null("image_key"))
                .col(text("image_description"))
                .col(text_null("blurhash"))
                .col(text("embed_url"))
                .col(text_null("language"))
                .col(ts_null("published_at"))
                .col(ts("fetched_at"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("status_preview_cards")
                .col(big_integer("status_id").primary_key())
                .col(big_integer("card_id"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_status_preview_cards_status")
                        .from("status_preview_cards", "status_id")
                        .to("statuses", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_status_preview_cards_card")
                        .from("status_preview_cards", "card_id")
                        .to("preview_cards", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        // The statuses sharing a card: its shares, for trends.
        m.create_index(index(
            "ix_status_preview_cards_card_status",
            "status_preview_cards",
            &["card_id", "status_id"],
        ))
        .await?;
        m.create_table(
            Table::create()
                .table("preview_card_publishers")
                .col(big_integer("id").primary_key())
                // Unique: one publisher per domain.
                .col(text("domain").unique_key())
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            "preview_card_publishers",
            "status_preview_cards",
            "preview_cards",
        ] {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
