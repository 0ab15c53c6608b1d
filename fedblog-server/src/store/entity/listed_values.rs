//! The `listed_values` table: the values of the server's lists (allowed domains, blocked e-mail
//! domains, blocked canonical e-mail hashes), one row per value.

use sea_orm::entity::prelude::*;

/// One value of `list`; `(list, value)` is unique.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "listed_values")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    /// `domain_allows`, `email_domain_blocks` or `canonical_email_blocks`.
    pub list: String,
    pub value: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
