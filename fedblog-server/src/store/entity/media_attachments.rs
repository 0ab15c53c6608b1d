//! The `media_attachments` table: uploaded files, unattached or attached to a status.

use sea_orm::entity::prelude::*;

/// One media attachment uploaded by `account_id`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "media_attachments")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub account_id: i64,
    /// NULL while unattached.
    pub status_id: Option<i64>,
    pub scheduled_status_id: Option<i64>,
    /// `MediaKind::as_str`.
    pub kind: String,
    pub file_key: String,
    pub file_size: i64,
    pub preview_key: Option<String>,
    pub thumbnail_key: Option<String>,
    pub description: Option<String>,
    pub focus_x: Option<f64>,
    pub focus_y: Option<f64>,
    /// JSON text.
    pub meta: String,
    pub blurhash: Option<String>,
    pub processed: bool,
    pub remote_url: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
