//! The `accounts` table: local and remote accounts with their store-maintained counters.

use sea_orm::entity::prelude::*;

/// One account. `username_lower` and `domain_key` (lower-cased domain, `''` for local accounts)
/// carry the case-insensitive uniqueness of `username@domain`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "accounts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub username: String,
    pub username_lower: String,
    pub domain: Option<String>,
    pub domain_key: String,
    pub display_name: String,
    pub note: String,
    pub locked: bool,
    pub bot: bool,
    pub discoverable: Option<bool>,
    pub indexable: bool,
    pub hide_collections: Option<bool>,
    /// Profile fields as a JSON array of `{"name", "value"}` objects.
    pub fields: String,
    pub default_privacy: String,
    pub default_sensitive: bool,
    pub default_language: Option<String>,
    pub uri: Option<String>,
    pub url: Option<String>,
    /// File key of the uploaded avatar (`None`: the default image).
    pub avatar: Option<String>,
    /// File key of the uploaded header (`None`: the default image).
    pub header: Option<String>,
    pub avatar_remote_url: Option<String>,
    pub header_remote_url: Option<String>,
    /// Other identities (`alsoKnownAs`) as a JSON array of actor ids.
    pub also_known_as: String,
    pub moved_to_account_id: Option<i64>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    pub suspended_at: Option<DateTimeUtc>,
    /// Who suspended it: `local` or `remote` (its own server), while suspended.
    pub suspension_origin: Option<String>,
    pub sensitized_at: Option<DateTimeUtc>,
    pub silenced_at: Option<DateTimeUtc>,
    pub statuses_count: i64,
    pub followers_count: i64,
    pub following_count: i64,
    pub last_status_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
