//! The `status_quote_policies` table: who may quote each status (Mastodon's bitmap).

use sea_orm::entity::prelude::*;

/// The quote approval policy of one status: automatic audiences << 16 | manual audiences.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "status_quote_policies")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub status_id: i64,
    pub policy: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
