//! Pending follow requests (`follow_requests`) and the index that pages follower/following
//! lists on follow ids, in the portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{big_integer, timestamp_with_time_zone as ts};

/// Creates `follow_requests` and the follow-id paging indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // Followers pages read one target's follows by follow id; following pages read one
        // follower's (the primary key only orders them by target).
        m.create_index(index(
            "ix_follows_target_id_id",
            "follows",
            &["target_id", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_follows_follower_id_id",
            "follows",
            &["follower_id", "id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("follow_requests")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("follower_id"))
                .col(big_integer("target_id"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One pending request per pair; `ON CONFLICT DO NOTHING` relies on it.
        m.create_index(
            index(
                "ux_follow_requests_follower_target",
                "follow_requests",
                &["follower_id", "target_id"],
            )
            .unique()
            .to_owned(),
        )
        .await?;
        // A target's pending requests are read in id pages.
        m.create_index(index(
            "ix_follow_requests_target_id",
            "follow_requests",
            &["target_id", "id"],
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("follow_requests").to_owned())
            .await?;
        for (name, table) in [
            ("ix_follows_follower_id_id", "follows"),
            ("ix_follows_target_id_id", "follows"),
        ] {
            m.drop_index(Index::drop().name(name).table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}
