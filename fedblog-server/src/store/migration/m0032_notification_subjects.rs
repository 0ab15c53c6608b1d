//! `notifications.subject_id`: the report an `admin.report` notification is about, or the
//! moderation warning of a `moderation_warning` one (Mastodon's notification carries them as
//! `report` and `moderation_warning`).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::big_integer_null;

/// Adds `notifications.subject_id`.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table("notifications")
                .add_column(big_integer_null("subject_id"))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table("notifications")
                .drop_column("subject_id")
                .to_owned(),
        )
        .await
    }
}
