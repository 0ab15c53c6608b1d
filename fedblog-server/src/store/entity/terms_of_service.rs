//! The `terms_of_service` table: the versions of the terms of service.

use sea_orm::entity::prelude::*;

/// One version; `effective_date` is unique.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "terms_of_service")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub text: String,
    pub changelog: String,
    pub effective_date: Date,
    /// `None`: a draft.
    pub published_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
