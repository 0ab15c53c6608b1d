//! The `apps` table: registered client applications.

use sea_orm::entity::prelude::*;

/// One application.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "apps")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub name: String,
    pub website: Option<String>,
    /// Redirect URIs as a JSON array of strings.
    pub redirect_uris: String,
    pub scopes: String,
    pub client_id: String,
    pub client_secret: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
