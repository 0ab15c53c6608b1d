//! The `reports` table: reports about accounts, filed here or received from other servers.

use sea_orm::entity::prelude::*;

/// One report.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "reports")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub target_account_id: i64,
    /// The reported statuses as a JSON array of ids, in the order given.
    pub status_ids: String,
    /// The rules broken as a JSON array of ids.
    pub rule_ids: String,
    pub comment: String,
    /// `spam`, `legal`, `violation` or `other`.
    pub category: String,
    pub forwarded: bool,
    pub uri: Option<String>,
    pub assigned_account_id: Option<i64>,
    /// `None`: open.
    pub action_taken_at: Option<DateTimeUtc>,
    pub action_taken_by_account_id: Option<i64>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
