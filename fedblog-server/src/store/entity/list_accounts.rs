//! The `list_accounts` table: the members of lists.

use sea_orm::entity::prelude::*;

/// `account_id` is in the list `list_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "list_accounts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub list_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
