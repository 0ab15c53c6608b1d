//! The `status_tags` table: the normalised hashtags of a status, in order.

use sea_orm::entity::prelude::*;

/// The tag at `position` in a status's tag list.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "status_tags")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub status_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i32,
    pub name: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
