//! The `home_feed` table: materialised home feeds (fan-out on write), one row per (account, status).

use sea_orm::entity::prelude::*;

/// `status_id` (by `author_id`) is in the home feed of `account_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "home_feed")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub status_id: i64,
    pub author_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
