//! Federation: the `actor_keys`, `remote_actors`, `federation_activities`, `follow_uris` and
//! `failing_hosts` tables, and an index on `statuses (uri)` to find a remote status by its
//! ActivityPub id, in the portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{big_integer, text, text_null, timestamp_with_time_zone as ts};

/// Creates the five tables with their indexes, and the index on `statuses (uri)`.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables in the order `down` drops them.
const TABLES: [&str; 5] = [
    "failing_hosts",
    "follow_uris",
    "federation_activities",
    "remote_actors",
    "actor_keys",
];

/// A unique index named `name` on `table` over `cols`.
fn unique(name: &'static str, table: &'static str, cols: &[&'static str]) -> IndexCreateStatement {
    index(name, table, cols).unique().to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // The key pairs of local accounts and of the instance actor (owner 0, no account): no
        // foreign key, so `delete_account` removes an account's key itself.
        m.create_table(
            Table::create()
                .table("actor_keys")
                .col(big_integer("owner").primary_key())
                .col(text("private_key_pem"))
                .col(text("public_key_pem"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;

        // One actor per remote account, gone with its account.
        m.create_table(
            Table::create()
                .table("remote_actors")
                .col(big_integer("account_id").primary_key())
                .col(text("uri"))
                .col(text("actor_type"))
                .col(text("inbox"))
                .col(text_null("shared_inbox"))
                .col(text_null("outbox"))
                .col(text_null("followers"))
                .col(text_null("following"))
                .col(text("key_id"))
                .col(text("public_key_pem"))
                .col(ts("fetched_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_remote_actors_account")
                        .from("remote_actors", "account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(unique("ux_remote_actors_uri", "remote_actors", &["uri"]))
            .await?;
        m.create_index(unique(
            "ux_remote_actors_key_id",
            "remote_actors",
            &["key_id"],
        ))
        .await?;

        // Activities already applied, pruned by age.
        m.create_table(
            Table::create()
                .table("federation_activities")
                .col(text("id").primary_key())
                .col(ts("applied_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_federation_activities_applied_at",
            "federation_activities",
            &["applied_at"],
        ))
        .await?;

        // The ActivityPub ids of follows (and requests) across servers.
        m.create_table(
            Table::create()
                .table("follow_uris")
                .col(big_integer("follower"))
                .col(big_integer("target"))
                .col(text("uri"))
                .primary_key(Index::create().col("follower").col("target"))
                .to_owned(),
        )
        .await?;
        // The rows naming an account as target, removed with it.
        m.create_index(index("ix_follow_uris_target", "follow_uris", &["target"]))
            .await?;

        // Hosts deliveries are failing to, by lower-cased name.
        m.create_table(
            Table::create()
                .table("failing_hosts")
                .col(text("host").primary_key())
                .col(ts("since"))
                .to_owned(),
        )
        .await?;

        // A remote status by its ActivityPub id (`statuses.uri`, null for most local statuses).
        m.create_index(index("ix_statuses_uri", "statuses", &["uri"]))
            .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("ix_statuses_uri")
                .table("statuses")
                .to_owned(),
        )
        .await?;
        for table in TABLES {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
