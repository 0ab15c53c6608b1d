//! The `remote_actors` table: what is known of the ActivityPub actor behind a remote account.

use sea_orm::entity::prelude::*;

/// The actor of remote account `account_id`; `uri` and `key_id` are unique.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "remote_actors")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    pub uri: String,
    pub actor_type: String,
    pub inbox: String,
    pub shared_inbox: Option<String>,
    pub outbox: Option<String>,
    pub followers: Option<String>,
    pub following: Option<String>,
    pub featured: Option<String>,
    pub featured_tags: Option<String>,
    pub key_id: String,
    pub public_key_pem: String,
    pub fetched_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
