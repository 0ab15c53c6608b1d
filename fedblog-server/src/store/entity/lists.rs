//! The `lists` table: an account's named sets of followed accounts.

use sea_orm::entity::prelude::*;

/// The list `id` of `account_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "lists")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub title: String,
    /// `followed`, `list` or `none`.
    pub replies_policy: String,
    pub exclusive: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
