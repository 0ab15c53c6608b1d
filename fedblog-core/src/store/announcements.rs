//! Announcements and their store: the messages staff show to every local user (published or
//! still drafts), which users dismissed (read) which of them, and the users' emoji reactions.
//!
//! [`AnnouncementStore`] came after the other store traits. A store offers it through
//! [`AccountStore::announcements`](super::AccountStore::announcements) (`None` by default), so
//! stores written before it keep compiling; without it the announcements API lists none and
//! staff cannot make any.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::error::StoreResult;
use crate::id::Id;

/// An announcement made by staff.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnouncementRecord {
    /// Id.
    pub id: Id,
    /// The text as staff wrote it (plain text with links, mentions, hashtags and `:emoji:`).
    pub text: String,
    /// When the event it announces starts; given together with `ends_at` or not at all.
    pub starts_at: Option<DateTime<Utc>>,
    /// When the event it announces ends (past it, users are no longer shown it).
    pub ends_at: Option<DateTime<Utc>>,
    /// Whether `starts_at` and `ends_at` are dates only.
    pub all_day: bool,
    /// Whether users see it.
    pub published: bool,
    /// When it was last published (kept when it is unpublished).
    pub published_at: Option<DateTime<Utc>>,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

/// One account's reaction to an announcement.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnouncementReactionRecord {
    /// The announcement.
    pub announcement_id: Id,
    /// Who reacted.
    pub account_id: Id,
    /// A Unicode emoji, or the shortcode of a custom emoji of this server.
    pub name: String,
    /// The custom emoji `name` is the shortcode of; `None` for a Unicode emoji.
    pub custom_emoji_id: Option<Id>,
    /// When.
    pub created_at: DateTime<Utc>,
}

/// The reactions of one name to one announcement, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnouncementReactionCount {
    /// The announcement.
    pub announcement_id: Id,
    /// The emoji's name.
    pub name: String,
    /// Its custom emoji, if it is one.
    pub custom_emoji_id: Option<Id>,
    /// How many accounts reacted so.
    pub count: u64,
    /// Whether the viewer is one of them (`false` without a viewer).
    pub me: bool,
}

/// Where announcements, their dismissals and reactions are kept.
///
/// Contract: `insert_announcement` fails with `AlreadyExists("announcement")` for a taken id;
/// `update_announcement` and `delete_announcement` with `NotFound` for an unknown one;
/// deleting an announcement deletes its dismissals and reactions; deleting an account
/// (`AccountStore::delete_account`) deletes its dismissals and reactions.
#[async_trait]
pub trait AnnouncementStore: Send + Sync {
    /// Keeps a new announcement.
    async fn insert_announcement(&self, announcement: &AnnouncementRecord) -> StoreResult<()>;
    /// The announcement with this id.
    async fn announcement_by_id(&self, id: Id) -> StoreResult<Option<AnnouncementRecord>>;
    /// Replaces an announcement (every field but `id` and `created_at`).
    async fn update_announcement(&self, announcement: &AnnouncementRecord) -> StoreResult<()>;
    /// Deletes an announcement with its dismissals and reactions.
    async fn delete_announcement(&self, id: Id) -> StoreResult<()>;
    /// Every announcement (only the published ones when `published_only`), in chronological
    /// order: by the first of `starts_at`, `published_at` and `created_at` that is set, oldest
    /// first, then by id.
    async fn list_announcements(
        &self,
        published_only: bool,
    ) -> StoreResult<Vec<AnnouncementRecord>>;
    /// Marks an announcement read by `account`; `true` when it was not read yet. `NotFound` for
    /// an unknown announcement.
    async fn dismiss_announcement(&self, account: Id, announcement: Id) -> StoreResult<bool>;
    /// Those of `announcements` that `account` dismissed, in any order.
    async fn dismissed_announcements(
        &self,
        account: Id,
        announcements: &[Id],
    ) -> StoreResult<Vec<Id>>;
    /// Keeps a reaction; `false` (and nothing changes) when the account already reacted to that
    /// announcement with that name. `NotFound` for an unknown announcement.
    async fn add_announcement_reaction(
        &self,
        reaction: &AnnouncementReactionRecord,
    ) -> StoreResult<bool>;
    /// Removes `account`'s reaction `name` to `announcement`; `false` when there was none.
    async fn remove_announcement_reaction(
        &self,
        announcement: Id,
        account: Id,
        name: &str,
    ) -> StoreResult<bool>;
    /// The reactions to `announcements`, one entry per announcement and name, counted, with
    /// whether `viewer` reacted so; per announcement in the order each name was first used.
    async fn announcement_reactions(
        &self,
        announcements: &[Id],
        viewer: Option<Id>,
    ) -> StoreResult<Vec<AnnouncementReactionCount>>;
}
