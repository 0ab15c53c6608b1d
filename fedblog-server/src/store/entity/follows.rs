//! The `follows` table: who follows whom, one row per (follower, target) pair.

use sea_orm::entity::prelude::*;

/// One follow.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "follows")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub follower_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub target_id: i64,
    pub id: i64,
    pub show_reblogs: bool,
    pub notify: bool,
    /// Languages as a JSON array of ISO 639-1 codes (`None`: all).
    pub languages: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    /// The follower (used for joins only).
    #[sea_orm(
        belongs_to = "super::accounts::Entity",
        from = "Column::FollowerId",
        to = "super::accounts::Column::Id"
    )]
    Follower,
}

impl Related<super::accounts::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Follower.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
