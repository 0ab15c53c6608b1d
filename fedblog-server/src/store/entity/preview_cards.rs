//! The `preview_cards` table: one preview card per URL.

use sea_orm::entity::prelude::*;

/// A preview card (`card_type`: `link`, `photo`, `video` or `rich`; `image_key`: the file key
/// of its stored image).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "preview_cards")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub url: String,
    pub title: String,
    pub description: String,
    pub card_type: String,
    pub author_name: String,
    pub author_url: String,
    pub provider_name: String,
    pub provider_url: String,
    pub html: String,
    pub width: i32,
    pub height: i32,
    pub image_key: Option<String>,
    pub image_description: String,
    pub blurhash: Option<String>,
    pub embed_url: String,
    pub language: Option<String>,
    pub published_at: Option<DateTimeUtc>,
    pub fetched_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
