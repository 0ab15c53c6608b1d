//! The initial schema: every table and index, written with the portable schema builder (SQLite and PostgreSQL).

use sea_orm_migration::prelude::*;

use super::index;
use sea_orm_migration::schema::{
    big_integer, big_integer_null, boolean, boolean_null, integer, text, text_null,
    timestamp_with_time_zone as ts, timestamp_with_time_zone_null as ts_null,
};

/// Creates all tables.
#[derive(DeriveMigrationName)]
pub struct Migration;

/// A primary-key `bigint` column (ids are app-generated, never auto-incremented).
fn id_pk(name: &'static str) -> ColumnDef {
    big_integer(name).primary_key().take()
}

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

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// SQLite has transactional DDL too: apply all or nothing on both engines.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("accounts")
                .col(id_pk("id"))
                .col(text("username"))
                .col(text("username_lower"))
                .col(text_null("domain"))
                // Lower-cased domain, '' for local accounts (NULLs would not collide in a unique index).
                .col(text("domain_key"))
                .col(text("display_name"))
                .col(text("note"))
                .col(boolean("locked"))
                .col(boolean("bot"))
                .col(boolean_null("discoverable"))
                .col(boolean("indexable"))
                .col(boolean_null("hide_collections"))
                .col(text("fields"))
                .col(text("default_privacy"))
                .col(boolean("default_sensitive"))
                .col(text_null("default_language"))
                .col(text_null("uri"))
                .col(text_null("url"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .col(ts_null("suspended_at"))
                .col(ts_null("sensitized_at"))
                .col(big_integer("statuses_count").default(0))
                .col(big_integer("followers_count").default(0))
                .col(big_integer("following_count").default(0))
                .col(ts_null("last_status_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(unique(
            "ux_accounts_username",
            "accounts",
            &["username_lower", "domain_key"],
        ))
        .await?;
        m.create_index(index("ix_accounts_domain_key", "accounts", &["domain_key"]))
            .await?;

        m.create_table(
            Table::create()
                .table("users")
                .col(id_pk("account_id"))
                .col(text("email"))
                .col(text("email_lower"))
                .col(text("password_hash"))
                .col(text("role"))
                .col(ts_null("confirmed_at"))
                .col(text_null("confirmation_token_hash"))
                .col(boolean("approved"))
                .col(boolean("disabled"))
                .col(text("locale"))
                .col(ts("created_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_users_account")
                        .from("users", "account_id")
                        .to("accounts", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(unique("ux_users_email", "users", &["email_lower"]))
            .await?;
        m.create_index(index(
            "ix_users_confirmation_token",
            "users",
            &["confirmation_token_hash"],
        ))
        .await?;
        m.create_index(index("ix_users_created_at", "users", &["created_at"]))
            .await?;

        m.create_table(
            Table::create()
                .table("apps")
                .col(id_pk("id"))
                .col(text("name"))
                .col(text_null("website"))
                .col(text("redirect_uris"))
                .col(text("scopes"))
                .col(text("client_id"))
                .col(text("client_secret"))
                .col(ts("created_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(unique("ux_apps_client_id", "apps", &["client_id"]))
            .await?;

        m.create_table(
            Table::create()
                .table("authorizations")
                .col(text("code_hash").primary_key())
                .col(big_integer("app_id"))
                .col(big_integer("account_id"))
                .col(text("redirect_uri"))
                .col(text("scopes"))
                .col(text_null("code_challenge"))
                .col(text_null("code_challenge_method"))
                .col(ts("expires_at"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("tokens")
                .col(text("token_hash").primary_key())
                .col(big_integer("id"))
                .col(big_integer("app_id"))
                .col(big_integer_null("account_id"))
                .col(text("scopes"))
                .col(ts("created_at"))
                .col(ts_null("revoked_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ix_tokens_id", "tokens", &["id"]))
            .await?;
        m.create_index(index("ix_tokens_account_id", "tokens", &["account_id"]))
            .await?;
        m.create_index(index("ix_tokens_created_at", "tokens", &["created_at"]))
            .await?;

        m.create_table(
            Table::create()
                .table("statuses")
                .col(id_pk("id"))
                .col(big_integer("account_id"))
                .col(text_null("uri"))
                .col(text("text"))
                .col(text("content"))
                .col(text("spoiler_text"))
                .col(text("visibility"))
                .col(boolean("sensitive"))
                .col(text_null("language"))
                .col(big_integer_null("in_reply_to_id"))
                .col(big_integer_null("in_reply_to_account_id"))
                .col(big_integer_null("application_id"))
                .col(boolean("has_media"))
                .col(text_null("idempotency_key"))
                .col(boolean("local"))
                .col(ts("created_at"))
                .col(ts_null("edited_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_statuses_visibility_id",
            "statuses",
            &["visibility", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_statuses_account_id",
            "statuses",
            &["account_id", "id"],
        ))
        .await?;
        m.create_index(index(
            "ix_statuses_idempotency",
            "statuses",
            &["account_id", "idempotency_key"],
        ))
        .await?;
        m.create_index(index(
            "ix_statuses_in_reply_to",
            "statuses",
            &["in_reply_to_id"],
        ))
        .await?;
        m.create_index(index(
            "ix_statuses_local_created_at",
            "statuses",
            &["local", "created_at"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("status_mentions")
                .col(big_integer("status_id"))
                .col(integer("position"))
                .col(big_integer("account_id"))
                .primary_key(&mut composite_pk(&["status_id", "position"]))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_status_mentions_status")
                        .from("status_mentions", "status_id")
                        .to("statuses", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_status_mentions_account_id",
            "status_mentions",
            &["account_id", "status_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("status_tags")
                .col(big_integer("status_id"))
                .col(integer("position"))
                .col(text("name"))
                .primary_key(&mut composite_pk(&["status_id", "position"]))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_status_tags_status")
                        .from("status_tags", "status_id")
                        .to("statuses", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(index(
            "ix_status_tags_name",
            "status_tags",
            &["name", "status_id"],
        ))
        .await?;

        m.create_table(
            Table::create()
                .table("follows")
                .col(big_integer("follower_id"))
                .col(big_integer("target_id"))
                .col(big_integer("id"))
                .primary_key(&mut composite_pk(&["follower_id", "target_id"]))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ix_follows_target_id", "follows", &["target_id"]))
            .await?;

        m.create_table(
            Table::create()
                .table("home_feed")
                .col(big_integer("account_id"))
                .col(big_integer("status_id"))
                .col(big_integer("author_id"))
                .primary_key(&mut composite_pk(&["account_id", "status_id"]))
                .to_owned(),
        )
        .await?;
        m.create_index(index("ix_home_feed_status_id", "home_feed", &["status_id"]))
            .await?;
        m.create_index(index(
            "ix_home_feed_account_author",
            "home_feed",
            &["account_id", "author_id"],
        ))
        .await?;

        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for t in [
            "home_feed",
            "follows",
            "status_tags",
            "status_mentions",
            "statuses",
            "tokens",
            "authorizations",
            "apps",
            "users",
            "accounts",
        ] {
            m.drop_table(Table::drop().table(t).to_owned()).await?;
        }
        Ok(())
    }
}
