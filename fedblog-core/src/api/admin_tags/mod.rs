//! Hashtags as staff review them (`/api/v1/admin/tags`): whether each may trend, is attached to
//! new statuses, and is found by search. Mastodon serves these routes without documenting them.
pub mod get_tag;
pub mod list_tags;
pub mod update_tag;
