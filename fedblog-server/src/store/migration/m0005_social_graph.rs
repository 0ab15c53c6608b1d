//! The social graph beyond follows: follow options, avatars and headers, private notes,
//! endorsements, suggestion dismissals, domain blocks, tags, tag follows and featured tags, in the
//! portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::{add_column, drop_column, index};
use sea_orm_migration::schema::{
    big_integer, boolean, text, text_null, timestamp_with_time_zone as ts,
};

/// Adds the new columns and creates the new tables with their indexes.
#[derive(DeriveMigrationName)]
pub struct Migration;

fn unique(name: &'static str, table: &'static str, cols: &[&'static str]) -> IndexCreateStatement {
    let mut idx = index(name, table, cols);
    idx.unique();
    idx
}

fn composite_pk(cols: &[&'static str]) -> IndexCreateStatement {
    let mut idx = Index::create();
    for c in cols {
        idx.col(*c);
    }
    idx
}

/// The follower's options on a follow or a follow request.
const FOLLOW_TABLES: [&str; 2] = ["follows", "follow_requests"];

/// The new tables, in the order `down` drops them.
const NEW_TABLES: [&str; 7] = [
    "featured_tags",
    "tag_follows",
    "tags",
    "account_domain_blocks",
    "suggestion_dismissals",
    "endorsements",
    "account_notes",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// All or nothing on both engines, as the earlier migrations.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // Follow options; existing rows take Mastodon's defaults.
        for table in FOLLOW_TABLES {
            add_column(m, table, boolean("show_reblogs").default(true).take()).await?;
            add_column(m, table, boolean("notify").default(false).take()).await?;
            // A JSON array of ISO 639-1 codes; NULL: every language.
            add_column(m, table, text_null("languages")).await?;
        }

        // Uploaded profile images (file keys; NULL: the default image).
        add_column(m, "accounts", text_null("avatar")).await?;
        add_column(m, "accounts", text_null("header")).await?;
        // The profile directory, by last post or by creation, and the most followed local accounts.
        m.create_index(index(
            "ix_accounts_discoverable_last_status_at",
            "accounts",
            &["discoverable", "last_status_at"],
        ))
        .await?;
        m.create_index(index(
            "ix_accounts_discoverable_created_at",
            "accounts",
            &["discoverable", "created_at"],
        ))
        .await?;
        m.create_index(index(
            "ix_accounts_domain_key_followers",
            "accounts",
            &["domain_key", "followers_count"],
        ))
        .await?;
        // Deleting an account removes these by account or target.
        m.create_index(index(
            "ix_authorizations_account_id",
            "authorizations",
            &["account_id"],
        ))
        .await?;
        m.create_index(index("ix_mutes_target_id", "mutes", &["target_id"]))
            .await?;

        m.create_table(
            Table::create()
                .table("account_notes")
                .col(big_integer("account_id"))
                .col(big_integer("target_id"))
                .col(text("comment"))
                .col(ts("updated_at"))
                .primary_key(&mut composite_pk(&["account_id", "target_id"]))
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_account_notes_target_id",
            "account_notes",
            &["target_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("endorsements")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("target_id"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One endorsement per pair; `ON CONFLICT DO NOTHING` relies on it.
        m.create_index(unique(
            "ux_endorsements_account_target",
            "endorsements",
            &["account_id", "target_id"],
        ))
        .await?;
        m.create_index(index(
            "ix_endorsements_account_id_id",
            "endorsements",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_endorsements_target_id",
            "endorsements",
            &["target_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("suggestion_dismissals")
                .col(big_integer("account_id"))
                .col(big_integer("target_id"))
                .col(ts("created_at"))
                .primary_key(&mut composite_pk(&["account_id", "target_id"]))
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_suggestion_dismissals_target_id",
            "suggestion_dismissals",
            &["target_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("account_domain_blocks")
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(text("domain"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(unique(
            "ux_account_domain_blocks_account_domain",
            "account_domain_blocks",
            &["account_id", "domain"],
        ))
        .await?;
        m.create_index(index(
            "ix_account_domain_blocks_account_id_id",
            "account_domain_blocks",
            &["account_id", "id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("tags")
                .col(big_integer("id").primary_key())
                .col(text("name"))
                .col(text("display_name"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One tag per normalised name; `find_or_create_tag`'s `ON CONFLICT` target.
        m.create_index(unique("ux_tags_name", "tags", &["name"]))
            .await?;

        m.create_table(
            Table::create()
                .table("tag_follows")
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("tag_id"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(unique(
            "ux_tag_follows_account_tag",
            "tag_follows",
            &["account_id", "tag_id"],
        ))
        .await?;
        m.create_index(index(
            "ix_tag_follows_account_id_id",
            "tag_follows",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index("ix_tag_follows_tag_id", "tag_follows", &["tag_id"]))
            .await?;

        m.create_table(
            Table::create()
                .table("featured_tags")
                .col(big_integer("id").primary_key())
                .col(big_integer("account_id"))
                .col(big_integer("tag_id"))
                .col(text("name"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        // One feature per (account, tag): a second is `AlreadyExists("featured_tag")`.
        m.create_index(unique(
            "ux_featured_tags_account_tag",
            "featured_tags",
            &["account_id", "tag_id"],
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for t in NEW_TABLES {
            m.drop_table(Table::drop().table(t).to_owned()).await?;
        }
        for (name, table) in [
            ("ix_mutes_target_id", "mutes"),
            ("ix_authorizations_account_id", "authorizations"),
            ("ix_accounts_domain_key_followers", "accounts"),
            ("ix_accounts_discoverable_created_at", "accounts"),
            ("ix_accounts_discoverable_last_status_at", "accounts"),
        ] {
            m.drop_index(Index::drop().name(name).table(table).to_owned())
                .await?;
        }
        for col in ["header", "avatar"] {
            drop_column(m, "accounts", col).await?;
        }
        for table in FOLLOW_TABLES {
            for col in ["languages", "notify", "show_reblogs"] {
                drop_column(m, table, col).await?;
            }
        }
        Ok(())
    }
}
