//! The `notification_policies` table: each account's notification policy, once saved.

use sea_orm::entity::prelude::*;

/// The policy of `account_id`: `accept`, `filter` or `drop` per condition.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notification_policies")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    pub for_not_following: String,
    pub for_not_followers: String,
    pub for_new_accounts: String,
    pub for_private_mentions: String,
    pub for_limited_accounts: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
