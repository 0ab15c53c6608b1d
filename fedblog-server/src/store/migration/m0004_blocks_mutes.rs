//! Blocks (`blocks`) and mutes (`mutes`) between accounts, in the portable schema builder
//! (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{
    big_integer, boolean, timestamp_with_time_zone as ts, timestamp_with_time_zone_null as ts_null,
};

/// Creates `blocks` and `mutes` with their indexes.
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
                .table("blocks")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("target_id"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One block per pair; `ON CONFLICT DO NOTHING` relies on it, and it serves an
        // account's block lookups.
        m.create_index(
            index(
                "ux_blocks_account_target",
                "blocks",
                &["account_id", "target_id"],
            )
            .unique()
            .to_owned(),
        )
        .await?;
        // "Who blocks me" (the other half of `blocked_either_way`).
        m.create_index(index("ix_blocks_target_id", "blocks", &["target_id"]))
            .await?;

        m.create_table(
            Table::create()
                .table("mutes")
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("target_id"))
                .col(boolean("notifications"))
                .col(ts_null("expires_at"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One mute per pair; the upsert's `ON CONFLICT` target.
        m.create_index(
            index(
                "ux_mutes_account_target",
                "mutes",
                &["account_id", "target_id"],
            )
            .unique()
            .to_owned(),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("mutes").to_owned())
            .await?;
        m.drop_table(Table::drop().table("blocks").to_owned())
            .await?;
        Ok(())
    }
}
