//! The `custom_emojis` table: custom emojis by `(shortcode, domain)`, this server's and those
//! remote servers' statuses use.

use sea_orm::entity::prelude::*;

/// One custom emoji; `(shortcode, domain)` is unique.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "custom_emojis")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub shortcode: String,
    /// Lower-cased; `''` for this server's own.
    pub domain: String,
    pub uri: Option<String>,
    pub image_url: String,
    pub static_url: String,
    pub visible_in_picker: bool,
    pub category: Option<String>,
    pub disabled: bool,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
