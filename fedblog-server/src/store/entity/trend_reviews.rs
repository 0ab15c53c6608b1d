//! The `trend_reviews` table: what staff decided about candidates for trends (statuses, links,
//! publishers), one row per kind and target.

use sea_orm::entity::prelude::*;

/// The latest decision about the `kind` with id `target_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "trend_reviews")]
pub struct Model {
    /// `status`, `link` or `publisher`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub kind: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub target_id: i64,
    pub trendable: bool,
    pub reviewed_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
