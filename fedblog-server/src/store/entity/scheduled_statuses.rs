//! The `scheduled_statuses` table: statuses waiting for their publication time.

use sea_orm::entity::prelude::*;

/// One scheduled status.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "scheduled_statuses")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub scheduled_at: DateTimeUtc,
    /// The status parameters as JSON text.
    pub params: String,
    pub application_id: Option<i64>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
