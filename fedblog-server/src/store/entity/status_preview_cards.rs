//! The `status_preview_cards` table: the preview card each status shows.

use sea_orm::entity::prelude::*;

/// Status `status_id` shows card `card_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "status_preview_cards")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub status_id: i64,
    pub card_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
