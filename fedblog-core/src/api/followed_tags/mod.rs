//! The hashtags the caller follows. <https://docs.joinmastodon.org/methods/followed_tags/>
pub mod list_followed_tags;
