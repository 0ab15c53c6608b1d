//! The `filter_statuses` table: the statuses filters match by id.

use sea_orm::entity::prelude::*;

/// Filter `filter_id` matches status `status_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "filter_statuses")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub filter_id: i64,
    pub status_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
