//! The end-to-end encryption helpers: `crypto_devices` (one per access token, removed with its
//! account by a foreign key; a revoked token's device is never read, see `store/crypto.rs`),
//! `crypto_one_time_keys` and `crypto_encrypted_messages` (removed with their device).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer, integer, text, timestamp_with_time_zone as ts};

use super::index;

/// Creates the three tables and their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("crypto_devices")
                // One per token: the key is the replacement's conflict target.
                .col(big_integer("token_id").primary_key())
                .col(big_integer("id").unique_key())
                .col(big_integer("account_id"))
                .col(text("device_id"))
                .col(text("name"))
                .col(text("fingerprint_key"))
                .col(text("identity_key"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_crypto_devices_account")
                        .from("crypto_devices", "account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        // The devices a query or a delivery looks up by account.
        m.create_index(index(
            "ix_crypto_devices_account_id",
            "crypto_devices",
            &["account_id", "device_id"],
        ))
        .await?;
        m.create_table(
            Table::create()
                .table("crypto_one_time_keys")
                .col(big_integer("id").primary_key())
                .col(big_integer("device"))
                .col(text("key_id"))
                .col(text("key"))
                .col(text("signature"))
                .col(ts("created_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_crypto_one_time_keys_device")
                        .from("crypto_one_time_keys", "device")
                        .to("crypto_devices", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_crypto_one_time_keys_device",
            "crypto_one_time_keys",
            &["device"],
        ))
        .await?;
        m.create_table(
            Table::create()
                .table("crypto_encrypted_messages")
                .col(big_integer("id").primary_key())
                .col(big_integer("device"))
                .col(big_integer("from_account_id"))
                .col(text("from_device_id"))
                .col(integer("kind"))
                .col(text("body"))
                .col(text("digest"))
                .col(text("message_franking"))
                .col(ts("created_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_crypto_encrypted_messages_device")
                        .from("crypto_encrypted_messages", "device")
                        .to("crypto_devices", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_crypto_encrypted_messages_from_account")
                        .from("crypto_encrypted_messages", "from_account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        // A device's messages, paged by id.
        m.create_index(index(
            "ix_crypto_encrypted_messages_device_id",
            "crypto_encrypted_messages",
            &["device", "id"],
        ))
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            "crypto_encrypted_messages",
            "crypto_one_time_keys",
            "crypto_devices",
        ] {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
