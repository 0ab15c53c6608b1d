//! The `featured_tags` table: hashtags an account features on its profile, one row per (account, tag).

use sea_orm::entity::prelude::*;

/// `account_id` features the tag `tag_id` (whose normalised name is `name`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "featured_tags")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub tag_id: i64,
    pub name: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
