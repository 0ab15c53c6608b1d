//! The `follow_requests` table: pending requests to follow a locked account, one row per
//! (follower, target) pair.

use sea_orm::entity::prelude::*;

/// One pending follow request.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "follow_requests")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub follower_id: i64,
    pub target_id: i64,
    pub created_at: DateTimeUtc,
    pub show_reblogs: bool,
    pub notify: bool,
    /// Languages as a JSON array of ISO 639-1 codes (`None`: all).
    pub languages: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
