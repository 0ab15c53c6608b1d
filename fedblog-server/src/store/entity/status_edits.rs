//! The `status_edits` table: the revisions of edited statuses, the original first.

use sea_orm::entity::prelude::*;

/// One revision of `status_id`; ids order the revisions.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "status_edits")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub status_id: i64,
    pub account_id: i64,
    pub text: String,
    pub content: String,
    pub spoiler_text: String,
    pub sensitive: bool,
    pub created_at: DateTimeUtc,
    /// The revision's ordered attachment ids, comma-separated (`''` for none).
    pub media_ids: String,
    /// The revision's poll option titles as a JSON array; `None`: no poll.
    pub poll_options: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
