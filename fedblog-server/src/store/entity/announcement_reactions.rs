//! The `announcement_reactions` table: accounts' emoji reactions to announcements.

use sea_orm::entity::prelude::*;

/// One account's reaction `name` to one announcement.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "announcement_reactions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub announcement_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub name: String,
    pub custom_emoji_id: Option<i64>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
