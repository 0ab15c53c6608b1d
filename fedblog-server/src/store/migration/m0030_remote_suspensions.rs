//! Remote suspensions: `accounts.suspension_origin`, who suspended a suspended account (`local`:
//! this server; `remote`: the account's own server, whose actor said `suspended`), so that a
//! remote server lifting its suspension never lifts one of ours (Mastodon's
//! `suspension_origin`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::text_null;

/// Adds `accounts.suspension_origin`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // Accounts suspended before have no origin, which reads as suspended here.
        m.alter_table(
            Table::alter()
                .table("accounts")
                .add_column(text_null("suspension_origin"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table("accounts")
                .drop_column("suspension_origin")
                .to_owned(),
        )
        .await
    }
}
