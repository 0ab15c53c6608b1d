//! The `push_subscriptions` table: Web Push subscriptions, one per access token.

use sea_orm::entity::prelude::*;

/// One subscription.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "push_subscriptions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_id: i64,
    pub id: i64,
    pub account_id: i64,
    pub endpoint: String,
    pub key_p256dh: String,
    pub key_auth: String,
    pub standard: bool,
    pub alerts: String,
    pub policy: String,
    pub sealed_token: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
