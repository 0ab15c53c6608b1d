//! The `actor_keys` table: the RSA key pairs of local accounts and of the instance actor.

use sea_orm::entity::prelude::*;

/// The key pair of `owner` (an account id, or 0 for the instance actor), PEM-encoded.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "actor_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub owner: i64,
    pub private_key_pem: String,
    pub public_key_pem: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
