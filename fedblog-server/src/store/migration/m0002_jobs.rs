//! The job queue (`jobs`) and scheduled statuses (`scheduled_statuses`), in the portable schema
//! builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, integer, string_len, text, text_null,
    timestamp_with_time_zone as ts, timestamp_with_time_zone_null as ts_null,
};

/// Creates `jobs` and `scheduled_statuses` with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the initial migration.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("jobs")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(text("kind"))
                .col(text("payload"))
                .col(ts("run_at"))
                // `queued`, `running`, `done`, `dead`.
                .col(string_len("state", 16))
                .col(integer("attempts"))
                .col(integer("max_attempts"))
                .col(text_null("locked_by"))
                .col(ts_null("locked_until"))
                .col(text_null("last_error"))
                .col(ts("created_at"))
                .col(ts_null("finished_at"))
                .to_owned(),
        )
        .await?;
        // Claims scan due queued jobs by `run_at` and expired leases by `locked_until`.
        m.create_index(index("ix_jobs_state_run_at", "jobs", &["state", "run_at"]))
            .await?;
        m.create_index(index(
            "ix_jobs_state_locked_until",
            "jobs",
            &["state", "locked_until"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("scheduled_statuses")
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(ts("scheduled_at"))
                .col(text("params"))
                .col(big_integer_null("application_id"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // An account's scheduled statuses are read in id pages.
        m.create_index(index(
            "ix_scheduled_statuses_account_id",
            "scheduled_statuses",
            &["account_id", "id"],
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for t in ["scheduled_statuses", "jobs"] {
            m.drop_table(Table::drop().table(t).to_owned()).await?;
        }
        Ok(())
    }
}
