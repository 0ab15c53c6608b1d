//! The days local accounts were active (`user_activity_days`): one row per account and UTC day
//! on which it made an authenticated request, gone with the account; the admin dashboard's
//! active users and retention count them.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer, date};

use super::index;

/// Creates `user_activity_days` with its index by day.
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
                .table("user_activity_days")
                .col(big_integer("account_id"))
                .col(date("day"))
                .primary_key(Index::create().col("account_id").col("day"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_user_activity_days_account")
                        .from("user_activity_days", "account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        // The days of a range, for active users and the languages dimension.
        m.create_index(index(
            "ix_user_activity_days_day",
            "user_activity_days",
            &["day"],
        ))
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("user_activity_days").to_owned())
            .await
    }
}
