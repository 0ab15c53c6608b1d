//! The `crypto_encrypted_messages` table: encrypted messages delivered to a device, until it
//! clears them.

use sea_orm::entity::prelude::*;

/// One message.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "crypto_encrypted_messages")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    /// The recipient device's `crypto_devices.id`.
    pub device: i64,
    pub from_account_id: i64,
    pub from_device_id: String,
    pub kind: i32,
    pub body: String,
    pub digest: String,
    pub message_franking: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
