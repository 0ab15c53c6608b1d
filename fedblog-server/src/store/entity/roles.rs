//! The `roles` table: the custom user roles (the built-in ones are not kept).

use sea_orm::entity::prelude::*;

/// One custom role; listed by `position`, then id. Its holders' `users.role` is its id in
/// decimal.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "roles")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub name: String,
    pub color: String,
    /// The permission flags (all fit in 20 bits).
    pub permissions: i64,
    pub position: i32,
    pub highlighted: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
