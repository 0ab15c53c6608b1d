//! Moderation: `accounts.silenced_at`, and the tables of `ModerationStore` (reports, moderation
//! warnings, rules, settings, terms of service, server-wide domain blocks, listed values, IP
//! blocks), in the portable schema builder (SQLite and PostgreSQL).
//!
//! Lists of ids are JSON arrays in text columns, as `accounts.also_known_as`. The unique indexes
//! carry the uniqueness the trait promises (one block per domain, one IP block per range, one
//! version of the terms per effective date, each value once per list).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, boolean, date, integer, text, text_null,
    timestamp_with_time_zone as ts, timestamp_with_time_zone_null as ts_null,
};

use super::index;

/// Adds `accounts.silenced_at` and the moderation tables.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables `up` creates, in the order `down` drops them.
const TABLES: [&str; 8] = [
    "ip_blocks",
    "listed_values",
    "instance_domain_blocks",
    "terms_of_service",
    "settings",
    "rules",
    "account_warnings",
    "reports",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table("accounts")
                .add_column(ts_null("silenced_at"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("reports")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("target_account_id"))
                // JSON arrays of ids.
                .col(text("status_ids"))
                .col(text("rule_ids"))
                .col(text("comment"))
                // `spam`, `legal`, `violation` or `other`.
                .col(text("category"))
                .col(boolean("forwarded"))
                .col(text_null("uri"))
                .col(big_integer_null("assigned_account_id"))
                .col(ts_null("action_taken_at"))
                .col(big_integer_null("action_taken_by_account_id"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .to_owned(),
        )
        .await?;
        // The pages of the reports filed by an account and of those about an account.
        m.create_index(index(
            "ix_reports_account_id",
            "reports",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_reports_target_account_id",
            "reports",
            &["target_account_id", "id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("account_warnings")
                .col(big_integer("id").primary_key())
                .col(big_integer_null("account_id"))
                .col(big_integer("target_account_id"))
                // `none`, `disable`, `silence`, ... (`WarningAction::as_str`).
                .col(text("action"))
                .col(text("text"))
                .col(big_integer_null("report_id"))
                // A JSON array of ids.
                .col(text("status_ids"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // An account's warnings.
        m.create_index(index(
            "ix_account_warnings_target_account_id",
            "account_warnings",
            &["target_account_id", "id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("rules")
                .col(big_integer("id").primary_key())
                .col(text("text"))
                .col(text("hint"))
                .col(integer("position"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("settings")
                .col(text("name").primary_key())
                .col(text("value"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("terms_of_service")
                .col(big_integer("id").primary_key())
                .col(text("text"))
                .col(text("changelog"))
                .col(date("effective_date"))
                .col(ts_null("published_at"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One version per effective date.
        m.create_index(
            index(
                "ux_terms_of_service_effective_date",
                "terms_of_service",
                &["effective_date"],
            )
            .unique()
            .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("instance_domain_blocks")
                .col(big_integer("id").primary_key())
                // Lower case.
                .col(text("domain"))
                // `noop`, `silence` or `suspend`.
                .col(text("severity"))
                .col(boolean("reject_media"))
                .col(boolean("reject_reports"))
                .col(text_null("private_comment"))
                .col(text_null("public_comment"))
                .col(boolean("obfuscate"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One block per domain.
        m.create_index(
            index(
                "ux_instance_domain_blocks_domain",
                "instance_domain_blocks",
                &["domain"],
            )
            .unique()
            .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("listed_values")
                .col(big_integer("id").primary_key())
                // `domain_allows`, `email_domain_blocks` or `canonical_email_blocks`.
                .col(text("list"))
                .col(text("value"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // Each value once per list; it also serves reading one list.
        m.create_index(
            index(
                "ux_listed_values_list_value",
                "listed_values",
                &["list", "value"],
            )
            .unique()
            .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("ip_blocks")
                .col(big_integer("id").primary_key())
                // CIDR notation.
                .col(text("ip"))
                // `sign_up_requires_approval`, `sign_up_block` or `no_access`.
                .col(text("severity"))
                .col(text("comment"))
                .col(ts("created_at"))
                .col(ts_null("expires_at"))
                .to_owned(),
        )
        .await?;
        // One block per range.
        m.create_index(
            index("ux_ip_blocks_ip", "ip_blocks", &["ip"])
                .unique()
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for table in TABLES {
            m.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        m.alter_table(
            Table::alter()
                .table("accounts")
                .drop_column("silenced_at")
                .to_owned(),
        )
        .await?;
        Ok(())
    }
}
