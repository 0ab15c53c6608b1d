//! The `conversation_statuses` table: the statuses of each conversation.

use sea_orm::entity::prelude::*;

/// Status `status_id` is in conversation `conversation_id`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "conversation_statuses")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub conversation_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub status_id: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
