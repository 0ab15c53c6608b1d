//! The caller's bookmarks. <https://docs.joinmastodon.org/methods/bookmarks/>
pub mod list_bookmarks;
