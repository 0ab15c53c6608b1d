//! Announcements: `announcements` (what staff announce to every local user, published or a
//! draft), `announcement_dismissals` (which account read which) and `announcement_reactions`
//! (one per account, announcement and emoji name). Dismissals and reactions go with their
//! announcement and with their account (foreign keys).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, boolean, text, timestamp_with_time_zone as ts,
    timestamp_with_time_zone_null as ts_null,
};

/// Creates `announcements`, `announcement_dismissals` and `announcement_reactions`.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// A foreign key from `table.column` to `target.id`, deleting the row with its target.
fn cascade(
    table: &'static str,
    column: &'static str,
    target: &'static str,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(format!("fk_{table}_{column}"))
        .from(table, column)
        .to(target, "id")
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
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
                .table("announcements")
                .col(big_integer("id").primary_key())
                .col(text("text"))
                .col(ts_null("starts_at"))
                .col(ts_null("ends_at"))
                .col(boolean("all_day"))
                .col(boolean("published"))
                .col(ts_null("published_at"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("announcement_dismissals")
                .col(big_integer("announcement_id"))
                .col(big_integer("account_id"))
                .primary_key(Index::create().col("account_id").col("announcement_id"))
                .foreign_key(&mut cascade(
                    "announcement_dismissals",
                    "announcement_id",
                    "announcements",
                ))
                .foreign_key(&mut cascade(
                    "announcement_dismissals",
                    "account_id",
                    "accounts",
                ))
                .to_owned(),
        )
        .await?;
        m.create_table(
            Table::create()
                .table("announcement_reactions")
                .col(big_integer("announcement_id"))
                .col(big_integer("account_id"))
                // A Unicode emoji or a local custom emoji's shortcode.
                .col(text("name"))
                // The custom emoji, when it is one (no foreign key: the name stays if it goes).
                .col(big_integer_null("custom_emoji_id"))
                .col(ts("created_at"))
                .primary_key(
                    Index::create()
                        .col("announcement_id")
                        .col("account_id")
                        .col("name"),
                )
                .foreign_key(&mut cascade(
                    "announcement_reactions",
                    "announcement_id",
                    "announcements",
                ))
                .foreign_key(&mut cascade(
                    "announcement_reactions",
                    "account_id",
                    "accounts",
                ))
                .to_owned(),
        )
        .await?;
        // An account's reactions, for the deletion of the account.
        m.create_index(
            Index::create()
                .name("ix_announcement_reactions_account")
                .table("announcement_reactions")
                .col("account_id")
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            "announcement_reactions",
            "announcement_dismissals",
            "announcements",
        ] {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}
