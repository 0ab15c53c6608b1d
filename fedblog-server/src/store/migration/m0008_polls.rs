//! Polls: the `polls`, `poll_options` and `poll_votes` tables, in the portable schema builder
//! (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{
    big_integer, boolean, integer, text, timestamp_with_time_zone as ts,
    timestamp_with_time_zone_null as ts_null,
};

/// Creates the poll tables and their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

fn composite_pk(cols: &[&'static str]) -> IndexCreateStatement {
    let mut idx = Index::create();
    for c in cols {
        idx.col(*c);
    }
    idx
}

/// The tables in the order `down` drops them.
const TABLES: [&str; 3] = ["poll_votes", "poll_options", "polls"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("polls")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("status_id"))
                .col(big_integer("account_id"))
                .col(boolean("multiple"))
                .col(boolean("hide_totals"))
                .col(big_integer("voters_count").default(0))
                .col(ts_null("expires_at"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One poll per status (`AlreadyExists("poll")`); also finds a status's poll.
        let mut by_status = index("ux_polls_status_id", "polls", &["status_id"]);
        by_status.unique();
        m.create_index(by_status).await?;
        // An account's polls, deleted with it.
        m.create_index(index("ix_polls_account_id", "polls", &["account_id"]))
            .await?;

        // Counts live one row per option so that a vote raises them with `count = count + 1`,
        // which never loses a concurrent vote on either engine.
        m.create_table(
            Table::create()
                .table("poll_options")
                .col(big_integer("poll_id"))
                .col(integer("position"))
                .col(text("title"))
                .col(big_integer("votes_count").default(0))
                .primary_key(&mut composite_pk(&["poll_id", "position"]))
                .to_owned(),
        )
        .await?;

        // One row per voter: the primary key makes a second vote `AlreadyExists("vote")`.
        m.create_table(
            Table::create()
                .table("poll_votes")
                .col(big_integer("poll_id"))
                .col(big_integer("account_id"))
                .col(text("choices"))
                .primary_key(&mut composite_pk(&["poll_id", "account_id"]))
                .to_owned(),
        )
        .await?;
        // An account's votes, taken back when it is deleted.
        m.create_index(index(
            "ix_poll_votes_account_id",
            "poll_votes",
            &["account_id"],
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in TABLES {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
