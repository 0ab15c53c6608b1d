//! The `polls` table: one poll per status, with its store-maintained voter count (the options
//! and their counts are in `poll_options`, the votes in `poll_votes`).

use sea_orm::entity::prelude::*;

/// The poll of `status_id`, written by `account_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "polls")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub status_id: i64,
    pub account_id: i64,
    pub multiple: bool,
    pub hide_totals: bool,
    pub voters_count: i64,
    pub expires_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
