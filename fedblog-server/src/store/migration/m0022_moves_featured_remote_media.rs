//! Account moves, remote pins and remote media: `accounts` gains `also_known_as` (a JSON array
//! of actor ids), `moved_to_account_id`, and the remote URLs of the avatar and header (whose
//! `avatar`/`header` then hold a downloaded copy's file key); `remote_actors` gains the actor's
//! `featured` and `featured_tags` collections.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{big_integer_null, text, text_null};

use super::{add_column, drop_column};

/// Adds the six columns.
#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_column(m, "accounts", text("also_known_as").default("[]").take()).await?;
        add_column(m, "accounts", big_integer_null("moved_to_account_id")).await?;
        add_column(m, "accounts", text_null("avatar_remote_url")).await?;
        add_column(m, "accounts", text_null("header_remote_url")).await?;
        add_column(m, "remote_actors", text_null("featured")).await?;
        add_column(m, "remote_actors", text_null("featured_tags")).await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_column(m, "remote_actors", "featured_tags").await?;
        drop_column(m, "remote_actors", "featured").await?;
        drop_column(m, "accounts", "header_remote_url").await?;
        drop_column(m, "accounts", "avatar_remote_url").await?;
        drop_column(m, "accounts", "moved_to_account_id").await?;
        drop_column(m, "accounts", "also_known_as").await?;
        Ok(())
    }
}
