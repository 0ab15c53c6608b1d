//! The `notification_emails` table: the notification e-mail choices a login saved.

use sea_orm::entity::prelude::*;

/// The choices of one login, as Mastodon's `notification_emails` settings name them.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notification_emails")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub account_id: i64,
    pub follow: bool,
    pub follow_request: bool,
    pub mention: bool,
    pub reblog: bool,
    pub favourite: bool,
    pub report: bool,
    pub pending_account: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
