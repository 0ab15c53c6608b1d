//! The `/api/v2_alpha/notifications` paths of grouped notifications, which Mastodon 4.3's betas
//! served before the API settled under `/api/v2/` and kept for the clients written against
//! them: each answers as its `/api/v2/` endpoint does, through that endpoint's own handler.
//! <https://docs.joinmastodon.org/methods/notifications_alpha/>
pub mod clear_notification_groups_alpha;
pub mod dismiss_notification_group_alpha;
pub mod get_notification_group_alpha;
pub mod list_notification_groups_alpha;
pub mod unread_group_count_alpha;
