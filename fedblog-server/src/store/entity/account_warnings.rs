//! The `account_warnings` table: moderation decisions about accounts, shown to them.

use sea_orm::entity::prelude::*;

/// One moderation warning.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "account_warnings")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    /// The moderator (`None`: the server itself).
    pub account_id: Option<i64>,
    pub target_account_id: i64,
    /// `none`, `disable`, `silence`, ... (`WarningAction::as_str`).
    pub action: String,
    pub text: String,
    pub report_id: Option<i64>,
    /// The statuses concerned as a JSON array of ids.
    pub status_ids: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
