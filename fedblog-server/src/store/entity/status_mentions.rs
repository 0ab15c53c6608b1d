//! The `status_mentions` table: the mentioned accounts of a status, in order.

use sea_orm::entity::prelude::*;

/// The mention at `position` in a status's mention list.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "status_mentions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub status_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i32,
    pub account_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
