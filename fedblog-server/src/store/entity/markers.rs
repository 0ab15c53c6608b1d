//! The `markers` table: where an account stopped reading a timeline.

use sea_orm::entity::prelude::*;

/// `account_id` read `timeline` up to `last_read_id`; `version` counts the saves.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "markers")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub timeline: String,
    pub last_read_id: i64,
    pub version: i64,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
