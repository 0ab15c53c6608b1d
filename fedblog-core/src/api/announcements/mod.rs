//! Announcements staff made for every local user: listing them, dismissing (marking read) and
//! reacting with emojis. <https://docs.joinmastodon.org/methods/announcements/>
pub mod add_announcement_reaction;
pub mod dismiss_announcement;
pub mod list_announcements;
pub mod remove_announcement_reaction;
