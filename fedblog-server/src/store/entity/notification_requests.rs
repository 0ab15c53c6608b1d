//! The `notification_requests` table: per account and sender, the filtered notifications waiting
//! to be accepted or dismissed (their count is read from `notifications`).

use sea_orm::entity::prelude::*;

/// The request `id` of `account_id` for the filtered notifications of `from_account_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notification_requests")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub from_account_id: i64,
    pub last_status_id: Option<i64>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
