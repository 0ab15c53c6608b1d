//! The `mail_tokens` table: links mailed to a login and not used yet, by the hash of their token.

use sea_orm::entity::prelude::*;

/// One pending link of a login (`purpose`: `password_reset` or `email_change`).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mail_tokens")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub purpose: String,
    pub token_hash: String,
    pub email: Option<String>,
    pub sent_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
