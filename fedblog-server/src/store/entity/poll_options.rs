//! The `poll_options` table: a poll's options in order, each with its vote count.

use sea_orm::entity::prelude::*;

/// The option at `position` (0-based) of `poll_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "poll_options")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub poll_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i32,
    pub title: String,
    pub votes_count: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
