//! Custom user roles: the `roles` table (`ModerationStore::user_roles`), in the portable schema
//! builder (SQLite and PostgreSQL). A login holding one keeps its id, in decimal, in the text
//! column `users.role` beside the built-in roles' names, so no column of `users` changes.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::{
    big_integer, boolean, integer, text, timestamp_with_time_zone as ts,
};

use super::index;

/// Adds the `roles` table.
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
                .table("roles")
                // Ids are app-generated, never auto-incremented.
                .col(big_integer("id").primary_key())
                .col(text("name"))
                // `#rrggbb`, `#rgb` or empty.
                .col(text("color"))
                // The permission flags (`Permissions`).
                .col(big_integer("permissions"))
                .col(integer("position"))
                .col(boolean("highlighted"))
                .col(ts("created_at"))
                .col(ts("updated_at"))
                .to_owned(),
        )
        .await?;
        // The list, by position.
        m.create_index(index("ix_roles_position", "roles", &["position", "id"]))
            .await?;
        // The holders of a role (those of a deleted one are given `user`; staff lists filter by
        // role).
        m.create_index(index("ix_users_role", "users", &["role"]))
            .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("ix_users_role")
                .table("users")
                .to_owned(),
        )
        .await?;
        m.drop_table(Table::drop().table("roles").to_owned())
            .await?;
        Ok(())
    }
}
