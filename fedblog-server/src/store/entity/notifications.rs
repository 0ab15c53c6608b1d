//! The `notifications` table: what others did that concerns an account.

use sea_orm::entity::prelude::*;

/// `from_account_id` did `kind` (about `status_id`), concerning `account_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notifications")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub from_account_id: i64,
    /// Mastodon's type name.
    pub kind: String,
    pub status_id: Option<i64>,
    /// The report or moderation warning concerned (`admin.report`, `moderation_warning`).
    pub subject_id: Option<i64>,
    pub group_key: String,
    pub filtered: bool,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
