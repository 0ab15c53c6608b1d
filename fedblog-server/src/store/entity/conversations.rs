//! The `conversations` table: each account's direct-message threads (their statuses are in
//! `conversation_statuses`).

use sea_orm::entity::prelude::*;

/// Account `account_id`'s conversation in thread `thread_id` with `participants`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "conversations")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub thread_id: i64,
    /// The other participants' ids, ascending, comma-separated.
    pub participants: String,
    pub last_status_id: Option<i64>,
    pub unread: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
