//! What accounts do with statuses: reblogs, threads and counters on `statuses`, and the
//! `favourites`, `bookmarks`, `status_pins` and `conversation_mutes` tables, in the portable
//! schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{big_integer, big_integer_null, timestamp_with_time_zone as ts};

/// Adds the status columns and creates the new tables with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

fn unique(name: &'static str, table: &'static str, cols: &[&'static str]) -> IndexCreateStatement {
    let mut idx = index(name, table, cols);
    idx.unique();
    idx
}

/// One `ALTER TABLE statuses ADD COLUMN` (SQLite takes one column per statement).
async fn add_status_column(m: &SchemaManager<'_>, col: ColumnDef) -> Result<(), DbErr> {
    let mut col = col;
    m.alter_table(
        Table::alter()
            .table("statuses")
            .add_column(&mut col)
            .to_owned(),
    )
    .await
}

/// The new `statuses` columns, in the order `down` drops them.
const STATUS_COLUMNS: [&str; 5] = [
    "favourites_count",
    "reblogs_count",
    "replies_count",
    "conversation_id",
    "reblog_of_id",
];

/// The new `statuses` indexes.
const STATUS_INDEXES: [&str; 2] = ["ix_statuses_reblog_of_id_id", "ux_statuses_account_reblog"];

/// The tables with one row per (account, status), each with an app-generated id.
const STATUS_PAIR_TABLES: [&str; 3] = ["favourites", "bookmarks", "status_pins"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_status_column(m, big_integer_null("reblog_of_id")).await?;
        add_status_column(m, big_integer_null("conversation_id")).await?;
        // Existing statuses start at zero, as they had no reblogs or favourites before.
        add_status_column(m, big_integer("replies_count").default(0).take()).await?;
        add_status_column(m, big_integer("reblogs_count").default(0).take()).await?;
        add_status_column(m, big_integer("favourites_count").default(0).take()).await?;
        // One reblog per account and status: `AlreadyExists("reblog")`. Statuses that are not
        // reblogs have a NULL `reblog_of_id`, and NULLs are distinct in unique indexes on both
        // engines, so a plain unique index constrains only reblogs. It also serves
        // `reblog_by`, `reblogged_among` and an account's reblogs on deletion.
        m.create_index(unique(
            "ux_statuses_account_reblog",
            "statuses",
            &["account_id", "reblog_of_id"],
        ))
        .await?;
        // Who reblogged a status, newest first, and the reblogs deleted with it. (Replies are
        // found through `ix_statuses_in_reply_to`, from the first migration.)
        m.create_index(index(
            "ix_statuses_reblog_of_id_id",
            "statuses",
            &["reblog_of_id", "id"],
        ))
        .await?;

        for table in STATUS_PAIR_TABLES {
            m.create_table(
                Table::create()
                    .table(table)
                    // Ids are app-generated, never auto-incremented.
                    .col(big_integer("id").primary_key())
                    .col(big_integer("account_id"))
                    .col(big_integer("status_id"))
                    .col(ts("created_at"))
                    .to_owned(),
            )
            .await?;
        }
        // One row per pair; `ON CONFLICT DO NOTHING` relies on it, and it serves the `_among`
        // lookups. Then an account's rows newest first, and a status's rows (who favourited it,
        // and the rows deleted with it).
        m.create_index(unique(
            "ux_favourites_account_status",
            "favourites",
            &["account_id", "status_id"],
        ))
        .await?;
        m.create_index(index(
            "ix_favourites_account_id_id",
            "favourites",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_favourites_status_id_id",
            "favourites",
            &["status_id", "id"],
        ))
        .await?;
        m.create_index(unique(
            "ux_bookmarks_account_status",
            "bookmarks",
            &["account_id", "status_id"],
        ))
        .await?;
        m.create_index(index(
            "ix_bookmarks_account_id_id",
            "bookmarks",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index("ix_bookmarks_status_id", "bookmarks", &["status_id"]))
            .await?;
        m.create_index(unique(
            "ux_status_pins_account_status",
            "status_pins",
            &["account_id", "status_id"],
        ))
        .await?;
        m.create_index(index(
            "ix_status_pins_account_id_id",
            "status_pins",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_status_pins_status_id",
            "status_pins",
            &["status_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("conversation_mutes")
                .col(big_integer("account_id"))
                .col(big_integer("conversation_id"))
                .col(ts("created_at"))
                .primary_key(Index::create().col("account_id").col("conversation_id"))
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("conversation_mutes").to_owned())
            .await?;
        for t in STATUS_PAIR_TABLES {
            m.drop_table(Table::drop().table(t).to_owned()).await?;
        }
        // SQLite cannot drop an indexed column: the indexes go first.
        for name in STATUS_INDEXES {
            m.drop_index(Index::drop().name(name).table("statuses").to_owned())
                .await?;
        }
        for col in STATUS_COLUMNS {
            m.alter_table(Table::alter().table("statuses").drop_column(col).to_owned())
                .await?;
        }
        Ok(())
    }
}
