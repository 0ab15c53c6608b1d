//! The `follow_uris` table: the ActivityPub ids of follows (and requests) across servers.

use sea_orm::entity::prelude::*;

/// The `Follow` of `follower` to `target` has the ActivityPub id `uri`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "follow_uris")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub follower: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub target: i64,
    pub uri: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
