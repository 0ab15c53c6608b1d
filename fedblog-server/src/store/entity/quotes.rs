//! The `quotes` table: statuses quoting others, with the state of their approval.

use sea_orm::entity::prelude::*;

/// One status quoting another (`state`: `pending`, `accepted`, `rejected`, `revoked`,
/// `deleted`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "quotes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub status_id: i64,
    pub account_id: i64,
    pub quoted_status_id: Option<i64>,
    pub quoted_account_id: Option<i64>,
    pub state: String,
    pub activity_uri: Option<String>,
    pub approval_uri: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
