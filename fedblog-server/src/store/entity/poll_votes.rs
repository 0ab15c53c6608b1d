//! The `poll_votes` table: one row per (poll, voter), holding the chosen option indexes.

use sea_orm::entity::prelude::*;

/// `account_id` voted in `poll_id` for `choices`, a JSON array of option indexes, ascending.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "poll_votes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub poll_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    pub choices: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
