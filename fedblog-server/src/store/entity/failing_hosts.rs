//! The `failing_hosts` table: the servers deliveries are failing to.

use sea_orm::entity::prelude::*;

/// Deliveries to `host` (lower-cased) have been failing since `since`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "failing_hosts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub host: String,
    pub since: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
