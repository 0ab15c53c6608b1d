//! The `tokens` table: access tokens, keyed by their hash (the token itself is never stored).

use sea_orm::entity::prelude::*;

/// One access token.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "tokens")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: String,
    pub id: i64,
    pub app_id: i64,
    pub account_id: Option<i64>,
    pub scopes: String,
    pub created_at: DateTimeUtc,
    pub revoked_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
