//! The `crypto_devices` table: the end-to-end encryption device of each access token.

use sea_orm::entity::prelude::*;

/// One device.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "crypto_devices")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_id: i64,
    pub id: i64,
    pub account_id: i64,
    pub device_id: String,
    pub name: String,
    pub fingerprint_key: String,
    pub identity_key: String,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
