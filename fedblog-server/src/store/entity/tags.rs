//! The `tags` table: hashtags known to this server, unique by normalised name.

use sea_orm::entity::prelude::*;

/// One hashtag.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "tags")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    /// Normalised name, unique.
    pub name: String,
    pub display_name: String,
    pub created_at: DateTimeUtc,
    /// Staff's decisions (`NULL`: not decided); see `TagReview`.
    pub trendable: Option<bool>,
    pub usable: Option<bool>,
    pub listable: Option<bool>,
    pub reviewed_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
