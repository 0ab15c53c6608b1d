//! The `filter_keywords` table: the keywords of filters.

use sea_orm::entity::prelude::*;

/// The keyword `id` of filter `filter_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "filter_keywords")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub filter_id: i64,
    pub keyword: String,
    pub whole_word: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
