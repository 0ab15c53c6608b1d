//! The `crypto_one_time_keys` table: the one-time keys a device published, until claimed.

use sea_orm::entity::prelude::*;

/// One key.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "crypto_one_time_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    /// The device's `crypto_devices.id`.
    pub device: i64,
    pub key_id: String,
    pub key: String,
    pub signature: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
