//! The `statuses` table: posts and reblogs, local and remote, with their counters (mentions and
//! tags live in their own tables).

use sea_orm::entity::prelude::*;

/// One status.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "statuses")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    pub uri: Option<String>,
    pub text: String,
    pub content: String,
    pub spoiler_text: String,
    pub visibility: String,
    pub sensitive: bool,
    pub language: Option<String>,
    pub in_reply_to_id: Option<i64>,
    pub in_reply_to_account_id: Option<i64>,
    pub application_id: Option<i64>,
    /// Kept equal to `media_ids <> ''` (timelines filter on it).
    pub has_media: bool,
    pub idempotency_key: Option<String>,
    pub local: bool,
    pub created_at: DateTimeUtc,
    pub edited_at: Option<DateTimeUtc>,
    pub reblog_of_id: Option<i64>,
    pub conversation_id: Option<i64>,
    pub replies_count: i64,
    pub reblogs_count: i64,
    pub favourites_count: i64,
    /// The ordered attachment ids, comma-separated (`''` for none).
    pub media_ids: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    /// The author (used for joins only; the schema has no foreign key here, like the memory store).
    #[sea_orm(
        belongs_to = "super::accounts::Entity",
        from = "Column::AccountId",
        to = "super::accounts::Column::Id"
    )]
    Account,
}

impl Related<super::accounts::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Account.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
