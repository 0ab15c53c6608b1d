//! The `list_feed` table: materialised list feeds (fan-out on write), one row per (list, status).

use sea_orm::entity::prelude::*;

/// `status_id` (by `author_id`) is in the feed of the list `list_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "list_feed")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub list_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub status_id: i64,
    pub author_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
