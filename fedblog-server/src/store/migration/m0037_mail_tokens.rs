//! The e-mail flows' data: `mail_tokens`, the links mailed to a login and not used yet (a
//! password reset, the confirmation of a new address; one per login and purpose, found by the
//! SHA-256 hash of their token), and `notification_emails`, the notification e-mail choices a
//! login saved. Both go with their account (a foreign key).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, boolean, text, text_null, timestamp_with_time_zone as ts,
};

/// Creates `mail_tokens` and `notification_emails`.
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
                .table("mail_tokens")
                .col(big_integer("account_id"))
                // `password_reset` or `email_change`.
                .col(text("purpose"))
                // Unique: the link's token is looked up by it.
                .col(text("token_hash").unique_key())
                // The new address of an `email_change`.
                .col(text_null("email"))
                .col(ts("sent_at"))
                .primary_key(Index::create().col("account_id").col("purpose"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_mail_tokens_account")
                        .from("mail_tokens", "account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("notification_emails")
                .col(big_integer("account_id").primary_key())
                .col(boolean("follow"))
                .col(boolean("follow_request"))
                .col(boolean("mention"))
                .col(boolean("reblog"))
                .col(boolean("favourite"))
                .col(boolean("report"))
                .col(boolean("pending_account"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_notification_emails_account")
                        .from("notification_emails", "account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("notification_emails").to_owned())
            .await?;
        m.drop_table(Table::drop().table("mail_tokens").to_owned())
            .await
    }
}
