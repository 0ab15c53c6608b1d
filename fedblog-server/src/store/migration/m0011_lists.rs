//! Lists: the `lists`, `list_accounts` and `list_feed` tables, in the portable schema builder
//! (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{big_integer, boolean, text};

/// Creates `lists`, `list_accounts` and `list_feed` with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables in the order `down` drops them.
const TABLES: [&str; 3] = ["list_feed", "list_accounts", "lists"];

/// A primary key over `cols`.
fn pk(cols: &[&'static str]) -> IndexCreateStatement {
    let mut idx = Index::create();
    for c in cols {
        idx.col(*c);
    }
    idx
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("lists")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(text("title"))
                .col(text("replies_policy"))
                .col(boolean("exclusive"))
                .to_owned(),
        )
        .await?;
        // An owner's lists.
        m.create_index(index("ix_lists_account_id", "lists", &["account_id"]))
            .await?;

        m.create_table(
            Table::create()
                .table("list_accounts")
                .col(big_integer("list_id"))
                .col(big_integer("account_id"))
                .primary_key(&mut pk(&["list_id", "account_id"]))
                .to_owned(),
        )
        .await?;
        // The lists an account is in: fan-out of its posts, and its deletion.
        m.create_index(index(
            "ix_list_accounts_account_id",
            "list_accounts",
            &["account_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("list_feed")
                .col(big_integer("list_id"))
                .col(big_integer("status_id"))
                .col(big_integer("author_id"))
                .primary_key(&mut pk(&["list_id", "status_id"]))
                .to_owned(),
        )
        .await?;
        // Entries of a status, deleted with it.
        m.create_index(index("ix_list_feed_status_id", "list_feed", &["status_id"]))
            .await?;
        // Entries by an author, removed when it leaves the list.
        m.create_index(index(
            "ix_list_feed_list_author",
            "list_feed",
            &["list_id", "author_id"],
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
