//! The `users` table: the logins of local accounts (one per account).

use sea_orm::entity::prelude::*;

/// One login. `email_lower` carries the case-insensitive uniqueness of `email`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    pub email: String,
    pub email_lower: String,
    pub password_hash: String,
    pub role: String,
    pub confirmed_at: Option<DateTimeUtc>,
    pub confirmation_token_hash: Option<String>,
    pub approved: bool,
    pub disabled: bool,
    pub locale: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
