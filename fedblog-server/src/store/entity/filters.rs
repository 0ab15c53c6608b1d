//! The `filters` table: an account's filters (their keywords and statuses have tables of their own).

use sea_orm::entity::prelude::*;

/// The filter `id` of `account_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "filters")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub title: String,
    /// The contexts, comma-separated.
    pub context: String,
    /// `warn`, `hide` or `blur`.
    pub action: String,
    pub expires_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
