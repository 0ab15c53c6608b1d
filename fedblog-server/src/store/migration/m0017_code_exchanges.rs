//! Exchanged authorization codes: the `oauth_code_exchanges` table, which remembers for a day
//! the token each code was exchanged for, so that a second exchange revokes it.

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{text, timestamp_with_time_zone as ts};

/// Creates the table and its expiry index.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("oauth_code_exchanges")
                .col(text("code_hash").primary_key())
                .col(text("token_hash"))
                .col(ts("expires_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_oauth_code_exchanges_expires_at",
            "oauth_code_exchanges",
            &["expires_at"],
        ))
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("oauth_code_exchanges").to_owned())
            .await
    }
}
