//! Web Push subscriptions (`push_subscriptions`): one per access token, keyed by the token's id,
//! removed with their account (a foreign key) and with their token's revocation (the store's
//! `revoke_token`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, boolean, text, text_null, timestamp_with_time_zone as ts,
};

use super::index;

/// Creates `push_subscriptions` with its index by account.
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
                .table("push_subscriptions")
                // One per token: the key is the replacement's conflict target.
                .col(big_integer("token_id").primary_key())
                .col(big_integer("id"))
                .col(big_integer("account_id"))
                .col(text("endpoint"))
                .col(text("key_p256dh"))
                .col(text("key_auth"))
                .col(boolean("standard"))
                // The notification types it takes, separated by spaces.
                .col(text("alerts"))
                .col(text("policy"))
                .col(text_null("sealed_token"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_push_subscriptions_account")
                        .from("push_subscriptions", "account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        // The subscriptions a notification reaches.
        m.create_index(index(
            "ix_push_subscriptions_account_id",
            "push_subscriptions",
            &["account_id"],
        ))
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("push_subscriptions").to_owned())
            .await
    }
}
