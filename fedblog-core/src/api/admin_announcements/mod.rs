//! Announcements as staff manage them: fedblog's own admin API, since Mastodon has none for
//! them (its staff use the web interface). Every endpoint needs a role with the announcements
//! permission (`manage_announcements`) and the `admin:read` (reads) or `admin:write` (changes)
//! scope.
//!
//! - `GET /api/v1/admin/announcements`: every announcement, drafts too, oldest first.
//! - `POST /api/v1/admin/announcements`: makes one (`text`; `starts_at` and `ends_at` both or
//!   neither; `all_day`; `publish=true` to publish it at once, else a draft).
//! - `GET`, `PUT` and `DELETE /api/v1/admin/announcements/:id`: reads, changes (the same
//!   parameters; an empty `starts_at`/`ends_at` clears it) and deletes one.
//! - `POST /api/v1/admin/announcements/:id/publish` and `/unpublish`: shows it to users, or
//!   takes it back to a draft.
//!
//! Answers are `AdminAnnouncement`s: `id`, `text`, `starts_at`, `ends_at`, `all_day`,
//! `published`, `published_at`, `created_at`, `updated_at`.
pub mod create_announcement;
pub mod delete_announcement;
pub mod get_announcement;
pub mod list_announcements;
pub mod publish_announcement;
pub mod unpublish_announcement;
pub mod update_announcement;
