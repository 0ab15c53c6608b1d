//! The `ip_blocks` table: blocks of IP ranges.

use sea_orm::entity::prelude::*;

/// One block; `ip` (the range in CIDR notation) is unique.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ip_blocks")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub ip: String,
    /// `sign_up_requires_approval`, `sign_up_block` or `no_access`.
    pub severity: String,
    pub comment: String,
    pub created_at: DateTimeUtc,
    pub expires_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
